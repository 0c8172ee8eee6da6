"""Stage standings: each entrant's carried points plus the stage's match points.

The match points, games and first places are the standings' own (`event_standings` over
the stage's sessions); this module only adds what a stage brings: who entered, what they
carried in (from the previous stage's standings and their seed), byes, and the stage's
ordered tie-breaks. Every figure is worked out when read, so a corrected hand of the
qualifying stage moves the carried points of the final with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

from django.db.models import Count, Max, Min, Q

import scoring
from scoring.errors import Phrase, gettext_noop

from ..models import Event, Game, GameSeat, Player, Stage, StageEntrant
from ..standings import event_standings
from .placement import Placed

TENTH = Decimal("0.1")
ROUNDINGS = {
    Stage.Rounding.HALF_UP: ROUND_HALF_UP,
    # M-League rounds a halved total up at the hundredth: 1.5 halved is 0.75, carried as
    # 0.8 (the rule as the league states it for its semi-final and final, quoted at
    # https://top3776.hatenablog.com/entry/2022/04/09/105419; the league: https://m-league.jp/).
    Stage.Rounding.UP: ROUND_CEILING,
    Stage.Rounding.DOWN: ROUND_FLOOR,
    Stage.Rounding.HALF_EVEN: ROUND_HALF_EVEN,
}
# When a stage names none: the event's total so far, the previous stage's rank, the best
# single game, first places; then a shared place.
DEFAULT_TIE_BREAKS = ("total", "previous_rank", "best_game", "firsts", "shared")
# A worse rank than any: for an entrant without a previous stage's rank.
NO_RANK = 10**9


@dataclass
class StageRow:
    player_id: int
    player: str
    seed: int
    carried: Decimal = Decimal("0.0")
    match_points: Decimal = Decimal("0.0")
    games: int = 0
    firsts: int = 0
    best_game: Decimal | None = None
    byes: int = 0
    bye_points: Decimal = Decimal("0.0")
    event_total: Decimal = Decimal("0.0")
    previous_rank: int | None = None
    rank: int = 0
    shared_rank: bool = False
    key: tuple = field(default=(), repr=False)

    @property
    def total(self) -> Decimal:
        return self.carried + self.match_points + self.bye_points

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.shared_rank else str(self.rank)


@dataclass
class StageStandings:
    stage: Stage
    rows: list[StageRow]
    # Whether the stage's entrants are known: the first stage always, a later one once cut.
    started: bool

    def row_of(self, player_id: int) -> StageRow | None:
        return next((r for r in self.rows if r.player_id == player_id), None)


def event_stages(event: Event) -> list[Stage]:
    return list(Stage.objects.filter(event=event).order_by("number"))


def carried_points(
    stage: Stage, seed: int, entrants: int, previous: StageRow | None, start_points: int
) -> Decimal:
    """What an entrant of seed `seed` (of `entrants`) carries into `stage`, given their
    row of the previous stage's standings: with a factor of 0.5 rounded up, a total of
    1.5 carries 0.8."""
    carry = stage.carry
    if carry == Stage.Carry.FULL:
        return previous.total if previous else Decimal("0.0")
    if carry == Stage.Carry.FACTOR:
        if previous is None or stage.carry_factor is None:
            return Decimal("0.0")
        exact = previous.total * stage.carry_factor
        return exact.quantize(TENTH, rounding=ROUNDINGS[stage.carry_rounding])
    if carry == Stage.Carry.SEED_TABLE:
        table = stage.carry_table
        if seed > len(table):
            return Decimal("0.0")
        return Decimal(str(table[seed - 1])).quantize(TENTH)
    if carry == Stage.Carry.BRACKETS:
        # Seeds split into as many brackets as there are values, the best first, each as
        # large as the first (the last may be short). A bracket's starting points above the
        # rules' starting points count as match points at 1,000 points each, as a game's
        # final score does against the return score.
        table = stage.carry_table
        if not table:
            return Decimal("0.0")
        size = math.ceil(entrants / len(table))
        value = int(table[min((seed - 1) // size, len(table) - 1)])
        return (Decimal(value - start_points) / 1000).quantize(TENTH)
    return Decimal("0.0")


def stage_rules(stage: Stage) -> scoring.Rules:
    if stage.rules_preset:
        return scoring.resolve_rules(stage.rules_preset)
    return stage.event.rules()


def _entrants(stage: Stage, previous: StageStandings | None, played: list[int]) -> list[int]:
    """The stage's entrants' player ids in seed order: as stored at the cut; before a cut
    of a first stage, everyone who played in it (by the previous order, then by id)."""
    entries = StageEntrant.objects.filter(stage=stage).order_by("seed")
    stored = list(entries.values_list("player_id", flat=True))
    if stored:
        return stored
    return list(played)


def stage_standings(stage: Stage, previous: StageStandings | None = None) -> StageStandings:
    """The standings of one stage, given the previous stage's (None for the first)."""
    event = stage.event
    started = stage.number == 1 or stage.cut_at is not None or previous is None
    within = event_standings(
        event, first_session=stage.first_session, last_session=stage.last_session, lines=0
    ).rows
    # The event's totals up to the stage's end: the stage's own when it starts with the
    # event's first session.
    first = event.sessions.aggregate(first=Min("number"))["first"]
    so_far = {
        r.player_id: r.match_points
        for r in (
            within
            if first is None or stage.first_session <= first
            else event_standings(event, last_session=stage.last_session, lines=0).rows
        )
    }
    by_player = {r.player_id: r for r in within}
    ids = _entrants(stage, previous, [r.player_id for r in within]) if started else []
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    seats = GameSeat.objects.filter(
        game__session__event=event,
        game__session__number__gte=stage.first_session,
        game__session__number__lte=stage.last_session,
        is_substitute=False,
    )
    # In one pass over the stage's seats, for every player of the stage at once (a list of
    # ids in the query makes SQLite walk the seats player by player: 222 ms against 12 ms
    # at 5,000 games): the best finished game, and the sessions the player sat in. A bye is
    # a session of the stage that was seated without this entrant at a table; each player's
    # seats are in seated sessions, so the byes are the seated sessions less the player's.
    # (No ordering: the seats' own would group by it.)
    best: dict[int, Decimal | None] = {}
    sat_in: dict[int, int] = {}
    for player_id, best_game, sessions in (
        seats.order_by()
        .values("player_id")
        .annotate(
            best=Max("match_points", filter=Q(game__status=Game.Status.FINISHED)),
            sessions=Count("game__session", distinct=True),
        )
        .values_list("player_id", "best", "sessions")
    ):
        best[player_id], sat_in[player_id] = best_game, sessions
    seated_sessions = (
        Game.objects.filter(
            session__event=event,
            session__number__gte=stage.first_session,
            session__number__lte=stage.last_session,
        )
        .order_by()
        .values("session")
        .distinct()
        .count()
    )
    start_points = stage_rules(stage).start_points
    rows = []
    for seed, player_id in enumerate(ids, start=1):
        earlier = previous.row_of(player_id) if previous else None
        played = by_player.get(player_id)
        byes = seated_sessions - sat_in.get(player_id, 0)
        rows.append(
            StageRow(
                player_id=player_id,
                player=names.get(player_id, ""),
                seed=seed,
                carried=carried_points(stage, seed, len(ids), earlier, start_points),
                match_points=played.match_points if played else Decimal("0.0"),
                games=played.games if played else 0,
                firsts=played.placement_counts[0] if played else 0,
                best_game=_tenth(best.get(player_id)),
                byes=byes,
                bye_points=stage.bye_points * byes,
                event_total=so_far.get(player_id, Decimal("0.0")),
                previous_rank=earlier.rank if earlier else None,
            )
        )
    rank_rows(rows, stage.tie_breaks or DEFAULT_TIE_BREAKS)
    return StageStandings(stage, rows, started)


def _tenth(value) -> Decimal | None:
    return None if value is None else Decimal(value).quantize(TENTH)


def _tie_break_value(row: StageRow, name: str):
    if name == Stage.TieBreak.TOTAL:
        return -row.event_total
    if name == Stage.TieBreak.CARRIED:
        return -row.carried
    if name == Stage.TieBreak.PREVIOUS_RANK:
        return NO_RANK if row.previous_rank is None else row.previous_rank
    if name == Stage.TieBreak.BEST_GAME:
        return -(row.best_game if row.best_game is not None else Decimal(-(10**6)))
    if name == Stage.TieBreak.FIRSTS:
        return -row.firsts
    raise ValueError(name)


def rank_rows(rows: list[StageRow], tie_breaks) -> None:
    """Order `rows` by total, then by each tie-break in turn up to "shared"; rows equal on
    all of them share a place (named in order for the page)."""
    used = []
    for name in tie_breaks:
        if name == Stage.TieBreak.SHARED:
            break
        used.append(name)
    for row in rows:
        row.key = (-row.total, *(_tie_break_value(row, name) for name in used))
    rows.sort(key=lambda r: (r.key, r.player.casefold()))
    for index, row in enumerate(rows):
        if index and rows[index - 1].key == row.key:
            row.rank = rows[index - 1].rank
            row.shared_rank = rows[index - 1].shared_rank = True
        else:
            row.rank, row.shared_rank = index + 1, False


def all_stage_standings(event: Event, stages: list[Stage] | None = None) -> list[StageStandings]:
    """Every stage's standings, first stage first (each carries from the one before)."""
    result: list[StageStandings] = []
    previous = None
    for stage in stages if stages is not None else event_stages(event):
        stage.event = event
        current = stage_standings(stage, previous)
        result.append(current)
        previous = current
    return result


def stages_placement(event: Event, stages: list[Stage]) -> list[Placed]:
    """The final placement of an event with stages (see `reading.placement`)."""
    standings = [s for s in all_stage_standings(event, stages) if s.started]
    if not standings:
        return []
    players = Player.objects.in_bulk({row.player_id for one in standings for row in one.rows})
    last = standings[-1]
    placed = [
        Placed(row.rank, players[row.player_id], row.total, row.shared_rank, last.stage.number)
        for row in last.rows
    ]
    seen = {row.player_id for row in last.rows}
    for earlier in reversed(standings[:-1]):
        left = [row for row in earlier.rows if row.player_id not in seen]
        offset = len(placed)
        places: list[tuple[int, bool]] = []
        for index, row in enumerate(left):
            if index and left[index - 1].key == row.key:
                places[-1] = (places[-1][0], True)
                places.append((places[-1][0], True))
            else:
                places.append((offset + index + 1, False))
        placed.extend(
            Placed(place, players[row.player_id], row.total, shared, earlier.stage.number, True)
            for (place, shared), row in zip(places, left, strict=True)
        )
        seen.update(row.player_id for row in left)
    return placed


def stage_of_session(event: Event, number: int) -> Stage | None:
    """The stage a session (by number) belongs to, if any (no query for an event
    without stages)."""
    if not event.stage_count:
        return None
    return (
        Stage.objects.filter(event=event, first_session__lte=number, last_session__gte=number)
        .order_by("number")
        .first()
    )


@dataclass(frozen=True)
class CutPreview:
    """Who would enter a stage, in seed order, or why the cut cannot be made yet."""

    rows: list[StageRow]
    refusal: Phrase | None = None
    # A cut to the top teams: the rows of the previous stage's team table that go through.
    teams: list = field(default_factory=list)


def cut_preview(
    stage: Stage, previous: StageStandings | None, named: list[int] | None = None
) -> CutPreview:
    """The entrants a cut to `stage` would fix, as rows of the previous stage (carrying
    their total and rank there), seed 1 first. `named`: the players the director listed
    for seeds (in seed order) or a list (seeded by the previous standings). A cut to the
    top teams lets through their members (`reading.teams.top_teams_cut`)."""
    if stage.entrants == Stage.Entrants.TOP_TEAMS:
        # The team table reads these stage standings: imported here, not at the top.
        from .teams import top_teams_cut

        return top_teams_cut(stage, previous)
    before = list(previous.rows) if previous else []
    by_id = {row.player_id: row for row in before}
    if stage.entrants == Stage.Entrants.TOP:
        top = stage.top or 0
        if len(before) < top:
            return CutPreview(
                before,
                Phrase(
                    gettext_noop(
                        "Only %(count)s players are in the previous stage's standings; the "
                        "cut takes %(top)s."
                    ),
                    count=len(before),
                    top=top,
                ),
            )
        if len(before) > top and before[top - 1].key == before[top].key:
            return CutPreview(
                before[:top],
                Phrase(
                    gettext_noop(
                        "Place %(top)s is shared after every tie-break, so the cut line falls "
                        "between equal players: add a tie-break to the previous stage."
                    ),
                    top=top,
                ),
            )
        return CutPreview(before[:top])
    if stage.entrants == Stage.Entrants.EVERYONE:
        return CutPreview(before)
    named = named or []
    rows = [by_id.get(pid) or _unplaced(pid) for pid in named]
    if stage.entrants == Stage.Entrants.LIST:
        # A list is seeded by the previous stage's standings; players not in them last.
        rows.sort(key=lambda r: (r.rank == 0, r.rank))
    return CutPreview(rows)


def _unplaced(player_id: int) -> StageRow:
    name = Player.objects.filter(pk=player_id).values_list("display_name", flat=True).first()
    return StageRow(player_id=player_id, player=name or "", seed=0)

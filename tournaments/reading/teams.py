"""Team standings and who may see a line-up.

A team's total in a stage is the sum of its members' totals there, or of the best k of
them (the stage's "members counted", else the event's). A member's total is read from the
standings the players' tables show, never worked out again: for an event with stages the
stage standings (`reading.stages`: carried points, the stage's match points and byes), for
an event without stages the event standings (`standings.event_standings`). Members who do
not appear in a stage's standings (not entrants, no games) count nothing there.

A team league's later stage may take the top teams of the previous one (`top_teams_cut`):
the cut then lets through the members of those teams, as `reading.stages.cut_preview`
lets players through, and each member carries their own total as the stage says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from scoring.errors import Phrase, gettext_noop

from ..models import Event, LineUp, Player, Session, Stage, Team, TeamMember
from ..standings import event_standings
from .stages import CutPreview, StageRow, StageStandings, all_stage_standings

ZERO = Decimal("0.0")


@dataclass
class MemberLine:
    player_id: int
    player: str
    carried: Decimal
    match_points: Decimal
    games: int
    counted: bool = False

    @property
    def total(self) -> Decimal:
        return self.carried + self.match_points


@dataclass
class TeamRow:
    team_id: int
    team: str
    members: list[MemberLine] = field(default_factory=list)
    rank: int = 0
    shared_rank: bool = False

    @property
    def counted(self) -> list[MemberLine]:
        return [m for m in self.members if m.counted]

    @property
    def carried(self) -> Decimal:
        return sum((m.carried for m in self.counted), ZERO)

    @property
    def match_points(self) -> Decimal:
        return sum((m.match_points for m in self.counted), ZERO)

    @property
    def total(self) -> Decimal:
        return self.carried + self.match_points

    @property
    def games(self) -> int:
        return sum(m.games for m in self.members)

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.shared_rank else str(self.rank)


@dataclass
class TeamTable:
    """The team standings of one stage (`stage` None: an event without stages)."""

    stage: Stage | None
    best: int | None
    rows: list[TeamRow]


def _teams(event: Event) -> list[tuple[Team, list[int]]]:
    members: dict[int, list[int]] = {}
    for team_id, player_id in TeamMember.objects.filter(event=event).values_list(
        "team_id", "player_id"
    ):
        members.setdefault(team_id, []).append(player_id)
    return [(team, members.get(team.pk, [])) for team in Team.objects.filter(event=event)]


def team_rows(teams, lines: dict[int, MemberLine], best: int | None) -> list[TeamRow]:
    """Each team's row from its members' lines, counting the best `best` (None: all), ranked
    by total; teams equal on total share a place."""
    rows = []
    for team, member_ids in teams:
        row = TeamRow(team.pk, team.name)
        row.members = sorted(
            (lines[pid] for pid in member_ids if pid in lines),
            key=lambda m: (-m.total, m.player.casefold()),
        )
        for index, line in enumerate(row.members):
            line.counted = best is None or index < best
        rows.append(row)
    rows.sort(key=lambda r: (-r.total, r.team.casefold()))
    for index, row in enumerate(rows):
        if index and rows[index - 1].total == row.total:
            row.rank = rows[index - 1].rank
            row.shared_rank = rows[index - 1].shared_rank = True
        else:
            row.rank = index + 1
    return rows


def team_tables(event: Event) -> list[TeamTable]:
    """The team standings of every stage, first stage first (one table without stages)."""
    teams = _teams(event)
    if not event.stage_count:
        lines = {
            r.player_id: MemberLine(r.player_id, r.player, ZERO, r.match_points, r.games)
            for r in event_standings(event, lines=0).rows
        }
        return [TeamTable(None, event.team_best, team_rows(teams, lines, event.team_best))]
    return [stage_team_table(event, standings, teams) for standings in all_stage_standings(event)]


def stage_team_table(event: Event, standings: StageStandings, teams=None) -> TeamTable:
    """The team standings of one stage, from that stage's standings."""
    stage = standings.stage
    best = stage.team_best or event.team_best
    lines = {
        r.player_id: MemberLine(
            r.player_id, r.player, r.carried, r.match_points + r.bye_points, r.games
        )
        for r in standings.rows
    }
    teams = _teams(event) if teams is None else teams
    if stage.number > 1 and lines:
        # A later stage's entrants were cut: a team with none of them is out, not at 0.0.
        teams = [(team, ids) for team, ids in teams if any(pid in lines for pid in ids)]
    return TeamTable(stage, best, team_rows(teams, lines, best))


def top_teams_cut(stage: Stage, previous: StageStandings | None) -> CutPreview:
    """A cut to the top `stage.top` teams of the previous stage's team table: every member
    of those teams (reserves too: the team plays the stage with its roster), seeded by
    their team's rank, then by their own rank in the previous stage; members without one
    (they played no game of it) come last in their team, by name. Teams equal on total at
    the cut line are refused, as equal players are at a cut to the top players: team
    totals have no tie-breaks to part them."""
    event = stage.event
    if not event.team_event:
        return CutPreview(
            [],
            Phrase(
                gettext_noop(
                    "Only a team event can let the top teams through: make the event a team "
                    "event, or choose the top players."
                )
            ),
        )
    if previous is None or not previous.rows:
        return CutPreview([])
    top = stage.top or 0
    teams = _teams(event)
    rows = stage_team_table(event, previous, teams).rows
    if len(rows) < top:
        return CutPreview(
            [],
            Phrase(
                gettext_noop(
                    "Only %(count)s teams are in the previous stage's team table; the cut "
                    "takes %(top)s."
                ),
                count=len(rows),
                top=top,
            ),
        )
    if len(rows) > top and rows[top - 1].total == rows[top].total:
        return CutPreview(
            [],
            Phrase(
                gettext_noop(
                    "%(first)s and %(second)s share place %(place)s of the team table, so the "
                    "cut line falls between equal teams: cut to another number of teams, or "
                    "list the players who go through."
                ),
                first=rows[top - 1].team,
                second=rows[top].team,
                place=rows[top - 1].rank,
            ),
        )
    through = rows[:top]
    members = {team.pk: ids for team, ids in teams}
    wanted = [pid for row in through for pid in members.get(row.team_id, [])]
    names = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "display_name"))
    entrants: list[StageRow] = []
    for row in through:
        placed, unplaced = [], []
        for pid in members.get(row.team_id, []):
            earlier = previous.row_of(pid)
            if earlier is not None:
                placed.append(earlier)
            else:
                unplaced.append(StageRow(player_id=pid, player=names.get(pid, ""), seed=0))
        placed.sort(key=lambda r: (r.rank, r.player.casefold()))
        unplaced.sort(key=lambda r: r.player.casefold())
        entrants.extend(placed + unplaced)
    return CutPreview(entrants, teams=through)


def captain_team(user, event: Event) -> Team | None:
    """The team of the event whose captain is the user's player, if any."""
    if not user.is_authenticated:
        return None
    player = Player.objects.filter(user=user).first()
    if player is None:
        return None
    return Team.objects.filter(event=event, captain=player).first()


def lineups_open(session: Session, now) -> bool:
    return session.lineup_deadline is not None and now < session.lineup_deadline


def lineup_visible(
    lineup: LineUp, *, organiser: bool, own_team: Team | None, now, seated: bool = False
) -> bool:
    """A line-up shows to the event's organisers and its own team's captain at once, to
    everyone else once the session's deadline has passed or the session is seated (its
    seating list shows who plays)."""
    if organiser or seated or (own_team is not None and own_team.pk == lineup.team_id):
        return True
    deadline = lineup.session.lineup_deadline
    return deadline is not None and now >= deadline

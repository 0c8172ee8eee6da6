"""The stored standings totals: one row per player and session, one per player for the
whole event, and the number of finished games of each session; and beside them the stored
statistics of the finished games, one row per player and session and one per player for
the whole event.

The standings read these rows and nothing else, and the statistics read them with the seats
of the games still going, so that both right after a change cost the same at 500 games as
at 20,000. Every change of results rewrites them in its own transaction:

- a change to one game (`game_changed`) recounts the rows of that game's players (each
  player's seats in one session, then their session rows) under a lock on those players,
  and moves the session's count of games by one when the game starts or stops counting;
  two tables share no player, so neither waits for the other;
- anything larger (an import, new rules, a restore: `results_changed`) recounts the whole
  event.

Both mark the event's results as changed (`versions.changed`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import F

from . import versions
from .models import (
    CheckIn,
    Event,
    Game,
    GameSeat,
    Player,
    PlayerTotal,
    Session,
    SessionTotal,
    StatisticsTotal,
    SubstituteRule,
)
from .statistics import SEAT_VALUES, STORED_VALUES, PlayerStats

# Fields of a row that hold counts, in the order `_Sums.values()` gives them.
COUNTED = (
    "games",
    "points_tenths",
    "penalty_tenths",
    "score",
    "firsts",
    "seconds",
    "thirds",
    "fourths",
    "placements",
)


@dataclass
class _Sums:
    games: int = 0
    points: int = 0  # tenths
    penalties: int = 0  # tenths
    score: int = 0
    firsts: int = 0
    seconds: int = 0
    thirds: int = 0
    fourths: int = 0
    placements: str = ""

    def add_seat(self, score: int, placement: int, points, penalty) -> None:
        self.games += 1
        self.points += tenths(points)
        self.penalties += tenths(penalty)
        self.score += score
        self._place(placement, 1)
        self.placements += str(placement)

    def add_replaced(self, last_place: int) -> None:
        """A game a substitute played in this player's place, under the EMA substitute
        rule: a game at -30 match points, counted as the table's last place with no final
        score (see `replaced_games`)."""
        self.games += 1
        self.points += tenths(REPLACED_GAME_POINTS)
        self._place(last_place, 1)
        self.placements += str(last_place)

    def add_row(self, row: tuple) -> None:
        games, points, penalties, score, first, second, third, fourth, _placements = row
        self.games += games
        self.points += points
        self.penalties += penalties
        self.score += score
        self.firsts += first
        self.seconds += second
        self.thirds += third
        self.fourths += fourth

    def _place(self, placement: int, count: int) -> None:
        if placement == 1:
            self.firsts += count
        elif placement == 2:
            self.seconds += count
        elif placement == 3:
            self.thirds += count
        else:
            self.fourths += count

    def values(self) -> tuple:
        return (
            self.games,
            self.points,
            self.penalties,
            self.score,
            self.firsts,
            self.seconds,
            self.thirds,
            self.fourths,
            self.placements,
        )


def tenths(value) -> int:
    """Match points (a Decimal with at most one decimal place, or a float SQLite made of
    one) as whole tenths."""
    return int(round(value * 10))


def _counted_seats(**where) -> Iterable[tuple]:
    """(session id, player id, score, placement, match points, penalty) of the finished,
    non-substitute seats matching `where`, in play order within each session."""
    return (
        GameSeat.objects.filter(game__status=Game.Status.FINISHED, is_substitute=False, **where)
        .order_by("game__session_id", "game__table_number", "game_id")
        .values_list(
            "game__session_id", "player_id", "score", "placement", "match_points", "penalty_points"
        )
    )


# The EMA substitute rule (`SubstituteRule.EMA`): the player a substitute replaced is given
# that game at -30 match points (the rule as issue 29 states it: "a replaced player's game
# fixed at -30"; the EMA's pages found for it give no other figure).
REPLACED_GAME_POINTS = Decimal(-30)


def ema_rule_event(event_id: int, game: Game | None = None) -> Event | None:
    """The event if it keeps the EMA substitute rule, else None; read from `game` when it
    holds its event already (a hand's save), so that the common case costs no query."""
    if game is not None and Game.session.is_cached(game) and Session.event.is_cached(game.session):
        event = game.session.event
        return event if event.substitute_rule == SubstituteRule.EMA else None
    return Event.objects.filter(pk=event_id, substitute_rule=SubstituteRule.EMA).first()


_NOT_READ = object()


def replaced_games(
    event_id: int,
    *,
    session_id: int | None = None,
    player_ids: Iterable[int] | None = None,
    event: Event | None | object = _NOT_READ,
) -> list[tuple[int, int, int]]:
    """(session id, replaced player id, the table's last place) for each finished game a
    substitute of the pool played in a no-show's place (`CheckIn.replaced_by`), when the
    event keeps the EMA substitute rule; none under today's rule, where the replaced player
    simply misses the game. Optionally only in one session, or of some replaced players;
    `event` is `ema_rule_event`'s answer when the caller has it."""
    if event is _NOT_READ:
        event = ema_rule_event(event_id)
    if event is None:
        return []
    checks = CheckIn.objects.filter(
        session__event_id=event_id, present=False, replaced_by__isnull=False
    )
    if session_id is not None:
        checks = checks.filter(session_id=session_id)
    if player_ids is not None:
        checks = checks.filter(player_id__in=list(player_ids))
    replaced = {
        (session, substitute): player
        for session, player, substitute in checks.values_list(
            "session_id", "player_id", "replaced_by_id"
        )
    }
    if not replaced:
        return []
    last_place = event.player_count
    seats = (
        GameSeat.objects.filter(
            game__status=Game.Status.FINISHED,
            is_substitute=True,
            game__session_id__in={session for session, _ in replaced},
            player_id__in={substitute for _, substitute in replaced},
        )
        .order_by("game__session_id", "game__table_number", "game_id")
        .values_list("game__session_id", "player_id")
    )
    return [
        (session, replaced[session, substitute], last_place)
        for session, substitute in seats
        if (session, substitute) in replaced
    ]


def replacing(game: Game) -> set[int]:
    """The players the substitutes of `game` replaced (for the EMA substitute rule)."""
    substitutes = set(
        GameSeat.objects.filter(game_id=game.pk, is_substitute=True).values_list(
            "player_id", flat=True
        )
    )
    if not substitutes:
        return set()
    return set(
        CheckIn.objects.filter(
            session_id=game.session_id, present=False, replaced_by_id__in=substitutes
        ).values_list("player_id", flat=True)
    )


def _game_counts(**where) -> dict[int, int]:
    """Finished games with at least one ranked seat, per session id."""
    counts: dict[int, set[int]] = {}
    for session_id, game_id in (
        GameSeat.objects.filter(game__status=Game.Status.FINISHED, is_substitute=False, **where)
        .values_list("game__session_id", "game_id")
        .distinct()
    ):
        counts.setdefault(session_id, set()).add(game_id)
    return {session_id: len(games) for session_id, games in counts.items()}


def _row(event_id: int, session_id: int | None, player_id: int, values: tuple) -> PlayerTotal:
    return PlayerTotal(
        event_id=event_id,
        session_id=session_id,
        player_id=player_id,
        **dict(zip(COUNTED, values, strict=True)),
    )


def _statistics_of_seats(**where) -> dict[tuple[int, int], PlayerStats]:
    """The statistics of the finished seats matching `where` (substitutes too), per session
    id and player id."""
    found: dict[tuple[int, int], PlayerStats] = {}
    for session_id, player_id, *values in (
        GameSeat.objects.filter(game__status=Game.Status.FINISHED, **where)
        .order_by()
        .values_list("game__session_id", "player_id", *SEAT_VALUES)
    ):
        stats = found.get((session_id, player_id))
        if stats is None:
            stats = found[session_id, player_id] = PlayerStats(player_id, "")
        stats.add_seat(values)
    return found


def _statistics_row(event_id: int, session_id: int | None, stats: PlayerStats) -> StatisticsTotal:
    return StatisticsTotal(
        event_id=event_id, session_id=session_id, player_id=stats.player_id, **stats.stored()
    )


def rebuild(event_id: int) -> None:
    """Recount every stored total and statistics row of the event from its seats."""
    sessions: dict[tuple[int, int], _Sums] = {}
    for session_id, player_id, score, placement, points, penalty in _counted_seats(
        game__session__event_id=event_id
    ):
        sums = sessions.get((session_id, player_id))
        if sums is None:
            sums = sessions[session_id, player_id] = _Sums()
        sums.add_seat(score, placement, points, penalty)
    for session_id, player_id, last_place in replaced_games(event_id):
        sessions.setdefault((session_id, player_id), _Sums()).add_replaced(last_place)
    players: dict[int, _Sums] = {}
    for (_session, player_id), sums in sessions.items():
        players.setdefault(player_id, _Sums()).add_row(sums.values())
    PlayerTotal.objects.filter(event_id=event_id).delete()
    SessionTotal.objects.filter(event_id=event_id).delete()
    PlayerTotal.objects.bulk_create(
        [_row(event_id, s, p, sums.values()) for (s, p), sums in sessions.items()]
        + [_row(event_id, None, p, sums.values()) for p, sums in players.items()],
        batch_size=1000,
    )
    SessionTotal.objects.bulk_create(
        SessionTotal(session_id=s, event_id=event_id, games=n)
        for s, n in _game_counts(game__session__event_id=event_id).items()
    )
    by_session = _statistics_of_seats(game__session__event_id=event_id)
    overall: dict[int, PlayerStats] = {}
    for stats in by_session.values():
        if stats.player_id not in overall:
            overall[stats.player_id] = PlayerStats(stats.player_id, "")
        overall[stats.player_id].add(stats)
    StatisticsTotal.objects.filter(event_id=event_id).delete()
    StatisticsTotal.objects.bulk_create(
        [_statistics_row(event_id, s, stats) for (s, _p), stats in by_session.items()]
        + [_statistics_row(event_id, None, stats) for stats in overall.values()],
        batch_size=1000,
    )


def _lock_players(ids: Iterable[int]) -> None:
    """Hold the players' rows until the end of the transaction: every recount of a player's
    totals takes this lock first, so two recounts of one player come one after the other,
    the second reading what the first committed. (FOR NO KEY UPDATE: a new seat of the
    player, which only refers to the row, does not wait.)"""
    list(
        Player.objects.select_for_update(no_key=True)
        .filter(pk__in=sorted(set(ids)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _recount_players(
    event_id: int, session_id: int, ids: set[int], *, ema_event: Event | None | object = _NOT_READ
) -> None:
    """Recount the rows of players `ids` in one session, then their event rows
    (`ema_event`: see `replaced_games`)."""
    _lock_players(ids)
    counted: dict[int, _Sums] = {}
    for _session, player_id, score, placement, points, penalty in _counted_seats(
        game__session_id=session_id, player_id__in=ids
    ):
        counted.setdefault(player_id, _Sums()).add_seat(score, placement, points, penalty)
    for _session, player_id, last_place in replaced_games(
        event_id, session_id=session_id, player_ids=ids, event=ema_event
    ):
        counted.setdefault(player_id, _Sums()).add_replaced(last_place)
    PlayerTotal.objects.filter(session_id=session_id, player_id__in=ids).delete()
    PlayerTotal.objects.bulk_create(
        _row(event_id, session_id, p, sums.values()) for p, sums in counted.items()
    )
    overall: dict[int, _Sums] = {}
    for player_id, *values in PlayerTotal.objects.filter(
        event_id=event_id, session__isnull=False, player_id__in=ids
    ).values_list("player_id", *COUNTED):
        overall.setdefault(player_id, _Sums()).add_row(tuple(values))
    PlayerTotal.objects.filter(event_id=event_id, session__isnull=True, player_id__in=ids).delete()
    PlayerTotal.objects.bulk_create(
        _row(event_id, None, p, sums.values()) for p, sums in overall.items()
    )
    _recount_statistics(event_id, session_id, ids)


def _recount_statistics(event_id: int, session_id: int, ids: set[int]) -> None:
    """Recount the statistics rows of players `ids` in one session, then their event rows
    (under the players' lock, taken by the caller)."""
    by_session = _statistics_of_seats(game__session_id=session_id, player_id__in=ids)
    StatisticsTotal.objects.filter(session_id=session_id, player_id__in=ids).delete()
    StatisticsTotal.objects.bulk_create(
        _statistics_row(event_id, session_id, stats) for stats in by_session.values()
    )
    overall: dict[int, PlayerStats] = {}
    for player_id, *values in StatisticsTotal.objects.filter(
        event_id=event_id, session__isnull=False, player_id__in=ids
    ).values_list("player_id", *STORED_VALUES):
        if player_id not in overall:
            overall[player_id] = PlayerStats(player_id, "")
        overall[player_id].add_stored(values)
    StatisticsTotal.objects.filter(
        event_id=event_id, session__isnull=True, player_id__in=ids
    ).delete()
    StatisticsTotal.objects.bulk_create(
        _statistics_row(event_id, None, stats) for stats in overall.values()
    )


def _count_games(event_id: int, session_id: int, delta: int) -> None:
    """Move a session's count of finished games by `delta`, in one statement that adds to
    what is stored (two tables finishing at once each add their own game)."""
    if delta < 0:
        SessionTotal.objects.filter(session_id=session_id).update(games=F("games") + delta)
        SessionTotal.objects.filter(session_id=session_id, games=0).delete()
    elif delta > 0:
        table = connection.ops.quote_name(SessionTotal._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (session_id, event_id, games) VALUES (%s, %s, %s) "
                f"ON CONFLICT (session_id) DO UPDATE SET games = {table}.games + excluded.games",
                [session_id, event_id, delta],
            )


_pending: ContextVar[set[int] | None] = ContextVar("pending", default=None)


def counted(game: Game) -> bool:
    """Whether the standings count `game` as stored: finished, with at least one ranked
    seat holding its results."""
    return (
        game.status == Game.Status.FINISHED
        and GameSeat.objects.filter(
            game_id=game.pk, is_substitute=False, placement__isnull=False
        ).exists()
    )


def event_of(game: Game) -> int:
    if Game.session.is_cached(game):
        return game.session.event_id
    return Session.objects.values_list("event_id", flat=True).get(pk=game.session_id)


def game_changed(game: Game, *, counted_before: bool, players: Iterable[int] = ()) -> None:
    """Bring the totals up to date after a change to the results of one game (made in this
    transaction, under the game's lock): `counted_before` says whether the standings
    counted it before, `players` names players who left its seats."""
    event_id = event_of(game)
    pending = _pending.get()
    if pending is not None:
        pending.add(event_id)
        return
    ids = set(players) | set(
        GameSeat.objects.filter(game_id=game.pk).values_list("player_id", flat=True)
    )
    ema_event = ema_rule_event(event_id, game)
    if ema_event is not None:
        # The players its substitutes replaced are given the game too.
        ids |= replacing(game)
    _recount_players(event_id, game.session_id, ids, ema_event=ema_event)
    _count_games(event_id, game.session_id, int(counted(game)) - int(counted_before))
    versions.changed(event_id, results=True)


def game_removed(event_id: int, session_id: int, players: Iterable[int], *, was_counted: bool):
    """`game_changed` for a game deleted (with its seats) in this transaction."""
    pending = _pending.get()
    if pending is not None:
        pending.add(event_id)
        return
    players = set(players)
    # The players its substitutes replaced lose the game too (the EMA substitute rule).
    players |= set(
        CheckIn.objects.filter(
            session_id=session_id, present=False, replaced_by_id__in=players
        ).values_list("player_id", flat=True)
    )
    _recount_players(event_id, session_id, players)
    if was_counted:
        _count_games(event_id, session_id, -1)
    versions.changed(event_id, results=True)


def results_changed(event_id: int) -> None:
    """Recount every stored total of the event (after many games changed at once) and
    mark its results as changed. Within `batched()` the work waits for the end of the
    batch."""
    pending = _pending.get()
    if pending is not None:
        pending.add(event_id)
        return
    with transaction.atomic():
        _lock_players(
            GameSeat.objects.filter(game__session__event_id=event_id)
            .values_list("player_id", flat=True)
            .distinct()
        )
        rebuild(event_id)
    versions.changed(event_id, results=True)


@contextmanager
def batched() -> Iterator[None]:
    """Count the changes of results made inside once, at the end (many games rescored or
    imported in one transaction). Use it inside that transaction."""
    if _pending.get() is not None:
        yield
        return
    pending: set[int] = set()
    reset = _pending.set(pending)
    try:
        yield
    finally:
        _pending.reset(reset)
    for event_id in sorted(pending):
        results_changed(event_id)

"""The stored standings totals: one row per player and session, one per player for the
whole event, and the number of finished games of each session.

Standings read these rows instead of summing every seat of the event, so that standings
right after a change cost the same at 500 games as at 20,000. They are rewritten in the
transaction that changes the results, by `results_changed`, which also replaces the
event's tokens:

- a change to one game's results recounts that game's session (a few hundred seats) and
  then the event totals of just the players whose session row changed;
- anything else (`rebuild`) recounts the whole event.

`Event.totals_token` names the results token the rows agree with. A change made some other
way (`EventQuerySet.results_changed()`, a deletion in the admin) leaves it behind: the
standings are then summed from the seats, as if nothing were stored, and the next change
through `results_changed` rebuilds the rows. So a forgotten path costs speed, never a
wrong number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.db import transaction

from .models import Event, Game, GameSeat, PlayerTotal, Session, SessionTotal, new_results_token

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


def rebuild(event_id: int) -> None:
    """Recount every stored total of the event from its seats."""
    sessions: dict[tuple[int, int], _Sums] = {}
    for session_id, player_id, score, placement, points, penalty in _counted_seats(
        game__session__event_id=event_id
    ):
        sums = sessions.get((session_id, player_id))
        if sums is None:
            sums = sessions[session_id, player_id] = _Sums()
        sums.add_seat(score, placement, points, penalty)
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


def _recount_session(event_id: int, session_id: int) -> None:
    """Recount one session's rows, then the event totals of the players whose row in the
    session changed (usually the four of one game)."""
    counted: dict[int, _Sums] = {}
    for _session, player_id, score, placement, points, penalty in _counted_seats(
        game__session_id=session_id
    ):
        counted.setdefault(player_id, _Sums()).add_seat(score, placement, points, penalty)
    stored = {
        player_id: values
        for player_id, *values in PlayerTotal.objects.filter(session_id=session_id).values_list(
            "player_id", *COUNTED
        )
    }
    changed = {
        player_id
        for player_id in counted.keys() | stored.keys()
        if player_id not in counted
        or player_id not in stored
        or tuple(stored[player_id]) != counted[player_id].values()
    }
    games = _game_counts(game__session_id=session_id).get(session_id, 0)
    SessionTotal.objects.filter(session_id=session_id).delete()
    if games:
        SessionTotal.objects.create(session_id=session_id, event_id=event_id, games=games)
    if not changed:
        return
    PlayerTotal.objects.filter(session_id=session_id, player_id__in=changed).delete()
    PlayerTotal.objects.bulk_create(
        _row(event_id, session_id, p, counted[p].values()) for p in changed if p in counted
    )
    overall: dict[int, _Sums] = {}
    for player_id, *values in PlayerTotal.objects.filter(
        event_id=event_id, session__isnull=False, player_id__in=changed
    ).values_list("player_id", *COUNTED):
        overall.setdefault(player_id, _Sums()).add_row(tuple(values))
    PlayerTotal.objects.filter(
        event_id=event_id, session__isnull=True, player_id__in=changed
    ).delete()
    PlayerTotal.objects.bulk_create(
        _row(event_id, None, p, sums.values()) for p, sums in overall.items()
    )


# Past this many sessions changed at once, recounting the whole event is the cheaper way.
RECOUNT_SESSIONS = 8

_pending: ContextVar[dict[int, set[int | None]] | None] = ContextVar("pending", default=None)


def results_changed(event_id: int, *, sessions: Iterable[int] | None = None) -> None:
    """Mark the event's results as changed and bring its stored totals up to date: only
    the `sessions` (ids) if the change was confined to them and the totals agreed with
    the results before it, otherwise all of them. Call it inside the transaction that
    changed the results, after the change. Within `batched()` the work waits for the end
    of the batch."""
    pending = _pending.get()
    if pending is not None:
        pending.setdefault(event_id, set()).update([None] if sessions is None else sessions)
        return
    sessions = None if sessions is None else set(sessions)
    with transaction.atomic():
        # The event's row is locked first, so that two changes of one session are counted
        # one after the other, each seeing the other's seats once it is committed.
        event = (
            Event.objects.select_for_update()
            .only("results_token", "totals_token")
            .filter(pk=event_id)
            .first()
        )
        if event is None:
            return
        if (
            sessions is not None
            and len(sessions) <= RECOUNT_SESSIONS
            and event.totals_token == event.results_token
        ):
            for session_id in sorted(sessions):
                _recount_session(event_id, session_id)
        else:
            rebuild(event_id)
        token = new_results_token()
        Event.objects.filter(pk=event_id).update(
            results_token=token, play_token=new_results_token(), totals_token=token
        )


@contextmanager
def batched() -> Iterator[None]:
    """Count the changes of results made inside once, at the end (many games rescored or
    imported in one transaction). Use it inside that transaction."""
    if _pending.get() is not None:
        yield
        return
    pending: dict[int, set[int | None]] = {}
    reset = _pending.set(pending)
    try:
        yield
    finally:
        _pending.reset(reset)
    for event_id, sessions in pending.items():
        results_changed(event_id, sessions=None if None in sessions else sessions)


def game_results_changed(game: Game) -> None:
    """`results_changed` for a change to the results of one game."""
    if Game.session.is_cached(game):
        event_id = game.session.event_id
    else:
        event_id = Session.objects.values_list("event_id", flat=True).get(pk=game.session_id)
    results_changed(event_id, sessions=[game.session_id])


def agree(event: Event) -> bool:
    """Whether the stored totals count the results `event` (as loaded) stands for."""
    return bool(event.totals_token) and event.totals_token == event.results_token

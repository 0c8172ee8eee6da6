"""Event standings from the stored totals of finished games (`tournaments.totals`), the one
source of their numbers: the page, the print, the live screen and every export read them.

Ranking: higher total match points first; then more first places; then the better
(lower) average placement; then the higher average final score. Players still equal on
all four share a rank.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Max, Sum

from .models import Event, GameSeat, PlayerTotal, SessionTotal
from .wording.formatting import average


@dataclass
class SessionLine:
    """A player's games in one session: match points and placements in order."""

    match_points: Decimal = Decimal(0)
    placements: list[int] = field(default_factory=list)

    @property
    def placements_text(self) -> str:
        return "·".join(str(p) for p in self.placements)


class StoredLine:
    """A player's games in one session as the stored totals hold them (match points in
    tenths, placements as digits), turned into numbers only when read: the standings carry
    lines for every player, and a page shows a hundred of them. Reads as a `SessionLine`."""

    __slots__ = ("tenths", "digits")

    def __init__(self, tenths: int, digits: str):
        self.tenths, self.digits = tenths, digits

    @property
    def match_points(self) -> Decimal:
        return _from_tenths(self.tenths)

    @property
    def placements(self) -> list[int]:
        return list(map(int, self.digits))

    @property
    def placements_text(self) -> str:
        return "·".join(self.digits)


@dataclass
class StandingsRow:
    player_id: int
    player: str
    rank: int = 0
    shared_rank: bool = False
    games: int = 0
    match_points: Decimal = Decimal(0)
    penalties: Decimal = Decimal(0)
    placement_counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    score_total: int = 0
    sessions: dict[int, SessionLine | StoredLine] = field(default_factory=dict)

    @property
    def played_match_points(self) -> Decimal | None:
        """The total, or None before any finished game (shown as missing, not as zero)."""
        return self.match_points if self.games else None

    @property
    def average_placement(self) -> Decimal | None:
        """Two decimals, halves up (13 over 8 games is 1.63); None without games."""
        placed = sum((i + 1) * n for i, n in enumerate(self.placement_counts))
        return average(placed, self.games, 2)

    @property
    def average_score(self) -> int | None:
        # Whole points, halves up: a displayed figure, never summed again.
        mean = average(self.score_total, self.games, 0)
        return None if mean is None else int(mean)

    def add(self, score: int, placement: int, points: Decimal, penalty: Decimal) -> None:
        """Count one finished seat."""
        self.games += 1
        self.match_points += points
        self.penalties += penalty
        self.placement_counts[placement - 1] += 1
        self.score_total += score

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.shared_rank else str(self.rank)

    def sort_key(self) -> tuple:
        return (
            -self.match_points,
            -self.placement_counts[0],
            Decimal(sum((i + 1) * n for i, n in enumerate(self.placement_counts))) / self.games,
            -Decimal(self.score_total) / self.games,
        )


@dataclass
class Standings:
    event: Event
    rows: list[StandingsRow]
    sessions: list[int]  # session numbers with finished games, in order
    games: int  # finished games counted


def player_totals(player_id: int, name: str, seats: Iterable[GameSeat]) -> StandingsRow:
    """One player's totals over finished `seats`: the same row the standings show, so the
    player page and the standings count and round alike."""
    row = StandingsRow(player_id, name)
    for seat in seats:
        row.add(seat.score, seat.placement, seat.match_points, seat.penalty_points)
    return row


def _rank(rows: list[StandingsRow]) -> None:
    # Each row's key is worked out once: hundreds of rows, each key a few divisions.
    keyed = sorted(((r.sort_key(), r.player.casefold(), r) for r in rows), key=_first_two)
    rows[:] = [row for _key, _name, row in keyed]
    for index, (key, _name, row) in enumerate(keyed):
        if index and keyed[index - 1][0] == key:
            row.rank = rows[index - 1].rank
            row.shared_rank = rows[index - 1].shared_rank = True
        else:
            row.rank = index + 1


def _first_two(item: tuple) -> tuple:
    return item[0], item[1]


# Sessions whose lines (match points and placements) the standings carry: the latest of
# the range, as many as a table shows. Totals count every session.
SESSION_LINES = 10


def event_standings(
    event: Event,
    *,
    first_session=None,
    last_session=None,
    min_games: int = 0,
    lines: int = SESSION_LINES,
) -> Standings:
    """The standings of an event, optionally over a range of sessions and only for
    players with at least `min_games` finished games (ranks are then among those shown).

    The numbers are those of the stored totals (`tournaments.totals`): a row per player for
    the whole event (or per player and session within a range of sessions), and the
    session rows of the latest `lines` sessions for their lines."""
    in_range = PlayerTotal.objects.filter(event=event)
    session_counts = SessionTotal.objects.filter(event=event, games__gt=0)
    if last_session is not None and first_session is None:
        # A range to a session after every session with games counts them all: the event's
        # own stored rows say so without summing every session's.
        if not session_counts.filter(session__number__gt=last_session).exists():
            last_session = None
    if first_session is not None:
        in_range = in_range.filter(session__number__gte=first_session)
        session_counts = session_counts.filter(session__number__gte=first_session)
    if last_session is not None:
        in_range = in_range.filter(session__number__lte=last_session)
        session_counts = session_counts.filter(session__number__lte=last_session)
    per_session = {
        number: (session_id, games)
        for session_id, number, games in session_counts.values_list(
            "session_id", "session__number", "games"
        )
    }
    sessions = sorted(per_session)
    counted = ("games", "points_tenths", "penalty_tenths", "score")
    places = ("firsts", "seconds", "thirds", "fourths")
    recent = {per_session[n][0]: n for n in (sessions[-lines:] if lines else [])}
    lines_read: list[tuple] = []
    if first_session is None and last_session is None:
        # Two queries, each one read through the (event, session) index: asked for at
        # once, a database reads every session row of the event to find the few wanted.
        counted_rows = in_range.filter(session__isnull=True).values_list(
            "player_id", "player__display_name", *counted, *places
        )
        if recent:
            lines_read = PlayerTotal.objects.filter(
                event=event, session_id__in=list(recent)
            ).values_list("player_id", "session_id", "points_tenths", "placements")
    else:
        counted_rows = (
            in_range.filter(session__isnull=False)
            .order_by()
            .values("player_id")
            .annotate(name=Max("player__display_name"), **{f: Sum(f) for f in counted + places})
            .values_list("player_id", "name", *counted, *places)
        )
        if recent:
            lines_read = PlayerTotal.objects.filter(session_id__in=list(recent)).values_list(
                "player_id", "session_id", "points_tenths", "placements"
            )
    rows: dict[int, StandingsRow] = {}
    for player_id, name, games, points, penalties, score, *placed in counted_rows:
        rows[player_id] = StandingsRow(
            player_id,
            name,
            games=games,
            match_points=_from_tenths(points),
            penalties=_from_tenths(penalties),
            placement_counts=list(placed),
            score_total=score,
        )
    for player_id, session_id, points, placements in lines_read:
        # Read a moment after the rows: a player whose first game ended in between has a
        # line but no row yet. The change that ended it replaces the version this page is
        # kept under, so the next reader reads both anew.
        if player_id in rows:
            rows[player_id].sessions[recent[session_id]] = StoredLine(points, placements)
    games = sum(games for _id, games in per_session.values())
    return _ranked(event, rows, sessions, games, min_games)


TENTH = Decimal("0.1")


def _tenths(value) -> Decimal:
    """A sum of match points from the database, exact to the tenth (SQLite sums decimals
    as floating point; a tenth is far above its error)."""
    return Decimal(0) if value is None else Decimal(value).quantize(TENTH)


def _ranked(event, rows: dict[int, StandingsRow], sessions, games, min_games) -> Standings:
    result = list(rows.values())
    _rank(result)
    if min_games:
        result = [r for r in result if r.games >= min_games]
        _rank(result)
    return Standings(event, result, sessions, games)


def _from_tenths(value: int) -> Decimal:
    """Whole tenths as a decimal to the tenth, as the sums from the seats are (0 is 0.0)."""
    return Decimal(value).scaleb(-1) if value else ZERO_TENTHS


ZERO_TENTHS = Decimal("0.0")

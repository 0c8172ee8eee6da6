"""A rating's values: the app feeds the pure formulas of `ratings` from its events and
keeps what they return in the one view cache, under the events' results versions (and the
rating's own settings), so a value is computed once per change and is never stale.

- MERS: each event's final placement (`reading.placement`) gives base ranks as the EMA
  results export gives them (`reading.ema.rows_of`, ties as there), its MERS weight
  (`reading.ema.event_weight`) and the day it ended (its end date, else its start).
- Tenhou R: every finished game of the events, in the order played (event start, event,
  session, table), from sessions on or before the reckoning date; a seat's place is its
  stored placement.
- Best of n: each player's stored event totals (`PlayerTotal`) of the events that started
  on or before the reckoning date.

Who reads a rating: its maker, and anyone when it is public; either way only while the
reader may read every one of its events (`readable_ratings`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q
from django.utils.translation import gettext as _

import ratings as formulas

from .. import access, pagecache
from ..limits import MAX_RATING_GAMES
from ..models import Event, Game, GameSeat, Player, PlayerTotal, Rating
from .ema import event_weight, rows_of
from .placement import final_placement

TENTH = Decimal("0.1")


@dataclass(frozen=True)
class EventInfo:
    pk: int
    name: str
    slug: str
    played: object  # datetime.date
    weight: Decimal | None = None
    players: int = 0


@dataclass(frozen=True)
class GameInfo:
    event: int
    session: int
    table: int


@dataclass(frozen=True)
class Row:
    place: int | None
    player: int
    name: str
    value: Decimal | None
    detail: object  # MersValue, RValue or BestValue

    @property
    def count(self) -> int:
        """The results counted (MERS: those within two years), games (R) or events (best
        of n) behind the value."""
        detail = self.detail
        if isinstance(detail, formulas.MersValue):
            return detail.counted
        if isinstance(detail, formulas.RValue):
            return detail.games
        return len(detail.lines)


@dataclass
class Table:
    """A rating's values, best first, and what the traces name."""

    rows: list[Row] = field(default_factory=list)
    events: dict[int, EventInfo] = field(default_factory=dict)
    games: dict[Hashable, GameInfo] = field(default_factory=dict)
    # (event, player) -> (place label, players) in that event, for the MERS trace
    places: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)
    refusal: str = ""

    def row_of(self, player_id: int) -> Row | None:
        return next((row for row in self.rows if row.player == player_id), None)


def readable_ratings(request):
    """The ratings the requesting user may read (see the module's docstring)."""
    user = request.user
    if user.is_authenticated and user.is_superuser:
        return Rating.objects.all()
    unreadable = Event.objects.exclude(pk__in=access.readable_events(request).values("pk"))
    mine = Q(created_by=user) if user.is_authenticated else Q(pk__in=[])
    return Rating.objects.filter(mine | Q(is_public=True)).exclude(events__in=unreadable)


def _played(event: Event):
    return event.ends_on or event.starts_on


@dataclass(frozen=True)
class Line:
    """A row of the rating's table without its trace: what its page and a player's page
    show of it."""

    place: int | None
    player: int
    name: str
    value: Decimal | None
    count: int


@dataclass
class Summary:
    """The rating's values without their traces: a whole table of traces (every game of
    an R rating) is read from the cache only for the trace page that shows one of them."""

    rows: list[Line]
    events: dict[int, EventInfo]
    refusal: str

    def row_of(self, player_id: int) -> Line | None:
        return next((row for row in self.rows if row.player == player_id), None)


def _parts(rating: Rating, events: list[Event]) -> tuple:
    return (
        rating.pk,
        rating.formula,
        rating.formula_version,
        rating.reckoning_date,
        rating.best_of,
        tuple((event.pk, event.results_token) for event in events),
    )


def _events(rating: Rating) -> list[Event]:
    return list(rating.events.order_by("starts_on", "pk"))


def table(rating: Rating, events: list[Event] | None = None) -> Table:
    """The rating's values with their traces, from the cache while none of its events'
    results changed."""
    events = _events(rating) if events is None else events
    return pagecache.cached("rating", _parts(rating, events), lambda: build(rating, events))


def summary(rating: Rating) -> Summary:
    """The rating's values without their traces, kept beside the whole table under the
    same key: with it the page of an R rating over 5,000 games costs 12.2x the login page,
    against 92.8x reading the whole table (and 2,762x computing it)."""
    events = _events(rating)

    def slim() -> Summary:
        whole = table(rating, events)
        rows = [Line(row.place, row.player, row.name, row.value, row.count) for row in whole.rows]
        return Summary(rows, whole.events, whole.refusal)

    return pagecache.cached("rating-summary", _parts(rating, events), slim)


def build(rating: Rating, events: list[Event]) -> Table:
    """The rating's values, computed now."""
    known = formulas.VERSIONS.get(rating.formula)
    if known != rating.formula_version:
        return Table(
            refusal=_(
                "This rating keeps to version %(version)s of its formula, which this "
                "version of Tenbou does not have."
            )
            % {"version": rating.formula_version}
        )
    result = Table(
        events={
            event.pk: EventInfo(event.pk, event.name, event.slug, _played(event))
            for event in events
        }
    )
    try:
        if rating.formula == Rating.Formula.MERS:
            values = _mers(rating, events, result)
        elif rating.formula == Rating.Formula.TENHOU_R:
            values = _tenhou_r(rating, events, result)
        else:
            values = _best_of(rating, events)
    except formulas.RatingError as err:
        result.refusal = _(err.message) % err.params if err.params else _(err.message)
        return result
    except _TooMany as err:
        result.refusal = str(err)
        return result
    names = dict(Player.objects.filter(pk__in=list(values)).values_list("pk", "display_name"))
    order = sorted(values, key=lambda pk: (names.get(pk, "").casefold(), pk))
    value_of = {pk: values[pk][0] for pk in order}
    result.rows = [
        Row(place, pk, names.get(pk, "?"), values[pk][0], values[pk][1])
        for place, pk in formulas.ranked(value_of)
    ]
    return result


class _TooMany(Exception):
    pass


def _mers(rating: Rating, events: list[Event], result: Table) -> dict:
    results: dict[int, list[formulas.MersResult]] = defaultdict(list)
    for event in events:
        placed = final_placement(event)
        rows = rows_of(placed)
        if not rows:
            continue
        weight = event_weight(event).total
        result.events[event.pk] = EventInfo(
            event.pk, event.name, event.slug, _played(event), weight, len(rows)
        )
        for one, row in zip(placed, rows, strict=True):
            label = f"{row.place}=" if row.shared else str(row.place)
            result.places[(event.pk, one.player.pk)] = (label, len(rows))
            results[one.player.pk].append(
                formulas.MersResult(event.pk, _played(event), row.base_rank, weight)
            )
    values = {}
    for player, own in results.items():
        value = formulas.mers(own, reckoning=rating.reckoning_date)
        values[player] = (value.value, value)
    return values


def _tenhou_r(rating: Rating, events: list[Event], result: Table) -> dict:
    seats = (
        GameSeat.objects.filter(
            game__session__event__in=events,
            game__status=Game.Status.FINISHED,
            game__session__date__lte=rating.reckoning_date,
        )
        .order_by(
            "game__session__event__starts_on",
            "game__session__event_id",
            "game__session__number",
            "game__table_number",
            "game_id",
            "seat",
        )
        .values_list(
            "game_id",
            "game__session__event_id",
            "game__session__number",
            "game__table_number",
            "player_id",
            "placement",
        )
    )
    games: dict[int, list[tuple[int, int]]] = {}
    for game, event, session, table_number, player, placement in seats[: MAX_RATING_GAMES * 4 + 1]:
        if game not in games and len(games) == MAX_RATING_GAMES:
            raise _TooMany(
                _("This rating would replay more than %(most)s games: choose fewer events.")
                % {"most": MAX_RATING_GAMES}
            )
        games.setdefault(game, []).append((player, placement or 0))
        result.games[game] = GameInfo(event, session, table_number)
    values = formulas.tenhou_r(
        [formulas.RGame(game, tuple(seated)) for game, seated in games.items()]
    )
    return {player: (value.value, value) for player, value in values.items()}


def _best_of(rating: Rating, events: list[Event]) -> dict:
    counted = {event.pk: event for event in events if event.starts_on <= rating.reckoning_date}
    totals: dict[int, list[formulas.EventTotal]] = defaultdict(list)
    for event_id, player, points in PlayerTotal.objects.filter(
        event_id__in=list(counted), session__isnull=True
    ).values_list("event_id", "player_id", "points_tenths"):
        totals[player].append(
            formulas.EventTotal(
                event_id, _played(counted[event_id]), (Decimal(points) / 10).quantize(TENTH)
            )
        )
    values = {}
    for player, own in totals.items():
        value = formulas.best_of(own, n=rating.best_of or 1)
        values[player] = (value.value, value)
    return values


@dataclass(frozen=True)
class TraceLine:
    """One result of a player's trace, as the page shows it: what it was (`event`, and
    `game` with its session and table for the R rating), and the figures that counted."""

    event: EventInfo | None
    game: int | None = None
    session: int | None = None
    table: int | None = None
    place: str = ""
    players: int = 0
    figures: tuple[tuple[str, object], ...] = ()
    counted: bool = True


def trace_lines(rating: Rating, values: Table, row: Row) -> list[TraceLine]:
    """The lines of `row`'s trace, each with its figures named in the page's language."""
    detail = row.detail
    lines = []
    if isinstance(detail, formulas.MersValue):
        for line in detail.lines:
            event = values.events.get(line.event) if line.event is not None else None
            place, players = values.places.get((line.event, row.player), ("", 0))
            lines.append(
                TraceLine(
                    event,
                    place=place,
                    players=players,
                    figures=(
                        (_("base rank"), line.base_rank),
                        (_("weight"), line.weight),
                        (_("age factor"), line.age),
                        (_("in part A"), _("yes") if line.in_part_a else _("no")),
                        (_("in part B"), _("yes") if line.in_part_b else _("no")),
                    ),
                    counted=line.age > 0,
                )
            )
    elif isinstance(detail, formulas.RValue):
        for step in detail.steps:
            info = values.games.get(step.game)
            lines.append(
                TraceLine(
                    values.events.get(info.event) if info else None,
                    game=step.game,
                    session=info.session if info else None,
                    table=info.table if info else None,
                    place=str(step.place),
                    figures=(
                        (_("R before"), step.before),
                        (_("games before"), step.games_before),
                        (_("games factor"), step.factor),
                        (_("place score"), step.place_score),
                        (_("table average"), step.table_average),
                        (_("change"), step.change),
                        (_("R after"), step.after),
                    ),
                )
            )
    elif isinstance(detail, formulas.BestValue):
        for line in detail.lines:
            lines.append(
                TraceLine(
                    values.events.get(line.event),
                    figures=((_("match points"), line.points),),
                    counted=line.counted,
                )
            )
    return lines


# A player's page names at most this many ratings (the newest reckoning first).
PLAYER_RATINGS_SHOWN = 10


@dataclass(frozen=True)
class Held:
    """A rating a player holds: their place and value in it (None: listed, not ranked)."""

    rating: Rating
    place: int | None
    value: Decimal | None


def held_by(request, player: Player) -> list[Held]:
    """The readable ratings over events the player played in, with the player's place and
    value in each."""
    played = GameSeat.objects.filter(player=player).values("game__session__event_id")
    found = (
        readable_ratings(request)
        .filter(events__in=played)
        .distinct()
        .order_by("-reckoning_date", "name", "pk")[:PLAYER_RATINGS_SHOWN]
    )
    held = []
    for rating in found:
        row = summary(rating).row_of(player.pk)
        if row is not None:
            held.append(Held(rating, row.place, row.value))
    return held

"""One django-tables2 `Table` per listing. Cells show stored results; none computes a
score. Querysets come from the views, already annotated and prefetched, so that a table
costs the same few queries however many rows it has."""

from __future__ import annotations

import datetime
from decimal import Decimal
from functools import cached_property

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy
from django_tables2.data import TableQuerysetData

from .cells import Column, Table
from .limits import MAX_PER_PAGE
from .models import WINDS, Game, GameSeat
from .standings import SESSION_LINES
from .wording import formatting, phones

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}
# Long text may wrap, so that a listing fits a phone with less sideways scrolling.
WRAP = {"td": {"class": "wrap"}}
# The player's column stays in view while a wide listing scrolls sideways on a phone.
PLAYER = {"th": {"class": "player"}, "td": {"class": "player"}}


class DateColumn(Column):
    """A date in one of Django's named formats, as django-tables2's `DateColumn` shows it
    (`{{ value|date:format }}` is `date_format`), without a template per cell; exports carry
    the ISO date as that column's do."""

    def __init__(self, *, format: str, **kwargs):
        self.format = format
        super().__init__(**kwargs)

    def render(self, value) -> str:
        return date_format(value, self.format)

    def value(self, value, **kwargs):
        return value.isoformat() if isinstance(value, datetime.date) else value


# A number put in a reversed address in place of each argument, so that an address is
# reversed once per table and filled in per row.
PLACEHOLDERS = (918273645, 918273646)


def url_pattern(viewname: str, *fixed, count: int = 1) -> str:
    """The address of `viewname` for arguments `*fixed` followed by `count` arguments, as a
    `str.format` pattern of those: `url_pattern("tournaments:player").format(7)` is
    `reverse("tournaments:player", args=[7])`. For arguments that reverse leaves as they
    are (numbers, slugs)."""
    placeholders = PLACEHOLDERS[:count]
    url = reverse(viewname, args=[*fixed, *placeholders]).replace("{", "{{").replace("}", "}}")
    for index, number in enumerate(placeholders):
        url = url.replace(str(number), f"{{{index}}}")
    return url


class BoundedRequestConfig(tables.RequestConfig):
    """RequestConfig with `?per_page=` held between 1 and MAX_PER_PAGE, so that nobody can
    ask for a hundred thousand rows on one page."""

    def configure(self, table):
        name = table.prefixed_per_page_field
        raw = self.request.GET.get(name)
        if raw is not None:
            try:
                wanted = int(raw)
            except ValueError:
                wanted = None
            query = self.request.GET.copy()
            if wanted is None:
                del query[name]
            else:
                query[name] = str(min(max(wanted, 1), MAX_PER_PAGE))
            self.request.GET = query
        return super().configure(table)


class CountedRows(TableQuerysetData):
    """A table's queryset whose number of rows the view knows already (it counted them
    from what it read for other parts of the page): a page of the table reads its own rows
    and nothing more."""

    def __init__(self, rows, count: int):
        super().__init__(rows)
        self._length = count


def date_range(start, end) -> str:
    """3 Sep 2026; 10–11 Oct 2026; 30 Sep – 2 Oct 2026; 30 Dec 2026 – 2 Jan 2027 (in
    Japanese 2026年9月3日; 2026年10月10日–11日 ...): the formats are translated."""
    if not end or end == start:
        return date_format(start, "SHORT_DATE_FORMAT")
    if (start.year, start.month) == (end.year, end.month):
        first = pgettext("first day of a range within one month", "j")
        last = pgettext("last day of a range within one month", "j M Y")
        return f"{date_format(start, first)}–{date_format(end, last)}"
    if start.year == end.year:
        first = pgettext("first day of a range within one year", "j M")
        last = pgettext("last day of a range within one year", "j M Y")
        return f"{date_format(start, first)} – {date_format(end, last)}"
    return f"{date_format(start, 'SHORT_DATE_FORMAT')} – {date_format(end, 'SHORT_DATE_FORMAT')}"


def badge(text: str, kind: str) -> str:
    return format_html('<span class="badge badge-{}">{}</span>', kind, text)


def status_badge(game: Game) -> str:
    kind = "done" if game.is_finished else "live"
    return badge(game.get_status_display(), kind)


def _session_points_header(number: int) -> str:
    return _("S%(number)s pts") % {"number": number}


def _session_places_header(number: int) -> str:
    return _("S%(number)s places") % {"number": number}


# Headers made when the table is, but worded when they are shown: a JSON export words its
# keys in English whatever the page's language.
session_points_header = lazy(_session_points_header, str)
session_places_header = lazy(_session_places_header, str)


class EventTable(Table):
    name = Column(verbose_name=gettext_lazy("Name"), linkify=True, attrs=WRAP)
    kind = Column(verbose_name=gettext_lazy("Kind"))
    dates = Column(
        accessor="starts_on", verbose_name=gettext_lazy("Dates"), order_by=("starts_on", "ends_on")
    )
    session_count = Column(verbose_name=gettext_lazy("Sessions"), attrs=NUMBER)
    visibility = Column(
        accessor="is_public",
        verbose_name=gettext_lazy("Visibility"),
        orderable=False,
        empty_values=(),
    )

    class Meta:
        attrs = {"class": "listing"}
        empty_text = gettext_lazy("No events yet.")
        order_by = "-dates"

    def __init__(self, *args, organised: set[int] = frozenset(), **kwargs):
        # Only organisers see whether an event is public; others see public events only.
        super().__init__(*args, exclude=() if organised else ("visibility",), **kwargs)
        self.organised = organised

    def render_dates(self, record) -> str:
        return date_range(record.starts_on, record.ends_on)

    def render_visibility(self, record) -> str:
        if record.pk not in self.organised:
            return ""
        if record.is_public:
            return badge(_("Public"), "public")
        return badge(_("Private"), "private")


class SessionTable(Table):
    number = Column(verbose_name=gettext_lazy("Session"), linkify=True, attrs=NUMBER)
    date = DateColumn(verbose_name=gettext_lazy("Date"), format="SHORT_DATE_FORMAT")
    title = Column(verbose_name=gettext_lazy("Title"), default="", attrs=WRAP)
    game_count = Column(verbose_name=gettext_lazy("Games"), attrs=NUMBER)
    finished_count = Column(verbose_name=gettext_lazy("Finished"), attrs=NUMBER)

    class Meta:
        attrs = {"class": "listing"}
        empty_text = gettext_lazy("No sessions yet.")
        orderable = False


class SeatColumn(Column):
    """One starting seat of a game: the player, their current score, the leader marked."""

    def __init__(self, seat: int, **kwargs):
        self.seat = seat
        super().__init__(
            verbose_name=WINDS[seat],
            empty_values=(),
            orderable=False,
            accessor="pk",
            # The label lets a phone show each game as a card, the wind above the player.
            attrs={"td": {"class": "seat", "data-label": WINDS[seat]}},
            **kwargs,
        )

    def render(self, record) -> str:
        seats = record.ordered_seats()
        if len(seats) <= self.seat:
            return formatting.MISSING
        seat = seats[self.seat]
        if seat.is_substitute:
            return format_html(
                '{} <span class="badge badge-private">{}</span> <span class="score">{}</span>',
                seat.player,
                _("sub"),
                formatting.points(seat.score),
            )
        if seat.seat in leaders(seats, finished=record.is_finished):
            return format_html(
                '<strong class="leader">{}<span class="visually-hidden"> {}</span>'
                '</strong> <span class="score">{}</span>',
                seat.player,
                _("(leading)"),
                formatting.points(seat.score),
            )
        return format_html(
            '{} <span class="score">{}</span>', seat.player, formatting.points(seat.score)
        )


def leaders(seats: list[GameSeat], *, finished: bool) -> set[int]:
    """The seats to highlight: 1st place once finished, else the top score, unless
    everyone shares it (as at the start, when nobody leads)."""
    if finished:
        return {s.seat for s in seats if s.placement == 1}
    scores = [s.score for s in seats if s.score is not None]
    if not scores or len(set(scores)) == 1:
        return set()
    top = max(scores)
    return {s.seat for s in seats if s.score == top}


class GameTable(Table):
    table_number = Column(
        verbose_name=gettext_lazy("Table"),
        linkify=True,
        attrs={
            "th": {"class": "number"},
            "td": {"class": "number table", "data-label": gettext_lazy("Table")},
        },
    )
    status = Column(verbose_name=gettext_lazy("Status"), attrs={"td": {"class": "status"}})
    east = SeatColumn(0)
    south = SeatColumn(1)
    west = SeatColumn(2)
    north = SeatColumn(3)
    edit = Column(
        verbose_name="",
        empty_values=(),
        orderable=False,
        accessor="pk",
        attrs={"th": {"class": "edit"}, "td": {"class": "edit"}},
    )

    class Meta:
        attrs = {"class": "listing games"}
        empty_text = gettext_lazy("No games yet.")
        orderable = False

    def __init__(self, *args, organiser: bool = False, now=None, **kwargs):
        super().__init__(*args, exclude=() if organiser else ("edit",), **kwargs)
        self.organiser = organiser
        self.now = now

    def render_status(self, record) -> str:
        """The game's status; for its organisers, when the table's phone last reached the
        server and how many hands wait on it (while the game goes on, or hands wait)."""
        contact = getattr(record, "phone_contact", None) if self.organiser else None
        # A finished game's phone matters only while it still holds hands.
        if contact is None or (record.is_finished and not contact.waiting):
            return status_badge(record)
        return format_html(
            '{} <span class="phone-contact{}">{}</span>',
            status_badge(record),
            " waiting" if contact.waiting else "",
            phones.contact_line(contact.at, contact.waiting, now=self.now),
        )

    def render_table_number(self, record) -> str:
        # Words, not a lone digit: the link is a target a thumb can hit.
        return format_html(
            '<a href="{}">{}</a>',
            record.get_absolute_url(),
            _("Table %(number)s") % {"number": record.table_number},
        )

    def render_edit(self, record) -> str:
        url = reverse("tournaments:game_edit", args=[record.pk])
        return format_html('<a href="{}">{}</a>', url, _("Seats"))


class PlayerTable(Table):
    display_name = Column(verbose_name=gettext_lazy("Player"), linkify=True)
    ema_number = Column(verbose_name=gettext_lazy("EMA number"), default="")
    games_played = Column(verbose_name=gettext_lazy("Games"), attrs=NUMBER)

    class Meta:
        attrs = {"class": "listing"}
        empty_text = gettext_lazy("No players yet.")


class PlayerGamesTable(Table):
    date = DateColumn(
        accessor="game__session__date",
        verbose_name=gettext_lazy("Date"),
        format="SHORT_DATE_FORMAT",
        orderable=False,
    )
    event = Column(
        accessor="game__session__event",
        verbose_name=gettext_lazy("Event"),
        attrs=WRAP,
    )
    session = Column(
        accessor="game__session__number",
        verbose_name=gettext_lazy("Session"),
        attrs=NUMBER,
    )
    table = Column(
        accessor="game__table_number",
        verbose_name=gettext_lazy("Table"),
        attrs=NUMBER,
    )
    seat = Column(accessor="seat", verbose_name=gettext_lazy("Seat"))
    status = Column(accessor="game__status", verbose_name=gettext_lazy("Status"))
    score = Column(verbose_name=gettext_lazy("Score"), attrs=NUMBER, empty_values=())
    placement = Column(verbose_name=gettext_lazy("Place"), attrs=NUMBER, default=formatting.MISSING)
    match_points = Column(
        verbose_name=gettext_lazy("Points"), attrs=NUMBER, default=formatting.MISSING
    )

    class Meta:
        attrs = {"class": "listing"}
        empty_text = gettext_lazy("No games yet.")
        orderable = False
        # The results first, so that a phone shows them before it needs to scroll sideways.
        sequence = ["date", "placement", "match_points", "score", "event", "..."]

    # The event, session and game are links, made from addresses reversed once per table
    # rather than by `linkify` (a reverse per cell); exports carry the values themselves.

    @cached_property
    def urls(self) -> dict[str, str]:
        return {
            "event": url_pattern("tournaments:event"),
            "session": url_pattern("tournaments:session", count=2),
            "game": url_pattern("tournaments:game"),
        }

    def render_event(self, record, value) -> str:
        url = self.urls["event"].format(record.game.session.event.slug)
        return format_html('<a href="{}">{}</a>', url, value)

    def render_session(self, record, value) -> str:
        session = record.game.session
        url = self.urls["session"].format(session.event.slug, session.number)
        return format_html('<a href="{}">{}</a>', url, value)

    def render_table(self, record, value) -> str:
        return format_html('<a href="{}">{}</a>', self.urls["game"].format(record.game_id), value)

    def value_event(self, value):
        return value

    def value_session(self, value) -> int:
        return value

    def value_table(self, value) -> int:
        return value

    def render_seat(self, record) -> str:
        return record.starting_wind

    def render_status(self, record) -> str:
        return status_badge(record.game)

    def render_score(self, record) -> str:
        return formatting.points(record.score)

    def render_placement(self, value) -> str:
        return formatting.placement(value)

    def render_match_points(self, value) -> str:
        return formatting.match_points(value)


# Standings and results. Numeric cells keep their numbers for exports (the `value` of a
# column) and show them formatted on the page (its `render`), so both read the same figures.

TENTH = Decimal("0.1")
# A player who did not play a session sorts below every real total.
NOT_PLAYED = Decimal("-Infinity")


class ValueColumn(Column):
    """A column whose export is the stored value itself, whatever the page shows."""

    def render(self, value):
        # A whole number in digits, as Django's localisation writes it in every language
        # the site speaks (no thousands separators: USE_THOUSAND_SEPARATOR is off), without
        # its lookups of the formats per cell. Subclasses format other values.
        return str(value) if type(value) is int else value

    def value(self, value, **kwargs):
        return value


class MatchPointsColumn(ValueColumn):
    def render(self, value) -> str:
        return formatting.match_points(value)

    def value(self, value, **kwargs):
        return value.quantize(TENTH)


class PenaltyColumn(MatchPointsColumn):
    """Penalties, already included in match points; a dash where there were none."""

    def render(self, value) -> str:
        return formatting.penalty(value)


class ScoreColumn(ValueColumn):
    def render(self, value) -> str:
        return formatting.points(value)


class PlacesColumn(Column):
    """A player's places in one session ("1·3"); exported as a number when it is one game,
    so that a spreadsheet can sum or sort it."""

    def value(self, value, **kwargs):
        return int(value) if isinstance(value, str) and value.isdigit() else value


class AveragePlacementColumn(ValueColumn):
    def render(self, value) -> str:
        return formatting.average_placement(value)


def _number(**kwargs) -> dict:
    return {"attrs": NUMBER, **kwargs}


# The standings carry lines of this many sessions at most.
MAX_SESSION_COLUMNS = SESSION_LINES
# Session columns shown on the page unless all are asked for: the standings then fit a
# 1280 px screen.
RECENT_SESSION_COLUMNS = 3


class PlacementTable(Table):
    """An event's final placement (`reading.placement`): one row per placed player, as the
    standings page, its print and the placement export show it."""

    place = Column(**_number(verbose_name=gettext_lazy("Place"), orderable=False))
    player = Column(verbose_name=gettext_lazy("Player"), attrs=PLAYER, orderable=False)
    points = MatchPointsColumn(**_number(verbose_name=gettext_lazy("Total"), orderable=False))
    stage = Column(verbose_name=gettext_lazy("Stage"), orderable=False)

    class Meta:
        attrs = {"class": "listing placement"}
        empty_text = gettext_lazy("No one is placed yet.")

    def render_place(self, record) -> str:
        return record["place_label"]

    def value_place(self, record) -> int:
        return record["place"]


def placement_records(placed, stage_names: dict[int, str]) -> list[dict]:
    """Rows of `PlacementTable` from `final_placement`: the stage is named where the
    player left the event (their last stage)."""
    return [
        {
            "place": p.place,
            "place_label": p.place_label,
            "player": p.player.display_name,
            "points": p.points,
            "stage": stage_names.get(p.stage, "") if p.stage is not None else "",
        }
        for p in placed
    ]


class StandingsRecord(dict):
    """One standings row as the table reads it, a dict of its cells and sort keys.

    The totals are filled in at once; what takes arithmetic or formatting (averages, the
    player's address, the session columns) only on first use, so that a page of the first
    hundred of many players in the standing order works out just those hundred. A row
    that is shown, exported or ordered by such a column is completed whole."""

    __slots__ = ("_row", "_keys", "_player_url")

    def __missing__(self, key):
        self.complete()
        if not dict.__contains__(self, key):
            raise KeyError(key)
        return dict.get(self, key)

    def get(self, key, default=None):
        if not dict.__contains__(self, key):
            self.complete()
        return dict.get(self, key, default)

    def complete(self) -> StandingsRecord:
        row = self._row
        if row is None:
            return self
        self._row = None
        self["rank_label"] = row.rank_label
        self["player_key"] = row.player.casefold()
        self["player_url"] = self._player_url.format(row.player_id)
        self["average_placement"] = row.average_placement
        self["average_score"] = row.average_score
        lines = row.sessions
        for number, points, points_key, places in self._keys:
            line = lines.get(number)
            if line is None:
                self[points] = None
                self[points_key] = NOT_PLAYED
                self[places] = ""
                self[places + "_key"] = -NOT_PLAYED
            else:
                placements = line.placements
                self[points] = self[points_key] = line.match_points
                self[places] = line.placements_text
                self[places + "_key"] = Decimal(sum(placements)) / len(placements)
        return self


def standings_records(standings, sessions) -> list[StandingsRecord]:
    """One flat record per standings row, with the sort keys the table orders by."""
    records = []
    # One reverse for all rows: a long league has hundreds of them.
    player_url = url_pattern("tournaments:player")
    # The keys of each session's columns, made once rather than for every row.
    keys = [
        (number, f"s{number}_points", f"s{number}_points_key", f"s{number}_places")
        for number in sessions
    ]
    for row in standings.rows:
        first, second, third, fourth = row.placement_counts
        record = StandingsRecord(
            rank=row.rank,
            player_id=row.player_id,
            player=row.player,
            games=row.games,
            match_points=row.match_points,
            penalties=row.penalties,
            first=first,
            second=second,
            third=third,
            fourth=fourth,
        )
        record._row, record._keys, record._player_url = row, keys, player_url
        records.append(record)
    return records


class StandingsTable(Table):
    """The standings, one line per player, read like the seed's four-game scoresheet:
    totals first, then each session's match points and placements.

    A first click on a column header puts the best (or the most) first; the default order
    is the ranking itself.
    """

    rank = Column(**_number(verbose_name=gettext_lazy("Rank")))
    player = Column(verbose_name=gettext_lazy("Player"), order_by=("player_key",), attrs=PLAYER)
    games = ValueColumn(**_number(verbose_name=gettext_lazy("Games"), order_by=("-games",)))
    match_points = MatchPointsColumn(
        **_number(verbose_name=gettext_lazy("Total"), order_by=("-match_points",))
    )
    average_placement = AveragePlacementColumn(**_number(verbose_name=gettext_lazy("Avg place")))
    first = ValueColumn(**_number(verbose_name=gettext_lazy("1st"), order_by=("-first",)))
    second = ValueColumn(**_number(verbose_name=gettext_lazy("2nd"), order_by=("-second",)))
    third = ValueColumn(**_number(verbose_name=gettext_lazy("3rd"), order_by=("-third",)))
    fourth = ValueColumn(**_number(verbose_name=gettext_lazy("4th"), order_by=("-fourth",)))
    average_score = ScoreColumn(
        **_number(verbose_name=gettext_lazy("Avg score"), order_by=("-average_score",))
    )
    penalties = PenaltyColumn(**_number(verbose_name=gettext_lazy("Penalties")))

    class Meta:
        attrs = {"class": "listing standings"}
        empty_text = gettext_lazy("No finished games yet.")
        order_by = "rank"

    def __init__(self, standings, *, session_columns: int = MAX_SESSION_COLUMNS, **kwargs):
        extra = []
        # A long league would need a hundred columns; the most recent sessions of the
        # chosen range are shown, and the range filter reaches the others.
        shown = min(session_columns, MAX_SESSION_COLUMNS)
        self.sessions_shown = standings.sessions[-shown:]
        self.sessions_hidden = standings.sessions[:-shown]
        self.sessions_all = standings.sessions[-MAX_SESSION_COLUMNS:]
        for number in self.sessions_shown:
            # The session's first column is marked, so that a stylesheet can set the
            # groups apart.
            group = {
                "th": {"class": "number session-start"},
                "td": {"class": "number session-start"},
            }
            extra.append(
                (
                    f"s{number}_points",
                    MatchPointsColumn(
                        verbose_name=session_points_header(number),
                        default=formatting.MISSING,
                        attrs=group,
                        order_by=(f"-s{number}_points_key",),
                    ),
                )
            )
            extra.append(
                (
                    f"s{number}_places",
                    PlacesColumn(
                        verbose_name=session_places_header(number),
                        default="",
                        attrs=NUMBER,
                        order_by=(f"s{number}_places_key",),
                    ),
                )
            )
        records = standings_records(standings, self.sessions_shown)
        super().__init__(records, extra_columns=extra, **kwargs)

    def render_rank(self, record) -> str:
        return record["rank_label"]

    def render_player(self, record) -> str:
        # Built here rather than with `linkify`: a long league has hundreds of rows.
        return format_html('<a href="{}">{}</a>', record["player_url"], record["player"])

    def value_player(self, record) -> str:
        return record["player"]

    def value_rank(self, record) -> int:
        # A number in every export; players sharing a rank share the number.
        return record["rank"]


def _in_play_order(*first: str) -> tuple[str, ...]:
    rest = ("game__session__number", "game__table_number", "game_id", "seat")
    return (*first, *(key for key in rest if key not in first))


class ResultsTable(Table):
    """Every finished game's results, one row per seat, in play order."""

    session = ValueColumn(
        accessor="game__session__number",
        verbose_name=gettext_lazy("Session"),
        **_number(order_by=_in_play_order()),
    )
    table = ValueColumn(
        accessor="game__table_number",
        verbose_name=gettext_lazy("Table"),
        **_number(order_by=_in_play_order("game__table_number")),
    )
    game = ValueColumn(
        accessor="game_id",
        verbose_name=gettext_lazy("Game"),
        **_number(order_by=_in_play_order("game_id")),
    )
    wind = Column(
        accessor="seat", verbose_name=gettext_lazy("Wind"), order_by=_in_play_order("seat")
    )
    player = Column(
        accessor="player__display_name",
        verbose_name=gettext_lazy("Player"),
        order_by=_in_play_order("player__display_name"),
        attrs=PLAYER,
    )
    score = ScoreColumn(
        verbose_name=gettext_lazy("Final score"), **_number(order_by=_in_play_order("-score"))
    )
    placement = ValueColumn(
        verbose_name=gettext_lazy("Place"), **_number(order_by=_in_play_order("placement"))
    )
    match_points = MatchPointsColumn(
        verbose_name=gettext_lazy("Match points"),
        **_number(order_by=_in_play_order("-match_points")),
    )
    penalty_points = PenaltyColumn(
        verbose_name=gettext_lazy("Penalty"), **_number(order_by=_in_play_order("penalty_points"))
    )

    class Meta:
        attrs = {"class": "listing results"}
        empty_text = gettext_lazy("No finished games yet.")
        # Who and how they did first, so that a phone shows it before scrolling sideways.
        sequence = (
            "session",
            "table",
            "player",
            "placement",
            "match_points",
            "score",
            "penalty_points",
            "wind",
            "game",
        )

    # The session, player and game are links, made from addresses reversed once per table
    # rather than by `linkify` (a reverse per cell); exports carry the values themselves.

    @cached_property
    def urls(self) -> dict[str, str]:
        return {
            "session": url_pattern("tournaments:session", count=2),
            "player": url_pattern("tournaments:player"),
            "game": url_pattern("tournaments:game"),
        }

    def render_session(self, record, value) -> str:
        session = record.game.session
        url = self.urls["session"].format(session.event.slug, session.number)
        return format_html('<a href="{}">{}</a>', url, value)

    def value_session(self, value) -> int:
        return value

    def render_player(self, record, value) -> str:
        url = self.urls["player"].format(record.player_id)
        return format_html('<a href="{}">{}</a>', url, value)

    def value_player(self, value) -> str:
        return value

    def render_game(self, record) -> str:
        url = self.urls["game"].format(record.game_id)
        return format_html('<a href="{}">#{}</a>', url, record.game_id)

    def value_game(self, value) -> int:
        return value

    def render_wind(self, value) -> str:
        return WINDS[value]

    def value_wind(self, value) -> str:
        return str(WINDS[value])


def _percent(value) -> str:
    return formatting.MISSING if value is None else f"{value}%"


class RateColumn(ValueColumn):
    """A percentage to one decimal: "33.3%" on the page, the number 33.3 in exports."""

    def __init__(self, key: str, **kwargs):
        super().__init__(
            attrs=NUMBER, default=formatting.MISSING, order_by=(f"-{key}_key",), **kwargs
        )

    def render(self, value) -> str:
        return _percent(value)


class AverageColumn(ValueColumn):
    def __init__(self, key: str, **kwargs):
        super().__init__(
            attrs=NUMBER, default=formatting.MISSING, order_by=(f"-{key}_key",), **kwargs
        )

    def render(self, value) -> str:
        return formatting.points(value)


class StatisticsTable(Table):
    """Player statistics of one event (see `tournaments.statistics`); the export headers
    are the column names the page shows."""

    player = Column(
        verbose_name=gettext_lazy("Player"),
        order_by=("player",),
    )
    games = ValueColumn(**_number(verbose_name=gettext_lazy("Games"), order_by=("-games",)))
    hands = ValueColumn(
        **_number(
            verbose_name=pgettext_lazy("how many hands a player played", "Hands"),
            order_by=("-hands",),
        )
    )
    wins = ValueColumn(**_number(verbose_name=gettext_lazy("Wins"), order_by=("-wins",)))
    win_rate = RateColumn("win_rate", verbose_name=gettext_lazy("Win rate"))
    tsumo = ValueColumn(**_number(verbose_name=gettext_lazy("Tsumo"), order_by=("-tsumo",)))
    tsumo_rate = RateColumn("tsumo_rate", verbose_name=gettext_lazy("Tsumo rate"))
    deal_ins = ValueColumn(
        **_number(verbose_name=gettext_lazy("Deal-ins"), order_by=("-deal_ins",))
    )
    deal_in_rate = RateColumn("deal_in_rate", verbose_name=gettext_lazy("Deal-in rate"))
    riichi = ValueColumn(**_number(verbose_name=gettext_lazy("Riichi"), order_by=("-riichi",)))
    riichi_rate = RateColumn("riichi_rate", verbose_name=gettext_lazy("Riichi rate"))
    average_won = AverageColumn("average_won", verbose_name=gettext_lazy("Average won"))
    average_dealt_in = AverageColumn(
        "average_dealt_in", verbose_name=gettext_lazy("Average dealt in")
    )
    dealer_repeats = ValueColumn(
        **_number(verbose_name=gettext_lazy("Dealer repeats"), order_by=("-dealer_repeats",))
    )
    first = ValueColumn(**_number(verbose_name=gettext_lazy("1st"), order_by=("-first",)))
    second = ValueColumn(**_number(verbose_name=gettext_lazy("2nd"), order_by=("-second",)))
    third = ValueColumn(**_number(verbose_name=gettext_lazy("3rd"), order_by=("-third",)))
    fourth = ValueColumn(**_number(verbose_name=gettext_lazy("4th"), order_by=("-fourth",)))

    class Meta:
        attrs = {"class": "listing statistics"}
        empty_text = gettext_lazy("No hands recorded yet.")
        order_by = "player"

    def __init__(self, rows, *, event_slug: str, **kwargs):
        super().__init__(rows, **kwargs)
        self.event_slug = event_slug

    @cached_property
    def player_urls(self) -> str:
        # Reversed once per table rather than by `linkify` per cell.
        return f"{url_pattern('tournaments:player')}?event={self.event_slug}"

    def player_url(self, record) -> str:
        return self.player_urls.format(record["player_id"])

    def render_player(self, record, value) -> str:
        return format_html('<a href="{}">{}</a>', self.player_url(record), value)

    def value_player(self, value) -> str:
        return value


class BaseRankColumn(ValueColumn):
    """An EMA base rank, two decimals, exported as the exact decimal."""

    def render(self, value) -> str:
        return f"{value:.2f}"


class EmaResultsTable(Table):
    """The EMA's results file: the final placement with EMA numbers, names and countries
    (`tournaments.reading.ema`). The exports carry the same columns."""

    place = Column(
        verbose_name=pgettext_lazy("EMA results", "Place"), attrs=NUMBER, orderable=False
    )
    ema_number = Column(verbose_name=gettext_lazy("EMA number"), default="", orderable=False)
    last_name = Column(verbose_name=gettext_lazy("Last name"), attrs=PLAYER, orderable=False)
    first_name = Column(verbose_name=gettext_lazy("First name"), default="", orderable=False)
    country = Column(verbose_name=gettext_lazy("Country"), default="", orderable=False)
    points = MatchPointsColumn(verbose_name=gettext_lazy("Points"), attrs=NUMBER, orderable=False)
    base_rank = BaseRankColumn(
        verbose_name=gettext_lazy("Base rank"), attrs=NUMBER, orderable=False
    )

    class Meta:
        attrs = {"class": "listing"}
        empty_text = gettext_lazy("No ranked players yet.")

    def render_place(self, value, record) -> str:
        return f"{value}=" if record["shared"] else str(value)

    def value_place(self, value) -> int:
        return value


class TeamStandingsTable(Table):
    """A team event's team table (`reading.teams`): one row per team and stage, as the team
    standings page shows it and its exports carry it."""

    stage = Column(verbose_name=gettext_lazy("Stage"), orderable=False)
    rank = Column(**_number(verbose_name=gettext_lazy("Rank"), orderable=False))
    team = Column(verbose_name=gettext_lazy("Team"), attrs=PLAYER, orderable=False)
    carried = MatchPointsColumn(**_number(verbose_name=gettext_lazy("Carried"), orderable=False))
    match_points = MatchPointsColumn(
        **_number(verbose_name=gettext_lazy("Match points"), orderable=False)
    )
    total = MatchPointsColumn(**_number(verbose_name=gettext_lazy("Total"), orderable=False))
    members = Column(verbose_name=gettext_lazy("Members counted"), orderable=False)

    class Meta:
        attrs = {"class": "listing teams"}
        empty_text = gettext_lazy("No teams yet.")

    def render_rank(self, record) -> str:
        return record["rank_label"]

    def value_rank(self, record) -> int:
        return record["rank"]


def team_standings_records(team_tables) -> list[dict]:
    """Rows of `TeamStandingsTable` from `reading.teams.team_tables`: the members counted
    with their totals, in the order they count."""
    return [
        {
            "stage": table.stage.name if table.stage else "",
            "rank": row.rank,
            "rank_label": row.rank_label,
            "team": row.team,
            "carried": row.carried,
            "match_points": row.match_points,
            "total": row.total,
            "members": ", ".join(
                f"{m.player} {formatting.match_points(m.total)}" for m in row.counted
            ),
        }
        for table in team_tables
        for row in table.rows
    ]

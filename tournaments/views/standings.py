"""Standings, results, and the whole event as a download or an upload.

The standings and results pages are django-tables2 tables; `?_export=csv|xlsx|json` on
either page returns the same table, in the same order and with the same filters, as a
file. Each page reads the stored results of finished games in a constant number of
queries; nothing here replays a game.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

import scoring
from tenhou.limits import MAX_JSON_DEPTH, check_json_depth

from .. import access, exchange, exports, pagecache, versions
from ..limits import MAX_IMPORT_BYTES, MAX_PAGES, MAX_PER_PAGE
from ..models import Event, GameSeat
from ..reading import ema
from ..standings import Standings, event_standings
from ..statistics import DEFINITIONS, event_player_statistics, yaku_frequency
from ..tables import (
    MAX_SESSION_COLUMNS,
    RECENT_SESSION_COLUMNS,
    BoundedRequestConfig,
    CountedRows,
    EmaResultsTable,
    ResultsTable,
    StandingsTable,
    StatisticsTable,
)
from ..wording.rules import describe_rules
from .stages import placement_context, totals_hidden

EXPORT_FORMATS = {"csv": "CSV", "xlsx": "Excel (XLSX)", "json": "JSON"}
EXPORT_PARAM = "_export"
RESULTS_GAMES_PER_PAGE = 25  # whole games, a row for each seat: 100 rows, or 75 at three
PLAY_ORDER = ("game__session__number", "game__table_number", "game_id", "seat")
# The place columns a three-player event has no use for: nobody places 4th at a table of
# three.
FOURTH_PLACE = ("fourth",)
TIE_ORDER = gettext_lazy(
    "Players are ranked by total match points, then by more first places, then by the "
    "better average placement, then by the higher average final score; players equal on "
    "all four share a rank, shown as “3=”."
)


def _not_shown(event: Event) -> tuple[str, ...]:
    """The columns of the standings and statistics tables this event leaves out."""
    return FOURTH_PLACE if event.player_count == 3 else ()


def _export_response(
    request: HttpRequest,
    event: Event,
    table,
    name: str,
    title: str,
    variant: str = "",
    version: str = "",
    key: str = "",
) -> HttpResponse | None:
    """The table as a file if the request asks for one of the export formats; `variant`
    names what else than the order the rows depend on (the cleaned filters), `key` the
    file's cache key when the view worked it out already."""
    export_format = request.GET.get(EXPORT_PARAM)
    if export_format not in EXPORT_FORMATS:
        return None
    return exports.export_response(
        request,
        event,
        table,
        export_format=export_format,
        name=name,
        title=title,
        variant=variant,
        version=version,
        key=key,
    )


def _export_links(request: HttpRequest) -> list[tuple[str, str]]:
    """The current page (filters and order kept) in each export format."""
    links = []
    for export_format, label in EXPORT_FORMATS.items():
        query = request.GET.copy()
        query[EXPORT_PARAM] = export_format
        links.append((label, f"?{query.urlencode()}"))
    return links


# Standings


class SessionSelect(forms.Select):
    """A choice of session; a long league offers hundreds of them."""

    # Django's select, its options written in one go (`options_html`) rather than through
    # an option template, or template variables, each: a league of 200 sessions took as
    # long to draw its two session lists as its standings table.
    template_name = "tournaments/widgets/select.html"

    def use_required_attribute(self, initial) -> bool:
        # Never required; and Django's check would read the whole list for its first item.
        return False

    def optgroups(self, name, value, attrs=None):
        return []  # the options are `options_html`

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["options_html"] = self.options_html(context["widget"]["value"])
        return context

    def options_html(self, value: list[str]) -> str:
        """The options as Django's select writes them: the first whose value is among
        `value` selected."""
        options, selected = [], False
        for option_value, label in self.choices:
            text = "" if option_value is None else str(option_value)
            mark = ""
            if not selected and text in value:
                mark, selected = " selected", True
            # The standard library's escape, as Django's does it, less its check for lazy text
            # (a fifth of the time of this list).
            options.append(
                f'\n  <option value="{escape(text)}"{mark}>{escape(str(label))}</option>'
            )
        return mark_safe("".join(options))


class _SessionLabel(Promise):
    """A session as the filter names it, written only when the filter is drawn (a cached
    page checks the choice without drawing it), and once for both of its lists.

    A lazy text, as Django's lazy translations are (`Promise`): Django's choice fields take
    such a label as it is, where they would examine any other object as a possible group
    of choices (a third of the time of a cached page of a league of 200 sessions)."""

    __slots__ = ("number", "date", "text")

    def __init__(self, number: int, date):
        self.number, self.date, self.text = number, date, None

    def __str__(self) -> str:
        if self.text is None:
            self.text = f"{self.number} · {date_format(self.date, 'SHORT_DATE_FORMAT')}"
        return self.text


class StandingsFilterForm(forms.Form):
    first_session = forms.TypedChoiceField(
        label=gettext_lazy("From session"),
        coerce=int,
        empty_value=None,
        required=False,
        widget=SessionSelect,
    )
    last_session = forms.TypedChoiceField(
        label=gettext_lazy("To session"),
        coerce=int,
        empty_value=None,
        required=False,
        widget=SessionSelect,
    )
    min_games = forms.IntegerField(
        label=gettext_lazy("At least this many games"),
        min_value=0,
        max_value=10_000,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": "0"}),
    )

    def __init__(self, data, *, sessions):
        super().__init__(data)

        # Made only when a session is chosen or the filter is drawn: a cached page without
        # a chosen session (most are) never lists a league's hundreds of sessions. Both
        # lists share the labels.
        labels: list[tuple[int, _SessionLabel]] = []

        def choices(blank: str):
            def made() -> list:
                if not labels:
                    labels.extend((n, _SessionLabel(n, d)) for n, d in sessions)
                return [("", blank), *labels]

            return made

        self.fields["first_session"].choices = choices(_("The first"))
        self.fields["last_session"].choices = choices(_("The last"))

    def clean(self):
        data = super().clean()
        first, last = data.get("first_session"), data.get("last_session")
        if first is not None and last is not None and first > last:
            raise forms.ValidationError(_("The first session comes after the last one."))
        return data

    def filters(self) -> dict:
        """The arguments of `event_standings`: none at all unless every value is valid."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {
            "first_session": data["first_session"],
            "last_session": data["last_session"],
            "min_games": data["min_games"] or 0,
        }


def _describe(standings, filters: dict) -> str:
    games = standings.games
    first, last = filters.get("first_session"), filters.get("last_session")
    values = {"count": games, "first": first, "last": last}
    if first is not None and last is not None and first != last:
        text = ngettext(
            "%(count)s finished game of sessions %(first)s–%(last)s",
            "%(count)s finished games of sessions %(first)s–%(last)s",
            games,
        )
    elif first is not None and last is not None:
        text = ngettext(
            "%(count)s finished game of session %(first)s",
            "%(count)s finished games of session %(first)s",
            games,
        )
    elif first is not None:
        text = ngettext(
            "%(count)s finished game from session %(first)s on",
            "%(count)s finished games from session %(first)s on",
            games,
        )
    elif last is not None:
        text = ngettext(
            "%(count)s finished game up to session %(last)s",
            "%(count)s finished games up to session %(last)s",
            games,
        )
    else:
        text = ngettext("%(count)s finished game", "%(count)s finished games", games)
    text = text % values
    if filters.get("min_games"):
        least = filters["min_games"]
        return ngettext(
            "%(games)s; players with at least %(count)s game.",
            "%(games)s; players with at least %(count)s games.",
            least,
        ) % {"games": text, "count": least}
    return _("%(games)s.") % {"games": text}


# Enough for a club's whole league on one page (and in print); a larger one pages.
STANDINGS_PER_PAGE = 100


@access.readable_event
def standings(request: HttpRequest, event: Event) -> HttpResponse:
    if totals_hidden(request, event):
        # Before a final the organisers may keep the totals to themselves: no table, no file.
        return render(request, "tournaments/standings_hidden.html", {"event": event})
    # The sessions, for the filter's choices and the table's columns: one small query.
    sessions = list(event.sessions.order_by("number").values_list("number", "date"))
    form = StandingsFilterForm(request.GET, sessions=sessions)
    filters = form.filters()
    export_format = request.GET.get(EXPORT_PARAM)
    if export_format in EXPORT_FORMATS:
        return _standings_export(request, event, export_format, filters, sessions)
    # The table's links carry only what the page understands, and the rendered table is
    # kept for this state of the results, language and (normalised) query.
    all_columns = request.GET.get(COLUMNS_PARAM) == "all"
    # Only the sessions shown as columns need their lines.
    lines = MAX_SESSION_COLUMNS if all_columns else RECENT_SESSION_COLUMNS
    # Worked out at most once for this request, and only when the table is not kept
    # already or a page number is checked against the number of rows.
    counted = functools.cache(lambda: event_standings(event, **filters, lines=lines))
    request.GET = _standings_query(
        request.GET, event, filters | {"lines": lines}, [n for n, _ in sessions], counted
    )
    # The filter's fields are part of what is kept when the query writes them plainly (the
    # kept query then holds exactly them); anything else is drawn anew, with its errors.
    plain = _written_plainly(form)

    def context() -> dict:
        part = versions.cached(
            "standings",
            event,
            versions.RESULTS,
            lambda: _standings_part(request, counted(), filters, lines, form if plain else None),
            query=f"{request.GET.urlencode()}&plain={plain}",
        )
        return {
            "event": event,
            "table": part,
            "form": form,
            "filter_fields": part.filter_fields if plain else None,
            "filters_open": bool(form.errors),
            "summary": part.summary,
            "tie_order": TIE_ORDER,
            "export_links": _export_links(request),
            "columns_toggle": part.columns_toggle,
            "printed_on": timezone.localdate(),
            "rules_words": _rules_words(event),
            **placement_context(request, event),
        }

    return versions.page(
        request,
        "standings",
        event,
        versions.RESULTS,
        "tournaments/standings.html",
        context,
        query=request.GET.urlencode(),
    )


def _written_plainly(form: StandingsFilterForm) -> bool:
    """Whether the filter is valid and its query writes each value as the form would."""
    if not form.is_valid():
        return False
    written = {
        name: "" if value is None else str(value) for name, value in form.cleaned_data.items()
    }
    return all(form.data.get(name, "") == text for name, text in written.items())


def _standings_export(request, event, export_format: str, filters: dict, sessions):
    """The standings as a file. A file made already is found from a table without rows
    (its columns are the sessions of the chosen range), before the standings are read."""
    name, variant = f"{event.slug}-standings", repr(sorted(filters.items()))
    first, last = filters.get("first_session"), filters.get("last_session")
    numbers = [
        number
        for number, _date in sessions
        if (first is None or number >= first) and (last is None or number <= last)
    ]
    shell = StandingsTable(
        Standings(event, [], numbers, 0),
        session_columns=MAX_SESSION_COLUMNS,
        exclude=_not_shown(event),
    )
    BoundedRequestConfig(request, paginate=False).configure(shell)
    key = exports.export_key(event, shell, export_format=export_format, name=name, variant=variant)
    content = cache.get(key)
    if content is not None:
        return exports.download(content, export_format, name)
    table = StandingsTable(
        event_standings(event, **filters),
        session_columns=MAX_SESSION_COLUMNS,
        exclude=_not_shown(event),
    )
    BoundedRequestConfig(request, paginate=False).configure(table)
    return _export_response(request, event, table, name, _("Standings"), variant, key=key)


@dataclass(frozen=True)
class RenderedTable:
    """A table rendered once, with what the page says around it."""

    html: str
    summary: str = ""
    sessions_shown: tuple = ()
    sessions_hidden: bool = False
    columns_toggle: dict | None = None
    filter_fields: str | None = None

    def __str__(self) -> str:
        return self.html


STANDINGS_COLUMNS = (
    "rank", "player", "games", "match_points", "average_placement", "first", "second",
    "third", "fourth", "average_score", "penalties",
)  # fmt: skip


def _standings_query(
    query, event, filters: dict, sessions: list[int], counted: Callable[[], Standings]
) -> QueryDict:
    """The standings' query with only what they understand: valid filters, a known column
    to order by, a page that exists and a page size within bounds. `counted` gives the
    standings these filters select."""
    hidden = _not_shown(event)
    columns = [c for c in STANDINGS_COLUMNS if c not in hidden]
    for number in sessions[-MAX_SESSION_COLUMNS:]:
        columns += [f"s{number}_points", f"s{number}_places"]
    kept = _table_query(
        query,
        columns,
        per_page=STANDINGS_PER_PAGE,
        rows=lambda: len(counted().rows),
    )
    if query.get(COLUMNS_PARAM) == "all":
        kept[COLUMNS_PARAM] = "all"
    for name in ("first_session", "last_session", "min_games"):
        if filters.get(name):
            kept[name] = str(filters[name])
    return kept


def _standings_part(
    request, result: Standings, filters: dict, lines: int, form: StandingsFilterForm | None
) -> RenderedTable:
    table = StandingsTable(result, session_columns=lines, exclude=_not_shown(result.event))
    BoundedRequestConfig(request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
    return RenderedTable(
        html=table.as_html(request),
        summary=_describe(result, filters),
        sessions_shown=tuple(table.sessions_shown),
        sessions_hidden=bool(table.sessions_hidden),
        columns_toggle=_columns_toggle(request, table, lines == MAX_SESSION_COLUMNS),
        filter_fields=None
        if form is None
        else render_to_string("tournaments/partials/filter_fields.html", {"form": form}),
    )


COLUMNS_PARAM = "columns"


def _columns_toggle(request: HttpRequest, table: StandingsTable, all_columns: bool):
    """The link that shows every session column, or only the most recent again."""
    query = request.GET.copy()
    if all_columns:
        if len(table.sessions_all) <= RECENT_SESSION_COLUMNS:
            return None
        query.pop(COLUMNS_PARAM, None)
        label = _("Show only the latest %(count)s sessions") % {"count": RECENT_SESSION_COLUMNS}
    else:
        if not table.sessions_hidden or len(table.sessions_all) <= len(table.sessions_shown):
            return None
        query[COLUMNS_PARAM] = "all"
        label = _("Show all %(count)s session columns") % {"count": len(table.sessions_all)}
    return {"label": label, "href": f"?{query.urlencode()}" if query else request.path}


def _rules_words(event) -> str:
    try:
        return describe_rules(event.rules_preset, event.rules_overrides)
    except scoring.ScoringError:
        return event.rules_preset


# Results


RESULTS_COLUMNS = (
    "session", "table", "game", "wind", "player", "score", "placement", "match_points",
    "penalty_points",
)  # fmt: skip


@access.readable_event
def results(request: HttpRequest, event: Event) -> HttpResponse:
    seats = (
        GameSeat.objects.finished_in(event)
        .select_related("game__session__event", "player")
        .order_by(*PLAY_ORDER)
    )
    if request.GET.get(EXPORT_PARAM) in EXPORT_FORMATS:
        table = ResultsTable(seats)
        BoundedRequestConfig(request, paginate=False).configure(table)
        return _export_response(request, event, table, f"{event.slug}-results", _("Results"))
    per_page = RESULTS_GAMES_PER_PAGE * event.player_count
    count = functools.cache(lambda: GameSeat.objects.count_finished_in(event))
    request.GET = _table_query(request.GET, RESULTS_COLUMNS, per_page=per_page, rows=count)

    def part() -> RenderedTable:
        table = ResultsTable(CountedRows(seats, count()))
        BoundedRequestConfig(request, paginate={"per_page": per_page}).configure(table)
        return RenderedTable(html=table.as_html(request))

    query = request.GET.urlencode()

    def context() -> dict:
        return {
            "event": event,
            "table": versions.cached("results", event, versions.RESULTS, part, query=query),
            "export_links": _export_links(request),
        }

    return versions.page(
        request,
        "results",
        event,
        versions.RESULTS,
        "tournaments/results.html",
        context,
        query=query,
    )


def _table_query(query, columns, *, per_page: int, rows) -> QueryDict:
    """The query of a paged table with only what it understands: a known column to order
    by, a page size within bounds, and a page that exists (`rows()` counts them), so that
    every address of the table is one of a bounded number of cached renderings."""
    kept = pagecache.only(
        query,
        {
            "sort": pagecache.one_of(columns),
            "page": pagecache.whole_number(1, MAX_PAGES),
            "per_page": pagecache.whole_number(1, MAX_PER_PAGE),
        },
    )
    if "page" in kept:
        size = int(kept.get("per_page", per_page))
        last = max(1, -(-rows() // size))
        kept["page"] = str(min(int(kept["page"]), last))
    return kept


# Player statistics

STATISTICS_PER_PAGE = 100
MAX_YAKU_ROWS = 60
STATISTICS_COLUMNS = tuple(StatisticsTable.base_columns)


@access.readable_event
def event_statistics(request: HttpRequest, event: Event) -> HttpResponse:
    export_format = request.GET.get(EXPORT_PARAM)
    if export_format in EXPORT_FORMATS:
        # Every event's statistics table has the same columns, so a table without rows
        # knows the order asked for: a file made already goes out without the statistics
        # being worked out again.
        shell = StatisticsTable([], event_slug=event.slug, exclude=_not_shown(event))
        BoundedRequestConfig(request, paginate=False).configure(shell)
        # Hands of games still going count too: the play token follows them.
        cached = exports.cached_response(
            event,
            shell,
            export_format=export_format,
            name=f"{event.slug}-statistics",
            version=event.play_token,
        )
        if cached is not None:
            return cached
    if export_format in EXPORT_FORMATS:
        players = event_player_statistics(event)
        table = StatisticsTable(
            [p.as_row() for p in players], event_slug=event.slug, exclude=_not_shown(event)
        )
        BoundedRequestConfig(request, paginate=False).configure(table)
        name = f"{event.slug}-statistics"
        return _export_response(
            request, event, table, name, _("Statistics"), version=event.play_token
        )
    players = functools.cache(lambda: event_player_statistics(event))
    hidden = _not_shown(event)
    request.GET = _table_query(
        request.GET,
        [c for c in STATISTICS_COLUMNS if c not in hidden],
        per_page=STATISTICS_PER_PAGE,
        rows=lambda: len(players()),
    )

    def part() -> dict:
        rows = [p.as_row() for p in players()]
        table = StatisticsTable(rows, event_slug=event.slug, exclude=hidden)
        BoundedRequestConfig(request, paginate={"per_page": STATISTICS_PER_PAGE}).configure(table)
        return {
            "table": RenderedTable(html=table.as_html(request)),
            "yaku_rows": yaku_frequency(players())[:MAX_YAKU_ROWS],
        }

    query = request.GET.urlencode()

    def context() -> dict:
        # Hands of games still going count too: the play version follows them.
        rendered = versions.cached("statistics", event, versions.PLAY, part, query=query)
        return {
            "event": event,
            "table": rendered["table"],
            "definitions": DEFINITIONS,
            "yaku_rows": rendered["yaku_rows"],
            "export_links": _export_links(request),
        }

    return versions.page(
        request,
        "statistics",
        event,
        versions.PLAY,
        "tournaments/statistics.html",
        context,
        query=query,
    )


# The whole event as tenbou-game/1 records


@access.readable_event
def event_export(request: HttpRequest, event: Event) -> HttpResponse:
    # Kept as bytes: encoding a large event's text again for every download costs more
    # than sending it. The organisers' file carries the players' EMA names too.
    names = access.organises(request, event.pk)
    content = _cached_event_file(
        event,
        "json-names" if names else "json",
        lambda: exchange.event_json(exchange.export_event(event, names=names)).encode(),
    )
    response = HttpResponse(content, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
    return response


@access.readable_event
def event_export_zip(request: HttpRequest, event: Event) -> HttpResponse:
    content = _cached_event_file(event, "zip", lambda: exchange.export_zip(event))
    response = HttpResponse(content, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-records.zip"'
    return response


def _cached_event_file(event: Event, kind: str, build):
    """The whole-event file, built once for each play version of the event: it holds the
    hands of games still going too."""
    return versions.cached("event-file", event, versions.PLAY, build, parts=(kind,))


class EventImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Event export"),
        help_text=gettext_lazy("The .json file of another event's “Event export” link."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            limit = MAX_IMPORT_BYTES // (1024 * 1024)
            raise forms.ValidationError(
                _("This file is larger than %(limit)s MB.") % {"limit": limit}
            )
        text = upload.read()
        try:
            check_json_depth(text)
        except scoring.ScoringError:
            raise forms.ValidationError(
                _(
                    "This file nests more than %(depth)s levels deep, which no event export "
                    "does. Choose the .json file of an event export."
                )
                % {"depth": MAX_JSON_DEPTH}
            ) from None
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            raise forms.ValidationError(
                _("This file is not JSON. Choose the .json file of an event export.")
            ) from None


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "。")) else text + "."


@require_http_methods(["GET", "POST"])
@access.organiser_event
def event_import(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method == "POST":
        form = EventImportForm(request.POST, request.FILES)
    else:
        form = EventImportForm()
    if form.is_bound and form.is_valid():
        try:
            # One transaction inside, bounded in time (settings.IMPORT_TIME_LIMIT).
            count = exchange.import_event(event, form.cleaned_data["file"], user=request.user)
        except exchange.ImportRefused as err:
            form.add_error(
                "file", _("Nothing was imported: %(reason)s") % {"reason": _sentence(str(err))}
            )
        except DatabaseError as err:
            # Sessions the export lists twice, or numbered 0, fail in the database.
            form.add_error(
                "file",
                _("Nothing was imported: the export is damaged (%(error)s).") % {"error": err},
            )
        else:
            messages.success(
                request,
                ngettext(
                    "Imported %(count)s game into %(event)s.",
                    "Imported %(count)s games into %(event)s.",
                    count,
                )
                % {"count": count, "event": event},
            )
            return redirect(event)
        event = Event.objects.get(pk=event.pk)  # the refused import may have set its rules
    context = {"event": event, "form": form, "has_sessions": event.sessions.exists()}
    return render(request, "tournaments/event_import.html", context)


# The EMA's results file


EMA_FORMATS = {"csv": "CSV", "xlsx": "Excel (XLSX)"}


# The players of the EMA page named as lacking a number or a name: the first few, then a count.
INCOMPLETE_SHOWN = 10


@access.organiser_event
def ema_results(request: HttpRequest, event: Event) -> HttpResponse:
    """The final placement as the EMA's results file (`reading.ema`): shown on the page,
    and `?_export=csv|xlsx` as a file; both refused, with the reasons, while the results
    do not balance. For the event's organisers: it holds EMA numbers and real names."""
    problems = ema.balance_problems(event)
    export_format = request.GET.get(EXPORT_PARAM)
    if export_format is not None and export_format not in EMA_FORMATS:
        problems = problems or [_("Choose CSV or Excel (XLSX) for the EMA results file.")]
    rows = [] if problems else ema.results(event)
    table = EmaResultsTable([vars(row) for row in rows])
    if not problems and export_format in EMA_FORMATS:
        return exports.export_response(
            request,
            event,
            table,
            export_format=export_format,
            name=f"{event.slug}-ema-results",
            title=_("EMA results"),
            variant="ema",
        )
    context = {
        "event": event,
        "table": table,
        "problems": ema.shown_problems(problems),
        "export_links": [
            (label, f"?{EXPORT_PARAM}={export_format}")
            for export_format, label in EMA_FORMATS.items()
        ],
        "weight": ema.event_weight(event),
        "players": len(rows),
        "incomplete": [row for row in rows if row.incomplete][:INCOMPLETE_SHOWN],
        "incomplete_count": sum(row.incomplete for row in rows),
    }
    # A refused file answers 409: the request was understood, the results are not ready.
    status = 409 if problems and export_format is not None else 200
    return render(request, "tournaments/ema_results.html", context, status=status)

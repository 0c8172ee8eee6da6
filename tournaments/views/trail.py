"""The trail of an event's changes, for its organisers: a page and a CSV file."""

from __future__ import annotations

import csv
import datetime
import json

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from .. import access, services
from ..models import Event, GameSeat, TrailEntry
from ..trail import Actor, trail_rows
from ..wording.refusals import say

PER_PAGE = 100
CSV_COLUMNS = [
    gettext_lazy("When (UTC)"),
    gettext_lazy("Session"),
    gettext_lazy("Table"),
    gettext_lazy("Hand"),
    gettext_lazy("Change"),
    gettext_lazy("Who"),
    gettext_lazy("By table link"),
    gettext_lazy("Before"),
    gettext_lazy("After"),
    gettext_lazy("Before (record)"),
    gettext_lazy("After (record)"),
]


def _entries(event):
    return TrailEntry.objects.filter(event=event).prefetch_related(
        Prefetch("game__seats", queryset=GameSeat.objects.select_related("player"))
    )


@access.organiser_event
def event_trail(request: HttpRequest, event: Event) -> HttpResponse:
    page = Paginator(_entries(event), PER_PAGE).get_page(request.GET.get("page"))
    context = {"event": event, "page": page, "rows": trail_rows(page.object_list)}
    return render(request, "tournaments/event_trail.html", context)


@require_POST
@access.organiser_event
def trail_restore(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    """Enter again a hand that was undone, from its entry in the trail."""
    entry = get_object_or_404(TrailEntry, pk=pk, event=event)
    try:
        hand = services.restore_undone_hand(entry, actor=Actor.of(request.user))
    except services.GameChangeRefused as err:
        messages.error(request, say(err))
        return redirect("tournaments:event_trail", event.slug)
    messages.success(request, _("Hand %(number)s restored.") % {"number": hand.number})
    return redirect(hand.game)


class _Echo:
    def write(self, value):
        return value


def _cell(value) -> str:
    """Text that a spreadsheet shows as text, never runs as a formula."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def _json(value) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


@access.organiser_event
def event_trail_csv(request: HttpRequest, event: Event) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    # The lines are written after the view has returned: in the language of the request.
    language = translation.get_language()

    def lines():
        with translation.override(language):
            yield from _csv_lines(writer, event)

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-changes.csv"'
    return response


def _csv_lines(writer, event):
    yes, no = _("yes"), _("no")
    yield "\ufeff" + writer.writerow([str(column) for column in CSV_COLUMNS])
    # In chunks, so that a long trail is never all in memory.
    for row in trail_rows(_entries(event).iterator(chunk_size=500)):
        entry = row.entry
        yield writer.writerow(
            [
                entry.at.astimezone(datetime.UTC).isoformat(timespec="seconds"),
                entry.session_number or "",
                entry.table_number or "",
                entry.hand_number or "",
                _cell(row.what),
                _cell(entry.author),
                yes if entry.table_link_id else no,
                _cell(row.before),
                _cell(row.after),
                _cell(_json(entry.before)),
                _cell(_json(entry.after)),
            ]
        )

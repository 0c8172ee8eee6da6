"""Running a round against the clock: the session's round clock and calling time.

Calling time ends a game after the last hand entered (`services.call_time`); the
organiser can reopen it from the game page. The clock is only an end time stored on the
session: pages show it and a small script counts down, so no server push is needed.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST

from .. import access, limits, services
from ..forms import TenbouFormMixin, lazy_format
from ..models import Game, Session
from ..trail import Actor
from .actions import change_game


class ClockForm(TenbouFormMixin, forms.Form):
    minutes = forms.IntegerField(
        label=gettext_lazy("Length in minutes"),
        min_value=1,
        max_value=limits.CLOCK_MAX_MINUTES,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "required": gettext_lazy("Give the round's length in minutes, e.g. 90."),
            "invalid": gettext_lazy("Give the round's length in whole minutes, e.g. 90."),
            "min_value": gettext_lazy("A round lasts at least 1 minute."),
            "max_value": lazy_format(
                gettext_lazy("A round lasts at most %(limit)s minutes."),
                limit=limits.CLOCK_MAX_MINUTES,
            ),
        },
    )


def clock_context(session: Session, *, now=None) -> dict | None:
    """What a page needs to show the session's round clock; None when it is not running."""
    if session.clock_ends_at is None:
        return None
    now = now or timezone.now()
    left = max(0, int((session.clock_ends_at - now).total_seconds()))
    hours, rest = divmod(left, 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
    return {
        "ends_at": session.clock_ends_at.isoformat(),
        "now": now.isoformat(),
        "left": text if left else pgettext("the round clock has run out", "Time"),
        "over": not left,
        "minutes": session.clock_minutes,
    }


@require_POST
@access.organiser_session
def clock_start(request: HttpRequest, session: Session) -> HttpResponse:
    form = ClockForm(request.POST)
    if form.is_valid():
        session = services.start_round_clock(session.pk, form.cleaned_data["minutes"])
        messages.success(
            request,
            _("The round clock runs: %(minutes)s minutes, until %(time)s.")
            % {
                "minutes": session.clock_minutes,
                "time": f"{timezone.localtime(session.clock_ends_at):%H:%M}",
            },
        )
    else:
        messages.error(request, " ".join(form.errors["minutes"]))
    return redirect(session)


@require_POST
@access.organiser_session
def clock_stop(request: HttpRequest, session: Session) -> HttpResponse:
    services.stop_round_clock(session.pk)
    messages.success(request, _("The round clock is stopped."))
    return redirect(session)


@require_POST
@access.organiser_game
def game_call_time(request: HttpRequest, game: Game) -> HttpResponse:
    return change_game(
        request,
        game,
        services.call_time,
        _("Time called: the game ended after its last hand. Reopen it to play on."),
    )


@require_http_methods(["GET", "POST"])
@access.organiser_session
def session_call_time(request: HttpRequest, session: Session) -> HttpResponse:
    """A page naming the games that would end, and the POST that ends them."""
    if request.method == "POST":
        try:
            called = services.call_time_on_session(session.pk, actor=Actor.of(request.user))
        except services.GameChangeRefused as err:
            messages.error(request, _("No game was ended. %(reason)s") % {"reason": err})
            return redirect(session)
        if called.ended:
            tables = ", ".join(str(g.table_number) for g in called.ended)
            text = ngettext(
                "Time called on table %(tables)s.",
                "Time called on tables %(tables)s.",
                len(called.ended),
            ) % {"tables": tables}
        else:
            text = _("No game had a hand to end on.")
        if called.not_started:
            tables = ", ".join(str(g.table_number) for g in called.not_started)
            text += " " + _("Not ended, as no hand was entered: table %(tables)s.") % {
                "tables": tables
            }
        messages.success(request, text)
        return redirect(session)
    games = (
        session.games.filter(status=Game.Status.IN_PROGRESS, entry_mode=Game.EntryMode.HANDS)
        .annotate(hand_count=Count("hands"))
        .order_by("table_number", "pk")
    )
    context = {"event": session.event, "session": session, "games": games}
    return render(request, "tournaments/session_call_time.html", context)

"""The director and the tables during a round: round signals ("N minutes left", "last
hand") sent from the session page, and referee calls made from a game page, acknowledged
and resolved by an organiser. What every page shows of them comes from `room_context`."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from .. import access, limits, services, versions
from ..forms import TenbouFormMixin, lazy_format
from ..models import Game, RefereeCall, RoundSignal, Session
from ..trail import Actor

# The minutes a director sends with one tap; any other number is typed.
QUICK_MINUTES = (5, 10, 15)


class SignalForm(TenbouFormMixin, forms.Form):
    signal = forms.ChoiceField(
        choices=RoundSignal.choices,
        error_messages={
            "required": gettext_lazy("Choose a signal: minutes left or last hand."),
            "invalid_choice": gettext_lazy("Choose a signal: minutes left or last hand."),
        },
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes left"),
        required=False,
        min_value=1,
        max_value=limits.SIGNAL_MAX_MINUTES,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "invalid": gettext_lazy("Give the minutes left in whole minutes, e.g. 10."),
            "min_value": gettext_lazy("Give at least 1 minute left."),
            "max_value": lazy_format(
                gettext_lazy("Give at most %(limit)s minutes left."),
                limit=limits.SIGNAL_MAX_MINUTES,
            ),
        },
    )

    def clean(self):
        data = super().clean()
        if data.get("signal") == RoundSignal.MINUTES_LEFT and data.get("minutes") is None:
            if "minutes" not in self.errors:
                self.add_error("minutes", _("Give the minutes left, e.g. 10."))
        return data


class RefereeCallForm(TenbouFormMixin, forms.Form):
    reason = forms.ChoiceField(
        choices=RefereeCall.Reason.choices,
        error_messages={
            "required": gettext_lazy("Choose why you call a referee."),
            "invalid_choice": gettext_lazy("Choose why you call a referee."),
        },
    )
    note = forms.CharField(
        label=gettext_lazy("A few words (optional)"),
        required=False,
        max_length=limits.REFEREE_NOTE_LENGTH,
        error_messages={
            "max_length": lazy_format(
                gettext_lazy("Say it in at most %(limit)s characters."),
                limit=limits.REFEREE_NOTE_LENGTH,
            )
        },
    )


def signal_text(session: Session) -> str:
    if session.signal == RoundSignal.LAST_HAND:
        return _("Last hand")
    minutes = session.signal_minutes or 0
    return ngettext("%(count)s minute left", "%(count)s minutes left", minutes) % {"count": minutes}


def signal_context(session: Session | None) -> dict | None:
    """The signal the session's tables are shown, None when there is none: never sent,
    cleared, or the round is over (every game finished)."""
    if session is None or not session.signal or services.round_over(session):
        return None
    return {
        "kind": session.signal,
        "text": signal_text(session),
        "at": f"{timezone.localtime(session.signal_at):%H:%M}" if session.signal_at else "",
    }


def call_context(call: RefereeCall) -> dict:
    return {
        "pk": call.pk,
        "game": call.game_id,
        "table": call.game.table_number,
        "reason": call.get_reason_display(),
        "note": call.note,
        "at": f"{timezone.localtime(call.called_at):%H:%M}",
        "acknowledged": call.acknowledged_at is not None,
    }


def open_calls(session: Session) -> list[dict]:
    """The session's open referee calls, oldest first (bounded by its tables: one each).
    Kept under the play version, which every call, answer and resolution replaces: the
    game pages and the live screen of a room read them on every request."""

    def build() -> list[dict]:
        calls = (
            RefereeCall.objects.open()
            .filter(game__session=session)
            .select_related("game")
            .order_by("called_at", "pk")
        )
        return [call_context(call) for call in calls]

    return versions.cached("calls", session.event, versions.PLAY, build, query=f"s={session.pk}")


# The director's signals


@require_POST
@access.organiser_session
def signal_send(request: HttpRequest, session: Session) -> HttpResponse:
    form = SignalForm(request.POST)
    if form.is_valid():
        try:
            session = services.send_signal(
                session.pk, form.cleaned_data["signal"], minutes=form.cleaned_data["minutes"]
            )
        except services.GameChangeRefused as err:
            messages.error(request, str(err))
        else:
            messages.success(
                request,
                _("Sent to every table: %(signal)s.") % {"signal": signal_text(session)},
            )
    else:
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    return redirect(session)


@require_POST
@access.organiser_session
def signal_clear(request: HttpRequest, session: Session) -> HttpResponse:
    services.clear_signal(session.pk)
    messages.success(request, _("The signal is cleared from the tables."))
    return redirect(session)


# Referee calls


@require_POST
@access.table_game
def referee_call(request: HttpRequest, game: Game) -> HttpResponse:
    form = RefereeCallForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect(game)
    link = None if game.organised else access.table_link_for(request, game)
    try:
        made = services.call_referee(
            game.pk,
            form.cleaned_data["reason"],
            form.cleaned_data["note"],
            actor=Actor.of(request.user, table_link=link),
        )
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        if made.new:
            messages.success(request, _("A referee is called to this table."))
        else:
            messages.info(request, _("A referee is already called to this table: please wait."))
    return redirect(game)


def _call_step(request: HttpRequest, game: Game, step, done: str) -> HttpResponse:
    back = game.session if request.POST.get("back") == "session" else game
    call = game.referee_calls.open().first()
    # Only the call the organiser saw: a call the table made since is not taken by this tap.
    if call is None or request.POST.get("call") != str(call.pk):
        messages.error(request, _("This referee call is resolved already."))
        return redirect(back)
    try:
        step(call.pk, game.session.event_id, actor=Actor.of(request.user))
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(request, done % {"table": game.table_number})
    return redirect(back)


@require_POST
@access.organiser_game
def referee_acknowledge(request: HttpRequest, game: Game) -> HttpResponse:
    return _call_step(
        request,
        game,
        services.acknowledge_referee_call,
        _("Table %(table)s knows a referee is on the way."),
    )


@require_POST
@access.organiser_game
def referee_resolve(request: HttpRequest, game: Game) -> HttpResponse:
    return _call_step(
        request, game, services.resolve_referee_call, _("Table %(table)s: call resolved.")
    )

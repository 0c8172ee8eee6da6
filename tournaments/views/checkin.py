"""Check-in before a session (round) is seated: the director marks who of the roster is
present, at the desk or on a phone, and replaces a no-show with a substitute of the pool.
Seating then takes the players present (`seat_plans.playing`)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .. import access, seat_plans, services
from ..models import CheckIn, Session


class CheckInForm(forms.Form):
    action = forms.ChoiceField(
        choices=[(a, a) for a in ("all", "present", "absent", "replace", "clear")],
        error_messages={
            "required": gettext_lazy("Choose what to mark."),
            "invalid_choice": gettext_lazy("Choose what to mark."),
        },
    )
    player = forms.IntegerField(
        required=False,
        min_value=1,
        error_messages={"invalid": gettext_lazy("Choose a player from the list.")},
    )
    substitute = forms.IntegerField(
        required=False,
        min_value=1,
        error_messages={"invalid": gettext_lazy("Choose a substitute from the list.")},
    )

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action in ("present", "absent", "replace") and not data.get("player"):
            raise forms.ValidationError(_("Choose a player from the list."))
        if action == "replace" and not data.get("substitute"):
            raise forms.ValidationError(_("Choose a substitute from the list."))
        return data


def _rows(session: Session) -> tuple[list[dict], list[dict]]:
    """The regular players and the substitute pool taking part, each with their mark."""
    marks = {
        mark.player_id: mark
        for mark in CheckIn.objects.filter(session=session).select_related("replaced_by")
    }
    entries = (
        session.event.roster.playing_in(session.number)
        .select_related("player")
        .order_by("player__display_name")
    )
    regulars, pool = [], []
    for entry in entries:
        mark = marks.get(entry.player_id)
        row = {
            "player": entry.player,
            "state": "unmarked" if mark is None else ("present" if mark.present else "absent"),
            "replaced_by": mark.replaced_by if mark else None,
        }
        (pool if entry.is_substitute else regulars).append(row)
    return regulars, pool


def _page(request, session: Session, form=None, *, status: int = 200) -> HttpResponse:
    regulars, pool = _rows(session)
    context = {
        "event": session.event,
        "session": session,
        "regulars": regulars,
        "pool": pool,
        "free_substitutes": seat_plans.free_substitutes(session),
        "count": seat_plans.check_in_count(session),
        "seated": session.games.exists(),
        "form": form,
    }
    return render(request, "tournaments/check_in.html", context, status=status)


@access.organiser_session
def check_in(request: HttpRequest, session: Session) -> HttpResponse:
    """The list of the session's players with "all present", present/absent for each and
    "replace with …" for a no-show."""
    if request.method != "POST":
        return _page(request, session)
    form = CheckInForm(request.POST)
    if not form.is_valid():
        return _page(request, session, form, status=400)
    data = form.cleaned_data
    action = data["action"]
    try:
        if action == "all":
            count = services.check_in_all(session.pk)
            text = ngettext(
                "%(count)s player marked present.", "%(count)s players marked present.", count
            ) % {"count": count}
        elif action == "clear":
            services.clear_check_in(session.pk)
            text = _("Check-in cleared: the session is seated from the roster again.")
        elif action == "replace":
            substitute = services.replace_with_substitute(
                session.pk, data["player"], data["substitute"]
            )
            text = _("%(substitute)s takes the seat of a no-show.") % {
                "substitute": substitute.player
            }
        else:
            entry = services.mark_present(session.pk, data["player"], action == "present")
            text = (
                _("%(player)s is present.") if action == "present" else _("%(player)s is absent.")
            ) % {"player": entry.player}
    except services.GameChangeRefused as err:
        form.add_error(None, str(err))
        return _page(request, session, form, status=400)
    messages.success(request, text)
    # Back to the row just marked, so that a phone keeps its place down the list.
    anchor = f"#player-{data['player']}" if data.get("player") else ""
    return redirect(
        reverse("tournaments:check_in", args=[session.event.slug, session.number]) + anchor
    )

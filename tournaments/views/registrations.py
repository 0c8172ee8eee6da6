"""Registration before the day: a signed-in player asks for a place at an event open to it
and may withdraw before it closes; the organisers set it up and answer each request on a
list that works on a phone. The rules are in `services.registrations`.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.db.models import Case, IntegerField, Value, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access, services, trail
from ..forms.registrations import RegisterForm, RegistrationSettingsForm
from ..limits import EVENT_REGISTRATION_LIMIT
from ..models import Event, Player, Registration
from ..services import registrations as rules
from ..wording.refusals import say

Status = Registration.Status


def _own_registration(request: HttpRequest, event: Event) -> Registration | None:
    if not request.user.is_authenticated:
        return None
    return event.registrations.select_related("player").filter(player__user=request.user).first()


def _has_player(request: HttpRequest) -> bool:
    return Player.objects.filter(user=request.user).exists()


def _registration_page(
    request: HttpRequest, event: Event, *, form=None, status: int = 200
) -> HttpResponse:
    own = _own_registration(request, event)
    signed_in = request.user.is_authenticated
    can_ask = (
        signed_in and rules.may_register(event) and (own is None or own.status == Status.WITHDRAWN)
    )
    if form is None and can_ask:
        form = RegisterForm(needs_name=not _has_player(request))
    holding = event.registrations.filter(status__in=Registration.HOLDING).count()
    context = {
        "event": event,
        "is_organiser": access.organises(request, event.pk),
        "own": own,
        "waiting_place": rules.waiting_place(own) if own else None,
        "may_withdraw": own is not None
        and own.status in Registration.ACTIVE
        and not rules.is_closed(event),
        "form": form,
        "is_open": rules.may_register(event),
        "is_closed": rules.is_closed(event),
        "places": event.registration_places,
        "places_left": max(0, rules.places(event) - holding),
    }
    return render(request, "tournaments/registration.html", context, status=status)


@access.readable_event(signed_in_posts=True)
def registration(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's registration: whether it is open, the visitor's own place, and the
    form that asks for one."""
    if request.method != "POST":
        return _registration_page(request, event)
    form = RegisterForm(request.POST, needs_name=not _has_player(request))
    if not form.is_valid():
        return _registration_page(request, event, form=form, status=400)
    try:
        registered = services.register(
            event.pk, request.user, name=form.cleaned_data.get("display_name", "")
        )
    except services.GameChangeRefused as err:
        form.add_error(None, say(err))
        return _registration_page(request, event, form=form, status=400)
    except IntegrityError:
        form.add_error(None, _("Someone else just took this name or place: try again."))
        return _registration_page(request, event, form=form, status=400)
    if registered.status == Status.WAITING:
        text = _("Every place is taken: %(player)s is on the waiting list.")
    else:
        text = _("%(player)s asks for a place; the organisers will confirm it.")
    messages.success(request, text % {"player": registered.player})
    return redirect("tournaments:registration", event.slug)


@require_POST
@access.readable_event(signed_in_posts=True)
def registration_withdraw(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        withdrawn = services.withdraw_registration(event.pk, request.user)
    except services.GameChangeRefused as err:
        messages.error(request, say(err))
    else:
        messages.success(
            request, _("%(player)s is withdrawn from this event.") % {"player": withdrawn.player}
        )
    return redirect("tournaments:registration", event.slug)


# The organisers' side.

ORDER = Case(
    When(status=Status.ASKED, then=Value(0)),
    When(status=Status.WAITING, then=Value(1)),
    When(status=Status.CONFIRMED, then=Value(2)),
    default=Value(3),
    output_field=IntegerField(),
)


def _registrations_page(
    request: HttpRequest, event: Event, *, form=None, status: int = 200
) -> HttpResponse:
    # Bounded: an event holds at most EVENT_REGISTRATION_LIMIT active registrations; those
    # declined or withdrawn are counted, not listed.
    active = list(
        event.registrations.filter(status__in=Registration.ACTIVE)
        .select_related("player")
        .annotate(order=ORDER)
        .order_by("order", "asked_at", "pk")[:EVENT_REGISTRATION_LIMIT]
    )
    counts = {value: 0 for value in Status.values}
    for row in event.registrations.values_list("status", flat=True):
        counts[row] += 1
    waiting_number = 0
    for row in active:
        if row.status == Status.WAITING:
            waiting_number += 1
            row.waiting_place = waiting_number
    context = {
        "event": event,
        "registrations": active,
        "counts": counts,
        "form": form or RegistrationSettingsForm(instance=event),
        "places_left": max(
            0, rules.places(event) - counts[Status.ASKED] - counts[Status.CONFIRMED]
        ),
        "is_closed": rules.is_closed(event),
    }
    return render(request, "tournaments/registrations.html", context, status=status)


@access.organiser_event
def registrations(request: HttpRequest, event: Event) -> HttpResponse:
    """Who asked for a place, who waits and who is confirmed, each with the organisers'
    answer; above them, the registration's settings."""
    if request.method != "POST":
        return _registrations_page(request, event)
    form = RegistrationSettingsForm(request.POST, instance=Event.objects.get(pk=event.pk))
    if not form.is_valid():
        return _registrations_page(request, event, form=form, status=400)
    data = form.cleaned_data
    services.set_registration(
        event.pk,
        is_open=data["registration_open"],
        places=data["registration_places"],
        closes_at=data["registration_closes_at"],
    )
    messages.success(request, _("Registration settings saved."))
    return redirect("tournaments:registrations", event.slug)


def _answer(request: HttpRequest, event: Event, registration_id: int, change, done: str):
    try:
        answered = change(event.pk, registration_id, trail.Actor.of(request.user))
    except services.GameChangeRefused as err:
        messages.error(request, say(err))
    else:
        messages.success(request, done % {"player": answered.player})
    return redirect("tournaments:registrations", event.slug)


@require_POST
@access.organiser_event
def registration_confirm(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    return _answer(
        request,
        event,
        registration_id,
        services.confirm_registration,
        _("%(player)s is confirmed and on the roster."),
    )


@require_POST
@access.organiser_event
def registration_decline(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    return _answer(
        request,
        event,
        registration_id,
        services.decline_registration,
        _("%(player)s's registration is declined."),
    )

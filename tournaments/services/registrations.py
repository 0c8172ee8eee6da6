"""Registration before the day: signed-in players ask for a place, the organisers answer.

An event's organisers open it to registration, with a number of places and a closing
time. A player's request holds a place while it waits for the organisers (asked) and once
confirmed; when every place is held, later requests go on the waiting list, in the order
they came. Whenever a place comes free (a player withdraws, the organisers decline one or
add places), the first on the waiting list moves up to ask. Confirming puts the player on
the roster, which seating and the day start from.

Each change locks the event's row first, so that two players asking for the last place
at once are counted one after the other and never both get it.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scoring.errors import gettext_noop

from .. import trail, versions
from ..limits import EVENT_REGISTRATION_LIMIT, OPEN_REGISTRATIONS_PER_ACCOUNT
from ..models import Event, GameSeat, Player, Registration, RosterEntry
from .errors import GameChangeRefused
from .roster import add_to_roster, free_name

Status = Registration.Status


def places(event: Event) -> int:
    """The places registrations may hold: the organisers' number, within the hard bound."""
    wanted = event.registration_places
    return EVENT_REGISTRATION_LIMIT if wanted is None else min(wanted, EVENT_REGISTRATION_LIMIT)


def is_closed(event: Event, now=None) -> bool:
    """Whether the closing time of registration has passed (an event without one stays
    open to withdrawals until the organisers close it)."""
    closes = event.registration_closes_at
    return closes is not None and (now or timezone.now()) >= closes


def may_register(event: Event, now=None) -> bool:
    return event.registration_open and not is_closed(event, now)


def waiting_place(registration: Registration) -> int | None:
    """1 for the first on the waiting list, 2 for the next...; None when not waiting."""
    if registration.status != Status.WAITING:
        return None
    ahead = Registration.objects.filter(event_id=registration.event_id, status=Status.WAITING)
    ahead = ahead.filter(asked_at__lt=registration.asked_at) | ahead.filter(
        asked_at=registration.asked_at, pk__lt=registration.pk
    )
    return ahead.count() + 1


def _locked_event(event_id: int) -> Event:
    return Event.objects.select_for_update().get(pk=event_id)


def _holding(event: Event) -> int:
    return event.registrations.filter(status__in=Registration.HOLDING).count()


def _promote(event: Event) -> list[Registration]:
    """Move the first on the waiting list up, in order, into the places that are free."""
    room = places(event) - _holding(event)
    if room <= 0:
        return []
    moved = list(
        event.registrations.select_for_update()
        .filter(status=Status.WAITING)
        .order_by("asked_at", "pk")[:room]
    )
    for registration in moved:
        registration.status = Status.ASKED
        registration.save(update_fields=["status"])
    return moved


def _leave_roster(event: Event, player: Player) -> None:
    """Take a confirmed player off the roster again: only before they have played."""
    entry = RosterEntry.objects.filter(event=event, player=player).first()
    if entry is None:
        return
    if GameSeat.objects.filter(game__session__event=event, player=player).exists():
        raise GameChangeRefused(
            gettext_noop(
                "%(player)s has played in this event: the organisers mark them withdrawn on "
                "the roster instead."
            ),
            player=player.display_name,
        )
    entry.delete()
    versions.changed(event.pk)


def register(event_id: int, user, *, name: str = "") -> Registration:
    """Ask for a place for the player linked to `user`. An account without a player gets
    a new one called `name` (already checked by `player_names`), never an existing player:
    a typed name claims nobody's identity (a name taken gets a number, see `free_name`)."""
    with transaction.atomic():
        event = _locked_event(event_id)
        if not event.registration_open:
            raise GameChangeRefused(
                gettext_noop("This event is not open to registration: ask its organisers.")
            )
        if is_closed(event):
            raise GameChangeRefused(
                gettext_noop("Registration for this event has closed: ask its organisers.")
            )
        # The account's row, locked: two requests of one account make at most one player.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        player = Player.objects.filter(user=user).first()
        if player is None:
            if not name:
                raise GameChangeRefused(
                    gettext_noop(
                        "Your login is not linked to a player yet: give the name you play under."
                    )
                )
            player = Player.objects.create(display_name=free_name(name), user=user)
        if event.roster.filter(player=player).exists():
            raise GameChangeRefused(
                gettext_noop("%(player)s is already on this event's roster."),
                player=player.display_name,
            )
        registration = event.registrations.select_for_update().filter(player=player).first()
        if registration is not None and registration.status in Registration.ACTIVE:
            raise GameChangeRefused(
                gettext_noop("%(player)s is already registered for this event."),
                player=player.display_name,
            )
        if registration is not None and registration.status == Status.DECLINED:
            raise GameChangeRefused(
                gettext_noop(
                    "The organisers declined this registration; ask them if you think it a mistake."
                )
            )
        open_ones = Registration.objects.filter(player=player, status__in=Registration.OPEN)
        if open_ones.count() >= OPEN_REGISTRATIONS_PER_ACCOUNT:
            raise GameChangeRefused(
                gettext_noop(
                    "You have %(most)s registrations waiting for an answer already, the most "
                    "one account may have: wait for the organisers' answers, or withdraw one."
                ),
                most=OPEN_REGISTRATIONS_PER_ACCOUNT,
            )
        active = event.registrations.filter(status__in=Registration.ACTIVE).count()
        if active >= EVENT_REGISTRATION_LIMIT:
            raise GameChangeRefused(
                gettext_noop(
                    "This event holds %(most)s registrations, the most one event may: its "
                    "waiting list is full too."
                ),
                most=EVENT_REGISTRATION_LIMIT,
            )
        status = Status.ASKED if _holding(event) < places(event) else Status.WAITING
        if registration is None:
            registration = Registration(event=event, player=player)
        registration.status = status
        # Asking again after a withdrawal goes to the back of the queue.
        registration.asked_at = timezone.now()
        registration.answered_at = None
        registration.save()
        return registration


def withdraw_registration(event_id: int, user) -> Registration:
    """The player linked to `user` gives up their registration, before the closing time;
    the first on the waiting list takes a place it held."""
    with transaction.atomic():
        event = _locked_event(event_id)
        registration = (
            event.registrations.select_for_update()
            .select_related("player")
            .filter(player__user=user, status__in=Registration.ACTIVE)
            .first()
        )
        if registration is None:
            raise GameChangeRefused(gettext_noop("You have no registration for this event."))
        if is_closed(event):
            raise GameChangeRefused(
                gettext_noop(
                    "Registration for this event has closed: ask its organisers to withdraw you."
                )
            )
        held = registration.status in Registration.HOLDING
        if registration.status == Status.CONFIRMED:
            _leave_roster(event, registration.player)
        registration.status = Status.WITHDRAWN
        registration.save(update_fields=["status"])
        if held:
            _promote(event)
        return registration


def _locked_registration(event: Event, registration_id: int) -> Registration:
    registration = (
        event.registrations.select_for_update()
        .select_related("player")
        .filter(pk=registration_id)
        .first()
    )
    if registration is None:
        raise GameChangeRefused(gettext_noop("There is no such registration for this event."))
    return registration


def confirm_registration(event_id: int, registration_id: int, actor) -> Registration:
    """The organisers give an asking player their place: the player is on the roster."""
    with transaction.atomic():
        event = _locked_event(event_id)
        registration = _locked_registration(event, registration_id)
        player = registration.player
        if registration.status == Status.CONFIRMED:
            raise GameChangeRefused(
                gettext_noop("%(player)s is confirmed already."), player=player.display_name
            )
        if registration.status == Status.WAITING:
            raise GameChangeRefused(
                gettext_noop(
                    "%(player)s is on the waiting list: a place must come free first (decline "
                    "someone, or give the event more places)."
                ),
                player=player.display_name,
            )
        if registration.status != Status.ASKED:
            raise GameChangeRefused(
                gettext_noop("%(player)s no longer asks for a place."), player=player.display_name
            )
        confirmed = event.registrations.filter(status=Status.CONFIRMED).count()
        if confirmed >= places(event):
            raise GameChangeRefused(
                gettext_noop(
                    "All %(places)s places are confirmed: give the event more places first."
                ),
                places=places(event),
            )
        add_to_roster(event.pk, [player])
        registration.status = Status.CONFIRMED
        registration.answered_at = timezone.now()
        registration.save(update_fields=["status", "answered_at"])
        trail.write(
            trail.Kind.ENTRY_CONFIRMED,
            actor=actor,
            event=event,
            after={"registrant": player.display_name},
        )
        return registration


def decline_registration(event_id: int, registration_id: int, actor) -> Registration:
    """The organisers turn a registration down (a confirmed one too, before the player
    has played); the first on the waiting list takes a place it held."""
    with transaction.atomic():
        event = _locked_event(event_id)
        registration = _locked_registration(event, registration_id)
        player = registration.player
        if registration.status not in Registration.ACTIVE:
            raise GameChangeRefused(
                gettext_noop("%(player)s no longer asks for a place."), player=player.display_name
            )
        before = registration.status
        if before == Status.CONFIRMED:
            _leave_roster(event, player)
        registration.status = Status.DECLINED
        registration.answered_at = timezone.now()
        registration.save(update_fields=["status", "answered_at"])
        trail.write(
            trail.Kind.ENTRY_DECLINED,
            actor=actor,
            event=event,
            before={"registrant": player.display_name},
        )
        if before in Registration.HOLDING:
            _promote(event)
        return registration


def set_registration(event_id: int, *, is_open: bool, places: int | None, closes_at) -> Event:
    """The organisers open or close registration, and set its places and closing time;
    places added go to the waiting list in order."""
    with transaction.atomic():
        event = _locked_event(event_id)
        event.registration_open = is_open
        event.registration_places = places
        event.registration_closes_at = closes_at
        event.save(
            update_fields=["registration_open", "registration_places", "registration_closes_at"]
        )
        _promote(event)
        return event

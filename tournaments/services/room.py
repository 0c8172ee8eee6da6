"""What passes between the director and the tables during a round: the round signals
("N minutes left", "last hand") a director sends to every table at once, and the referee
calls a table makes from its game page.

A signal is stored on its session, so a page loaded later (a phone that slept, the
projector reloaded) shows it too; saving the session replaces the event's play version
(`signals.py`), so every cached table page and live panel shows the change at its next poll.
A referee call goes through three steps, each in the trail: called by the table,
acknowledged by an organiser (someone is on the way), resolved.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from scoring.errors import gettext_noop

from .. import trail, versions
from ..limits import REFEREE_NOTE_LENGTH, SIGNAL_MAX_MINUTES
from ..models import Game, RefereeCall, RoundSignal, Session
from ..trail import Actor, Kind
from .errors import GameChangeRefused

SIGNAL_FIELDS = ["signal", "signal_minutes", "signal_at"]


def send_signal(session_id: int, signal: str, *, minutes: int | None = None, now=None) -> Session:
    """Tell every table of the session `signal`: "`minutes` minutes left" or "last hand".
    It replaces the signal before it."""
    if signal not in RoundSignal.values:
        raise GameChangeRefused(gettext_noop("Choose a signal: minutes left or last hand."))
    if signal == RoundSignal.MINUTES_LEFT:
        if minutes is None or not 1 <= minutes <= SIGNAL_MAX_MINUTES:
            raise GameChangeRefused(
                gettext_noop("Give the minutes left, from 1 to %(most)s."),
                most=SIGNAL_MAX_MINUTES,
            )
    else:
        minutes = None
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session_id)
        session.signal = signal
        session.signal_minutes = minutes
        session.signal_at = now or timezone.now()
        session.save(update_fields=SIGNAL_FIELDS)
        return session


def clear_signal(session_id: int) -> Session:
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session_id)
        session.signal = ""
        session.signal_minutes = None
        session.signal_at = None
        session.save(update_fields=SIGNAL_FIELDS)
        return session


def round_over(session: Session) -> bool:
    """Whether every game of the session's round is finished (a round with no game is not
    over: it has not begun)."""
    games = session.games.aggregate(
        all=Count("pk"), playing=Count("pk", filter=~Q(status=Game.Status.FINISHED))
    )
    return bool(games["all"]) and not games["playing"]


# Referee calls


def _call_words(call: RefereeCall) -> dict[str, str]:
    return {"call": call.reason, "note": call.note}


@dataclass(frozen=True)
class CallMade:
    call: RefereeCall
    new: bool  # False: the table's call was open already, and stays the one call


def call_referee(game_id: int, reason: str, note: str = "", *, actor: Actor) -> CallMade:
    """A table asks for a referee. A table has one open call at a time: calling again
    while one is open (a second tap, a second phone) answers with that call."""
    if reason not in RefereeCall.Reason.values:
        raise GameChangeRefused(
            gettext_noop(
                "Choose why you call a referee: a ruling, a dispute, a wrong score or other."
            )
        )
    note = " ".join(str(note or "").split())
    if len(note) > REFEREE_NOTE_LENGTH:
        raise GameChangeRefused(
            gettext_noop("Say it in at most %(most)s characters."), most=REFEREE_NOTE_LENGTH
        )
    try:
        with transaction.atomic():
            game = (
                Game.objects.select_for_update(of=("self",))
                .select_related("session")
                .get(pk=game_id)
            )
            open_call = game.referee_calls.open().first()
            if open_call is not None:
                return CallMade(open_call, False)
            call = RefereeCall.objects.create(
                game=game, reason=reason, note=note, called_by=actor.label[:160]
            )
            trail.write(Kind.REFEREE_CALLED, actor=actor, game=game, after=_call_words(call))
            versions.changed(game.session.event_id)
            return CallMade(call, True)
    except IntegrityError:
        # Two phones of one table at the same moment: the other call is the one.
        return CallMade(RefereeCall.objects.open().get(game_id=game_id), False)


def _open_call(call_id: int, event_id: int) -> RefereeCall:
    call = (
        RefereeCall.objects.select_for_update(of=("self",))
        .select_related("game__session")
        .filter(pk=call_id, game__session__event_id=event_id)
        .first()
    )
    if call is None:
        raise GameChangeRefused(gettext_noop("There is no such referee call in this event."))
    if call.resolved_at is not None:
        raise GameChangeRefused(gettext_noop("This referee call is resolved already."))
    return call


def acknowledge_referee_call(call_id: int, event_id: int, *, actor: Actor) -> RefereeCall:
    """An organiser takes the call: the table sees that someone is on the way."""
    with transaction.atomic():
        call = _open_call(call_id, event_id)
        if call.acknowledged_at is not None:
            return call
        call.acknowledged_at = timezone.now()
        call.acknowledged_by = actor.label[:160]
        call.save(update_fields=["acknowledged_at", "acknowledged_by"])
        trail.write(Kind.REFEREE_ACKNOWLEDGED, actor=actor, game=call.game, after=_call_words(call))
        versions.changed(event_id)
        return call


def resolve_referee_call(call_id: int, event_id: int, *, actor: Actor) -> RefereeCall:
    """The call is dealt with; it leaves the pages. An acknowledged call only: the table
    must first see that someone came."""
    with transaction.atomic():
        call = _open_call(call_id, event_id)
        if call.acknowledged_at is None:
            raise GameChangeRefused(
                gettext_noop("Acknowledge the call first, so that the table knows someone comes.")
            )
        call.resolved_at = timezone.now()
        call.resolved_by = actor.label[:160]
        call.save(update_fields=["resolved_at", "resolved_by"])
        trail.write(Kind.REFEREE_RESOLVED, actor=actor, game=call.game, after=_call_words(call))
        versions.changed(event_id)
        return call

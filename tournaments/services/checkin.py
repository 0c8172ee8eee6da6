"""Check-in before a session (round) is seated: who of the roster is present, and which
substitute of the event's pool takes a no-show's seat. One row per roster player marked,
so a session holds at most as many rows as the roster (`ROSTER_LIMIT`)."""

from __future__ import annotations

from django.db import transaction

from scoring.errors import gettext_noop

from .. import totals, versions
from ..models import CheckIn, Game, GameSeat, RosterEntry, Session, SubstituteRule
from .errors import GameChangeRefused


def _locked_session(session_id: int) -> Session:
    return Session.objects.select_for_update().select_related("event").get(pk=session_id)


def _entry(session: Session, player_id: int) -> RosterEntry:
    """The player's roster entry if they take part in the session; refused otherwise."""
    entry = (
        session.event.roster.playing_in(session.number)
        .select_related("player")
        .filter(player_id=player_id)
        .first()
    )
    if entry is None:
        raise GameChangeRefused(
            gettext_noop(
                "This player is not on the roster for session %(number)s (never added, or "
                "withdrawn): reload the check-in list."
            ),
            number=session.number,
        )
    return entry


def _mark(session: Session, player_id: int, present: bool, replaced_by=None) -> None:
    CheckIn.objects.update_or_create(
        session=session,
        player_id=player_id,
        defaults={"present": present, "replaced_by": replaced_by},
    )


def _recount_replaced(session: Session) -> None:
    """Under the EMA substitute rule a replaced player is given the games their substitute
    played: a change of who replaced whom in a session with finished games changes the
    standings."""
    if (
        session.event.substitute_rule == SubstituteRule.EMA
        and Game.objects.filter(session=session, status=Game.Status.FINISHED).exists()
    ):
        totals.results_changed(session.event_id)


def check_in_all(session_id: int) -> int:
    """Mark every regular player of the roster taking part in the session present (the
    substitute pool stays as it was); how many."""
    with transaction.atomic():
        session = _locked_session(session_id)
        ids = list(
            session.event.roster.playing_in(session.number)
            .regulars()
            .values_list("player_id", flat=True)
        )
        for player_id in ids:
            _mark(session, player_id, True)
        versions.changed(session.event_id)
        return len(ids)


def mark_present(session_id: int, player_id: int, present: bool) -> RosterEntry:
    """Mark one roster player present or absent. A no-show marked present again takes
    their seat back; the substitute who replaced them stays present until marked absent."""
    with transaction.atomic():
        session = _locked_session(session_id)
        entry = _entry(session, player_id)
        _mark(session, player_id, present)
        _recount_replaced(session)
        versions.changed(session.event_id)
        return entry


def replace_with_substitute(session_id: int, player_id: int, substitute_id: int) -> RosterEntry:
    """A no-show's seat goes to a substitute of the pool: the player is marked absent and
    replaced, the substitute present."""
    with transaction.atomic():
        session = _locked_session(session_id)
        entry = _entry(session, player_id)
        if entry.is_substitute:
            raise GameChangeRefused(
                gettext_noop(
                    "%(player)s is in the substitute pool: only a regular player is replaced."
                ),
                player=str(entry.player),
            )
        earlier = session.check_ins.filter(player_id=player_id, replaced_by__isnull=False)
        replaced = earlier.select_related("replaced_by").first()
        if replaced is not None:
            # A second tap of "replace" must not seat a second substitute.
            raise GameChangeRefused(
                gettext_noop(
                    "%(player)s is replaced by %(substitute)s already: mark %(substitute)s "
                    "absent first to choose another substitute."
                ),
                player=str(entry.player),
                substitute=str(replaced.replaced_by),
            )
        substitute = _entry(session, substitute_id)
        if not substitute.is_substitute:
            raise GameChangeRefused(
                gettext_noop(
                    "%(player)s is not in the substitute pool: move them to the pool on the "
                    "roster page first."
                ),
                player=str(substitute.player),
            )
        busy = session.check_ins.filter(player_id=substitute_id, present=True).exists()
        seated = GameSeat.objects.filter(open_session=session, player_id=substitute_id).exists()
        if busy or seated:
            raise GameChangeRefused(
                gettext_noop(
                    "%(player)s is already checked in or seated in this session: choose "
                    "another substitute."
                ),
                player=str(substitute.player),
            )
        _mark(session, player_id, False, replaced_by=substitute.player)
        _mark(session, substitute_id, True)
        _recount_replaced(session)
        versions.changed(session.event_id)
        return substitute


def clear_check_in(session_id: int) -> int:
    """Forget the session's check-in: it is seated from the roster again; how many marks."""
    with transaction.atomic():
        session = _locked_session(session_id)
        count, _ = session.check_ins.all().delete()
        _recount_replaced(session)
        versions.changed(session.event_id)
        return count

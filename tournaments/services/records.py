"""Games written from records: log and event imports, and restoring a game's state."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import (
    Exists,
    OuterRef,
)
from django.utils import timezone

from scoring.errors import gettext_noop
from scoring.game import GameResult

from .. import totals
from ..models import Event, Game, GameSeat, Hand, Penalty, Player, Session
from .errors import GameChangeRefused
from .games import _store_results, create_game, replay_record
from .hands import _save_hand

ALREADY_IMPORTED = gettext_noop("The game %(game)s has been imported already in this event.")


def session_for_import(event: Event, number: int, date) -> tuple[Session, bool]:
    """The session `number` of `event` that imported games go into, created on `date` when
    it is not there yet (True as the second value then)."""
    try:
        with transaction.atomic():
            return Session.objects.get_or_create(
                event=event, number=number, defaults={"date": date}
            )
    except IntegrityError:
        # Created by another import in the meantime.
        return Session.objects.get(event=event, number=number), False


def drop_empty_session(session: Session) -> bool:
    """Remove a session created for an import that stored no game in the end (every log
    refused), so that a failed import leaves nothing behind. True if it was removed."""
    with transaction.atomic():
        deleted, _ = (
            Session.objects.filter(pk=session.pk)
            .exclude(Exists(Game.objects.filter(session=OuterRef("pk"))))
            .delete()
        )
    return bool(deleted)


def create_game_from_record(
    session: Session,
    doc: dict[str, Any],
    players: Sequence[Player],
    *,
    table_number: int,
    source_id: str = "",
    user=None,
    result: GameResult | None = None,
) -> Game:
    """A whole game from a tenbou-game/1 document (hands or final scores, and penalties),
    scored under the session's rules (its stage's preset, or its event's); finished if the
    engine says it is over.

    The record's own `rules` are not used: an event's games follow the event's rules.
    `result` is the record's replay under those rules when the caller has made it
    already (a large import replays every game before it writes anything).
    """
    doc = {**doc, "rules": session.rules_spec()}
    doc["players"] = [p.display_name for p in players]
    if result is None:
        result = replay_record(doc)
    if source_id and Game.objects.filter(source_event=session.event, source_id=source_id).exists():
        raise GameChangeRefused(ALREADY_IMPORTED, game=source_id)
    entry_mode = Game.EntryMode.HANDS if "hands" in doc else Game.EntryMode.FINAL_SCORES
    try:
        return _store_game_from_record(
            session, doc, result, players, table_number, source_id, entry_mode, user
        )
    except IntegrityError:
        # Someone imported the same log in the meantime: the unique source id caught it.
        raise GameChangeRefused(ALREADY_IMPORTED, game=source_id) from None


def _store_game_from_record(
    session, doc, result, players, table_number, source_id, entry_mode, user
) -> Game:
    with transaction.atomic():
        game = create_game(
            session,
            players,
            table_number=table_number,
            entry_mode=entry_mode,
            finished=result.finished,
        )
        game.source_id = source_id
        game.source_event = session.event if source_id else None
        game.leftover_sticks = doc.get("leftover_sticks", 0)
        game.save(update_fields=["source_id", "source_event", "leftover_sticks"])
        if entry_mode == Game.EntryMode.FINAL_SCORES:
            seats = list(game.seats.order_by("seat"))
            for seat in seats:
                seat.entered_score = doc["final_scores"][seat.seat]
            GameSeat.objects.bulk_update(seats, ["entered_score"])
        for number, hand_doc in enumerate(doc.get("hands", []), start=1):
            _save_hand(Hand.from_record(game, number, hand_doc, created_by=user))
        for penalty in doc.get("penalties", []):
            Penalty.objects.create(
                game=game,
                seat=penalty["seat"],
                match_points=Decimal(str(penalty["match_points"])),
                reason=penalty.get("reason") or "penalty",
                created_by=user,
            )
        _store_results(game, result, record=doc, finish=True if result.finished else None)
        return game


def restore_game_state(
    game_id: int, *, ended_early: str = "", locked: bool = False, substitutes=()
) -> None:
    """Put back what a backup says about a game beyond its record: why it ended early,
    whether it is locked, and which seats were substitutes. Used by `backup.restore_site`
    after the game was rebuilt from its record (the results are the replay's already)."""
    with transaction.atomic():
        if ended_early or locked:
            # The game's time of change too: why it ended is part of its record.
            Game.objects.filter(pk=game_id).update(
                ended_early=ended_early, locked=locked, updated_at=timezone.now()
            )
        if substitutes:
            GameSeat.objects.filter(game_id=game_id, seat__in=list(substitutes)).update(
                is_substitute=True
            )
        game = Game.objects.get(pk=game_id)
        totals.game_changed(game, counted_before=game.status == Game.Status.FINISHED)


def create_awaiting_game(
    session: Session,
    players: Sequence[Player],
    *,
    table_number: int,
    source_id: str = "",
    penalties: Sequence[dict[str, Any]] = (),
    user=None,
) -> Game:
    """A game of final scores still awaiting them, as an event file holds it: with its log
    id and its penalties (record objects), which count once the scores are in."""
    game = create_game(
        session, players, table_number=table_number, entry_mode=Game.EntryMode.FINAL_SCORES
    )
    if source_id:
        game.source_id = source_id
        game.source_event = session.event
        game.save(update_fields=["source_id", "source_event"])
    Penalty.objects.bulk_create(
        Penalty(
            game=game,
            seat=penalty["seat"],
            match_points=Decimal(str(penalty["match_points"])),
            reason=penalty.get("reason") or "penalty",
            created_by=user,
        )
        for penalty in penalties
    )
    return game

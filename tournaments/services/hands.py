"""Hands entered, edited, deleted and undone; final scores; penalties."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction

from scoring.errors import gettext_noop
from scoring.game import GameResult, HandReport

from .. import totals, trail
from ..models import Game, GameSeat, Hand, Penalty, TableLink, TrailEntry, Win
from ..trail import Actor, Kind
from ..wording.refusals import one_after_another
from .errors import GameChangeRefused, HandAlreadyEntered, HandChanged
from .games import (
    _actor,
    _ended,
    _locked_game,
    _require_hands_mode,
    _require_open,
    _store_results,
    record_of,
    replay_record,
    rescore_game,
    seating_clashes,
)


def hand_version(hand_doc: dict[str, Any]) -> str:
    """The version of a hand as stored: a short digest of its record, which an edit form
    carries so that a save over someone else's change is refused."""
    text = json.dumps(hand_doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _save_hand(hand: Hand) -> Hand:
    hand.save()
    Win.objects.bulk_create(
        [Win(hand=hand, **_win_fields(w)) for w in getattr(hand, "pending_wins", [])]
    )
    return hand


def _win_fields(win: Win) -> dict[str, Any]:
    return {name: getattr(win, name) for name in ("order", *Win.ENGINE_FIELDS)}


@dataclass(frozen=True)
class HandPreview:
    """What a hand would do, computed before it is stored."""

    number: int
    report: HandReport
    result: GameResult  # the whole game with the hand in place


def preview_hand(game: Game, hand_doc: dict[str, Any], *, number: int | None = None) -> HandPreview:
    """Replay the game with `hand_doc` added (or in place of hand `number`), storing nothing."""
    doc = game.to_record()
    hands = doc["hands"]
    if number is None:
        number = len(hands) + 1
        hands.append(hand_doc)
    else:
        if not 1 <= number <= len(hands):
            raise GameChangeRefused(
                gettext_noop("This game has no hand %(number)s."), number=number
            )
        hands[number - 1] = hand_doc
    result = replay_record(doc)
    return HandPreview(number, result.hands[number - 1], result)


def add_hand(
    game_id: int,
    number: int,
    hand_doc: dict[str, Any] | Callable[[GameResult, list[str]], dict[str, Any]],
    *,
    user=None,
    actor: Actor | None = None,
    table_link: TableLink | None = None,
) -> Hand:
    """Store hand `number` as the next hand of the game; the stored hand's `game` is the
    game as it is after the change.

    `number` is the hand the organiser saw as next; if someone stored it first the
    change is refused with `HandAlreadyEntered`, so no hand is entered twice or lost.
    The one way a hand is saved: lock the game, read its record, replay it with the new
    hand, write. `hand_doc` may be a function that makes the hand from the game as read
    under the lock (its replay so far and its players' names), so that a form is checked
    against the game as it is, read once; whatever it raises leaves nothing stored.
    """
    try:
        with transaction.atomic():
            game = _locked_game(game_id)
            _require_hands_mode(game)
            _require_open(game)
            doc = record_of(game)
            count = len(doc["hands"])
            if number != count + 1:
                if count == 1:
                    raise HandAlreadyEntered(
                        gettext_noop(
                            "Someone entered hand %(number)s already: the game now has 1 hand. "
                            "Check the list of hands before entering it again."
                        ),
                        number=number,
                    )
                raise HandAlreadyEntered(
                    gettext_noop(
                        "Someone entered hand %(number)s already: the game now has %(count)s "
                        "hands. Check the list of hands before entering it again."
                    ),
                    number=number,
                    count=count,
                )
            if callable(hand_doc):
                hand_doc = hand_doc(replay_record(doc), list(doc["players"]))
            doc["hands"].append(hand_doc)
            result = replay_record(doc)
            actor = _actor(actor, user)
            if table_link is not None:
                _require_table_link(game, table_link)
            if actor.table_link is not None and actor.table_link.game_id == game.pk:
                actor.table_link.game = game  # the trail names its table: read already
            hand = Hand.from_record(game, number, hand_doc, created_by=actor.user)
            # The hands before it replay as they did: only the new one needs its facts.
            report = result.hands[number - 1]
            hand.dealer, hand.deltas = report.dealer, list(report.deltas)
            _save_hand(hand)
            _store_results(
                game,
                result,
                record=doc,
                finish=True if result.finished else None,
                hand_facts=False,
                seats=list(game._prefetched_objects_cache["seats"]),
            )
            trail.write(
                Kind.HAND_ADDED,
                actor=actor,
                game=game,
                hand_number=number,
                after={"hand": hand_doc, **_ended(game)},
            )
            return hand
    except IntegrityError:
        raise HandAlreadyEntered(
            gettext_noop("Someone entered hand %(number)s already. Check the list of hands."),
            number=number,
        ) from None


def _require_table_link(game: Game, link: TableLink) -> None:
    """Refuse a table link's change unless the link is still live and the game unlocked
    (checked again under the game's lock, so a revoke or lock takes effect at once)."""
    if not TableLink.objects.live().filter(pk=link.pk, game=game).exists():
        raise GameChangeRefused(
            gettext_noop(
                "This table link no longer works: ask an organiser for the table's new link."
            )
        )
    if game.locked:
        raise GameChangeRefused(
            gettext_noop("The organisers have locked this game: ask them to change it.")
        )


def _game_to_change(
    game_id: int, number: int, table_link: TableLink | None = None
) -> tuple[Game, dict[str, Any]]:
    """The locked, open game and its record, for a change to its hand `number`."""
    game = _locked_game(game_id)
    _require_hands_mode(game)
    _require_open(game)
    if table_link is not None:
        _require_table_link(game, table_link)
    doc = record_of(game)
    if not 1 <= number <= len(doc["hands"]):
        raise GameChangeRefused(gettext_noop("This game has no hand %(number)s."), number=number)
    return game, doc


def replace_hand(
    game_id: int,
    number: int,
    hand_doc: dict[str, Any],
    *,
    user=None,
    actor: Actor | None = None,
    table_link: TableLink | None = None,
    version: str | None = None,
) -> None:
    """Change hand `number`; every later hand is replayed, and refused if now impossible.
    With `version` (`hand_version` of the hand the editor started from), a hand changed
    meanwhile is refused with `HandChanged`."""
    actor = _actor(actor, user)
    with transaction.atomic():
        game, doc = _game_to_change(game_id, number, table_link)
        before = doc["hands"][number - 1]
        if version is not None and version != hand_version(before):
            raise HandChanged(before)
        doc["hands"][number - 1] = hand_doc
        result = replay_record(doc)
        old = game.hands.get(number=number)
        old.delete()
        _save_hand(Hand.from_record(game, number, hand_doc, created_by=actor.user))
        _store_results(game, result, record=doc)
        trail.write(
            Kind.HAND_EDITED,
            actor=actor,
            game=game,
            hand_number=number,
            before={"hand": before},
            after={"hand": hand_doc, **_ended(game)},
        )


def delete_hand(
    game_id: int,
    number: int,
    *,
    actor: Actor | None = None,
    table_link: TableLink | None = None,
    kind: str = Kind.HAND_DELETED,
) -> None:
    """Remove hand `number`; later hands move up one and are replayed."""
    with transaction.atomic():
        game, doc = _game_to_change(game_id, number, table_link)
        before = doc["hands"][number - 1]
        later = len(doc["hands"]) - number
        del doc["hands"][number - 1]
        result = replay_record(doc)
        game.hands.filter(number=number).delete()
        # One at a time, in order, so each moves into a number that is already free.
        for hand in game.hands.filter(number__gt=number).order_by("number"):
            hand.number -= 1
            hand.save(update_fields=["number"])
        _store_results(game, result, record=doc)
        after = {"later_hands_moved_up": later} if later else None
        trail.write(
            kind, actor=actor, game=game, hand_number=number, before={"hand": before}, after=after
        )


def undo_last_hand(
    game_id: int,
    *,
    number: int | None = None,
    version: str | None = None,
    actor: Actor | None = None,
    table_link: TableLink | None = None,
) -> int:
    """Remove the last hand; returns its number. With `number` and `version` (the hand the
    player saw as last, and its `hand_version`), a request that is no longer about the last
    hand (sent twice, or after a change) is refused, so it never undoes the next one."""
    with transaction.atomic():
        game = _locked_game(game_id)
        last = game.hands.order_by("-number").first()
        if number is not None and (last is None or last.number < number):
            raise GameChangeRefused(
                gettext_noop(
                    "Hand %(number)s is undone already: nothing else was undone. Check the "
                    "list of hands."
                ),
                number=number,
            )
        if last is None:
            raise GameChangeRefused(gettext_noop("There is no hand to undo."))
        if number is not None and last.number > number:
            raise GameChangeRefused(
                gettext_noop(
                    "Hand %(number)s is no longer the last hand: the game has %(count)s hands "
                    "now. Nothing was undone; check the list of hands."
                ),
                number=number,
                count=last.number,
            )
        if version is not None:
            _require_open(game)
            if version != hand_version(record_of(game)["hands"][-1]):
                raise GameChangeRefused(
                    gettext_noop(
                        "Hand %(number)s was changed since you asked to undo it: nothing was "
                        "undone. Check it, then undo it again if it is still wrong."
                    ),
                    number=last.number,
                )
        delete_hand(game_id, last.number, actor=actor, table_link=table_link, kind=Kind.HAND_UNDONE)
        return last.number


def restore_undone_hand(entry: TrailEntry, *, actor: Actor | None = None) -> Hand:
    """Enter again the hand that the trail's `entry` (an undo) took away, as the game's next
    hand, if it is still the next number; the hand is replayed as any new hand is."""
    hand_doc = (entry.before or {}).get("hand") if entry.kind == Kind.HAND_UNDONE else None
    if hand_doc is None or entry.game_id is None or not entry.hand_number:
        raise GameChangeRefused(gettext_noop("Only an undone hand of a game can be restored."))
    try:
        return add_hand(entry.game_id, entry.hand_number, hand_doc, actor=actor)
    except HandAlreadyEntered:
        count = Hand.objects.filter(game_id=entry.game_id).count()
        raise GameChangeRefused(
            gettext_noop(
                "Hand %(number)s cannot be restored: the game's next hand is hand %(next)s "
                "now. Undo or delete the later hands first, or enter it again."
            ),
            number=entry.hand_number,
            next=count + 1,
        ) from None


def preview_final_scores(game: Game, scores: Sequence[int], leftover_sticks: int) -> GameResult:
    """What these final scores would make of the game (placements, match points, where the
    leftover sticks go), storing nothing."""
    doc = game.to_record()
    doc.pop("hands", None)
    doc["final_scores"] = list(scores)
    doc["leftover_sticks"] = leftover_sticks
    return replay_record(doc)


def set_final_scores(
    game_id: int,
    scores: Sequence[int],
    leftover_sticks: int,
    *,
    actor: Actor | None = None,
    table_link: TableLink | None = None,
) -> GameResult:
    """Store the final scores (four, or three) of a final-score-only game and finish it;
    through `table_link`, only while that link is live and the game unlocked."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.entry_mode != Game.EntryMode.FINAL_SCORES:
            raise GameChangeRefused(gettext_noop("This game is entered hand by hand."))
        _require_open(game)
        if table_link is not None:
            _require_table_link(game, table_link)
        seats = list(game.seats.order_by("seat"))
        before = [seat.entered_score for seat in seats]
        before_sticks = game.leftover_sticks
        for seat in seats:
            seat.entered_score = scores[seat.seat]
        doc = game.to_record()
        doc["final_scores"] = list(scores)
        doc["leftover_sticks"] = leftover_sticks
        result = replay_record(doc)
        GameSeat.objects.bulk_update(seats, ["entered_score"])
        game.leftover_sticks = leftover_sticks
        game.save(update_fields=["leftover_sticks"])
        _store_results(game, result, record=doc, finish=True)
        trail.write(
            Kind.FINAL_SCORES,
            actor=actor,
            game=game,
            before=None
            if all(b is None for b in before)
            else {"final_scores": before, "leftover_sticks": before_sticks},
            after={"final_scores": list(scores), "leftover_sticks": leftover_sticks},
        )
        return result


def clear_final_scores(game_id: int, *, actor: Actor | None = None) -> None:
    """Take back the four final scores of a final-score game (reopening it), so that it
    waits for its scores again or can be deleted."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.entry_mode != Game.EntryMode.FINAL_SCORES:
            raise GameChangeRefused(
                gettext_noop(
                    "This game is entered hand by hand: delete its hands one by one instead."
                )
            )
        seats = list(game.seats.select_related("player"))
        counted_before = totals.counted(game)
        if all(seat.entered_score is None for seat in seats):
            raise GameChangeRefused(gettext_noop("This game has no final scores to clear."))
        if game.is_finished:
            clashes = seating_clashes(
                game.session_id, game.table_number, [s.player for s in seats], exclude=game.pk
            )
            if clashes:
                raise GameChangeRefused(one_after_another(*clashes))
        before = {
            "final_scores": [s.entered_score for s in sorted(seats, key=lambda s: s.seat)],
            "leftover_sticks": game.leftover_sticks,
        }
        for seat in seats:
            seat.entered_score = seat.score = seat.placement = seat.match_points = None
            seat.open_session_id = game.session_id
        GameSeat.objects.bulk_update(
            seats, ["entered_score", "score", "placement", "match_points", "open_session"]
        )
        game.status = Game.Status.IN_PROGRESS
        game.ended_by = ""
        game.leftover_sticks = 0
        game.save(update_fields=["status", "ended_by", "leftover_sticks", "updated_at"])
        totals.game_changed(game, counted_before=counted_before)
        trail.write(Kind.FINAL_SCORES, actor=actor, game=game, before=before, after=None)


def add_penalty(
    game_id: int,
    seat: int,
    match_points: Decimal,
    reason: str,
    *,
    user=None,
    actor: Actor | None = None,
) -> Penalty:
    """Give seat `seat` a penalty of `match_points` (tenths, added after uma and oka) and
    rewrite the game's results, or refuse and store nothing."""
    points = Decimal(match_points)
    if not 0 <= seat <= 3:
        raise GameChangeRefused(
            gettext_noop("There is no seat %(seat)s: seats are 0 to 3."), seat=seat
        )
    if points == 0:
        raise GameChangeRefused(gettext_noop("A penalty of 0 match points changes nothing."))
    if points != points.quantize(Decimal("0.1")):
        raise GameChangeRefused(
            gettext_noop("Match points are kept to tenths, e.g. -20.0 or -2.5.")
        )
    if not reason.strip():
        raise GameChangeRefused(gettext_noop("Give the reason for the penalty."))
    with transaction.atomic():
        game = _locked_game(game_id)
        actor = _actor(actor, user)
        penalty = Penalty.objects.create(
            game=game, seat=seat, match_points=points, reason=reason.strip(), created_by=actor.user
        )
        rescore_game(game)
        trail.write(Kind.PENALTY_ADDED, actor=actor, game=game, after=_penalty_doc(penalty))
        return penalty


def _penalty_doc(penalty: Penalty) -> dict[str, Any]:
    seat = penalty.game.seats.select_related("player").get(seat=penalty.seat)
    return {"player": seat.player.display_name, **penalty.to_record()}


def delete_penalty(game_id: int, penalty_id: int, *, actor: Actor | None = None) -> Penalty:
    """Take back a penalty of this game and rewrite the game's results; returns it."""
    with transaction.atomic():
        game = _locked_game(game_id)
        penalty = game.penalties.filter(pk=penalty_id).first()
        if penalty is None:
            raise GameChangeRefused(
                gettext_noop("This game has no such penalty: it may have been removed.")
            )
        before = _penalty_doc(penalty)
        penalty.delete()
        rescore_game(game)
        trail.write(Kind.PENALTY_REMOVED, actor=actor, game=game, before=before)
        return penalty

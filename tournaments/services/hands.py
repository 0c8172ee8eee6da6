"""Hands entered, edited, deleted and undone; final scores; penalties."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from scoring.errors import gettext_noop
from scoring.game import GameResult, HandReport

from .. import totals, trail
from ..models import (
    EntryReceipt,
    Game,
    GameSeat,
    Hand,
    Penalty,
    PhoneContact,
    TableLink,
    TrailEntry,
    Win,
)
from ..trail import Actor, Kind
from ..wording.refusals import one_after_another
from .errors import (
    EntrySentBefore,
    GameChangedMeanwhile,
    GameChangeRefused,
    GameClosed,
    HandAlreadyEntered,
    HandChanged,
    ScoresDisagree,
)
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


def game_version(game: Game, doc: dict[str, Any]) -> str:
    """The version of a game's hands as stored: a short digest of what its hands are played
    under and what they are (rules, players, hands, time called) and whether it takes
    changes (finished, locked). `doc` is its record (`record_of`). Any change to the game's
    hands gives a new version; a penalty or the round clock does not."""
    parts = {
        "rules": doc.get("rules"),
        "players": doc.get("players"),
        "hands": doc.get("hands"),
        "ended_early": doc.get("ended_early", ""),
        "status": game.status,
        "locked": game.locked,
    }
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


# Hand entries: every add, edit and undo is applied under an id, made on the phone (or by
# the form's confirm step) when the player confirms it; the same id sent again is answered
# from its receipt, never applied twice (see `EntryReceipt`).


def entry_id(value: Any) -> uuid.UUID:
    """The entry id given (a UUID or its text), or a new one for a change sent without one;
    refused when it is not a UUID."""
    if value is None or value == "":
        return uuid.uuid4()
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value)[:64])
    except ValueError:
        raise GameChangeRefused(
            gettext_noop(
                "This entry's id is not one Tenbou made: reload the page and enter the hand again."
            )
        ) from None


def entry_receipt(game_id: int, entry: Any) -> EntryReceipt | None:
    """The receipt of entry `entry` of the game, if it was applied (a read, no lock)."""
    try:
        entry = uuid.UUID(str(entry)[:64])
    except ValueError:
        return None
    return EntryReceipt.objects.filter(game_id=game_id, entry=entry).first()


def _answer_resend(game: Game, entry: uuid.UUID) -> None:
    """Under the game's lock: an entry applied already is answered with its receipt."""
    receipt = EntryReceipt.objects.filter(game=game, entry=entry).first()
    if receipt is not None:
        raise EntrySentBefore(receipt)


def _sent_in_a_race(game_id: int, entry: uuid.UUID) -> None:
    """After a failed write: if the same entry was stored by a request that got there first
    (outside the lock: the database's unique receipt caught it), answer with its receipt."""
    receipt = EntryReceipt.objects.filter(game_id=game_id, entry=entry).first()
    if receipt is not None:
        raise EntrySentBefore(receipt)


def _require_version(game: Game, doc: dict[str, Any], based_on: str | None) -> None:
    if based_on is not None and based_on != game_version(game, doc):
        raise GameChangedMeanwhile(
            gettext_noop(
                "The game was changed on the server since this phone last read it: nothing "
                "was saved. Compare the two versions of the game."
            )
        )


def note_phone_contact(game_id: int, waiting: int | None = None) -> None:
    """Keep the time a phone entering the game's hands reached the server and how many
    hands it says still wait to be sent (None: as it said before). Writes only the game's
    own contact row: no lock that another table, or this game's hand entry, waits for."""
    fields: dict[str, Any] = {"at": timezone.now()}
    if waiting is not None:
        fields["waiting"] = waiting
    with transaction.atomic():
        if PhoneContact.objects.filter(game_id=game_id).update(**fields):
            return
        try:
            with transaction.atomic():
                PhoneContact.objects.create(game_id=game_id, **fields)
        except IntegrityError:  # another report of the game made the row first
            PhoneContact.objects.filter(game_id=game_id).update(**fields)


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


def preview_hand(
    game: Game,
    hand_doc: dict[str, Any],
    *,
    number: int | None = None,
    record: dict[str, Any] | None = None,
) -> HandPreview:
    """Replay the game with `hand_doc` added (or in place of hand `number`), storing nothing.
    `record`: the game's record as the caller read it already (it is not changed)."""
    doc = game.to_record() if record is None else {**record, "hands": list(record["hands"])}
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
    entry: Any = None,
    expect_scores: Sequence[int] | None = None,
    based_on: str | None = None,
) -> Hand:
    """Store hand `number` as the next hand of the game; the stored hand's `game` is the
    game as it is after the change.

    `entry` is the entry's id (made when the player confirmed the hand; a new one when
    None): if the game holds it already, nothing is changed and `EntrySentBefore` carries
    its receipt, whatever happened to the game since (a hand added and later undone is not
    added again). `expect_scores`: the scores after the hand as the sender computed them;
    a replay that gives others is refused with `ScoresDisagree`. `based_on`: the
    `game_version` the sender last saw; a game changed since is refused with
    `GameChangedMeanwhile`.

    `number` is the hand the organiser saw as next; if someone stored it first the
    change is refused with `HandAlreadyEntered`, so no hand is entered twice or lost.
    The one way a hand is saved: lock the game, read its record, replay it with the new
    hand, write. `hand_doc` may be a function that makes the hand from the game as read
    under the lock (its replay so far and its players' names), so that a form is checked
    against the game as it is, read once; whatever it raises leaves nothing stored.
    """
    entry = entry_id(entry)
    try:
        with transaction.atomic():
            game = _locked_game(game_id)
            try:
                return _add_hand(
                    game, number, hand_doc, user, actor, table_link, entry, expect_scores, based_on
                )
            except DatabaseError:
                raise  # nothing more can be read in this transaction: see below
            except Exception:
                # Whatever refused it, an entry applied already is answered with its
                # receipt; one that got past every check is caught by its receipt's
                # unique entry as it is written.
                _answer_resend(game, entry)
                raise
    except IntegrityError:
        _sent_in_a_race(game_id, entry)
        raise HandAlreadyEntered(
            gettext_noop("Someone entered hand %(number)s already. Check the list of hands."),
            number=number,
        ) from None


def _add_hand(game, number, hand_doc, user, actor, table_link, entry, expect_scores, based_on):
    """`add_hand` under the game's lock."""
    _require_hands_mode(game)
    doc = record_of(game)
    _require_version(game, doc, based_on)
    _require_open(game)
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
    # The hands before it replay as they did: only the new one needs its facts.
    report = result.hands[number - 1]
    _require_scores(number, report.scores_after, expect_scores)
    hand = Hand.from_record(game, number, hand_doc, created_by=actor.user, entry=entry)
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
    EntryReceipt.objects.create(game=game, entry=entry, kind=EntryReceipt.Kind.ADD, number=number)
    return hand


def _require_scores(number: int, scores: Sequence[int], expected: Sequence[int] | None) -> None:
    if expected is not None and list(expected) != list(scores):
        raise ScoresDisagree(
            gettext_noop(
                "Hand %(number)s was not saved: the server's scores after it are %(server)s, "
                "this phone's are %(phone)s. Reload the game on this phone and enter the hand "
                "again."
            ),
            number=number,
            server=", ".join(str(score) for score in scores),
            phone=", ".join(str(score) for score in expected),
        )


def _require_table_link(game: Game, link: TableLink) -> None:
    """Refuse a table link's change unless the link is still live and the game unlocked
    (checked again under the game's lock, so a revoke or lock takes effect at once)."""
    if not TableLink.objects.live().filter(pk=link.pk, game=game).exists():
        raise GameClosed(
            gettext_noop(
                "This table link no longer works: ask an organiser for the table's new link."
            )
        )
    if game.locked:
        raise GameClosed(
            gettext_noop("The organisers have locked this game: ask them to change it.")
        )


def _game_to_change(
    game_id: int,
    number: int,
    table_link: TableLink | None = None,
    *,
    entry: uuid.UUID | None = None,
) -> tuple[Game, dict[str, Any]]:
    """The locked, open game and its record, for a change to its hand `number` (an entry
    applied already is answered with its receipt)."""
    game = _locked_game(game_id)
    if entry is not None:
        _answer_resend(game, entry)
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
    entry: Any = None,
) -> None:
    """Change hand `number`; every later hand is replayed, and refused if now impossible.
    With `version` (`hand_version` of the hand the editor started from), a hand changed
    meanwhile is refused with `HandChanged`. `entry` as for `add_hand`: an edit applied
    already raises `EntrySentBefore` and changes nothing."""
    actor = _actor(actor, user)
    entry = entry_id(entry)
    try:
        _replace_hand(game_id, number, hand_doc, actor, table_link, version, entry)
    except IntegrityError:
        _sent_in_a_race(game_id, entry)
        raise


def _replace_hand(game_id, number, hand_doc, actor, table_link, version, entry) -> None:
    with transaction.atomic():
        game, doc = _game_to_change(game_id, number, table_link, entry=entry)
        before = doc["hands"][number - 1]
        if version is not None and version != hand_version(before):
            raise HandChanged(before)
        doc["hands"][number - 1] = hand_doc
        result = replay_record(doc)
        old = game.hands.get(number=number)
        old.delete()
        _save_hand(Hand.from_record(game, number, hand_doc, created_by=actor.user, entry=entry))
        _store_results(game, result, record=doc)
        trail.write(
            Kind.HAND_EDITED,
            actor=actor,
            game=game,
            hand_number=number,
            before={"hand": before},
            after={"hand": hand_doc, **_ended(game)},
        )
        EntryReceipt.objects.create(
            game=game, entry=entry, kind=EntryReceipt.Kind.EDIT, number=number
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
    entry: Any = None,
    based_on: str | None = None,
) -> int:
    """Remove the last hand; returns its number. With `number` and `version` (the hand the
    player saw as last, and its `hand_version`), a request that is no longer about the last
    hand (sent twice, or after a change) is refused, so it never undoes the next one.
    `entry` as for `add_hand`: an undo applied already raises `EntrySentBefore` and undoes
    nothing more; `based_on` as there too."""
    entry = entry_id(entry)
    try:
        return _undo_last_hand(game_id, number, version, actor, table_link, entry, based_on)
    except IntegrityError:
        _sent_in_a_race(game_id, entry)
        raise


def _undo_last_hand(game_id, number, version, actor, table_link, entry, based_on) -> int:
    with transaction.atomic():
        game = _locked_game(game_id)
        _answer_resend(game, entry)
        if based_on is not None:
            _require_version(game, record_of(game), based_on)
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
        EntryReceipt.objects.create(
            game=game, entry=entry, kind=EntryReceipt.Kind.UNDO, number=last.number
        )
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

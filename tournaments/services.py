"""Every write that changes a game's outcome, each in one transaction.

A write builds the game's record as it would be after the change, lets the engine replay
all of it, and only then stores the change together with the derived results. If the
engine refuses, nothing is stored and the organiser gets the engine's reason.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from functools import reduce
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import (
    Exists,
    OuterRef,
    Prefetch,
    Q,
    prefetch_related_objects,
)
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext, ngettext

import scoring
from scoring.errors import Phrase, gettext_noop
from scoring.game import GameResult, HandReport

from . import totals, trail, versions
from .models import (
    ROSTER_LIMIT,
    Event,
    Game,
    GameSeat,
    Hand,
    Penalty,
    Player,
    RosterEntry,
    Session,
    TableLink,
    Win,
)
from .refusals import Refusal, one_after_another
from .trail import Actor, Kind


class GameChangeRefused(Refusal):
    """A change the rules or the game's state do not allow; the message says why (a marked
    template and its parameters, or the engine's refusal passed on)."""


class HandAlreadyEntered(GameChangeRefused):
    """Someone else stored this hand number first."""


ALREADY_IMPORTED = gettext_noop("The game %(game)s has been imported already in this event.")


class HandChanged(GameChangeRefused):
    """Someone else changed the hand since the edit form was opened; `hand` is the hand as
    it is stored now."""

    def __init__(self, hand: dict[str, Any]) -> None:
        super().__init__(gettext_noop("The hand was changed by someone else in the meantime."))
        self.hand = hand


def hand_version(hand_doc: dict[str, Any]) -> str:
    """The version of a hand as stored: a short digest of its record, which an edit form
    carries so that a save over someone else's change is refused."""
    text = json.dumps(hand_doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def replay_record(doc: dict[str, Any]) -> GameResult:
    """Replay a record, turning the engine's refusal into a `GameChangeRefused`."""
    try:
        return scoring.replay(scoring.parse_record(doc))
    except scoring.ScoringError as err:
        raise GameChangeRefused(err) from None


def _store_results(
    game: Game,
    result: GameResult,
    *,
    finish: bool | None = None,
    seats: list[GameSeat] | None = None,
    hand_facts: bool = True,
    left: Sequence[int] = (),
) -> None:
    """Write the derived results beside the game. `finish` None keeps the status, except
    that an engine-finished game is marked finished when `finish` is True. `seats` are the
    game's seats as read under its lock, if the caller has them.
    `hand_facts` False is for a change that gave each hand it touched its facts already (a
    hand added at the end). `left` names players who left the game's seats."""
    if finish is True and not result.finished:
        raise GameChangeRefused(
            gettext_noop("The game is not over yet under its rules: enter more hands.")
        )
    was_finished = game.status == Game.Status.FINISHED
    counted_before = was_finished and totals.counted(game)
    if finish is not None:
        game.status = Game.Status.FINISHED if finish else Game.Status.IN_PROGRESS
    if not result.finished and game.status == Game.Status.FINISHED:
        game.status = Game.Status.IN_PROGRESS
    is_open = game.status == Game.Status.IN_PROGRESS
    if seats is None:
        seats = list(game.seats.select_related("player").order_by("seat"))
    if was_finished and is_open:
        # A game that goes on again takes its table and its players back.
        clashes = seating_clashes(
            game.session_id, game.table_number, [s.player for s in seats], exclude=game.pk
        )
        if clashes:
            raise GameChangeRefused(one_after_another(*clashes))
    game.ended_by = result.ended_by or ("final_scores" if result.finished else "")
    game.save(update_fields=["status", "ended_by", "updated_at"])
    _write_seats(game, seats, result, is_open=is_open)
    if hand_facts:
        _store_hand_facts(game, result)
    # Standings count finished games only: a hand in a game still going changes nothing there.
    if was_finished or game.status == Game.Status.FINISHED:
        totals.game_changed(game, counted_before=counted_before, players=left)


def _store_hand_facts(game: Game, result: GameResult) -> None:
    """Keep each hand's dealer and score changes beside it, for the statistics."""
    hands = list(
        Hand.objects.filter(game=game).order_by("number").only("pk", "number", "dealer", "deltas")
    )
    changed = []
    for hand, report in zip(hands, result.hands, strict=False):
        deltas = list(report.deltas)
        if hand.dealer != report.dealer or hand.deltas != deltas:
            hand.dealer, hand.deltas = report.dealer, deltas
            changed.append(hand)
    if changed:
        Hand.objects.bulk_update(changed, ["dealer", "deltas"])


def table_clash_message(table_number: int) -> Phrase:
    return Phrase(
        gettext_noop(
            "Table %(table)s has a game going on already in this session. Finish or delete "
            "that game first, or choose another table number."
        ),
        table=table_number,
    )


def player_clash_message(players: Sequence[Player], table_number: int) -> Phrase:
    names = [str(p) for p in players]
    if len(names) == 1:
        return Phrase(
            gettext_noop(
                "%(who)s is playing at table %(table)s of this session, and that game is not "
                "finished. Finish or delete that game first, or choose another player."
            ),
            who=names[0],
            table=table_number,
        )
    return Phrase(
        gettext_noop(
            "%(who)s are playing at table %(table)s of this session, and that game is not "
            "finished. Finish or delete that game first, or choose other players."
        ),
        who=Phrase(
            gettext_noop("%(first)s and %(second)s"), first=", ".join(names[:-1]), second=names[-1]
        ),
        table=table_number,
    )


def open_table_clash(session_id: int, table_number: int, *, exclude: int | None = None) -> bool:
    """Whether another unfinished game of the session sits at `table_number`."""
    games = Game.objects.filter(
        session_id=session_id, table_number=table_number, status=Game.Status.IN_PROGRESS
    )
    return games.exclude(pk=exclude).exists()


def open_seat_clashes(
    session_id: int, players: Sequence[Player], *, exclude: int | None = None
) -> dict[int, int]:
    """Player id -> table number, for those of `players` already in another unfinished
    game of the session."""
    seats = (
        GameSeat.objects.filter(open_session_id=session_id, player__in=[p.pk for p in players])
        .exclude(game_id=exclude)
        .values_list("player_id", "game__table_number")
    )
    return dict(seats)


def seating_clashes(
    session_id: int, table_number: int, players: Sequence[Player], *, exclude: int | None = None
) -> list[Phrase]:
    """Why these players cannot sit at this table of the session now, if they cannot."""
    messages = []
    if open_table_clash(session_id, table_number, exclude=exclude):
        messages.append(table_clash_message(table_number))
    clashes = open_seat_clashes(session_id, players, exclude=exclude)
    by_table: dict[int, list[Player]] = {}
    for player in players:
        if player.pk in clashes:
            by_table.setdefault(clashes[player.pk], []).append(player)
    messages += [player_clash_message(seated, table) for table, seated in by_table.items()]
    return messages


def seat_results(result: GameResult, *, finished: bool) -> list[dict[str, Any]]:
    """Each seat's stored results, seat by seat: the current score, and placement and match
    points only once the game is finished."""
    scores = result.final_scores if result.finished else result.state.scores
    return [
        {
            "score": scores[seat],
            "placement": result.placements[seat] if finished else None,
            "match_points": result.match_points[seat] if finished else None,
            "penalty_points": result.penalties[seat],
        }
        for seat in range(4)
    ]


def apply_result(seats: Sequence[GameSeat], result: GameResult, *, finished: bool) -> None:
    """Copy the engine's results onto a game's seats (unsaved)."""
    values = seat_results(result, finished=finished)
    for seat in seats:
        for name, value in values[seat.seat].items():
            setattr(seat, name, value)


def _write_seats(game: Game, seats: list[GameSeat], result: GameResult, *, is_open: bool) -> None:
    """Store the results of the game's seats, read under its lock."""
    fields = ["score", "placement", "match_points", "penalty_points", "open_session_id"]
    stored = [[getattr(seat, name) for name in fields] for seat in seats]
    apply_result(seats, result, finished=game.status == Game.Status.FINISHED)
    for seat in seats:
        seat.open_session_id = game.session_id if is_open else None
    # A hand that moves no points (a draw with everyone tenpai) leaves the seats as they are.
    changed = [
        seat
        for seat, before in zip(seats, stored, strict=True)
        if [getattr(seat, name) for name in fields] != before
    ]
    if changed:
        GameSeat.objects.bulk_update(
            changed, ["score", "placement", "match_points", "penalty_points", "open_session"]
        )


def record_of(game: Game) -> dict[str, Any]:
    """The record of one game, read in five queries: its seats with their players, hands,
    wins and penalties, each ordered within the game alone (the models' orderings would join
    the game, its session and its event to every query). The seats stay prefetched on
    `game`, for a change that leaves them alone; its hands and penalties do not, so that
    counting them after a change counts them anew."""
    prefetch_related_objects(
        [game],
        Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat")),
        Prefetch(
            "hands",
            queryset=Hand.objects.order_by("number").prefetch_related(
                Prefetch("wins", queryset=Win.objects.order_by("order"))
            ),
        ),
        Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "pk")),
    )
    record = game.to_record()
    for name in ("hands", "penalties"):
        game._prefetched_objects_cache.pop(name, None)
    return record


def _locked_game(game_id: int) -> Game:
    # Only the game's row: a lock of the joined session and event would make every table's
    # change wait for every other's.
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("session__event")
        .get(pk=game_id)
    )


def _require_open(game: Game) -> None:
    if game.is_finished:
        raise GameChangeRefused(
            gettext_noop("This game is finished. Reopen it to change its hands.")
        )


def _require_hands_mode(game: Game) -> None:
    if game.entry_mode != Game.EntryMode.HANDS:
        raise GameChangeRefused(gettext_noop("This game records final scores only, not hands."))


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


def _actor(actor: Actor | None, user) -> Actor:
    return actor if actor is not None else Actor.of(user)


def _ended(game: Game) -> dict[str, Any]:
    """What a change that ended the game adds to its trail entry."""
    if not game.is_finished:
        return {}
    return {"game_ended": game.ended_by, "final_scores": [s.score for s in game.ordered_seats()]}


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
            hand = Hand.from_record(game, number, hand_doc, created_by=actor.user)
            # The hands before it replay as they did: only the new one needs its facts.
            report = result.hands[number - 1]
            hand.dealer, hand.deltas = report.dealer, list(report.deltas)
            _save_hand(hand)
            _store_results(
                game,
                result,
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
        _store_results(game, result)
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
        _store_results(game, result)
        after = {"later_hands_moved_up": later} if later else None
        trail.write(
            kind, actor=actor, game=game, hand_number=number, before={"hand": before}, after=after
        )


def undo_last_hand(
    game_id: int, *, actor: Actor | None = None, table_link: TableLink | None = None
) -> int:
    """Remove the last hand; returns its number."""
    with transaction.atomic():
        game = _locked_game(game_id)
        last = game.hands.order_by("-number").first()
        if last is None:
            raise GameChangeRefused(gettext_noop("There is no hand to undo."))
        delete_hand(game_id, last.number, actor=actor, table_link=table_link, kind=Kind.HAND_UNDONE)
        return last.number


def preview_final_scores(game: Game, scores: Sequence[int], leftover_sticks: int) -> GameResult:
    """What these final scores would make of the game (placements, match points, where the
    leftover sticks go), storing nothing."""
    doc = game.to_record()
    doc.pop("hands", None)
    doc["final_scores"] = list(scores)
    doc["leftover_sticks"] = leftover_sticks
    return replay_record(doc)


def set_final_scores(
    game_id: int, scores: Sequence[int], leftover_sticks: int, *, actor: Actor | None = None
) -> GameResult:
    """Store the four final scores of a final-score-only game and finish it."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.entry_mode != Game.EntryMode.FINAL_SCORES:
            raise GameChangeRefused(gettext_noop("This game is entered hand by hand."))
        _require_open(game)
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
        _store_results(game, result, finish=True)
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


def game_results(game: Game) -> list[str]:
    """What a game holds that deleting it would lose, as words; empty when nothing."""
    held = []
    hands = game.hands.count()
    if hands:
        held.append(ngettext("%(count)s hand", "%(count)s hands", hands) % {"count": hands})
    if game.seats.filter(entered_score__isnull=False).exists():
        held.append(gettext("final scores"))
    penalties = game.penalties.count()
    if penalties:
        held.append(
            ngettext("%(count)s penalty", "%(count)s penalties", penalties) % {"count": penalties}
        )
    return held


def results_in_words(held: list[str]) -> str:
    """What `game_results` found, as one phrase: "3 hands and 1 penalty"."""
    return reduce(
        lambda first, second: (
            gettext("%(first)s and %(second)s") % {"first": first, "second": second}
        ),
        held,
    )


def delete_game(game_id: int) -> Game:
    """Delete a game that holds no results (no hands, final scores or penalties); the
    event's standings are computed anew. Returns the deleted game (without its id)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        held = game_results(game)
        if held:
            raise GameChangeRefused(
                gettext_noop("This game has %(held)s. Clear them first, then delete the game."),
                held=results_in_words(held),
            )
        game.delete()  # the totals follow in the signal of its deletion
        return game


def finish_game(game_id: int, *, actor: Actor | None = None) -> GameResult:
    with transaction.atomic():
        game = _locked_game(game_id)
        result = replay_record(game.to_record())
        _store_results(game, result, finish=True)
        trail.write(Kind.FINISHED, actor=actor, game=game, after=_ended(game))
        return result


def reopen_game(game_id: int, *, actor: Actor | None = None) -> None:
    """Open a finished game again; a game ended by time goes on from its last hand."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if not game.is_finished:
            raise GameChangeRefused(gettext_noop("This game is not finished."))
        trail.write(Kind.REOPENED, actor=actor, game=game, before=_ended(game))
        if game.ended_early:
            game.ended_early = ""
            game.save(update_fields=["ended_early", "updated_at"])
        result = replay_record(game.to_record())
        _store_results(game, result, finish=False)


def _call_time(game: Game, actor: Actor | None) -> GameResult:
    if game.entry_mode != Game.EntryMode.HANDS:
        raise GameChangeRefused(
            gettext_noop("This game records final scores only: enter its final scores instead.")
        )
    _require_open(game)
    if not game.hands.exists():
        raise GameChangeRefused(
            gettext_noop(
                "No hand of this game has been entered, so it cannot end by time: enter the "
                "hands played first."
            )
        )
    game.ended_early = "time"
    result = replay_record(game.to_record())
    game.save(update_fields=["ended_early", "updated_at"])
    _store_results(game, result, finish=True)
    trail.write(Kind.TIME_CALLED, actor=actor, game=game, after=_ended(game))
    return result


def call_time(game_id: int, *, actor: Actor | None = None) -> GameResult:
    """End a game in progress after its last hand entered, wherever the rules would have
    gone on; `reopen_game` takes it back."""
    with transaction.atomic():
        return _call_time(_locked_game(game_id), actor)


@dataclass(frozen=True)
class TimeCalled:
    ended: list[Game]  # ended by time now
    not_started: list[Game]  # in progress without a hand entered: left as they are


def call_time_on_session(session_id: int, *, actor: Actor | None = None) -> TimeCalled:
    """Call time on every game of the session that is still being played hand by hand.
    Games with no hand entered yet are left alone and named; all the rest end together
    or, if one cannot, none does."""
    with transaction.atomic():
        games = list(
            Game.objects.select_for_update(of=("self",))
            .select_related("session__event")
            .filter(
                session_id=session_id,
                status=Game.Status.IN_PROGRESS,
                entry_mode=Game.EntryMode.HANDS,
            )
            .order_by("table_number", "pk")
        )
        # Counted apart: PostgreSQL locks no rows of a grouped query.
        with_hands = set(
            Hand.objects.filter(game__in=[g.pk for g in games]).values_list("game_id", flat=True)
        )
        ended, not_started = [], []
        for game in games:
            if game.pk not in with_hands:
                not_started.append(game)
                continue
            try:
                _call_time(game, actor)
            except GameChangeRefused as err:
                raise GameChangeRefused(
                    gettext_noop("Table %(table)s: %(problem)s"),
                    table=game.table_number,
                    problem=err.phrase,
                ) from None
            ended.append(game)
        return TimeCalled(ended, not_started)


# The round clock

CLOCK_MAX_MINUTES = 600


def start_round_clock(session_id: int, minutes: int, *, now=None) -> Session:
    """Start (or start again) the session's round clock: `minutes` from now."""
    if not 1 <= minutes <= CLOCK_MAX_MINUTES:
        raise GameChangeRefused(
            gettext_noop(
                "A round lasts from 1 to %(most)s minutes; give its length in minutes, e.g. 90."
            ),
            most=CLOCK_MAX_MINUTES,
        )
    now = now or timezone.now()
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session_id)
        session.clock_minutes = minutes
        session.clock_ends_at = now + timedelta(minutes=minutes)
        session.save(update_fields=["clock_minutes", "clock_ends_at"])
        return session


def stop_round_clock(session_id: int) -> Session:
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session_id)
        session.clock_minutes = None
        session.clock_ends_at = None
        session.save(update_fields=["clock_minutes", "clock_ends_at"])
        return session


def rescore_game(game: Game, *, left: Sequence[int] = ()) -> GameResult | None:
    """Replay a game as stored and rewrite its derived results (inside a transaction);
    `left` names players who left its seats.

    A final-score game still waiting for its scores has nothing to replay: None.
    """
    if game.awaits_final_scores:
        return None
    result = replay_record(game.to_record())
    _store_results(game, result, left=left)
    return result


def replay_game(game_id: int) -> GameResult | None:
    """Replay a stored game and rewrite its derived results, in its own transaction (for
    commands that bring older games up to date)."""
    with transaction.atomic():
        return rescore_game(_locked_game(game_id))


def create_game(
    session: Session,
    players: Sequence[Player],
    *,
    table_number: int,
    entry_mode: str = Game.EntryMode.HANDS,
    substitutes: Sequence[int] = (),
    finished: bool = False,
) -> Game:
    """A new game with `players` in seat order (East first); the seats in `substitutes`
    are taken by substitutes, who are not ranked in the standings. An unfinished game
    needs its table and its players free in the session; `finished` is for a whole game
    recorded at once, which the caller finishes in the same transaction."""
    if len(players) != 4 or len({p.pk for p in players}) != 4:
        raise GameChangeRefused(gettext_noop("A game needs four different players: choose four."))
    try:
        with transaction.atomic():
            # One new game of a session at a time, so that two organisers cannot both
            # take the same table or player.
            Session.objects.select_for_update().filter(pk=session.pk).exists()
            if not finished:
                clashes = seating_clashes(session.pk, table_number, players)
                if clashes:
                    raise GameChangeRefused(one_after_another(*clashes))
            status = Game.Status.FINISHED if finished else Game.Status.IN_PROGRESS
            game = Game.objects.create(
                session=session, table_number=table_number, entry_mode=entry_mode, status=status
            )
            GameSeat.objects.bulk_create(
                [
                    GameSeat(
                        game=game,
                        seat=seat,
                        player=player,
                        is_substitute=seat in substitutes,
                        open_session=None if finished else session,
                    )
                    for seat, player in enumerate(players)
                ]
            )
            if entry_mode == Game.EntryMode.HANDS and not finished:
                rescore_game(game)
            return game
    except IntegrityError:
        raise GameChangeRefused(
            gettext_noop(
                "Someone seated one of these players or this table meanwhile. Check the "
                "session's tables and try again."
            )
        ) from None


def reseat_game(
    game_id: int, players: Sequence[Player], *, table_number: int | None = None
) -> Game:
    """Put `players` into seats 0-3 (and move the game to `table_number`), then replay the
    game, all or nothing. What belongs to the seat (an entered final score, a substitute's
    mark) stays with the seat.

    When players only come in, the seat rows are updated; when players already at the
    table change seats, the rows are replaced: swapping two players row by row would
    briefly seat one player twice, which the database refuses.
    """
    if len({p.pk for p in players}) != 4:
        raise GameChangeRefused(gettext_noop("A game needs four different players."))
    with transaction.atomic():
        game = _locked_game(game_id)
        if table_number is not None and table_number != game.table_number:
            game.table_number = table_number
            game.save(update_fields=["table_number", "updated_at"])
        old = {seat.seat: seat for seat in game.seats.all()}
        if [old[i].player_id for i in sorted(old)] == [p.pk for p in players]:
            return game
        sitting = {row.player_id: row.seat for row in old.values()}
        left = sorted(set(sitting) - {p.pk for p in players})
        if len(old) == 4 and all(sitting.get(p.pk, i) == i for i, p in enumerate(players)):
            for index, player in enumerate(players):
                old[index].player = player
            GameSeat.objects.bulk_update(list(old.values()), ["player"])
            rescore_game(game, left=left)
            return game
        game.seats.all().delete()
        GameSeat.objects.bulk_create(
            [
                GameSeat(
                    game=game,
                    seat=index,
                    player=player,
                    entered_score=old[index].entered_score if index in old else None,
                    is_substitute=old[index].is_substitute if index in old else False,
                    open_session=None if game.is_finished else game.session,
                )
                for index, player in enumerate(players)
            ]
        )
        rescore_game(game, left=left)
        return game


def put_player_in_seat(game_id: int, seat: int, player: Player) -> Game:
    """Another player in one seat of a game; the seat keeps its results and the game is
    replayed (a name is part of the game's record)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        players = [s.player for s in game.seats.select_related("player").order_by("seat")]
        players[seat] = player
        return reseat_game(game_id, players)


def set_substitutes(game_id: int, seats: Sequence[int]) -> bool:
    """Mark exactly the seats in `seats` as taken by substitutes; True if that changed
    anything. A finished game's standings change at once."""
    with transaction.atomic():
        game = _locked_game(game_id)
        counted_before = totals.counted(game)
        rows = list(game.seats.all())
        changed = [row for row in rows if row.is_substitute != (row.seat in seats)]
        for row in changed:
            row.is_substitute = row.seat in seats
        GameSeat.objects.bulk_update(changed, ["is_substitute"])
        if changed:
            # The game's time of change: its page marks the substitutes (and saving the
            # game replaces the event's play token).
            game.save(update_fields=["updated_at"])
        if changed and game.is_finished:
            totals.game_changed(game, counted_before=counted_before)
        return bool(changed)


# The longest display name (a suffixed new name is cut to fit).
NAME_LENGTH = Player._meta.get_field("display_name").max_length


def free_name(name: str) -> str:
    """`name`, or `name 2`, `name 3`... when another player holds the name (in any case).
    Display names are unique across the site, so a name held by a player the organiser may
    not know of gives a new player a numbered name rather than that player."""
    candidate, number = name, 1
    while Player.objects.filter(display_name__iexact=candidate).exists():
        number += 1
        tail = f" {number}"
        candidate = name[: NAME_LENGTH - len(tail)].rstrip() + tail
    return candidate


def new_player(name: str) -> Player:
    """A new player called `name`, or by a numbered name when it is taken (`free_name`)."""
    return Player.objects.create(display_name=free_name(name))


def player_named(name: str, known=None) -> Player:
    """The player among `known` (every player if None) called exactly `name`, or a new one:
    the one rule for a typed or uploaded name. Nobody outside `known` is ever matched, and
    what happens does not tell a hidden player's name from a free one."""
    pool = Player.objects.all() if known is None else known
    player = pool.filter(display_name=name).first()
    return player if player is not None else new_player(name)


def players_by_name(names: Sequence[str], *, create: bool = False) -> list[Player]:
    """The players with these display names, in order; unknown names are created if asked,
    and otherwise refused by name."""
    found = {p.display_name: p for p in Player.objects.filter(display_name__in=names)}
    missing = [name for name in names if name not in found]
    if missing and not create:
        raise GameChangeRefused(
            gettext_noop("Unknown player(s): %(names)s."), names=", ".join(missing)
        )
    for name in missing:
        found[name] = Player.objects.create(display_name=name)
    return [found[name] for name in names]


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
    scored under the session's event rules; finished if the engine says it is over.

    The record's own `rules` are not used: an event's games follow the event's rules.
    `result` is the record's replay under those rules when the caller has made it
    already (a large import replays every game before it writes anything).
    """
    doc = {**doc, "rules": session.event.rules_spec()}
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
        _store_results(game, result, finish=True if result.finished else None)
        return game


@dataclass(frozen=True)
class RulesChange:
    games: int
    changed: int
    reopened: int


def _snapshot(game: Game) -> list[tuple]:
    return [(s.score, s.placement, s.match_points) for s in game.seats.order_by("seat")]


def change_event_rules(
    event_id: int, preset: str, overrides: dict[str, Any], *, actor: Actor | None = None
) -> RulesChange:
    """Change an event's rules and re-score all its games, or refuse and change nothing.

    A game that the new rules cannot settle is named in the refusal. A finished game that
    is no longer over under the new rules is reopened so that play can go on.
    """
    with transaction.atomic(), totals.batched():
        event = Event.objects.select_for_update().get(pk=event_id)
        rules_before = {"preset": event.rules_preset, "overrides": event.rules_overrides}
        event.rules_preset = preset
        event.rules_overrides = overrides
        try:
            event.rules()
        except scoring.ScoringError as err:
            raise GameChangeRefused(err) from None
        event.save(update_fields=["rules_preset", "rules_overrides"])
        games = (
            Game.objects.filter(session__event=event)
            .select_related("session__event")
            .prefetch_related("seats__player")
            .order_by("session__number", "table_number", "pk")
        )
        rescored = changed = reopened = 0
        for game in games:
            if game.awaits_final_scores:
                continue
            rescored += 1
            before = _snapshot(game)
            was_finished = game.is_finished
            try:
                rescore_game(game)
            except GameChangeRefused as err:
                raise GameChangeRefused(
                    gettext_noop("%(game)s: %(problem)s"), game=str(game), problem=err.phrase
                ) from None
            if before != _snapshot(game):
                changed += 1
            if was_finished and not game.is_finished:
                reopened += 1
        trail.write(
            Kind.RULES_CHANGED,
            actor=actor,
            event=event,
            before=rules_before,
            after={
                "preset": preset,
                "overrides": overrides,
                "games_rescored": rescored,
                "games_changed": changed,
                "games_reopened": reopened,
            },
        )
        return RulesChange(rescored, changed, reopened)


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


# The roster


# Most names one pasted list may hold.
PASTE_LIMIT = 500


@dataclass(frozen=True)
class RosterChange:
    added: list[Player]  # put on the roster, in the order given
    created: list[Player]  # of those, the players that were new to Tenbou
    already: list[Player]  # on the roster before: left as they were


def _room_on_roster(event: Event, adding: int) -> None:
    present = event.roster.count()
    if present + adding > ROSTER_LIMIT:
        raise GameChangeRefused(
            gettext_noop(
                "A roster holds at most %(most)s players; this one has %(present)s, so "
                "%(adding)s more do not fit. Add fewer, or take off players who never came."
            ),
            most=ROSTER_LIMIT,
            present=present,
            adding=adding,
        )


def add_to_roster(event_id: int, players: Sequence[Player]) -> RosterChange:
    """Put `players` on the event's roster; those already on it stay as they are (a
    withdrawn player on it is not brought back: see `return_to_roster`)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        on_roster = set(event.roster.values_list("player_id", flat=True))
        new = [p for p in dict.fromkeys(players) if p.pk not in on_roster]
        _room_on_roster(event, len(new))
        RosterEntry.objects.bulk_create([RosterEntry(event=event, player=p) for p in new])
        if new:
            # Who sits out of a session follows the roster.
            versions.changed(event_id)
        already = [p for p in dict.fromkeys(players) if p.pk in on_roster]
        return RosterChange(added=new, created=[], already=already)


def add_names_to_roster(
    event_id: int, names: Sequence[str], *, create: bool, known=None
) -> RosterChange:
    """Put the players with these display names on the roster, matching names without
    regard to case among the `known` players (those the organiser may know of; every player
    if None); other names are created if `create` (see `new_player`), and otherwise refused
    by name, the same way whether or not a player hidden from the organiser has the name.
    `names` are already cleaned: no blanks, no repeats. All or nothing."""
    if len(names) > PASTE_LIMIT:
        raise GameChangeRefused(
            gettext_noop("Paste at most %(most)s names at a time; this list has %(count)s."),
            most=PASTE_LIMIT,
            count=len(names),
        )
    with transaction.atomic():
        found: dict[str, Player] = {}
        folded = [name.casefold() for name in names]
        # Exact names, and names equal but for case (SQLite's lower() folds ASCII only).
        pool = Player.objects.all() if known is None else known
        candidates = pool.annotate(lowered=Lower("display_name")).filter(
            Q(display_name__in=names) | Q(lowered__in=[name.lower() for name in names])
        )
        for player in sorted(candidates, key=lambda p: p.display_name not in names):
            found.setdefault(player.display_name.casefold(), player)
        missing = [name for name, key in zip(names, folded, strict=True) if key not in found]
        if missing and not create:
            raise GameChangeRefused(
                gettext_noop(
                    "No player is called %(names)s. Tick “Create players for new names” to add "
                    "them, or correct the spelling."
                ),
                names=", ".join(missing),
            )
        created = []
        for name in missing:
            player = new_player(name)
            found[name.casefold()] = player
            created.append(player)
        change = add_to_roster(event_id, [found[key] for key in folded])
        return RosterChange(added=change.added, created=created, already=change.already)


def withdraw_from_roster(event_id: int, player_id: int, session_number: int) -> RosterEntry:
    """Mark a player withdrawn from session (round) `session_number` on. Games already
    played stay and count."""
    if session_number < 1:
        raise GameChangeRefused(
            gettext_noop("Sessions are numbered from 1: give the first session missed.")
        )
    return _set_withdrawn_from(event_id, player_id, session_number)


def return_to_roster(event_id: int, player_id: int) -> RosterEntry:
    """Take back a withdrawal: the player takes part again."""
    return _set_withdrawn_from(event_id, player_id, None)


def _set_withdrawn_from(event_id: int, player_id: int, session_number: int | None) -> RosterEntry:
    with transaction.atomic():
        entry = (
            RosterEntry.objects.select_for_update()
            .select_related("player")
            .filter(event_id=event_id, player_id=player_id)
            .first()
        )
        if entry is None:
            raise GameChangeRefused(gettext_noop("This player is not on the roster."))
        entry.withdrawn_from = session_number
        entry.save(update_fields=["withdrawn_from"])
        versions.changed(event_id)
        return entry


def remove_from_roster(event_id: int, player_id: int) -> Player:
    """Take a player off the roster who has not played in the event; one who has is
    withdrawn instead, so that their games keep their name."""
    with transaction.atomic():
        entry = (
            RosterEntry.objects.select_for_update()
            .select_related("player")
            .filter(event_id=event_id, player_id=player_id)
            .first()
        )
        if entry is None:
            raise GameChangeRefused(gettext_noop("This player is not on the roster."))
        if GameSeat.objects.filter(game__session__event_id=event_id, player_id=player_id).exists():
            raise GameChangeRefused(
                gettext_noop("%(player)s has played in this event: mark them withdrawn instead."),
                player=str(entry.player),
            )
        entry.delete()
        versions.changed(event_id)
        return entry.player


# Table links


def _revoke_live(game: Game) -> int:
    return game.table_links.live().update(revoked_at=timezone.now())


def renew_table_link(game_id: int, *, actor: Actor | None = None) -> TableLink:
    """A new table link for the game; any live one stops working at once."""
    with transaction.atomic():
        game = _locked_game(game_id)
        revoked = _revoke_live(game)
        link = TableLink.objects.create(game=game)
        versions.changed(game.session.event_id)
        trail.write(
            Kind.LINK_CHANGED,
            actor=actor,
            game=game,
            before={"link": "revoked"} if revoked else None,
            after={"link": f"#{link.pk} made"},
        )
        return link


def revoke_table_link(game_id: int, *, actor: Actor | None = None) -> None:
    with transaction.atomic():
        game = _locked_game(game_id)
        if not _revoke_live(game):
            raise GameChangeRefused(gettext_noop("This game has no table link to revoke."))
        versions.changed(game.session.event_id)
        trail.write(Kind.LINK_CHANGED, actor=actor, game=game, after={"link": "revoked"})


def lock_game(game_id: int, locked: bool, *, actor: Actor | None = None) -> None:
    """Lock (or unlock) a game: a locked game's table link changes nothing."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.locked == locked:
            return
        game.locked = locked
        game.save(update_fields=["locked", "updated_at"])
        trail.write(
            Kind.LINK_CHANGED,
            actor=actor,
            game=game,
            before={"locked": not locked},
            after={"locked": locked},
        )


def make_table_links(session_id: int, *, actor: Actor | None = None) -> int:
    """A table link for every game of the session in progress that has none; how many."""
    made = 0
    with transaction.atomic():
        games = (
            Game.objects.select_for_update(of=("self",))
            .select_related("session__event")
            .filter(session_id=session_id, status=Game.Status.IN_PROGRESS)
            .exclude(pk__in=TableLink.objects.live().values("game_id"))
            .order_by("table_number", "pk")
        )
        for game in games:
            link = TableLink.objects.create(game=game)
            trail.write(
                Kind.LINK_CHANGED, actor=actor, game=game, after={"link": f"#{link.pk} made"}
            )
            made += 1
        if made:
            versions.changed(Session.objects.values_list("event_id", flat=True).get(pk=session_id))
    return made


# Seating a session


# Most tables one session may be seated at (a roster holds at most ROSTER_LIMIT players).
SEATING_TABLE_LIMIT = ROSTER_LIMIT // 4


def session_has_results(session: Session) -> bool:
    """Whether any game of the session has a hand, a final score or a penalty entered, or
    is finished: then seating it again would throw results away."""
    games = Game.objects.filter(session=session)
    return (
        Hand.objects.filter(game__in=games).exists()
        or GameSeat.objects.filter(game__in=games, entered_score__isnull=False).exists()
        or Penalty.objects.filter(game__in=games).exists()
        or games.filter(status=Game.Status.FINISHED).exists()
    )


def seat_session(
    session_id: int, tables: Sequence[Sequence[int]], *, actor: Actor | None = None
) -> list[Game]:
    """Create one game per table (player ids in seat order, East first), numbered from 1,
    in place of the session's games so far, which must have no results. All or nothing;
    the trail gets the seats of every table."""
    if not tables or len(tables) > SEATING_TABLE_LIMIT:
        raise GameChangeRefused(
            gettext_noop("A session is seated at 1 to %(most)s tables."), most=SEATING_TABLE_LIMIT
        )
    ids = [pid for table in tables for pid in table]
    if any(len(table) != 4 for table in tables) or len(set(ids)) != len(ids):
        raise GameChangeRefused(
            gettext_noop("Every table needs four players, and every player one seat.")
        )
    with transaction.atomic():
        session = (
            Session.objects.select_for_update(of=("self",))
            .select_related("event")
            .get(pk=session_id)
        )
        if session_has_results(session):
            raise GameChangeRefused(
                gettext_noop(
                    "Session %(number)s has results entered already, so it cannot be seated "
                    "again. Seat a new session, or delete its hands and final scores first."
                ),
                number=session.number,
            )
        players = Player.objects.in_bulk(ids)
        if len(players) != len(set(ids)):
            raise GameChangeRefused(
                gettext_noop("A player of this plan was removed meanwhile: plan again.")
            )
        session.games.all().delete()
        games = [
            create_game(session, [players[pid] for pid in table], table_number=number)
            for number, table in enumerate(tables, start=1)
        ]
        for game, table in zip(games, tables, strict=True):
            seats = [players[pid].display_name for pid in table]
            trail.write(
                Kind.SEATS_CHANGED,
                actor=actor,
                game=game,
                after={"table": game.table_number, "seats": seats},
            )
        # The session had no results: only what is at its tables changed.
        versions.changed(session.event_id)
        return games


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

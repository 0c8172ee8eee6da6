"""A game's record, its replay and stored results, its seats, and its life: created,
reseated, finished, reopened, deleted."""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import (
    Prefetch,
    prefetch_related_objects,
)
from django.utils.translation import gettext, ngettext

import scoring
from scoring.errors import Phrase, gettext_noop
from scoring.game import GameResult

from .. import totals, trail, versions
from ..models import Game, GameSeat, Hand, Player, Session
from ..statistics import SEAT_FIGURES, seat_figures
from ..trail import Actor, Kind
from ..wording.refusals import one_after_another
from .errors import GameChangeRefused, GameClosed


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
    record: dict[str, Any],
    finish: bool | None = None,
    seats: list[GameSeat] | None = None,
    hand_facts: bool = True,
    left: Sequence[int] = (),
) -> None:
    """Write the derived results beside the game: `result` is the replay of `record`, the
    game's record as it now stands. `finish` None keeps the status, except
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
    game.round_now = round_now(result) if is_open else ""
    game.save(update_fields=["status", "ended_by", "round_now", "updated_at"])
    _write_seats(game, seats, result, record, is_open=is_open)
    if hand_facts:
        _store_hand_facts(game, result)
    # Standings count finished games only: a hand in a game still going changes nothing there.
    if was_finished or game.status == Game.Status.FINISHED:
        totals.game_changed(game, counted_before=counted_before, players=left)


def round_now(result: GameResult) -> str:
    """The round and honba of the next hand ("E3-1"), or "" when the game is over."""
    if result.finished:
        return ""
    return f"{result.state.round_label}-{result.state.honba}"


def _store_hand_facts(game: Game, result: GameResult) -> None:
    """Keep each hand's dealer and score changes beside it."""
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
        for seat in range(len(scores))
    ]


def apply_result(seats: Sequence[GameSeat], result: GameResult, *, finished: bool) -> None:
    """Copy the engine's results onto a game's seats (unsaved)."""
    values = seat_results(result, finished=finished)
    for seat in seats:
        for name, value in values[seat.seat].items():
            setattr(seat, name, value)


def _write_seats(
    game: Game,
    seats: list[GameSeat],
    result: GameResult,
    record: dict[str, Any],
    *,
    is_open: bool,
) -> None:
    """Store the results and the statistics of the game's seats, read under its lock."""
    figures = [*SEAT_FIGURES, "yaku"]
    fields = ["score", "placement", "match_points", "penalty_points", "open_session_id", *figures]
    stored = [[getattr(seat, name) for name in fields] for seat in seats]
    apply_result(seats, result, finished=game.status == Game.Status.FINISHED)
    counted = seat_figures(record.get("hands", []), result.hands)
    for seat in seats:
        seat.open_session_id = game.session_id if is_open else None
        for name, value in counted[seat.seat].items():
            setattr(seat, name, value)
    # The changed fields only, in plain UPDATEs, one for the seats that change alike (the
    # two seats a ron leaves out count one more hand each): a `bulk_update` of the four
    # seats builds a CASE per field and seat, which took ten times as long as these few
    # statements, and half of a hand's save. A seat a hand leaves alone is not written.
    changes: list[tuple[dict[str, Any], list[int]]] = []
    for seat, before in zip(seats, stored, strict=True):
        values = {
            name: value
            for name, old in zip(fields, before, strict=True)
            if (value := getattr(seat, name)) != old
        }
        if not values:
            continue
        alike = next((pks for same, pks in changes if same == values), None)
        if alike is None:
            changes.append((values, [seat.pk]))
        else:
            alike.append(seat.pk)
    for values, pks in changes:
        GameSeat.objects.filter(pk__in=pks).update(**values)


SEATS_WITH_PLAYERS = GameSeat.objects.select_related("player").order_by("seat")


def record_of(game: Game, *, entries: dict[int, list] | None = None) -> dict[str, Any]:
    """The record of one game, in three queries: its seats with their players, kept
    prefetched on `game` for a change that leaves them alone; its hands with their wins
    (one statement), and its penalties, read as plain values (see `Game.to_record`, and
    for `entries`)."""
    prefetch_related_objects([game], Prefetch("seats", queryset=SEATS_WITH_PLAYERS))
    return game.to_record(entries=entries)


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
        raise GameClosed(gettext_noop("This game is finished. Reopen it to change its hands."))


def _require_hands_mode(game: Game) -> None:
    if game.entry_mode != Game.EntryMode.HANDS:
        raise GameClosed(gettext_noop("This game records final scores only, not hands."))


def _actor(actor: Actor | None, user) -> Actor:
    return actor if actor is not None else Actor.of(user)


def _ended(game: Game) -> dict[str, Any]:
    """What a change that ended the game adds to its trail entry."""
    if not game.is_finished:
        return {}
    return {"game_ended": game.ended_by, "final_scores": [s.score for s in game.ordered_seats()]}


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


def seating_words(game: Game) -> dict[str, Any]:
    """A game's table and players as the trail keeps them: names, substitutes marked."""
    seats = game.seats.select_related("player").order_by("seat")
    return {
        "table": game.table_number,
        # Stored as written, so in one language for all its readers (as the game form's
        # change of seats is).
        "seats": [
            s.player.display_name + (" (substitute)" if s.is_substitute else "") for s in seats
        ],
    }


def delete_game(game_id: int, *, actor: Actor | None = None) -> Game:
    """Delete a game that holds no results (no hands, final scores or penalties); the
    event's standings are computed anew. Returns the deleted game (without its id). The
    trail keeps its table and players."""
    with transaction.atomic():
        game = _locked_game(game_id)
        held = game_results(game)
        if held:
            raise GameChangeRefused(
                gettext_noop("This game has %(held)s. Clear them first, then delete the game."),
                held=results_in_words(held),
            )
        trail.write(Kind.GAME_DELETED, actor=actor, game=game, before=seating_words(game))
        game.delete()  # the totals follow in the signal of its deletion
        return game


def set_entry_mode(game_id: int, entry_mode: str) -> Game:
    """Switch a game with nothing entered (no hand, final score or penalty) between hand by
    hand and final scores only: a seated round can be entered either way."""
    if entry_mode not in Game.EntryMode.values:
        raise GameChangeRefused(gettext_noop("Choose hand by hand or final scores only."))
    with transaction.atomic():
        game = _locked_game(game_id)
        held = game_results(game)
        if held:
            raise GameChangeRefused(
                gettext_noop(
                    "This game has %(held)s entered, so its entry mode cannot change any more. "
                    "Clear them first to switch."
                ),
                held=results_in_words(held),
            )
        if game.entry_mode == entry_mode:
            return game
        game.entry_mode = entry_mode
        game.save(update_fields=["entry_mode", "updated_at"])
        if entry_mode == Game.EntryMode.HANDS:
            rescore_game(game)
        else:
            game.seats.update(score=None, placement=None, match_points=None)
        versions.changed(game.session.event_id)
        return game


def finish_game(game_id: int, *, actor: Actor | None = None) -> GameResult:
    with transaction.atomic():
        game = _locked_game(game_id)
        record = game.to_record()
        result = replay_record(record)
        _store_results(game, result, record=record, finish=True)
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
        record = game.to_record()
        _store_results(game, replay_record(record), record=record, finish=False)


def rescore_game(game: Game, *, left: Sequence[int] = ()) -> GameResult | None:
    """Replay a game as stored and rewrite its derived results (inside a transaction);
    `left` names players who left its seats.

    A final-score game still waiting for its scores has nothing to replay: None.
    """
    if game.awaits_final_scores:
        return None
    record = game.to_record()
    result = replay_record(record)
    _store_results(game, result, record=record, left=left)
    return result


def replay_game(game_id: int) -> GameResult | None:
    """Replay a stored game and rewrite its derived results, in its own transaction (for
    commands that bring older games up to date)."""
    with transaction.atomic():
        return rescore_game(_locked_game(game_id))


def _check_player_count(event, players: Sequence[Player]) -> None:
    """Refuse a game whose players are not as many different players as the event's games
    have seats (four, or three under three-player rules)."""
    if len(players) == event.player_count and len({p.pk for p in players}) == len(players):
        return
    if event.player_count == 3:
        raise GameChangeRefused(
            gettext_noop(
                "A game of this event needs three different players (three-player rules): "
                "choose three."
            )
        )
    raise GameChangeRefused(gettext_noop("A game needs four different players: choose four."))


def create_game(
    session: Session,
    players: Sequence[Player],
    *,
    table_number: int,
    entry_mode: str = Game.EntryMode.HANDS,
    substitutes: Sequence[int] = (),
    finished: bool = False,
    actor: Actor | None = None,
) -> Game:
    """A new game with `players` in seat order (East first); the seats in `substitutes`
    are taken by substitutes, who are not ranked in the standings. An unfinished game
    needs its table and its players free in the session; `finished` is for a whole game
    recorded at once, which the caller finishes in the same transaction. A game made by
    hand names its `actor`, and goes in the trail with its seats."""
    _check_player_count(session.event, players)
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
            if actor is not None:
                trail.write(Kind.GAME_CREATED, actor=actor, game=game, after=seating_words(game))
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
    """Put `players` into seats 0-3 (0-2 at three players) and move the game to
    `table_number`, then replay the game, all or nothing. What belongs to the seat (an
    entered final score, a substitute's mark) stays with the seat.

    When players only come in, the seat rows are updated; when players already at the
    table change seats, the rows are replaced: swapping two players row by row would
    briefly seat one player twice, which the database refuses.
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        _check_player_count(game.event, players)
        if table_number is not None and table_number != game.table_number:
            game.table_number = table_number
            game.save(update_fields=["table_number", "updated_at"])
        old = {seat.seat: seat for seat in game.seats.all()}
        if [old[i].player_id for i in sorted(old)] == [p.pk for p in players]:
            return game
        sitting = {row.player_id: row.seat for row in old.values()}
        left = sorted(set(sitting) - {p.pk for p in players})
        if len(old) == len(players) and all(
            sitting.get(p.pk, i) == i for i, p in enumerate(players)
        ):
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

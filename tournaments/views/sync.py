"""A table's phone and the server: the game as the phone reads it, and each hand it sends.

`GET /games/<pk>/hands/record.json` (`tournaments:hand_record`) answers

    {"game": pk, "record": <tenbou-game/1, "rules" resolved as
       {"preset": name, "overrides": {every option: value}}>,
     "status": "open" | "finished" | "locked", "entry_mode": "hands" | "final_scores",
     "hands": N, "entries": [the entry id of each stored hand, in order; null for a hand
       stored without one], "changed": <the game's version>, "names": [the players]}

`POST /games/<pk>/hands/sync/` (`tournaments:hand_sync`) takes one JSON object of at most
16 KB (`Content-Type: application/json`, the CSRF token in `X-CSRFToken`):

    {"entry": "<uuid>", "kind": "add" | "undo" | "status", "number": N,
     "hand": {a tenbou-game/1 hand} (add), "scores": [each seat's score after it] (add),
     "based_on": "<the changed string the phone last saw>" (optional),
     "waiting": K (optional: hands left in the phone's outbox after this one),
     "game": pk (optional: refused unless it is this game)}

Fields not named here are ignored. The answers:

- 200 `{"status": "saved" | "already", "kind": ..., "number": N, "record": ...,
  "changed": ..., "entries": [...], "game_status": "open" | "finished" | "locked"}`;
  `already`: the same entry id was applied before (`kind` and `number` are what it did
  then), nothing is changed;
- 200 `{"status": "noted", "changed": ..., "hands": N, "game_status": ...}` for `status`,
  which only keeps the phone's `waiting` and the time (every request that reaches the game
  does the same);
- 409 `{"status": "conflict", "message": ..., "record": ..., "changed": ..., "entries":
  ..., "game_status": ...}`: the number is taken by another entry (or comes after hands the
  server does not have), the game is finished or locked, or it changed since `based_on`;
- 422 `{"status": "refused", "message": ...}`: not JSON, too large, not this game, a field
  missing or of the wrong type, a hand the rules refuse, or `scores` other than the
  server's replay gives.

- 403 (not JSON): no access (the table link was renewed or revoked, another table's
  game, a visitor without the link: never a redirect to the login page) or no CSRF token;
- 405 for a GET.

Messages are in the request's language. Every request that reaches the game (refused or
not) keeps the phone's last contact and, when given, its `waiting`: the director sees both
per table on the session page and the live screen. A phone that takes over a table (the
first one lost) opens the table's link, reads `record.json` and goes on from its `hands`.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

import scoring
from scoring.errors import ScoringError
from scoring.record import dump_hand, parse_hand

from .. import access, services
from ..models import Game, Hand
from ..wording.refusals import say
from .games import refusal

# One hand at a time, and a hand object is a few hundred bytes: 16 KB is ample.
SYNC_BODY_LIMIT = 16 * 1024
# A phone's outbox holds one game's hands: no game has more than this many.
WAITING_LIMIT = 1000
NUMBER_LIMIT = 1000
KINDS = ("add", "undo", "status")


class _Refused(Exception):
    """The request is not one the endpoint takes: 422 with the message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def game_status(game: Game) -> str:
    if game.is_finished:
        return "finished"
    return "locked" if game.locked else "open"


def phone_state(game: Game) -> dict[str, Any]:
    """The game as a phone reads it: its record (rules resolved, so the phone needs no
    table of presets), each stored hand's entry id, and its version. Hands, their wins and
    their entry ids are read in one statement: a hand changed meanwhile is read whole."""
    read: dict[int, list] = {}
    doc = services.record_of(game, entries=read)
    entries = [str(entry) if entry else None for entry in read.get(game.pk, [])]
    changed = services.game_version(game, doc)
    # The game's own rules (a stage may have a preset of its own), every option spelled out.
    spec = doc["rules"]
    try:
        options = scoring.resolve_rules(spec).to_dict()
    except ScoringError:  # rules the engine refuses: the phone gets them as they are
        options = None
    if options is not None:
        preset = spec if isinstance(spec, str) else spec["preset"]
        doc["rules"] = {"preset": preset, "overrides": options}
    return {
        "game": game.pk,
        "record": doc,
        "status": game_status(game),
        "entry_mode": game.entry_mode,
        "hands": len(entries) if "hands" in doc else 0,
        "entries": entries,
        "changed": changed,
        "names": list(doc["players"]),
    }


def _fresh(game_id: int) -> Game:
    return Game.objects.select_related("session__event").get(pk=game_id)


def _answer(game_id: int, status: str, *, code: int = 200, **extra) -> JsonResponse:
    state = phone_state(_fresh(game_id))
    body = {
        "status": status,
        **extra,
        "record": state["record"],
        "changed": state["changed"],
        "entries": state["entries"],
        "hands": state["hands"],
        "game_status": state["status"],
    }
    return _json(body, status=code)


def _json(body: dict[str, Any], *, status: int = 200) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _refused(message: str) -> JsonResponse:
    return _json({"status": "refused", "message": message}, status=422)


@require_GET
@access.hand_entry_game(phone=True)
def hand_record(request: HttpRequest, entry: access.HandEntry) -> JsonResponse:
    """The game as a phone entering its hands reads it (a phone taking over the table, or
    one coming back online)."""
    return _json(phone_state(entry.game))


def _body(request: HttpRequest, game: Game) -> dict[str, Any]:
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise _Refused(_("Send the hand as JSON (Content-Type: application/json)."))
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = SYNC_BODY_LIMIT + 1
    if length > SYNC_BODY_LIMIT:
        raise _Refused(
            _("This request is too large: send one hand at a time (at most %(size)s KB).")
            % {"size": SYNC_BODY_LIMIT // 1024}
        )
    try:
        data = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _Refused(_("This request is not valid JSON: nothing was saved.")) from None
    if not isinstance(data, dict):
        raise _Refused(_("Send one JSON object with the hand: nothing was saved."))
    if "game" in data and data["game"] != game.pk:
        raise _Refused(_("This hand belongs to another game: send it to its own game."))
    return data


def _whole(data: dict[str, Any], name: str, *, low: int, high: int, needed: bool) -> int | None:
    value = data.get(name)
    if value is None and not needed:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _Refused(
            _("“%(field)s” must be a whole number from %(low)s to %(high)s.")
            % {"field": name, "low": low, "high": high}
        )
    return value


def _text(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 64:
        raise _Refused(_("“%(field)s” must be the text the server sent.") % {"field": name})
    return value


def _entry(data: dict[str, Any]):
    value = data.get("entry")
    if not isinstance(value, str) or not value:
        raise _Refused(_("This hand has no entry id: the phone makes one when it is confirmed."))
    try:
        return services.entry_id(value)
    except services.GameChangeRefused as err:
        raise _Refused(say(err)) from None


def _hand(data: dict[str, Any], number: int, players: int) -> tuple[dict, list[int]]:
    """The hand object as the engine writes it (anything else in it dropped), and the
    scores the phone says follow it."""
    try:
        hand = dump_hand(parse_hand(data.get("hand"), number))
    except ScoringError as err:
        raise _Refused(refusal(services.GameChangeRefused(err), adding=True)) from None
    scores = data.get("scores")
    if (
        not isinstance(scores, list)
        or len(scores) != players
        or any(isinstance(s, bool) or not isinstance(s, int) for s in scores)
    ):
        raise _Refused(
            ngettext(
                "“scores” must list the %(count)s player's score after the hand, in whole points.",
                "“scores” must list the %(count)s players' scores after the hand, in whole points.",
                players,
            )
            % {"count": players}
        )
    return hand, scores


def _taken(game_id: int, number: int) -> str:
    count = Hand.objects.filter(game_id=game_id).count()
    if number <= count:
        return ngettext(
            "Hand %(number)s is on the server already, from another entry: the game has "
            "%(count)s hand there. Compare the two versions before going on.",
            "Hand %(number)s is on the server already, from another entry: the game has "
            "%(count)s hands there. Compare the two versions before going on.",
            count,
        ) % {"number": number, "count": count}
    return ngettext(
        "The server has %(count)s hand of this game, so hand %(number)s cannot be saved "
        "before the ones in between. Compare the two versions before going on.",
        "The server has %(count)s hands of this game, so hand %(number)s cannot be saved "
        "before the ones in between. Compare the two versions before going on.",
        count,
    ) % {"number": number, "count": count}


@require_POST
@access.hand_entry_game(phone=True)
def hand_sync(request: HttpRequest, entry: access.HandEntry) -> JsonResponse:
    """One hand (or undo, or report) from a phone's outbox: applied once, whatever number of
    times it is sent."""
    game = entry.game
    noted = False
    try:
        data = _body(request, game)
        kind = data.get("kind")
        if kind not in KINDS:
            raise _Refused(_("“kind” must be add, undo or status."))
        waiting = _whole(data, "waiting", low=0, high=WAITING_LIMIT, needed=False)
        services.note_phone_contact(game.pk, waiting)
        noted = True
        if kind == "status":
            state = phone_state(game)
            return _json(
                {
                    "status": "noted",
                    "changed": state["changed"],
                    "hands": state["hands"],
                    "game_status": state["status"],
                }
            )
        entry_id = _entry(data)
        number = _whole(data, "number", low=1, high=NUMBER_LIMIT, needed=True)
        based_on = _text(data, "based_on")
        hand = scores = None
        if kind == "add":
            hand, scores = _hand(data, number, len(game.seats.all()))
    except _Refused as refused:
        if not noted:  # the phone reached the server all the same
            services.note_phone_contact(game.pk)
        return _refused(refused.message)
    who = entry.author(request)
    try:
        if kind == "add":
            services.add_hand(
                game.pk,
                number,
                hand,
                entry=entry_id,
                expect_scores=scores,
                based_on=based_on,
                **who,
            )
        else:
            number = services.undo_last_hand(
                game.pk, number=number, entry=entry_id, based_on=based_on, **who
            )
    except services.EntrySentBefore as sent:
        receipt = sent.receipt
        return _answer(game.pk, "already", kind=receipt.kind, number=receipt.number)
    except services.HandAlreadyEntered:
        return _answer(game.pk, "conflict", code=409, message=_taken(game.pk, number))
    except (services.GameClosed, services.GameChangedMeanwhile) as err:
        return _answer(game.pk, "conflict", code=409, message=say(err))
    except services.ScoresDisagree as err:
        return _refused(say(err))
    except services.GameChangeRefused as err:
        if kind == "undo":  # not the last hand, or none: the server's game differs
            return _answer(game.pk, "conflict", code=409, message=say(err))
        return _refused(refusal(err, adding=True))
    return _answer(game.pk, "saved", kind=kind, number=number)

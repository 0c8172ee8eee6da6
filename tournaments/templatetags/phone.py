"""`{% load phone %}{% phone_app game as phone %}`: what the table's phone needs to enter
hands without the server (static/js/phone-outbox.js, static/js/offline-entry.js): the
game's addresses and every word the scripts show, in the page's language. None for a
visitor who does not hold the game's table link, or for a game of final scores only.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Any

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language, gettext, ngettext, pgettext
from django.utils.translation import gettext as _

import scoring

from .. import access, wording
from ..forms.hands import WIND_MARKS, WIND_NAMES
from ..models import Game, Hand
from ..views.games import round_name

register = template.Library()

ROUNDS = [f"{wind}{number}" for wind in "ESWN" for number in range(1, 5)]
# The outbox's bound: a game has at most a few dozen hands, so a longer queue is a fault.
OUTBOX_MOST = 200


def _url(name: str, pk: int, fallback: str) -> str:
    try:
        return reverse(f"tournaments:{name}", args=[pk])
    except NoReverseMatch:
        return fallback


@functools.cache
def engine_templates() -> tuple[str, ...]:
    """The refusals of the engine, as `scoring` marks them for translation
    (`gettext_noop`): the browser's engine (static/js/engine.js) refuses with the same
    templates and parameters, and the phone shows them in the page's language."""
    found: list[str] = []
    for path in sorted(Path(scoring.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(node.args[0].value)
    return tuple(dict.fromkeys(found))


def engine_words() -> dict[str, str]:
    """Each engine refusal's template in the page's language; none in English, where the
    engine's own words are the page's."""
    translated = {template: gettext(template) for template in engine_templates()}
    return {english: text for english, text in translated.items() if text != english}


def words() -> dict[str, Any]:
    """The phone's words, as templates with %(name)s parameters as in Python."""
    return {
        "hand": _("Hand %(number)s"),
        "preview_hand": _("Preview hand %(number)s"),
        "dealer": _("Dealer %(dealer)s"),
        "sticks_one": ngettext(
            "%(sticks)s stick on the table", "%(sticks)s sticks on the table", 1
        ),
        "sticks_many": ngettext(
            "%(sticks)s stick on the table", "%(sticks)s sticks on the table", 2
        ),
        "round_honba": _("%(round)s-%(honba)s"),
        "save_hand": _("Save hand %(number)s?"),
        "confirm": _("Confirm and save"),
        "change": _("Change it"),
        "player": _("Player"),
        "before": pgettext("score before the hand", "Before"),
        "pays": _("Pays / gets"),
        "after": pgettext("score after the hand", "After"),
        "riichi_of": _("Riichi: %(names)s."),
        "no_riichi": _("No riichi."),
        "sticks_line": _(
            "Riichi sticks on the table: %(sticks_before)s before, %(sticks_after)s after."
        ),
        "next": _("Next hand: <b>%(round)s</b>, %(dealer)s deals."),
        "ends": _("<b>The game ends:</b> %(ends)s."),
        "final_scores": _("Final scores"),
        "list_sep": _(", "),
        "dealer_word": _("dealer"),
        # Hands in words (tournaments/wording.describe_hand).
        "ron": _("%(winner)s ron off %(loser)s · %(value)s"),
        "multi_ron": _("Double ron off %(loser)s · %(wins)s"),
        "triple_ron": _("Triple ron off %(loser)s · %(wins)s"),
        "winner_value": _("%(winner)s %(value)s"),
        "tsumo": _("%(winner)s tsumo · %(value)s"),
        "draw_noten": _("Draw · all noten"),
        "draw_tenpai": _("Draw · all tenpai"),
        "draw": _("Draw · tenpai: %(players)s"),
        "nagashi": _("Nagashi mangan · %(players)s"),
        "abort": _("Abortive draw · %(reason)s"),
        "chombo": _("Chombo · %(player)s"),
        "han_fu": _("%(han)s han %(fu)s fu"),
        "han": _("%(han)s han"),
        "yakuman": {str(n): wording.yakuman_name(n) for n in range(1, 7)},
        "reasons": {value: str(label) for value, label in Hand.AbortReason.choices},
        # What the form needs before a preview (tournaments/forms/hands.py says the same).
        "need_result": _("Choose what happened in this hand."),
        "need_winner": _("Choose the winner."),
        "need_loser": _("Choose who dealt in (the player whose discard was ronned)."),
        "need_han": _("Choose the han of %(name)s's hand, or Yakuman."),
        "need_nagashi": _("Choose who made nagashi mangan."),
        "need_reason": _("Choose why the hand was aborted."),
        "need_offender": _("Choose who committed the chombo."),
        "twice": _("%(name)s is chosen as winner twice."),
        "win_and_deal_in": _("%(name)s cannot both win and deal in."),
        "refused_by_rules": _("This hand cannot be entered: %(reason)s"),
        # The outbox.
        "outbox_title": _("On this phone"),
        "waiting": _("saved on this phone"),
        "sending": _("sending…"),
        "sent": _("sent"),
        "conflict": _("not sent: the game changed"),
        "refused": _("not sent: refused"),
        "kept": _("kept for the organiser"),
        "take_back": _("Take back hand %(number)s"),
        "locked": _("The organisers have locked this game: hands cannot be changed."),
        "finished": _("This game is finished."),
        "link_lost": _(
            "This phone no longer holds the table's link: open the address on the table's "
            "slip again (scan its QR code). The hands stay on this phone and are sent then."
        ),
        "saved_here": _("Hand %(number)s is saved on this phone."),
        "offline": _(
            "No network: this phone keeps the hands you enter and sends them, in order, "
            "when the network is back."
        ),
        "waiting_count_one": ngettext(
            "%(count)s hand waits on this phone to be sent.",
            "%(count)s hands wait on this phone to be sent.",
            1,
        ),
        "waiting_count_many": ngettext(
            "%(count)s hand waits on this phone to be sent.",
            "%(count)s hands wait on this phone to be sent.",
            2,
        ),
        "all_sent": _("Every hand entered on this phone has reached the server."),
        "full": _(
            "This phone already keeps %(most)s hands that were not sent: send them (find a "
            "network) before entering more."
        ),
        "game_over_here": _("The game is over: %(why)s."),
        "game_over_title": _("Game over"),
        "conflict_title": _("The game changed while this phone was offline"),
        "conflict_help": _(
            "Nothing was overwritten. Compare the two versions below with the organiser: "
            "the server's hands stay as they are; this phone's hands are kept until you "
            "discard them."
        ),
        "server_version": _("On the server"),
        "phone_version": _("On this phone, not sent"),
        "discard": _("Discard this phone's hands"),
        "discard_sure": _(
            "Discard the hands on this phone? They will not reach the server; the game "
            "stays as the server has it."
        ),
        "keep": _("Keep them for the organiser"),
        "kept_help": _(
            "The hands stay on this phone, marked for the organiser, and are not sent. "
            "Show this screen to the organiser."
        ),
        "refused_title": _("The server refused hand %(number)s"),
        "no_hands": _("No hands yet."),
        "engine_missing": _("Reload the page with a network once: the scoring is not loaded."),
        "engine": engine_words(),
    }


@register.simple_tag(takes_context=True)
def phone_app(context, game: Game, at_table: bool | None = None) -> dict[str, Any] | None:
    """`at_table`: whether the visitor holds the game's table link, when the view knows;
    on the hand entry pages (`access.hand_entry_game`) whoever is not an organiser holds
    it; elsewhere the visitor's session says."""
    request = context.get("request")
    if request is None or game.entry_mode != Game.EntryMode.HANDS:
        return None
    if at_table is None:
        organised = getattr(game, "organised", None)
        if organised is None:
            at_table = access.table_link_for(request, game) is not None
        else:
            at_table = not organised
    if not at_table:
        return None
    pk = game.pk
    return {
        "game": pk,
        "page": game.get_absolute_url(),
        "form": reverse("tournaments:hand_new", args=[pk]),
        "worker": reverse("tournaments:game_service_worker", args=[pk]),
        "record": _url("hand_record", pk, f"/games/{pk}/hands/record.json"),
        "sync": _url("hand_sync", pk, f"/games/{pk}/hands/sync/"),
        "most": OUTBOX_MOST,
        **_wording(get_language()),
    }


@functools.lru_cache(maxsize=len(settings.LANGUAGES))
def _wording(language: str) -> dict[str, Any]:
    """The phone's words, rounds, winds and ends in `language` (the page's, active): the
    same on every page of a language, so worked out once per language and process."""
    return {
        "words": words(),
        "rounds": {label: round_name(label) for label in ROUNDS},
        "winds": {wind: str(mark) for wind, mark in WIND_MARKS.items()},
        "wind_names": {wind: str(name) for wind, name in WIND_NAMES.items()},
        "ends": {str(reason.value): wording.ended_by(reason) for reason in wording.END_REASONS},
    }

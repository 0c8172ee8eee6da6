"""How the app says an event's rules: presets, option names, values and help."""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

import scoring
from scoring.rules import Chombo, Rules, option_names, preset_clauses

from ..forms.common import capitalised
from .formatting import points, rule_number

PRESET_DESCRIPTIONS = {
    "ari-ari": gettext_lazy(
        "Basic Ari-Ari rules: 25,000 start, 30,000 return, uma +30/+10, oka 20."
    ),
    "club": gettext_lazy("Club nights: Ari-Ari with no bust and tied players sharing uma."),
    "tenhou": gettext_lazy(
        "Tenhou ranked: uma +20/+10 with oka, agari-yame, tenpai-yame, west round."
    ),
    "tenhou-east": gettext_lazy(
        "Tenhou ranked, east only: as Tenhou, a south round if nobody has 30,000."
    ),
    "mahjongsoul": gettext_lazy(
        "Mahjong Soul ranked: points from 25,000, uma +15/+5, west round to 30,000."
    ),
    "mahjongsoul-east": gettext_lazy(
        "Mahjong Soul ranked, east only: as Mahjong Soul, south round."
    ),
    "mleague": gettext_lazy(
        "M.League: uma +30/+10 with oka, kiriage, head bump, no bust, chombo −20."
    ),
    "wrc": gettext_lazy(
        "WRC: 30,000 start, uma +15/+5, no oka, kiriage, head bump, no nagashi, chombo −30."
    ),
    "ema": gettext_lazy(
        "EMA 2016: 30,000 start, uma +15/+5, no oka, triple ron, honba to each winner."
    ),
    "tenhou-sanma": gettext_lazy(
        "Tenhou three-player: 35,000 start, 40,000 return, uma +20/0/−20, tsumo loss."
    ),
    "tenhou-sanma-east": gettext_lazy(
        "Tenhou three-player, east only: as Tenhou three-player, south round below 40,000."
    ),
    "mahjongsoul-sanma": gettext_lazy(
        "Mahjong Soul three-player: 35,000 start and return, uma +15/0/−15, tsumo loss."
    ),
    "mahjongsoul-sanma-east": gettext_lazy(
        "Mahjong Soul three-player, east only: as Mahjong Soul three-player, south round to 40,000."
    ),
}


def preset_choices() -> list[tuple[str, str]]:
    return [
        (
            name,
            _("%(preset)s: %(description)s")
            % {"preset": name, "description": PRESET_DESCRIPTIONS[name]}
            if name in PRESET_DESCRIPTIONS
            else name,
        )
        for name in scoring.PRESETS
    ]


# Short names for rule options, used as form labels and in "the rules in words".
# The options in the order and groups the rules form and the rules page show them.
RULE_GROUPS = [
    (
        gettext_lazy("Points and match points"),
        ["start_points", "return_points", "target_points", "uma", "oka", "rounding"],
    ),
    (
        gettext_lazy("How the game ends"),
        [
            "length",
            "bust",
            "agari_yame",
            "tenpai_yame",
            "west_round",
            "dealer_repeat_on_tenpai",
        ],
    ),
    (
        gettext_lazy("Wins and draws"),
        [
            "riichi_min_points",
            "kiriage",
            "kazoe",
            "double_yakuman",
            "multi_ron",
            "multi_ron_honba",
            "multi_ron_sticks",
            "pao_honba",
            "pao_scope",
            "honba_value",
            "noten_total",
            "tsumo_loss",
            "nagashi_mangan",
            "abortive_draws",
        ],
    ),
    (gettext_lazy("Sticks and ties"), ["leftover_sticks", "ties"]),
    (gettext_lazy("Chombo"), ["chombo", "chombo_penalty"]),
]


RULE_LABELS = {
    "start_points": gettext_lazy("start points"),
    "return_points": gettext_lazy("return points"),
    "target_points": gettext_lazy("target points"),
    "uma": gettext_lazy("uma"),
    "oka": gettext_lazy("oka"),
    "length": pgettext_lazy("rule option", "length"),
    "kiriage": gettext_lazy("kiriage"),
    "kazoe": gettext_lazy("13 han and more"),
    "double_yakuman": gettext_lazy("double yakuman"),
    "multi_ron": gettext_lazy("several winners"),
    "multi_ron_honba": gettext_lazy("honba with several winners"),
    "multi_ron_sticks": gettext_lazy("riichi sticks with several winners"),
    "pao_honba": gettext_lazy("honba on a ron with pao"),
    "pao_scope": gettext_lazy("the liable player (pao) pays for"),
    "honba_value": gettext_lazy("honba value"),
    "noten_total": gettext_lazy("noten payments"),
    "nagashi_mangan": gettext_lazy("nagashi mangan"),
    "abortive_draws": gettext_lazy("abortive draws"),
    "bust": pgettext_lazy("rule option", "bust"),
    "agari_yame": gettext_lazy("agari-yame"),
    "tenpai_yame": gettext_lazy("tenpai-yame"),
    "west_round": gettext_lazy("west round"),
    "dealer_repeat_on_tenpai": gettext_lazy("dealer repeats when tenpai"),
    "leftover_sticks": gettext_lazy("leftover riichi sticks"),
    "ties": pgettext_lazy("rule option", "ties"),
    "chombo": gettext_lazy("chombo"),
    "chombo_penalty": gettext_lazy("chombo penalty"),
    "rounding": pgettext_lazy("rule option", "rounding"),
    "riichi_min_points": gettext_lazy("points needed for riichi"),
    "tsumo_loss": gettext_lazy("the North's share of a tsumo"),
}


RULE_HELP = {
    "start_points": gettext_lazy("Points each player starts with."),
    "return_points": gettext_lazy("Scores are counted from this in match points."),
    "target_points": gettext_lazy(
        "The score that ends the west round and that a leading all-last dealer needs to stop."
    ),
    "riichi_min_points": gettext_lazy(
        "A player below this score may not declare riichi; 0 allows any."
    ),
    "uma": gettext_lazy("Match points for 1st, 2nd, 3rd and 4th place."),
    "oka": gettext_lazy("Bonus to the winner of the game."),
    "kiriage": gettext_lazy("4 han 30 fu and 3 han 60 fu paid as mangan."),
    "double_yakuman": gettext_lazy("Stacked yakuman paid as multiples."),
    "honba_value": gettext_lazy("Paid per honba counter, in total."),
    "noten_total": gettext_lazy("Paid by noten to tenpai players at an exhaustive draw, in total."),
    "agari_yame": gettext_lazy("A leading dealer may stop the game by winning the last hand."),
    "tenpai_yame": gettext_lazy(
        "A leading dealer may stop the game by being tenpai in the last hand."
    ),
    "west_round": gettext_lazy("Play on into the west round if nobody reached the return points."),
    "chombo_penalty": gettext_lazy("Match points added to the offender when chombo is a penalty."),
    "multi_ron_honba": gettext_lazy("When several players ron one discard: who is paid the honba."),
    "multi_ron_sticks": gettext_lazy(
        "When several players ron one discard: where the riichi sticks go."
    ),
    "pao_honba": gettext_lazy("Who pays the honba when a ron has a liable player (pao)."),
    "pao_scope": gettext_lazy(
        "What a liable player answers for: the whole win, or only the fed yakuman."
    ),
    "tsumo_loss": gettext_lazy(
        "Three-player games: at a tsumo each of the two others pays their four-player share; "
        "the absent North's share is not paid (tsumo loss), or split between them."
    ),
}


THREE_PLAYER_UMA_HELP = gettext_lazy("Match points for 1st, 2nd and 3rd place: three numbers.")


# Enum values whose words depend on the option ("first" is a place for leftover sticks,
# but a winner for the honba of a double ron).
OPTION_ENUM_LABELS = {
    ("multi_ron_honba", "first"): gettext_lazy("the first winner after the discarder only"),
    ("multi_ron_honba", "each"): gettext_lazy("every winner"),
    ("multi_ron_sticks", "first"): gettext_lazy("all to the first winner after the discarder"),
    ("multi_ron_sticks", "own_back"): gettext_lazy(
        "each winner takes back their own, the rest to the first"
    ),
    ("pao_honba", "discarder"): gettext_lazy("the discarder"),
    ("pao_honba", "liable"): gettext_lazy("the liable player"),
    ("pao_scope", "whole"): gettext_lazy("the whole win"),
    ("pao_scope", "fed_yakuman"): gettext_lazy("only the yakuman they fed"),
    ("tsumo_loss", "on"): gettext_lazy("not paid (tsumo loss)"),
    ("tsumo_loss", "split"): gettext_lazy("split between the two payers"),
}


ENUM_LABELS = {
    "hanchan": gettext_lazy("hanchan (east and south)"),
    "tonpuusen": gettext_lazy("tonpuusen (east only)"),
    "yakuman": gettext_lazy("kazoe yakuman"),
    "sanbaiman": gettext_lazy("sanbaiman at most"),
    "double": gettext_lazy("double ron, triple ron aborts"),
    "triple": gettext_lazy("double and triple ron paid"),
    "head_bump": gettext_lazy("head bump (one winner)"),
    "below_zero": gettext_lazy("below zero ends the game"),
    "off": gettext_lazy("no bust"),
    "first": gettext_lazy("to 1st place"),
    "lost": pgettext_lazy("rule option", "lost"),
    "seat_order": gettext_lazy("seat order"),
    "split": gettext_lazy("split uma"),
    "reverse_mangan": gettext_lazy("reverse mangan"),
    "penalty": gettext_lazy("match point penalty"),
    "exact": pgettext_lazy("rule option", "exact"),
    "thousands": gettext_lazy("to thousands"),
}


def enum_in_words(name: str, value: str) -> str:
    return str(OPTION_ENUM_LABELS.get((name, value)) or ENUM_LABELS.get(value, value))


def rule_label(name: str) -> str:
    """An option's short name in the active language: "start points"."""
    return str(RULE_LABELS.get(name, name.replace("_", " ")))


def rule_value_in_words(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return pgettext("rule option", "on") if value else pgettext("rule option", "off")
    if isinstance(value, StrEnum):
        return enum_in_words(name, value.value)
    if name == "uma":
        return "/".join(rule_number(v) for v in value)
    if value is None:
        return pgettext("rule option", "usual")
    if isinstance(value, Decimal):
        return rule_number(value)
    if isinstance(value, int):
        return points(value)
    return str(value)


def describe_rules(preset: str, overrides: dict[str, Any]) -> str:
    """The rules as a line of words: "ari-ari; kiriage on; uma +20/+10/−10/−20"."""
    rules = scoring.resolve_rules({"preset": preset, "overrides": overrides})
    parts = [preset]
    # In the options' own order: a database need not keep the keys of a JSON object in order.
    for name in (n for n in option_names() if n in overrides):
        value = getattr(rules, name)
        values = {"label": rule_label(name), "value": rule_value_in_words(name, value)}
        # "kiriage on", "start points 30,000", but "ties: split uma".
        if isinstance(value, StrEnum):
            parts.append(pgettext("an option and its value", "%(label)s: %(value)s") % values)
        else:
            parts.append(pgettext("an option and its value", "%(label)s %(value)s") % values)
    return "; ".join(parts)


def _oka_from_points(rules: Rules) -> str:
    return _("%(oka)s, from the start and return points") % {
        "oka": rule_number(rules.effective_oka)
    }


def _target_is_return(rules: Rules) -> str:
    return _("%(points)s, the return points") % {"points": points(rules.return_points)}


def rules_for_reading(preset: str, overrides: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules in the rules form's groups, each option in words with where it comes from:
    the preset's source clause, or "changed for this event" for an override."""
    rules = scoring.resolve_rules({"preset": preset, "overrides": overrides})
    clauses = preset_clauses().get(preset, {})
    groups = []
    for title, names in RULE_GROUPS:
        rows = []
        for name in names:
            if name == "tsumo_loss" and rules.players != 3:
                continue  # four players pay every tsumo in full
            value = getattr(rules, name)
            words = rule_value_in_words(name, value)
            if name == "oka" and value is None:
                words = _oka_from_points(rules)
            elif name == "target_points" and value is None:
                words = _target_is_return(rules)
            elif name == "chombo_penalty" and rules.chombo is not Chombo.PENALTY:
                words = _("not used: chombo is paid at the table")
            elif name == "riichi_min_points" and value == 0:
                words = _("any score")
            rows.append(
                {
                    "label": capitalised(rule_label(name)),
                    "words": words,
                    "help": str(
                        THREE_PLAYER_UMA_HELP
                        if name == "uma" and rules.players == 3
                        else RULE_HELP.get(name, "")
                    ),
                    "changed": name in overrides,
                    "source": clauses.get(name, ""),
                }
            )
        groups.append({"title": title, "rows": rows})
    return groups

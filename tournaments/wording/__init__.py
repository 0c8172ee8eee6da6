"""What the app says about hands and endings, in one place (the forms only ask), in the
active language (English or Japanese: see locale/).

Every reason the engine gives for a game's end (`scoring.endings.EndReason`) has words
here; a test fails when a new reason has none.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext_lazy, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from scoring import yaku as yaku_table
from scoring.endings import EndReason
from scoring.payouts import base_points
from scoring.rules import Chombo, MultiRon, Rules

from . import formatting

END_REASONS: dict[EndReason, str] = {
    EndReason.LAST_HAND: gettext_lazy("the last hand was played"),
    EndReason.BUST: gettext_lazy("a player went below zero"),
    EndReason.AGARI_YAME: gettext_lazy("the dealer won the last hand in the lead (agari-yame)"),
    EndReason.TENPAI_YAME: gettext_lazy(
        "the dealer was tenpai at the last hand in the lead (tenpai-yame)"
    ),
    EndReason.WEST_ROUND: gettext_lazy("the west round is over"),
    EndReason.FINAL_SCORES: gettext_lazy("the final scores were entered"),
    EndReason.TIME: gettext_lazy("time was called"),
}
YAKUMAN_NAMES = {
    1: gettext_lazy("yakuman"),
    2: gettext_lazy("double yakuman"),
    3: gettext_lazy("triple yakuman"),
}


def yaku_name(key: str) -> str:
    """A stored yaku key named in the active language, from scoring/yaku.py's one table:
    the Japanese name ("平和") when the page is in Japanese, otherwise the romaji club
    players use ("Pinfu"). An unknown key is shown as it is."""
    found = yaku_table.YAKU.get(key)
    if found is None:
        return key
    language = get_language() or ""
    if language.split("-")[0] == "ja":
        return found.japanese
    return found.romaji


def yakuman_name(multiple: int) -> str:
    """ "yakuman", "double yakuman" ... for a yakuman of `multiple`."""
    if multiple in YAKUMAN_NAMES:
        return str(YAKUMAN_NAMES[multiple])
    return _("%(multiple)s× yakuman") % {"multiple": multiple}


def ended_by(reason: str | None) -> str:
    """Why a game ended, in words ("" while it goes on; an unknown code as it is)."""
    if not reason:
        return ""
    try:
        return str(END_REASONS[EndReason(reason)])
    except ValueError:
        return reason


# The name of a limit hand, from its base points.
LIMITS = {
    2000: pgettext_lazy("limit hand", "mangan"),
    3000: pgettext_lazy("limit hand", "haneman"),
    4000: pgettext_lazy("limit hand", "baiman"),
    6000: pgettext_lazy("limit hand", "sanbaiman"),
}


def limit_name(win: dict[str, Any], rules: Rules) -> str:
    """ "mangan", "haneman" ... for a limit hand under `rules`; "" below mangan or for a
    yakuman (which names itself)."""
    if win.get("yakuman") is not None:
        return ""
    base = base_points(han=win["han"], fu=win.get("fu"), yakuman=None, rules=rules)
    if win["han"] >= 13 and base == 8000:
        return _("kazoe yakuman")
    return str(LIMITS.get(base, ""))


def win_value(win: dict[str, Any], rules: Rules | None = None) -> str:
    """ "3 han 40 fu", "5 han", "double yakuman"; with `rules`, "6 han haneman"."""
    if win.get("yakuman") is not None:
        return yakuman_name(win["yakuman"])
    if win.get("fu") is not None and win["han"] <= 4:
        text = _("%(han)s han %(fu)s fu") % {"han": win["han"], "fu": win["fu"]}
    else:
        text = _("%(han)s han") % {"han": win["han"]}
    limit = limit_name(win, rules) if rules is not None else ""
    if not limit:
        return text
    return _("%(value)s %(limit)s") % {"value": text, "limit": limit}


def describe_hand(hand: dict[str, Any], names: list[str], *, rules: Rules | None = None) -> str:
    """A one-line summary: "Ben ron off Aki · 3 han 40 fu", "Draw · tenpai: Aki, Dan";
    with `rules`, limit hands are named: "Chie tsumo · 6 han haneman"."""
    from ..models import Hand  # the models word their refusals through this package

    result = hand["result"]

    def who(seats) -> str:
        return _(", ").join(names[s] for s in seats)

    def value(win) -> str:
        # The win's value, and who pays for it all under pao.
        text = win_value(win, rules)
        if win.get("pao") is None:
            return text
        if win.get("pao_yakuman") is not None:
            # Only part of a multiple yakuman is on the liable player (pao_scope).
            return _("%(value)s (pao %(player)s for ×%(fed)s of ×%(yakuman)s)") % {
                "value": text,
                "player": names[win["pao"]],
                "fed": win["pao_yakuman"],
                "yakuman": win["yakuman"],
            }
        return _("%(value)s (pao %(player)s)") % {"value": text, "player": names[win["pao"]]}

    if result == Hand.Result.RON:
        wins = hand["wins"]
        loser = names[wins[0]["loser"]]
        if len(wins) == 1:
            win = wins[0]
            return _("%(winner)s ron off %(loser)s · %(value)s") % {
                "winner": names[win["winner"]],
                "loser": loser,
                "value": value(win),
            }
        bumped = head_bump_winner(hand, rules, len(names)) if rules is not None else None
        if bumped is not None:
            # Head bump: the one winner nearest the discarder takes the hand, the other
            # rons are not paid; said plainly so that no one reads two winners.
            win = next(w for w in wins if w["winner"] == bumped)
            return _(
                "%(winner)s ron off %(loser)s · %(value)s · head bump: %(others)s not paid"
            ) % {
                "winner": names[bumped],
                "loser": loser,
                "value": value(win),
                "others": who(w["winner"] for w in wins if w["winner"] != bumped),
            }
        parts = _(", ").join(
            _("%(winner)s %(value)s") % {"winner": names[w["winner"]], "value": value(w)}
            for w in wins
        )
        if len(wins) == 2:
            return _("Double ron off %(loser)s · %(wins)s") % {"loser": loser, "wins": parts}
        return _("Triple ron off %(loser)s · %(wins)s") % {"loser": loser, "wins": parts}
    if result == Hand.Result.TSUMO:
        win = hand["wins"][0]
        return _("%(winner)s tsumo · %(value)s") % {
            "winner": names[win["winner"]],
            "value": value(win),
        }
    if result == Hand.Result.DRAW:
        tenpai = hand.get("tenpai", [])
        if not tenpai:
            return _("Draw · all noten")
        if len(tenpai) == len(names):
            return _("Draw · all tenpai")
        return _("Draw · tenpai: %(players)s") % {"players": who(tenpai)}
    if result == Hand.Result.NAGASHI:
        if hand.get("tenpai"):
            return _("Nagashi mangan · %(players)s · tenpai: %(tenpai)s") % {
                "players": who(hand["nagashi"]),
                "tenpai": who(hand["tenpai"]),
            }
        return _("Nagashi mangan · %(players)s") % {"players": who(hand["nagashi"])}
    if result == Hand.Result.ABORT:
        reason = str(Hand.AbortReason(hand["reason"]).label)
        return _("Abortive draw · %(reason)s") % {"reason": reason[:1].lower() + reason[1:]}
    offender = names[hand["offender"]]
    if rules is not None and rules.chombo is Chombo.PENALTY:
        # Nothing is paid at the table: the penalty comes off the offender's match points.
        return _("Chombo · %(player)s %(points)s match points") % {
            "player": offender,
            "points": formatting.match_points(rules.chombo_penalty),
        }
    return _("Chombo · %(player)s") % {"player": offender}


def head_bump_winner(hand: dict[str, Any], rules: Rules, players: int) -> int | None:
    """The seat that takes a ron with several winners under head bump (the first winner
    after the discarder in turn order, as `scoring.payouts` pays it); None otherwise."""
    wins = hand.get("wins") or []
    if rules.multi_ron is not MultiRon.HEAD_BUMP or hand.get("result") != "ron" or len(wins) < 2:
        return None
    loser = wins[0]["loser"]
    return min((w["winner"] for w in wins), key=lambda seat: (seat - loser) % players)


def describe_stats(hand: dict[str, Any], names: list[str]) -> list[str]:
    """One line per win that says its yaku, dora or open/closed:
    "Aki: Riichi, Menzen tsumo, Pinfu · 1 dora · closed"."""
    lines = []
    for win in hand.get("wins", []):
        parts = []
        if win.get("yaku"):
            parts.append(_(", ").join(yaku_name(k) for k in win["yaku"]))
        if win.get("dora") and win.get("kita"):
            # Three-player games: the Norths set aside are among the dora.
            parts.append(
                _("%(count)s dora (%(kita)s kita)") % {"count": win["dora"], "kita": win["kita"]}
            )
        elif win.get("dora"):
            parts.append(_("%(count)s dora") % {"count": win["dora"]})
        if win.get("open") is not None:
            parts.append(pgettext("hand", "open") if win["open"] else pgettext("hand", "closed"))
        if parts:
            lines.append(
                _("%(player)s: %(facts)s")
                % {"player": names[win["winner"]], "facts": " · ".join(parts)}
            )
    return lines

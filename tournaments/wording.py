"""What the app says about hands and endings, in one place (the forms only ask).

Every reason the engine gives for a game's end (`scoring.endings.EndReason`) has words
here; a test fails when a new reason has none.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from scoring import yaku as yaku_table
from scoring.endings import EndReason
from scoring.payouts import base_points
from scoring.rules import Rules

from .models import Hand

END_REASONS: dict[EndReason, str] = {
    EndReason.LAST_HAND: "the last hand was played",
    EndReason.BUST: "a player went below zero",
    EndReason.AGARI_YAME: "the dealer won the last hand in the lead (agari-yame)",
    EndReason.TENPAI_YAME: "the dealer was tenpai at the last hand in the lead (tenpai-yame)",
    EndReason.WEST_ROUND: "the west round is over",
    EndReason.FINAL_SCORES: "the final scores were entered",
    EndReason.TIME: "time was called",
}
YAKUMAN_NAMES = {1: "yakuman", 2: "double yakuman", 3: "triple yakuman"}


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


def ended_by(reason: str | None) -> str:
    """Why a game ended, in words ("" while it goes on; an unknown code as it is)."""
    if not reason:
        return ""
    try:
        return END_REASONS[EndReason(reason)]
    except ValueError:
        return reason


# The name of a limit hand, from its base points.
LIMITS = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}


def limit_name(win: dict[str, Any], rules: Rules) -> str:
    """ "mangan", "haneman" ... for a limit hand under `rules`; "" below mangan or for a
    yakuman (which names itself)."""
    if win.get("yakuman") is not None:
        return ""
    base = base_points(han=win["han"], fu=win.get("fu"), yakuman=None, rules=rules)
    if win["han"] >= 13 and base == 8000:
        return "kazoe yakuman"
    return LIMITS.get(base, "")


def win_value(win: dict[str, Any], rules: Rules | None = None) -> str:
    """ "3 han 40 fu", "5 han", "double yakuman"; with `rules`, "6 han haneman"."""
    if win.get("yakuman") is not None:
        n = win["yakuman"]
        return YAKUMAN_NAMES.get(n, f"{n}× yakuman")
    if win.get("fu") is not None and win["han"] <= 4:
        text = f"{win['han']} han {win['fu']} fu"
    else:
        text = f"{win['han']} han"
    limit = limit_name(win, rules) if rules is not None else ""
    return f"{text} {limit}" if limit else text


def describe_hand(hand: dict[str, Any], names: list[str], *, rules: Rules | None = None) -> str:
    """A one-line summary: "Ben ron off Aki · 3 han 40 fu", "Draw · tenpai: Aki, Dan";
    with `rules`, limit hands are named: "Chie tsumo · 6 han haneman"."""
    result = hand["result"]

    def who(seats) -> str:
        return ", ".join(names[s] for s in seats)

    def pao(win) -> str:
        return f" (pao {names[win['pao']]})" if win.get("pao") is not None else ""

    if result == Hand.Result.RON:
        wins = hand["wins"]
        loser = names[wins[0]["loser"]]
        if len(wins) == 1:
            win = wins[0]
            return f"{names[win['winner']]} ron off {loser} · {win_value(win, rules)}{pao(win)}"
        kind = "Double" if len(wins) == 2 else "Triple"
        parts = ", ".join(f"{names[w['winner']]} {win_value(w, rules)}{pao(w)}" for w in wins)
        return f"{kind} ron off {loser} · {parts}"
    if result == Hand.Result.TSUMO:
        win = hand["wins"][0]
        return f"{names[win['winner']]} tsumo · {win_value(win, rules)}{pao(win)}"
    if result == Hand.Result.DRAW:
        tenpai = hand.get("tenpai", [])
        if not tenpai:
            return "Draw · all noten"
        if len(tenpai) == 4:
            return "Draw · all tenpai"
        return f"Draw · tenpai: {who(tenpai)}"
    if result == Hand.Result.NAGASHI:
        text = f"Nagashi mangan · {who(hand['nagashi'])}"
        if hand.get("tenpai"):
            text += f" · tenpai: {who(hand['tenpai'])}"
        return text
    if result == Hand.Result.ABORT:
        return f"Abortive draw · {Hand.AbortReason(hand['reason']).label.lower()}"
    return f"Chombo · {names[hand['offender']]}"


def describe_stats(hand: dict[str, Any], names: list[str]) -> list[str]:
    """One line per win that says its yaku, dora or open/closed:
    "Aki: Riichi, Menzen tsumo, Pinfu · 1 dora · closed"."""
    lines = []
    for win in hand.get("wins", []):
        parts = []
        if win.get("yaku"):
            parts.append(", ".join(yaku_name(k) for k in win["yaku"]))
        if win.get("dora"):
            parts.append(f"{win['dora']} dora")
        if win.get("open") is not None:
            parts.append("open" if win["open"] else "closed")
        if parts:
            lines.append(f"{names[win['winner']]}: {' · '.join(parts)}")
    return lines

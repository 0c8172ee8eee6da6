"""What every Tenhou reader produces: the converted game and the pieces both formats share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scoring.errors import ScoringError

TENTH = Decimal("0.1")

DORA_NAMES = frozenset({"ドラ", "裏ドラ", "赤ドラ"})

LOG_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}")


@dataclass(frozen=True)
class TenhouGame:
    """One converted Tenhou game: the record, and the log's own figures to check it by.

    `hand_deltas` are the log's point changes per hand in the engine's convention (each
    seat's whole change, riichi sticks put out and collected included); `final_scores`
    and `match_points` are the log's final result, as Tenhou wrote it.
    """

    record: dict[str, Any]
    log_id: str | None
    players: list[str]
    hand_deltas: list[list[int]]
    final_scores: list[int]
    match_points: list[Decimal]
    ruleset: str


def record_rules(final_scores: list[int], match_points: list[Decimal], *, east_only: bool) -> Any:
    """The record's `rules`: the tenhou preset, with what this log shows to differ.

    Older logs wrote whole match points: scores were rounded to thousands before uma. Only
    a score off the thousands proves it (uma and oka are whole numbers).
    """
    overrides: dict[str, Any] = {}
    if all(p == p.to_integral_value() for p in match_points) and any(
        s % 1000 for s in final_scores
    ):
        overrides["rounding"] = "thousands"
    if east_only:
        overrides["length"] = "tonpuusen"
    return {"preset": "tenhou", "overrides": overrides} if overrides else "tenhou"


def log_id_from_name(name: str) -> str | None:
    found = LOG_ID.search(name or "")
    return found.group(0) if found else None


def match_points_of(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(TENTH)


def win_dict(
    winner: int,
    loser: int | None,
    *,
    han: int,
    fu: int | None,
    yakuman: int,
    pao: int | None,
    yaku: list[str],
    dora: int,
    is_open: bool,
) -> dict[str, Any]:
    win: dict[str, Any] = {"winner": winner}
    if loser is not None:
        win["loser"] = loser
    if yakuman:
        win["yakuman"] = yakuman
    else:
        win["han"] = han
        # From 5 han the fu no longer change the payment; the JSON does not even show them.
        if han <= 4:
            win["fu"] = fu
    if pao is not None:
        win["pao"] = pao
    win["yaku"] = yaku
    win["dora"] = dora
    win["open"] = is_open
    return win


def wins_hand(wins: list[dict[str, Any]], riichi: list[int], number: int) -> dict[str, Any]:
    tsumo = [w for w in wins if "loser" not in w]
    if tsumo and len(wins) > 1:
        raise ScoringError("a tsumo cannot share the hand with other wins", hand=number)
    if len({w.get("loser") for w in wins}) > 1:
        raise ScoringError("the wins of one hand have different discarders", hand=number)
    return {"result": "tsumo" if tsumo else "ron", "riichi": riichi, "wins": wins}

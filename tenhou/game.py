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

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values, to keep a converted game (for example until an import is
        confirmed) without converting the log again; `from_dict` reads it back."""
        return {
            "record": self.record,
            "log_id": self.log_id,
            "players": self.players,
            "hand_deltas": self.hand_deltas,
            "final_scores": self.final_scores,
            "match_points": [str(p) for p in self.match_points],
            "ruleset": self.ruleset,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TenhouGame:
        return cls(
            record=data["record"],
            log_id=data["log_id"],
            players=list(data["players"]),
            hand_deltas=[list(d) for d in data["hand_deltas"]],
            final_scores=list(data["final_scores"]),
            match_points=[Decimal(p) for p in data["match_points"]],
            ruleset=data["ruleset"],
        )


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
    """The Tenhou log id in a file name or URL, if there is one.

    >>> log_id_from_name("https://tenhou.net/0/?log=2019021004gm-00a9-0000-e2f6516d&tw=2")
    '2019021004gm-00a9-0000-e2f6516d'
    """
    found = LOG_ID.search(name or "")
    return found.group(0) if found else None


def log_id_from_ref(ref: Any) -> str | None:
    """The JSON's `ref` when it is a well-formed log id, else None (anything else in it is
    not trusted as an id).

    >>> log_id_from_ref("2019021004gm-00a9-0000-e2f6516d"), log_id_from_ref("mine")
    ('2019021004gm-00a9-0000-e2f6516d', None)
    """
    return ref if isinstance(ref, str) and LOG_ID.fullmatch(ref) else None


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

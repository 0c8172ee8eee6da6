"""The rules a game is played under: one frozen `Rules`, the presets, and overrides.

Every difference between rule sets is an option here; the rest of the engine reads
options and never asks which preset it is running.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from .errors import ScoringError

TENTH = Decimal("0.1")


class Length(StrEnum):
    HANCHAN = "hanchan"
    TONPUUSEN = "tonpuusen"


class Kazoe(StrEnum):
    YAKUMAN = "yakuman"
    SANBAIMAN = "sanbaiman"


class MultiRon(StrEnum):
    DOUBLE = "double"
    TRIPLE = "triple"
    HEAD_BUMP = "head_bump"


class Bust(StrEnum):
    BELOW_ZERO = "below_zero"
    OFF = "off"


class LeftoverSticks(StrEnum):
    FIRST = "first"
    LOST = "lost"


class Ties(StrEnum):
    SEAT_ORDER = "seat_order"
    SPLIT = "split"


class Chombo(StrEnum):
    REVERSE_MANGAN = "reverse_mangan"
    PENALTY = "penalty"


class MultiRonHonba(StrEnum):
    FIRST = "first"
    EACH = "each"


class MultiRonSticks(StrEnum):
    FIRST = "first"
    OWN_BACK = "own_back"


class PaoHonba(StrEnum):
    DISCARDER = "discarder"
    LIABLE = "liable"


class PaoScope(StrEnum):
    WHOLE = "whole"
    FED_YAKUMAN = "fed_yakuman"


class Rounding(StrEnum):
    EXACT = "exact"
    THOUSANDS = "thousands"


@dataclass(frozen=True, kw_only=True)
class Rules:
    """All options of the tenbou-game/1 spec. Points are integers, match points Decimals.

    >>> Rules().effective_oka
    Decimal('20')
    """

    start_points: int = 25000
    return_points: int = 30000
    # The score that ends the west round and that the all-last dealer must lead with for
    # agari-yame / tenpai-yame; None means the return score.
    target_points: int | None = None
    uma: tuple[Decimal, Decimal, Decimal, Decimal] = (
        Decimal(30),
        Decimal(10),
        Decimal(-10),
        Decimal(-30),
    )
    # None means the usual 4 x (return - start) / 1000, so that match points sum to zero.
    oka: Decimal | None = None
    length: Length = Length.HANCHAN
    kiriage: bool = False
    kazoe: Kazoe = Kazoe.YAKUMAN
    double_yakuman: bool = True
    multi_ron: MultiRon = MultiRon.DOUBLE
    # When several players ron one discard: who is paid the honba, and where the riichi
    # sticks go ("first" is the first winner after the discarder, in turn order).
    multi_ron_honba: MultiRonHonba = MultiRonHonba.FIRST
    multi_ron_sticks: MultiRonSticks = MultiRonSticks.FIRST
    # A ron with pao: who pays the honba; and whether the liable player answers for the
    # whole win or only for the fed yakuman (the win's `pao_yakuman` multiples).
    pao_honba: PaoHonba = PaoHonba.DISCARDER
    pao_scope: PaoScope = PaoScope.WHOLE
    honba_value: int = 300
    noten_total: int = 3000
    nagashi_mangan: bool = True
    abortive_draws: bool = True
    bust: Bust = Bust.BELOW_ZERO
    agari_yame: bool = False
    tenpai_yame: bool = False
    west_round: bool = False
    dealer_repeat_on_tenpai: bool = True
    leftover_sticks: LeftoverSticks = LeftoverSticks.FIRST
    ties: Ties = Ties.SEAT_ORDER
    chombo: Chombo = Chombo.REVERSE_MANGAN
    # Added to the offender's match points when `chombo` is `penalty`; negative.
    chombo_penalty: Decimal = Decimal(-20)
    rounding: Rounding = Rounding.EXACT
    # The score a player needs before the hand to declare riichi; 0 allows any score.
    riichi_min_points: int = 1000

    def __post_init__(self) -> None:
        _check_consistency(self)

    @property
    def effective_oka(self) -> Decimal:
        if self.oka is not None:
            return self.oka
        return Decimal(4 * (self.return_points - self.start_points)) / 1000

    @property
    def target(self) -> int:
        """The target score in effect: `target_points`, or the return score."""
        return self.return_points if self.target_points is None else self.target_points

    @property
    def hands_per_round(self) -> int:
        return 4

    @property
    def last_regular_round(self) -> int:
        """Index of the last hand of the regular game: 3 (East 4) or 7 (South 4)."""
        return 3 if self.length is Length.TONPUUSEN else 7

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-ready values (Decimals as numbers)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = _jsonable(value)
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, StrEnum):
        return value.value
    return value


def _check_consistency(rules: Rules) -> None:
    """Refuse option values that could not settle a game cleanly."""
    if rules.start_points <= 0 or rules.start_points % 100:
        raise ScoringError("start_points must be a positive multiple of 100")
    if rules.return_points < 0 or rules.return_points % 100:
        raise ScoringError("return_points must be a multiple of 100, 0 or more")
    if rules.target_points is not None and (rules.target_points < 0 or rules.target_points % 100):
        raise ScoringError("target_points must be a multiple of 100, 0 or more")
    if rules.riichi_min_points < 0 or rules.riichi_min_points % 100:
        raise ScoringError("riichi_min_points must be a multiple of 100, 0 or more")
    if rules.honba_value < 0 or rules.honba_value % 300:
        # A tsumo splits the honba between three payers in whole hundreds.
        raise ScoringError("honba_value must be a multiple of 300 (0 or more)")
    if rules.noten_total < 0 or rules.noten_total % 600:
        # It must split evenly among 1, 2 or 3 tenpai players in whole hundreds.
        raise ScoringError("noten_total must be a multiple of 600 (0 or more)")
    if len(rules.uma) != 4:
        raise ScoringError("uma needs four numbers, for 1st to 4th place")
    for value in (*rules.uma, rules.chombo_penalty, rules.oka or Decimal(0)):
        if value != value.quantize(TENTH):
            raise ScoringError("match points are kept to tenths: uma, oka and penalties too")
    if rules.chombo_penalty > 0:
        raise ScoringError("chombo_penalty is a deduction: give it as 0 or a negative number")


def _uma(*values: int) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    return tuple(Decimal(v) for v in values)  # type: ignore[return-value]


# Where each preset's values come from is said beside it; "not stated" marks a value the
# source leaves open, with the choice made.
PRESETS: dict[str, Rules] = {
    # Seed "Basic Ari-Ari Mahjong Rules": 25,000 start, 30,000 return, uma +30/+10/-10/-30,
    # oka +20 and exact match points (section 7.2 and its worked example); Figure 2 has no
    # kiriage (4 han 30 fu = 7,700) and counts 13 han as yakuman; section 8.7 lists double
    # yakuman; honba are 100 per payer (9.2). Not stated, chosen as common club practice:
    # double ron, nagashi and abortive draws played, bust below zero, no agari/tenpai-yame,
    # no west round, sticks to 1st, ties by seat order, reverse-mangan chombo.
    "ari-ari": Rules(),
    # Tenhou ranked four-player south game (tenhou.net/man rules page): 25,000 / 30,000,
    # uma 10-20 with oka, no kiriage, kazoe yakuman, stacked yakuman paid as multiples,
    # double ron with triple ron as an abortive draw, all abortive draws, nagashi mangan,
    # bust below zero (exactly 0 plays on), automatic agari-yame and tenpai-yame for a
    # top dealer with 30,000 or more, sudden-death west round, sticks to the top, ties
    # by seat order. Current logs show exact match points; older ones rounded to
    # thousands (an override: rounding = thousands).
    "tenhou": Rules(
        uma=_uma(20, 10, -10, -20),
        agari_yame=True,
        tenpai_yame=True,
        west_round=True,
    ),
    # M.League (the official rules as summarised by Japanese rule sites): 25,000 / 30,000,
    # uma +30/+10/-10/-30 with oka, kiriage, no kazoe yakuman, head bump, no abortive
    # draws, no bust, no yame, tied players split uma, chombo a 20-point penalty.
    # Nagashi mangan played and sticks to 1st: not clearly stated.
    "mleague": Rules(
        kiriage=True,
        kazoe=Kazoe.SANBAIMAN,
        multi_ron=MultiRon.HEAD_BUMP,
        abortive_draws=False,
        bust=Bust.OFF,
        ties=Ties.SPLIT,
        chombo=Chombo.PENALTY,
    ),
    # World Riichi Championship rules 2022: 30,000 / 30,000, uma +15/+5/-5/-15, no oka,
    # kiriage, kazoe capped at sanbaiman, stacked yakuman paid as multiples, one winner
    # per hand (head bump), no nagashi, no abortive draws, no bust, no agari-yame, sticks
    # left at the end are lost, ties split uma, chombo a penalty after uma (30 points
    # from 2022, up from 20).
    "wrc": Rules(
        start_points=30000,
        uma=_uma(15, 5, -5, -15),
        kiriage=True,
        kazoe=Kazoe.SANBAIMAN,
        multi_ron=MultiRon.HEAD_BUMP,
        nagashi_mangan=False,
        abortive_draws=False,
        bust=Bust.OFF,
        leftover_sticks=LeftoverSticks.LOST,
        ties=Ties.SPLIT,
        chombo=Chombo.PENALTY,
        chombo_penalty=Decimal(-30),
    ),
    # EMA Riichi Competition Rules 2016: 30,000 / 30,000, uma +15/+5/-5/-15, no oka, no
    # kiriage, 11 han and more all sanbaiman, a single yakuman at most, double and triple
    # ron all paid, no nagashi, no abortive draws, no bust, sticks to the winner of the
    # game, ties share uma, chombo -20 after uma, scores not rounded.
    "ema": Rules(
        start_points=30000,
        uma=_uma(15, 5, -5, -15),
        kazoe=Kazoe.SANBAIMAN,
        double_yakuman=False,
        multi_ron=MultiRon.TRIPLE,
        nagashi_mangan=False,
        abortive_draws=False,
        bust=Bust.OFF,
        ties=Ties.SPLIT,
        chombo=Chombo.PENALTY,
    ),
    # Mahjong Soul four-player south game, the client's default rules: 25,000 start, a
    # 30,000 target for the west round, match points counted from 25,000 with uma
    # +15/+5/-5/-15 and no oka. One return score serves both here, so it stays at 30,000
    # and every uma is raised by 5 ((s - 25,000)/1000 = (s - 30,000)/1000 + 5), which
    # gives the same match points. No kiriage, kazoe yakuman, multiple yakuman, triple ron
    # paid, nagashi, abortive draws, bust below zero, agari-yame and tenpai-yame, west
    # round, sticks to 1st, ties by seat order.
    "mahjongsoul": Rules(
        uma=_uma(20, 10, 0, -10),
        oka=Decimal(0),
        multi_ron=MultiRon.TRIPLE,
        agari_yame=True,
        tenpai_yame=True,
        west_round=True,
    ),
}

_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}
_ENUMS: dict[str, type[StrEnum]] = {
    "length": Length,
    "kazoe": Kazoe,
    "multi_ron": MultiRon,
    "multi_ron_honba": MultiRonHonba,
    "multi_ron_sticks": MultiRonSticks,
    "pao_honba": PaoHonba,
    "pao_scope": PaoScope,
    "bust": Bust,
    "leftover_sticks": LeftoverSticks,
    "ties": Ties,
    "chombo": Chombo,
    "rounding": Rounding,
}
_BOOLS = {name for name, f in _FIELDS.items() if f.type == "bool"}
_INTS = {name for name, f in _FIELDS.items() if f.type == "int"}


def option_names() -> list[str]:
    return list(_FIELDS)


def _to_decimal(name: str, value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise ScoringError(f"option {name!r} must be a number")
    try:
        result = Decimal(str(value))
    except InvalidOperation:
        raise ScoringError(f"option {name!r} must be a number") from None
    if not result.is_finite():
        raise ScoringError(f"option {name!r} must be a number")
    return result


def _convert_option(name: str, value: Any) -> Any:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise ScoringError(f"option {name!r} must be true or false")
        return value
    if name in _INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoringError(f"option {name!r} must be a whole number of points")
        return value
    if name in _ENUMS:
        choices = [c.value for c in _ENUMS[name]]
        if value not in choices:
            raise ScoringError(f"option {name!r} must be one of {', '.join(choices)}")
        return _ENUMS[name](value)
    if name == "uma":
        if not isinstance(value, list | tuple) or len(value) != 4:
            raise ScoringError("option 'uma' must be a list of four numbers, 1st to 4th")
        return tuple(_to_decimal("uma", v) for v in value)
    if name == "oka":
        return None if value is None else _to_decimal(name, value)
    if name == "target_points":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoringError(f"option {name!r} must be a whole number of points")
        return value
    return _to_decimal(name, value)


def resolve_rules(spec: Any) -> Rules:
    """The `Rules` named by a record's `rules` field: a preset name or preset + overrides.

    >>> resolve_rules({"preset": "ari-ari", "overrides": {"kiriage": True}}).kiriage
    True
    """
    if isinstance(spec, str):
        preset, overrides = spec, {}
    elif isinstance(spec, dict):
        unknown = set(spec) - {"preset", "overrides"}
        if unknown:
            raise ScoringError(f"rules: unknown field {sorted(unknown)[0]!r}")
        preset = spec.get("preset")
        overrides = spec.get("overrides", {})
        if not isinstance(overrides, dict):
            raise ScoringError("rules: 'overrides' must be an object of option: value")
    else:
        raise ScoringError('rules must be a preset name or {"preset": ..., "overrides": {...}}')
    if preset not in PRESETS:
        raise ScoringError(
            f"unknown rule preset {preset!r}; choose one of {', '.join(sorted(PRESETS))}"
        )
    changes = {}
    for name, value in overrides.items():
        if name not in _FIELDS:
            raise ScoringError(f"unknown rule option {name!r}")
        changes[name] = _convert_option(name, value)
    return dataclasses.replace(PRESETS[preset], **changes)

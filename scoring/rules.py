"""The rules a game is played under: one frozen `Rules`, the presets, and overrides.

Every difference between rule sets is an option here; the rest of the engine reads
options and never asks which preset it is running.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import io
import json
import tokenize
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from pathlib import Path
from typing import Any

from .errors import ScoringError, gettext_noop

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


class TsumoLoss(StrEnum):
    ON = "on"
    SPLIT = "split"


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
    # One number per place, 1st to last: four, or three in a three-player game.
    uma: tuple[Decimal, ...] = (
        Decimal(30),
        Decimal(10),
        Decimal(-10),
        Decimal(-30),
    )
    # None means the usual players x (return - start) / 1000, so that match points sum to
    # zero.
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
    # 4, or 3 for a three-player game (sanma: seats East, South and West only).
    players: int = 4
    # A three-player tsumo: the absent North's share is not paid ("on"), or is split
    # between the two payers ("split"). Four-player games never read it.
    tsumo_loss: TsumoLoss = TsumoLoss.ON

    def __post_init__(self) -> None:
        _check_consistency(self)

    @property
    def effective_oka(self) -> Decimal:
        if self.oka is not None:
            return self.oka
        return Decimal(self.players * (self.return_points - self.start_points)) / 1000

    @property
    def target(self) -> int:
        """The target score in effect: `target_points`, or the return score."""
        return self.return_points if self.target_points is None else self.target_points

    @property
    def hands_per_round(self) -> int:
        """One hand for each dealer: 4, or 3 in a three-player game."""
        return self.players

    @property
    def last_regular_round(self) -> int:
        """Index of the last hand of the regular game: 3 (East 4) or 7 (South 4); with three
        players 2 (East 3) or 5 (South 3)."""
        rounds = 1 if self.length is Length.TONPUUSEN else 2
        return rounds * self.players - 1

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
        raise ScoringError(gettext_noop("start_points must be a positive multiple of 100"))
    if rules.return_points < 0 or rules.return_points % 100:
        raise ScoringError(gettext_noop("return_points must be a multiple of 100, 0 or more"))
    if rules.target_points is not None and (rules.target_points < 0 or rules.target_points % 100):
        raise ScoringError(gettext_noop("target_points must be a multiple of 100, 0 or more"))
    if rules.riichi_min_points < 0 or rules.riichi_min_points % 100:
        raise ScoringError(gettext_noop("riichi_min_points must be a multiple of 100, 0 or more"))
    if rules.players not in (3, 4):
        raise ScoringError(
            gettext_noop("players must be 4, or 3 for a three-player game, not %(players)s"),
            players=rules.players,
        )
    if rules.players == 3:
        _check_three_players(rules)
    else:
        if rules.honba_value < 0 or rules.honba_value % 300:
            # A tsumo splits the honba between three payers in whole hundreds.
            raise ScoringError(gettext_noop("honba_value must be a multiple of 300 (0 or more)"))
        if rules.noten_total < 0 or rules.noten_total % 600:
            # It must split evenly among 1, 2 or 3 tenpai players in whole hundreds.
            raise ScoringError(gettext_noop("noten_total must be a multiple of 600 (0 or more)"))
        if len(rules.uma) != 4:
            raise ScoringError(gettext_noop("uma needs four numbers, for 1st to 4th place"))
    for value in (*rules.uma, rules.chombo_penalty, rules.oka or Decimal(0)):
        if value != value.quantize(TENTH):
            raise ScoringError(
                gettext_noop("match points are kept to tenths: uma, oka and penalties too")
            )
    if rules.chombo_penalty > 0:
        raise ScoringError(
            gettext_noop("chombo_penalty is a deduction: give it as 0 or a negative number")
        )


def _check_three_players(rules: Rules) -> None:
    """The options whose bounds change with three players."""
    if rules.honba_value < 0 or rules.honba_value % 200:
        # A tsumo splits the honba between two payers in whole hundreds.
        raise ScoringError(
            gettext_noop("honba_value must be a multiple of 200 (0 or more) in a three-player game")
        )
    if rules.noten_total < 0 or rules.noten_total % 200:
        # It must split evenly between 1 or 2 tenpai players in whole hundreds.
        raise ScoringError(
            gettext_noop("noten_total must be a multiple of 200 (0 or more) in a three-player game")
        )
    if len(rules.uma) != 3:
        raise ScoringError(
            gettext_noop("uma needs three numbers in a three-player game, for 1st to 3rd place")
        )


def _uma(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


# Where each preset's values come from. Every preset spells out every option, and the
# comment beside each value names the clause or section it follows in the source given
# in PRESET_SOURCES. "Not stated" marks a value the source leaves open, with the choice
# made; "unverified" marks a value taken from a summary because the rule text itself
# could not be read.
PRESET_SOURCES: dict[str, str] = {
    "ari-ari": "Basic Ari-Ari Mahjong Rules (M. Rappaport; core-init-12, core-gameplay-3)",
    "club": "Basic Ari-Ari Mahjong Rules, with the points it leaves open set for club nights",
    "tenhou": (
        "Tenhou ranked lobby, four-player south game (tenhou.net/man; its English text at"
        " mjstars.net/rules-for; the sample logs)"
    ),
    "tenhou-east": (
        "Tenhou ranked lobby, four-player east-only game (tenhou.net/man; its English text at"
        " mjstars.net/rules-for)"
    ),
    "mahjongsoul": (
        "Mahjong Soul ranked rooms, south game (段位戦ルール説明, 2021-06-15,"
        " mahjongsoul.com/?newsid=60c8610c2ac863186fdbebd4)"
    ),
    "mahjongsoul-east": (
        "Mahjong Soul ranked rooms, east-only game (段位戦ルール説明, 2021-06-15,"
        " mahjongsoul.com/?newsid=60c8610c2ac863186fdbebd4)"
    ),
    "mleague": "M.League official rules (m-league.jp, ルール)",
    "wrc": (
        "World Riichi Championship Rules (2022; clause numbers of the 2015 rule book; the 2022"
        " changes as the national federations announced them, e.g. Mahjong Belgium, 2022-04-02)"
    ),
    "ema": "EMA Riichi Competition Rules, 2016 edition",
    "tenhou-sanma": (
        "Tenhou ranked lobby, three-player south game (tenhou.net/man, 三麻; the game-record"
        " spec's figures from Tenhou's three-player logs); what it shares with the four-player"
        " game is taken from the tenhou preset"
    ),
    "tenhou-sanma-east": (
        "Tenhou ranked lobby, three-player east-only game (tenhou.net/man, 三麻); what it"
        " shares with the four-player game is taken from the tenhou-east preset"
    ),
    "mahjongsoul-sanma": (
        "Mahjong Soul ranked rooms, three-player south game (三人麻雀 rules as summarised at"
        " mahjong-portal.com/?p=10869; the 段位戦ルール説明 of the four-player game for what"
        " both share; the honba from a Mahjong Soul three-player log in"
        " github.com/shinkuan/Akagi/pull/115; the noten total as riichienv-core's three-player"
        " game, docs.rs/crate/riichienv-core; values marked unverified could not be read in the"
        " game's own text)"
    ),
    "mahjongsoul-sanma-east": (
        "Mahjong Soul ranked rooms, three-player east-only game (as mahjongsoul-sanma;"
        " mahjong-portal.com/?p=10869)"
    ),
}

PRESETS: dict[str, Rules] = {
    "ari-ari": Rules(
        start_points=25000,  # 4.1: each player starts with 25,000
        return_points=30000,  # 7.2: "This 30,000 is called the Return Score"
        target_points=None,  # not stated (no west round): the return score
        uma=_uma(30, 10, -10, -30),  # 7.2 step 3: +30/+10/-10/-30
        oka=None,  # 7.2 step 4: 4 x (return - start) / 1,000 = +20, to first place
        length=Length.HANCHAN,  # Scoresheet and 7.2: a game is east and south rounds
        kiriage=False,  # Figure 2: 4 han 30 fu pays 7,700, 3 han 60 fu 7,700
        kazoe=Kazoe.YAKUMAN,  # Figure 2: "Yakuman 13" han
        double_yakuman=True,  # 8.7 Double Yakuman
        multi_ron=MultiRon.DOUBLE,  # not stated: double ron, a third ron aborts
        multi_ron_honba=MultiRonHonba.FIRST,  # not stated: the winner nearest the discarder
        multi_ron_sticks=MultiRonSticks.FIRST,  # not stated: the winner nearest the discarder
        pao_honba=PaoHonba.DISCARDER,  # not stated (no pao in the text): the discarder
        pao_scope=PaoScope.WHOLE,  # not stated: the whole win
        honba_value=300,  # 9.2 100 Point Bonus: 100 per honba from each payer
        noten_total=3000,  # not stated: the usual 3,000
        nagashi_mangan=True,  # not stated: played
        abortive_draws=True,  # not stated: played
        bust=Bust.BELOW_ZERO,  # not stated: a score below zero ends the game
        agari_yame=False,  # not stated: off
        tenpai_yame=False,  # not stated: off
        west_round=False,  # not stated: no west round
        dealer_repeat_on_tenpai=True,  # 9.2 Honba: "For every exhaustive draw, or dealer repeat"
        leftover_sticks=LeftoverSticks.FIRST,  # not stated: to first place
        ties=Ties.SEAT_ORDER,  # not stated: the seat nearer the first dealer
        chombo=Chombo.REVERSE_MANGAN,  # not stated: paid at once as a reverse mangan
        chombo_penalty=Decimal(-20),  # unused with reverse mangan
        rounding=Rounding.EXACT,  # 7.2 worked example: 61.3, 4.9, -18.2, -48.0
        riichi_min_points=1000,  # 6.3 and 8.1 Riichi: "wager 1,000 points"
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "club": Rules(
        start_points=25000,  # Ari-Ari 4.1
        return_points=30000,  # Ari-Ari 7.2
        target_points=None,  # the return score
        uma=_uma(30, 10, -10, -30),  # Ari-Ari 7.2
        oka=None,  # Ari-Ari 7.2: +20
        length=Length.HANCHAN,  # Ari-Ari scoresheet
        kiriage=False,  # Ari-Ari Figure 2
        kazoe=Kazoe.YAKUMAN,  # Ari-Ari Figure 2
        double_yakuman=True,  # Ari-Ari 8.7; the seeds' yaku lists count double yakuman too
        multi_ron=MultiRon.DOUBLE,  # seed "Mahjong Giapponese": a triple ron aborts
        multi_ron_honba=MultiRonHonba.FIRST,  # seed "Mahjong Giapponese": nearest winner
        multi_ron_sticks=MultiRonSticks.FIRST,  # seed "Mahjong Giapponese": nearest winner
        pao_honba=PaoHonba.DISCARDER,  # not stated: the discarder
        pao_scope=PaoScope.WHOLE,  # not stated: the whole win
        honba_value=300,  # Ari-Ari 9.2; seed "Mahjong Giapponese": 300 per honba
        noten_total=3000,  # seed "Mahjong Giapponese": 3,000 in all at a draw
        nagashi_mangan=True,  # seed yaku lists name nagashi mangan
        abortive_draws=True,  # seed "Mahjong Giapponese": the five abortive draws
        bust=Bust.OFF,  # club choice: all four play the whole game (the seed allows both)
        agari_yame=False,  # club choice: every hand is played
        tenpai_yame=False,  # club choice: every hand is played
        west_round=False,  # club choice: the game ends after South 4
        dealer_repeat_on_tenpai=True,  # Ari-Ari 9.2
        leftover_sticks=LeftoverSticks.FIRST,  # club choice: to first place
        ties=Ties.SPLIT,  # club choice: tied players share their places' uma
        chombo=Chombo.REVERSE_MANGAN,  # club choice: paid at once, the hand replayed
        chombo_penalty=Decimal(-20),  # unused with reverse mangan
        rounding=Rounding.EXACT,  # Ari-Ari 7.2
        riichi_min_points=1000,  # seed yaku list: riichi is "declared at 1000 points stake"
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "tenhou": Rules(
        start_points=25000,  # manual, ルール: 25,000 points each; every sample log
        return_points=30000,  # manual: 30,000 返し; the sample logs' final points
        target_points=None,  # manual, 西入: nobody at 30,000 after South 4 plays on
        uma=_uma(20, 10, -10, -20),  # the sample logs' final points: uma 20-10 with oka
        oka=None,  # +20 to the top, from the start and return scores (sample logs)
        length=Length.HANCHAN,  # 東南戦 (the south game)
        kiriage=False,  # manual: 切り上げ満貫なし; sample payments
        kazoe=Kazoe.YAKUMAN,  # manual: 数え役満あり
        double_yakuman=True,  # manual: 役満の複合あり
        multi_ron=MultiRon.DOUBLE,  # manual: ダブロンあり, 三家和は流局
        multi_ron_honba=MultiRonHonba.FIRST,  # manual: 積み棒は上家取り
        multi_ron_sticks=MultiRonSticks.FIRST,  # manual: 供託は上家取り
        pao_honba=PaoHonba.LIABLE,  # manual, 包: honba paid by the player pao applies to
        pao_scope=PaoScope.WHOLE,  # manual: 大三元・大四喜の包, the whole win (unverified)
        honba_value=300,  # manual: 1 本場 300 点; sample payments
        noten_total=3000,  # manual: ノーテン罰符 3000 点; sample payments
        nagashi_mangan=True,  # manual: 流し満貫あり
        abortive_draws=True,  # manual: 九種九牌, 四風連打, 四開槓, 四家立直, 三家和
        bust=Bust.BELOW_ZERO,  # manual: 0 点未満でトビ終了 (exactly 0 plays on)
        agari_yame=True,  # manual: オーラス親の和了止め (automatic for a top dealer)
        tenpai_yame=True,  # manual: オーラス親の聴牌止め (automatic for a top dealer)
        west_round=True,  # manual: 西入 sudden death, at most to West 4
        dealer_repeat_on_tenpai=True,  # manual: 聴牌連荘
        leftover_sticks=LeftoverSticks.FIRST,  # manual: 供託はトップ取り
        ties=Ties.SEAT_ORDER,  # manual: 同点は起家に近い方が上位
        chombo=Chombo.REVERSE_MANGAN,  # not applicable online (the software prevents it)
        chombo_penalty=Decimal(-20),  # not applicable online
        rounding=Rounding.EXACT,  # current logs; older ones rounded to thousands
        riichi_min_points=1000,  # manual: 持ち点 1000 点未満はリーチ不可
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "tenhou-east": Rules(
        start_points=25000,  # manual, ルール: as the south game
        return_points=30000,  # manual: 30,000 返し
        target_points=None,  # manual, 南入: nobody at 30,000 after East 4 plays on
        uma=_uma(20, 10, -10, -20),  # as the south game
        oka=None,  # as the south game: +20
        length=Length.TONPUUSEN,  # 東風戦 (the east-only game)
        kiriage=False,  # manual: 切り上げ満貫なし
        kazoe=Kazoe.YAKUMAN,  # manual: 数え役満あり
        double_yakuman=True,  # manual: 役満の複合あり
        multi_ron=MultiRon.DOUBLE,  # manual: ダブロンあり, 三家和は流局
        multi_ron_honba=MultiRonHonba.FIRST,  # manual: 積み棒は上家取り
        multi_ron_sticks=MultiRonSticks.FIRST,  # manual: 供託は上家取り
        pao_honba=PaoHonba.LIABLE,  # as the south game
        pao_scope=PaoScope.WHOLE,  # as the south game (unverified)
        honba_value=300,  # manual: 1 本場 300 点
        noten_total=3000,  # manual: ノーテン罰符 3000 点
        nagashi_mangan=True,  # manual: 流し満貫あり
        abortive_draws=True,  # manual: the five abortive draws
        bust=Bust.BELOW_ZERO,  # manual: 0 点未満でトビ終了
        agari_yame=True,  # manual: オーラス (East 4) 親の和了止め
        tenpai_yame=True,  # manual: オーラス親の聴牌止め
        west_round=True,  # manual: 南入 sudden death, at most to South 4
        dealer_repeat_on_tenpai=True,  # manual: 聴牌連荘
        leftover_sticks=LeftoverSticks.FIRST,  # manual: 供託はトップ取り
        ties=Ties.SEAT_ORDER,  # manual: 同点は起家に近い方が上位
        chombo=Chombo.REVERSE_MANGAN,  # not applicable online
        chombo_penalty=Decimal(-20),  # not applicable online
        rounding=Rounding.EXACT,  # as the south game
        riichi_min_points=1000,  # manual: 持ち点 1000 点未満はリーチ不可
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "mahjongsoul": Rules(
        start_points=25000,  # 段位戦ルール: 25,000 点持ち
        return_points=25000,  # match points counted from 25,000 (順位点 + (点数 - 25,000))
        target_points=30000,  # 段位戦ルール: 西入 until someone has 30,000
        uma=_uma(15, 5, -5, -15),  # the game result's uma (ranked rooms add rank points)
        oka=None,  # none: start and return are equal
        length=Length.HANCHAN,  # 半荘戦 (the south game)
        kiriage=False,  # 段位戦ルール: 切り上げ満貫なし (unverified)
        kazoe=Kazoe.YAKUMAN,  # 段位戦ルール: 数え役満あり
        double_yakuman=True,  # 段位戦ルール: ダブル役満, 役満の複合あり
        multi_ron=MultiRon.DOUBLE,  # 段位戦ルール: ダブロンあり, 三家和は流局
        multi_ron_honba=MultiRonHonba.FIRST,  # 段位戦ルール: ダブロンの積み棒は上家取り
        multi_ron_sticks=MultiRonSticks.FIRST,  # 上家取り (unverified)
        pao_honba=PaoHonba.LIABLE,  # 段位戦ルール: 包発生時の積み棒は包の責任者が支払う
        pao_scope=PaoScope.FED_YAKUMAN,  # 段位戦ルール: 包 only for the fed yakuman
        honba_value=300,  # 1 本場 300 点
        noten_total=3000,  # ノーテン罰符 3000 点
        nagashi_mangan=True,  # 流し満貫あり
        abortive_draws=True,  # 途中流局あり (九種九牌, 四風連打, 四開槓, 四家立直, 三家和)
        bust=Bust.BELOW_ZERO,  # トビあり: below 0 ends the game
        agari_yame=True,  # オーラス親の和了止めあり
        tenpai_yame=True,  # オーラス親の聴牌止めあり
        west_round=True,  # 西入あり, sudden death to the target
        dealer_repeat_on_tenpai=True,  # 聴牌連荘
        leftover_sticks=LeftoverSticks.FIRST,  # 供託はトップ取り
        ties=Ties.SEAT_ORDER,  # 同点は起家に近い方が上位
        chombo=Chombo.REVERSE_MANGAN,  # not applicable online
        chombo_penalty=Decimal(-20),  # not applicable online
        rounding=Rounding.EXACT,  # points to one decimal
        riichi_min_points=1000,  # 持ち点 1000 点未満はリーチ不可
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "mahjongsoul-east": Rules(
        start_points=25000,  # 段位戦ルール: 25,000 点持ち
        return_points=25000,  # as the south game
        target_points=30000,  # 段位戦ルール: 南入 until someone has 30,000
        uma=_uma(15, 5, -5, -15),  # as the south game
        oka=None,  # none
        length=Length.TONPUUSEN,  # 東風戦 (the east-only game)
        kiriage=False,  # as the south game (unverified)
        kazoe=Kazoe.YAKUMAN,  # 数え役満あり
        double_yakuman=True,  # ダブル役満, 役満の複合あり
        multi_ron=MultiRon.DOUBLE,  # ダブロンあり, 三家和は流局
        multi_ron_honba=MultiRonHonba.FIRST,  # 段位戦ルール: ダブロンの積み棒は上家取り
        multi_ron_sticks=MultiRonSticks.FIRST,  # 上家取り (unverified)
        pao_honba=PaoHonba.LIABLE,  # 段位戦ルール: 包発生時の積み棒は包の責任者が支払う
        pao_scope=PaoScope.FED_YAKUMAN,  # 包 only for the fed yakuman
        honba_value=300,  # 1 本場 300 点
        noten_total=3000,  # ノーテン罰符 3000 点
        nagashi_mangan=True,  # 流し満貫あり
        abortive_draws=True,  # 途中流局あり
        bust=Bust.BELOW_ZERO,  # トビあり
        agari_yame=True,  # オーラス親の和了止めあり
        tenpai_yame=True,  # オーラス親の聴牌止めあり
        west_round=True,  # 南入あり, sudden death to the target
        dealer_repeat_on_tenpai=True,  # 聴牌連荘
        leftover_sticks=LeftoverSticks.FIRST,  # 供託はトップ取り
        ties=Ties.SEAT_ORDER,  # 同点は起家に近い方が上位
        chombo=Chombo.REVERSE_MANGAN,  # not applicable online
        chombo_penalty=Decimal(-20),  # not applicable online
        rounding=Rounding.EXACT,  # points to one decimal
        riichi_min_points=1000,  # 持ち点 1000 点未満はリーチ不可
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "mleague": Rules(
        start_points=25000,  # ルール: 25,000 点持ち
        return_points=30000,  # ルール: 30,000 点返し
        target_points=None,  # no west round
        uma=_uma(30, 10, -10, -30),  # ルール: 順位点 +30/+10/-10/-30
        oka=None,  # +20 to the top, from the start and return scores
        length=Length.HANCHAN,  # 半荘戦
        kiriage=True,  # 切り上げ満貫あり (unverified)
        kazoe=Kazoe.SANBAIMAN,  # 数え役満なし (unverified)
        double_yakuman=True,  # not stated in what could be read (unverified)
        multi_ron=MultiRon.HEAD_BUMP,  # ダブロンなし, 頭ハネ (unverified)
        multi_ron_honba=MultiRonHonba.FIRST,  # one winner only
        multi_ron_sticks=MultiRonSticks.FIRST,  # one winner only
        pao_honba=PaoHonba.DISCARDER,  # not stated in what could be read (unverified)
        pao_scope=PaoScope.WHOLE,  # 大三元・大四喜の包 (unverified)
        honba_value=300,  # 1 本場 300 点
        noten_total=3000,  # ノーテン罰符 3000 点
        nagashi_mangan=True,  # 流し満貫あり (unverified)
        abortive_draws=False,  # 途中流局なし (unverified)
        bust=Bust.OFF,  # トビなし (unverified)
        agari_yame=False,  # オーラス親の和了止めなし (unverified)
        tenpai_yame=False,  # 聴牌止めなし (unverified)
        west_round=False,  # 西入なし
        dealer_repeat_on_tenpai=True,  # 聴牌連荘
        leftover_sticks=LeftoverSticks.FIRST,  # 供託はトップ取り (unverified)
        ties=Ties.SPLIT,  # 同点は順位点を折半 (unverified)
        chombo=Chombo.PENALTY,  # チョンボは -20 ポイント (unverified)
        chombo_penalty=Decimal(-20),  # チョンボ -20 ポイント (unverified)
        rounding=Rounding.EXACT,  # points to one decimal
        riichi_min_points=0,  # ルール: トビなし, 持ち点 1000 点未満でもリーチ可 (unverified)
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "wrc": Rules(
        start_points=30000,  # 4.1 Starting points: 30,000
        return_points=30000,  # 5.9.2: hanchan score = (points - 30,000) / 1,000 + uma
        target_points=None,  # no west round
        uma=_uma(15, 5, -5, -15),  # 5.9.2: +15/+5/-5/-15
        oka=None,  # none: start and return are equal
        length=Length.HANCHAN,  # 5.8: east and south rounds
        kiriage=True,  # 6.1: a base value of 1,920 is rounded up to 2,000
        kazoe=Kazoe.SANBAIMAN,  # 6.1: "There is no counted yakuman"
        double_yakuman=True,  # 2022 changes: several yakuman in one hand count double or triple
        multi_ron=MultiRon.HEAD_BUMP,  # 5.7.6: only the player closer to the discarder wins
        multi_ron_honba=MultiRonHonba.FIRST,  # 5.7.6: one winner
        multi_ron_sticks=MultiRonSticks.FIRST,  # 5.7.6: one winner
        pao_honba=PaoHonba.DISCARDER,  # 6.2 Liability payment: the discarder pays counters
        pao_scope=PaoScope.WHOLE,  # 6.2: the liable player shares or pays the whole hand
        honba_value=300,  # 5.7.7: each counter adds 300
        noten_total=3000,  # 5.7.2: 3,000 in all
        nagashi_mangan=False,  # 6.5: not among the yaku
        abortive_draws=False,  # 5.7: "There are no abortive draws"
        bust=Bust.OFF,  # 5.9: the game does not end on a negative score (unverified)
        agari_yame=False,  # 5.9.1: no agari yame
        tenpai_yame=False,  # 5.9.1: no agari yame
        west_round=False,  # 5.9: the game ends after South 4
        dealer_repeat_on_tenpai=True,  # 5.7.8: East keeps the seat when tenpai
        leftover_sticks=LeftoverSticks.LOST,  # 5.7.4: bets left at the end are not won
        ties=Ties.SPLIT,  # 5.9.2: tied players share the uma
        chombo=Chombo.PENALTY,  # 7.1: a point penalty, no mangan payment
        chombo_penalty=Decimal(-30),  # 2022 changes: a chombo costs 30,000 points (2015 7.1: 20)
        rounding=Rounding.EXACT,  # 5.9.2: points to one decimal
        riichi_min_points=0,  # not stated: negative scores play on (unverified)
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
    "ema": Rules(
        start_points=30000,  # 2016 rules: 30,000 at the start
        return_points=30000,  # 2016 rules: score = (points - 30,000) / 1,000 + uma
        target_points=None,  # no west round
        uma=_uma(15, 5, -5, -15),  # 2016 revision notes: uma +15/+5/-5/-15
        oka=None,  # none: start and return are equal
        length=Length.HANCHAN,  # east and south rounds
        kiriage=False,  # not stated in what could be read (unverified)
        kazoe=Kazoe.SANBAIMAN,  # 2016 revision notes: 11 han and above are sanbaiman
        double_yakuman=False,  # 2016 revision notes: the maximum is a single yakuman
        multi_ron=MultiRon.TRIPLE,  # 3.4.9: the discarder pays each winning hand
        multi_ron_honba=MultiRonHonba.EACH,  # 3.4.10: each counter raises each winning hand
        multi_ron_sticks=MultiRonSticks.OWN_BACK,  # winners reclaim, the rest to the nearest
        pao_honba=PaoHonba.DISCARDER,  # 3.3.9: "only the discarder pays for any counters"
        pao_scope=PaoScope.WHOLE,  # 3.3.9: the full value of the hand, or shared equally
        honba_value=300,  # 3.4.10: each counter adds 300
        noten_total=3000,  # 3,000 in all at an exhaustive draw
        nagashi_mangan=False,  # 2016 revision notes: no more nagashi mangan
        abortive_draws=False,  # 2016 revision notes: no more abortive draws
        bust=Bust.OFF,  # negative scores play on
        agari_yame=False,  # no agari-yame
        tenpai_yame=False,  # no tenpai-yame
        west_round=False,  # no west round
        dealer_repeat_on_tenpai=True,  # East keeps the seat when tenpai
        leftover_sticks=LeftoverSticks.FIRST,  # to the winner of the game
        ties=Ties.SPLIT,  # tied players share the uma (and the leftover sticks)
        chombo=Chombo.PENALTY,  # 2016 revision notes: a point penalty after uma
        chombo_penalty=Decimal(-20),  # 2016: -20
        rounding=Rounding.EXACT,  # points to one decimal
        riichi_min_points=0,  # negative scores play on; no minimum (unverified)
        players=4,  # a four-player game, as the whole text
        tsumo_loss=TsumoLoss.ON,  # not used: four players pay every tsumo
    ),
}


# Three-player presets. What a platform's three-player game shares with its four-player one
# is read from that preset, so that a correction there reaches both.
_TENHOU, _TENHOU_EAST = PRESETS["tenhou"], PRESETS["tenhou-east"]
PRESETS["tenhou-sanma"] = Rules(
    start_points=35000,  # manual, 三麻: 35,000 点持ち; the spec's three-player logs
    return_points=40000,  # manual, 三麻: 40,000 返し; the logs' final points
    target_points=None,  # manual, 西入: nobody at 40,000 after South 3 plays on
    uma=_uma(20, 0, -20),  # the logs' final points: +20/0/-20
    oka=None,  # 3 x (40,000 - 35,000) / 1,000 = +15 to the top (the logs)
    length=Length.HANCHAN,  # 東南戦 (the south game)
    kiriage=_TENHOU.kiriage,  # as tenhou: 切り上げ満貫なし
    kazoe=_TENHOU.kazoe,  # as tenhou: 数え役満あり
    double_yakuman=_TENHOU.double_yakuman,  # as tenhou: 役満の複合あり
    multi_ron=_TENHOU.multi_ron,  # as tenhou: ダブロンあり (two others at most)
    multi_ron_honba=_TENHOU.multi_ron_honba,  # as tenhou: 積み棒は上家取り
    multi_ron_sticks=_TENHOU.multi_ron_sticks,  # as tenhou: 供託は上家取り
    pao_honba=_TENHOU.pao_honba,  # as tenhou: the liable player pays the honba
    pao_scope=_TENHOU.pao_scope,  # as tenhou (unverified)
    honba_value=200,  # the logs: 200 a honba on a ron, 100 from each payer at a tsumo
    noten_total=2000,  # the logs: ノーテン罰符 2,000 in all
    nagashi_mangan=_TENHOU.nagashi_mangan,  # as tenhou: 流し満貫あり
    abortive_draws=_TENHOU.abortive_draws,  # as tenhou: 九種九牌, 四開槓 (no 4th wind/riichi)
    bust=_TENHOU.bust,  # as tenhou: 0 点未満でトビ終了
    agari_yame=_TENHOU.agari_yame,  # as tenhou: オーラス親の和了止め
    tenpai_yame=_TENHOU.tenpai_yame,  # as tenhou: オーラス親の聴牌止め
    west_round=_TENHOU.west_round,  # as tenhou: 西入 sudden death, at most to West 3
    dealer_repeat_on_tenpai=_TENHOU.dealer_repeat_on_tenpai,  # as tenhou: 聴牌連荘
    leftover_sticks=_TENHOU.leftover_sticks,  # as tenhou: 供託はトップ取り
    ties=_TENHOU.ties,  # as tenhou: 同点は起家に近い方が上位
    chombo=_TENHOU.chombo,  # not applicable online
    chombo_penalty=_TENHOU.chombo_penalty,  # not applicable online
    rounding=_TENHOU.rounding,  # as tenhou: points to one decimal
    riichi_min_points=_TENHOU.riichi_min_points,  # as tenhou: 1000 点未満はリーチ不可
    players=3,  # 三麻: East, South and West
    tsumo_loss=TsumoLoss.ON,  # the logs: ツモ損, the North's share is not paid
)
PRESETS["tenhou-sanma-east"] = Rules(
    start_points=35000,  # as tenhou-sanma
    return_points=40000,  # as tenhou-sanma
    target_points=None,  # manual, 南入: nobody at 40,000 after East 3 plays on
    uma=_uma(20, 0, -20),  # as tenhou-sanma
    oka=None,  # as tenhou-sanma: +15
    length=Length.TONPUUSEN,  # 東風戦 (the east-only game)
    kiriage=_TENHOU_EAST.kiriage,  # as tenhou-east: 切り上げ満貫なし
    kazoe=_TENHOU_EAST.kazoe,  # as tenhou-east: 数え役満あり
    double_yakuman=_TENHOU_EAST.double_yakuman,  # as tenhou-east: 役満の複合あり
    multi_ron=_TENHOU_EAST.multi_ron,  # as tenhou-east: ダブロンあり
    multi_ron_honba=_TENHOU_EAST.multi_ron_honba,  # as tenhou-east: 積み棒は上家取り
    multi_ron_sticks=_TENHOU_EAST.multi_ron_sticks,  # as tenhou-east: 供託は上家取り
    pao_honba=_TENHOU_EAST.pao_honba,  # as tenhou-east
    pao_scope=_TENHOU_EAST.pao_scope,  # as tenhou-east (unverified)
    honba_value=200,  # as tenhou-sanma: 200 on a ron, 100 from each payer at a tsumo
    noten_total=2000,  # as tenhou-sanma: 2,000 in all
    nagashi_mangan=_TENHOU_EAST.nagashi_mangan,  # as tenhou-east: 流し満貫あり
    abortive_draws=_TENHOU_EAST.abortive_draws,  # as tenhou-east: 九種九牌, 四開槓
    bust=_TENHOU_EAST.bust,  # as tenhou-east: 0 点未満でトビ終了
    agari_yame=_TENHOU_EAST.agari_yame,  # as tenhou-east: オーラス (East 3) 親の和了止め
    tenpai_yame=_TENHOU_EAST.tenpai_yame,  # as tenhou-east: オーラス親の聴牌止め
    west_round=_TENHOU_EAST.west_round,  # as tenhou-east: 南入 sudden death, to South 3
    dealer_repeat_on_tenpai=_TENHOU_EAST.dealer_repeat_on_tenpai,  # as tenhou-east: 聴牌連荘
    leftover_sticks=_TENHOU_EAST.leftover_sticks,  # as tenhou-east: 供託はトップ取り
    ties=_TENHOU_EAST.ties,  # as tenhou-east: 同点は起家に近い方が上位
    chombo=_TENHOU_EAST.chombo,  # not applicable online
    chombo_penalty=_TENHOU_EAST.chombo_penalty,  # not applicable online
    rounding=_TENHOU_EAST.rounding,  # as tenhou-east
    riichi_min_points=_TENHOU_EAST.riichi_min_points,  # as tenhou-east
    players=3,  # 三麻: East, South and West
    tsumo_loss=TsumoLoss.ON,  # as tenhou-sanma: ツモ損
)
_MAHJONGSOUL, _MAHJONGSOUL_EAST = PRESETS["mahjongsoul"], PRESETS["mahjongsoul-east"]
PRESETS["mahjongsoul-sanma"] = Rules(
    start_points=35000,  # 三人麻雀: 配原 35,000
    return_points=35000,  # 三人麻雀: 35,000 点開始の 35,000 点返し
    target_points=40000,  # 三人麻雀: 一位必要点数 40,000 (南入 / 西入 until reached)
    uma=_uma(15, 0, -15),  # 三人麻雀: ウマ 15-0-15 (順位ウマのみ)
    oka=None,  # none: start and return are equal
    length=Length.HANCHAN,  # 東南戦 (the south game)
    kiriage=_MAHJONGSOUL.kiriage,  # as mahjongsoul: 切り上げ満貫なし (unverified)
    kazoe=_MAHJONGSOUL.kazoe,  # as mahjongsoul: 数え役満あり
    double_yakuman=_MAHJONGSOUL.double_yakuman,  # as mahjongsoul: ダブル役満あり
    multi_ron=_MAHJONGSOUL.multi_ron,  # 三人麻雀: ダブロンあり
    multi_ron_honba=_MAHJONGSOUL.multi_ron_honba,  # 三人麻雀: 積み棒は上家取り
    multi_ron_sticks=_MAHJONGSOUL.multi_ron_sticks,  # 三人麻雀: 供託は上家取り
    pao_honba=_MAHJONGSOUL.pao_honba,  # as mahjongsoul: 包の責任者が支払う
    pao_scope=_MAHJONGSOUL.pao_scope,  # as mahjongsoul: 包 only for the fed yakuman
    honba_value=200,  # a Mahjong Soul three-player log: 7,700 + 200 a honba (Akagi PR 115)
    noten_total=2000,  # 2,000 in all (riichienv-core's three-player game; unverified)
    nagashi_mangan=_MAHJONGSOUL.nagashi_mangan,  # as mahjongsoul: 流し満貫あり
    abortive_draws=_MAHJONGSOUL.abortive_draws,  # 三人麻雀: 途中流局は九種九牌・四槓散了のみ
    bust=_MAHJONGSOUL.bust,  # as mahjongsoul: トビあり
    agari_yame=_MAHJONGSOUL.agari_yame,  # as mahjongsoul: オーラス親の和了止めあり
    tenpai_yame=_MAHJONGSOUL.tenpai_yame,  # as mahjongsoul: オーラス親の聴牌止めあり
    west_round=_MAHJONGSOUL.west_round,  # 三人麻雀: 西入, at most to West 3
    dealer_repeat_on_tenpai=_MAHJONGSOUL.dealer_repeat_on_tenpai,  # as mahjongsoul: 聴牌連荘
    leftover_sticks=_MAHJONGSOUL.leftover_sticks,  # as mahjongsoul: 供託はトップ取り
    ties=_MAHJONGSOUL.ties,  # as mahjongsoul: 同点は起家に近い方が上位
    chombo=_MAHJONGSOUL.chombo,  # not applicable online
    chombo_penalty=_MAHJONGSOUL.chombo_penalty,  # not applicable online
    rounding=_MAHJONGSOUL.rounding,  # points to one decimal
    riichi_min_points=_MAHJONGSOUL.riichi_min_points,  # as mahjongsoul: 1000 点未満は不可
    players=3,  # 三人麻雀: 二萬から八萬を使わない三人打ち
    tsumo_loss=TsumoLoss.ON,  # 三人麻雀: 自摸損あり (子の満貫ツモは 2,000 + 4,000)
)
PRESETS["mahjongsoul-sanma-east"] = Rules(
    start_points=35000,  # as mahjongsoul-sanma: 配原 35,000
    return_points=35000,  # as mahjongsoul-sanma
    target_points=40000,  # 三人麻雀: 南入 until someone has 40,000
    uma=_uma(15, 0, -15),  # as mahjongsoul-sanma
    oka=None,  # none
    length=Length.TONPUUSEN,  # 東風戦 (the east-only game)
    kiriage=_MAHJONGSOUL_EAST.kiriage,  # as mahjongsoul-east (unverified)
    kazoe=_MAHJONGSOUL_EAST.kazoe,  # as mahjongsoul-east: 数え役満あり
    double_yakuman=_MAHJONGSOUL_EAST.double_yakuman,  # as mahjongsoul-east
    multi_ron=_MAHJONGSOUL_EAST.multi_ron,  # 三人麻雀: ダブロンあり
    multi_ron_honba=_MAHJONGSOUL_EAST.multi_ron_honba,  # 三人麻雀: 積み棒は上家取り
    multi_ron_sticks=_MAHJONGSOUL_EAST.multi_ron_sticks,  # 三人麻雀: 供託は上家取り
    pao_honba=_MAHJONGSOUL_EAST.pao_honba,  # as mahjongsoul-east
    pao_scope=_MAHJONGSOUL_EAST.pao_scope,  # as mahjongsoul-east
    honba_value=200,  # as mahjongsoul-sanma: 200 a honba on a ron
    noten_total=2000,  # as mahjongsoul-sanma (unverified)
    nagashi_mangan=_MAHJONGSOUL_EAST.nagashi_mangan,  # as mahjongsoul-east
    abortive_draws=_MAHJONGSOUL_EAST.abortive_draws,  # 三人麻雀: 九種九牌・四槓散了のみ
    bust=_MAHJONGSOUL_EAST.bust,  # as mahjongsoul-east: トビあり
    agari_yame=_MAHJONGSOUL_EAST.agari_yame,  # as mahjongsoul-east
    tenpai_yame=_MAHJONGSOUL_EAST.tenpai_yame,  # as mahjongsoul-east
    west_round=_MAHJONGSOUL_EAST.west_round,  # 三人麻雀: 南入, at most to South 3
    dealer_repeat_on_tenpai=_MAHJONGSOUL_EAST.dealer_repeat_on_tenpai,  # 聴牌連荘
    leftover_sticks=_MAHJONGSOUL_EAST.leftover_sticks,  # 供託はトップ取り
    ties=_MAHJONGSOUL_EAST.ties,  # 同点は起家に近い方が上位
    chombo=_MAHJONGSOUL_EAST.chombo,  # not applicable online
    chombo_penalty=_MAHJONGSOUL_EAST.chombo_penalty,  # not applicable online
    rounding=_MAHJONGSOUL_EAST.rounding,  # points to one decimal
    riichi_min_points=_MAHJONGSOUL_EAST.riichi_min_points,  # 1000 点未満はリーチ不可
    players=3,  # 三人麻雀
    tsumo_loss=TsumoLoss.ON,  # as mahjongsoul-sanma: 自摸損あり
)


@functools.cache
def preset_clauses() -> dict[str, dict[str, str]]:
    """{preset: {option: the source clause written beside its value above}}.

    Read from this file, so that the clauses are written once, beside the values.

    >>> preset_clauses()["ari-ari"]["kiriage"]
    'Figure 2: 4 han 30 fu pays 7,700, 3 han 60 fu 7,700'
    """
    source = Path(__file__).read_text(encoding="utf-8")
    comments = {
        token.start[0]: token.string.lstrip("#").strip()
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    }
    clauses: dict[str, dict[str, str]] = {}

    def read(key: ast.expr | None, call: ast.expr) -> None:
        assert isinstance(key, ast.Constant) and isinstance(call, ast.Call)
        clauses[key.value] = {
            kw.arg: comments.get(kw.value.end_lineno or 0, "")
            for kw in call.keywords
            if kw.arg is not None
        }

    for node in ast.parse(source).body:
        # The four-player presets in the dict, the three-player ones assigned after it.
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "PRESETS":
            assert isinstance(node.value, ast.Dict)
            for key, call in zip(node.value.keys, node.value.values, strict=True):
                read(key, call)
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Subscript)
            and getattr(node.targets[0].value, "id", "") == "PRESETS"
        ):
            read(node.targets[0].slice, node.value)
    return clauses


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
    "tsumo_loss": TsumoLoss,
}
_BOOLS = {name for name, f in _FIELDS.items() if f.type == "bool"}
_INTS = {name for name, f in _FIELDS.items() if f.type == "int"}


def option_names() -> list[str]:
    return list(_FIELDS)


def _to_decimal(name: str, value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise ScoringError(gettext_noop("option %(name)s must be a number"), name=repr(name))
    try:
        result = Decimal(str(value))
    except InvalidOperation:
        raise ScoringError(
            gettext_noop("option %(name)s must be a number"), name=repr(name)
        ) from None
    if not result.is_finite():
        raise ScoringError(gettext_noop("option %(name)s must be a number"), name=repr(name))
    return result


def _convert_option(name: str, value: Any) -> Any:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise ScoringError(
                gettext_noop("option %(name)s must be true or false"), name=repr(name)
            )
        return value
    if name in _INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoringError(
                gettext_noop("option %(name)s must be a whole number of points"), name=repr(name)
            )
        return value
    if name in _ENUMS:
        choices = [c.value for c in _ENUMS[name]]
        if value not in choices:
            raise ScoringError(
                gettext_noop("option %(name)s must be one of %(choices)s"),
                name=repr(name),
                choices=", ".join(choices),
            )
        return _ENUMS[name](value)
    if name == "uma":
        if not isinstance(value, list | tuple) or len(value) not in (3, 4):
            raise ScoringError(
                gettext_noop("option 'uma' must be a list of four numbers, 1st to 4th")
            )
        return tuple(_to_decimal("uma", v) for v in value)
    if name == "oka":
        return None if value is None else _to_decimal(name, value)
    if name == "target_points":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoringError(
                gettext_noop("option %(name)s must be a whole number of points"), name=repr(name)
            )
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
            raise ScoringError(
                gettext_noop("rules: unknown field %(key)s"), key=repr(sorted(unknown)[0])
            )
        preset = spec.get("preset")
        overrides = spec.get("overrides", {})
        if not isinstance(overrides, dict):
            raise ScoringError(
                gettext_noop("rules: 'overrides' must be an object of option: value")
            )
    else:
        raise ScoringError(
            gettext_noop('rules must be a preset name or {"preset": ..., "overrides": {...}}')
        )
    if preset not in PRESETS:
        raise ScoringError(
            gettext_noop("unknown rule preset %(preset)s; choose one of %(choices)s"),
            preset=repr(preset),
            choices=", ".join(sorted(PRESETS)),
        )
    base = PRESETS[preset]
    if not overrides:
        return base  # frozen: the preset itself, not a copy built and checked again
    try:
        key = (preset, json.dumps(overrides, sort_keys=True))
    except (TypeError, ValueError):
        key = None
    cached = _RESOLVED.get(key) if key else None
    if cached is not None and cached[0] is base:
        return cached[1]
    changes = {}
    for name, value in overrides.items():
        if name not in _FIELDS:
            raise ScoringError(gettext_noop("unknown rule option %(name)s"), name=repr(name))
        changes[name] = _convert_option(name, value)
    players = changes.get("players", base.players)
    if len(changes.get("uma", base.uma)) != players and players == 4:
        raise ScoringError(gettext_noop("option 'uma' must be a list of four numbers, 1st to 4th"))
    rules = dataclasses.replace(base, **changes)
    if key:
        if len(_RESOLVED) >= MAX_RESOLVED:
            _RESOLVED.clear()
        _RESOLVED[key] = (base, rules)
    return rules


# The rules of preset + overrides already resolved: every game of an event names the same
# ones, and building and checking a `Rules` costs more than replaying a short game's hand.
MAX_RESOLVED = 256
_RESOLVED: dict[tuple[str, str], tuple[Rules, Rules]] = {}


def engine_rules() -> dict[str, Any]:
    """Every option's kind and every preset's values, as JSON: what the browser's engine
    (static/js/engine.js, `TenbouEngine.load`) needs, so that it holds no preset table of
    its own.

    >>> data = engine_rules()
    >>> data["options"]["ties"], data["presets"]["ari-ari"]["uma"]
    ({'kind': 'choice', 'choices': ['seat_order', 'split']}, [30, 10, -10, -30])
    """
    options: dict[str, dict[str, Any]] = {}
    for name in _FIELDS:
        if name in _BOOLS:
            options[name] = {"kind": "bool"}
        elif name in _INTS:
            options[name] = {"kind": "int"}
        elif name in _ENUMS:
            options[name] = {"kind": "choice", "choices": [c.value for c in _ENUMS[name]]}
        elif name == "uma":
            options[name] = {"kind": "uma"}
        elif name == "target_points":
            options[name] = {"kind": "int", "optional": True}
        elif name == "oka":
            options[name] = {"kind": "decimal", "optional": True}
        else:
            options[name] = {"kind": "decimal"}
    return {
        "options": options,
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
    }

"""Tiles of a tenhou.net/6 JSON log, and what the `mahjong` library judges from them.

The log is read here (which tiles a seat holds, which calls it made); the hand is judged by
the `mahjong` library: HandCalculator for the fu of a win, Shanten for tenpai. This is the
only module of Tenbou that imports `mahjong`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mahjong.constants import CHUN, HAKU, HATSU
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld
from mahjong.shanten import Shanten
from mahjong.tile import TilesConverter

from scoring.errors import ScoringError, gettext_noop


def call_tiles(call: str, number: int | None = None) -> tuple[str, int, list[int]]:
    """A meld string ("c375336", "41p4141", "272727a27"): letter, called tile, all tiles."""
    found = re.fullmatch(r"((?:\d\d)*)([cpmak])(\d\d)((?:\d\d)*)", call)
    if not found:
        raise ScoringError(gettext_noop("unreadable call %(call)s"), hand=number, call=repr(call))
    before, letter, called, after = found.groups()
    digits = before + called + after
    tiles = [int(digits[i : i + 2]) for i in range(0, len(digits), 2)]
    return letter, int(called), tiles


def call_source(seat: int, call: str) -> int:
    """Whose discard a chi/pon/kan took: the letter's place says left, across or right."""
    place = call.index(next(c for c in call if c.isalpha())) // 2
    if "m" in call:
        offset = {0: 3, 1: 2, 3: 1}.get(place, 3)
    else:
        offset = {0: 3, 1: 2, 2: 1}.get(place, 3)
    return (seat + offset) % 4


def tile_kind(code: Any, number: int | None = None) -> int:
    """A tenhou.net/6 tile code (11..19 man, 21..29 pin, 31..39 sou, 41..47 honours, 51..53
    red fives) as one of 34 kinds: 0..8 man, 9..17 pin, 18..26 sou, 27..33 E S W N P F C."""
    if isinstance(code, int) and not isinstance(code, bool):
        if code in (51, 52, 53):
            return (code - 51) * 9 + 4
        suit, number = divmod(code, 10)
        if 1 <= suit <= 3 and 1 <= number <= 9:
            return (suit - 1) * 9 + number - 1
        if suit == 4 and 1 <= number <= 7:
            return 26 + number
    raise ScoringError(gettext_noop("unreadable tile %(tile)s"), hand=number, tile=repr(code))


# Yaku that come from how the hand was won, not from its tiles: the library has to be told,
# or a hand whose only yaku they are would have none.
_WIN_CONDITIONS = {
    "riichi": "is_riichi",
    "double_riichi": "is_daburu_riichi",
    "ippatsu": "is_ippatsu",
    "rinshan": "is_rinshan",
    "chankan": "is_chankan",
    "haitei": "is_haitei",
    "houtei": "is_houtei",
}


@dataclass(frozen=True)
class _Meld:
    kind: int  # the lowest tile's kind
    shape: str  # Meld.CHI, Meld.PON or Meld.KAN
    is_open: bool


@dataclass(frozen=True)
class Tiles:
    """A seat's hand at the end of a hand: concealed tile counts by kind, and melds."""

    counts: tuple[int, ...]
    melds: tuple[_Meld, ...]
    concealed_last: int  # the kind of the seat's last draw (a tsumo's winning tile)

    @classmethod
    def from_json(
        cls, haipai: list[Any], takes: list[Any], discards: list[Any], number: int
    ) -> Tiles:
        counts = [0] * 34
        melds: list[_Meld] = []
        last = -1

        def take(kind: int, n: int = 1) -> None:
            counts[kind] -= n
            if counts[kind] < 0:
                raise ScoringError(gettext_noop("the log's tiles do not add up"), hand=number)

        for code in haipai:
            counts[tile_kind(code, number)] += 1
        for index, value in enumerate(takes):
            if isinstance(value, str):
                letter, called, tiles = call_tiles(value, number)
                kinds = sorted(tile_kind(t, number) for t in tiles)
                rest = list(kinds)
                rest.remove(tile_kind(called, number))
                for kind in rest:
                    take(kind)
                shape = {"c": Meld.CHI, "p": Meld.PON, "m": Meld.KAN}.get(letter)
                if shape is None:
                    raise ScoringError(
                        gettext_noop("unreadable call %(call)s"), hand=number, call=repr(value)
                    )
                melds.append(_Meld(kinds[0], shape, True))
                last = -1
            else:
                last = tile_kind(value, number)
                counts[last] += 1
            if index >= len(discards):
                continue
            out = discards[index]
            if out == 0:
                continue  # the empty slot after an open kan
            if isinstance(out, str) and out.startswith("f"):
                # A North set aside (kita, "f44"): out of the hand, and the seat draws again.
                take(tile_kind(int(out[1:]) if out[1:].isdigit() else -1, number))
                continue
            if isinstance(out, str) and not out.startswith("r"):
                letter, called, tiles = call_tiles(out, number)
                kind = tile_kind(called, number)
                if letter == "a":
                    take(kind, 4)
                    melds.append(_Meld(kind, Meld.KAN, False))
                elif letter == "k":
                    take(kind)
                    pon = next((m for m in melds if m.shape == Meld.PON and m.kind == kind), None)
                    if pon is None:
                        raise ScoringError(
                            gettext_noop("an added kan %(call)s without its pon"),
                            hand=number,
                            call=repr(out),
                        )
                    melds[melds.index(pon)] = _Meld(kind, Meld.KAN, True)
                else:
                    raise ScoringError(
                        gettext_noop("unreadable discard %(tile)s"), hand=number, tile=repr(out)
                    )
                continue
            if isinstance(out, str):
                out = out[1:]
                out = int(out) if out.isdigit() else -1
            take(last if out == 60 else tile_kind(out, number))
        if sum(counts) + 3 * len(melds) not in (13, 14):
            raise ScoringError(gettext_noop("the log's tiles do not add up"), hand=number)
        return cls(tuple(counts), tuple(melds), last)

    def tenpai(self) -> bool:
        """Whether the concealed tiles wait on a tile the seat does not hold all four of."""
        counts = list(self.counts)
        # A seat with 14 tiles is not waiting (and Shanten wants 3n+1 tiles to call it tenpai).
        if sum(counts) % 3 != 1 or Shanten.calculate_shanten(counts) != Shanten.TENPAI_STATE:
            return False
        # Tenhou calls a hand noten when it waits only on tiles the seat holds all four of,
        # melds included; Shanten sees the concealed tiles alone, so the waits are checked.
        used = list(counts)
        for meld in self.melds:
            for kind in _meld_kinds(meld):
                used[kind] += 1
        for kind in range(34):
            if used[kind] < 4:
                counts[kind] += 1
                wins = Shanten.calculate_shanten(counts) == Shanten.AGARI_STATE
                counts[kind] -= 1
                if wins:
                    return True
        return False

    def fu(
        self,
        win: int,
        *,
        tsumo: bool,
        seat_wind: int,
        round_wind: int,
        yaku: list[str],
        yaku_han: int,
    ) -> int:
        """The fu of this winning hand, as Tenhou counts them: those of the reading that
        Tenhou scored, whose yaku are worth `yaku_han` (the han without dora)."""
        if not 0 <= win < 34:
            raise ScoringError(gettext_noop("the winning tile is not in the log"))
        tiles, melds, win_tile = self._tiles_136(win, tsumo=tsumo)
        config = HandConfig(
            is_tsumo=tsumo,
            player_wind=seat_wind,
            round_wind=round_wind,
            options=OptionalRules(has_open_tanyao=True),  # Tenhou plays kuitan
            **{flag: True for name, flag in _WIN_CONDITIONS.items() if name in yaku},
        )
        result = HandCalculator.estimate_hand_value(tiles, win_tile, melds, config=config)
        if not result.error and result.han == yaku_han:
            return result.fu
        # The library scores the reading of the tiles worth the most and, between readings
        # worth the same limit, the one with more han; Tenhou may have shown the other (tsumo
        # 111222333m: 4 han 40 fu with sanankou and a dora, or 5 han 30 fu with iipeikou and
        # chanta, both mangan), and the library cannot be asked for a reading by its han.
        # The reading left out has the more fu, so take the most fu of any reading, as this
        # module did before the library (and does for a win whose yaku the library misses).
        most = self._most_fu(tiles, melds, win_tile, config)
        if not most:
            raise ScoringError(gettext_noop("the winning hand's tiles do not form a complete hand"))
        return most

    @staticmethod
    def _most_fu(tiles: list[int], melds: list[Meld], win_tile: int, config: HandConfig) -> int:
        """The most fu of any reading of the tiles with any group the winning tile completes
        (0: the tiles do not form a complete hand)."""
        valued = [HAKU, HATSU, CHUN, config.player_wind, config.round_wind]
        open_sets = [meld.tiles_34 for meld in melds if meld.opened]
        most = 0
        for reading in HandDivider.divide_hand(TilesConverter.to_34_array(tiles), melds):
            concealed = list(reading)
            for tiles_34 in open_sets:
                concealed.remove(tiles_34)
            for group in concealed:
                if win_tile // 4 in group:
                    _, fu = FuCalculator.calculate_fu(
                        reading, win_tile, group, config, valued, melds
                    )
                    most = max(most, fu)
        return most

    def _tiles_136(self, win: int, *, tsumo: bool) -> tuple[list[int], list[Meld], int]:
        """The hand as the library takes it: every tile as a 136-id (kind * 4 + copy), the
        melds, and the winning tile's id (a ron's is added to the hand)."""
        copies = [0] * 34

        def ids(kind: int, n: int) -> list[int]:
            if copies[kind] + n > 4:
                raise ScoringError(gettext_noop("the log's tiles do not add up"))
            copies[kind] += n
            return list(range(4 * kind + copies[kind] - n, 4 * kind + copies[kind]))

        melds = [
            Meld(meld.shape, [i for kind in _meld_kinds(meld) for i in ids(kind, 1)], meld.is_open)
            for meld in self.melds
        ]
        tiles = [i for meld in melds for i in meld.tiles]
        for kind, count in enumerate(self.counts):
            tiles += ids(kind, count)
        if not tsumo:
            tiles += ids(win, 1)
        elif not self.counts[win]:
            raise ScoringError(gettext_noop("the winning hand's tiles do not form a complete hand"))
        return tiles, melds, 4 * win + copies[win] - 1


def _meld_kinds(meld: _Meld) -> list[int]:
    if meld.shape == Meld.CHI:
        return [meld.kind, meld.kind + 1, meld.kind + 2]
    return [meld.kind] * (4 if meld.shape == Meld.KAN else 3)

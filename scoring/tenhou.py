"""Tenhou game logs -> tenbou-game/1 records.

Reads both formats Tenhou hands out for one game: the tenhou.net/6 JSON (an object with
a `log` list) and the native mjlog XML (`<mjloggm>`), either one gzip-compressed or not.
The record says only what happened (riichi, wins with han/fu or yakuman, draws, aborts);
the engine derives every payment. The log's own point changes and final result are kept
beside the record, so a replay can be checked against them.

>>> game = convert_file("tests/data/tenhou/2019103023gm-00a9-0000-f90e0fe9.json")
>>> [(w["winner"], w["loser"], w["han"]) for w in game.record["hands"][3]["wins"]]
[(3, 2, 4), (1, 2, 6)]
"""

from __future__ import annotations

import gzip
import json
import re
import urllib.parse
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from mahjong.constants import CHUN, EAST, HAKU, HATSU
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld
from mahjong.shanten import Shanten
from mahjong.tile import TilesConverter

from .errors import ScoringError

TENTH = Decimal("0.1")

# Tenhou's yaku ids (mjlog `yaku` / `yakuman`), named as the tenhou.net/6 JSON names them.
YAKU_NAMES = (
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花",
    "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
    "自風 東", "自風 南", "自風 西", "自風 北",
    "場風 東", "場風 南", "場風 西", "場風 北",
    "役牌 白", "役牌 發", "役牌 中",
    "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順",
    "三色同刻", "三槓子", "対々和", "三暗刻", "小三元", "混老頭",
    "二盃口", "純全帯幺九", "混一色",
    "清一色",
    "人和",
    "天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色",
    "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈", "国士無双",
    "国士無双１３面", "大四喜", "小四喜", "四槓子",
    "ドラ", "裏ドラ", "赤ドラ",
)  # fmt: skip
DORA_NAMES = frozenset({"ドラ", "裏ドラ", "赤ドラ"})

# Abortive draws: the JSON result name (and the older spellings some tools write) and the
# mjlog RYUUKYOKU `type`, to the record's `reason`.
ABORTS_JSON = {
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四槓散了": "four_kans",
    "四開槓": "four_kans",
    "四家立直": "four_riichi",
    "三家和了": "triple_ron",
    "三家和": "triple_ron",
}
ABORTS_XML = {
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "kan4": "four_kans",
    "reach4": "four_riichi",
    "ron3": "triple_ron",
}

LOG_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}")
_HAN = re.compile(r"\((\d+)飜\)$")
_FU = re.compile(r"(\d+)符")
_PARTIAL_TOKEN = re.compile(r"[-+.\w]*\s*")


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


def convert(data: bytes | str, *, name: str = "") -> TenhouGame:
    """Convert one Tenhou log (JSON or mjlog XML, gzip or not) into a tenbou-game/1 record.

    `name` (a file name or URL) supplies the log id when the log itself has none.

    >>> convert(b"garbage")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: not a Tenhou log: neither JSON nor XML
    """
    if isinstance(data, bytes) and data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except EOFError:
            raise ScoringError("truncated log: the gzip data ends early") from None
        except (OSError, zlib.error):
            raise ScoringError("not a Tenhou log: broken gzip data") from None
    if isinstance(data, str):
        data = data.lstrip("\ufeff")
    head = data.lstrip()[:200]
    if isinstance(head, bytes):
        head = head.removeprefix(b"\xef\xbb\xbf").lstrip().decode("latin-1")
    if not head:
        raise ScoringError("not a Tenhou log: it is empty")
    if head[0] not in "{<":
        raise ScoringError("not a Tenhou log: neither JSON nor XML")
    try:
        if head.startswith("{"):
            return _from_json(_load_json(data), name)
        return _from_xml(_load_xml(data), name)
    except ScoringError:
        raise
    except (ArithmeticError, AttributeError, KeyError, IndexError, TypeError, ValueError) as err:
        # A log with the right outline but odd content somewhere: still the organiser's
        # file to fix, not a crash.
        raise ScoringError(f"unreadable Tenhou log ({type(err).__name__}: {err})") from None


def convert_file(path: str | Path) -> TenhouGame:
    """Read a Tenhou log file (`.json`, `.xml`, or either gzip-compressed) and convert it.

    >>> convert_file("tests/data/tenhou/2019021004gm-00a9-0000-e2f6516d.xml").log_id
    '2019021004gm-00a9-0000-e2f6516d'
    """
    path = Path(path)
    return convert(path.read_bytes(), name=path.name)


# --- common -------------------------------------------------------------------------------


def _rules(final_scores: list[int], match_points: list[Decimal], *, east_only: bool) -> Any:
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


def _log_id(name: str) -> str | None:
    found = LOG_ID.search(name or "")
    return found.group(0) if found else None


def _points(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(TENTH)


def _win_dict(
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


def _wins_hand(wins: list[dict[str, Any]], riichi: list[int], number: int) -> dict[str, Any]:
    tsumo = [w for w in wins if "loser" not in w]
    if tsumo and len(wins) > 1:
        raise ScoringError("a tsumo cannot share the hand with other wins", hand=number)
    if len({w.get("loser") for w in wins}) > 1:
        raise ScoringError("the wins of one hand have different discarders", hand=number)
    return {"result": "tsumo" if tsumo else "ron", "riichi": riichi, "wins": wins}


# --- tenhou.net/6 JSON -----------------------------------------------------------------


def _load_json(data: bytes | str) -> dict[str, Any]:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            # A file cut inside a multi-byte character fails here, not in the JSON parser.
            if err.end >= len(data):
                raise ScoringError("truncated log: the JSON ends early") from None
            raise ScoringError("not a Tenhou log: the JSON is not UTF-8 text") from None
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as err:
        # Cut short: the parser fails at the end, or inside the last string, number or word.
        if err.msg.startswith("Unterminated string") or _PARTIAL_TOKEN.fullmatch(
            err.doc[err.pos :]
        ):
            raise ScoringError("truncated log: the JSON ends early") from None
        raise ScoringError(
            f"not a Tenhou log: broken JSON at line {err.lineno} column {err.colno}"
        ) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        raise ScoringError("not a Tenhou log: a JSON object without a 'log' list")
    return doc


def _from_json(doc: dict[str, Any], name: str) -> TenhouGame:
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    disp = str(rule.get("disp", ""))
    names = doc.get("name")
    if disp.startswith("三") or (isinstance(names, list) and len(names) == 3):
        raise ScoringError("three-player logs are not supported")
    if not isinstance(names, list) or len(names) != 4:
        raise ScoringError("not a Tenhou log: 'name' must list four players")
    if names[3] == "":
        raise ScoringError("three-player logs are not supported")
    players = [str(n) for n in names]
    sc = doc.get("sc")
    if not isinstance(sc, list) or len(sc) != 8:
        raise ScoringError("truncated log: no final scores ('sc')")
    if not doc["log"]:
        raise ScoringError("truncated log: no hands")
    try:
        final_scores = [int(s) for s in sc[0::2]]
        match_points = [_points(p) for p in sc[1::2]]
    except (TypeError, ValueError, ArithmeticError):
        raise ScoringError("unreadable final result ('sc')") from None

    entries = [_JsonHand.parse(entry, number) for number, entry in enumerate(doc["log"], 1)]
    hands = []
    for entry in entries:
        hand, last_changes = entry.convert()
        hands.append(hand)
    # The log's change of a hand: the difference of consecutive start scores. The last hand
    # has no successor; its result leaves out the riichi sticks put out, so take them off.
    deltas = [
        [b - a for a, b in zip(this.scores, after.scores, strict=True)]
        for this, after in zip(entries, entries[1:], strict=False)
    ]
    riichi = hands[-1]["riichi"]
    deltas.append([d - 1000 * (seat in riichi) for seat, d in enumerate(last_changes)])

    east_only = len(disp) > 1 and disp[1] == "東"
    return TenhouGame(
        record={
            "format": "tenbou-game/1",
            "rules": _rules(final_scores, match_points, east_only=east_only),
            "players": players,
            "hands": hands,
        },
        log_id=str(doc["ref"]) if doc.get("ref") else _log_id(name),
        players=players,
        hand_deltas=deltas,
        final_scores=final_scores,
        match_points=match_points,
        ruleset=disp,
    )


@dataclass(frozen=True)
class _JsonHand:
    """One entry of the JSON `log`: [[round, honba, sticks], scores, dora, ura,
    (haipai, draws, discards) x 4, result]. Draws hold calls too; discards hold riichi
    ("r" + tile), concealed and added kans; 60 is the tile just drawn."""

    number: int  # counted from 1
    round_index: int  # 0 = E1 ... 4 = S1 ...
    scores: list[int]
    haipai: list[list[Any]]
    takes: list[list[Any]]
    discards: list[list[Any]]
    result: list[Any]

    @classmethod
    def parse(cls, entry: Any, number: int) -> _JsonHand:
        if not isinstance(entry, list) or len(entry) < 17:
            found = len(entry) if isinstance(entry, list) else 0
            raise ScoringError(
                f"truncated log: a hand needs 17 fields, this one has {found}", hand=number
            )
        try:
            hand = cls(
                number,
                int(entry[0][0]),
                [int(s) for s in entry[1]],
                [list(entry[4 + 3 * p]) for p in range(4)],
                [list(entry[5 + 3 * p]) for p in range(4)],
                [list(entry[6 + 3 * p]) for p in range(4)],
                entry[16],
            )
        except (KeyError, TypeError, ValueError, IndexError):
            raise ScoringError("malformed hand in the log", hand=number) from None
        if len(hand.scores) != 4:
            raise ScoringError("malformed hand in the log: four scores expected", hand=number)
        if not isinstance(hand.result, list) or not hand.result:
            raise ScoringError("truncated log: the hand has no result", hand=number)
        return hand

    @property
    def dealer(self) -> int:
        return self.round_index % 4

    def fail(self, message: str) -> ScoringError:
        return ScoringError(message, hand=self.number)

    def convert(self) -> tuple[dict[str, Any], list[int]]:
        """The record's hand, and the result's point changes (riichi sticks left out)."""
        kind = self.result[0]
        rest = self.result[1:]
        if kind == "和了":
            return self._wins(rest)
        if kind in ("流局", "全員聴牌", "全員不聴"):
            changes = self._changes(rest[0]) if rest else [0, 0, 0, 0]
            if kind == "全員聴牌":
                tenpai = [0, 1, 2, 3]
            else:
                # Noten payments: the tenpai seats are the ones that receive.
                tenpai = [seat for seat, d in enumerate(changes) if d > 0]
            return {"result": "draw", "riichi": self._riichi(None), "tenpai": tenpai}, changes
        if kind == "流し満貫":
            payments = [self._changes(r) for r in rest if isinstance(r, list)]
            if not payments:
                raise self.fail("nagashi mangan without its payments")
            changes = [sum(col) for col in zip(*payments, strict=True)]
            nagashi = sorted({s for p in payments for s, d in enumerate(p) if d > 0})
            hand = {
                "result": "nagashi",
                "riichi": self._riichi(None),
                "nagashi": nagashi,
                # The JSON does not say who was tenpai: read it from the tiles.
                "tenpai": [seat for seat in range(4) if self._tiles(seat).tenpai()],
            }
            return hand, changes
        if kind in ABORTS_JSON:
            reason = ABORTS_JSON[kind]
            ronned = self._last_discarder() if reason == "triple_ron" else None
            hand = {"result": "abort", "riichi": self._riichi(ronned), "reason": reason}
            return hand, [0, 0, 0, 0]
        raise self.fail(f"unknown result {kind!r}")

    def _changes(self, value: Any) -> list[int]:
        if not isinstance(value, list) or len(value) != 4:
            raise self.fail("malformed result: four point changes expected")
        try:
            return [int(v) for v in value]
        except (TypeError, ValueError):
            raise self.fail("malformed result: point changes must be numbers") from None

    def _riichi(self, ronned: int | None) -> list[int]:
        """Seats whose riichi stick went on the table.

        A declaration is a discard written "r..."; when it is the last discard of the seat
        that was ronned (`ronned`), the ron took the declaration tile and no stick was put out.
        """
        seats = []
        for seat, discards in enumerate(self.discards):
            declared = [d for d in discards if isinstance(d, str) and d.startswith("r")]
            if not declared:
                continue
            last = discards[-1]
            if seat == ronned and isinstance(last, str) and last.startswith("r"):
                continue
            seats.append(seat)
        return seats

    def _wins(self, rest: list[Any]) -> tuple[dict[str, Any], list[int]]:
        if not rest or len(rest) % 2:
            raise self.fail("malformed win: point changes and win details expected in pairs")
        changes = [0, 0, 0, 0]
        wins = []
        for payment, info in zip(rest[0::2], rest[1::2], strict=True):
            changes = [a + b for a, b in zip(changes, self._changes(payment), strict=True)]
            wins.append(self._win(info))
        loser = wins[0].get("loser")
        return _wins_hand(wins, self._riichi(loser), self.number), changes

    def _win(self, info: Any) -> dict[str, Any]:
        if (
            not isinstance(info, list)
            or len(info) < 4
            or not all(isinstance(x, int) and 0 <= x <= 3 for x in info[:3])
        ):
            raise self.fail("malformed win: [winner, from, liable, points, yaku...] expected")
        winner, source, liable, text = info[:4]
        han = yakuman = dora = 0
        yaku = []
        for item in info[4:]:
            item = str(item)
            yaku_name, _, _ = item.partition("(")
            if item.endswith("(役満)"):
                yakuman += 1
                yaku.append(yaku_name)
                continue
            found = _HAN.search(item)
            if not found:
                raise self.fail(f"unreadable yaku {item!r}")
            value = int(found.group(1))
            han += value
            if value:
                yaku.append(yaku_name)
            if yaku_name in DORA_NAMES:
                dora += value
        if not yakuman and han == 0:
            raise self.fail("a win without yaku")
        tsumo = winner == source
        fu = None
        if not yakuman and han <= 4:
            found = _FU.search(str(text))
            if found:
                fu = int(found.group(1))
            else:
                # A limit hand of 4 han or less (4 han 40 fu and up): the text only says
                # "満貫", but the tiles tell the fu.
                tiles = self._tiles(winner)
                win_tile = tiles.concealed_last if tsumo else self._ronned_tile(source)
                try:
                    fu = tiles.fu(
                        win_tile,
                        tsumo=tsumo,
                        seat_wind=EAST + (winner - self.dealer) % 4,
                        round_wind=EAST + self.round_index // 4,
                        yaku=yaku,
                        yaku_han=han - dora,
                    )
                except ScoringError as err:
                    raise err.in_hand(self.number) from None
        return _win_dict(
            winner,
            None if tsumo else source,
            han=han,
            fu=fu,
            yakuman=yakuman,
            pao=None if liable == winner else liable,
            yaku=yaku,
            dora=dora,
            # Chi, pon and open kan are written among the draws; an added kan needs a pon.
            is_open=any(isinstance(t, str) for t in self.takes[winner]),
        )

    # --- tiles ---

    def _tiles(self, seat: int) -> _Tiles:
        return _Tiles.from_json(self.haipai[seat], self.takes[seat], self.discards[seat], self)

    def _discarded_kind(self, seat: int, index: int) -> int:
        """The kind of the tile in discard slot `index` of `seat` (60: the tile just drawn)."""
        value = self.discards[seat][index]
        if isinstance(value, str):
            value = value.removeprefix("r")
            if not value.isdigit():
                return _kind(_call_tiles(value, self)[1], self)
            value = int(value)
        if value == 60:
            value = self.takes[seat][index]
        return _kind(value, self)

    def _ronned_tile(self, loser: int) -> int:
        if not self.discards[loser]:
            raise self.fail(f"seat {loser} is ronned but never discarded")
        return self._discarded_kind(loser, len(self.discards[loser]) - 1)

    def _last_discarder(self) -> int | None:
        """Whose discard (or added kan) was the last of the hand: replays the turn order.

        Each seat's n-th draw or call goes with its n-th discard slot; a call in a seat's
        draws means it takes the discard that was just made.
        """
        pos = [0, 0, 0, 0]
        seat = self.dealer
        last = None
        while pos[seat] < len(self.takes[seat]) and pos[seat] < len(self.discards[seat]):
            index = pos[seat]
            pos[seat] += 1
            value = self.discards[seat][index]
            last = seat
            if value == 0 or (isinstance(value, str) and not value.startswith("r")):
                continue  # a kan: the same seat draws again
            tile = self._discarded_kind(seat, index)
            claimer = self._claimer(seat, tile, pos)
            seat = (seat + 1) % 4 if claimer is None else claimer
        return last

    def _claimer(self, seat: int, tile: int, pos: list[int]) -> int | None:
        best = None
        for other in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4):
            if pos[other] >= len(self.takes[other]):
                continue
            call = self.takes[other][pos[other]]
            if not isinstance(call, str):
                continue
            letter, called, _ = _call_tiles(call, self)
            if _call_source(other, call) == seat and _kind(called, self) == tile:
                # A pon or kan goes before a chi of the same discard.
                if best is None or letter != "c":
                    best = other
        return best


def _call_tiles(call: str, hand: _JsonHand) -> tuple[str, int, list[int]]:
    """A meld string ("c375336", "41p4141", "272727a27"): letter, called tile, all tiles."""
    found = re.fullmatch(r"((?:\d\d)*)([cpmak])(\d\d)((?:\d\d)*)", call)
    if not found:
        raise hand.fail(f"unreadable call {call!r}")
    before, letter, called, after = found.groups()
    digits = before + called + after
    tiles = [int(digits[i : i + 2]) for i in range(0, len(digits), 2)]
    return letter, int(called), tiles


def _call_source(seat: int, call: str) -> int:
    """Whose discard a chi/pon/kan took: the letter's place says left, across or right."""
    place = call.index(next(c for c in call if c.isalpha())) // 2
    if "m" in call:
        offset = {0: 3, 1: 2, 3: 1}.get(place, 3)
    else:
        offset = {0: 3, 1: 2, 2: 1}.get(place, 3)
    return (seat + offset) % 4


def _kind(code: Any, hand: _JsonHand | None = None) -> int:
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
    message = f"unreadable tile {code!r}"
    raise hand.fail(message) if hand else ScoringError(message)


# --- hands from tiles ----------------------------------------------------------------------
#
# The log is read here (which tiles a seat holds, which calls it made); the hand is judged by
# the `mahjong` library: HandCalculator for the fu of a win, Shanten for tenpai.

# Yaku that come from how the hand was won, not from its tiles: the library has to be told,
# or a hand whose only yaku they are would have none.
_WIN_CONDITIONS = {
    "立直": "is_riichi",
    "両立直": "is_daburu_riichi",
    "一発": "is_ippatsu",
    "嶺上開花": "is_rinshan",
    "槍槓": "is_chankan",
    "海底摸月": "is_haitei",
    "河底撈魚": "is_houtei",
}


@dataclass(frozen=True)
class _Meld:
    kind: int  # the lowest tile's kind
    shape: str  # Meld.CHI, Meld.PON or Meld.KAN
    is_open: bool


@dataclass(frozen=True)
class _Tiles:
    """A seat's hand at the end of a hand: concealed tile counts by kind, and melds."""

    counts: tuple[int, ...]
    melds: tuple[_Meld, ...]
    concealed_last: int  # the kind of the seat's last draw (a tsumo's winning tile)

    @classmethod
    def from_json(
        cls, haipai: list[Any], takes: list[Any], discards: list[Any], hand: _JsonHand
    ) -> _Tiles:
        counts = [0] * 34
        melds: list[_Meld] = []
        last = -1

        def take(kind: int, n: int = 1) -> None:
            counts[kind] -= n
            if counts[kind] < 0:
                raise hand.fail("the log's tiles do not add up")

        for code in haipai:
            counts[_kind(code, hand)] += 1
        for index, value in enumerate(takes):
            if isinstance(value, str):
                letter, called, tiles = _call_tiles(value, hand)
                kinds = sorted(_kind(t, hand) for t in tiles)
                rest = list(kinds)
                rest.remove(_kind(called, hand))
                for kind in rest:
                    take(kind)
                shape = {"c": Meld.CHI, "p": Meld.PON, "m": Meld.KAN}.get(letter)
                if shape is None:
                    raise hand.fail(f"unreadable call {value!r}")
                melds.append(_Meld(kinds[0], shape, True))
                last = -1
            else:
                last = _kind(value, hand)
                counts[last] += 1
            if index >= len(discards):
                continue
            out = discards[index]
            if out == 0:
                continue  # the empty slot after an open kan
            if isinstance(out, str) and not out.startswith("r"):
                letter, called, tiles = _call_tiles(out, hand)
                kind = _kind(called, hand)
                if letter == "a":
                    take(kind, 4)
                    melds.append(_Meld(kind, Meld.KAN, False))
                elif letter == "k":
                    take(kind)
                    pon = next((m for m in melds if m.shape == Meld.PON and m.kind == kind), None)
                    if pon is None:
                        raise hand.fail(f"an added kan {out!r} without its pon")
                    melds[melds.index(pon)] = _Meld(kind, Meld.KAN, True)
                else:
                    raise hand.fail(f"unreadable discard {out!r}")
                continue
            if isinstance(out, str):
                out = out[1:]
                out = int(out) if out.isdigit() else -1
            take(last if out == 60 else _kind(out, hand))
        if sum(counts) + 3 * len(melds) not in (13, 14):
            raise hand.fail("the log's tiles do not add up")
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
            raise ScoringError("the winning tile is not in the log")
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
            raise ScoringError("the winning hand's tiles do not form a complete hand")
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
                raise ScoringError("the log's tiles do not add up")
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
            raise ScoringError("the winning hand's tiles do not form a complete hand")
        return tiles, melds, 4 * win + copies[win] - 1


def _meld_kinds(meld: _Meld) -> list[int]:
    if meld.shape == Meld.CHI:
        return [meld.kind, meld.kind + 1, meld.kind + 2]
    return [meld.kind] * (4 if meld.shape == Meld.KAN else 3)


# --- mjlog XML -----------------------------------------------------------------------------


def _load_xml(data: bytes | str) -> ET.Element:
    try:
        root = ET.fromstring(data)
    except ET.ParseError as err:
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        text = text.lstrip("\ufeff \t\r\n")
        if ("<mjloggm" in text or "<mjloggm".startswith(text)) and "</mjloggm>" not in text:
            raise ScoringError("truncated log: the XML ends early") from None
        raise ScoringError(f"not a Tenhou log: broken XML ({err})") from None
    if root.tag != "mjloggm":
        raise ScoringError(f"not a Tenhou log: XML whose root is <{root.tag}>, not <mjloggm>")
    return root


def _ints(element: ET.Element, attribute: str, hand: int | None = None) -> list[int]:
    value = element.get(attribute)
    if value is None:
        raise ScoringError(f"<{element.tag}> without its {attribute!r}", hand=hand)
    try:
        return [int(v) for v in value.split(",")] if value else []
    except ValueError:
        raise ScoringError(f"<{element.tag}> has an unreadable {attribute!r}", hand=hand) from None


def _rule_name(flags: int) -> str:
    """Tenhou's short rule name from the GO `type` bits (169 -> "鳳南喰赤")."""
    room = ("般", "上", "特", "鳳")[bool(flags & 0x20) * 2 + bool(flags & 0x80)]
    return (
        ("三" if flags & 0x10 else "")
        + room
        + ("南" if flags & 0x08 else "東")
        + ("" if flags & 0x04 else "喰")
        + ("" if flags & 0x02 else "赤")
        + ("速" if flags & 0x40 else "")
    )


def _from_xml(root: ET.Element, name: str) -> TenhouGame:
    players: list[str] | None = None
    flags: int | None = None
    hands: list[dict[str, Any]] = []
    deltas: list[list[int]] = []
    owari: list[str] | None = None
    start: list[int] | None = None  # the scores at the current INIT
    riichi: list[int] = []
    wins: list[dict[str, Any]] = []
    after: list[int] | None = None
    number = 0

    def close_hand() -> None:
        if start is None:
            return
        if after is None:
            raise ScoringError("truncated log: the hand has no result", hand=number)
        if wins:
            hands.append(_wins_hand(list(wins), sorted(riichi), number))
        deltas.append([a - b for a, b in zip(after, start, strict=True)])

    for element in root:
        tag = element.tag
        if tag == "GO":
            flags = int(element.get("type", "0"))
            if flags & 0x10:
                raise ScoringError("three-player logs are not supported")
        elif tag == "UN" and players is None and element.get("n0") is not None:
            names = [urllib.parse.unquote(element.get(f"n{i}", "")) for i in range(4)]
            if not names[3]:
                raise ScoringError("three-player logs are not supported")
            players = names
        elif tag == "INIT":
            close_hand()
            number += 1
            start = [t * 100 for t in _ints(element, "ten", number)]
            if len(start) != 4:
                raise ScoringError("three-player logs are not supported")
            riichi, wins, after = [], [], None
        elif start is None:
            continue
        elif tag == "REACH" and element.get("step") == "2":
            riichi.append(int(element.get("who", "0")))
        elif tag == "AGARI":
            wins.append(_xml_win(element, number))
            after = _after(element, number)
        elif tag == "RYUUKYOKU":
            if wins:
                raise ScoringError("a draw after a win in the same hand", hand=number)
            hands.append(_xml_draw(element, sorted(riichi), number))
            after = _after(element, number)
        if tag in ("AGARI", "RYUUKYOKU") and element.get("owari"):
            owari = element.get("owari", "").split(",")
    close_hand()

    if players is None:
        raise ScoringError("not a Tenhou log: no player names (<UN>)")
    if not hands:
        raise ScoringError("truncated log: no hands")
    if owari is None or len(owari) != 8:
        raise ScoringError("truncated log: no final result ('owari')")
    try:
        final_scores = [int(s) * 100 for s in owari[0::2]]
        match_points = [_points(p) for p in owari[1::2]]
    except (ValueError, ArithmeticError):
        raise ScoringError("unreadable final result ('owari')") from None
    east_only = flags is not None and not flags & 0x08
    return TenhouGame(
        record={
            "format": "tenbou-game/1",
            "rules": _rules(final_scores, match_points, east_only=east_only),
            "players": players,
            "hands": hands,
        },
        log_id=_log_id(name),
        players=players,
        hand_deltas=deltas,
        final_scores=final_scores,
        match_points=match_points,
        ruleset=_rule_name(flags) if flags is not None else "",
    )


def _after(element: ET.Element, number: int) -> list[int]:
    """The scores after a result: `sc` is (score, change) pairs in hundreds."""
    sc = _ints(element, "sc", number)
    if len(sc) != 8:
        raise ScoringError("three-player logs are not supported")
    return [(sc[i] + sc[i + 1]) * 100 for i in range(0, 8, 2)]


def _xml_win(element: ET.Element, number: int) -> dict[str, Any]:
    winner = int(element.get("who", "-1"))
    source = int(element.get("fromWho", "-1"))
    if not (0 <= winner <= 3 and 0 <= source <= 3):
        raise ScoringError("<AGARI> with an unreadable winner", hand=number)
    ten = _ints(element, "ten", number)
    if len(ten) != 3:
        raise ScoringError("<AGARI> with an unreadable 'ten'", hand=number)
    fu = ten[0]
    yaku: list[str] = []
    han = dora = 0
    pairs = _ints(element, "yaku", number) if element.get("yaku") else []
    for yaku_id, value in zip(pairs[0::2], pairs[1::2], strict=True):
        yaku_name = _yaku_name(yaku_id, number)
        han += value
        if value:
            yaku.append(yaku_name)
        if yaku_name in DORA_NAMES:
            dora += value
    yakuman_ids = _ints(element, "yakuman", number) if element.get("yakuman") else []
    yaku += [_yaku_name(y, number) for y in yakuman_ids]
    if not yakuman_ids and han == 0:
        raise ScoringError("a win without yaku", hand=number)
    melds = _ints(element, "m", number) if element.get("m") else []
    pao = element.get("paoWho")
    return _win_dict(
        winner,
        None if source == winner else source,
        han=han,
        fu=fu,
        yakuman=len(yakuman_ids),
        pao=int(pao) if pao is not None else None,
        yaku=yaku,
        dora=dora,
        # An mjlog meld is closed only as a concealed kan: no chi/pon/added-kan bits, no
        # player it was called from.
        is_open=any(m & 0x3F for m in melds),
    )


def _yaku_name(yaku_id: int, number: int) -> str:
    if not 0 <= yaku_id < len(YAKU_NAMES):
        raise ScoringError(f"unknown yaku id {yaku_id}", hand=number)
    return YAKU_NAMES[yaku_id]


def _xml_draw(element: ET.Element, riichi: list[int], number: int) -> dict[str, Any]:
    kind = element.get("type")
    # An exhaustive draw shows the hands of the tenpai seats (hai0..hai3).
    tenpai = [seat for seat in range(4) if element.get(f"hai{seat}") is not None]
    if kind is None:
        return {"result": "draw", "riichi": riichi, "tenpai": tenpai}
    if kind == "nm":
        sc = _ints(element, "sc", number)
        nagashi = [seat for seat in range(4) if sc[2 * seat + 1] > 0]
        return {"result": "nagashi", "riichi": riichi, "nagashi": nagashi, "tenpai": tenpai}
    if kind in ABORTS_XML:
        return {"result": "abort", "riichi": riichi, "reason": ABORTS_XML[kind]}
    raise ScoringError(f"unknown result {kind!r}", hand=number)

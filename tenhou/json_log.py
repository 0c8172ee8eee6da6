"""The tenhou.net/6 JSON log: an object whose `log` lists every hand, scores in `sc`.

Tenhou writes it, and so do the common Mahjong Soul converters, with Mahjong Soul's own
names for rooms and yaku and a few habits of their own: a draw at which all four (or none)
were tenpai is a bare 流局 with no payments, a double yakuman may be one (役満) item whose
multiple shows only in the points, and aborts are spelt 四開槓 and 三家和.

A three-player game (sanma) keeps the arrays of four seats with the fourth empty: an empty
fourth name, a zero fourth score and point change, no tiles for seat 3. A North set aside
(kita, 抜きドラ) is written "f44" among the seat's discards, and its dora as the 抜きドラ item.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from mahjong.constants import EAST

from scoring.errors import ScoringError, gettext_noop
from scoring.rules import resolve_rules

from . import names, platforms
from .game import (
    TenhouGame,
    distinct_names,
    log_id_from_name,
    log_id_from_ref,
    match_points_of,
    record_rules,
    seats_of,
    win_dict,
    wins_hand,
)
from .limits import check_json_depth
from .tiles import Tiles, call_source, call_tiles, tile_kind

# Abortive draws: the JSON result name (and the older spellings some tools write), to the
# record's `reason`.
ABORTS_JSON = {
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四槓散了": "four_kans",
    "四開槓": "four_kans",
    "四家立直": "four_riichi",
    "三家和了": "triple_ron",
    "三家和": "triple_ron",
}

_HAN = re.compile(r"\((\d+)飜\)$")
_FU = re.compile(r"(\d+)符")
# The points of a win: "32000点" (ron), "8000-16000点" (tsumo: each non-dealer, the
# dealer), "16000点∀" (the dealer's tsumo: each player).
_POINTS = re.compile(r"(\d+)(?:-(\d+))?点(∀?)")
_PARTIAL_TOKEN = re.compile(r"[-+.\w]*\s*")


def load_json(data: bytes | str) -> dict[str, Any]:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            # A file cut inside a multi-byte character fails here, not in the JSON parser.
            if err.end >= len(data):
                raise ScoringError(gettext_noop("truncated log: the JSON ends early")) from None
            raise ScoringError(
                gettext_noop("not a Tenhou log: the JSON is not UTF-8 text")
            ) from None
    check_json_depth(data)
    try:
        doc = json.loads(data)
    except RecursionError:  # only if the depth check above were loosened
        raise ScoringError(gettext_noop("not a Tenhou log: the JSON is nested too deep")) from None
    except json.JSONDecodeError as err:
        # Cut short: the parser fails at the end, or inside the last string, number or word.
        if err.msg.startswith("Unterminated string") or _PARTIAL_TOKEN.fullmatch(
            err.doc[err.pos :]
        ):
            raise ScoringError(gettext_noop("truncated log: the JSON ends early")) from None
        raise ScoringError(
            gettext_noop("not a Tenhou log: broken JSON at line %(line)s column %(column)s"),
            line=err.lineno,
            column=err.colno,
        ) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        raise ScoringError(gettext_noop("not a Tenhou log: a JSON object without a 'log' list"))
    return doc


def from_json(doc: dict[str, Any], name: str, rules: Any = None) -> TenhouGame:
    """The game of a tenhou.net/6 JSON log; `rules` (a record's `rules` value), when given,
    are the record's rules, as for a log that names no platform."""
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    disp = str(rule.get("disp", ""))
    names = doc.get("name")
    if not isinstance(names, list) or len(names) not in (3, 4):
        raise ScoringError(gettext_noop("not a Tenhou log: 'name' must list four players"))
    seats = seats_of(names)
    if seats == 4 and disp.startswith("三"):
        raise ScoringError(
            gettext_noop(
                "the rule name %(ruleset)s is a three-player game's, but the log names four players"
            ),
            ruleset=repr(disp),
        )
    players = distinct_names([str(n) for n in names[:seats]])
    platform = platforms.platform_of(disp, str(doc.get("ref") or ""))
    length = _length(disp, platform, rules)
    sc = doc.get("sc")
    if not isinstance(sc, list) or len(sc) not in (2 * seats, 8):
        raise ScoringError(gettext_noop("truncated log: no final scores ('sc')"))
    if not doc["log"]:
        raise ScoringError(gettext_noop("truncated log: no hands"))
    try:
        final_scores = [int(s) for s in sc[0::2]][:seats]
        match_points = [match_points_of(p) for p in sc[1::2]][:seats]
    except (TypeError, ValueError, ArithmeticError):
        raise ScoringError(gettext_noop("unreadable final result ('sc')")) from None

    entries = [_JsonHand.parse(entry, number, seats) for number, entry in enumerate(doc["log"], 1)]
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

    return TenhouGame(
        record={
            "format": "tenbou-game/1",
            "rules": record_rules(platform, length, final_scores, match_points, rules, seats),
            "players": players,
            "hands": hands,
        },
        log_id=log_id_from_ref(doc.get("ref")) or log_id_from_name(name),
        players=players,
        hand_deltas=deltas,
        final_scores=final_scores,
        match_points=match_points,
        ruleset=disp,
        platform=platform,
        length=length,
        seats=seats,
    )


def _length(disp: str, platform: str | None, rules: Any) -> str:
    """The length the rule name says; for a log that names no platform and no length,
    that of the rules it is converted under (a South game without them)."""
    if platform is not None or any(w in disp for w in ("東", "南", "East", "South")):
        return platforms.length_of(disp, platform)
    if rules is not None:
        return resolve_rules(rules).length.value
    return platforms.HANCHAN


@dataclass(frozen=True)
class _JsonHand:
    """One entry of the JSON `log`: [[round, honba, sticks], scores, dora, ura,
    (haipai, draws, discards) x 4, result]. Draws hold calls too; discards hold riichi
    ("r" + tile), concealed and added kans; 60 is the tile just drawn."""

    number: int  # counted from 1
    # 0 = E1 ... 4 = S1 ...; three players count four a wind too: 0 = E1, 2 = E3, 4 = S1.
    round_index: int
    seats: int  # 4, or 3 in a three-player game
    scores: list[int]
    haipai: list[list[Any]]
    takes: list[list[Any]]
    discards: list[list[Any]]
    result: list[Any]

    @classmethod
    def parse(cls, entry: Any, number: int, seats: int = 4) -> _JsonHand:
        if not isinstance(entry, list) or len(entry) < 17:
            found = len(entry) if isinstance(entry, list) else 0
            raise ScoringError(
                gettext_noop("truncated log: a hand needs 17 fields, this one has %(found)s"),
                hand=number,
                found=found,
            )
        try:
            hand = cls(
                number,
                int(entry[0][0]),
                seats,
                [int(s) for s in entry[1]],
                [list(entry[4 + 3 * p]) for p in range(4)],
                [list(entry[5 + 3 * p]) for p in range(4)],
                [list(entry[6 + 3 * p]) for p in range(4)],
                entry[16],
            )
        except (KeyError, TypeError, ValueError, IndexError):
            raise ScoringError(gettext_noop("malformed hand in the log"), hand=number) from None
        if len(hand.scores) != 4 and (seats == 4 or len(hand.scores) != 3):
            raise ScoringError(
                gettext_noop("malformed hand in the log: four scores expected"), hand=number
            )
        if seats == 3:
            if hand.scores[3:] not in ([], [0]) or hand.round_index % 4 == 3:
                raise ScoringError(
                    gettext_noop(
                        "malformed hand in the log: a three-player hand has a fourth seat"
                    ),
                    hand=number,
                )
            hand = replace(hand, scores=hand.scores[:3])
        if not isinstance(hand.result, list) or not hand.result:
            raise ScoringError(gettext_noop("truncated log: the hand has no result"), hand=number)
        return hand

    @property
    def dealer(self) -> int:
        return self.round_index % 4  # E1 = 0, E2 = 1, E3 = 2 (and E4 = 3 with four)

    def fail(self, template: str, **params: Any) -> ScoringError:
        return ScoringError(template, hand=self.number, **params)

    def convert(self) -> tuple[dict[str, Any], list[int]]:
        """The record's hand, and the result's point changes (riichi sticks left out)."""
        kind = self.result[0]
        rest = self.result[1:]
        if kind == "和了":
            return self._wins(rest)
        if kind in ("流局", "全員聴牌", "全員不聴"):
            changes = self._changes(rest[0]) if rest else [0] * self.seats
            if kind == "全員聴牌":
                tenpai = list(range(self.seats))
            elif kind == "全員不聴":
                tenpai = []
            elif any(changes):
                # Noten payments: the tenpai seats are the ones that receive.
                tenpai = [seat for seat, d in enumerate(changes) if d > 0]
            else:
                # Nothing paid: all four were tenpai, or none. Tenhou says which; Mahjong
                # Soul's converters write a bare 流局 either way, so the tiles tell.
                waiting = any(self._tiles(seat).tenpai() for seat in range(self.seats))
                tenpai = list(range(self.seats)) if waiting else []
            return {"result": "draw", "riichi": self._riichi(None), "tenpai": tenpai}, changes
        if kind == "流し満貫":
            payments = [self._changes(r) for r in rest if isinstance(r, list)]
            if not payments:
                raise self.fail(gettext_noop("nagashi mangan without its payments"))
            changes = [sum(col) for col in zip(*payments, strict=True)]
            nagashi = sorted({s for p in payments for s, d in enumerate(p) if d > 0})
            hand = {
                "result": "nagashi",
                "riichi": self._riichi(None),
                "nagashi": nagashi,
                # The JSON does not say who was tenpai: read it from the tiles.
                "tenpai": [seat for seat in range(self.seats) if self._tiles(seat).tenpai()],
            }
            return hand, changes
        if kind in ABORTS_JSON:
            reason = ABORTS_JSON[kind]
            ronned = self._last_discarder() if reason == "triple_ron" else None
            hand = {"result": "abort", "riichi": self._riichi(ronned), "reason": reason}
            return hand, [0] * self.seats
        raise self.fail(gettext_noop("unknown result %(kind)s"), kind=repr(kind))

    def _changes(self, value: Any) -> list[int]:
        if not isinstance(value, list) or len(value) not in (4, self.seats):
            raise self.fail(gettext_noop("malformed result: four point changes expected"))
        try:
            changes = [int(v) for v in value]
        except (TypeError, ValueError):
            raise self.fail(
                gettext_noop("malformed result: point changes must be numbers")
            ) from None
        if any(changes[self.seats :]):
            raise self.fail(
                gettext_noop("malformed result: a three-player hand pays the empty fourth seat")
            )
        return changes[: self.seats]

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
            raise self.fail(
                gettext_noop("malformed win: point changes and win details expected in pairs")
            )
        changes = [0] * self.seats
        wins = []
        for payment, info in zip(rest[0::2], rest[1::2], strict=True):
            changes = [a + b for a, b in zip(changes, self._changes(payment), strict=True)]
            wins.append(self._win(info))
        loser = wins[0].get("loser")
        return wins_hand(wins, self._riichi(loser), self.number), changes

    def _win(self, info: Any) -> dict[str, Any]:
        if (
            not isinstance(info, list)
            or len(info) < 4
            or not all(isinstance(x, int) and 0 <= x <= 3 for x in info[:3])
        ):
            raise self.fail(
                gettext_noop("malformed win: [winner, from, liable, points, yaku...] expected")
            )
        winner, source, liable, text = info[:4]
        han = yakuman = dora = kita = 0
        yaku = []
        for item in info[4:]:
            item = str(item)
            yaku_name, _, _ = item.partition("(")
            if item.endswith("(役満)"):
                yakuman += 1
                yaku.append(self._yaku_key(yaku_name))
                continue
            found = _HAN.search(item)
            if not found:
                raise self.fail(gettext_noop("unreadable yaku %(item)s"), item=repr(item))
            value = int(found.group(1))
            han += value
            if names.is_kita(yaku_name):
                kita += value
            if names.is_dora(yaku_name):
                dora += value
            elif value:
                yaku.append(self._yaku_key(yaku_name))
        if not yakuman and han == 0:
            raise self.fail(gettext_noop("a win without yaku"))
        tsumo = winner == source
        if yakuman:
            # One item per yakuman, except where Mahjong Soul counts one yaku double
            # (四暗刻単騎, 国士無双十三面待ち, ...): its points show the multiple.
            yakuman = _yakuman_multiple(str(text), dealer=winner == self.dealer, tsumo=tsumo) or (
                yakuman
            )
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
                        seat_wind=EAST + (winner - self.dealer) % self.seats,
                        round_wind=EAST + self.round_index // 4,
                        yaku=yaku,
                        yaku_han=han - dora,
                    )
                except ScoringError as err:
                    raise err.in_hand(self.number) from None
        win = win_dict(
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
        if kita:
            win["kita"] = kita
        return win

    def _yaku_key(self, name: str) -> str:
        key = names.yaku_key(name)
        if key is None:
            raise self.fail(
                gettext_noop("unknown yaku %(name)s: not one of the ranked rules' yaku"),
                name=repr(name),
            )
        return key

    # --- tiles ---

    def _tiles(self, seat: int) -> Tiles:
        return Tiles.from_json(
            self.haipai[seat], self.takes[seat], self.discards[seat], self.number
        )

    def _discarded_kind(self, seat: int, index: int) -> int:
        """The kind of the tile in discard slot `index` of `seat` (60: the tile just drawn)."""
        value = self.discards[seat][index]
        if isinstance(value, str) and value.startswith("f"):
            value = value[1:]  # a North set aside: a ron on it takes the North
        if isinstance(value, str):
            value = value.removeprefix("r")
            if not value.isdigit():
                return tile_kind(call_tiles(value, self.number)[1], self.number)
            value = int(value)
        if value == 60:
            value = self.takes[seat][index]
        return tile_kind(value, self.number)

    def _ronned_tile(self, loser: int) -> int:
        if not self.discards[loser]:
            raise self.fail(gettext_noop("seat %(seat)s is ronned but never discarded"), seat=loser)
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
            letter, called, _ = call_tiles(call, self.number)
            if call_source(other, call) == seat and tile_kind(called, self.number) == tile:
                # A pon or kan goes before a chi of the same discard.
                if best is None or letter != "c":
                    best = other
        return best


def _yakuman_multiple(text: str, *, dealer: bool, tsumo: bool) -> int | None:
    """How many yakuman a win's points are worth (None when the text shows no points).

    >>> _yakuman_multiple("役満64000点", dealer=False, tsumo=False)
    2
    >>> _yakuman_multiple("役満16000-32000点", dealer=False, tsumo=True)
    2
    >>> _yakuman_multiple("役満16000点∀", dealer=True, tsumo=True)
    1
    """
    found = _POINTS.search(text)
    if not found:
        return None
    first, dealer_share, each = found.groups()
    if tsumo:
        # A single yakuman tsumo: 16,000 from the dealer or, at the dealer's, from each.
        points, single = int(dealer_share or first), 16000
    else:
        points, single = int(first), 48000 if dealer else 32000
    if each and not (tsumo and dealer):
        return None
    multiple, rest = divmod(points, single)
    return multiple if multiple and not rest else None

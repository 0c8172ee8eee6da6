"""The value of a whole winning hand from its tiles: which yaku, how many han and fu.

A package of its own beside the engine: `scoring` stays free of the `mahjong` library,
this package needs it and no Django.

The tiles are written the usual short way: digits then the suit letter, `m` characters,
`p` circles, `s` bamboo, `z` honours (1-4 east south west north, 5-7 white green red),
`0` a red five ("123m406p789s11z" holds a red 5p). Calls are written "chi:123m",
"pon:555z", "kan:1111p" (an open kan) and "ankan:9999s" (a closed kan), and their tiles
are not repeated in the concealed hand. The `mahjong` library judges the hand; this module
reads the tiles, applies the event's options and names the yaku with `scoring.yaku` keys.

>>> v = value_hand("234m456p678s22m5678s", "3m", [], Situation(tsumo=True, riichi=True))
Traceback (most recent call last):
...
scoring.errors.ScoringError: The hand holds 15 tiles with its calls: a winning hand has 14.
>>> v = value_hand("234m456p678s22557z", "7z", [], Situation(tsumo=False))
Traceback (most recent call last):
...
scoring.errors.ScoringError: These tiles are not a complete hand: check them and the winning tile.
>>> v = value_hand("234m456p678s22m567s", "2m", [], Situation(tsumo=True, riichi=True))
>>> v.han, v.fu, v.yaku
(4, 20, ('menzen_tsumo', 'riichi', 'pinfu', 'tanyao'))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

from scoring.errors import Phrase, ScoringError, gettext_noop
from scoring.yaku import YAKU

SUITS = "mpsz"
TILE_RE = re.compile(r"(\d+)([mpsz])")
CALL_KINDS = {"chi": 3, "pon": 3, "kan": 4, "ankan": 4}
MAX_INDICATORS = 5  # at most four kans: five dora indicators
_DORA = Phrase(gettext_noop("dora"))
_URA_DORA = Phrase(gettext_noop("ura dora"))
# The library's yaku ids, named with our keys (dora, ura dora and red fives are counted).
LIBRARY_YAKU = {
    0: "menzen_tsumo", 1: "riichi", 3: "ippatsu", 4: "chankan", 5: "rinshan", 6: "haitei",
    7: "houtei", 8: "double_riichi", 11: "renhou", 12: "pinfu", 13: "tanyao", 14: "iipeikou",
    15: "haku", 16: "hatsu", 17: "chun", 18: "seat_wind", 19: "seat_wind", 20: "seat_wind",
    21: "seat_wind", 22: "round_wind", 23: "round_wind", 24: "round_wind", 25: "round_wind",
    26: "sanshoku", 27: "ittsu", 28: "chanta", 29: "honroutou", 30: "toitoi", 31: "sanankou",
    32: "sankantsu", 33: "sanshoku_doukou", 34: "chiitoitsu", 35: "shousangen",
    36: "honitsu", 37: "junchan", 38: "ryanpeikou", 39: "chinitsu", 100: "kokushi",
    101: "chuuren", 102: "suuankou", 103: "daisangen", 104: "shousuushii", 105: "ryuuiisou",
    106: "suukantsu", 107: "tsuuiisou", 108: "chinroutou", 111: "daisuushii",
    112: "kokushi_13", 113: "suuankou_tanki", 114: "junsei_chuuren", 115: "tenhou",
    116: "chiihou", 117: "renhou",
}  # fmt: skip
DORA_IDS = frozenset({120, 121, 122})
# Why the library refused, in words a player can act on.
REFUSALS = {
    HandCalculator.ERR_NO_WINNING_TILE: gettext_noop(
        "The winning tile is not among the hand's tiles."
    ),
    HandCalculator.ERR_HAND_NOT_WINNING: gettext_noop(
        "These tiles are not a complete hand: check them and the winning tile."
    ),
    HandCalculator.ERR_NO_YAKU: gettext_noop(
        "This hand has no yaku: dora alone do not make a win."
    ),
    HandCalculator.ERR_OPEN_HAND_RIICHI: gettext_noop("An open hand cannot riichi: untick Riichi."),
    HandCalculator.ERR_OPEN_HAND_DABURI: gettext_noop(
        "An open hand cannot riichi: untick Double riichi."
    ),
    HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI: gettext_noop("Ippatsu comes only after riichi."),
    HandCalculator.ERR_CHANKAN_WITH_TSUMO: gettext_noop(
        "Chankan is a ron on another player's kan."
    ),
    HandCalculator.ERR_RINSHAN_WITHOUT_TSUMO: gettext_noop("Rinshan is a tsumo after a kan."),
    HandCalculator.ERR_HAITEI_WITHOUT_TSUMO: gettext_noop("Haitei is a tsumo on the last tile."),
    HandCalculator.ERR_HOUTEI_WITH_TSUMO: gettext_noop("Houtei is a ron on the last discard."),
    HandCalculator.ERR_HAITEI_WITH_RINSHAN: gettext_noop("Haitei and rinshan cannot both count."),
    HandCalculator.ERR_HOUTEI_WITH_CHANKAN: gettext_noop("Houtei and chankan cannot both count."),
    HandCalculator.ERR_TENHOU_NOT_AS_DEALER: gettext_noop(
        "Tenhou is the dealer's: choose the seat wind East."
    ),
    HandCalculator.ERR_TENHOU_WITHOUT_TSUMO: gettext_noop("Tenhou is a tsumo on the dealt tiles."),
    HandCalculator.ERR_TENHOU_WITH_MELD: gettext_noop("Tenhou is a hand without calls."),
    HandCalculator.ERR_CHIIHOU_AS_DEALER: gettext_noop(
        "Chiihou is a non-dealer's: the dealer has Tenhou."
    ),
    HandCalculator.ERR_CHIIHOU_WITHOUT_TSUMO: gettext_noop("Chiihou is a tsumo on the first draw."),
    HandCalculator.ERR_CHIIHOU_WITH_MELD: gettext_noop("Chiihou is a hand without calls."),
    HandCalculator.ERR_RENHOU_AS_DEALER: gettext_noop("Renhou is a non-dealer's."),
    HandCalculator.ERR_RENHOU_WITH_TSUMO: gettext_noop("Renhou is a ron before the first draw."),
    HandCalculator.ERR_RENHOU_WITH_MELD: gettext_noop("Renhou is a hand without calls."),
}


@dataclass(frozen=True)
class Call:
    """A called (or closed) meld: `kind` chi, pon, kan or ankan, tiles as 34-kinds."""

    kind: str
    tiles: tuple[int, ...]
    red: int = 0

    @property
    def is_open(self) -> bool:
        return self.kind != "ankan"


@dataclass(frozen=True)
class Situation:
    """How the hand was won. Winds 0-3 are east to north."""

    tsumo: bool
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    kita: int = 0  # three players: Norths set aside, each a dora (and one more per North dora)


@dataclass(frozen=True)
class Options:
    """The event's rules that change a hand's value."""

    open_tanyao: bool = True
    kiriage: bool = False
    double_yakuman: bool = True
    three_player: bool = False  # the three-player wall: of the characters only 1m and 9m


@dataclass(frozen=True)
class HandValue:
    han: int | None  # with the dora; None for a yakuman
    fu: int
    yakuman: int  # the multiple, 0 for an ordinary hand
    yaku: tuple[str, ...]
    dora: int  # dora, ura dora, red fives and kita
    is_open: bool
    details: tuple[tuple[str, int], ...] = field(default=())  # (key or "dora", han)
    kita: int = 0  # Norths set aside (three players), counted in `dora` too


def parse_tiles(text: str) -> tuple[list[int], int]:
    """Tiles in short notation as 34-kinds (0-8 man, 9-17 pin, 18-26 sou, 27-33 honours),
    and how many of them are red fives.

    >>> parse_tiles("123m 05p 77z")
    ([0, 1, 2, 13, 13, 33, 33], 1)
    """
    compact = "".join(text.split())
    kinds: list[int] = []
    red = 0
    position = 0
    for match in TILE_RE.finditer(compact):
        if match.start() != position:
            break
        position = match.end()
        digits, suit = match.groups()
        base = 9 * SUITS.index(suit)
        for digit in digits:
            number = int(digit)
            if number == 0:
                if suit == "z":
                    raise ScoringError(
                        gettext_noop("%(tile)s is not a tile: %(rest)s."),
                        tile=f"0{suit}",
                        rest=Phrase(gettext_noop("red fives are 0m, 0p or 0s")),
                    )
                number, red = 5, red + 1
            if suit == "z" and number > 7:
                raise ScoringError(
                    gettext_noop("%(tile)s is not a tile: %(rest)s."),
                    tile=f"{number}z",
                    rest=Phrase(gettext_noop("honours are 1z to 7z")),
                )
            kinds.append(base + number - 1)
    if position != len(compact):
        raise ScoringError(
            gettext_noop(
                "Could not read the tiles %(tiles)s: write them as digits and a suit letter, "
                "like 123m 456p 789s 11z."
            ),
            tiles=repr(text),
        )
    return kinds, red


def parse_call(text: str) -> Call:
    """One call: "chi:123m", "pon:555z", "kan:1111p" or "ankan:9999s".

    >>> parse_call("pon:555z")
    Call(kind='pon', tiles=(31, 31, 31), red=0)
    """
    kind, _, tiles = text.strip().partition(":")
    kind = kind.lower()
    if kind not in CALL_KINDS:
        raise ScoringError(
            gettext_noop(
                "Unknown call %(call)s: write chi:123m, pon:555z, kan:1111p or ankan:1111p."
            ),
            call=repr(text),
        )
    kinds, red = parse_tiles(tiles)
    kinds.sort()
    if len(kinds) != CALL_KINDS[kind]:
        raise ScoringError(
            gettext_noop("A %(kind)s has %(count)s tiles, not %(given)s: %(call)s."),
            kind=kind,
            count=CALL_KINDS[kind],
            given=len(kinds),
            call=repr(text),
        )
    if kind == "chi":
        if kinds[0] >= 27 or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2] or kinds[0] % 9 > 6:
            raise ScoringError(
                gettext_noop("A chi is three tiles in a row of one suit, not %(tiles)s."),
                tiles=repr(tiles),
            )
    elif len(set(kinds)) != 1:
        raise ScoringError(
            gettext_noop("A %(kind)s is the same tile %(count)s times, not %(tiles)s."),
            kind=kind,
            count=CALL_KINDS[kind],
            tiles=repr(tiles),
        )
    return Call(kind, tuple(kinds), red)


def value_hand(
    concealed: str | Sequence[int],
    win: str | int,
    calls: Sequence[Call | str],
    situation: Situation,
    options: Options | None = None,
    *,
    red: int = 0,
) -> HandValue:
    """Judge a winning hand. `concealed` holds the hand's tiles outside its calls, the
    winning tile among them; `red` red fives are added to those written as 0."""
    options = options or Options()
    if isinstance(concealed, str):
        kinds, red_written = parse_tiles(concealed)
        red += red_written
    else:
        kinds = list(concealed)
    if isinstance(win, str):
        wins, _ = parse_tiles(win)
        if len(wins) != 1:
            raise ScoringError(gettext_noop("Choose exactly one winning tile."))
        win = wins[0]
    calls = [parse_call(c) if isinstance(c, str) else c for c in calls]
    red += sum(c.red for c in calls)
    _check_tiles(kinds, win, calls, situation)
    _check_wall(kinds, calls, situation, three_player=options.three_player)
    tiles, melds, win_id = _tiles_136(kinds, win, calls)
    is_open = any(c.is_open for c in calls)
    config = HandConfig(
        is_tsumo=situation.tsumo,
        is_riichi=situation.riichi and not situation.double_riichi,
        is_daburu_riichi=situation.double_riichi,
        is_ippatsu=situation.ippatsu,
        is_haitei=situation.haitei,
        is_houtei=situation.houtei,
        is_rinshan=situation.rinshan,
        is_chankan=situation.chankan,
        is_tenhou=situation.tenhou,
        is_chiihou=situation.chiihou,
        player_wind=27 + situation.seat_wind,
        round_wind=27 + situation.round_wind,
        options=OptionalRules(
            has_open_tanyao=options.open_tanyao,
            has_double_yakuman=True,
            kazoe_limit=HandConstants.KAZOE_NO_LIMIT,
            kiriage=options.kiriage,
        ),
    )
    result = HandCalculator.estimate_hand_value(
        tiles,
        win_id,
        melds=melds,
        dora_indicators=[4 * k for k in situation.dora_indicators],
        config=config,
    )
    if result.error:
        refusal = REFUSALS.get(result.error)
        if refusal is None:
            raise ScoringError(
                gettext_noop("The hand was refused (%(error)s)."), error=result.error
            )
        raise ScoringError(refusal)
    return _value(result, situation, red, is_open, tiles, three_player=options.three_player)


# 2m to 8m: the tiles a three-player wall leaves out.
_NOT_IN_THREE = frozenset(range(1, 8))
NORTH = 30
MAX_KITA = 4


def _check_wall(
    kinds: list[int], calls: list[Call], situation: Situation, *, three_player: bool
) -> None:
    """Refuse tiles the game's wall does not hold, and Norths set aside outside a
    three-player game (or more of them than there are)."""
    if not three_player:
        if situation.kita:
            raise ScoringError(
                gettext_noop(
                    "Kita (Norths set aside) are only for three-player games: remove them."
                )
            )
        return
    if any(call.kind == "chi" for call in calls):
        # Tenhou's and Mahjong Soul's three-player games: no chi, only pon and kan.
        raise ScoringError(
            gettext_noop("A three-player game has no chi: remove the chi, or call it a pon.")
        )
    shown = [
        *kinds,
        *(k for call in calls for k in call.tiles),
        *situation.dora_indicators,
        *situation.ura_indicators,
    ]
    for kind in shown:
        if kind in _NOT_IN_THREE:
            raise ScoringError(
                gettext_noop(
                    "%(tile)s is not in a three-player game: its wall has no 2m to 8m, of "
                    "the characters only 1m and 9m. Remove it and pick the tiles again."
                ),
                tile=_name(kind),
            )
    norths = situation.kita + sum(1 for k in kinds if k == NORTH)
    norths += sum(1 for call in calls for k in call.tiles if k == NORTH)
    if not 0 <= situation.kita <= MAX_KITA or norths > MAX_KITA:
        raise ScoringError(
            gettext_noop(
                "%(count)s Norths with the kita: there are only four. Check the kita and the "
                "hand's tiles."
            ),
            count=norths,
        )


def _check_tiles(kinds: list[int], win: int, calls: list[Call], situation: Situation) -> None:
    total = len(kinds) + 3 * len(calls)
    if total != 14:
        raise ScoringError(
            gettext_noop("The hand holds %(count)s tiles with its calls: a winning hand has 14."),
            count=total,
        )
    if win not in kinds:
        raise ScoringError(
            gettext_noop("The winning tile must be one of the hand's own tiles, not a call's.")
        )
    counts = Counter(kinds)
    for call in calls:
        counts.update(call.tiles)
    for kind, n in counts.items():
        if n > 4:
            raise ScoringError(
                gettext_noop("%(tile)s appears %(count)s times: there are only four of each tile."),
                tile=_name(kind),
                count=n,
            )
    shown = ((_DORA, situation.dora_indicators), (_URA_DORA, situation.ura_indicators))
    for what, indicators in shown:
        if len(indicators) > MAX_INDICATORS:
            raise ScoringError(
                gettext_noop("At most %(most)s %(indicators)s indicators can be showing."),
                most=MAX_INDICATORS,
                indicators=what,
            )
    if situation.ura_indicators and not (situation.riichi or situation.double_riichi):
        raise ScoringError(
            gettext_noop("Ura dora count only after riichi: remove them, or tick Riichi.")
        )


def _name(kind: int) -> str:
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def _tiles_136(kinds: list[int], win: int, calls: list[Call]) -> tuple[list[int], list[Meld], int]:
    """Every tile as a library id (kind * 4 + copy), the melds, and the winning tile's id."""
    copies = Counter()

    def take(kind: int) -> int:
        copies[kind] += 1
        return 4 * kind + copies[kind] - 1

    melds = []
    for call in calls:
        ids = [take(k) for k in call.tiles]
        shape = {"chi": Meld.CHI, "pon": Meld.PON}.get(call.kind, Meld.KAN)
        melds.append(Meld(shape, ids, opened=call.is_open))
    tiles = [i for meld in melds for i in meld.tiles]
    win_id = None
    for kind in kinds:
        tile = take(kind)
        tiles.append(tile)
        if kind == win:
            win_id = tile
    return tiles, melds, win_id


def _value(
    result,
    situation: Situation,
    red: int,
    is_open: bool,
    tiles: list[int],
    *,
    three_player: bool = False,
) -> HandValue:
    keys: list[str] = []
    details: list[tuple[str, int]] = []
    dora = 0
    for y in result.yaku:
        if y.yaku_id in DORA_IDS:
            continue
        key = LIBRARY_YAKU.get(y.yaku_id)
        if key is None:
            raise ScoringError(
                gettext_noop("The hand's yaku %(yaku)s is not played here."), yaku=y.name
            )
        keys.append(key)
    indicators = list(situation.dora_indicators)
    if situation.riichi or situation.double_riichi:
        indicators += situation.ura_indicators
    dora = _dora_count(indicators, tiles, three_player=three_player) + red
    # Each North set aside is a dora of its own, and a dora again for every indicator that
    # makes North the dora, as a North in the hand would be.
    north_dora = sum(1 for i in indicators if _next(i, three_player=three_player) == NORTH)
    kita = situation.kita
    dora += kita * (1 + north_dora)
    multiple = sum(YAKU[k].yakuman for k in keys)
    if multiple:
        keys = [k for k in keys if YAKU[k].yakuman]
        return HandValue(None, result.fu, multiple, tuple(keys), dora, is_open, (), kita)
    for k in keys:
        details.append((k, YAKU[k].han(is_open=is_open) or 0))
    han = sum(h for _, h in details) + dora
    if dora:
        details.append(("dora", dora))
    return HandValue(han, result.fu, 0, tuple(keys), dora, is_open, tuple(details), kita)


def _dora_count(indicators: Sequence[int], tiles: list[int], *, three_player: bool = False) -> int:
    kinds = Counter(t // 4 for t in tiles)
    return sum(kinds[_next(i, three_player=three_player)] for i in indicators)


def _next(indicator: int, *, three_player: bool = False) -> int:
    """The dora an indicator shows: the next tile of its suit, winds and dragons in turn;
    in a three-player game 1m shows 9m and 9m shows 1m (2m to 8m are not in the wall).

    >>> _next(0), _next(0, three_player=True), _next(8, three_player=True)
    (1, 8, 0)
    """
    if three_player and indicator in (0, 8):
        return 8 - indicator
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3

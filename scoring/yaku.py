"""Every yaku Tenbou knows, as plain data: one `Yaku` per yaku with a stable key.

The names and values follow the seed "Basic Ari-Ari Mahjong Rules" (section 8, 1 han to
double yakuman) and the yaku summaries beside it. A key never changes once stored: game
records (`"yaku": [...]` in a win) and the statistics use the keys, converters map each
platform's own names to them.

Values are the usual ones; where a rule set differs (open tanyao, double yakuman paid as a
single one) the option lives in `scoring.rules` and the counting code applies it.

Dora, ura dora and red fives are not yaku: a win counts them in its `dora` field.

>>> YAKU["pinfu"].closed_han, YAKU["pinfu"].open_han
(1, None)
>>> YAKU["honitsu"].han(is_open=True)
2
>>> YAKU["daisuushii"].yakuman
2
>>> [y.key for y in by_han(6)]
['chinitsu']
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Yaku:
    key: str  # stable, lower case ASCII: stored in game records
    name: str  # English name
    japanese: str  # as Japanese players write it
    romaji: str  # the name most club players use
    closed_han: int  # 0 for yakuman
    open_han: int | None  # None: the yaku needs a closed hand
    yakuman: int = 0  # the yakuman multiple: 0 ordinary yaku, 1 yakuman, 2 double yakuman

    @property
    def closed_only(self) -> bool:
        return self.open_han is None

    @property
    def is_yakuman(self) -> bool:
        return self.yakuman > 0

    def han(self, *, is_open: bool) -> int | None:
        """The han on an open or a closed hand; None when it cannot be open (or is yakuman)."""
        if self.yakuman:
            return None
        return self.open_han if is_open else self.closed_han


def _y(
    key: str,
    name: str,
    japanese: str,
    romaji: str,
    closed_han: int,
    open_han: int | None,
    yakuman: int = 0,
) -> Yaku:
    return Yaku(key, name, japanese, romaji, closed_han, open_han, yakuman)


# Ordered as the seed lists them: by han, closed-only first within a group.
YAKU_LIST: tuple[Yaku, ...] = (
    # 1 han
    _y("riichi", "Riichi", "立直", "Riichi", 1, None),
    _y("ippatsu", "One shot", "一発", "Ippatsu", 1, None),
    _y("menzen_tsumo", "Fully concealed tsumo", "門前清自摸和", "Menzen tsumo", 1, None),
    _y("pinfu", "No points hand", "平和", "Pinfu", 1, None),
    _y("iipeikou", "Twin sequences", "一盃口", "Iipeikou", 1, None),
    _y("haitei", "Under the sea", "海底摸月", "Haitei raoyue", 1, 1),
    _y("houtei", "Under the river", "河底撈魚", "Houtei raoyui", 1, 1),
    _y("rinshan", "After a kan", "嶺上開花", "Rinshan kaihou", 1, 1),
    _y("chankan", "Robbing a kan", "槍槓", "Chankan", 1, 1),
    _y("tanyao", "All simples", "断幺九", "Tanyao", 1, 1),
    _y("seat_wind", "Seat wind", "自風牌", "Jikaze", 1, 1),
    _y("round_wind", "Round wind", "場風牌", "Bakaze", 1, 1),
    _y("haku", "White dragon", "役牌 白", "Haku", 1, 1),
    _y("hatsu", "Green dragon", "役牌 發", "Hatsu", 1, 1),
    _y("chun", "Red dragon", "役牌 中", "Chun", 1, 1),
    # 2 han
    _y("double_riichi", "Double riichi", "両立直", "Double riichi", 2, None),
    _y("chiitoitsu", "Seven pairs", "七対子", "Chiitoitsu", 2, None),
    _y("sanshoku", "Mixed triple sequences", "三色同順", "Sanshoku doujun", 2, 1),
    _y("ittsu", "Full straight", "一気通貫", "Ittsuu", 2, 1),
    _y("chanta", "Half outside hand", "混全帯幺九", "Chanta", 2, 1),
    _y("double_wind", "Double wind", "連風牌", "Renfuu", 2, 2),
    _y("toitoi", "All triplets", "対々和", "Toitoi", 2, 2),
    _y("sanankou", "Three concealed triplets", "三暗刻", "Sanankou", 2, 2),
    _y("sankantsu", "Three kans", "三槓子", "Sankantsu", 2, 2),
    _y("sanshoku_doukou", "Triple triplets", "三色同刻", "Sanshoku doukou", 2, 2),
    _y("shousangen", "Small three dragons", "小三元", "Shousangen", 2, 2),
    _y("honroutou", "All terminals and honours", "混老頭", "Honroutou", 2, 2),
    # 3 han
    _y("ryanpeikou", "Double twin sequences", "二盃口", "Ryanpeikou", 3, None),
    _y("junchan", "Full outside hand", "純全帯幺九", "Junchan", 3, 2),
    _y("honitsu", "Half flush", "混一色", "Honitsu", 3, 2),
    # 6 han
    _y("chinitsu", "Full flush", "清一色", "Chinitsu", 6, 5),
    # yakuman
    _y("tenhou", "Blessing of heaven", "天和", "Tenhou", 0, None, 1),
    _y("chiihou", "Blessing of earth", "地和", "Chiihou", 0, None, 1),
    _y("renhou", "Blessing of man", "人和", "Renhou", 0, None, 1),
    _y("kokushi", "Thirteen orphans", "国士無双", "Kokushi musou", 0, None, 1),
    _y("suuankou", "Four concealed triplets", "四暗刻", "Suuankou", 0, None, 1),
    _y("chuuren", "Nine gates", "九蓮宝燈", "Chuuren poutou", 0, None, 1),
    _y("daisangen", "Big three dragons", "大三元", "Daisangen", 0, 0, 1),
    _y("shousuushii", "Small four winds", "小四喜", "Shousuushii", 0, 0, 1),
    _y("tsuuiisou", "All honours", "字一色", "Tsuuiisou", 0, 0, 1),
    _y("ryuuiisou", "All green", "緑一色", "Ryuuiisou", 0, 0, 1),
    _y("chinroutou", "All terminals", "清老頭", "Chinroutou", 0, 0, 1),
    _y("suukantsu", "Four kans", "四槓子", "Suukantsu", 0, 0, 1),
    # double yakuman
    _y("kokushi_13", "Thirteen orphans, 13-sided wait", "国士無双十三面待ち",
       "Kokushi juusanmen", 0, None, 2),
    _y("suuankou_tanki", "Four concealed triplets, single wait", "四暗刻単騎",
       "Suuankou tanki", 0, None, 2),
    _y("junsei_chuuren", "Pure nine gates", "純正九蓮宝燈", "Junsei chuuren poutou", 0, None, 2),
    _y("daisuushii", "Big four winds", "大四喜", "Daisuushii", 0, 0, 2),
)  # fmt: skip

YAKU: dict[str, Yaku] = {y.key: y for y in YAKU_LIST}

# Groups of yaku of which a hand holds at most one: the larger includes the smaller.
EXCLUSIVE: tuple[frozenset[str], ...] = (
    frozenset({"riichi", "double_riichi"}),
    frozenset({"iipeikou", "ryanpeikou"}),
    frozenset({"chanta", "junchan"}),
    frozenset({"honitsu", "chinitsu"}),
    frozenset({"haitei", "houtei"}),
    frozenset({"rinshan", "chankan"}),
    frozenset({"seat_wind", "double_wind"}),
    frozenset({"round_wind", "double_wind"}),
    frozenset({"kokushi", "kokushi_13"}),
    frozenset({"suuankou", "suuankou_tanki"}),
    frozenset({"chuuren", "junsei_chuuren"}),
    frozenset({"shousuushii", "daisuushii"}),
    frozenset({"tenhou", "chiihou", "renhou"}),
)


def by_han(han: int) -> list[Yaku]:
    """The ordinary yaku worth `han` on a closed hand, in the table's order."""
    return [y for y in YAKU_LIST if not y.yakuman and y.closed_han == han]


def yakuman(multiple: int) -> list[Yaku]:
    """The yakuman of one multiple (1 single, 2 double), in the table's order."""
    return [y for y in YAKU_LIST if y.yakuman == multiple]


def name(key: str) -> str:
    """How a page names a stored yaku key: the romaji, or the key itself if unknown.

    >>> name("chiitoitsu"), name("something_else")
    ('Chiitoitsu', 'something_else')
    """
    found = YAKU.get(key)
    return found.romaji if found else key

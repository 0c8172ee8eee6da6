"""Yaku as the logs name them, mapped to the keys of the one yaku table (`scoring.yaku`).

Tenhou names its yaku in Japanese (the JSON's text, or an id in mjlog that `YAKU_BY_ID`
turns into the same name); Mahjong Soul logs converted to tenhou.net/6 JSON carry Mahjong
Soul's own Japanese names, and a converter set to English writes Mahjong Soul's English
ones. Dora, ura dora, red fives and kita are not yaku: the record counts them in `dora`.

>>> yaku_key("役牌:場風牌"), yaku_key("場風 東"), yaku_key("Seat Wind")
('round_wind', 'round_wind', 'seat_wind')
>>> yaku_key("国士無双十三面待ち") == yaku_key("国士無双１３面") == "kokushi_13"
True
>>> is_dora("裏ドラ"), is_dora("立直")
(True, False)
"""

from __future__ import annotations

from scoring.yaku import YAKU

# Tenhou's yaku ids (mjlog `yaku` / `yakuman`), named as the tenhou.net/6 JSON names them.
YAKU_BY_ID = (
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

DORA = frozenset({"ドラ", "裏ドラ", "赤ドラ", "抜きドラ", "Dora", "Ura Dora", "Red Five", "Kita"})
# Norths set aside in a three-player game (counted as dora, and kept apart as `kita`).
KITA = frozenset({"抜きドラ", "Kita"})

# Every name a log may use, to its key. Tenhou's names first; where Mahjong Soul writes the
# same yaku differently, its name follows on the same line.
_KEYS = {
    "門前清自摸和": "menzen_tsumo",
    "立直": "riichi",
    "一発": "ippatsu",
    "槍槓": "chankan",
    "嶺上開花": "rinshan",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "自風 東": "seat_wind", "自風 南": "seat_wind", "自風 西": "seat_wind", "自風 北": "seat_wind",
    "役牌:自風牌": "seat_wind",
    "場風 東": "round_wind", "場風 南": "round_wind", "場風 西": "round_wind",
    "場風 北": "round_wind", "役牌:場風牌": "round_wind",
    "役牌 白": "haku",
    "役牌 發": "hatsu",
    "役牌 中": "chun",
    "両立直": "double_riichi", "ダブル立直": "double_riichi",
    "七対子": "chiitoitsu",
    "混全帯幺九": "chanta",
    "一気通貫": "ittsu",
    "三色同順": "sanshoku",
    "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu",
    "対々和": "toitoi",
    "三暗刻": "sanankou",
    "小三元": "shousangen",
    "混老頭": "honroutou",
    "二盃口": "ryanpeikou",
    "純全帯幺九": "junchan",
    "混一色": "honitsu",
    "清一色": "chinitsu",
    "人和": "renhou",
    "天和": "tenhou",
    "地和": "chiihou",
    "大三元": "daisangen",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou_tanki",
    "字一色": "tsuuiisou",
    "緑一色": "ryuuiisou",
    "清老頭": "chinroutou",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "junsei_chuuren",
    "国士無双": "kokushi",
    "国士無双１３面": "kokushi_13", "国士無双十三面待ち": "kokushi_13",
    "大四喜": "daisuushii",
    "小四喜": "shousuushii",
    "四槓子": "suukantsu",
    # Mahjong Soul's English names.
    "Fully Concealed Hand": "menzen_tsumo",
    "Riichi": "riichi",
    "Ippatsu": "ippatsu",
    "Robbing a Kan": "chankan",
    "After a Kan": "rinshan",
    "Under the Sea": "haitei",
    "Under the River": "houtei",
    "Pinfu": "pinfu",
    "All Simples": "tanyao",
    "Pure Double Sequence": "iipeikou",
    "Seat Wind": "seat_wind",
    "Prevalent Wind": "round_wind",
    "White Dragon": "haku",
    "Green Dragon": "hatsu",
    "Red Dragon": "chun",
    "Double Riichi": "double_riichi",
    "Seven Pairs": "chiitoitsu",
    "Half Outside Hand": "chanta",
    "Pure Straight": "ittsu",
    "Mixed Triple Sequence": "sanshoku",
    "Triple Triplets": "sanshoku_doukou",
    "Three Quads": "sankantsu",
    "All Triplets": "toitoi",
    "Three Concealed Triplets": "sanankou",
    "Little Three Dragons": "shousangen",
    "All Terminals and Honors": "honroutou",
    "Twice Pure Double Sequence": "ryanpeikou",
    "Fully Outside Hand": "junchan",
    "Half Flush": "honitsu",
    "Full Flush": "chinitsu",
    "Hand of Man": "renhou",
    "Blessing of Heaven": "tenhou",
    "Blessing of Earth": "chiihou",
    "Big Three Dragons": "daisangen",
    "Four Concealed Triplets": "suuankou",
    "Single-wait Four Concealed Triplets": "suuankou_tanki",
    "All Honors": "tsuuiisou",
    "All Green": "ryuuiisou",
    "All Terminals": "chinroutou",
    "Nine Gates": "chuuren",
    "True Nine Gates": "junsei_chuuren",
    "Thirteen Orphans": "kokushi",
    "Thirteen-wait Thirteen Orphans": "kokushi_13",
    "Four Big Winds": "daisuushii",
    "Four Little Winds": "shousuushii",
    "Four Quads": "suukantsu",
}  # fmt: skip


def is_dora(name: str) -> bool:
    return name.strip() in DORA


def is_kita(name: str) -> bool:
    """Whether a dora item counts Norths set aside.

    >>> is_kita("抜きドラ"), is_kita("ドラ")
    (True, False)
    """
    return name.strip() in KITA


def yaku_key(name: str) -> str | None:
    """The table's key for a yaku as a log names it; None for a name no ranked rule uses."""
    key = _KEYS.get(name.strip())
    return key if key in YAKU else None

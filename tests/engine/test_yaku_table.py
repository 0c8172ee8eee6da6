"""The yaku table: one entry per yaku, values as the seed gives them."""

from __future__ import annotations

import doctest
import re

from scoring import yaku
from scoring.yaku import YAKU, YAKU_LIST


def test_every_key_is_unique_and_plain_lower_case_ascii():
    keys = [y.key for y in YAKU_LIST]
    assert len(keys) == len(set(keys))
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", k) for k in keys)


def test_ordinary_yaku_have_han_and_yakuman_have_a_multiple():
    for y in YAKU_LIST:
        if y.yakuman:
            assert y.yakuman in (1, 2) and y.closed_han == 0, y.key
        else:
            assert y.closed_han >= 1, y.key
            assert y.open_han is None or 1 <= y.open_han <= y.closed_han, y.key


def test_values_follow_the_ari_ari_seed():
    assert (YAKU["riichi"].closed_han, YAKU["riichi"].open_han) == (1, None)
    assert (YAKU["tanyao"].closed_han, YAKU["tanyao"].open_han) == (1, 1)
    assert (YAKU["sanshoku"].closed_han, YAKU["sanshoku"].open_han) == (2, 1)
    assert (YAKU["chiitoitsu"].closed_han, YAKU["chiitoitsu"].open_han) == (2, None)
    assert (YAKU["junchan"].closed_han, YAKU["junchan"].open_han) == (3, 2)
    assert (YAKU["ryanpeikou"].closed_han, YAKU["ryanpeikou"].open_han) == (3, None)
    assert (YAKU["chinitsu"].closed_han, YAKU["chinitsu"].open_han) == (6, 5)
    assert YAKU["daisangen"].yakuman == 1 and not YAKU["daisangen"].closed_only
    assert YAKU["kokushi"].yakuman == 1 and YAKU["kokushi"].closed_only
    doubles = {y.key for y in yaku.yakuman(2)}
    assert doubles == {"daisuushii", "suuankou_tanki", "junsei_chuuren", "kokushi_13"}


def test_the_japanese_names_are_written_in_japanese():
    for y in YAKU_LIST:
        assert not y.japanese.isascii(), y.key
    assert YAKU["pinfu"].japanese == "平和"


def test_exclusive_groups_name_only_known_keys():
    for group in yaku.EXCLUSIVE:
        assert group <= YAKU.keys()


def test_the_module_examples_hold():
    assert doctest.testmod(yaku).failed == 0

"""Counting a hand from the ticked yaku: sums, open values, yakuman, refusals."""

from __future__ import annotations

import doctest

import pytest

from scoring import counting
from scoring.counting import count_yaku
from scoring.errors import ScoringError


def test_riichi_tsumo_pinfu_and_one_dora_is_four_han_twenty_fu():
    count = count_yaku(["riichi", "menzen_tsumo", "pinfu"], is_open=False, dora=1, tsumo=True)
    assert (count.han, count.fu, count.yakuman, count.dora) == (4, 20, 0, 1)
    assert count.as_win() == {"yaku": ["riichi", "menzen_tsumo", "pinfu"], "dora": 1, "open": False}


def test_dora_ura_dora_and_red_fives_all_add_han():
    count = count_yaku(["riichi"], is_open=False, dora=2, ura=1, aka=1, tsumo=False)
    assert (count.han, count.dora) == (5, 4)


def test_open_hands_count_the_lower_value():
    assert count_yaku(["honitsu", "haku"], is_open=True).han == 3
    assert count_yaku(["honitsu", "haku"], is_open=False).han == 4
    assert count_yaku(["chinitsu", "tanyao"], is_open=True).han == 6
    assert count_yaku(["sanshoku", "tanyao"], is_open=True, dora=1).han == 3


def test_seven_pairs_give_25_fu_and_pinfu_ron_30():
    assert count_yaku(["chiitoitsu", "tanyao"], is_open=False).fu == 25
    assert count_yaku(["pinfu", "tanyao"], is_open=False, tsumo=False).fu == 30
    assert count_yaku(["tanyao"], is_open=True, tsumo=False).fu is None


def test_yakuman_set_the_multiple_and_ordinary_yaku_beside_them_do_not_count():
    count = count_yaku(["daisangen", "honitsu"], is_open=True, dora=3)
    assert (count.yakuman, count.han, count.yaku) == (1, None, ("daisangen",))
    assert count_yaku(["daisuushii"], is_open=True).yakuman == 2
    assert count_yaku(["tsuuiisou", "daisangen"], is_open=False).yakuman == 2
    assert count_yaku(["suuankou_tanki", "tsuuiisou"], is_open=False).yakuman == 3


def test_thirteen_han_and_more_stay_han_for_the_rules_to_judge():
    count = count_yaku(["riichi", "chinitsu", "ryanpeikou", "pinfu"], is_open=False, dora=4)
    assert count.han == 15 and count.yakuman == 0


@pytest.mark.parametrize(
    ("keys", "kwargs", "reason"),
    [
        (["pinfu"], {"is_open": True}, "Pinfu needs a closed hand"),
        (["riichi", "tanyao"], {"is_open": True}, "Riichi needs a closed hand"),
        (["chiitoitsu", "toitoi"], {"is_open": False}, "cannot be in one hand"),
        (["pinfu", "haku"], {"is_open": False}, "cannot be in one hand"),
        (["tanyao", "chun"], {"is_open": True}, "cannot be in one hand"),
        (["iipeikou", "ryanpeikou"], {"is_open": False}, "cannot both count"),
        (["riichi", "double_riichi"], {"is_open": False}, "cannot both count"),
        (["ippatsu", "tanyao"], {"is_open": False}, "only after riichi"),
        (["tanyao"], {"is_open": False, "ura": 1}, "Ura dora count only after riichi"),
        (["haitei", "tanyao"], {"is_open": True, "tsumo": False}, "won only by a tsumo"),
        (["houtei", "tanyao"], {"is_open": True, "tsumo": True}, "won only by a ron"),
        (["riichi"], {"is_open": False, "tsumo": True}, "has Menzen tsumo"),
        ([], {"is_open": False, "dora": 2}, "dora alone"),
        ([], {"is_open": False}, "Tick the hand's yaku"),
        (["no_such_yaku"], {"is_open": False}, "Unknown yaku"),
        (["tanyao"], {"is_open": False, "dora": -1}, "Dora: enter a number"),
        (["tanyao"], {"is_open": True, "open_tanyao": False}, "no open tanyao"),
        (["tenhou", "suuankou_tanki", "daisuushii", "tsuuiisou", "daisangen"],
         {"is_open": False}, "7 yakuman, more than the 6"),
    ],
)  # fmt: skip
def test_impossible_combinations_are_refused_with_the_reason(keys, kwargs, reason):
    with pytest.raises(ScoringError, match=reason):
        count_yaku(keys, **kwargs)


def test_closed_tanyao_counts_even_without_open_tanyao():
    assert count_yaku(["tanyao"], is_open=False, open_tanyao=False).han == 1


def test_the_module_examples_hold():
    assert doctest.testmod(counting).failed == 0

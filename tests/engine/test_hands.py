"""How single hands settle: wins, honba, sticks, multi-ron, pao, draws, nagashi, chombo."""

from __future__ import annotations

import pytest

from scoring import ScoringError, score

from .builders import draw, make_record, ron, rules_with, tsumo


def deltas(result, index=0):
    return result["hands"][index]["deltas"]


def test_the_spec_example_hand_pays_5200_and_the_riichi_stick_to_the_winner(play):
    result = play([ron(1, 0, riichi=[2], han=3, fu=40)])
    hand = result["hands"][0]
    assert hand["deltas"] == [-5200, 6200, -1000, 0]
    assert hand["scores_after"] == [19800, 31200, 24000, 25000]
    assert hand["sticks_after"] == 0
    assert (hand["round"], hand["honba"], hand["dealer"]) == ("E1", 0, 0)


def test_the_spec_example_record_moves_the_game_on_as_described(play):
    result = play(
        [
            ron(1, 0, riichi=[2], han=3, fu=40),
            draw(0, 3),
            tsumo(0, riichi=[0], han=4, fu=30),
        ]
    )
    rounds = [(h["round"], h["honba"], h["dealer"]) for h in result["hands"]]
    assert rounds == [("E1", 0, 0), ("E2", 0, 1), ("E3", 1, 2)]
    assert deltas(result, 1) == [1500, -1500, -1500, 1500]
    # Non-dealer 4 han 30 fu tsumo with one honba: 2,000/3,900 plus 100 each; own stick back.
    assert deltas(result, 2) == [7200 + 1000, -2100, -4000, -2100]


def test_dealer_keeps_the_deal_and_adds_a_honba_after_winning(play):
    result = play([ron(0, 2, han=2, fu=30), ron(0, 2, han=2, fu=30)])
    second = result["hands"][1]
    assert (second["round"], second["honba"], second["dealer"]) == ("E1", 1, 0)
    # Dealer 2 han 30 fu ron is 2,900; one honba adds 300.
    assert second["deltas"] == [3200, 0, -3200, 0]


def test_a_non_dealer_win_passes_the_deal_and_clears_the_honba(play):
    result = play([draw(0), draw(0), ron(2, 3, han=1, fu=30), draw()])
    assert [(h["round"], h["honba"]) for h in result["hands"]] == [
        ("E1", 0),
        ("E1", 1),
        ("E1", 2),
        ("E2", 0),
    ]
    assert deltas(result, 2) == [0, 0, 1600, -1600]


def test_honba_on_a_tsumo_is_split_between_the_three_payers(play):
    result = play([draw(0), draw(0), tsumo(1, han=1, fu=30)])
    # 300/500 plus 100 per honba from each payer, two honba.
    assert deltas(result, 2) == [-700, 1700, -500, -500]


def test_dealer_keeps_the_deal_when_tenpai_at_a_draw(play):
    result = play([draw(0, 1), draw(1)])
    assert (result["hands"][1]["round"], result["hands"][1]["honba"]) == ("E1", 1)


def test_dealer_passes_the_deal_when_noten_at_a_draw_and_the_honba_still_grows(play):
    result = play([draw(2), draw()])
    assert (result["hands"][1]["round"], result["hands"][1]["honba"]) == ("E2", 1)


def test_the_dealer_passes_even_when_tenpai_if_the_rules_say_so(play):
    result = play([draw(0), draw()], rules_with(dealer_repeat_on_tenpai=False))
    assert result["hands"][1]["round"] == "E2"


@pytest.mark.parametrize(
    "tenpai, expected",
    [
        ((), [0, 0, 0, 0]),
        ((1,), [-1000, 3000, -1000, -1000]),
        ((1, 3), [-1500, 1500, -1500, 1500]),
        ((0, 1, 2), [1000, 1000, 1000, -3000]),
        ((0, 1, 2, 3), [0, 0, 0, 0]),
    ],
)
def test_noten_payments_share_3000_between_tenpai_and_noten_players(play, tenpai, expected):
    assert deltas(play([draw(*tenpai)])) == expected


def test_a_different_noten_total_is_shared_the_same_way(play):
    result = play([draw(1)], rules_with(noten_total=6000))
    assert deltas(result) == [-2000, 6000, -2000, -2000]


def test_riichi_sticks_stay_on_the_table_after_a_draw_and_go_to_the_next_winner(play):
    result = play([draw(0, 1, riichi=[0, 1]), ron(3, 2, han=1, fu=30)])
    first, second = result["hands"]
    assert first["deltas"] == [500, 500, -1500, -1500]  # two tenpai, both riichi
    assert first["sticks_after"] == 2
    assert second["sticks_before"] == 2
    # 1,000 + 300 for the honba + 2,000 in sticks.
    assert second["deltas"] == [0, 0, -1300, 3300]
    assert second["sticks_after"] == 0


def test_double_ron_pays_both_and_the_first_winner_after_the_discarder_takes_honba_and_sticks(
    play,
):
    hand = {
        "result": "ron",
        "riichi": [1, 3],
        "wins": [
            {"winner": 3, "loser": 2, "han": 2, "fu": 30},
            {"winner": 1, "loser": 2, "han": 1, "fu": 30},
        ],
    }
    result = play([draw(0), hand])
    # Seat 3 sits right after the discarder (seat 2), so it takes the honba and the sticks.
    # Seat 3: 2,000 + 300 honba + 2,000 sticks - its own stick; seat 1: 1,000 - its stick.
    assert deltas(result, 1) == [0, 0, -3300, 3300]
    assert deltas(result, 1)[2] == -(2000 + 300 + 1000)
    assert result["hands"][1]["sticks_after"] == 0


def test_double_ron_wraps_around_the_table_for_the_first_winner(play):
    hand = {
        "result": "ron",
        "riichi": [],
        "wins": [
            {"winner": 0, "loser": 3, "han": 1, "fu": 30},
            {"winner": 2, "loser": 3, "han": 1, "fu": 30},
        ],
    }
    result = play([draw(0), hand])
    # After seat 3 comes seat 0 (the dealer: 1,500 + 300 honba), then seat 2.
    assert deltas(result, 1) == [1800, 0, 1000, -2800]
    # The dealer won, so the dealer keeps the deal.
    assert play([draw(0), hand, draw()])["hands"][2]["round"] == "E1"


def test_a_third_ron_is_refused_when_only_double_ron_is_played(play):
    hand = {
        "result": "ron",
        "riichi": [],
        "wins": [{"winner": w, "loser": 0, "han": 1, "fu": 30} for w in (1, 2, 3)],
    }
    with pytest.raises(ScoringError, match="hand 1: .*triple_ron"):
        play([hand])
    result = play([hand], rules_with(multi_ron="triple"))
    assert deltas(result) == [-3000, 1000, 1000, 1000]


def test_head_bump_pays_only_the_first_winner_after_the_discarder(play):
    hand = {
        "result": "ron",
        "riichi": [3],
        "wins": [
            {"winner": 3, "loser": 1, "han": 3, "fu": 30},
            {"winner": 2, "loser": 1, "han": 1, "fu": 30},
        ],
    }
    result = play([hand], rules_with(multi_ron="head_bump"))
    # Seat 2 sits right after the discarder, so seat 3's claim is bumped; seat 2 also takes
    # seat 3's stick.
    assert deltas(result) == [0, -1000, 2000, -1000]


def test_triple_ron_abort_is_an_abortive_draw_under_double_ron_rules(play):
    result = play([{"result": "abort", "riichi": [1], "reason": "triple_ron"}, draw()])
    assert deltas(result) == [0, -1000, 0, 0]
    assert (result["hands"][1]["round"], result["hands"][1]["honba"]) == ("E1", 1)
    assert result["hands"][1]["sticks_before"] == 1


def test_pao_on_tsumo_makes_the_liable_player_pay_it_all_with_the_honba(play):
    win = {"winner": 1, "yakuman": 1, "pao": 2}
    result = play([draw(0), {"result": "tsumo", "riichi": [], "wins": [win]}])
    assert deltas(result, 1) == [0, 32300, -32300, 0]


def test_pao_on_ron_splits_the_hand_and_the_discarder_pays_the_honba(play):
    win = {"winner": 1, "loser": 3, "yakuman": 1, "pao": 2}
    result = play([draw(0), {"result": "ron", "riichi": [], "wins": [win]}])
    assert deltas(result, 1) == [0, 32300, -16000, -16300]


def test_pao_on_ron_by_the_discarder_themselves_is_an_ordinary_ron(play):
    win = {"winner": 1, "loser": 3, "yakuman": 1, "pao": 3}
    assert deltas(play([{"result": "ron", "riichi": [], "wins": [win]}])) == [0, 32000, 0, -32000]


def test_double_yakuman_is_paid_double_only_when_the_rules_say_so(play):
    hand = {"result": "tsumo", "riichi": [], "wins": [{"winner": 0, "yakuman": 2}]}
    assert deltas(play([hand])) == [96000, -32000, -32000, -32000]
    assert deltas(play([hand], "ema")) == [48000, -16000, -16000, -16000]


def test_kazoe_is_yakuman_or_sanbaiman_as_the_rules_say(play):
    assert deltas(play([ron(1, 2, han=13)])) == [0, 32000, -32000, 0]
    assert deltas(play([ron(1, 2, han=13)], "ema")) == [0, 24000, -24000, 0]


def test_kiriage_rounds_4_han_30_fu_and_3_han_60_fu_up_to_mangan(play):
    assert deltas(play([ron(1, 2, han=4, fu=30)])) == [0, 7700, -7700, 0]
    assert deltas(play([ron(1, 2, han=4, fu=30)], "wrc")) == [0, 8000, -8000, 0]
    assert deltas(play([ron(0, 2, han=3, fu=60)], rules_with(kiriage=True))) == [
        12000,
        0,
        -12000,
        0,
    ]


def test_nagashi_mangan_is_paid_as_a_mangan_tsumo_instead_of_noten_payments(play):
    hand = {"result": "nagashi", "riichi": [], "nagashi": [2], "tenpai": [2, 3]}
    result = play([hand, draw()])
    assert deltas(result) == [-4000, -2000, 8000, -2000]
    # The dealer was noten, so the deal passes; a honba is added as for a draw.
    assert (result["hands"][1]["round"], result["hands"][1]["honba"]) == ("E2", 1)


def test_a_dealer_nagashi_is_paid_4000_by_everyone_and_tenpai_keeps_the_deal(play):
    hand = {"result": "nagashi", "riichi": [1], "nagashi": [0], "tenpai": [0]}
    result = play([hand, draw()])
    assert deltas(result) == [12000, -5000, -4000, -4000]
    assert result["hands"][0]["sticks_after"] == 1
    assert (result["hands"][1]["round"], result["hands"][1]["honba"]) == ("E1", 1)


def test_nagashi_is_refused_where_the_rules_do_not_play_it(play):
    hand = {"result": "nagashi", "riichi": [], "nagashi": [2], "tenpai": []}
    with pytest.raises(ScoringError, match="hand 1: nagashi mangan is not played"):
        play([hand], "ema")


@pytest.mark.parametrize("reason", ["nine_terminals", "four_winds", "four_kans", "four_riichi"])
def test_an_abortive_draw_pays_nothing_keeps_the_dealer_and_adds_a_honba(play, reason):
    riichi = [0, 1, 2, 3] if reason == "four_riichi" else []
    result = play([ron(1, 2), {"result": "abort", "riichi": riichi, "reason": reason}, draw()])
    assert deltas(result, 1) == [-1000 if riichi else 0] * 4
    assert (result["hands"][2]["round"], result["hands"][2]["honba"]) == ("E2", 1)
    assert result["hands"][2]["sticks_before"] == len(riichi)


def test_abortive_draws_are_refused_where_the_rules_do_not_play_them(play):
    with pytest.raises(ScoringError, match="hand 2: abortive draws are not played"):
        play([draw(), {"result": "abort", "riichi": [], "reason": "four_winds"}], "ema")


def test_a_reverse_mangan_chombo_by_a_non_dealer_pays_the_dealer_4000_and_others_2000(play):
    result = play([draw(0), {"result": "chombo", "riichi": [1], "offender": 2}, draw()])
    assert deltas(result, 1) == [4000, 2000, -8000, 2000]
    # The hand is replayed: same dealer, same honba, the riichi stick returned.
    replayed = result["hands"][2]
    assert (replayed["round"], replayed["honba"], replayed["sticks_before"]) == ("E1", 1, 0)


def test_a_reverse_mangan_chombo_by_the_dealer_pays_4000_to_everyone(play):
    result = play([{"result": "chombo", "riichi": [], "offender": 0}])
    assert deltas(result) == [-12000, 4000, 4000, 4000]


def test_a_penalty_chombo_moves_no_points_and_costs_match_points_after_uma(play):
    result = play(
        [{"result": "chombo", "riichi": [], "offender": 1}],
        rules_with(chombo="penalty", chombo_penalty=-20),
    )
    assert deltas(result) == [0, 0, 0, 0]


def test_every_hand_conserves_the_points_on_the_table(play):
    result = play(
        [
            draw(0, riichi=[0, 2]),
            ron(1, 0, riichi=[3], han=2, fu=40),
            {"result": "chombo", "riichi": [2], "offender": 3},
            tsumo(2, han=6),
        ]
    )
    for hand in result["hands"]:
        before = sum(hand["scores_before"]) + 1000 * hand["sticks_before"]
        after = sum(hand["scores_after"]) + 1000 * hand["sticks_after"]
        assert before == after == 100000


IMPOSSIBLE_VALUES = [
    (ron(1, 2, han=1, fu=20), "1 han 20 fu is not a possible ron"),
    (ron(1, 2, han=2, fu=20), "2 han 20 fu is not a possible ron"),
    (ron(1, 2, han=1, fu=25), "1 han 25 fu is not a possible ron"),
    (tsumo(1, han=2, fu=25), "2 han 25 fu is not a possible tsumo"),
    (ron(1, 2, han=3, fu=35), "35 fu is not possible"),
    (ron(1, 2, han=3, fu=120), "120 fu is not possible"),
    (ron(1, 2, han=0, fu=30), "0 han is not a win"),
    (ron(1, 2, han=3), "fu is needed for a hand of 3 han"),
    (ron(1, 2, yakuman=7), "yakuman must be 1 to 6"),
    (ron(1, 2, yakuman=0), "yakuman must be 1 to 6"),
    (ron(1, 1), "the loser cannot also be a winner"),
    (ron(4, 1), "'winner' must be a seat number 0 to 3"),
    (tsumo(1, yakuman=1, han=13), "a yakuman win takes no han or fu"),
]


@pytest.mark.parametrize("hand, message", IMPOSSIBLE_VALUES)
def test_impossible_hand_values_are_refused_with_the_hand_named(hand, message):
    with pytest.raises(ScoringError) as err:
        score(make_record([draw(), hand]))
    assert str(err.value).startswith("hand 2: ")
    assert message in str(err.value)

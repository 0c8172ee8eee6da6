"""The options that tell rule books apart: several winners on one discard, pao, leftover
sticks between players tied for first, and the edge cases other trackers got wrong.

Every expected payment is worked out by hand in a comment, citing the clause it follows:
"spec" is shared/spec/game-record.md (the tenbou-game/1 contract).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import ScoringError, parse_record, replay

from .builders import draw, make_record, ron, rules_with, tsumo


def double_ron(loser, *wins, riichi=()):
    return {
        "result": "ron",
        "riichi": list(riichi),
        "wins": [{"winner": w, "loser": loser, **value} for w, value in wins],
    }


# E1 ends in a draw nobody is tenpai at: the deal passes with one honba (spec: "An
# exhaustive draw adds a honba"). With a riichi in it, that stick stays on the table.
ONE_HONBA = draw()
ONE_HONBA_AND_A_STICK = draw(riichi=[3])

# E2 (dealer seat 1, 1 honba): seat 0 deals in to seat 1 (2 han 30 fu, dealer: 2,900) and
# seat 2 (1 han 30 fu: 1,000). Seat 1 sits right after the discarder, so it is the first
# winner in turn order.
DOUBLE_RON = ((1, {"han": 2, "fu": 30}), (2, {"han": 1, "fu": 30}))


# multi_ron_honba


def test_multi_ron_honba_first_pays_the_honba_to_the_first_winner_only(play):
    # spec, multi_ron_honba "first": seat 1 2,900 + 300 = 3,200; seat 2 1,000 without
    # honba; seat 0 pays 4,200.
    result = play([ONE_HONBA, double_ron(0, *DOUBLE_RON)], rules_with(multi_ron_honba="first"))
    assert result["hands"][1]["deltas"] == [-4200, 3200, 1000, 0]


def test_multi_ron_honba_each_pays_the_honba_to_every_winner(play):
    # spec, multi_ron_honba "each" (EMA 2016 3.4.10: each counter raises the value of a
    # winning hand by 300): seat 1 3,200, seat 2 1,000 + 300 = 1,300; seat 0 pays 4,500.
    result = play([ONE_HONBA, double_ron(0, *DOUBLE_RON)], rules_with(multi_ron_honba="each"))
    assert result["hands"][1]["deltas"] == [-4500, 3200, 1300, 0]


def test_multi_ron_honba_each_pays_three_winners_at_a_triple_ron(play):
    # Triple ron, 1 honba: 3,200 / 1,300 / 1,300 (seat 3: 1 han 30 fu, 1,000 + 300).
    hand = double_ron(0, *DOUBLE_RON, (3, {"han": 1, "fu": 30}))
    rules = rules_with(multi_ron="triple", multi_ron_honba="each")
    assert play([ONE_HONBA, hand], rules)["hands"][1]["deltas"] == [-5800, 3200, 1300, 1300]


# multi_ron_sticks and the riichi of both winners


def test_multi_ron_sticks_first_gives_every_stick_to_the_first_winner(play):
    # One stick left from E1; in E2 both winners declared riichi (-1,000 each). spec,
    # multi_ron_sticks "first": seat 1 takes all 3 sticks: -1,000 + 3,200 + 3,000 = 5,200;
    # seat 2: -1,000 + 1,000 = 0.
    hands = [ONE_HONBA_AND_A_STICK, double_ron(0, *DOUBLE_RON, riichi=[1, 2])]
    result = play(hands, rules_with(multi_ron_sticks="first"))
    assert result["hands"][1]["deltas"] == [-4200, 5200, 0, 0]
    assert result["hands"][1]["sticks_after"] == 0


def test_multi_ron_sticks_own_back_returns_each_winners_riichi_stick(play):
    # spec, multi_ron_sticks "own_back" (EMA 2016; riichi.wiki "winners reclaim, rest
    # priority"): seat 2 takes its own stick back: -1,000 + 1,000 + 1,000 = 1,000; seat 1
    # takes its own and the one left from E1: -1,000 + 3,200 + 2,000 = 4,200.
    hands = [ONE_HONBA_AND_A_STICK, double_ron(0, *DOUBLE_RON, riichi=[1, 2])]
    result = play(hands, rules_with(multi_ron_sticks="own_back"))
    assert result["hands"][1]["deltas"] == [-4200, 4200, 1000, 0]


def test_riichi_of_both_winners_at_a_double_ron_is_counted_for_both(play):
    # Both winners' sticks are in the hand's riichi list and both are paid out: under
    # own_back with multi_ron_honba each (the EMA pair) seat 2 ends at 25,000 - 1,000 +
    # 1,300 + 1,000 and seat 1 at 25,000 - 1,000 + 3,200 + 1,000 (no stick from E1).
    hands = [ONE_HONBA, double_ron(0, *DOUBLE_RON, riichi=[1, 2])]
    rules = rules_with(multi_ron_sticks="own_back", multi_ron_honba="each")
    result = play(hands, rules)
    assert result["hands"][1]["scores_after"] == [20500, 28200, 26300, 25000]
    assert sum(result["hands"][1]["scores_after"]) == 100000


def test_a_riichi_stick_of_a_player_who_is_not_a_winner_goes_to_the_first_winner(play):
    # Seat 3 declared riichi and lost: under own_back its stick goes to seat 1.
    hands = [ONE_HONBA, double_ron(0, *DOUBLE_RON, riichi=[2, 3])]
    result = play(hands, rules_with(multi_ron_sticks="own_back"))
    assert result["hands"][1]["deltas"] == [-4200, 4200, 1000, -1000]


def test_head_bump_pays_no_second_winner_whatever_the_stick_rule(play):
    # Head bump: only seat 1 is paid; seat 2's riichi stick is lost to seat 1.
    hands = [ONE_HONBA, double_ron(0, *DOUBLE_RON, riichi=[2])]
    rules = rules_with(multi_ron="head_bump", multi_ron_sticks="own_back")
    assert play(hands, rules)["hands"][1]["deltas"] == [-3200, 4200, -1000, 0]


# pao_honba


def pao_ron(winner, loser, pao, yakuman=1, **extra):
    win = {"winner": winner, "loser": loser, "yakuman": yakuman, "pao": pao, **extra}
    return {"result": "ron", "riichi": [], "wins": [win]}


def pao_tsumo(winner, pao, yakuman=1, **extra):
    win = {"winner": winner, "yakuman": yakuman, "pao": pao, **extra}
    return {"result": "tsumo", "riichi": [], "wins": [win]}


def test_pao_honba_discarder_makes_the_discarder_pay_the_honba(play):
    # E2, 1 honba: seat 2 (not dealer) rons seat 0 for a yakuman, seat 3 liable. spec,
    # pao_honba "discarder": 32,000 split 16,000 / 16,000, the discarder adds 300.
    result = play([ONE_HONBA, pao_ron(2, 0, pao=3)], rules_with(pao_honba="discarder"))
    assert result["hands"][1]["deltas"] == [-16300, 0, 32300, -16000]


def test_pao_honba_liable_makes_the_liable_player_pay_the_honba(play):
    # spec, pao_honba "liable" (Tenhou: the honba are pao's): the liable seat 3 pays
    # 16,000 + 300, the discarder 16,000.
    result = play([ONE_HONBA, pao_ron(2, 0, pao=3)], rules_with(pao_honba="liable"))
    assert result["hands"][1]["deltas"] == [-16000, 0, 32300, -16300]


def test_a_liable_discarder_pays_the_whole_ron_alone(play):
    result = play([pao_ron(2, 0, pao=0)])
    assert result["hands"][0]["deltas"] == [-32000, 0, 32000, 0]


# pao_scope, and pao on a double yakuman


def test_pao_scope_whole_makes_the_liable_player_pay_a_whole_double_yakuman_tsumo(play):
    # E1 (dealer seat 0): seat 2 tsumos a double yakuman, seat 3 liable. spec, pao_scope
    # "whole": seat 3 pays all of it: 32,000 (the dealer's share) + 16,000 + 16,000.
    result = play([pao_tsumo(2, pao=3, yakuman=2)], rules_with(pao_scope="whole"))
    assert result["hands"][0]["deltas"] == [0, 0, 64000, -64000]


def test_pao_scope_fed_yakuman_makes_the_liable_player_pay_only_the_fed_yakuman(play):
    # spec, pao_scope "fed_yakuman", pao_yakuman 1 (Mahjong Soul): seat 3 pays the fed
    # yakuman alone (16,000 + 8,000 + 8,000 = 32,000); the other yakuman is an ordinary
    # tsumo: dealer 16,000, seats 1 and 3 8,000 each. Seat 3: 40,000 in all.
    hand = pao_tsumo(2, pao=3, yakuman=2, pao_yakuman=1)
    result = play([hand], rules_with(pao_scope="fed_yakuman"))
    assert result["hands"][0]["deltas"] == [-16000, -8000, 64000, -40000]


def test_pao_on_a_double_yakuman_ron_splits_only_the_fed_part(play):
    # Seat 2 rons seat 0 for a double yakuman (64,000), seat 3 liable for one of them.
    # whole: liable and discarder halve all of it, 32,000 each.
    result = play([pao_ron(2, 0, pao=3, yakuman=2)], rules_with(pao_scope="whole"))
    assert result["hands"][0]["deltas"] == [-32000, 0, 64000, -32000]
    # fed_yakuman: the fed 32,000 is halved (16,000 each); the discarder pays the other
    # yakuman alone: 16,000 + 32,000 = 48,000.
    result = play(
        [pao_ron(2, 0, pao=3, yakuman=2, pao_yakuman=1)], rules_with(pao_scope="fed_yakuman")
    )
    assert result["hands"][0]["deltas"] == [-48000, 0, 64000, -16000]


def test_pao_scope_fed_yakuman_with_every_yakuman_fed_is_the_whole_win(play):
    hand = pao_tsumo(2, pao=3, yakuman=2, pao_yakuman=2)
    result = play([hand], rules_with(pao_scope="fed_yakuman"))
    assert result["hands"][0]["deltas"] == [0, 0, 64000, -64000]


def test_pao_on_a_double_yakuman_without_multiples_is_one_yakuman(play):
    # double_yakuman off: the win is worth one yakuman whatever pao_yakuman says.
    rules = rules_with(pao_scope="fed_yakuman", double_yakuman=False)
    result = play([pao_tsumo(2, pao=3, yakuman=2, pao_yakuman=1)], rules)
    assert result["hands"][0]["deltas"] == [0, 0, 32000, -32000]


def test_a_partly_liable_tsumo_pays_the_honba_as_an_ordinary_tsumo(play):
    # E2 (dealer seat 1), 1 honba: seat 2 tsumos a double yakuman, seat 3 liable for one.
    # Fed: 16,000 + 8,000 + 8,000 from seat 3; the rest: dealer 16,000 + 100, seats 0
    # and 3 8,000 + 100.
    hand = pao_tsumo(2, pao=3, yakuman=2, pao_yakuman=1)
    result = play([ONE_HONBA, hand], rules_with(pao_scope="fed_yakuman"))
    assert result["hands"][1]["deltas"] == [-8100, -16100, 64300, -40100]


def test_pao_yakuman_needs_pao_and_at_most_the_wins_multiple():
    with pytest.raises(ScoringError, match="hand 1: 'pao_yakuman' needs 'pao'"):
        replay(parse_record(make_record([tsumo(2, yakuman=2, pao_yakuman=1)])))
    with pytest.raises(ScoringError, match="hand 1: 'pao_yakuman' must be 1 to"):
        replay(parse_record(make_record([pao_tsumo(2, pao=3, yakuman=2, pao_yakuman=3)])))


def test_pao_yakuman_survives_a_dump_and_parse():
    from scoring import dump_record

    record = parse_record(make_record([pao_tsumo(2, pao=3, yakuman=2, pao_yakuman=1)]))
    assert dump_record(record)["hands"][0]["wins"][0]["pao_yakuman"] == 1
    assert parse_record(dump_record(record)) == record


# Leftover sticks between players tied for first (ties: split)


def test_players_tied_for_first_split_the_leftover_sticks_under_split_ties(play):
    # E1: seats 2 and 3 declare riichi, nobody tenpai; time is called. Seats 0 and 1
    # are tied first on 25,000. spec ("With ties: split, players tied for first share
    # the leftover sticks"): 2,000 / 2 = 1,000 each.
    result = play([draw(riichi=[2, 3])], rules_with(ties="split"), ended_early="time")
    assert result["final_scores"] == [26000, 26000, 24000, 24000]
    assert result["placements"] == [1, 1, 3, 3]


def test_under_seat_order_ties_the_first_seat_takes_every_leftover_stick(play):
    result = play([draw(riichi=[2, 3])], rules_with(ties="seat_order"), ended_early="time")
    assert result["final_scores"] == [27000, 25000, 24000, 24000]


def test_leftover_sticks_that_do_not_divide_go_to_the_tied_seat_nearest_the_first_dealer(play):
    # Three tied first and one stick: 333 each, the point left over to seat 0 (spec:
    # "what does not divide goes to the tied player nearest the first dealer's seat").
    # The three stay tied for first: places are decided before the sticks are shared.
    result = play([draw(riichi=[3])], rules_with(ties="split"), ended_early="time")
    assert result["final_scores"] == [25334, 25333, 25333, 24000]
    assert result["placements"] == [1, 1, 1, 4]
    # They share 1st to 3rd place's uma and the oka, 50 in all: 16.7, 16.7 and 16.6
    # (the tenth left over to the seat nearest the first dealer). Seat 0: -4.666 + 16.7
    # = 12.034, seat 1: -4.667 + 16.7 = 12.033, seat 2: -4.667 + 16.6 = 11.933, seat 3:
    # -6 - 30 = -36. Rounded to tenths they would sum to -0.1: first place (seat 0 in
    # seat order) absorbs the rounding, so the table still sums to zero.
    assert result["match_points"] == [12.1, 12.0, 11.9, -36.0]


# Edge cases other trackers got wrong


def test_oka_bookkeeping_goes_to_first_place_only_and_match_points_sum_to_zero(play):
    # Ari-Ari 7.2: return 30,000, start 25,000, oka 4 x 5 = +20 to first place alone.
    # One 5,200 ron: 30,200 / 19,800 / 25,000 / 25,000 after E1; a 2 han 40 fu dealer ron
    # is not played: time is called. Seat 1: 0.2 + 30 + 20 = 50.2; seat 2 and 3 (tied on
    # 25,000, seat order): -5 + 10 = 5, -5 - 10 = -15; seat 0: -10.2 - 30 = -40.2.
    result = play([ron(1, 0, han=3, fu=40)], ended_early="time")
    assert result["match_points"] == [-40.2, 50.2, 5.0, -15.0]
    assert sum(Decimal(str(p)) for p in result["match_points"]) == 0


def test_oka_bookkeeping_tied_first_places_share_oka_and_uma(play):
    # ties split: seats 2 and 3 tie for 2nd and share (10 - 10) / 2 = 0 each; first
    # place keeps the whole oka.
    result = play([ron(1, 0, han=3, fu=40)], rules_with(ties="split"), ended_early="time")
    assert result["match_points"] == [-40.2, 50.2, -5.0, -5.0]


def test_oka_bookkeeping_an_explicit_oka_replaces_the_computed_one(play):
    result = play([ron(1, 0, han=3, fu=40)], rules_with(oka=0), ended_early="time")
    assert result["match_points"][1] == 30.2


def test_leftover_sticks_after_a_game_ended_by_time_go_to_first_place(play):
    # E1: riichi by seat 0, seat 1 rons seat 2 for 1,000 (stick to seat 1); E2: riichi
    # by seat 3 and a noten draw: one stick on the table when time is called.
    hands = [ron(1, 2, han=1, fu=30, riichi=[0]), draw(riichi=[3])]
    result = play(hands, ended_early="time")
    assert result["leftover_sticks"] == 1
    assert result["final_scores"] == [24000, 28000, 24000, 24000]
    assert result["ended_by"] == "time"


def test_nagashi_mangan_with_riichi_bets_leaves_the_sticks_on_the_table(play):
    # E1: seats 1 and 2 declare riichi; seat 3 has nagashi mangan (a mangan tsumo from
    # the others: dealer 4,000, 2,000 each). The sticks are not won by the nagashi: they
    # stay for the next win (spec: nagashi payments replace noten payments).
    nagashi = {"result": "nagashi", "riichi": [1, 2], "nagashi": [3], "tenpai": [1, 2]}
    result = play([nagashi, tsumo(0, han=1, fu=30)])
    first = result["hands"][0]
    assert first["deltas"] == [-4000, -3000, -3000, 8000]
    assert first["sticks_after"] == 2
    # E2 (dealer seat 1, 1 honba): seat 0 tsumos 1 han 30 fu (500/300 +100 each) and
    # collects both sticks.
    assert result["hands"][1]["deltas"] == [600 + 400 + 400 + 2000, -600, -400, -400]


def test_the_dealer_repeats_after_a_nagashi_when_tenpai(play):
    nagashi = {"result": "nagashi", "riichi": [], "nagashi": [3], "tenpai": [0]}
    result = play([nagashi, draw()])
    assert result["hands"][1]["round"] == "E1"
    assert result["hands"][1]["honba"] == 1


def test_the_deal_passes_after_a_nagashi_when_the_dealer_is_noten(play):
    nagashi = {"result": "nagashi", "riichi": [], "nagashi": [0], "tenpai": []}
    result = play([nagashi, draw()])
    # The dealer's own nagashi does not keep the deal: only tenpai does.
    assert result["hands"][1]["round"] == "E2"
    assert result["hands"][1]["honba"] == 1


def _into_the_west_round():
    """Eight noten draws: nobody reaches 30,000, so a west-round game goes on to W1."""
    return [draw() for _ in range(8)]


def test_a_chombo_in_the_west_round_does_not_end_the_game(play):
    chombo = {"result": "chombo", "riichi": [], "offender": 1}
    result = play([*_into_the_west_round(), chombo], rules_with(west_round=True))
    assert result["hands"][-1]["round"] == "W1"
    # Seat 0 (dealer) takes 4,000 and reaches 29,000: below the target, and a chombo
    # hand is played again anyway.
    assert result["finished"] is False


def test_a_chombo_in_the_west_round_that_lifts_a_player_past_the_target_does_not_end_it(play):
    # E1: seat 1 tsumos 1 han 30 fu (+1,100), then seven noten draws: W1 with the dealer
    # seat 0 on 24,500. Two chombo by seat 1 pay the dealer 4,000 each: 32,500, past the
    # target, but a chombo hand is played again, so the game goes on.
    hands = [tsumo(1, han=1, fu=30), *[draw() for _ in range(7)]]
    chombo = {"result": "chombo", "riichi": [], "offender": 1}
    result = play([*hands, chombo, chombo], rules_with(west_round=True))
    assert result["hands"][-1]["round"] == "W1"
    assert result["hands"][-1]["scores_after"][0] == 32500
    assert result["finished"] is False


def test_an_abort_in_the_west_round_does_not_end_the_game(play):
    abort = {"result": "abort", "riichi": [], "reason": "four_winds"}
    result = play([*_into_the_west_round(), abort], rules_with(west_round=True))
    assert result["finished"] is False
    # The same dealer deals again with one more honba.
    assert result["hands"][-1]["round"] == "W1"


def test_a_chombo_that_busts_a_player_in_the_west_round_ends_the_game(play):
    # Everyone starts on 5,000, so nobody reaches 30,000 and W1 is played. Seat 1's chombo
    # at W1 costs 4,000 + 2,000 + 2,000 (reverse mangan): -3,000 is a bust.
    chombo = {"result": "chombo", "riichi": [], "offender": 1}
    result = play([*_into_the_west_round(), chombo], rules_with(west_round=True, start_points=5000))
    assert result["hands"][-1]["round"] == "W1"
    assert result["ended_by"] == "bust"

"""When a game ends, what happens to the sticks left over, and hands listed after the end."""

from __future__ import annotations

import pytest

from scoring import ScoringError

from .builders import draw, ron, rules_with, tsumo


def noten_draws(count):
    """Draws where nobody is tenpai: the deal passes each time, no points move."""
    return [draw() for _ in range(count)]


def hands_to_south_4_with_seat_3_leading():
    """E1 to S3, each won by a non-dealer, so that seat 3 leads when it deals South 4."""
    return [
        ron(3, 1, han=5),  # E1: seat 3 +8000
        ron(3, 2, han=5),  # E2: seat 3 +8000
        ron(0, 1, han=1, fu=30),  # E3
        ron(1, 2, han=1, fu=30),  # E4 (dealer 3 does not win, the deal passes)
        ron(2, 0, han=1, fu=30),  # S1
        ron(0, 1, han=1, fu=30),  # S2
        ron(1, 0, han=1, fu=30),  # S3
    ]


def test_a_hanchan_ends_when_the_deal_passes_after_south_4(play):
    result = play(noten_draws(8))
    assert [h["round"] for h in result["hands"]] == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    assert result["finished"] is True
    assert result["ended_by"] == "last_hand"
    assert result["final_scores"] == [25000] * 4


def test_a_game_in_progress_has_no_final_fields(play):
    result = play(noten_draws(7))
    assert result["finished"] is False
    assert result["ended_by"] is None
    assert result["final_scores"] is result["placements"] is result["match_points"] is None


def test_an_east_only_game_ends_after_east_4(play):
    result = play(noten_draws(4), rules_with(length="tonpuusen"))
    assert result["ended_by"] == "last_hand"


def test_a_hand_after_the_end_of_the_game_is_refused_with_its_number(play):
    with pytest.raises(ScoringError, match=r"hand 9: the game already ended \(last_hand\)"):
        play(noten_draws(9))


def test_a_dealer_tenpai_at_south_4_plays_on(play):
    result = play([*noten_draws(7), draw(3)])
    assert result["finished"] is False


def test_a_score_below_zero_ends_the_game_by_bust(play):
    result = play([ron(1, 0, riichi=[0], han=11), ron(2, 0, han=1, fu=30)])
    assert result["hands"][1]["scores_after"][0] == -1000
    assert result["ended_by"] == "bust"
    assert result["finished"] is True


def test_exactly_zero_points_is_not_a_bust(play):
    result = play([ron(1, 0, riichi=[0], han=11)])
    assert result["hands"][0]["scores_after"][0] == 0
    assert result["finished"] is False


def test_without_bust_a_negative_score_plays_on(play):
    result = play([ron(1, 0, riichi=[0], han=11), ron(2, 0)], rules_with(bust="off"))
    assert result["finished"] is False


def test_a_chombo_payment_can_bust_a_player(play):
    hands = [ron(1, 0, riichi=[0], han=11), {"result": "chombo", "riichi": [], "offender": 0}]
    assert play(hands)["ended_by"] == "bust"


def test_agari_yame_ends_the_game_when_the_leading_all_last_dealer_wins(play):
    hands = [*hands_to_south_4_with_seat_3_leading(), ron(3, 0, han=1, fu=30)]
    result = play(hands, rules_with(agari_yame=True))
    assert result["hands"][-1]["round"] == "S4"
    assert result["ended_by"] == "agari_yame"
    assert result["placements"][3] == 1
    assert play(hands)["finished"] is False  # ari-ari plays on


def test_agari_yame_does_not_end_the_game_for_a_dealer_who_is_not_leading(play):
    hands = [ron(1, 2, han=5), *noten_draws(6), ron(3, 2, han=1, fu=30)]
    result = play(hands, rules_with(agari_yame=True))
    last = result["hands"][-1]
    assert last["round"] == "S4"
    assert last["scores_after"][3] < last["scores_after"][1]
    assert result["finished"] is False


def test_tenpai_yame_ends_the_game_when_the_leading_all_last_dealer_is_tenpai(play):
    hands = [*hands_to_south_4_with_seat_3_leading(), draw(3)]
    assert play(hands, rules_with(tenpai_yame=True))["ended_by"] == "tenpai_yame"
    assert play(hands)["finished"] is False


def test_with_a_west_round_a_leading_dealer_below_the_return_score_cannot_stop(play):
    # Everyone at 25,000; at S4 the dealer is tenpai alone: 28,000, leading but below 30,000.
    hands = [*noten_draws(7), draw(3)]
    result = play(hands, rules_with("tenhou"))
    assert result["finished"] is False


def test_the_west_round_is_played_when_nobody_reached_the_return_score(play):
    result = play(noten_draws(9), rules_with(west_round=True))
    assert result["hands"][8]["round"] == "W1"
    assert result["finished"] is False


def test_the_west_round_ends_as_soon_as_the_deal_passes_with_someone_past_the_return_score(play):
    hands = [*noten_draws(8), ron(1, 2, han=3, fu=40)]  # W1: 5,200 + 8 honba: 32,600
    result = play(hands, rules_with(west_round=True))
    assert result["ended_by"] == "west_round"
    assert result["final_scores"][1] >= 30000


def test_in_the_west_round_a_dealer_repeat_plays_on_even_past_the_return_score(play):
    hands = [*noten_draws(8), tsumo(0, han=5)]  # W1: the dealer takes 4,800 all: 39,400
    assert play(hands, rules_with(west_round=True))["finished"] is False
    # ...unless the leading dealer may stop (Tenhou's automatic agari-yame).
    assert play(hands, "tenhou")["ended_by"] == "agari_yame"


def test_the_west_round_ends_after_west_4_whatever_the_scores(play):
    result = play(noten_draws(12), rules_with(west_round=True))
    assert result["hands"][-1]["round"] == "W4"
    assert result["ended_by"] == "west_round"
    with pytest.raises(ScoringError, match="hand 13: the game already ended"):
        play(noten_draws(13), rules_with(west_round=True))


def test_a_game_where_someone_reached_the_return_score_ends_after_south_4(play):
    hands = [*hands_to_south_4_with_seat_3_leading(), ron(0, 1, han=1, fu=30)]
    assert play(hands, rules_with(west_round=True))["ended_by"] == "last_hand"


def test_leftover_sticks_go_to_first_place(play):
    result = play([*noten_draws(7), draw(0, 1, riichi=[0, 1])])
    assert result["leftover_sticks"] == 2
    assert result["hands"][-1]["scores_after"] == [25500, 25500, 23500, 23500]
    # Seats 0 and 1 tie on 25,500; seat 0 sits nearer the first dealer and takes the sticks.
    assert result["final_scores"] == [27500, 25500, 23500, 23500]
    assert result["placements"] == [1, 2, 3, 4]


def test_leftover_sticks_can_be_lost(play):
    result = play([*noten_draws(7), draw(0, 1, riichi=[0, 1])], rules_with(leftover_sticks="lost"))
    assert result["leftover_sticks"] == 2
    assert result["final_scores"] == [25500, 25500, 23500, 23500]

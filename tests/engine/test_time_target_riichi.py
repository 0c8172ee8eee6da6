"""Games ended by time, the target score, and the points needed to declare riichi."""

from __future__ import annotations

import json

import pytest

from scoring import ScoringError, dump_record, parse_record
from scoring.__main__ import main

from .builders import draw, make_record, ron, rules_with, tsumo


def test_a_game_ended_by_time_is_finished_after_its_last_hand(play):
    result = play([ron(1, 0, han=3, fu=40), draw()], ended_early="time")
    assert result["finished"] is True
    assert result["ended_by"] == "time"
    assert result["final_scores"] == [19800, 30200, 25000, 25000]
    assert result["placements"] == [4, 1, 2, 3]


def test_sticks_left_when_time_is_called_go_to_first_place_under_leftover_sticks_first(play):
    # E1: seat 2 riichi, nobody tenpai: the stick stays on the table when time is called.
    result = play([draw(riichi=[2])], ended_early="time")
    assert result["leftover_sticks"] == 1
    # All tied on 25,000 but seat 2 on 24,000: seat 0 places first by seat order.
    assert result["final_scores"] == [26000, 25000, 24000, 25000]


def test_sticks_left_when_time_is_called_are_lost_under_leftover_sticks_lost(play):
    result = play([draw(riichi=[2])], rules_with(leftover_sticks="lost"), ended_early="time")
    assert result["final_scores"] == [25000, 25000, 24000, 25000]


def test_ended_early_without_hands_is_refused():
    with pytest.raises(ScoringError, match="before its first hand"):
        parse_record(make_record([], ended_early="time"))


def test_ended_early_with_final_scores_is_refused():
    doc = make_record(None, final_scores=[25000] * 4, leftover_sticks=0, ended_early="time")
    with pytest.raises(ScoringError, match="ended_early"):
        parse_record(doc)


def test_ended_early_other_than_time_is_refused():
    with pytest.raises(ScoringError, match="'ended_early' must be 'time'"):
        parse_record(make_record([draw()], ended_early="rain"))


def test_a_hand_after_the_natural_end_is_still_refused_when_time_was_called(play):
    hands = [draw() for _ in range(9)]
    with pytest.raises(ScoringError, match="hand 9: the game already ended"):
        play(hands, ended_early="time")


def test_ended_early_survives_a_dump_and_parse():
    record = parse_record(make_record([draw()], ended_early="time"))
    assert dump_record(record)["ended_early"] == "time"
    assert parse_record(dump_record(record)) == record


def test_the_command_line_scores_a_game_ended_by_time(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(make_record([draw()], ended_early="time")))
    assert main(["score", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ended_by"] == "time" and out["finished"] is True


def _to_south_4_with_seat_3_on_28900():
    """E1 to S3, each a ron that passes the deal: dealer seat 3 leads South 4 on 28,900."""
    return [
        ron(3, 1, han=3, fu=30),  # E1 +3900 (seat 3: 28,900)
        ron(2, 0, han=1, fu=30),  # E2
        ron(0, 1, han=1, fu=30),  # E3
        ron(1, 2, han=1, fu=30),  # E4 (dealer 3 does not win)
        ron(2, 0, han=1, fu=30),  # S1
        ron(0, 1, han=1, fu=30),  # S2
        ron(1, 2, han=1, fu=30),  # S3
    ]


def test_agari_yame_needs_the_target_score_not_only_the_lead(play):
    hands = [*_to_south_4_with_seat_3_on_28900(), ron(3, 0, han=1, fu=30)]  # S4: +1500
    # Seat 3 leads with 30,400 after S4: enough for the return score 30,000.
    result = play(hands, rules_with(agari_yame=True))
    assert result["hands"][-1]["scores_after"][3] == 30400
    assert result["ended_by"] == "agari_yame"
    # With a target of 31,000 the leading dealer has not reached it and plays on.
    result = play(hands, rules_with(agari_yame=True, target_points=31000))
    assert result["finished"] is False


def test_the_west_round_ends_when_someone_reaches_the_target_score(play):
    # Noten draws to S4 (7 honba), then a 3 han 25 fu ron in S4: 3,200 + 2,100 honba
    # puts seat 1 on 30,300.
    hands = [draw() for _ in range(7)] + [ron(1, 0, han=3, fu=25)]
    result = play(hands, rules_with(west_round=True))
    assert result["ended_by"] == "last_hand"
    # A target of 31,000 sends the game into the west round.
    result = play(hands, rules_with(west_round=True, target_points=31000))
    assert result["finished"] is False
    # W1 (dealer seat 0): seat 1 rons for 1,000 and reaches 31,300; the deal passes.
    more = play([*hands, ron(1, 2, han=1, fu=30)], rules_with(west_round=True, target_points=31000))
    assert more["ended_by"] == "west_round"


def test_target_points_defaults_to_the_return_score():
    record = parse_record(make_record([], rules_with(return_points=28000)))
    assert record.rules.target_points is None
    assert record.rules.target == 28000


def test_target_points_must_be_whole_hundreds():
    with pytest.raises(ScoringError, match="target_points"):
        parse_record(make_record([], rules_with(target_points=30050)))


def test_a_riichi_from_a_seat_below_1000_points_is_refused_naming_the_hand(play):
    # Seat 1 pays a dealer haneman (18,000: 7,000 left), then a dealer 3 han 60 fu
    # (11,600 + 300 honba: -4,900 left; no bust, so play goes on).
    hands = [
        ron(0, 1, han=6),  # 18,000: seat 1 on 7,000
        ron(0, 1, han=3, fu=60),  # 11,600 + 300 honba: seat 1 on -4,900
        tsumo(2, riichi=[1]),
    ]
    with pytest.raises(ScoringError, match=r"hand 3: seat 1 declared riichi with -4,900 points"):
        play(hands, rules_with(bust="off"))


def test_a_riichi_needs_the_minimum_and_zero_allows_any_score(play):
    # Seat 1 pays a dealer haneman (18,000), then a dealer 3 han 30 fu (5,800 + 300
    # honba): 900 left.
    hands = [ron(0, 1, han=6), ron(0, 1, han=3, fu=30)]
    result = play(hands)
    assert result["hands"][-1]["scores_after"][1] == 900
    with pytest.raises(ScoringError, match="hand 3: seat 1 declared riichi with 900 points"):
        play([*hands, draw(riichi=[1])])
    # With a minimum of 900 the same riichi is allowed; with 0, any score may declare.
    assert play([*hands, draw(riichi=[1])], rules_with(riichi_min_points=900))
    assert play([*hands, draw(riichi=[1])], rules_with(riichi_min_points=0))


def test_a_riichi_min_points_of_0_allows_a_riichi_below_zero(play):
    hands = [ron(0, 1, han=6), ron(0, 1, han=3, fu=60), tsumo(2, riichi=[1])]
    result = play(hands, rules_with(bust="off", riichi_min_points=0))
    assert result["hands"][2]["scores_before"][1] == -4900

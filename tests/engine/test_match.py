"""Placements and match points: return score, uma, oka, ties, rounding and penalties."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import ScoringError
from scoring.match import match_points, placements
from scoring.rules import Rules, Ties, resolve_rules

from .builders import rules_with

SEED_EXAMPLE = [41300, 24900, 21800, 12000]


def final_only(play, scores, rules="ari-ari", sticks=0, **extra):
    return play(None, rules, final_scores=scores, leftover_sticks=sticks, **extra)


def test_the_seed_example_game_gives_its_match_points(play):
    result = final_only(play, SEED_EXAMPLE)
    assert result["finished"] is True
    assert result["placements"] == [1, 2, 3, 4]
    assert result["match_points"] == [61.3, 4.9, -18.2, -48.0]


def test_match_points_are_exact_decimals_that_sum_to_zero():
    points = match_points([32100, 28700, 24900, 14300], Rules())
    assert points == [Decimal("52.1"), Decimal("8.7"), Decimal("-15.1"), Decimal("-45.7")]
    assert sum(points) == 0


def test_equal_scores_place_by_seat_order():
    assert placements([25000, 30000, 25000, 20000], ties=Ties.SEAT_ORDER) == [2, 1, 3, 4]
    points = match_points([25000, 30000, 25000, 20000], Rules())
    # Seat 0 takes 2nd place's uma, seat 2 3rd place's.
    assert points == [Decimal(5), Decimal(50), Decimal(-15), Decimal(-40)]


def test_split_ties_share_the_uma_of_the_places_they_hold(play):
    result = final_only(play, [25000, 30000, 25000, 20000], rules_with(ties="split"))
    assert result["placements"] == [2, 1, 2, 4]
    # 2nd and 3rd uma (+10, -10) shared: 0 each, on top of -5.
    assert result["match_points"] == [-5.0, 50.0, -5.0, -40.0]


def test_a_tie_for_first_shares_the_oka_too():
    rules = resolve_rules(rules_with(ties="split"))
    points = match_points([35000, 35000, 20000, 10000], rules)
    # (+30 +10 +20 oka) / 2 = +30 each, on top of +5.
    assert points[:2] == [Decimal(35), Decimal(35)]
    assert sum(points) == 0


def test_a_three_way_tie_splits_to_tenths_and_still_sums_to_zero():
    rules = resolve_rules(rules_with(ties="split", uma=[20, 10, -10, -20]))
    points = match_points([30000, 30000, 30000, 10000], rules)
    # (+20 +10 -10 +20 oka) = 40 over three: 13.4, 13.3, 13.3; seat 0 takes the odd tenth.
    assert points == [Decimal("13.4"), Decimal("13.3"), Decimal("13.3"), Decimal(-40)]
    assert sum(points) == 0


def test_rounding_to_thousands_rounds_everyone_but_first_who_takes_the_remainder():
    rules = resolve_rules(rules_with("tenhou", rounding="thousands"))
    # Tenhou log 2019021004gm-00a9-0000-e2f6516d: final scores and its match points.
    assert match_points([4400, 7100, 40700, 47800], rules) == [
        Decimal(-46),
        Decimal(-33),
        Decimal(21),
        Decimal(58),
    ]


def test_rounding_to_thousands_rounds_halves_up():
    rules = resolve_rules(rules_with("tenhou", rounding="thousands"))
    points = match_points([40000, 30500, 19500, 10000], rules)
    assert points[1:] == [Decimal(11), Decimal(-20), Decimal(-40)]
    assert sum(points) == 0


def test_penalties_apply_after_uma_and_oka(play):
    penalty = [{"seat": 2, "match_points": -20.0, "reason": "late"}]
    result = final_only(play, SEED_EXAMPLE, penalties=penalty)
    assert result["match_points"] == [61.3, 4.9, -38.2, -48.0]
    assert result["placements"] == [1, 2, 3, 4]


def test_a_penalty_chombo_costs_its_penalty_at_the_end(play):
    hands = [{"result": "chombo", "riichi": [], "offender": 1}] + [
        {"result": "draw", "riichi": [], "tenpai": []} for _ in range(8)
    ]
    result = play(hands, rules_with(chombo="penalty", chombo_penalty=-20))
    assert result["final_scores"] == [25000] * 4
    # All tied at 25,000: seat order gives places 1..4; then seat 1 loses 20.
    assert result["match_points"] == [45.0, -15.0, -15.0, -35.0]


def test_final_scores_with_sticks_give_the_sticks_to_first(play):
    result = final_only(play, [40300, 24900, 21800, 12000], sticks=1)
    assert result["final_scores"] == SEED_EXAMPLE
    assert result["leftover_sticks"] == 1
    assert result["match_points"] == [61.3, 4.9, -18.2, -48.0]


@pytest.mark.parametrize(
    "scores, sticks, message",
    [
        ([41300, 24900, 21800, 11000], 0, "add up to 99,000; they must make 100,000"),
        ([41300, 24900, 21800, 12000], 1, "plus 1 stick(s) on the table; they must make 100,000"),
        ([41350, 24850, 21800, 12000], 0, "multiples of 100"),
        ([41300, 24900, 21800], 0, "four scores"),
    ],
)
def test_final_scores_that_do_not_add_up_are_refused(play, scores, sticks, message):
    with pytest.raises(ScoringError, match=message.replace("(", r"\(").replace(")", r"\)")):
        final_only(play, scores, sticks=sticks)


@pytest.mark.parametrize(
    "preset, expected",
    [
        ("ari-ari", [61.3, 4.9, -18.2, -48.0]),
        ("tenhou", [51.3, 4.9, -18.2, -38.0]),
        ("mleague", [61.3, 4.9, -18.2, -48.0]),
    ],
)
def test_presets_turn_the_seed_scores_into_their_own_match_points(play, preset, expected):
    assert final_only(play, SEED_EXAMPLE, preset)["match_points"] == expected


def test_mahjong_soul_counts_from_25000_with_no_oka(play):
    result = final_only(play, SEED_EXAMPLE, "mahjongsoul")
    # (s - 25,000) / 1000 + 15 / 5 / -5 / -15
    assert result["match_points"] == [31.3, 4.9, -8.2, -28.0]


def test_thirty_thousand_start_presets_need_120000_points(play):
    assert final_only(play, [45000, 35000, 25000, 15000], "ema")["match_points"] == [
        30.0,
        10.0,
        -10.0,
        -30.0,
    ]

"""The three rating formulas, each figure worked out by hand in a comment (no database)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from ratings import (
    EventTotal,
    MersResult,
    RatingError,
    RGame,
    age_factor,
    best_of,
    mers,
    place_score,
    ranked,
    tenhou_r,
)
from ratings.formulas import games_factor

DAY = datetime.date(2026, 6, 1)


def fresh(event, base_rank, weight=1, played=DAY):
    return MersResult(event, played, Decimal(base_rank), Decimal(weight))


# --- MERS -------------------------------------------------------------------------------


def test_a_result_exactly_one_year_old_counts_in_full_and_a_day_older_counts_half():
    # Reckoning 2026-06-01: 2025-06-01 is one year old (factor 1); 2025-05-31 is past it.
    assert age_factor(datetime.date(2025, 6, 1), DAY) == 1
    assert age_factor(datetime.date(2025, 5, 31), DAY) == Decimal("0.5")


def test_a_result_exactly_two_years_old_counts_half_and_a_day_older_not_at_all():
    assert age_factor(datetime.date(2024, 6, 1), DAY) == Decimal("0.5")
    assert age_factor(datetime.date(2024, 5, 31), DAY) == 0


def test_a_result_after_the_reckoning_date_does_not_count():
    assert age_factor(datetime.date(2026, 6, 2), DAY) == 0


def test_a_leap_day_reckoning_counts_back_to_the_28th_of_february():
    leap = datetime.date(2028, 2, 29)
    assert age_factor(datetime.date(2027, 2, 28), leap) == 1
    assert age_factor(datetime.date(2027, 2, 27), leap) == Decimal("0.5")


def test_a_player_with_two_results_is_ranked_with_three_missing_results_padded_as_zero():
    # Part A: (1000 + 500 + 0 + 0 + 0) / 5 = 300 (three padding results of 0, weight 1).
    # Part B: the best four of two: (1000 + 500) / 2 = 750. Value (300 + 750) / 2 = 525.
    value = mers([fresh(1, 1000), fresh(2, 500)], reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("300.00"),
        Decimal("750.00"),
        Decimal("525.00"),
    )
    assert value.counted == 2
    assert [line.padding for line in value.lines] == [False, False, True, True, True]


def test_a_player_with_one_result_is_not_ranked():
    value = mers([fresh(1, 1000)], reckoning=DAY)
    assert value.value is None and value.counted == 1


def test_a_result_aged_out_does_not_make_a_second_result():
    old = fresh(2, 900, played=datetime.date(2023, 1, 1))
    value = mers([fresh(1, 1000), old], reckoning=DAY)
    assert value.value is None
    assert value.lines[-1].event == 2 and value.lines[-1].age == 0


def test_three_results_are_padded_to_five_in_part_a_only():
    # Part A: (1000 + 800 + 600 + 0 + 0) / 5 = 480. Part B: (1000 + 800 + 600) / 3 = 800.
    # Value (480 + 800) / 2 = 640.
    value = mers([fresh(1, 600), fresh(2, 1000), fresh(3, 800)], reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("480.00"),
        Decimal("800.00"),
        Decimal("640.00"),
    )
    # Best first, then the two padding results.
    assert [line.event for line in value.lines] == [2, 3, 1, None, None]


def test_results_past_the_best_five_count_at_eighty_percent_in_part_a():
    # Part A: (900 + 800 + 700 + 600 + 500 + 0.8 x 400) / (5 + 0.8) = 3820 / 5.8
    # = 658.6206...; part B: (900 + 800 + 700 + 600) / 4 = 750;
    # value (658.6206... + 750) / 2 = 704.3103... -> 704.31.
    results = [fresh(n, rank) for n, rank in enumerate((400, 500, 600, 700, 800, 900))]
    value = mers(results, reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("658.62"),
        Decimal("750.00"),
        Decimal("704.31"),
    )
    assert [line.part_a for line in value.lines] == [1, 1, 1, 1, 1, Decimal("0.8")]
    assert [line.in_part_b for line in value.lines] == [True] * 4 + [False] * 2


def test_tournament_weight_and_age_multiply_in_both_parts():
    # 1000 at weight 2 this year (2 x 1 = 2); 400 at weight 1, 18 months old (1 x 0.5).
    # Part A: (1000 x 2 + 400 x 0.5 + 0 x 3) / (2 + 0.5 + 3) = 2200 / 5.5 = 400.
    # Part B: (1000 x 2 + 400 x 0.5) / 2.5 = 880. Value (400 + 880) / 2 = 640.
    results = [fresh(1, 1000, weight=2), fresh(2, 400, played=datetime.date(2024, 12, 1))]
    value = mers(results, reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("400.00"),
        Decimal("880.00"),
        Decimal("640.00"),
    )


def test_players_who_share_a_place_share_its_base_rank_and_so_their_ranking():
    from tournaments.reading.ema import base_rank

    # Two players share 1st of 4: they hold 1st and 2nd, 1000 and 666.67: each 833.33.
    shared = base_rank(1, 4, sharing=2)
    assert shared == Decimal("833.33")
    one = mers([fresh(1, shared), fresh(2, 0)], reckoning=DAY)
    other = mers([fresh(1, shared), fresh(2, 0)], reckoning=DAY)
    # Part A 833.33 / 5 = 166.666; part B 833.33 / 2 = 416.665; mean 291.6655 -> 291.67.
    assert one.value == other.value == Decimal("291.67")
    assert ranked({"a": one.value, "b": other.value, "c": Decimal(100)}) == [
        (1, "a"),
        (1, "b"),
        (3, "c"),
    ]


# --- Tenhou R ---------------------------------------------------------------------------


def test_the_r_rating_of_a_small_season_worked_out_by_hand():
    # Game 1: everyone at 1500, average 1500, no games before (factor 1):
    # A +30, B +10, C -10, D -30 -> 1530, 1510, 1490, 1470.
    # Game 2 (D 1st, C 2nd, B 3rd, A 4th): average (1530+1510+1490+1470)/4 = 1500;
    # factor 1 - 0.002 x 1 = 0.998.
    # D: 0.998 x (30 + (1500-1470)/40) = 0.998 x 30.75 = 30.6885 -> 1500.6885
    # C: 0.998 x (10 + 10/40) = 10.2295 -> 1500.2295
    # B: 0.998 x (-10 - 10/40) = -10.2295 -> 1499.7705
    # A: 0.998 x (-30 - 30/40) = -30.6885 -> 1499.3115
    season = [
        RGame(1, (("A", 1), ("B", 2), ("C", 3), ("D", 4))),
        RGame(2, (("A", 4), ("B", 3), ("C", 2), ("D", 1))),
    ]
    values = tenhou_r(season)
    assert {player: value.value for player, value in values.items()} == {
        "A": Decimal("1499.31"),
        "B": Decimal("1499.77"),
        "C": Decimal("1500.23"),
        "D": Decimal("1500.69"),
    }
    first, second = values["A"].steps
    assert (first.before, first.factor, first.place_score, first.change, first.after) == (
        Decimal("1500.00"),
        Decimal("1.000"),
        Decimal("30.00"),
        Decimal("30.00"),
        Decimal("1530.00"),
    )
    assert (
        second.before,
        second.games_before,
        second.factor,
        second.place,
        second.place_score,
        second.table_average,
        second.change,
        second.after,
    ) == (
        Decimal("1530.00"),
        1,
        Decimal("0.998"),
        4,
        Decimal("-30.00"),
        Decimal("1500.00"),
        Decimal("-30.69"),
        Decimal("1499.31"),
    )
    assert values["A"].games == 2


def test_a_three_player_game_scores_thirty_nought_and_minus_thirty():
    values = tenhou_r([RGame(1, (("E", 2), ("F", 1), ("G", 3)))])
    assert [values[p].value for p in "EFG"] == [
        Decimal("1500.00"),
        Decimal("1530.00"),
        Decimal("1470.00"),
    ]


def test_the_games_factor_falls_to_0_202_at_399_games_and_is_0_2_from_400():
    assert games_factor(0) == 1
    assert games_factor(399) == Decimal("0.202")
    assert games_factor(400) == Decimal("0.2")
    assert games_factor(1000) == Decimal("0.2")


def test_players_sharing_a_place_share_its_score():
    # Sharing 2nd of 4: (10 + -10) / 2 = 0; sharing 1st of 3: (30 + 0) / 2 = 15.
    assert place_score(2, 4, sharing=2) == 0
    assert place_score(1, 3, sharing=2) == 15


def test_a_table_of_five_or_a_place_beyond_the_table_is_refused():
    with pytest.raises(RatingError):
        place_score(1, 5)
    with pytest.raises(RatingError):
        place_score(4, 3)
    with pytest.raises(RatingError):
        tenhou_r([RGame(1, (("A", 1), ("A", 2), ("C", 3), ("D", 4)))])


# --- Best of n --------------------------------------------------------------------------


def test_best_of_two_adds_the_two_highest_totals():
    # 12.5 and 4 are the best two of 12.5, -3 and 4: 16.5.
    value = best_of(
        [
            EventTotal(1, DAY, Decimal("12.5")),
            EventTotal(2, DAY, Decimal("-3")),
            EventTotal(3, DAY, Decimal("4")),
        ],
        n=2,
    )
    assert value.value == Decimal("16.5")
    assert [(line.event, line.counted) for line in value.lines] == [
        (1, True),
        (3, True),
        (2, False),
    ]


def test_best_of_more_than_played_adds_everything():
    value = best_of([EventTotal(1, DAY, Decimal("-7.5"))], n=5)
    assert value.value == Decimal("-7.5")


def test_best_of_nothing_or_too_many_is_refused():
    with pytest.raises(RatingError):
        best_of([], n=0)
    with pytest.raises(RatingError):
        best_of([], n=51)

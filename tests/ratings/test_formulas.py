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
from ratings.formulas import games_factor, part_a_size

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
    # Listed: 1000, 500 and three padding results of 0, weight 1.
    # Part A (all five): (1000 + 500 + 0 + 0 + 0) / 5 = 300.
    # Part B (the best four, one padding result left out): (1000 + 500 + 0 + 0) / 4 = 375.
    # Value (300 + 375) / 2 = 337.5.
    value = mers([fresh(1, 1000), fresh(2, 500)], reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("300.00"),
        Decimal("375.00"),
        Decimal("337.50"),
    )
    assert value.counted == 2
    assert [line.padding for line in value.lines] == [False, False, True, True, True]
    assert [line.in_part_b for line in value.lines] == [True, True, True, True, False]


def test_a_player_with_one_result_is_not_ranked():
    value = mers([fresh(1, 1000)], reckoning=DAY)
    assert value.value is None and value.counted == 1
    assert [line.event for line in value.lines] == [1]


def test_a_result_aged_out_does_not_make_a_second_result():
    old = fresh(2, 900, played=datetime.date(2023, 1, 1))
    value = mers([fresh(1, 1000), old], reckoning=DAY)
    assert value.value is None
    assert value.lines[-1].event == 2 and value.lines[-1].age == 0


def test_three_results_are_padded_to_five():
    # Listed best first: 1000, 800, 600, then 0, 0 (weight 1 each).
    # Part A: (1000 + 800 + 600 + 0 + 0) / 5 = 480. Part B: (1000 + 800 + 600 + 0) / 4 = 600.
    # Value (480 + 600) / 2 = 540.
    value = mers([fresh(1, 600), fresh(2, 1000), fresh(3, 800)], reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("480.00"),
        Decimal("600.00"),
        Decimal("540.00"),
    )
    assert [line.event for line in value.lines] == [2, 3, 1, None, None]


def test_part_a_takes_five_and_eighty_percent_of_the_results_beyond_five():
    # 5 + 0.8 x 1 = 5.8 -> 6 of 6; 5 + 0.8 x 2 = 6.6 -> 7 of 7; 5 + 0.8 x 5 = 9 of 10;
    # 5 + 0.8 x 10 = 13 of 15; 5 + 0.8 x 15 = 17 of 20.
    assert [part_a_size(n) for n in (5, 6, 7, 10, 15, 20)] == [5, 6, 7, 9, 13, 17]


def test_with_ten_results_part_a_leaves_the_worst_out():
    # Base ranks 1000, 900, ..., 100 at weight 1. Part A: the best 9 (5 + 0.8 x 5):
    # (1000 + 900 + ... + 200) / 9 = 5400 / 9 = 600. Part B: (1000+900+800+700)/4 = 850.
    # Value (600 + 850) / 2 = 725.
    results = [fresh(n, 100 * n) for n in range(1, 11)]
    value = mers(results, reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("600.00"),
        Decimal("850.00"),
        Decimal("725.00"),
    )
    assert [line.in_part_a for line in value.lines] == [True] * 9 + [False]


def test_with_six_results_part_a_takes_them_all():
    # 900 ... 400: part A (900+800+700+600+500+400) / 6 = 650; part B 3000 / 4 = 750;
    # value 700.
    results = [fresh(n, rank) for n, rank in enumerate((400, 500, 600, 700, 800, 900))]
    assert mers(results, reckoning=DAY).value == Decimal("700.00")


def test_tournament_weight_and_age_multiply_in_both_parts():
    # 1000 at weight 2 this year (2 x 1 = 2); 400 at weight 1, 18 months old (1 x 0.5);
    # three padding results of 0 at weight 1.
    # Part A: (1000 x 2 + 400 x 0.5 + 0 x 3) / (2 + 0.5 + 3) = 2200 / 5.5 = 400.
    # Part B: (1000 x 2 + 400 x 0.5 + 0 + 0) / (2 + 0.5 + 1 + 1) = 2200 / 4.5 = 488.888...
    # Value (400 + 488.888...) / 2 = 444.444... -> 444.44.
    results = [fresh(1, 1000, weight=2), fresh(2, 400, played=datetime.date(2024, 12, 1))]
    value = mers(results, reckoning=DAY)
    assert (value.part_a, value.part_b, value.value) == (
        Decimal("400.00"),
        Decimal("488.89"),
        Decimal("444.44"),
    )


def test_among_equal_base_ranks_the_heavier_result_comes_first():
    # Five results: 800 at weight 1, then 800 at weight 3 and three of 100: part B takes
    # the heavier 800 first; all are in part A either way.
    results = [fresh(1, 800), fresh(2, 800, weight=3)] + [fresh(n, 100) for n in (3, 4, 5)]
    value = mers(results, reckoning=DAY)
    assert [line.event for line in value.lines][:2] == [2, 1]


def test_players_who_share_a_place_share_its_base_rank_and_so_their_ranking():
    from tournaments.reading.ema import base_rank

    # Two players share 1st of 4: they hold 1st and 2nd, 1000 and 666.67: each 833.33.
    shared = base_rank(1, 4, sharing=2)
    assert shared == Decimal("833.33")
    one = mers([fresh(1, shared), fresh(2, 0)], reckoning=DAY)
    other = mers([fresh(1, shared), fresh(2, 0)], reckoning=DAY)
    # Part A 833.33 / 5 = 166.666; part B 833.33 / 4 = 208.3325;
    # mean 187.49925 -> 187.50.
    assert one.value == other.value == Decimal("187.50")
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

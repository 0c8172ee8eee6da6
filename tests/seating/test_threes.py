"""The seating planner at tables of three, for three-player (sanma) events: East, South and
West only, the leftover players sitting out in turn, as few repeated meetings as can be."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seating import SeatingError, check_round, count_repeats, fixed_plan, make_plan
from seating.designs import construction_rounds, transversal_rounds

from .test_command import run


def meetings(rounds):
    return Counter(
        frozenset(pair) for rnd in rounds for table in rnd for pair in combinations(table, 2)
    )


def assert_threes(plan, players, rounds):
    players = list(players)
    assert len(plan.rounds) == len(plan.sitting_out) == rounds
    for rnd, out in zip(plan.rounds, plan.sitting_out, strict=True):
        seated = [p for table in rnd for p in table]
        assert all(len(table) == 3 for table in rnd)
        assert len(seated) == len(set(seated))
        assert sorted(seated + list(out)) == sorted(players)
        assert len(out) == len(players) % 3


def wind_counts(plan, player):
    winds = Counter(w for rnd in plan.rounds for t in rnd for w, q in enumerate(t) if q == player)
    return [winds[w] for w in range(3)]


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(9, 4), (12, 4), (15, 5), (21, 7), (27, 9), (45, 8), (48, 10)],
)
def test_balanced_plans_of_three_meet_nobody_twice_where_a_design_exists(players, rounds):
    plan = make_plan(range(players), rounds, seed=1, table_size=3)
    assert_threes(plan, range(players), rounds)
    assert plan.repeats == count_repeats(plan.rounds) == 0
    assert max(meetings(plan.rounds).values()) == 1


def test_nine_players_meet_everyone_exactly_once_over_four_rounds():
    plan = make_plan(range(9), 4, seed=3, table_size=3)
    met = meetings(plan.rounds)
    assert len(met) == 36 and set(met.values()) == {1}  # every one of the 36 pairs, once


@pytest.mark.slow
def test_balanced_plans_of_three_without_a_design_still_avoid_repeats_well():
    # 18 players over 5 rounds: 30 meetings each round, 153 pairs in all, room for no repeat.
    plan = make_plan(range(18), 5, seed=0, table_size=3)
    assert_threes(plan, range(18), 5)
    assert plan.repeats <= 2
    # Six players cannot avoid repeats: every later table holds two of one first table, and
    # the third round cannot bring four new pairs to the table as well (5 is the least).
    small = make_plan(range(6), 3, seed=0, table_size=3)
    assert small.repeats == 5


@pytest.mark.parametrize(
    "method", [pytest.param("balanced", marks=pytest.mark.slow), "swiss", "random"]
)
def test_every_player_has_east_south_and_west_as_often_as_each_other(method):
    plan = make_plan(range(12), 6, method=method, seed=2, table_size=3)
    for p in range(12):
        assert wind_counts(plan, p) == [2, 2, 2], (p, method)


def test_winds_of_three_count_the_rounds_already_played():
    history = [[[0, 1, 2]]]
    plan = make_plan(range(3), 2, history=history, table_size=3)
    for p in range(3):
        winds = Counter(w for rnd in history for t in rnd for w, q in enumerate(t) if q == p)
        winds.update(w for rnd in plan.rounds for t in rnd for w, q in enumerate(t) if q == p)
        assert sorted(winds.values()) == [1, 1, 1]


@pytest.mark.slow
def test_ten_players_sit_at_three_tables_and_one_sits_out_in_turn():
    plan = make_plan(range(10), 10, seed=4, table_size=3)
    assert_threes(plan, range(10), 10)
    out = Counter(p for rnd in plan.sitting_out for p in rnd)
    assert sorted(out.values()) == [1] * 10  # each sits out once over ten rounds


def test_swiss_seats_three_by_three_from_the_top_of_the_standings():
    standings = list("ABCDEFGHI")
    plan = make_plan(standings, 1, method="swiss", table_size=3)
    assert [sorted(t) for t in plan.rounds[0]] == [list("ABC"), list("DEF"), list("GHI")]
    again = make_plan(standings, 1, method="swiss", history=plan.rounds, table_size=3)
    assert again.repeats < 9
    assert set(again.rounds[0][0]) <= set("ABCDEF")


def test_a_fixed_round_of_three_keeps_its_seat_order_and_counts_repeats():
    first = [["A", "B", "C"], ["D", "E", "F"]]
    plan = fixed_plan(
        list("ABCDEF"), [["C", "A", "B"], ["D", "E", "F"]], history=[first], table_size=3
    )
    assert plan.rounds[0] == (("C", "A", "B"), ("D", "E", "F"))
    assert plan.table_repeats[0] == (3, 3)


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ([["A", "B", "C", "D"]], "Table 1 has 4 players; every table of this three-player event"),
        ([["A", "B"]], "Table 1 has 2 players; every table of this three-player event"),
        ([], "Give at least one table of three players."),
        ([["A", "B", "C"], ["C", "D", "E"]], "C is at table 1 and at table 2"),
    ],
)
def test_a_fixed_round_that_is_not_tables_of_three_is_refused(tables, message):
    with pytest.raises(SeatingError, match=message):
        check_round(list("ABCDEF"), tables, table_size=3)


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (
            2,
            {"table_size": 3},
            "A plan of three-player tables needs at least 3 players; there are 2.",
        ),
        (9, {"table_size": 5}, "A table seats 4 players, or 3 in a three-player game; not 5."),
    ],
)
def test_impossible_plans_of_three_are_refused_with_the_reason(players, kwargs, message):
    with pytest.raises(SeatingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_plan(range(players), 2, **kwargs)


def test_the_constructions_of_three_are_perfect_where_they_exist():
    assert [construction_rounds(n, 3) for n in (9, 12, 15, 18, 30, 33)] == [4, 4, 5, 0, 0, 11]
    for players in (9, 12, 15, 21, 24, 27, 33, 39, 45, 48):
        rounds = transversal_rounds(players, construction_rounds(players, 3), 3)
        assert all(len(t) == 3 for rnd in rounds for t in rnd)
        assert max(meetings(rounds).values()) == 1
    # Tables of four are unchanged.
    assert construction_rounds(16) == 5 and construction_rounds(24) == 0


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=40),
    rounds=st.integers(min_value=1, max_value=6),
    method=st.sampled_from(["balanced", "swiss", "random"]),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_every_plan_of_three_seats_each_player_at_most_once_a_round(players, rounds, method, seed):
    plan = make_plan(range(players), rounds, method=method, seed=seed, effort=0, table_size=3)
    assert_threes(plan, range(players), rounds)
    out = Counter(p for rnd in plan.sitting_out for p in rnd)
    counts = [out[p] for p in range(players)]
    assert max(counts) - min(counts) <= 1


@pytest.mark.slow
def test_the_command_plans_tables_of_three():
    done = run("--players", "9", "--rounds", "4", "--table-size", "3", "--seed", "2")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["repeated_meetings"] == 0
    assert all(len(table) == 3 for rnd in doc["rounds"] for table in rnd)
    text = run("--players", "10", "--rounds", "1", "--table-size", "3", "--format", "text")
    assert text.returncode == 0, text.stderr
    assert "N " not in text.stdout and "Sitting out:" in text.stdout
    bad = run("--players", "9", "--rounds", "1", "--table-size", "5")
    assert bad.returncode == 2 and "A table seats 4 players, or 3" in bad.stderr

"""The seating planner: quality of its plans, fairness, and what it refuses."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seating import SeatingError, check_round, count_repeats, fixed_plan, make_plan
from seating.designs import construction_rounds, field, prime_power, transversal_rounds


def meetings(rounds):
    met = Counter()
    for rnd in rounds:
        for table in rnd:
            for a, b in combinations(sorted(table), 2):
                met[a, b] += 1
    return met


def assert_well_formed(plan, players, rounds):
    players = list(players)
    assert len(plan.rounds) == len(plan.sitting_out) == rounds
    for rnd, out in zip(plan.rounds, plan.sitting_out, strict=True):
        seated = [p for table in rnd for p in table]
        assert all(len(table) == 4 for table in rnd)
        assert len(seated) == len(set(seated)), "a player sits twice in one round"
        assert sorted(seated + list(out)) == sorted(players)
        assert len(out) == len(players) % 4


def assert_winds_balanced(plan, players):
    for p in players:
        winds = Counter(
            w for rnd in plan.rounds for table in rnd for w, q in enumerate(table) if q == p
        )
        counts = [winds[w] for w in range(4)]
        assert max(counts) - min(counts) <= 1, (p, counts)


def assert_sitting_out_fair(plan, players):
    out = Counter(p for rnd in plan.sitting_out for p in rnd)
    counts = [out[p] for p in players]
    assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize(
    ("players", "rounds", "most"),
    [
        (16, 5, 0),
        (20, 5, 0),
        (36, 8, 0),
        (48, 8, 0),
        (100, 10, 0),
        pytest.param(24, 6, 2, marks=pytest.mark.slow),
        (12, 3, 6),
    ],
)
def test_balanced_plans_reach_the_quality_figures(players, rounds, most):
    everyone = range(1, players + 1)
    plan = make_plan(everyone, rounds, seed=0)
    assert_well_formed(plan, everyone, rounds)
    assert_winds_balanced(plan, everyone)
    assert plan.repeats == count_repeats(plan.rounds) <= most
    assert sum(c - 1 for c in meetings(plan.rounds).values()) == plan.repeats


def test_twelve_players_over_three_rounds_meet_again_exactly_the_minimum_six_times():
    assert make_plan(range(12), 3, seed=5).repeats == 6


@pytest.mark.slow
def test_sitting_out_rotates_fairly_and_winds_stay_balanced_with_odd_numbers():
    for players, rounds in [(13, 4), (30, 7), (37, 8), (6, 5)]:
        everyone = range(players)
        plan = make_plan(everyone, rounds, seed=1)
        assert_well_formed(plan, everyone, rounds)
        assert_sitting_out_fair(plan, everyone)
        assert_winds_balanced(plan, everyone)


def test_the_same_seed_gives_the_same_plan_and_another_seed_another():
    assert make_plan(range(30), 4, seed=3) == make_plan(range(30), 4, seed=3)
    assert make_plan(range(30), 4, seed=3) != make_plan(range(30), 4, seed=4)


def test_a_plan_counts_the_rounds_already_played():
    first = make_plan(range(16), 1, seed=0).rounds
    rest = make_plan(range(16), 4, seed=9, history=first)
    assert rest.repeats == 0
    assert count_repeats(list(first) + list(rest.rounds)) == 0
    # A table whose players met before shows it.
    again = fixed_plan(range(16), [first[0][0], *first[0][1:]], history=first)
    assert again.table_repeats[0] == (6, 6, 6, 6)
    assert again.repeats == 24


def test_winds_count_the_rounds_already_played():
    history = [[[0, 1, 2, 3]]]
    plan = make_plan(range(4), 3, history=history)
    for p in range(4):
        winds = Counter([w for rnd in history for t in rnd for w, q in enumerate(t) if q == p])
        winds.update(w for rnd in plan.rounds for t in rnd for w, q in enumerate(t) if q == p)
        assert sorted(winds.values()) == [1, 1, 1, 1]


def test_swiss_seats_by_standings_and_swaps_between_neighbours_to_avoid_repeats():
    standings = list("ABCDEFGHIJKL")
    plan = make_plan(standings, 1, method="swiss")
    assert [sorted(t) for t in plan.rounds[0]] == [list("ABCD"), list("EFGH"), list("IJKL")]
    history = plan.rounds
    again = make_plan(standings, 1, method="swiss", history=history)
    assert again.repeats < 6 * 3
    top = set(again.rounds[0][0])
    assert top <= set("ABCDEFGH"), "the top table takes players from the top two tables only"


def test_random_plans_are_well_formed():
    plan = make_plan(range(22), 3, method="random", seed=2)
    assert_well_formed(plan, range(22), 3)
    assert_winds_balanced(plan, range(22))


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=4, max_value=40),
    rounds=st.integers(min_value=1, max_value=6),
    method=st.sampled_from(["balanced", "swiss", "random"]),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_every_plan_seats_each_player_at_most_once_a_round(players, rounds, method, seed):
    plan = make_plan(range(players), rounds, method=method, seed=seed, effort=0)
    assert_well_formed(plan, range(players), rounds)
    assert_sitting_out_fair(plan, range(players))


@pytest.mark.parametrize(
    ("players", "rounds", "kwargs", "message"),
    [
        (3, 2, {}, "A plan needs at least 4 players; there are 3."),
        (16, 31, {}, "An event can have at most 30 rounds; ask for 30 or fewer."),
        (16, 0, {}, "Ask for at least one round."),
        (16, 2, {"method": "chaos"}, "Unknown seating method 'chaos'"),
        (1001, 2, {}, "A plan can seat at most 1000 players"),
        (
            16,
            29,
            {"history": [[[0, 1, 2, 3]]] * 2},
            "An event can have at most 30 rounds and 2 are played already; ask for 28 or fewer.",
        ),
    ],
)
def test_impossible_plans_are_refused_with_the_reason(players, rounds, kwargs, message):
    with pytest.raises(SeatingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_plan(range(players), rounds, **kwargs)


def test_a_fixed_round_with_a_player_at_two_tables_is_refused():
    with pytest.raises(SeatingError, match="Ann is at table 1 and at table 2"):
        check_round(list("ABCDEFG") + ["Ann"], [["Ann", "A", "B", "C"], ["D", "E", "F", "Ann"]])
    with pytest.raises(SeatingError, match="Table 1 has 3 players"):
        check_round(list("ABCD"), [["A", "B", "C"]])
    with pytest.raises(SeatingError, match="Zed is not taking part"):
        check_round(list("ABCD"), [["A", "B", "C", "Zed"]])


def test_the_constructions_are_perfect_where_they_exist():
    assert prime_power(9) == (3, 2) and prime_power(12) is None
    add, mul = field(9)
    assert all(any(mul[x][y] == 1 for y in range(9)) for x in range(1, 9))
    for players in (16, 20, 28, 32, 36, 64, 100):
        rounds = transversal_rounds(players, construction_rounds(players))
        assert max(meetings(rounds).values()) == 1
    assert construction_rounds(16) == 5 and construction_rounds(24) == 0


def test_winds_are_shared_out_within_every_four_rounds_too():
    plan = make_plan(range(36), 8, seed=0)
    for start in (0, 4):
        for p in range(36):
            winds = [
                w
                for rnd in plan.rounds[start : start + 4]
                for t in rnd
                for w, q in enumerate(t)
                if q == p
            ]
            assert sorted(winds) == [0, 1, 2, 3]

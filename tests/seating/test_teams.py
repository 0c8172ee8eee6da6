"""Team seating in the pure planner: teammates never share a table, team meetings and byes
are even, and what cannot be planned is refused."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from seating import SeatingError, fixed_plan, make_plan


def teams_of(count: int, size: int) -> dict[int, str]:
    """Players 0.. in teams "T0", "T1", ... of `size` each."""
    return {p: f"T{p // size}" for p in range(count * size)}


def assert_teammates_apart(rounds, groups):
    for number, rnd in enumerate(rounds, start=1):
        for table in rnd:
            teams = [groups[p] for p in table if p in groups]
            assert len(teams) == len(set(teams)), (number, table)


def team_meetings(rounds, groups) -> Counter:
    met = Counter()
    for rnd in rounds:
        for table in rnd:
            for a, b in combinations(table, 2):
                met[frozenset((groups[a], groups[b]))] += 1
    return met


def test_a_season_of_nine_teams_of_four_never_seats_teammates_together_and_meets_evenly():
    groups = teams_of(9, 4)
    plan = make_plan(list(groups), 12, groups=groups, seed=5)
    assert len(plan.rounds) == 12 and all(len(rnd) == 9 for rnd in plan.rounds)
    assert_teammates_apart(plan.rounds, groups)
    met = team_meetings(plan.rounds, groups)
    # 36 pairs of teams; each round 9 tables of 6 team pairs: 54 x 12 / 36 = 18 each.
    assert len(met) == 36
    assert max(met.values()) - min(met.values()) <= 2


@pytest.mark.slow
def test_a_season_planned_one_round_at_a_time_keeps_teams_apart_and_spreads_meetings():
    # As the app seats it: one session at a time, each after the rounds already played.
    groups = teams_of(6, 4)
    history: list = []
    for number in range(10):
        plan = make_plan(list(groups), 1, groups=groups, history=history, seed=number)
        history.append([list(t) for t in plan.rounds[0]])
    assert_teammates_apart(history, groups)
    met = team_meetings(history, groups)
    # 15 pairs of teams; 6 tables of 6 pairs over 10 rounds: 360 / 15 = 24 each.
    assert len(met) == 15
    assert max(met.values()) - min(met.values()) <= 4


def test_byes_rotate_evenly_between_teams_that_do_not_fill_the_tables():
    # 9 teams of 3 = 27 players at 6 tables: 3 sit out each round, 27 byes over 9 rounds,
    # 3 for every team and 1 for every player.
    groups = teams_of(9, 3)
    plan = make_plan(list(groups), 9, groups=groups, seed=2)
    assert_teammates_apart(plan.rounds, groups)
    byes = Counter(groups[p] for out in plan.sitting_out for p in out)
    assert sorted(byes.values()) == [3] * 9
    assert sorted(Counter(p for out in plan.sitting_out for p in out).values()) == [1] * 27
    # Never two players of one team out in the same round.
    assert all(len({groups[p] for p in out}) == len(out) for out in plan.sitting_out)


@pytest.mark.slow
def test_byes_rotate_between_teams_when_each_sends_one_player_a_session():
    # Nine teams of four each send one player: 9 players, 2 tables, one team out each
    # session; over nine sessions every team sits out once.
    groups = teams_of(9, 4)
    history: list = []
    out_teams = []
    for number in range(9):
        playing = [team * 4 + number % 4 for team in range(9)]
        plan = make_plan(playing, 1, groups=groups, history=history, seed=number)
        history.append([list(t) for t in plan.rounds[0]])
        out_teams.extend(groups[p] for p in plan.sitting_out[0])
    assert sorted(Counter(out_teams).values()) == [1] * 9


def test_players_without_a_team_sit_anywhere():
    groups = {p: f"T{p // 3}" for p in range(6)}
    plan = make_plan(range(12), 3, groups=groups, seed=1)
    assert_teammates_apart(plan.rounds, groups)


def test_a_team_with_more_players_than_tables_is_refused():
    groups = {p: "Red" if p < 3 else f"T{p}" for p in range(8)}
    with pytest.raises(SeatingError, match="only 2 tables"):
        make_plan(range(8), 1, groups=groups)


def test_a_typed_table_with_two_teammates_is_refused():
    groups = {1: "Red", 2: "Red", 3: "Blue", 4: "Gold"}
    with pytest.raises(SeatingError) as refused:
        fixed_plan([1, 2, 3, 4], [[1, 2, 3, 4]], groups=groups)
    assert refused.value.params == {"number": 1, "first": 1, "second": 2}
    assert fixed_plan([1, 2, 3, 4], [[1, 3, 4, 2]], groups=None).rounds


def test_swiss_seating_is_refused_for_teams():
    with pytest.raises(SeatingError, match="Swiss"):
        make_plan(range(8), 1, method="swiss", groups=teams_of(2, 4))


def test_random_team_seating_keeps_teammates_apart_too():
    groups = teams_of(5, 4)
    plan = make_plan(list(groups), 6, method="random", groups=groups, seed=9)
    assert_teammates_apart(plan.rounds, groups)

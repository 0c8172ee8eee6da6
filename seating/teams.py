"""Seating for team events: never two players of one team at a table.

A team event gives the planner `groups`, a mapping of player to team (players of the
history included, so that the meetings and byes of earlier rounds count). Players without
a team are a team of their own. Within that hard rule the plan evens out:

- team against team: how often two teams met (a table of four teams is six meetings of
  two teams), by the sum of the squares of those counts, which is least when they are even;
- player against player: repeated meetings, as the balanced method counts them;
- byes, when the teams do not fill the tables: a team's byes are, for each round, how many
  fewer of its players sat at a table than of the team with the most; the players to sit
  out come from the teams with the fewest byes so far, then the players who sat out least.

A round is dealt feasibly first (teams largest first, player i at table i mod tables, so a
team of at most as many players as tables never shares a table), then improved by swaps
of two players of different tables that keep the rule.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations

from scoring.errors import gettext_noop

from . import planner

# Steps of the search per unit of effort: a season of 36 players over 12 rounds takes
# about half a second.
STEPS = 60_000


def team_index(players: Sequence[Hashable], groups: Mapping[Hashable, Hashable]) -> list[int]:
    """Each player's team as a number; a player without a team is a team of their own."""
    names: dict[Hashable, int] = {}
    result = []
    for p in players:
        g = groups.get(p)
        key = ("team", g) if g is not None else ("alone", p)
        result.append(names.setdefault(key, len(names)))
    return result


def team_sitting_out(
    team: list[int],
    rounds: int,
    past_counts: list[int],
    team_byes: dict[int, int],
    rng,
    size: int,
) -> list[tuple[int, ...]]:
    """Who sits out each round (see the module's text); refuses a round in which a team
    has more players than there are tables."""
    n = len(team)
    extra = n % size
    tables = n // size
    counts = list(past_counts)
    byes = dict(team_byes)
    order = list(range(n))
    rng.shuffle(order)
    members: dict[int, int] = {}
    for g in team:
        members[g] = members.get(g, 0) + 1
    result = []
    for _ in range(rounds):
        seated = dict(members)
        chosen: list[int] = []
        for _pick in range(extra):
            forced = [g for g, c in seated.items() if c > tables]
            candidates = [p for p in order if p not in chosen]
            if forced:
                candidates = [p for p in candidates if team[p] in forced]

            best = min(
                candidates,
                key=lambda p, seated=seated: (
                    byes.get(team[p], 0) + members[team[p]] - seated[team[p]],
                    -seated[team[p]],
                    counts[p],
                ),
            )
            chosen.append(best)
            seated[team[best]] -= 1
        too_many = [c for c in seated.values() if c > tables]
        if too_many:
            raise planner.SeatingError(
                gettext_noop(
                    "A team has %(count)s players in this round but there are only %(tables)s "
                    "tables, so two of them would share a table: seat fewer players of that "
                    "team (its line-up) or more players in all."
                ),
                count=max(too_many),
                tables=tables,
            )
        most = max(seated.values()) if seated else 0
        for g, c in seated.items():
            byes[g] = byes.get(g, 0) + most - c
        for p in chosen:
            counts[p] += 1
        order = [p for p in order if p not in chosen] + chosen
        result.append(tuple(sorted(chosen)))
    return result


def past_team_byes(history_rounds, groups: Mapping[Hashable, Hashable]) -> dict:
    """Byes of each team (by its name in `groups`) in the rounds already played."""
    byes: dict[Hashable, int] = {}
    for rnd in history_rounds:
        seated: dict[Hashable, int] = {}
        for table in rnd:
            for p in table:
                g = groups.get(p)
                if g is not None:
                    seated[g] = seated.get(g, 0) + 1
        most = max(seated.values(), default=0)
        for g in set(groups.values()):
            byes[g] = byes.get(g, 0) + most - seated.get(g, 0)
    return byes


def past_team_meetings(history_rounds, groups: Mapping[Hashable, Hashable]) -> dict:
    """How often two teams (by their names in `groups`) met in the rounds already played."""
    met: dict[frozenset, int] = {}
    for rnd in history_rounds:
        for table in rnd:
            names = [groups.get(p) for p in table if groups.get(p) is not None]
            for a, b in combinations(names, 2):
                if a != b:
                    key = frozenset((a, b))
                    met[key] = met.get(key, 0) + 1
    return met


def deal(seated: list[int], team: list[int], size: int, rng) -> list[list[int]]:
    """One round with no two players of a team at a table (teams must not outnumber the
    tables): teams largest first, in a shuffled order, player i at table i mod tables."""
    tables = len(seated) // size
    by_team: dict[int, list[int]] = {}
    for p in seated:
        by_team.setdefault(team[p], []).append(p)
    teams = list(by_team.values())
    rng.shuffle(teams)
    for members in teams:
        rng.shuffle(members)
    teams.sort(key=len, reverse=True)
    line = [p for members in teams for p in members]
    result: list[list[int]] = [[] for _ in range(tables)]
    for i, p in enumerate(line):
        result[i % tables].append(p)
    return result


class TeamState:
    """Pair counts of players (flat n*n) and of teams (a dict by sorted pair)."""

    def __init__(self, n: int, team: list[int], past, team_met: dict[tuple[int, int], int]):
        self.n = n
        self.team = team
        self.m = [0] * (n * n)
        self.t: dict[tuple[int, int], int] = dict(team_met)
        for rnd in past:
            for table in rnd:
                self._players(table, +1)

    def _players(self, table, step: int) -> None:
        m, n = self.m, self.n
        for a, b in combinations(table, 2):
            m[a * n + b] += step
            m[b * n + a] += step

    def meet(self, table, step: int) -> None:
        self._players(table, step)
        team, t = self.team, self.t
        for a, b in combinations(table, 2):
            ga, gb = team[a], team[b]
            if ga != gb:
                key = (ga, gb) if ga < gb else (gb, ga)
                t[key] = t.get(key, 0) + step


def improve(state: TeamState, plan: list[list[list[int]]], rng, steps: int, deadline) -> None:
    """Swaps of two players at different tables of one round, kept when they lower the
    cost (repeated player meetings plus the squares of team meetings), now and then
    when they raise it a little early in the search (simulated annealing)."""
    if not plan or len(plan[0]) < 2:
        return
    m, n, team, t = state.m, state.n, state.team, state.t
    rounds, tables = len(plan), len(plan[0])
    size = len(plan[0][0])
    randrange, rand, exp = rng.randrange, rng.random, math.exp
    hot, cold = 1.5, 0.05
    for step in range(steps):
        if step % 4096 == 0 and deadline is not None and time.monotonic() > deadline:
            return
        rnd = plan[randrange(rounds)]
        ti = randrange(tables)
        tj = randrange(tables - 1)
        if tj >= ti:
            tj += 1
        ta, tb = rnd[ti], rnd[tj]
        i, j = randrange(size), randrange(size)
        a, b = ta[i], tb[j]
        ga, gb = team[a], team[b]
        if ga != gb and (
            any(team[c] == gb for c in ta if c != a) or any(team[c] == ga for c in tb if c != b)
        ):
            continue
        an, bn = a * n, b * n
        delta = 0
        for c in ta:
            if c != a:
                delta += (m[bn + c] > 0) - (m[an + c] > 1)
        for c in tb:
            if c != b:
                delta += (m[an + c] > 0) - (m[bn + c] > 1)
        changes: dict[tuple[int, int], int] = {}
        if ga != gb:
            for c, leaving, coming in [(c, ga, gb) for c in ta if c != a] + [
                (c, gb, ga) for c in tb if c != b
            ]:
                gc = team[c]
                for g, step_ in ((leaving, -1), (coming, +1)):
                    key = (g, gc) if g < gc else (gc, g)
                    changes[key] = changes.get(key, 0) + step_
            for key, d in changes.items():
                if d:
                    now = t.get(key, 0)
                    delta += (now + d) ** 2 - now**2
        if delta > 0:
            temperature = hot * (cold / hot) ** (step / steps)
            if rand() >= exp(-delta / temperature):
                continue
        state.meet(ta, -1)
        state.meet(tb, -1)
        ta[i], tb[j] = b, a
        state.meet(ta, +1)
        state.meet(tb, +1)


def team_rounds(
    n: int,
    team: list[int],
    sitting_out,
    past,
    team_met: dict[tuple[int, int], int],
    rng,
    *,
    size: int,
    search: bool,
    effort: int = 1,
    time_limit: float | None = None,
) -> list[list[list[int]]]:
    """The rounds of a team event (see the module's text)."""
    state = TeamState(n, team, past, team_met)
    plan = []
    for out in sitting_out:
        rnd = deal([p for p in range(n) if p not in out], team, size, rng)
        for table in rnd:
            state.meet(table, +1)
        plan.append(rnd)
    if search:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        improve(state, plan, rng, STEPS * effort, deadline)
    return plan


def check_teams_apart(tables, groups: Mapping[Hashable, Hashable]) -> None:
    """Refuse a typed round that puts two players of one team at a table."""
    for number, table in enumerate(tables, start=1):
        seen: dict[Hashable, Hashable] = {}
        for p in table:
            g = groups.get(p)
            if g is None:
                continue
            if g in seen:
                raise planner.SeatingError(
                    gettext_noop(
                        "Table %(number)s: %(first)s and %(second)s are in the same team; "
                        "seat players of one team at different tables."
                    ),
                    number=number,
                    first=seen[g],
                    second=p,
                )
            seen[g] = p

"""Seating plans: who sits at which table, in which seat, in every round.

Players are any hashable values (numbers on the command line, database ids in the app),
given in a list; for the Swiss method the list is the current standings, best first. The
history is the rounds already played: tables of players in seat order East, South, West,
North, so that the plan counts the meetings and the winds people have had already.

Tables seat four players, or three (`table_size=3`) for a three-player (sanma) event, whose
seats are East, South and West; everything below works for either size.

A *repeated meeting* is every meeting of two players beyond their first: a pair that sits
together three times counts two.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from scoring.errors import TemplateError, gettext_noop

from . import teams
from .designs import construction_rounds, transversal_rounds

METHODS = ("balanced", "swiss", "random")
MAX_PLAYERS = 1000
MAX_ROUNDS = 30
# Four players a table, or three in a three-player (sanma) game.
TABLE_SIZES = (4, 3)

Round = list[list[int]]


class SeatingError(TemplateError):
    """A plan that cannot be made, with a message the organiser can act on (a template and
    its parameters, as the engine's refusals)."""


@dataclass(frozen=True)
class Plan:
    """Tables in seat order (East first) for each round, and who sits out each round."""

    rounds: tuple[tuple[tuple[Hashable, ...], ...], ...]
    sitting_out: tuple[tuple[Hashable, ...], ...]
    # Per round, per table: how many pairs at that table had met before (history included).
    table_repeats: tuple[tuple[int, ...], ...]

    @property
    def repeats(self) -> int:
        """Repeated meetings in the planned rounds (meetings in the history count as met)."""
        return sum(sum(r) for r in self.table_repeats)


def check_size(players: int, rounds: int, *, played: int = 0, table_size: int = 4) -> None:
    """Refuse plans that cannot be made, with the reason."""
    _check_table_size(table_size)
    if players < table_size:
        raise SeatingError(
            gettext_noop("A plan needs at least 4 players; there are %(players)s.")
            if table_size == 4
            else gettext_noop(
                "A plan of three-player tables needs at least 3 players; there are %(players)s."
            ),
            players=players,
        )
    if players > MAX_PLAYERS:
        raise SeatingError(
            gettext_noop("A plan can seat at most %(most)s players; there are %(players)s."),
            most=MAX_PLAYERS,
            players=players,
        )
    if rounds < 1:
        raise SeatingError(gettext_noop("Ask for at least one round."))
    if rounds + played > MAX_ROUNDS:
        left = MAX_ROUNDS - played
        if left <= 0:
            raise SeatingError(
                gettext_noop("An event can have at most %(most)s rounds; all of them are played."),
                most=MAX_ROUNDS,
            )
        if played:
            raise SeatingError(
                gettext_noop(
                    "An event can have at most %(most)s rounds and %(played)s are played "
                    "already; ask for %(left)s or fewer."
                ),
                most=MAX_ROUNDS,
                played=played,
                left=left,
            )
        raise SeatingError(
            gettext_noop("An event can have at most %(most)s rounds; ask for %(left)s or fewer."),
            most=MAX_ROUNDS,
            left=left,
        )


def _check_table_size(table_size: int) -> None:
    if table_size not in TABLE_SIZES:
        raise SeatingError(
            gettext_noop("A table seats 4 players, or 3 in a three-player game; not %(size)s."),
            size=table_size,
        )


def make_plan(
    players: Sequence[Hashable],
    rounds: int,
    *,
    method: str = "balanced",
    seed: int = 0,
    history: Sequence[Sequence[Sequence[Hashable]]] = (),
    effort: int = 1,
    time_limit: float | None = None,
    table_size: int = 4,
    groups: Mapping[Hashable, Hashable] | None = None,
) -> Plan:
    """Plan `rounds` more rounds for `players`, at tables of `table_size` (4, or 3 for a
    three-player game); those left over each round sit out, as evenly as can be.

    `groups` (player -> team, for a team event) seats no two players of a team at a
    table and evens out team meetings and byes (`seating.teams`); Swiss seating does not
    take teams.

    `effort` 0 skips the search (a quick greedy plan); `time_limit` (seconds) stops the
    search early, for a web page that must answer: the plan then depends on the machine's
    speed as well as the seed.

    >>> plan = make_plan(range(1, 17), 5)
    >>> plan.repeats, len(plan.rounds), len(plan.rounds[0])
    (0, 5, 4)
    >>> plan = make_plan(range(1, 10), 4, table_size=3)
    >>> plan.repeats, len(plan.rounds), plan.rounds[0][0].__len__()
    (0, 4, 3)
    """
    if method not in METHODS:
        raise SeatingError(
            gettext_noop("Unknown seating method %(method)s; choose one of %(choices)s."),
            method=repr(method),
            choices=", ".join(METHODS),
        )
    players = list(players)
    if len(set(players)) != len(players):
        raise SeatingError(gettext_noop("A player is listed twice; list every player once."))
    check_size(len(players), rounds, played=len(history), table_size=table_size)
    size = table_size
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    # History tables may hold players who are not in this plan (withdrawn, substitutes).
    past = [[[index[p] for p in table if p in index] for table in rnd] for rnd in history]
    rng = random.Random(seed)
    if groups is not None:
        return _team_plan(
            players, rounds, method, rng, history, past, groups, effort, time_limit, size
        )
    state = _State(n, past, size)
    sitting_out = _sitting_out(n, rounds, past, rng, prefer_last=method == "swiss", size=size)
    if method == "balanced":
        deadline = None if time_limit is None else time.monotonic() + time_limit
        plan_rounds = _balanced(
            state, sitting_out, rounds, rng, effort, fresh=not history, deadline=deadline
        )
    elif method == "swiss":
        plan_rounds = _swiss(state, sitting_out, rounds)
    else:
        plan_rounds = []
        for out in sitting_out:
            seated = [p for p in range(n) if p not in out]
            rng.shuffle(seated)
            plan_rounds.append([seated[i : i + size] for i in range(0, len(seated), size)])
    # Balanced every `size` rounds (one of each wind) as well as over the whole plan, so
    # that an event stopped early (or a director looking at the first rounds) sees the
    # winds shared out too.
    for start in range(0, len(plan_rounds), size):
        _balance_winds(n, past + plan_rounds[:start], plan_rounds[start : start + size], size)
    _balance_winds(n, past, plan_rounds, size)
    return _result(players, past, plan_rounds, sitting_out)


def count_repeats(rounds: Sequence[Sequence[Sequence[Hashable]]]) -> int:
    """Repeated meetings in these rounds: count_repeats([[[1, 2, 3, 4]], [[1, 2, 5, 6]]]) == 1."""
    met: dict[frozenset, int] = {}
    total = 0
    for rnd in rounds:
        for table in rnd:
            for a, b in combinations(table, 2):
                key = frozenset((a, b))
                total += met.get(key, 0) > 0
                met[key] = met.get(key, 0) + 1
    return total


def check_round(
    players: Sequence[Hashable], tables: Sequence[Sequence[Hashable]], *, table_size: int = 4
) -> None:
    """Refuse a round typed by hand unless every table has `table_size` players (four, or
    three in a three-player game), each on the list and at one table only."""
    _check_table_size(table_size)
    known = set(players)
    seen: dict[Hashable, int] = {}
    if not tables:
        if table_size == 3:
            raise SeatingError(gettext_noop("Give at least one table of three players."))
        raise SeatingError(gettext_noop("Give at least one table of four players."))
    for number, table in enumerate(tables, start=1):
        if len(table) != table_size:
            raise SeatingError(
                gettext_noop("Table %(number)s has %(count)s players; every table needs exactly 4.")
                if table_size == 4
                else gettext_noop(
                    "Table %(number)s has %(count)s players; every table of this three-player "
                    "event needs exactly 3."
                ),
                number=number,
                count=len(table),
            )
        for p in table:
            if p not in known:
                raise SeatingError(
                    gettext_noop("Table %(number)s: %(player)s is not taking part in this event."),
                    number=number,
                    player=p,
                )
            if p in seen:
                raise SeatingError(
                    gettext_noop(
                        "%(player)s is at table %(first)s and at table %(number)s; "
                        "seat every player at one table only."
                    ),
                    player=p,
                    first=seen[p],
                    number=number,
                )
            seen[p] = number


def fixed_plan(
    players: Sequence[Hashable],
    tables: Sequence[Sequence[Hashable]],
    *,
    history: Sequence[Sequence[Sequence[Hashable]]] = (),
    table_size: int = 4,
    groups: Mapping[Hashable, Hashable] | None = None,
) -> Plan:
    """One round as the organiser typed it (seat order kept), with its repeat counts;
    with `groups` (player -> team), no two players of a team at a table."""
    check_round(players, tables, table_size=table_size)
    if groups is not None:
        teams.check_teams_apart(tables, groups)
    players = list(players)
    index = {p: i for i, p in enumerate(players)}
    past = [[[index[p] for p in table if p in index] for table in rnd] for rnd in history]
    rnd = [[index[p] for p in table] for table in tables]
    seated = {p for table in rnd for p in table}
    out = [tuple(p for p in range(len(players)) if p not in seated)]
    return _result(players, past, [rnd], out)


def _team_plan(players, rounds, method, rng, history, past, groups, effort, time_limit, size):
    if method == "swiss":
        raise SeatingError(
            gettext_noop(
                "Swiss seating does not keep teams apart; choose balanced or random seating."
            )
        )
    n = len(players)
    team = teams.team_index(players, groups)
    named = {groups[p]: team[i] for i, p in enumerate(players) if groups.get(p) is not None}
    byes = {named[g]: b for g, b in teams.past_team_byes(history, groups).items() if g in named}
    met = {}
    for pair, count in teams.past_team_meetings(history, groups).items():
        if all(g in named for g in pair):
            a, b = sorted(named[g] for g in pair)
            met[a, b] = count
    counts = [0] * n
    for rnd in past:
        seated = {p for table in rnd for p in table}
        for p in range(n):
            counts[p] += p not in seated
    sitting_out = teams.team_sitting_out(team, rounds, counts, byes, rng, size)
    plan_rounds = teams.team_rounds(
        n,
        team,
        sitting_out,
        past,
        met,
        rng,
        size=size,
        search=method == "balanced" and effort > 0,
        effort=effort,
        time_limit=time_limit,
    )
    for start in range(0, len(plan_rounds), size):
        _balance_winds(n, past + plan_rounds[:start], plan_rounds[start : start + size], size)
    _balance_winds(n, past, plan_rounds, size)
    return _result(players, past, plan_rounds, sitting_out)


def _result(players, past, plan_rounds, sitting_out) -> Plan:
    met = _State(len(players), past)
    repeats = []
    for rnd in plan_rounds:
        repeats.append(tuple(met.table_repeats(table) for table in rnd))
        for table in rnd:
            met.meet(table, +1)
    return Plan(
        rounds=tuple(
            tuple(tuple(players[p] for p in table) for table in rnd) for rnd in plan_rounds
        ),
        sitting_out=tuple(tuple(players[p] for p in sorted(out)) for out in sitting_out),
        table_repeats=tuple(repeats),
    )


class _State:
    """How often each pair has met, as a flat n*n list for speed; `size` players a table."""

    def __init__(self, n: int, past: list[Round], size: int = 4):
        self.n = n
        self.size = size
        self.m = [0] * (n * n)
        for rnd in past:
            for table in rnd:
                self.meet(table, +1)

    def meet(self, table, step: int) -> None:
        m, n = self.m, self.n
        for a, b in combinations(table, 2):
            m[a * n + b] += step
            m[b * n + a] += step

    def table_repeats(self, table) -> int:
        m, n = self.m, self.n
        return sum(m[a * n + b] > 0 for a, b in combinations(table, 2))

    def cost(self) -> int:
        m = self.m
        return sum(c - 1 for c in m if c > 1) // 2


def _sitting_out(n: int, rounds: int, past: list[Round], rng, *, prefer_last: bool, size: int):
    """Who sits out each round: always those who sat out least so far, so that the counts
    differ by at most one; ties go round a shuffled order (for Swiss: the lowest placed)."""
    extra = n % size
    counts = [0] * n
    for rnd in past:
        seated = {p for table in rnd for p in table}
        for p in range(n):
            counts[p] += p not in seated
    if prefer_last:
        order = list(range(n - 1, -1, -1))
    else:
        order = list(range(n))
        rng.shuffle(order)
    result = []
    for _ in range(rounds):
        chosen = sorted(order, key=lambda p: counts[p])[:extra]
        for p in chosen:
            counts[p] += 1
        # Those who just sat out go to the back of the queue for the next tie.
        order = [p for p in order if p not in chosen] + chosen
        result.append(tuple(sorted(chosen)))
    return result


def _greedy_round(state: _State, seated: list[int], rng) -> Round:
    """Seat one round player by player at the table where they have met the fewest."""
    m, n, size = state.m, state.n, state.size
    rng.shuffle(seated)
    tables: Round = [[] for _ in range(len(seated) // size)]
    for p in seated:
        best = min(
            (t for t in tables if len(t) < size),
            key=lambda t: (sum(m[p * n + c] for c in t), len(t)),
        )
        best.append(p)
    for table in tables:
        state.meet(table, +1)
    return tables


def _lower_bound(n: int, rounds: int, fresh: bool, size: int = 4) -> int:
    """A bound no plan can beat: with fewer tables than seats at a table, every later
    table has two players who shared a table in the first round."""
    if not fresh or n % size:
        return 0
    tables = n // size
    return (rounds - 1) * tables * max(0, size - tables)


def _balanced(
    state: _State, sitting_out, rounds: int, rng, effort: int, *, fresh: bool, deadline=None
):
    n, size = state.n, state.size
    bound = _lower_bound(n, rounds, fresh, size)
    if fresh and construction_rounds(n, size) >= rounds:
        labels = list(range(n))
        rng.shuffle(labels)
        designed = transversal_rounds(n, rounds, size)
        plan = [[[labels[p] for p in t] for t in rnd] for rnd in designed]
        rng.shuffle(plan)
        return plan
    plan = [_greedy_round(state, [p for p in range(n) if p not in out], rng) for out in sitting_out]
    # Annealing in cycles, each starting hot again from the best plan so far.
    for _ in range(8 * effort):
        if _anneal(state, plan, rng, bound, steps=120_000) <= bound:
            break
        if deadline is not None and time.monotonic() > deadline:
            break
    return plan


def _anneal(state: _State, plan: list[Round], rng, bound: int, *, steps: int) -> int:
    """Simulated annealing over swaps of two players at different tables of one round.

    Leaves the best plan seen in `plan` (and its pair counts in `state`); returns its
    number of repeated meetings."""
    m, n, size = state.m, state.n, state.size
    cost = state.cost()
    best_cost = cost
    best = [[t[:] for t in rnd] for rnd in plan]
    rounds = len(plan)
    tables = len(plan[0]) if plan else 0
    if cost <= bound or tables < 2:
        return cost
    hot, cold = 0.45, 0.12

    ratio = cold / hot
    exp, rand, randrange = math.exp, rng.random, rng.randrange
    for step in range(steps):
        rnd = plan[randrange(rounds)]
        ti = randrange(tables)
        tj = randrange(tables - 1)
        if tj >= ti:
            tj += 1
        table_a, table_b = rnd[ti], rnd[tj]
        i, j = randrange(size), randrange(size)
        a, b = table_a[i], table_b[j]
        an, bn = a * n, b * n
        delta = 0
        for c in table_a:
            if c != a:
                delta += (m[bn + c] > 0) - (m[an + c] > 1)
        for c in table_b:
            if c != b:
                delta += (m[an + c] > 0) - (m[bn + c] > 1)
        if delta > 0 and rand() >= exp(-delta / (hot * ratio ** (step / steps))):
            continue
        for c in table_a:
            if c != a:
                cn = c * n
                m[an + c] -= 1
                m[cn + a] -= 1
                m[bn + c] += 1
                m[cn + b] += 1
        for c in table_b:
            if c != b:
                cn = c * n
                m[bn + c] -= 1
                m[cn + b] -= 1
                m[an + c] += 1
                m[cn + a] += 1
        table_a[i], table_b[j] = b, a
        cost += delta
        if cost < best_cost:
            best_cost = cost
            best = [[t[:] for t in rd] for rd in plan]
            if cost <= bound:
                break
    # Leave the best plan, and the pair counts that go with it, in place.
    for rnd in plan:
        for t in rnd:
            state.meet(t, -1)
    plan[:] = best
    for rnd in plan:
        for t in rnd:
            state.meet(t, +1)
    return best_cost


def _swiss(state: _State, sitting_out, rounds: int) -> list[Round]:
    """Tables by standings (the list order), then swaps between neighbouring tables
    wherever one lowers the repeated meetings."""
    n, m, size = state.n, state.m, state.size
    last = size - 1
    plan = []
    for out in sitting_out:
        seated = [p for p in range(n) if p not in out]
        rnd = [seated[i : i + size] for i in range(0, len(seated), size)]
        home = {p: t for t, table in enumerate(rnd) for p in table}
        # Nearest in the standings first: the last of the upper table and the first of the
        # lower one; nobody moves more than one table from where the standings put them.
        pairs = sorted(
            ((i, j) for i in range(size) for j in range(size)),
            key=lambda ij: last - ij[0] + ij[1],
        )
        improved = True
        while improved:
            improved = False
            for t in range(len(rnd) - 1):
                upper, lower = rnd[t], rnd[t + 1]
                for i, j in pairs:
                    if home[upper[i]] < t or home[lower[j]] > t + 1:
                        continue
                    before = _pairs_met(m, n, upper) + _pairs_met(m, n, lower)
                    upper[i], lower[j] = lower[j], upper[i]
                    if _pairs_met(m, n, upper) + _pairs_met(m, n, lower) < before:
                        improved = True
                        upper.sort()
                        lower.sort()
                        break
                    upper[i], lower[j] = lower[j], upper[i]
        for table in rnd:
            # Keep each table in standings order before the winds are chosen.
            table.sort()
            state.meet(table, +1)
        plan.append(rnd)
    return plan


def _pairs_met(m, n, table) -> int:
    return sum(m[a * n + b] for a, b in combinations(table, 2))


def _balance_winds(n: int, past: list[Round], plan: list[Round], size: int = 4) -> None:
    """Reorder the players of each planned table so that each player's counts of the
    `size` winds (four, or East, South and West at three) differ by at most one, counting
    the history.

    Seats are an edge colouring of the bipartite graph players x tables with `size` colours.
    While a player has wind x at least twice more than wind y, follow an alternating path
    (the player's x-table, that table's y-player, their x-table, ...) to someone with
    more y than x, and swap x and y along it: the sum of squared counts drops every time,
    and without history such a path always exists (the classical equitable colouring).
    """
    counts = [[0] * size for _ in range(n)]
    for rnd in past:
        for table in rnd:
            if len(table) == size:
                for w, p in enumerate(table):
                    counts[p][w] += 1
    tables = [table for rnd in plan for table in rnd]
    at: list[list[int]] = [[] for _ in range(n)]
    for k, table in enumerate(tables):
        for w, p in enumerate(table):
            counts[p][w] += 1
            at[p].append(k)
    changed = True
    while changed:
        changed = False
        for p in range(n):
            while True:
                c = counts[p]
                x = max(range(size), key=lambda w: c[w])
                y = min(range(size), key=lambda w: c[w])
                if c[x] - c[y] < 2 or not _swap_path(p, x, y, tables, at, counts):
                    break
                changed = True


def _swap_path(p, x, y, tables, at, counts) -> bool:
    parent: dict[int, tuple[int, int]] = {}
    seen_tables: set[int] = set()
    frontier = [p]
    seen_players = {p}
    while frontier:
        following = []
        for q in frontier:
            for k in at[q]:
                if k in seen_tables or tables[k][x] != q:
                    continue
                seen_tables.add(k)
                r = tables[k][y]
                if r in seen_players:
                    continue
                seen_players.add(r)
                parent[r] = (q, k)
                if counts[r][y] > counts[r][x]:
                    while r != p:
                        q, k = parent[r]
                        tables[k][x], tables[k][y] = r, q
                        counts[r][x] += 1
                        counts[r][y] -= 1
                        counts[q][x] -= 1
                        counts[q][y] += 1
                        r = q
                    return True
                following.append(r)
        frontier = following
    return False

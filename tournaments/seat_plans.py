"""Seating a session (a round) from the event's roster, through the `seating` planner.

The planner only sees player ids; this module feeds it the roster, the rounds already
seated (every other session's games) and, for the Swiss method, the standings, and turns
its answer back into players for the preview. Tables seat as many players as the event's
games have seats: four, or three in a three-player (sanma) event.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.core.cache import cache

import seating

from .models import WINDS, Event, GameSeat, Player, Session
from .standings import event_standings


@dataclass(frozen=True)
class ProposedTable:
    number: int
    seats: list[tuple[str, Player]]  # (wind, player), East first
    repeats: int  # pairs at this table who have sat together before in the event

    @property
    def player_ids(self) -> list[int]:
        return [player.pk for _, player in self.seats]


@dataclass(frozen=True)
class Proposal:
    tables: list[ProposedTable]
    sitting_out: list[Player]

    @property
    def repeats(self) -> int:
        return sum(table.repeats for table in self.tables)

    def plan(self) -> list[list[int]]:
        return [table.player_ids for table in self.tables]


def playing(session: Session) -> list[Player]:
    """The roster's players taking part in this session, in a fixed order (by id)."""
    return sorted(session.event.roster_players(session.number), key=lambda p: p.pk)


def history(event: Event, *, exclude: Session) -> dict[int, list[list[int]]]:
    """The tables of every other session, by session number: player ids in seat order."""
    rounds: dict[int, dict[int, list[int]]] = {}
    seats = (
        GameSeat.objects.filter(game__session__event=event)
        .exclude(game__session=exclude)
        .order_by("game__session__number", "game_id", "seat")
        .values_list("game__session__number", "game_id", "player_id")
    )
    for number, game_id, player_id in seats:
        rounds.setdefault(number, {}).setdefault(game_id, []).append(player_id)
    return {number: list(games.values()) for number, games in sorted(rounds.items())}


def _same_tables(a, b) -> bool:
    return {frozenset(t) for t in a} == {frozenset(t) for t in b}


def propose(
    session: Session,
    method: str,
    *,
    rounds: int = 1,
    fixed: list[list[Player]] | None = None,
    seed: int | None = None,
) -> Proposal:
    """A plan for this session. Balanced plans look ahead over the event's `rounds`, so
    that this round leaves the later ones room to avoid repeats. Raises SeatingError."""
    event = session.event
    size = event.player_count
    players = playing(session)
    by_id = {p.pk: p for p in players}
    ids = list(by_id)
    past = history(event, exclude=session)
    past_rounds = list(past.values())
    if method == "fixed":
        plan = seating.fixed_plan(
            ids, [[p.pk for p in t] for t in fixed or []], history=past_rounds, table_size=size
        )
    elif method == "balanced":
        plan = _balanced(session, ids, past, rounds)
    elif method == "swiss":
        standings = event_standings(event)
        ranked = [row.player_id for row in standings.rows if row.player_id in by_id]
        order = ranked + [pid for pid in ids if pid not in set(ranked)]
        plan = seating.make_plan(order, 1, method="swiss", history=past_rounds, table_size=size)
    else:
        plan = seating.make_plan(
            ids, 1, method=method, seed=seed or 0, history=past_rounds, table_size=size
        )
    tables = [
        ProposedTable(
            number=number,
            seats=[(WINDS[w], by_id[pid]) for w, pid in enumerate(table)],
            repeats=repeats,
        )
        for number, (table, repeats) in enumerate(
            zip(plan.rounds[0], plan.table_repeats[0], strict=True), start=1
        )
    ]
    out = sorted((by_id[pid] for pid in plan.sitting_out[0]), key=lambda p: p.display_name)
    return Proposal(tables=tables, sitting_out=out)


# Seconds a page waits for the planner's search, and how long a whole-event plan is kept.
SEARCH_SECONDS = 8
PLAN_CACHE_SECONDS = 14 * 24 * 3600


def whole_plan(event: Event, ids: list[int], rounds: int) -> seating.Plan:
    """The event's plan from its roster, made once and kept: the same roster and number of
    rounds give the same plan, so later sessions can take their round from it."""
    size = event.player_count
    digest = hashlib.sha256(json.dumps([event.pk, rounds, ids, size]).encode()).hexdigest()
    key = f"seating-plan:{digest}"
    plan = cache.get(key)
    if plan is None:
        plan = seating.make_plan(
            ids, rounds, seed=event.pk, time_limit=SEARCH_SECONDS, table_size=size
        )
        cache.set(key, plan, PLAN_CACHE_SECONDS)
    return plan


def _balanced(session: Session, ids: list[int], past: dict, rounds: int) -> seating.Plan:
    """While the sessions before this one were seated as the event's whole plan says (and
    nothing else was played), this session takes its own round of it. Otherwise the rounds
    still to come are planned anew around what was played."""
    number = session.number
    total = max(rounds, number)
    earlier = [past.get(n) for n in range(1, number)]
    if all(earlier) and set(past) == set(range(1, number)):
        whole = whole_plan(session.event, ids, total)
        if all(_same_tables(earlier[i], whole.rounds[i]) for i in range(number - 1)):
            return seating.Plan(
                rounds=whole.rounds[number - 1 :],
                sitting_out=whole.sitting_out[number - 1 :],
                table_repeats=whole.table_repeats[number - 1 :],
            )
    return seating.make_plan(
        ids,
        total - number + 1,
        seed=session.event_id,
        history=list(past.values()),
        time_limit=SEARCH_SECONDS,
        table_size=session.event.player_count,
    )

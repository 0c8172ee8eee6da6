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

from .models import (
    WINDS,
    CheckIn,
    Event,
    GameSeat,
    LineUp,
    Player,
    Session,
    Stage,
    StageEntrant,
    TeamMember,
)
from .reading.stages import all_stage_standings, stage_of_session
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
    """The players seated in this session, in a fixed order (by id): once check-in has
    begun, the roster's players marked present (substitutes taking a seat among them);
    before it, the roster's regular players taking part (the substitute pool waits)."""
    marks = dict(CheckIn.objects.filter(session=session).values_list("player_id", "present"))
    entrants = stage_entrants(session)
    if entrants is not None:
        # A stage's session seats the stage's entrants (those marked absent stay out); the
        # planner sits out as few as the tables need, in turn (byes).
        ids = [pid for pid in entrants if marks.get(pid, True)]
        players = Player.objects.filter(pk__in=ids)
    else:
        entries = session.event.roster.playing_in(session.number)
        if marks:
            present = [pid for pid, here in marks.items() if here]
            players = Player.objects.filter(entries__in=entries, pk__in=present)
        else:
            players = Player.objects.filter(entries__in=entries.regulars())
    players = list(players)
    if session.event.team_event:
        players = _in_lineups(session, players)
    return sorted(players, key=lambda p: p.pk)


def _in_lineups(session: Session, players: list[Player]) -> list[Player]:
    """A team event seats, of each team, the members its line-up for the session names;
    of a team without one, its members who are not reserves. Players of no team stay."""
    named: dict[int, set[int]] = {}
    for team_id, player_id in LineUp.players.through.objects.filter(
        lineup__session=session
    ).values_list("lineup__team_id", "player_id"):
        named.setdefault(team_id, set()).add(player_id)
    member_of = {
        player_id: (team_id, reserve)
        for team_id, player_id, reserve in TeamMember.objects.filter(
            event_id=session.event_id
        ).values_list("team_id", "player_id", "reserve")
    }
    kept = []
    for player in players:
        team = member_of.get(player.pk)
        if team is None:
            kept.append(player)
        elif team[0] in named:
            if player.pk in named[team[0]]:
                kept.append(player)
        elif not team[1]:
            kept.append(player)
    return kept


def team_groups(event: Event) -> dict[int, int] | None:
    """Player id -> team id for a team event's planner (None for any other event)."""
    if not event.team_event:
        return None
    return dict(TeamMember.objects.filter(event=event).values_list("player_id", "team_id"))


def stage_entrants(session: Session) -> list[int] | None:
    """The player ids (seed order) of the stage this session belongs to, as its cut fixed
    them (none before the cut); None for a session outside stages or of a first stage
    open to everyone, which is seated from the roster as an event without stages."""
    stage = stage_of_session(session.event, session.number)
    if stage is None:
        return None
    entries = StageEntrant.objects.filter(stage=stage).order_by("seed")
    ids = list(entries.values_list("player_id", flat=True))
    if not ids and stage.number == 1 and stage.entrants == Stage.Entrants.EVERYONE:
        return None
    return ids


def awaiting_cut(session: Session) -> Stage | None:
    """The stage of this session when nobody has entered it yet: it is seated after the
    cut that fixes its entrants."""
    if stage_entrants(session) == []:
        return stage_of_session(session.event, session.number)
    return None


@dataclass(frozen=True)
class CheckInCount:
    """How far the session's check-in has come: `present` of the `expected` regular
    players (substitutes checked in count among the present); `started` once anyone is
    marked."""

    started: bool
    present: int
    expected: int


def check_in_count(session: Session) -> CheckInCount:
    entries = session.event.roster.playing_in(session.number)
    marks = CheckIn.objects.filter(session=session, player__entries__in=entries)
    return CheckInCount(
        started=CheckIn.objects.filter(session=session).exists(),
        present=marks.filter(present=True).count(),
        expected=entries.regulars().count(),
    )


def free_substitutes(session: Session) -> list[Player]:
    """The substitute pool's players taking part in this session and not yet marked at its
    check-in (present or absent), by name: those who may still take a seat."""
    pool = session.event.roster.playing_in(session.number).substitutes()
    return list(
        Player.objects.filter(entries__in=pool)
        .exclude(check_ins__session=session)
        .order_by("display_name", "pk")
    )


def fill_short_tables(
    session: Session, players: list[Player]
) -> tuple[list[Player], list[Player], int]:
    """`players` with as many free substitutes added as the last table is short of
    players: (everyone to seat, the substitutes added, substitutes still missing)."""
    short = -len(players) % session.event.player_count
    free = free_substitutes(session)
    if not short or len(free) < short:
        return players, [], short if len(free) < short else 0
    added = free[:short]
    return sorted(players + added, key=lambda p: p.pk), added, 0


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
    players: list[Player] | None = None,
) -> Proposal:
    """A plan for this session's `players` (those `playing` if None). Balanced plans look
    ahead over the event's `rounds`, so that this round leaves the later ones room to
    avoid repeats. Raises SeatingError."""
    event = session.event
    size = event.player_count
    players = playing(session) if players is None else players
    by_id = {p.pk: p for p in players}
    ids = list(by_id)
    past = history(event, exclude=session)
    past_rounds = list(past.values())
    groups = team_groups(event)
    if method == "fixed":
        plan = seating.fixed_plan(
            ids,
            [[p.pk for p in t] for t in fixed or []],
            history=past_rounds,
            table_size=size,
            groups=groups,
        )
    elif groups is not None:
        # A team event: teammates apart, team meetings and byes evened out over the
        # rounds played; each session is planned from what was played (line-ups change
        # who plays from one session to the next).
        plan = seating.make_plan(
            ids,
            1,
            method=method,
            seed=seed or 0,
            history=past_rounds,
            time_limit=SEARCH_SECONDS,
            table_size=size,
            groups=groups,
        )
    elif method == "balanced":
        plan = _balanced(session, ids, past, rounds)
    elif method == "swiss":
        stage = stage_of_session(event, session.number)
        standings = (
            all_stage_standings(event)[stage.number - 1]
            if stage is not None and stage_entrants(session) is not None
            else event_standings(event)
        )
        # A substitute who replaced a no-show takes the no-show's place in the standings.
        instead = dict(
            CheckIn.objects.filter(session=session, replaced_by__isnull=False).values_list(
                "player_id", "replaced_by_id"
            )
        )
        ranked = list(
            dict.fromkeys(
                instead.get(row.player_id, row.player_id)
                for row in standings.rows
                if instead.get(row.player_id, row.player_id) in by_id
            )
        )
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

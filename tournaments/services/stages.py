"""Stages of an event: adding one, changing it, removing the last, hiding its totals, and
the cut that fixes who enters it. Each write is one transaction; a refusal stores nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone

import scoring
from scoring.errors import gettext_noop

from .. import versions
from ..limits import (
    MAX_BRACKETS,
    MAX_SEED_TABLE,
    MAX_SESSION_NUMBER,
    MAX_STAGES,
    ROSTER_LIMIT,
    TEAM_MEMBERS_LIMIT,
    TEAMS_LIMIT,
)
from ..models import Event, Game, Player, Stage, StageEntrant
from ..wording.refusals import Refusal
from .sessions import session_has_results


class StageRefused(Refusal):
    """A stage or a cut the event does not allow; the message says why."""


# Match points a seed table or byes may give, and a bracket's starting points: far beyond
# any real format, refused beyond.
MOST_POINTS = Decimal(1000)
MOST_START = 1_000_000
MOST_FACTOR = Decimal(10)
# The seating page's methods (`forms.seating`), or none: chosen when seating.
SEATING_METHODS = ("", "balanced", "swiss", "random", "fixed")


@dataclass(frozen=True)
class StagePlan:
    """What a director sets for a stage (the form's cleaned data)."""

    name: str
    first_session: int
    last_session: int
    entrants: str = Stage.Entrants.EVERYONE
    top: int | None = None
    carry: str = Stage.Carry.NONE
    carry_factor: Decimal | None = None
    carry_rounding: str = Stage.Rounding.HALF_UP
    carry_table: tuple = ()
    rules_preset: str = ""
    seating_method: str = ""
    bye_points: Decimal = Decimal(0)
    tie_breaks: tuple[str, ...] = ()
    hidden: bool = False
    # A team event's stage: team totals count the best this many members (None: as the
    # event says).
    team_best: int | None = None


def _check(plan: StagePlan, number: int, others: Sequence[Stage]) -> None:
    name = plan.name.strip()
    if not name or len(name) > 80:
        raise StageRefused(gettext_noop("Give the stage a name of 1 to 80 characters."))
    if not (1 <= plan.first_session <= plan.last_session <= MAX_SESSION_NUMBER):
        raise StageRefused(
            gettext_noop(
                "A stage runs from one session to the same or a later one, numbered 1 to %(most)s."
            ),
            most=MAX_SESSION_NUMBER,
        )
    for other in others:
        if other.number < number and other.last_session >= plan.first_session:
            raise StageRefused(
                gettext_noop(
                    "Stage %(number)s ends with session %(last)s: this stage starts after it."
                ),
                number=other.number,
                last=other.last_session,
            )
        if other.number > number and other.first_session <= plan.last_session:
            raise StageRefused(
                gettext_noop(
                    "Stage %(number)s starts with session %(first)s: this stage ends before it."
                ),
                number=other.number,
                first=other.first_session,
            )
    if plan.entrants not in Stage.Entrants.values:
        raise StageRefused(gettext_noop("Choose who enters the stage."))
    if plan.entrants == Stage.Entrants.TOP:
        if number == 1:
            raise StageRefused(
                gettext_noop("The first stage has no previous stage to take the top from.")
            )
        if plan.top is None or not (1 <= plan.top <= ROSTER_LIMIT):
            raise StageRefused(
                gettext_noop("Say how many go through: 1 to %(most)s."), most=ROSTER_LIMIT
            )
    if plan.entrants == Stage.Entrants.TOP_TEAMS:
        if number == 1:
            raise StageRefused(
                gettext_noop("The first stage has no previous stage to take the top teams from.")
            )
        if plan.top is None or not (1 <= plan.top <= TEAMS_LIMIT):
            raise StageRefused(
                gettext_noop("Say how many teams go through: 1 to %(most)s."), most=TEAMS_LIMIT
            )
    if plan.carry not in Stage.Carry.values or plan.carry_rounding not in Stage.Rounding.values:
        raise StageRefused(gettext_noop("Choose what the entrants carry into the stage."))
    if plan.carry in (Stage.Carry.FULL, Stage.Carry.FACTOR) and number == 1:
        raise StageRefused(
            gettext_noop("The first stage has no previous totals to carry: carry nothing.")
        )
    if plan.carry == Stage.Carry.FACTOR and (
        plan.carry_factor is None or not (0 < plan.carry_factor <= MOST_FACTOR)
    ):
        raise StageRefused(
            gettext_noop("Give the factor of the total carried, e.g. 0.5: above 0, at most 10.")
        )
    if plan.carry == Stage.Carry.SEED_TABLE:
        if not (1 <= len(plan.carry_table) <= MAX_SEED_TABLE) or any(
            abs(Decimal(v)) > MOST_POINTS or Decimal(v) != Decimal(v).quantize(Decimal("0.1"))
            for v in plan.carry_table
        ):
            raise StageRefused(
                gettext_noop(
                    "Give 1 to %(most)s match points by seed, e.g. 40/30/20/10/0, each to a "
                    "tenth and at most 1000 either way."
                ),
                most=MAX_SEED_TABLE,
            )
    if plan.carry == Stage.Carry.BRACKETS and (
        not (1 <= len(plan.carry_table) <= MAX_BRACKETS)
        or any(not (0 < int(v) <= MOST_START) or int(v) % 100 for v in plan.carry_table)
    ):
        raise StageRefused(
            gettext_noop(
                "Give 1 to %(most)s starting points by bracket, e.g. 29000/21000, each a "
                "positive multiple of 100."
            ),
            most=MAX_BRACKETS,
        )
    if plan.rules_preset and plan.rules_preset not in scoring.PRESETS:
        raise StageRefused(gettext_noop("Choose one of the rules presets, or none."))
    if plan.seating_method not in SEATING_METHODS:
        raise StageRefused(gettext_noop("Choose one of the seating methods, or none."))
    if abs(plan.bye_points) > MOST_POINTS:
        raise StageRefused(gettext_noop("Points for a bye are at most 1000 either way."))
    if plan.team_best is not None and not (1 <= plan.team_best <= TEAM_MEMBERS_LIMIT):
        raise StageRefused(
            gettext_noop(
                "A team total counts its best 1 to %(most)s members, or all of them (leave "
                "it empty)."
            ),
            most=TEAM_MEMBERS_LIMIT,
        )
    known = set(Stage.TieBreak.values)
    if any(t not in known for t in plan.tie_breaks) or len(set(plan.tie_breaks)) != len(
        plan.tie_breaks
    ):
        raise StageRefused(gettext_noop("Each tie-break may be listed once."))


def refuse_top_teams_without_teams(event: Event, entrants: str) -> None:
    """Only a team event has a team table to take the top teams from."""
    if entrants == Stage.Entrants.TOP_TEAMS and not event.team_event:
        raise StageRefused(
            gettext_noop(
                "Only a team event can let the top teams through: make the event a team "
                "event, or choose the top players."
            )
        )


def _check_rules(event: Event, plan: StagePlan, before: str | None) -> None:
    """A stage's own preset seats as many players as the event's, and changes only while
    none of its sessions has results (they were scored under the rules before)."""
    if plan.rules_preset and scoring.resolve_rules(plan.rules_preset).players != (
        event.player_count
    ):
        raise StageRefused(
            gettext_noop("The stage's rules must seat as many players as the event's.")
        )
    if plan.rules_preset == (before or ""):
        return
    for session in event.sessions.filter(
        number__gte=plan.first_session, number__lte=plan.last_session
    ):
        if session_has_results(session):
            raise StageRefused(
                gettext_noop(
                    "Session %(number)s has results under the rules it was played with: a "
                    "stage over it cannot change them."
                ),
                number=session.number,
            )


def _fields(plan: StagePlan) -> dict:
    def stored(value):
        # Seed tables keep their decimals exact as text; brackets are whole points.
        return str(Decimal(value)) if plan.carry == Stage.Carry.SEED_TABLE else int(value)

    return {
        "name": plan.name.strip(),
        "first_session": plan.first_session,
        "last_session": plan.last_session,
        "entrants": plan.entrants,
        "top": plan.top
        if plan.entrants in (Stage.Entrants.TOP, Stage.Entrants.TOP_TEAMS)
        else None,
        "carry": plan.carry,
        "carry_factor": plan.carry_factor if plan.carry == Stage.Carry.FACTOR else None,
        "carry_rounding": plan.carry_rounding,
        "carry_table": [stored(v) for v in plan.carry_table]
        if plan.carry in (Stage.Carry.SEED_TABLE, Stage.Carry.BRACKETS)
        else [],
        "rules_preset": plan.rules_preset,
        "seating_method": plan.seating_method,
        "bye_points": plan.bye_points,
        "tie_breaks": list(plan.tie_breaks),
        "hidden": plan.hidden,
        "team_best": plan.team_best,
    }


def _describe_stages(event_id: int) -> None:
    """Write the event's stage count and whether a stage hides its totals (its row is
    locked by the caller)."""
    stages = Stage.objects.filter(event_id=event_id)
    Event.objects.filter(pk=event_id).update(
        stage_count=stages.count(), totals_hidden=stages.filter(hidden=True).exists()
    )
    versions.changed(event_id, results=True)
    # A stage's rules are its sessions' games' rules.
    versions.games_changed(Game.objects.filter(session__event_id=event_id))


def _locked_stage(stage_id: int) -> Stage:
    """The stage, its event's row locked first (the order every stage write takes)."""
    event_id = Stage.objects.values_list("event_id", flat=True).get(pk=stage_id)
    Event.objects.select_for_update().filter(pk=event_id).first()
    return Stage.objects.select_for_update().select_related("event").get(pk=stage_id)


def add_stage(event_id: int, plan: StagePlan) -> Stage:
    """A new stage after the event's last one."""
    try:
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=event_id)
            others = list(Stage.objects.filter(event=event))
            if len(others) >= MAX_STAGES:
                raise StageRefused(
                    gettext_noop("An event has at most %(most)s stages."), most=MAX_STAGES
                )
            number = max((s.number for s in others), default=0) + 1
            _check(plan, number, others)
            refuse_top_teams_without_teams(event, plan.entrants)
            _check_rules(event, plan, None)
            stage = Stage.objects.create(event=event, number=number, **_fields(plan))
            _describe_stages(event.pk)
            return stage
    except StageRefused:
        raise
    except (InvalidOperation, ValueError, TypeError):
        raise StageRefused(gettext_noop("A number of the stage could not be read.")) from None


def change_stage(stage_id: int, plan: StagePlan) -> Stage:
    """New settings for a stage; its entrants stay as cut."""
    try:
        with transaction.atomic():
            stage = _locked_stage(stage_id)
            others = list(Stage.objects.filter(event_id=stage.event_id).exclude(pk=stage.pk))
            _check(plan, stage.number, others)
            refuse_top_teams_without_teams(stage.event, plan.entrants)
            _check_rules(stage.event, plan, stage.rules_preset)
            for name, value in _fields(plan).items():
                setattr(stage, name, value)
            stage.save()
            _describe_stages(stage.event_id)
            return stage
    except StageRefused:
        raise
    except (InvalidOperation, ValueError, TypeError):
        raise StageRefused(gettext_noop("A number of the stage could not be read.")) from None


def remove_stage(stage_id: int) -> None:
    """Remove the event's last stage (its sessions and games stay)."""
    with transaction.atomic():
        stage = _locked_stage(stage_id)
        if Stage.objects.filter(event_id=stage.event_id, number__gt=stage.number).exists():
            raise StageRefused(gettext_noop("Remove the later stages first."))
        stage.delete()
        _describe_stages(stage.event_id)


def hide_stage_totals(stage_id: int, hidden: bool) -> Stage:
    with transaction.atomic():
        stage = _locked_stage(stage_id)
        stage.hidden = hidden
        stage.save(update_fields=["hidden"])
        _describe_stages(stage.event_id)
        return stage


def refuse_cut_before_the_end(previous: Stage) -> None:
    """A cut ranks the players by the previous stage's standings: only once every game of
    that stage is finished (a game not played is deleted first)."""
    count = previous.unfinished_games().count()
    if count:
        raise StageRefused(
            gettext_noop(
                "Games of %(stage)s are not finished yet (%(count)s left): finish them, or "
                "delete the ones not played, before the cut."
            ),
            stage=previous.name,
            count=count,
        )


def cut_to_stage(stage_id: int, player_ids: Sequence[int]) -> Stage:
    """Fix who enters a stage, in seed order (1 first), in place of any earlier cut: only
    while none of its sessions has results."""
    if not (1 <= len(player_ids) <= ROSTER_LIMIT) or len(set(player_ids)) != len(player_ids):
        raise StageRefused(
            gettext_noop("A stage has 1 to %(most)s entrants, each once."), most=ROSTER_LIMIT
        )
    with transaction.atomic():
        stage = _locked_stage(stage_id)
        for session in stage.sessions():
            if session_has_results(session):
                raise StageRefused(
                    gettext_noop(
                        "Session %(number)s of this stage has results already: the entrants "
                        "can no longer change."
                    ),
                    number=session.number,
                )
        if Player.objects.filter(pk__in=player_ids).count() != len(player_ids):
            raise StageRefused(gettext_noop("A player of this cut was removed meanwhile."))
        previous = Stage.objects.filter(event_id=stage.event_id, number=stage.number - 1).first()
        if previous is not None:
            refuse_cut_before_the_end(previous)
        StageEntrant.objects.filter(stage=stage).delete()
        StageEntrant.objects.bulk_create(
            StageEntrant(stage=stage, player_id=pid, seed=seed)
            for seed, pid in enumerate(player_ids, start=1)
        )
        stage.cut_at = timezone.now()
        stage.save(update_fields=["cut_at"])
        versions.changed(stage.event_id, results=True)
        return stage

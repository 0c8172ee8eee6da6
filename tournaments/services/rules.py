"""Changing an event's rules: every game replayed under the new ones, or nothing changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

import scoring
from scoring.errors import gettext_noop

from .. import totals, trail
from ..models import Event, Game
from ..trail import Actor, Kind
from .errors import GameChangeRefused
from .games import rescore_game


@dataclass(frozen=True)
class RulesChange:
    games: int
    changed: int
    reopened: int


def _snapshot(game: Game) -> list[tuple]:
    return [(s.score, s.placement, s.match_points) for s in game.seats.order_by("seat")]


def change_event_rules(
    event_id: int, preset: str, overrides: dict[str, Any], *, actor: Actor | None = None
) -> RulesChange:
    """Change an event's rules and re-score all its games, or refuse and change nothing.

    A game that the new rules cannot settle is named in the refusal. A finished game that
    is no longer over under the new rules is reopened so that play can go on.
    """
    with transaction.atomic(), totals.batched():
        event = Event.objects.select_for_update().get(pk=event_id)
        rules_before = {"preset": event.rules_preset, "overrides": event.rules_overrides}
        players_before = event.player_count
        event.rules_preset = preset
        event.rules_overrides = overrides
        try:
            players = event.rules().players
        except scoring.ScoringError as err:
            raise GameChangeRefused(err) from None
        if players != players_before and Game.objects.filter(session__event=event).exists():
            # Every game has as many seats as its rules have players: its seats and hands
            # cannot be read under rules for another number of players.
            raise GameChangeRefused(
                gettext_noop(
                    "This event's games are played by %(before)s players, so its rules "
                    "cannot change to rules for %(after)s players. Choose rules for "
                    "%(before)s players, or make a new event for games of %(after)s."
                ),
                before=players_before,
                after=players,
            )
        event.save(update_fields=["rules_preset", "rules_overrides"])
        games = (
            Game.objects.filter(session__event=event)
            .select_related("session__event")
            .prefetch_related("seats__player")
            .order_by("session__number", "table_number", "pk")
        )
        rescored = changed = reopened = 0
        for game in games:
            if game.awaits_final_scores:
                continue
            rescored += 1
            before = _snapshot(game)
            was_finished = game.is_finished
            try:
                rescore_game(game)
            except GameChangeRefused as err:
                raise GameChangeRefused(
                    gettext_noop("%(game)s: %(problem)s"), game=str(game), problem=err.phrase
                ) from None
            if before != _snapshot(game):
                changed += 1
            if was_finished and not game.is_finished:
                reopened += 1
        trail.write(
            Kind.RULES_CHANGED,
            actor=actor,
            event=event,
            before=rules_before,
            after={
                "preset": preset,
                "overrides": overrides,
                "games_rescored": rescored,
                "games_changed": changed,
                "games_reopened": reopened,
            },
        )
        return RulesChange(rescored, changed, reopened)

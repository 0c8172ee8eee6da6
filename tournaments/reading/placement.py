"""An event's final placement: one place per ranked player, from first to last.

For an event without stages it is the standings' order (`tournaments.standings`): players
still equal after the standings' tie-breaks share a place. For an event with stages
(`tournaments.reading.stages`) the players of the last stage played come first, in that
stage's standings; each player eliminated earlier keeps the place they left with, below
everyone who went through. The standings page, its print and the exports (the EMA results
file among them) read this one list.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ..models import Event, Player
from ..standings import event_standings


@dataclass(frozen=True)
class Placed:
    """One player's final place. `points` is the total the place was decided on (match
    points; for a stage, carried points plus that stage's match points); `shared` when
    another player holds the same place; `stage` the number of the stage the player left
    the event in (None for an event without stages); `eliminated` when that stage was not
    the last."""

    place: int
    player: Player
    points: Decimal
    shared: bool
    stage: int | None = None
    eliminated: bool = False

    @property
    def place_label(self) -> str:
        return f"{self.place}=" if self.shared else str(self.place)


def final_placement(event: Event) -> list[Placed]:
    """The event's final ranking, first place first (see the module's docstring)."""
    from .stages import event_stages, stages_placement

    stages = event_stages(event)
    if stages:
        return stages_placement(event, stages)
    rows = event_standings(event, lines=0).rows
    players = Player.objects.in_bulk([row.player_id for row in rows])
    return [
        Placed(
            place=row.rank,
            player=players[row.player_id],
            points=row.match_points,
            shared=row.shared_rank,
            stage=None,
            eliminated=False,
        )
        for row in rows
    ]


def final_places(event: Event) -> dict[int, tuple[int, bool]]:
    """Each ranked player's final place, by player id: (place, shared). The same places as
    `final_placement`, without reading the players (an event without stages places its
    players in the order of its standings, which name them by id already)."""
    from .stages import event_stages, stages_placement

    stages = event_stages(event)
    if stages:
        placed = stages_placement(event, stages)
        return {one.player.pk: (one.place, one.shared) for one in placed}
    return {
        row.player_id: (row.rank, row.shared_rank) for row in event_standings(event, lines=0).rows
    }

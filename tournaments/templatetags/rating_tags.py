"""The ratings a player holds, for the player's page."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django import template

from ..models import GameSeat, Player, Rating
from ..reading import ratings as reading

register = template.Library()

# A player's page names at most this many ratings (the newest reckoning first).
PLAYER_RATINGS_SHOWN = 10


@dataclass(frozen=True)
class Held:
    rating: Rating
    place: int | None
    value: Decimal | None


@register.simple_tag(takes_context=True)
def player_ratings(context, player: Player) -> list[Held]:
    """The readable ratings over events the player played in, with the player's place and
    value in each (a value None: listed but not ranked)."""
    request = context.get("request")
    # The player page reads with the player whether the site has any rating.
    if request is None or getattr(player, "any_rating", True) is False:
        return []
    played = GameSeat.objects.filter(player=player).values("game__session__event_id")
    found = (
        reading.readable_ratings(request)
        .filter(events__in=played)
        .distinct()
        .order_by("-reckoning_date", "name", "pk")[:PLAYER_RATINGS_SHOWN]
    )
    held = []
    for rating in found:
        row = reading.summary(rating).row_of(player.pk)
        if row is not None:
            held.append(Held(rating, row.place, row.value))
    return held

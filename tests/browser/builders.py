"""Small worlds for the browser tests, made through the app's own services."""

from __future__ import annotations

import datetime

from tournaments import services
from tournaments.models import Event, Player, Session

NAMES = ["Aki", "Ben", "Chie", "Dan"]


def seat_a_game(
    organiser,
    *,
    name: str = "Thursday League",
    slug: str = "thursday",
    day: datetime.date = datetime.date(2026, 9, 3),
    table: int = 1,
):
    """A game in progress of Aki, Ben, Chie and Dan at `table` of session 1 of a new
    event run by `organiser`."""
    event = Event.objects.create(name=name, slug=slug, starts_on=day)
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=day)
    players = [Player.objects.create(display_name=player) for player in NAMES]
    return services.create_game(session, players, table_number=table)

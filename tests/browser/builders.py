"""Small worlds for the browser tests, made through the app's own services."""

from __future__ import annotations

import datetime
import time

from django.test import Client

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


def log_in_as(page, live_server, user) -> None:
    """Sign `user` in for the browser through a session cookie, without the login page."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def clock_readings_until_time(page, selector: str, *, within: float) -> list[int]:
    """The seconds a round clock shows, read once a second, until it shows "Time"; an
    error if it does not within `within` seconds."""
    shown = []
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        text = page.locator(selector).inner_text()
        if text == "Time":
            return shown
        minutes, seconds = text.split(":")
        shown.append(int(minutes) * 60 + int(seconds))
        page.wait_for_timeout(1000)
    raise AssertionError(f"the clock never showed Time: {shown}")

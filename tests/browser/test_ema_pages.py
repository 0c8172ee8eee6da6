"""At 390 px the EMA results page, a tournament's page with its MERS weight and the
player's details form read whole, and every link or button there is a 44 x 44 px target
(the check of test_phone_layout)."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page

from tests.browser.builders import log_in_as
from tests.browser.test_phone_layout import PHONE, problems
from tests.tournaments.builders import final_game
from tournaments.models import Event, Player, Session


@pytest.fixture
def tournament(transactional_db, organiser) -> Event:
    event = Event.objects.create(
        name="Riichi Open of a rather long name",
        slug="open",
        kind=Event.Kind.TOURNAMENT,
        starts_on=datetime.date(2026, 5, 2),
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 5, 2))
    final_game(session, ["Aki", "Ben", "Chie", "Dan"], [41300, 24900, 21800, 12000], 1)
    final_game(session, ["Emi", "Fumi", "Gen", "Hana"], [35000, 30000, 20000, 15000], 2)
    for index, player in enumerate(Player.objects.order_by("display_name")):
        player.real_name = f"Maximiliane Alexandra{index} Vandenberghe-Oosterhuis"
        player.ema_number = f"0401{index + 1:04d}"
        player.country = "NL"
        player.save()
    return event


def test_the_ema_pages_read_whole_at_390_px(live_server, page: Page, organiser, tournament):
    page.set_viewport_size(PHONE)
    log_in_as(page, live_server, organiser)
    player = Player.objects.get(display_name="Aki")
    found = {}
    for path in (
        f"{live_server.url}/events/open/ema/",
        f"{live_server.url}/events/open/",
        f"{live_server.url}/players/{player.pk}/edit/",
    ):
        page.goto(path)
        found[path] = problems(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    assert found == {path: [] for path in found}
    page.goto(f"{live_server.url}/events/open/ema/")
    assert "1000.00" in page.inner_text("main") and "MERS weight 1" in page.inner_text("main")

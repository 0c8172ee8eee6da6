"""At 390 px a player's profile across events (with an alias after a merge), the merge
preview and the player search read whole, and every link or button there is a 44 x 44 px
target (the check of test_phone_layout)."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page

from tests.browser.builders import log_in_as
from tests.browser.test_phone_layout import PHONE, problems
from tests.tournaments.builders import final_game
from tournaments.models import Event, Player, Session


@pytest.fixture
def two_cups(transactional_db, organiser) -> dict:
    made = {}
    for day, name in ((3, "Spring Cup of the Riverside Mahjong Club"), (24, "Summer Open")):
        event = Event.objects.create(
            name=name, slug=f"cup-{day}", starts_on=datetime.date(2026, 4, day)
        )
        event.organisers.add(organiser)
        session = Session.objects.create(event=event, number=1, date=event.starts_on)
        made[day] = session
    final_game(made[3], ["Kenji Sato", "Aki", "Ben", "Chie"], [41300, 24900, 21800, 12000], 1)
    final_game(made[24], ["K. Sato", "Aki", "Ben", "Chie"], [15000, 35000, 30000, 20000], 1)
    kenji = Player.objects.get(display_name="Kenji Sato")
    sato = Player.objects.get(display_name="K. Sato")
    return {"kenji": kenji, "sato": sato}


def test_a_players_profile_across_two_events_reads_whole_at_390_px(
    live_server, page: Page, organiser, two_cups
):
    kenji, sato = two_cups["kenji"], two_cups["sato"]
    page.set_viewport_size(PHONE)
    log_in_as(page, live_server, organiser)

    page.goto(f"{live_server.url}/players/{kenji.pk}/merge/?q=sato")
    page.get_by_role("link", name="K. Sato").click()
    assert "K. Sato into Kenji Sato" in page.inner_text("[data-testid=merge-preview]")
    merge_problems = problems(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("button", name="Merge K. Sato into this player").click()
    page.wait_for_url(f"{live_server.url}/players/{kenji.pk}/")

    main = page.inner_text("main")
    assert "Also known as K. Sato" in main
    assert "Spring Cup of the Riverside Mahjong Club" in main and "Summer Open" in main
    assert "1 of 4" in main and "4 of 4" in main
    found = {"merge": merge_problems, "profile": problems(page)}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.goto(f"{live_server.url}/players/?q=sato")
    found["search"] = problems(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert "Kenji Sato" in page.inner_text("main")
    assert found == {"merge": [], "profile": [], "search": []}
    assert not Player.objects.filter(pk=sato.pk).exists()

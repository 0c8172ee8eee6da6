"""At 390 px a rating's table, a player's trace in it, the ratings form and the player's
page with its ratings read whole, and every link or button there is a 44 x 44 px target
(the check of test_phone_layout)."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page

from tests.browser.builders import log_in_as
from tests.browser.test_phone_layout import PHONE, problems
from tests.tournaments.builders import final_game
from tournaments.models import Event, Player, Rating, Session
from tournaments.services.ratings import save_rating


@pytest.fixture
def season(transactional_db, organiser) -> Rating:
    events = []
    for number, name in enumerate(("Spring Club Championship of a long name", "Summer Cup")):
        day = datetime.date(2026, 4 + 3 * number, 2)
        event = Event.objects.create(name=name, slug=f"season-{number}", starts_on=day)
        event.organisers.add(organiser)
        session = Session.objects.create(event=event, number=1, date=day)
        final_game(session, ["Aki", "Ben", "Chie", "Dan"], [41300, 24900, 21800, 12000], 1)
        final_game(session, ["Emi", "Fumi", "Gen", "Hana"], [35000, 30000, 20000, 15000], 2)
        events.append(event)
    return save_rating(
        None,
        user=organiser,
        name="Club ranking of the season, a rather long name",
        formula=Rating.Formula.MERS,
        reckoning_date=datetime.date(2026, 12, 31),
        best_of=None,
        events=events,
        is_public=True,
    )


def test_a_rating_and_a_players_trace_read_whole_at_390_px(
    live_server, page: Page, organiser, season
):
    page.set_viewport_size(PHONE)
    log_in_as(page, live_server, organiser)
    player = Player.objects.get(display_name="Aki")
    found = {}
    for path in (
        "/ratings/",
        f"/ratings/{season.pk}/",
        f"/ratings/{season.pk}/players/{player.pk}/",
        f"/ratings/{season.pk}/edit/",
        "/ratings/new/",
        f"/players/{player.pk}/",
    ):
        page.goto(f"{live_server.url}{path}")
        found[path] = problems(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    assert found == {path: [] for path in found}
    # Aki won both events: base rank 1000 twice, weight 1, and three padding results of 0;
    # part A 2000 / 5 = 400, part B 2000 / 4 = 500: 450.00. The trace names both events,
    # each figure and the padding results.
    page.goto(f"{live_server.url}/ratings/{season.pk}/players/{player.pk}/")
    main = page.inner_text("main")
    assert "Part A 400.00, part B 500.00: (400.00 + 500.00) / 2 = 450.00." in main
    assert "Summer Cup" in main and "place 1 of 8" in main
    assert main.count("Missing result (up to five)") == 3
    figures = page.locator(".trace-figures").first
    box = figures.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_a_players_trace_reads_whole_in_japanese_at_390_px(live_server, page: Page, season):
    page.set_viewport_size(PHONE)
    page.set_extra_http_headers({"Accept-Language": "ja"})
    player = Player.objects.get(display_name="Ben")
    for path in (f"/ratings/{season.pk}/", f"/ratings/{season.pk}/players/{player.pk}/"):
        page.goto(f"{live_server.url}{path}")
        assert page.evaluate("document.documentElement.lang") == "ja"
        assert problems(page) == [], path
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    assert "基本ランク" in page.inner_text("main") and "8人中4位" in page.inner_text("main")

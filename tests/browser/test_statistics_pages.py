"""The statistics pages on a phone: the table scrolls inside its box, the page does not."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tournaments import imports
from tournaments.models import Event, Player, Session

PHONE = {"width": 390, "height": 844}
SAMPLES = Path(__file__).resolve().parents[1] / "data" / "tenhou"


@pytest.fixture
def online(transactional_db):
    event = Event.objects.create(
        name="Online League", slug="online", starts_on=datetime.date(2026, 1, 1),
        rules_preset="tenhou",
    )  # fmt: skip
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 8))
    for path in sorted(SAMPLES.glob("*.json"))[:3]:
        check = imports.check_log(event, path.name, path.read_bytes())
        players = imports.resolve_players(check, {}, create_unknown=True)
        imports.import_game(session, check, players, table_number=session.games.next_table_number())
    return event


def test_statistics_and_a_players_figures_fit_a_phone(live_server, page: Page, online, tmp_path):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/events/online/statistics/")
    expect(page.get_by_role("heading", name="Player statistics")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(tmp_path / "statistics.png"), full_page=True)
    player = Player.objects.order_by("display_name").first()
    page.goto(f"{live_server.url}/players/{player.pk}/?event=online")
    expect(page.get_by_test_id("statistics")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator(".player-stats").screenshot(path=str(tmp_path / "player.png"))

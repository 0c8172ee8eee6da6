"""Uploading many Tenhou logs through the import page, with its progress bar."""

from __future__ import annotations

import datetime
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.conftest import ORGANISER_PASSWORD
from tournaments.models import Event, Game

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "tenhou"


def test_an_organiser_uploads_three_logs_sees_them_checked_and_imports_them(
    page: Page, live_server, transactional_db, organiser
):
    event = Event.objects.create(
        name="Online", slug="online", starts_on=datetime.date(2026, 1, 1), rules_preset="tenhou"
    )
    event.organisers.add(organiser)
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", organiser.username)
    page.fill("input[name=password]", ORGANISER_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header")).to_contain_text("Log out")

    page.goto(f"{live_server.url}/events/online/import/")
    logs = sorted(SAMPLES.glob("*.json"))[:3]
    page.set_input_files("input[type=file]", [str(p) for p in logs])
    page.click("main button[type=submit]")
    # The script posts the files itself, shows its progress bar, then follows the redirect.
    expect(page.locator("#upload-progress")).to_be_visible()
    page.wait_for_url(f"{live_server.url}/events/online/import/*/")
    expect(page.locator("main")).to_contain_text("3 of 3 logs can be")
    assert not Game.objects.exists()

    page.click("text=Import the checked games")
    page.wait_for_url(f"{live_server.url}/events/online/sessions/1/")
    expect(page.locator("main")).to_contain_text("Imported 3 games")
    assert Game.objects.filter(status="finished").count() == 3

"""The game page, which the table's phone keeps open, carries the round: the round clock
counts down and shows "Time", the director's signal appears at the
page's next poll, and the table calls a referee with one tap; all of it fits a phone."""

from __future__ import annotations

import datetime
import re

from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.browser.builders import clock_readings_until_time
from tournaments import services
from tournaments.models import RefereeCall, RoundSignal

PHONE = {"width": 390, "height": 844}
CLOCK = "#game-live [data-clock-time]"


def open_at_the_table(page: Page, game) -> None:
    link = services.renew_table_link(game.pk)
    page.set_viewport_size(PHONE)
    page.goto(link.get_absolute_url())
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    # The page's own first requests are over before the test writes: SQLite's in-memory
    # test database refuses a write while the live server's thread is reading a table.
    page.wait_for_load_state("networkidle")


def test_the_game_page_counts_the_round_down_to_time(game, page: Page):
    # A one-minute round, 35 seconds of it gone.
    services.start_round_clock(
        game.session_id, 1, now=timezone.now() - datetime.timedelta(seconds=35)
    )
    open_at_the_table(page, game)
    first = page.locator(CLOCK).inner_text()
    assert re.fullmatch(r"0:[0-2]\d", first), first
    shown = clock_readings_until_time(page, CLOCK, within=35)
    assert shown == sorted(shown, reverse=True), shown
    # The page's poll (every 10 s) swaps the clock in again: still "Time".
    page.wait_for_timeout(11_000)
    assert page.locator(CLOCK).inner_text() == "Time"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_signal_reaches_the_open_game_page_and_the_table_calls_a_referee(game, page: Page):
    open_at_the_table(page, game)
    expect(page.locator(".round-signal")).to_have_count(0)
    services.send_signal(game.session_id, RoundSignal.LAST_HAND)
    # No reload: the page's own poll brings it.
    expect(page.locator(".round-signal")).to_contain_text("Last hand", timeout=15_000)
    page.get_by_label("A few words (optional)").fill("chombo?")
    page.get_by_role("button", name="A ruling").click()
    expect(page.locator(".referee-status")).to_contain_text("Referee called: please wait.")
    call = RefereeCall.objects.get()
    assert (call.reason, call.note) == ("ruling", "chombo?")
    box = page.locator(".round-signal").bounding_box()
    assert box["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

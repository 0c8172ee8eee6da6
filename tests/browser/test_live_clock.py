"""The live screen's round clock counts down with the browser's clock across polls, even
when every poll is answered from the cache, and shows "Time" when the round is over."""

from __future__ import annotations

import datetime
import re

from django.utils import timezone

from tests.browser.builders import clock_readings_until_time
from tournaments import services

CLOCK = "#live-panel [data-clock-time]"


def test_the_live_round_clock_counts_down_across_polls_and_shows_time(game, page):
    # A one-minute round, 40 seconds of it gone: 20 seconds left, three or four polls.
    start = timezone.now() - datetime.timedelta(seconds=40)
    services.start_round_clock(game.session_id, 1, now=start)
    polls: list[str] = []
    page.on(
        "response",
        lambda r: (
            polls.append(r.url)
            if "/live/" in r.url and r.request.is_navigation_request() is False
            else None
        ),
    )

    page.goto("/events/thursday/live/")
    first = page.locator(CLOCK).inner_text()
    assert re.fullmatch(r"0:(1\d|20)", first), first
    shown = clock_readings_until_time(page, CLOCK, within=30)
    # It counted down second by second, through the polls, to the end.
    assert len(polls) >= 2, polls
    assert shown == sorted(shown, reverse=True) and shown[-1] <= 1, shown
    # And stays at "Time" when the next poll swaps a new panel in.
    count = len(polls)
    page.wait_for_timeout(6000)
    assert len(polls) > count
    assert page.locator(CLOCK).inner_text() == "Time"
    assert "clock-over" in page.locator("#live-panel .round-clock").get_attribute("class")

"""Under Mahjong Soul's rules the hand form asks, on a phone, how many yakuman of a double
yakuman the liable player fed: only once there is a liable player and a multiple."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_hand_counting import PHONE, log_in, small_tap_targets
from tournaments import services
from tournaments.models import Event, Player, Session, Win

NAMES = ["Aki", "Ben", "Chie", "Dan"]


@pytest.fixture
def soul_game(transactional_db, organiser):
    event = Event.objects.create(
        name="Soul League",
        slug="soul",
        starts_on=datetime.date(2026, 9, 3),
        rules_preset="mahjongsoul",
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    players = [Player.objects.create(display_name=name) for name in NAMES]
    return services.create_game(session, players, table_number=1)


def tap(page: Page, field: str, value: str) -> None:
    page.locator(f'#group-{field} label.pick:has(input[value="{value}"])').click()


def test_the_count_of_fed_yakuman_shows_only_with_a_liable_player_and_a_multiple(
    live_server, page: Page, soul_game, tmp_path
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}{soul_game.get_absolute_url()}hands/new/")
    fed = page.locator("#group-w1_pao_yakuman")
    page.locator("#group-result label.pick", has_text="Tsumo").click()
    page.locator("#group-w1_winner label.pick", has=page.locator("b", has_text="Ben")).click()
    tap(page, "w1_han", "Y")
    expect(fed).to_be_hidden()
    tap(page, "w1_yakuman", "2")
    expect(fed).to_be_hidden()  # no liable player yet
    page.locator("#group-w1_pao label.pick", has=page.locator("b", has_text="Chie")).click()
    expect(fed).to_be_visible()
    # A double yakuman: the liable player fed one or both, no more.
    expect(fed.locator('label.pick:has(input[value="2"])')).to_be_visible()
    expect(fed.locator('label.pick:has(input[value="3"])')).to_be_hidden()
    assert small_tap_targets(page, "#group-w1_pao_yakuman label.pick") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    tap(page, "w1_pao_yakuman", "1")
    page.screenshot(path=str(tmp_path / "pao-yakuman.png"), full_page=True)

    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    win = Win.objects.get(hand__game=soul_game)
    assert (win.yakuman, win.pao, win.pao_yakuman) == (2, 2, 1)
    assert [s.score for s in soul_game.seats.order_by("seat")] == [9000, 89000, -15000, 17000]

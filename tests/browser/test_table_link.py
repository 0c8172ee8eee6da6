"""The players at a table enter their own hands from the table link on a phone, with no
login; the organiser sees each change in the trail with the table link as its author; the
live screen shows a hand entered elsewhere once it polls."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from tests.browser.builders import seat_a_game
from tournaments import services
from tournaments.models import Hand, TrailEntry

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def game(transactional_db, organiser):
    return seat_a_game(
        organiser, name="Autumn Open", slug="autumn", day=datetime.date(2026, 10, 10), table=3
    )


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def tap_seat(page: Page, field: str, name: str) -> None:
    page.locator(f"#group-{field}").locator(
        "label.pick", has=page.locator("b", has_text=name)
    ).click()


def tap(page: Page, field: str, value: str) -> None:
    page.locator(f'#group-{field} label.pick:has(input[value="{value}"])').click()


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    # Measure the preview page itself, not the form while it is being left.
    expect(page).to_have_title(re.compile(rf"^Check hand {number} "))
    fits_the_phone(page)
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text(f"Hand {number} saved.")


def test_players_enter_hands_through_the_table_link_and_the_organiser_sees_who(
    live_server, page: Page, game, organiser, tmp_path
):
    link = services.renew_table_link(game.pk)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{link.get_absolute_url()}")
    expect(page.locator(".messages")).to_contain_text("Table 3: you can enter this game's hands.")
    assert link.code not in page.url
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    fits_the_phone(page)

    # A ron: Ben off Aki, 3 han 40 fu.
    page.get_by_role("link", name="Enter hand 1").click()
    page.locator("#group-result label.pick", has_text="Ron").click()
    tap_seat(page, "w1_winner", "Ben")
    tap_seat(page, "loser", "Aki")
    tap(page, "w1_han", "3")
    tap(page, "w1_fu", "40")
    save(page, 1)
    expect(page.locator("#hand-1")).to_contain_text("Ben ron off Aki · 3 han 40 fu")

    # A tsumo: Dan, 4 han 30 fu.
    page.get_by_role("link", name="Enter hand 2").click()
    page.locator("#group-result label.pick", has_text="Tsumo").click()
    tap_seat(page, "w1_winner", "Dan")
    tap(page, "w1_han", "4")
    tap(page, "w1_fu", "30")
    save(page, 2)

    # A draw with Chie tenpai.
    page.get_by_role("link", name="Enter hand 3").click()
    page.locator("#group-result label.pick", has_text="Draw").click()
    tap_seat(page, "tenpai", "Chie")
    save(page, 3)
    page.screenshot(path=str(tmp_path / "table-link-phone.png"), full_page=True)

    # Undo the draw.
    page.get_by_role("link", name="Undo hand 3").click()
    expect(page.locator("h1")).to_have_text("Undo hand 3?")
    page.screenshot(path=str(tmp_path / "undo-phone.png"), full_page=True)
    fits_the_phone(page)
    page.get_by_role("button", name="Undo hand 3").click()
    expect(page.locator(".messages")).to_contain_text("Hand 3 undone.")
    expect(page.locator("#hand-3")).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 2
    # The table sees no organiser tool.
    expect(page.get_by_role("button", name="Call time")).to_have_count(0)
    expect(page.get_by_role("link", name="Add a penalty")).to_have_count(0)

    # The organiser sees every change, by the table link.
    organiser_page = page.context.browser.new_page()
    client = Client()
    client.force_login(organiser)
    cookie = client.cookies["sessionid"]
    organiser_page.context.add_cookies(
        [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
    )
    organiser_page.goto(f"{live_server.url}/events/autumn/changes/")
    rows = organiser_page.locator("table.trail-table tbody tr")
    expect(rows).to_have_count(5)  # the link made, three hands added, one undone
    for what in ("Hand added 1", "Hand added 2", "Hand added 3", "Hand undone 3"):
        row = rows.filter(has_text=what)
        expect(row).to_have_count(1)
        expect(row).to_contain_text(f"Table 3 link #{link.pk}")
    assert TrailEntry.objects.filter(table_link=link).count() == 4
    organiser_page.close()


def test_the_live_screen_shows_a_hand_entered_elsewhere_after_its_poll(
    live_server, page: Page, game, settings
):
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server.url}/events/autumn/live/")
    card = page.locator('.live-card[data-table="3"]')
    # Nothing entered yet: the room is finding its tables.
    expect(page.locator(".live-seats")).to_contain_text("Table 3 · East")
    services.add_hand(
        game.pk,
        1,
        {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]},
    )
    # The screen polls every few seconds; no reload.
    expect(card).to_contain_text("30,200", timeout=15_000)
    expect(card).to_contain_text("E2-0")

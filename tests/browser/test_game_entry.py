"""An organiser keeps a whole game on a phone: creates it from the session page, enters
hands with a few taps, undoes and edits, and reads the final result the engine computed."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import Page, expect

import scoring
from tests.conftest import ORGANISER_PASSWORD
from tournaments.models import Event, Game, Player, Session

PHONE = {"width": 390, "height": 844}
NAMES = ["Aki", "Ben", "Chie", "Dan"]
MINUS = "\u2212"


@pytest.fixture
def table(transactional_db, organiser):
    event = Event.objects.create(
        name="Thursday League", slug="thursday", starts_on=datetime.date(2026, 9, 3)
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    for name in NAMES:
        Player.objects.create(display_name=name)
    return session


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def tap_seat(page: Page, field: str, name: str) -> None:
    group = page.locator(f"#group-{field}")
    group.locator("label.pick", has=page.locator("b", has_text=name)).click()


def tap(page: Page, field: str, value: str) -> None:
    page.locator(f'#group-{field} label.pick:has(input[value="{value}"])').click()


def tap_result(page: Page, label: str) -> None:
    page.locator("#group-result label.pick", has_text=label).click()


def preview_and_save(page: Page, number: int) -> None:
    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    expect(page.get_by_role("button", name="Confirm and save")).to_be_visible()
    fits_the_phone(page)
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text(f"Hand {number} saved.")


def points(value) -> str:
    return f"{value:,}".replace("-", MINUS)


def test_an_organiser_keeps_a_whole_game_on_a_phone(live_server, page: Page, table, tmp_path):
    page.set_viewport_size(PHONE)

    # Log in through the login page.
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", ORGANISER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-nav")).to_contain_text("Olive")

    # Create the game from the session page.
    page.goto(f"{live_server.url}{table.get_absolute_url()}")
    page.get_by_role("link", name="New game").click()
    for field, name in zip(("east", "south", "west", "north"), NAMES, strict=True):
        page.select_option(f"#id_{field}", label=name)
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()
    game = Game.objects.get()
    assert page.url.endswith(game.get_absolute_url())
    fits_the_phone(page)

    # Hand 1: Ben rons Aki for 3 han 40 fu; Chie had declared riichi.
    page.get_by_role("link", name="Enter hand 1").click()
    tap_result(page, "Ron")
    tap_seat(page, "w1_winner", "Ben")
    tap_seat(page, "loser", "Aki")
    tap(page, "w1_han", "1")
    # One han: no 20 or 25 fu is offered for a ron.
    expect(page.locator('#group-w1_fu label.pick:has(input[value="20"])')).to_be_hidden()
    expect(page.locator('#group-w1_fu label.pick:has(input[value="25"])')).to_be_hidden()
    tap(page, "w1_han", "3")
    tap(page, "w1_fu", "40")
    tap_seat(page, "riichi", "Chie")
    fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "hand-form-phone.png"), full_page=True)
    page.get_by_role("button", name="Preview hand 1").click()
    payments = page.locator("table.payments")
    expect(payments).to_contain_text(f"{MINUS}5,200")
    expect(payments).to_contain_text("+6,200")
    expect(page.locator(".hand-preview")).to_contain_text("Next hand: E2-0, Ben deals.")
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    expect(page.locator("#hand-1")).to_contain_text("Ben ron off Aki · 3 han 40 fu")

    # Hand 2: Dan's tsumo, 4 han 30 fu. A tsumo has no loser to choose.
    page.get_by_role("link", name="Enter hand 2").click()
    tap_result(page, "Tsumo")
    expect(page.locator("#group-loser")).to_be_hidden()
    tap_seat(page, "w1_winner", "Dan")
    tap(page, "w1_han", "4")
    tap(page, "w1_fu", "30")
    preview_and_save(page, 2)

    # Hand 3: a draw with Aki and Dan tenpai.
    page.get_by_role("link", name="Enter hand 3").click()
    tap_result(page, "Draw")
    tap_seat(page, "tenpai", "Aki")
    tap_seat(page, "tenpai", "Dan")
    preview_and_save(page, 3)
    expect(page.locator("#hand-3")).to_contain_text("Draw · tenpai: Aki, Dan")

    # Hand 4: Chie deals in to Ben (2 han 30 fu) and Dan (mangan) at once.
    page.get_by_role("link", name="Enter hand 4").click()
    tap_result(page, "Ron")
    tap_seat(page, "w1_winner", "Ben")
    tap_seat(page, "loser", "Chie")
    tap(page, "w1_han", "2")
    tap(page, "w1_fu", "30")
    page.get_by_text("Double ron: add a second winner").click()
    tap_seat(page, "w2_winner", "Dan")
    tap(page, "w2_han", "5")
    expect(page.locator("#group-w2_fu")).to_be_hidden()
    preview_and_save(page, 4)
    expect(page.locator("#hand-4")).to_contain_text("Double ron off Chie")
    page.screenshot(path=str(tmp_path / "game-phone.png"), full_page=True)
    fits_the_phone(page)

    # Undo the double ron.
    page.get_by_role("link", name="Undo hand 4").click()
    expect(page.locator("h1")).to_have_text("Undo hand 4?")
    expect(page.locator(".summary")).to_contain_text("Double ron off Chie")
    page.get_by_role("button", name="Undo hand 4").click()
    expect(page.locator(".messages")).to_contain_text("Hand 4 undone.")
    expect(page.locator("#hand-4")).to_have_count(0)

    # Edit hand 2: the tsumo was 40 fu, not 30.
    page.get_by_role("link", name="Edit hand 2").click()
    expect(page.locator('#group-w1_fu input[value="30"]')).to_be_checked()
    tap(page, "w1_fu", "40")
    page.get_by_role("button", name="Preview the change").click()
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("Hand 2 changed.")
    expect(page.locator("#hand-2")).to_contain_text("Dan tsumo · 4 han 40 fu")

    # Hand 4 again: the dealer Dan rons Chie for a yakuman, which busts her.
    page.get_by_role("link", name="Enter hand 4").click()
    tap_result(page, "Ron")
    tap_seat(page, "w1_winner", "Dan")
    tap_seat(page, "loser", "Chie")
    tap(page, "w1_han", "Y")
    expect(page.locator("#group-w1_yakuman")).to_be_visible()
    page.get_by_role("button", name="Preview hand 4").click()
    expect(page.locator(".hand-preview")).to_contain_text("The game ends")
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("The game is over: a player went below zero.")

    # The page shows the engine's final scores, places and match points.
    game.refresh_from_db()
    assert game.is_finished
    result = scoring.replay(scoring.parse_record(game.to_record()))
    rows = page.locator("table.final-table tbody tr")
    expect(rows).to_have_count(4)
    by_place = sorted(range(4), key=lambda seat: result.placements[seat])
    for row, seat in enumerate(by_place):
        cells = rows.nth(row).locator("th, td")
        expect(cells.nth(1)).to_have_text(NAMES[seat])
        expect(cells.nth(2)).to_have_text(points(result.final_scores[seat]))
        expect(cells.nth(3)).to_have_text(f"{result.match_points[seat]:+.1f}".replace("-", MINUS))
    assert [s.match_points for s in game.seats.order_by("seat")] == list(result.match_points)
    expect(page.get_by_role("button", name="Reopen the game")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Enter hand"))).to_have_count(0)
    fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "finished-phone.png"), full_page=True)

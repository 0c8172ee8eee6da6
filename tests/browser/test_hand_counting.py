"""A beginner counts a hand on a phone: ticks riichi, tsumo, pinfu and one dora, and the
form fills in the han and fu and pays the right amounts."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.conftest import ORGANISER_PASSWORD
from tournaments.models import Win

PHONE = {"width": 390, "height": 844}


def log_in(page: Page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", ORGANISER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-nav")).to_be_visible()


def open_hand_form(page: Page, live_server, game) -> None:
    """The hand form of `game` on a phone, signed in as its organiser."""
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}{game.get_absolute_url()}hands/new/")


def small_tap_targets(page: Page, selector: str) -> list[str]:
    return page.evaluate(
        """sel => Array.from(document.querySelectorAll(sel))
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([t, r]) => r.width < 44 || r.height < 44)
            .map(([t, r]) => t + ' ' + r.width + 'x' + r.height)""",
        selector,
    )


def test_a_hand_entered_through_the_yaku_checklist_on_a_phone(
    live_server, page: Page, game, tmp_path
):
    open_hand_form(page, live_server, game)
    page.locator("#group-result label.pick", has_text="Tsumo").click()
    page.locator("#group-w1_winner label.pick", has=page.locator("b", has_text="Ben")).click()
    page.locator("#group-riichi label.pick", has=page.locator("b", has_text="Ben")).click()

    help_ = page.locator('details[data-count="1"]')
    help_.locator(":scope > summary").click()
    help_.locator("#group-w1_hand label.pick", has_text="Closed").click()
    for key in ("riichi", "menzen_tsumo", "pinfu"):
        help_.locator(f'label[data-yaku="{key}"]').click()
    help_.get_by_role("button", name="One dora more").click()
    expect(help_.locator("[data-count-total]")).to_have_text("Counted: 4 han (1 dora) · 20 fu")
    expect(page.locator('input[name="w1_han"][value="4"]')).to_be_checked()
    expect(page.locator('input[name="w1_fu"][value="20"]')).to_be_checked()

    # An open hand greys out the closed-only yaku.
    help_.locator("#group-w1_hand label.pick", has_text="Open").click()
    expect(help_.locator('label[data-yaku="pinfu"] input')).to_be_disabled()
    help_.locator("#group-w1_hand label.pick", has_text="Closed").click()
    for key in ("riichi", "menzen_tsumo", "pinfu"):
        help_.locator(f'label[data-yaku="{key}"]').click()
    expect(page.locator('input[name="w1_han"][value="4"]')).to_be_checked()

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    targets = ".count-help .pick span, .count-help button, .count-help summary"
    assert small_tap_targets(page, targets) == []
    help_.screenshot(path=str(tmp_path / "checklist.png"))

    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    expect(page.locator(".hand-yaku")).to_have_text(
        "Ben: Riichi, Menzen tsumo, Pinfu · 1 dora · closed"
    )
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    win = Win.objects.get(hand__game=game)
    assert (win.han, win.fu, win.yaku, win.dora) == (4, 20, ["riichi", "menzen_tsumo", "pinfu"], 1)
    assert [s.score for s in game.seats.order_by("seat")] == [22400, 30200, 23700, 23700]


MODES = {
    "Hand": "hand",
    "Winning tile": "win",
    "Pon": "pon",
    "Chi": "chi",
    "Dora": "dora",
}


def tap_tiles(picker, mode: str, codes: list[str]) -> None:
    picker.locator(f'label.pick:has(input[value="{MODES[mode]}"])').click()
    for code in codes:
        picker.locator(f'button[data-tile="{code}"]').click()


def open_picker(page: Page, winner: int):
    """The tile picker of winner `winner` (1 or 2), opened."""
    help_ = page.locator(f'details[data-count="{winner}"]')
    help_.locator(":scope > summary").click()
    picker = help_.locator(f'details[data-picker="{winner}"]')
    picker.locator("summary").click()
    return help_, picker


def pick_honitsu_hand(picker) -> None:
    """234p 567p 9p with a pon of red dragons and a chi of 789p, won on 9p; the 3p
    indicator makes the 4p a dora: 4 han 30 fu for a winner seated West or South."""
    tap_tiles(picker, "Hand", ["2p", "3p", "4p", "5p", "6p", "7p", "9p"])
    tap_tiles(picker, "Winning tile", ["9p"])
    tap_tiles(picker, "Pon", ["7z"])
    tap_tiles(picker, "Chi", ["7p"])
    tap_tiles(picker, "Dora", ["3p"])
    expect(picker.locator("[data-picker-result]")).to_have_text("14 of 14 tiles picked.")


def test_a_hand_entered_through_the_tile_picker_on_a_phone(live_server, page: Page, game, tmp_path):
    open_hand_form(page, live_server, game)
    page.locator("#group-result label.pick", has_text="Ron").click()
    page.locator("#group-w1_winner label.pick", has=page.locator("b", has_text="Chie")).click()
    page.locator("#group-loser label.pick", has=page.locator("b", has_text="Dan")).click()

    help_, picker = open_picker(page, 1)
    pick_honitsu_hand(picker)  # Chie sits West
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert small_tap_targets(page, ".tile-picker button, .tile-picker .pick span") == []
    picker.screenshot(path=str(tmp_path / "picker.png"))
    picker.get_by_role("button", name="Count this hand").click()
    # Honitsu open 2, chun 1, and the 4p dora: 4 han; 30 fu.
    expect(picker.locator("[data-picker-result]")).to_have_text(
        "Counted: 4 han 30 fu: Chun, Honitsu and 1 dora."
    )
    expect(page.locator('input[name="w1_han"][value="4"]')).to_be_checked()
    expect(page.locator('input[name="w1_fu"][value="30"]')).to_be_checked()
    expect(help_.locator('label[data-yaku="honitsu"] input')).to_be_checked()
    expect(help_.locator('input[name="w1_hand"][value="open"]')).to_be_checked()

    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    expect(page.locator(".hand-yaku")).to_have_text("Chie: Chun, Honitsu · 1 dora · open")
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    win = Win.objects.get(hand__game=game)
    assert (win.han, win.fu, win.yaku, win.dora, win.is_open) == (
        4, 30, ["chun", "honitsu"], 1, True
    )  # fmt: skip
    # 4 han 30 fu ron by a non-dealer: 7,700 from Dan.
    assert [s.score for s in game.seats.order_by("seat")] == [25000, 25000, 32700, 17300]


def test_the_second_winner_of_a_double_ron_counts_with_a_picker_of_their_own(
    live_server, page: Page, game
):
    open_hand_form(page, live_server, game)
    page.locator("#group-result label.pick", has_text="Ron").click()
    page.locator("#group-w1_winner label.pick", has=page.locator("b", has_text="Chie")).click()
    page.locator("#group-loser label.pick", has=page.locator("b", has_text="Dan")).click()
    page.locator("summary", has_text="Double ron").click()
    page.locator("#group-w2_winner label.pick", has=page.locator("b", has_text="Ben")).click()

    _help, picker = open_picker(page, 2)
    pick_honitsu_hand(picker)  # Ben sits South
    picker.get_by_role("button", name="Count this hand").click()
    expect(picker.locator("[data-picker-result]")).to_have_text(
        "Counted: 4 han 30 fu: Chun, Honitsu and 1 dora."
    )
    expect(page.locator('input[name="w2_han"][value="4"]')).to_be_checked()
    expect(page.locator('input[name="w2_fu"][value="30"]')).to_be_checked()
    # The first winner's picker and value are their own.
    assert page.locator('input[name="w1_han"]:checked').count() == 0
    first = page.locator('details[data-picker="1"]')
    assert first.locator('input[name="picker1_mode"]').count() == 8
    expect(first.locator("[data-picker-result]")).to_have_text("0 of 14 tiles picked.")

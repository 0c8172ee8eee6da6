"""A three-player hand on a phone: the tile picker offers the three-player wall, sets
Norths aside as kita, and the kita counter carries them into the han and onto the win."""

from __future__ import annotations

import datetime
import re

from playwright.sync_api import Page, expect

from tests.browser.test_hand_counting import PHONE, log_in, small_tap_targets
from tournaments import services
from tournaments.models import Event, Player, Session, Win


def sanma_game(organiser):
    day = datetime.date(2026, 9, 3)
    event = Event.objects.create(
        name="Sanma Night", slug="sanma", starts_on=day, rules_preset="tenhou-sanma"
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=day)
    players = [Player.objects.create(display_name=name) for name in ("Aki", "Ben", "Chie")]
    return services.create_game(session, players, table_number=1)


def tap_tiles(picker, mode: str, codes: list[str]) -> None:
    picker.locator(f'label.pick:has(input[value="{mode}"])').click()
    for code in codes:
        picker.locator(f'button[data-tile="{code}"]').click()


def test_a_three_player_tsumo_with_kita_picked_tile_by_tile_on_a_phone(
    live_server, page: Page, organiser, tmp_path
):
    game = sanma_game(organiser)
    page.set_viewport_size(PHONE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}{game.get_absolute_url()}hands/new/")
    assert page.locator("#group-w1_winner label.pick").count() == 3
    # Three seats a row on a phone: nothing cut, every button big enough to tap.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert small_tap_targets(page, ".hand-form .pick span") == []
    page.locator("#group-result label.pick", has_text="Tsumo").click()
    page.locator("#group-w1_winner label.pick", has=page.locator("b", has_text="Ben")).click()

    help_ = page.locator('details[data-count="1"]')
    help_.locator(":scope > summary").click()
    picker = help_.locator("details[data-picker]")
    picker.locator("summary").click()
    assert picker.locator('button[data-tile="5m"]').count() == 0
    assert picker.locator('input[value="chi"]').count() == 0
    # Ben holds 123456789p 99m 78s and draws 9s; two Norths were set aside.
    tap_tiles(picker, "hand", ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"])
    tap_tiles(picker, "hand", ["9m", "9m", "7s", "8s"])
    tap_tiles(picker, "win", ["9s"])
    tap_tiles(picker, "kita", ["4z", "4z"])
    expect(picker.locator("[data-picker-result]")).to_have_text("14 of 14 tiles picked.")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert small_tap_targets(page, ".tile-picker button, .tile-picker .pick span") == []
    picker.screenshot(path=str(tmp_path / "picker.png"))
    picker.get_by_role("button", name="Count this hand").click()
    # Menzen tsumo, pinfu and ittsu (4 han) and two kita: 6 han.
    expect(picker.locator("[data-picker-result]")).to_have_text(
        "Counted: 6 han: Menzen tsumo, Pinfu, Ittsuu and 2 dora."
    )
    expect(page.locator("#id_w1_kita")).to_have_value("2")
    expect(page.locator("#id_w1_dora")).to_have_value("0")
    expect(help_.locator("[data-count-total]")).to_have_text("Counted: 6 han (2 dora)")
    expect(page.locator('input[name="w1_han"][value="6"]')).to_be_checked()

    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    expect(page.locator(".hand-yaku")).to_have_text(
        "Ben: Menzen tsumo, Pinfu, Ittsuu · 2 dora (2 kita) · closed"
    )
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    win = Win.objects.get(hand__game=game)
    assert (win.han, win.dora, win.kita) == (6, 2, 2)
    # A haneman tsumo by a non-dealer: 6,000 from the dealer, 3,000 from Chie; the North's
    # 3,000 is not paid (tenhou-sanma's tsumo loss).
    assert [s.score for s in game.seats.order_by("seat")] == [29000, 44000, 32000]

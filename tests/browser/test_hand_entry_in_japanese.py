"""The dealer's hand entered in Japanese on a phone, through the tile picker: the picker's
words come from the page, the dealer's seat wind reaches the server, and nothing overflows
390 px on the hand form, the preview and the game page."""

from __future__ import annotations

import re

from django.conf import settings
from playwright.sync_api import Page, expect

from tests.conftest import ORGANISER_PASSWORD
from tournaments.models import Win

PHONE = {"width": 390, "height": 844}


def log_in_in_japanese(page: Page, live_server) -> None:
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ja", "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", ORGANISER_PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator(".site-nav")).to_be_visible()


def overflowing(page: Page) -> list[str]:
    """Elements wider than the phone, or text cut inside its box."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('main *'))
            .filter(e => e.offsetParent !== null)
            .filter(e => {
                // A wide table scrolls inside its own box: that is not overflow.
                for (let p = e.parentElement; p; p = p.parentElement) {
                    if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return false;
                }
                return true;
            })
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                      || (getComputedStyle(e).overflow === 'hidden'
                          && e.scrollWidth > e.clientWidth + 1))
            .map(e => e.tagName + '.' + e.className + ' ' + e.textContent.trim().slice(0, 30))"""
    )


def test_the_dealer_counts_a_hand_with_the_tile_picker_in_japanese(
    live_server, page: Page, game, tmp_path
):
    page.set_viewport_size(PHONE)
    log_in_in_japanese(page, live_server)
    page.goto(f"{live_server.url}{game.get_absolute_url()}hands/new/")
    expect(page.locator("h1")).to_have_text("第1局")
    page.locator("#group-result label.pick", has_text="ツモ").click()
    # Aki deals: the pick shows 東 · 親, the script reads the wind letter.
    aki = page.locator("#group-w1_winner label.pick", has=page.locator("b", has_text="Aki"))
    expect(aki.locator(".wind")).to_have_text("東 · 親")
    aki.click()

    help_ = page.locator('details[data-count="1"]')
    help_.locator(":scope > summary").click()
    picker = help_.locator("details[data-picker]")
    picker.locator("summary").click()
    picker.locator("label.pick", has_text="手牌").click()
    for code in ["2m", "3m", "4m", "5p", "6p", "7p", "6s", "7s", "8s", "3s", "4s", "2m", "2m"]:
        picker.locator(f'button[data-tile="{code}"]').click()
    expect(picker.locator("[data-picker-result]")).to_have_text("14枚中13枚を選択済み。")
    picker.locator("label.pick", has_text="和了牌").click()
    picker.locator('button[data-tile="5s"]').click()
    expect(picker.locator("[data-picker-result]")).to_have_text("14枚中14枚を選択済み。")
    expect(picker.locator("[data-picked] dt").first).to_have_text("手牌")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert overflowing(page) == []
    page.screenshot(path=str(tmp_path / "hand-form-ja.png"), full_page=True)

    picker.get_by_role("button", name="この手を計算").click()
    # Menzen tsumo, pinfu and tanyao for the dealer: 3 han 20 fu.
    expect(picker.locator("[data-picker-result]")).to_have_text(
        re.compile(r"^計算結果：3翻20符：.*平和.*断幺九.*。$")
    )
    expect(page.locator('input[name="w1_han"][value="3"]')).to_be_checked()
    expect(page.locator('input[name="w1_fu"][value="20"]')).to_be_checked()

    page.get_by_role("button", name="第1局を確認").click()
    expect(page.locator("h1")).to_have_text("第1局を保存しますか？")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert overflowing(page) == []
    page.screenshot(path=str(tmp_path / "hand-confirm-ja.png"), full_page=True)
    page.get_by_role("button", name="確認して保存").click()
    expect(page.locator(".messages")).to_contain_text("第1局を保存しました。")
    expect(page.locator(".enter-hand")).to_have_text("第2局を入力")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert overflowing(page) == []
    page.screenshot(path=str(tmp_path / "game-ja.png"), full_page=True)
    win = Win.objects.get(hand__game=game)
    assert (win.han, win.fu, win.yaku) == (3, 20, ["menzen_tsumo", "pinfu", "tanyao"])
    # The dealer's 3 han 20 fu tsumo: 1,300 all.
    assert [s.score for s in game.seats.order_by("seat")] == [28900, 23700, 23700, 23700]

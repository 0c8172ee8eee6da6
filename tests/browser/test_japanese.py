"""A Japanese player on a phone: the game page and the hand form in Japanese, a hand
entered, nothing cut at 390 px; and the scoresheet printed to PDF in Japanese, with
Japanese names and words in the PDF's text (a real CJK font, not empty boxes)."""

from __future__ import annotations

import datetime
import io
import os
import random
import re
import shutil
import unicodedata
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from scoring.simulate import random_record
from tests.browser.test_phone_layout import problems
from tournaments import services
from tournaments.models import Event, Game, Player, Session

PHONE = {"width": 390, "height": 844}
NAMES = ["佐藤明", "鈴木花子", "高橋健", "田中美咲"]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def league(transactional_db, organiser):
    event = Event.objects.create(
        name="木曜リーグ", slug="mokuyou", starts_on=datetime.date(2026, 11, 23)
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 11, 23))
    players = [Player.objects.create(display_name=name) for name in NAMES]
    return {"event": event, "session": session, "players": players, "organiser": organiser}


@pytest.fixture
def japanese_page(browser, live_server, league):
    """A phone whose browser asks for Japanese, logged in as the organiser."""
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    client = Client()
    client.force_login(league["organiser"])
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    yield page
    context.close()


# Chromium embeds CJK glyphs whose text is given as Kangxi radicals (⽊ for 木): NFKC folds
# those back; a few from the radicals supplement need a word of their own.
RADICALS = str.maketrans(
    {"⻄": "西", "⻑": "長", "⻘": "青", "⻝": "食", "⻤": "鬼", "⻩": "黄", "⻲": "亀"}
)


def pdf_text(reader: PdfReader) -> str:
    text = " ".join(page.extract_text() for page in reader.pages)
    text = unicodedata.normalize("NFKC", text).translate(RADICALS)
    # Extraction puts spaces between CJK glyphs at will; compare without them.
    return re.sub(r"(?<=[^\x00-\x7f])\s+|\s+(?=[^\x00-\x7f])", "", text)


def ja(text: str) -> str:
    with translation.override("ja"):
        translated = gettext(text)
    assert translated != text, f"{text!r} has no Japanese translation"
    return translated


def test_a_japanese_phone_enters_a_hand_on_the_game_page(
    live_server, japanese_page: Page, league, tmp_path
):
    page = japanese_page
    game = services.create_game(league["session"], league["players"], table_number=1)
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert JAPANESE.search(page.locator("main").inner_text())
    assert problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(tmp_path / "game-ja.png"), full_page=True)

    page.locator(f'a[href="{reverse("tournaments:hand_new", args=[game.pk])}"]').first.click()
    expect(page.locator("#group-result")).to_be_visible()
    form_text = page.locator("main").inner_text()
    assert ja("Ron") in form_text and ja("Tsumo") in form_text
    page.locator('#group-result label.pick:has(input[value="ron"])').click()
    page.locator("#group-w1_winner label.pick", has=page.locator("b", has_text=NAMES[1])).click()
    page.locator("#group-loser label.pick", has=page.locator("b", has_text=NAMES[0])).click()
    page.locator('#group-w1_han label.pick:has(input[value="3"])').click()
    page.locator('#group-w1_fu label.pick:has(input[value="40"])').click()
    assert problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(tmp_path / "hand-form-ja.png"), full_page=True)

    page.locator("main form button[type=submit]").last.click()
    confirm = page.get_by_role("button", name=ja("Confirm and save"))
    expect(confirm).to_be_visible()
    assert problems(page) == []
    confirm.click()

    expect(page.locator("#hand-1")).to_contain_text(f"{NAMES[1]}が{NAMES[0]}からロン · 3翻40符")
    assert Game.objects.get(pk=game.pk).hands.count() == 1
    assert problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if os.environ.get("TENBOU_PRINT_DIR"):
        page.screenshot(path=str(Path(os.environ["TENBOU_PRINT_DIR"]) / "game-ja.png"))


def test_the_scoresheet_prints_in_japanese_with_a_japanese_font(
    live_server, japanese_page: Page, league, tmp_path
):
    rng = random.Random(23)
    for _ in range(2):
        services.create_game_from_record(
            league["session"], random_record(rng, "ari-ari"), league["players"], table_number=1
        )
    path = reverse("tournaments:scoresheet", args=["mokuyou", 1, 1])
    page = japanese_page
    response = page.goto(live_server.url + path)
    assert response is not None and response.ok
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    (tmp_path / "scoresheet-ja.pdf").write_bytes(pdf)
    keep = os.environ.get("TENBOU_PRINT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / "scoresheet-ja.pdf", Path(keep) / "scoresheet-ja.pdf")

    reader = PdfReader(io.BytesIO(pdf))
    text = pdf_text(reader)
    # The names and words come out of the PDF as Japanese characters, which only happens
    # when a font with those glyphs drew them (boxes have no text).
    for name in NAMES:
        assert name in text, name
    for word in ("Scoresheet", "Grand Total", "Match points", "Placement"):
        assert ja(word) in text, word
    assert "木曜リーグ" in text and "第1回戦" in text
    assert "2026年11月23日" in text
    assert "Scoresheet" not in text and "Grand Total" not in text

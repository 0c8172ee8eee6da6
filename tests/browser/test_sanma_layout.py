"""A three-player event on a phone (390 px) and on a 1920 x 1080 screen: the game page,
finished and going on, its sheets, the standings and the live screen show three seats
with every number whole and nothing wider than the screen. Screenshots of each go to
$TENBOU_SHOTS when it is set, for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_phone_layout import PHONE, problems
from tests.browser.test_print import _orientation, _print, _text
from tests.conftest import ORGANISER_PASSWORD
from tests.tournaments.sanma_builders import sanma_event, sanma_game

WIDE = {"width": 1920, "height": 1080}
# Tenhou-sanma: the dealer's yakuman tsumo (16,000 from each of two), two dealer rons with
# honba, then a dealer tsumo that takes Chie below zero and ends the game: six-figure and
# negative scores, long names.
BIG_HANDS = [
    {"result": "tsumo", "riichi": [], "wins": [{"winner": 0, "yakuman": 1}]},
    {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 1, "han": 5}]},
    {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 2, "han": 6}]},
    {"result": "tsumo", "riichi": [], "wins": [{"winner": 0, "han": 1, "fu": 30}]},
]
LONG_NAMES = ["Margarethe K.", "Bartholomew Long", "Chie"]


@pytest.fixture
def sanma(transactional_db, organiser):
    event = sanma_event(organiser)
    session = event.sessions.get()
    finished = sanma_game(session, LONG_NAMES, hands=BIG_HANDS)
    playing = sanma_game(session, ["Dan", "Eri", "Fumi"], table=2, hands=BIG_HANDS[:2])
    return event, finished, playing


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("TENBOU_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def log_in(page: Page) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", ORGANISER_PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page.locator(".site-nav")).to_contain_text("Log out")


# What the check finds on these pages at a four-player event as well, and so not about
# three players: the scoresheet's caption for screen readers (1 px by design), its game
# links written down the side, and the session's link to the seating list in a sentence.
KNOWN = {
    "scoresheet": ("cut: caption.visually-hidden", 'a. "Game 1"'),
    "session": ('a. "Seating list"',),
}


def known(page_name: str, problem: str) -> bool:
    return any(part in problem for part in KNOWN.get(page_name, ()))


def pages(event, finished, playing) -> dict[str, str]:
    return {
        "game-finished": finished.get_absolute_url(),
        "game-playing": playing.get_absolute_url(),
        "game-sheet": f"/games/{finished.pk}/sheet/",
        "scoresheet": f"/events/{event.slug}/sessions/1/tables/1/scoresheet/",
        "standings": f"/events/{event.slug}/standings/",
        "session": f"/events/{event.slug}/sessions/1/",
        "player": finished.seats.get(seat=0).player.get_absolute_url(),
    }


@pytest.mark.parametrize("size", [PHONE, WIDE], ids=["390px", "1920px"])
def test_a_three_player_event_reads_whole_on_a_phone_and_a_wide_screen(
    live_server, page: Page, sanma, size
):
    event, finished, playing = sanma
    page.set_viewport_size(size)
    log_in(page)
    found = {}
    for name, path in pages(event, finished, playing).items():
        page.goto(path)
        shoot(page, f"{name}-{size['width']}")
        found[name] = [p for p in problems(page) if not known(name, p)]
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
    assert found == {name: [] for name in found}

    page.goto(finished.get_absolute_url())
    cards = page.locator(".seat-cards .seat-card")
    expect(cards).to_have_count(3)
    # The three seats share one row, at every width.
    tops = {round(box["y"]) for box in cards.evaluate_all(
        "els => els.map(el => el.getBoundingClientRect().toJSON())"
    )}  # fmt: skip
    assert len(tops) == 1
    expect(cards.nth(0)).to_contain_text("Margarethe K.")


@pytest.mark.parametrize("size", [PHONE, WIDE], ids=["390px", "1920px"])
def test_the_live_screen_shows_tables_of_three_whole(live_server, page: Page, sanma, size):
    event, _finished, _playing = sanma
    page.set_viewport_size(size)
    page.goto(f"/events/{event.slug}/live/")
    cards = page.locator(".live-card")
    expect(cards).to_have_count(2)
    expect(cards.nth(0).locator("ul > li")).to_have_count(3)
    shoot(page, f"live-{size['width']}")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert problems(page) == []


def test_the_scoresheet_of_three_prints_on_one_a4_page(live_server, page: Page, sanma, tmp_path):
    event, finished, _playing = sanma
    reader = _print(
        page,
        live_server,
        f"/events/{event.slug}/sessions/1/tables/1/scoresheet/",
        "sanma",
        tmp_path,
    )
    assert len(reader.pages) == 1 and _orientation(reader) == "portrait"
    words = _text(reader)
    for name in LONG_NAMES:
        assert name in words
    # The first game's totals, in the right-most column too: nothing cut at the paper's edge.
    assert "94.2" in words and "−34.0" in words and "−60.2" in words
    assert "West" in words and "North" not in words

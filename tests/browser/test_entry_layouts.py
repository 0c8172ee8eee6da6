"""The pages a table and its director use on the day, at 390 px and on the projector:
the hand preview reads whole with no sideways scroll (four seats and three), long names
wrap whole on the hand form and the game page, the event's sessions table shows its last
column, the printed game sheet breaks names only between words, and the projector's
table cards keep short names on one line."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.builders import log_in_as
from tests.browser.test_phone_layout import PHONE, problems
from tournaments import services
from tournaments.models import Event, Player, Session

LONG = ["Margarethe Kowalczyk-Brennan", "Bartholomew Featherstonehaugh", "Chie", "Dan"]
SHORT = ["Aki Ito", "Ben Okafor", "Chie Sato", "Dan Ek"]
# Long names as a tournament has them: long words, a double-barrelled surname.
SHEET_NAMES = ["Margarethe Kowalczyk-Brennan", "Bartholomew Okonkwo", "Chie Sato", "Dan Ek"]

# For elements matched by a selector: the words that are broken across two lines, and
# the elements whose text is cut (wider or taller than their box, or shown with "…").
BROKEN_WORDS = """(els) => {
  const broken = [];
  for (const el of els) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s-]+/g;  // a break after a hyphen is a break between words
      let m;
      while ((m = re.exec(node.textContent))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""
CUT = """(els) => els.filter((el) => {
  const s = getComputedStyle(el);
  if (s.overflowX === "auto" || s.overflowX === "scroll") return false;  // it scrolls
  return el.scrollWidth > el.clientWidth + 1
    || (el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1)
    || (s.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth);
}).map((el) => el.textContent.trim())"""
LINES = """(els) => els.map((el) => {
  const tops = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (!tops.some((t) => Math.abs(t - r.top) < 4)) tops.push(r.top);
    }
  }
  return tops.length;
})"""


def make_game(organiser, names, *, preset="ari-ari", slug="day"):
    event = Event.objects.create(
        name="Spring Open", slug=slug, starts_on=datetime.date(2026, 4, 4), rules_preset=preset
    )
    event.organisers.add(organiser)
    session = Session.objects.create(
        event=event, number=1, date=datetime.date(2026, 4, 4), title="Round one, morning"
    )
    players = [Player.objects.create(display_name=name) for name in names]
    return services.create_game(session, players, table_number=1)


def open_as(page: Page, live_server, organiser, path: str) -> None:
    log_in_as(page, live_server, organiser)
    page.goto(live_server.url + path)


def tap_seat(page: Page, field: str, name: str) -> None:
    page.locator(f"#group-{field} label.pick", has=page.locator("b", has_text=name)).click()


@pytest.mark.parametrize("seats", [4, 3], ids=["four seats", "three seats"])
def test_the_hand_preview_reads_whole_with_no_sideways_scroll_at_390_px(
    live_server, page: Page, transactional_db, organiser, seats, tmp_path
):
    names = LONG[:seats]
    game = make_game(organiser, names, preset="ari-ari" if seats == 4 else "tenhou-sanma")
    # Bartholomew deals in to the dealer's baiman and pays 24,000 (36,000 at three).
    page.set_viewport_size(PHONE)
    open_as(page, live_server, organiser, f"/games/{game.pk}/hands/new/")
    page.locator("#group-result label.pick", has_text="Ron").click()
    tap_seat(page, "w1_winner", names[0])
    tap_seat(page, "loser", names[1])
    page.locator('#group-w1_han label.pick:has(input[value="8"])').click()
    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    expect(page.get_by_role("button", name="Confirm and save")).to_be_visible()
    page.screenshot(path=str(tmp_path / f"preview-{seats}.png"), full_page=True)

    assert problems(page) == []
    wrap = page.locator(".hand-preview .table-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), "the preview scrolls sideways"
    rows = page.locator(".payments th[scope=row]")
    assert rows.evaluate_all(CUT) == []
    # Words wrap whole; only one wider than the column itself may wrap inside.
    assert set(rows.evaluate_all(BROKEN_WORDS)) <= {"Featherstonehaugh"}
    assert "Margarethe Kowalczyk-Brennan" in " ".join(rows.all_inner_texts()).replace("\n", " ")


def test_long_names_wrap_whole_on_the_hand_form_and_the_game_page_at_390_px(
    live_server, page: Page, transactional_db, organiser, tmp_path
):
    game = make_game(organiser, LONG)
    services.add_hand(
        game.pk,
        1,
        {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]},
    )
    page.set_viewport_size(PHONE)
    open_as(page, live_server, organiser, f"/games/{game.pk}/hands/new/")
    page.screenshot(path=str(tmp_path / "form.png"), full_page=True)
    # Whole: a word wider than its button wraps inside it, but nothing is cut.
    names = page.locator(".pick b")
    assert names.evaluate_all(CUT) == []
    assert "Bartholomew Featherstonehaugh" in names.first.inner_text().replace("\n", " ")
    assert problems(page) == []

    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.screenshot(path=str(tmp_path / "game.png"), full_page=True)
    shown = page.locator("main :is(th, td, b, span, a, p, li, div)").filter(
        has_text=re.compile("Margarethe|Bartholomew")
    )
    assert shown.evaluate_all(CUT) == []
    assert problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_event_pages_sessions_table_shows_its_last_column_at_390_px(
    live_server, page: Page, transactional_db, organiser, tmp_path
):
    game = make_game(organiser, SHORT)
    services.create_game(
        game.session,
        [Player.objects.create(display_name=name) for name in ("Eri", "Fumi", "Gen", "Hana")],
        table_number=12,
    )
    page.set_viewport_size(PHONE)
    open_as(page, live_server, organiser, game.session.event.get_absolute_url())
    page.screenshot(path=str(tmp_path / "event.png"), full_page=True)
    assert problems(page) == []
    table = page.locator(".event-sessions table")
    expect(table.locator("thead th").last).to_have_text("Finished")
    # The whole table fits its box: nothing to scroll to, no column cut at the edge.
    assert table.locator("xpath=..").evaluate("el => el.scrollWidth <= el.clientWidth")
    assert table.locator("th, td").evaluate_all(BROKEN_WORDS) == []


def test_the_printed_game_sheet_breaks_names_only_between_words(
    live_server, page: Page, transactional_db, organiser, tmp_path
):
    game = make_game(organiser, SHEET_NAMES)
    # The printable width of an A4 page with the sheet's margins (186 mm at 96 dpi).
    page.set_viewport_size({"width": 703, "height": 1000})
    page.emulate_media(media="print")
    open_as(page, live_server, organiser, f"/games/{game.pk}/sheet/")
    page.screenshot(path=str(tmp_path / "sheet.png"), full_page=True)
    names = page.locator("main .player-name")
    expect(names).to_have_count(4)
    assert names.evaluate_all(BROKEN_WORDS) == []
    assert names.evaluate_all(CUT) == []


@pytest.mark.parametrize(
    "size", [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}], ids=str
)
def test_projector_cards_keep_short_names_on_one_line(
    live_server, page: Page, transactional_db, organiser, size, tmp_path
):
    # Sixteen players at four tables; at each a dealer yakuman leaves a five-digit loss.
    event = Event.objects.create(
        name="Spring Open", slug="day", starts_on=datetime.date(2026, 4, 4)
    )
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 4, 4))
    for table in range(1, 5):
        names = [f"{name} {table}" for name in ("Aki Ito", "Ben Okafor", "Chie Sato", "Dan Ek")]
        players = [Player.objects.create(display_name=name) for name in names]
        game = services.create_game(session, players, table_number=table)
        hand = {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 1, "han": 5}]}
        services.add_hand(game.pk, 1, hand)
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/events/day/live/")
    expect(page.locator(".live-card")).to_have_count(4)
    page.screenshot(path=str(tmp_path / "live.png"))
    assert page.locator(".live-card li").evaluate_all(LINES) == [1] * 16
    assert page.locator(".live-card .name").evaluate_all(CUT) == []  # and whole

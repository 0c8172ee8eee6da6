"""At 390 px every number reads whole and every link or button is a 44 x 44 px target, on
the pages used at the table: the game page, the hand preview, the final-score preview,
results, standings, the game sheet and a player's page. At 1280 px the standings fit.

The check runs in the page: an element with a digit in its own text is cut when its
content is wider than its box, when an ancestor that hides overflow cuts it, or when it
lies outside the screen without a scrolling container around it (a table that scrolls
sideways shows that it does). Links inside running text are exempt, as WCAG allows.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tournaments.models import Event, Game, Player

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}

CHECK = """() => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const describe = (el) => `${el.tagName.toLowerCase()}.${el.className} "${
    (el.innerText || el.textContent || "").trim().slice(0, 30)}"`;
  const visible = (el) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return s.visibility !== "hidden" && s.display !== "none" && r.width > 0 && r.height > 0;
  };
  const scrolls = (ox) => ox === "auto" || ox === "scroll";
  const inScroller = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (scrolls(getComputedStyle(a).overflowX)) return true;
    }
    return false;
  };
  const cutBy = (el, r) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (scrolls(ox)) return null;
      if (ox === "hidden" || ox === "clip") {
        const ar = a.getBoundingClientRect();
        if (r.right > ar.right + 1 || r.left < ar.left - 1) return a;
      }
    }
    return null;
  };
  for (const el of document.querySelectorAll("main, main *")) {
    if (el.closest("svg") && el.tagName.toLowerCase() !== "text") continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent);
    if (!/\\d/.test(own.join("")) || !visible(el)) continue;
    const r = el.getBoundingClientRect();
    // SVG text has no CSS box to overflow: only its place on the screen counts.
    const boxed = getComputedStyle(el).display !== "inline" && !el.closest("svg");
    if (boxed && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`cut: ${describe(el)} (${el.scrollWidth} > ${el.clientWidth} px)`);
    } else if (cutBy(el, r)) {
      problems.push(`cut by its container: ${describe(el)}`);
    } else if ((r.right > vw + 1 || r.left < -1) && !inScroller(el)) {
      problems.push(`off the screen: ${describe(el)}`);
    }
  }
  for (const el of document.querySelectorAll("a[href], button, summary, input[type=submit]")) {
    if (!visible(el) || el.closest("[data-inline-links]")) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) {
      problems.push(`small target ${Math.round(r.width)}x${Math.round(r.height)}: ${describe(el)}`);
    }
  }
  return problems;
}"""


@pytest.fixture
def club(transactional_db):
    """The demo club league: long names, double rons, penalties, a final-scores table."""
    call_command("demo", "--force", stdout=io.StringIO())
    return Event.objects.get(slug="demo-club-league")


def log_in(page: Page) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "tenbou-demo")
    page.locator("main button[type=submit]").click()
    expect(page.locator(".site-nav")).to_contain_text("Log out")


def problems(page: Page) -> list[str]:
    return page.evaluate(CHECK)


def playing(club: Event) -> Game:
    return Game.objects.filter(
        session__event=club, status=Game.Status.IN_PROGRESS, entry_mode="hands"
    ).first()


def pages(club: Event) -> dict[str, str]:
    finished = Game.objects.filter(session__event=club, status=Game.Status.FINISHED)
    with_penalty = finished.filter(penalties__isnull=False).first()
    final_only = finished.filter(entry_mode="final_scores").first()
    player = Player.objects.get(display_name="Aki")
    return {
        "game in progress": playing(club).get_absolute_url(),
        "finished game with a penalty": with_penalty.get_absolute_url(),
        "results": f"/events/{club.slug}/results/",
        # A few rows to a page: the page links are targets too.
        "results, paged": f"/events/{club.slug}/results/?per_page=4&page=2",
        "standings": f"/events/{club.slug}/standings/",
        "standings, paged": f"/events/{club.slug}/standings/?per_page=2",
        "game sheet": f"/games/{with_penalty.pk}/sheet/",
        "game sheet of final scores": f"/games/{final_only.pk}/sheet/",
        "player page": player.get_absolute_url(),
    }


def test_every_number_reads_whole_and_every_target_is_big_enough_at_390_px(
    live_server, page: Page, club
):
    page.set_viewport_size(PHONE)
    log_in(page)
    found = {}
    for name, path in pages(club).items():
        page.goto(path)
        found[name] = problems(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    assert found == {name: [] for name in found}


def tap_seat(page: Page, field: str, name: str) -> None:
    page.locator(f"#group-{field} label.pick", has=page.locator("b", has_text=name)).click()


def test_the_hand_preview_of_a_double_ron_reads_whole_at_390_px(live_server, page: Page, club):
    game = playing(club)
    hands = game.hands.count()
    names = [s.player.display_name for s in game.ordered_seats()]
    page.set_viewport_size(PHONE)
    log_in(page)
    page.goto(f"/games/{game.pk}/hands/new/")
    page.locator("#group-result label.pick", has_text="Ron").click()
    tap_seat(page, "w1_winner", names[1])
    tap_seat(page, "loser", names[0])
    page.locator('#group-w1_han label.pick:has(input[value="6"])').click()
    page.get_by_role("button", name=re.compile(r"^Preview")).click()

    expect(page.get_by_role("button", name="Confirm and save")).to_be_visible()
    assert problems(page) == []
    assert game.hands.count() == hands  # a preview stores nothing


def test_the_final_score_preview_reads_whole_at_390_px(live_server, page: Page, club):
    waiting = Game.objects.get(
        session__event=club, entry_mode="final_scores", status=Game.Status.IN_PROGRESS
    )
    page.set_viewport_size(PHONE)
    log_in(page)
    page.goto(waiting.get_absolute_url())
    for seat, score in enumerate(("350", "300", "200", "140")):
        page.fill(f"input[name=score_{seat}]", score)
    page.fill("input[name=leftover_sticks]", "1")
    page.get_by_role("button", name="Check the scores").click()

    expect(page.locator("main")).to_contain_text("35,000 becomes 36,000")
    assert problems(page) == []
    assert not Game.objects.get(pk=waiting.pk).is_finished


def test_the_check_finds_a_cut_number_and_a_small_link(live_server, page: Page, club):
    page.set_viewport_size(PHONE)
    page.goto(f"/events/{club.slug}/standings/")
    page.evaluate(
        """() => {
          const box = document.createElement("p");
          box.className = "trap";
          box.style.cssText = "width: 30px; overflow: hidden; white-space: nowrap";
          box.textContent = "+64.0 match points";
          const link = document.createElement("a");
          link.href = "/"; link.textContent = "1";
          document.querySelector("main").append(box, link);
        }"""
    )

    found = problems(page)

    assert any(p.startswith("cut: p.trap") for p in found)
    assert any(p.startswith("small target") and '"1"' in p for p in found)


def test_the_standings_fit_a_1280_px_screen(live_server, page: Page, club):
    page.set_viewport_size(DESK)
    page.goto(f"/events/{club.slug}/standings/")

    container = page.locator(".table-container").first
    widths = container.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= DESK["width"]


def test_the_hand_form_shows_long_names_whole_with_the_dealer_first_at_390_px(
    live_server, page: Page, club
):
    game = playing(club)
    seats = game.ordered_seats()
    Player.objects.filter(pk=seats[0].player_id).update(display_name="Margarethe K.")
    page.set_viewport_size(PHONE)
    log_in(page)

    page.goto(f"/games/{game.pk}/hands/new/")

    assert problems(page) == []
    names = page.locator("#group-riichi .pick b")
    cut = names.evaluate_all(
        "els => els.filter(b => b.scrollHeight > b.clientHeight + 1 "
        "|| b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)"
    )
    assert cut == []
    assert "Margarethe K." in names.all_inner_texts()
    first = page.locator("#group-riichi .pick").first
    expect(first).to_have_class(re.compile(r"\bdealer\b"))
    expect(first).to_contain_text("dealer")
    # Unchosen, the dealer's button looks like the others: only a tap makes it look chosen.
    look = "el => { const s = getComputedStyle(el.querySelector('span')); return "
    look += "[s.backgroundColor, s.borderColor, s.boxShadow, s.color]; }"
    second = page.locator("#group-riichi .pick").nth(1)
    assert first.evaluate(look) == second.evaluate(look)
    first.click()
    assert first.evaluate(look) != second.evaluate(look)

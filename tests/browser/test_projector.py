"""The live screen on a projector: at 1920x1080 and at 1280x720, with 16 players, every
standings line it lists is on the screen; the ranks further down change from poll to poll;
between rounds it shows where everyone sits, A-Z, a page a poll; a signal and a referee
call show without pushing a line off the screen; a page of a large room's tables is on
the screen whole."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.tournaments.builders import final_game
from tournaments import services
from tournaments.models import Event, RoundSignal, Session
from tournaments.trail import Actor
from tournaments.views import live

SCREENS = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]
# Sixteen names as long as real ones.
NAMES = [
    "Akiko Yamamoto", "Benjamin Clarke", "Chie Nakamura", "Daniel Okafor",
    "Emiko Watanabe", "Francesca Rossi", "Gennady Petrov", "Hanako Suzuki",
    "Ingrid Johansson", "Jun Takahashi", "Katarzyna Nowak", "Luis Fernández",
    "Mariko Tanaka", "Nils Andersson", "Olivia Brown", "Pieter van Dijk",
]  # fmt: skip
SCORES = [41300, 24900, 21800, 12000]


def event_of(names: list[str], *, tables_in_next: bool = False) -> Event:
    """One round played (final scores at every table) by `names`; with `tables_in_next`,
    the next round seated and not started."""
    day = datetime.date(2026, 11, 28)
    event = Event.objects.create(name="Autumn Cup", slug="autumn", starts_on=day)
    one = Session.objects.create(event=event, number=1, date=day)
    for table in range(len(names) // 4):
        final_game(one, names[table * 4 : table * 4 + 4], SCORES, table + 1)
    two = Session.objects.create(event=event, number=2, date=day)
    if tables_in_next:
        players = services.players_by_name(names)
        # Reversed, so that A-Z is not the order of the tables.
        players.reverse()
        for table in range(len(players) // 4):
            services.create_game(two, players[table * 4 : table * 4 + 4], table_number=table + 1)
    return event


def lines_off_screen(page: Page) -> list[str]:
    """The standings lines and seating lines whose bottom is below the window's edge."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.live-table tr, .live-seats li')]
            .filter(el => el.getBoundingClientRect().bottom > window.innerHeight)
            .map(el => el.textContent.trim())"""
    )


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_standings_line_of_sixteen_players_is_on_the_screen(
    transactional_db, page: Page, screen
):
    event = event_of(NAMES, tables_in_next=True)
    session = event.sessions.get(number=2)
    # The next round is under way: its tables show.
    services.add_hand(session.games.first().pk, 1, {"result": "draw", "riichi": [], "tenpai": []})
    # The most the head can carry: a signal and two referee calls.
    services.send_signal(session.pk, RoundSignal.MINUTES_LEFT, minutes=10)
    for game in session.games.all()[:2]:
        services.call_referee(game.pk, "wrong_score", "hand 3, the fu", actor=Actor())
    services.start_round_clock(session.pk, 90)
    page.set_viewport_size(screen)
    page.goto("/events/autumn/live/?session=2")
    expect(page.locator(".round-signal")).to_contain_text("10 minutes left")
    expect(page.locator(".referee-call")).to_have_count(2)
    expect(page.locator(".live-card")).to_have_count(4)
    assert page.locator(".live-table tr").count() == 16
    assert lines_off_screen(page) == []


def test_the_ranks_further_down_change_from_poll_to_poll(transactional_db, page: Page):
    names = NAMES + [f"{name} II" for name in NAMES[:8]]  # 24: the rest fills two pages
    event_of(names)
    page.set_viewport_size(SCREENS[0])
    page.goto("/events/autumn/live/")
    expect(page.locator(".live-page").first).to_contain_text("page 1 of 2")
    first = page.locator(".live-table.rest").inner_text()
    expect(page.locator(".live-page").first).to_contain_text("page 2 of 2", timeout=12_000)
    assert page.locator(".live-table.rest").inner_text() != first
    expect(page.locator(".live-page").first).to_contain_text("page 1 of 2", timeout=12_000)
    assert lines_off_screen(page) == []


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_between_rounds_the_screen_shows_the_next_seating_by_name(
    transactional_db, page: Page, screen
):
    event_of(NAMES, tables_in_next=True)
    page.set_viewport_size(screen)
    page.goto("/events/autumn/live/")
    expect(page.locator("#live-seating-title")).to_have_text("Find your table")
    seats = page.locator(".live-seats li")
    expect(seats).to_have_count(16)
    names = [seats.nth(i).locator(".name").inner_text() for i in range(16)]
    assert names == sorted(NAMES, key=str.casefold)
    # Pieter van Dijk was seated first: East at table 1.
    expect(seats.filter(has_text="Pieter van Dijk")).to_contain_text("Table 1 · East")
    expect(seats.filter(has_text="Akiko Yamamoto")).to_contain_text("Table 4 · North")
    assert page.locator(".live-table tr").count() == 16
    assert lines_off_screen(page) == []


def test_a_long_seating_list_pages_through_poll_by_poll(transactional_db, page: Page, monkeypatch):
    monkeypatch.setattr(live, "SEATING_PER_PAGE", 6)
    event_of(NAMES, tables_in_next=True)
    page.set_viewport_size(SCREENS[1])
    page.goto("/events/autumn/live/")
    title = page.locator("#live-seating-title")
    expect(title).to_contain_text("page 1 of 3")
    expect(page.locator(".live-seats li").first).to_contain_text("Akiko Yamamoto")
    expect(title).to_contain_text("page 2 of 3", timeout=12_000)
    expect(page.locator(".live-seats li").first).to_contain_text("Gennady Petrov")
    expect(title).to_contain_text("page 3 of 3", timeout=12_000)
    expect(page.locator(".live-seats li")).to_have_count(4)


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_name_on_a_table_card_reads_whole_with_its_substitute_mark(
    transactional_db, page: Page, screen
):
    event = event_of(NAMES, tables_in_next=True)
    session = event.sessions.get(number=2)
    game = session.games.order_by("table_number").last()
    game.seats.filter(seat=1).update(is_substitute=True)
    services.add_hand(game.pk, 1, {"result": "draw", "riichi": [], "tenpai": []})
    page.set_viewport_size(screen)
    page.goto("/events/autumn/live/?session=2")
    expect(page.locator(".live-card .name", has_text="(sub)")).to_have_count(1)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.live-card .name')]
            .filter(el => el.scrollWidth > el.clientWidth + 1
                || el.getBoundingClientRect().right
                    > el.closest('.live-card').getBoundingClientRect().right)
            .map(el => el.textContent)"""
    )
    assert cut == []
    assert lines_off_screen(page) == []


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_page_of_tables_of_a_large_room_is_on_the_screen_whole(
    transactional_db, page: Page, screen
):
    # Twelve tables, more than a page, of names as long as real ones (the longest take
    # two lines on a card).
    # (`event_of` seats them in reverse: the long names come first.)
    names = [f"{name.split()[0]} {surname}" for surname in ("Ito", "Kim") for name in NAMES]
    names += NAMES
    event = event_of(names, tables_in_next=True)
    session = event.sessions.get(number=2)
    for game in session.games.all():
        services.add_hand(game.pk, 1, {"result": "draw", "riichi": [], "tenpai": []})
    # The most the head can carry: a signal and two referee calls.
    services.send_signal(session.pk, RoundSignal.MINUTES_LEFT, minutes=10)
    for game in session.games.all()[:2]:
        services.call_referee(game.pk, "wrong_score", "hand 3, the fu", actor=Actor())
    page.set_viewport_size(screen)
    page.goto("/events/autumn/live/?session=2")
    expect(page.locator(".live-card")).to_have_count(live.TABLES_PER_PAGE)
    expect(page.locator(".live-tables h2")).to_contain_text("page 1 of 2")
    below = page.evaluate(
        """() => [...document.querySelectorAll('.live-card')]
            .filter(el => el.getBoundingClientRect().bottom > window.innerHeight)
            .map(el => el.dataset.table)"""
    )
    assert below == []

"""The director's view of each table's phone (its last contact and the hands waiting on
it) reads whole at 390 px on the session page, and fits each table's card on the live
screen at 1920x1080 and 1280x720 without pushing a line off the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tournaments import services
from tournaments.models import Game

from .test_phone_layout import PHONE, club, log_in, playing, problems  # noqa: F401
from .test_projector import NAMES, SCREENS, event_of, lines_off_screen


def test_the_phone_line_reads_whole_on_the_session_page_at_390_px(live_server, page: Page, club):  # noqa: F811
    game = playing(club)
    for other in Game.objects.filter(session=game.session):
        services.note_phone_contact(other.pk, 0)
    services.note_phone_contact(game.pk, 12)
    page.set_viewport_size(PHONE)
    log_in(page)
    page.goto(f"/events/{club.slug}/sessions/{game.session.number}/")
    expect(page.locator(".phone-contact.waiting")).to_contain_text("12 hands waiting")
    assert problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_each_tables_phone_fits_its_card_on_the_live_screen(transactional_db, page: Page, screen):
    event = event_of(NAMES, tables_in_next=True)
    session = event.sessions.get(number=2)
    games = list(session.games.all())
    services.add_hand(games[0].pk, 1, {"result": "draw", "riichi": [], "tenpai": []})
    for number, game in enumerate(games):
        services.note_phone_contact(game.pk, number * 3)
    page.set_viewport_size(screen)
    page.goto("/events/autumn/live/?session=2")
    expect(page.locator(".live-phone")).to_have_count(len(games))
    expect(page.locator(".live-phone.waiting")).to_have_count(len(games) - 1)
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.live-phone')].filter(el => {
              const r = el.getBoundingClientRect();
              const c = el.closest('.live-card').getBoundingClientRect();
              return r.right > c.right + 1 || r.bottom > c.bottom + 1
                || el.scrollWidth > el.clientWidth + 1;
           }).map(el => el.textContent)"""
    )
    assert outside == []
    assert lines_off_screen(page) == []

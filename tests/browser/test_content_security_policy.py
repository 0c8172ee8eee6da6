"""The pages work under the strict Content-Security-Policy: the browser reports no blocked
script or style on any of them, and their scripts still run."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tournaments.management.commands.demo import CLUB_SLUG, DEMO_PASSWORD, DEMO_USERNAME
from tournaments.models import Event, Game, Player


@pytest.fixture
def demo(transactional_db):
    call_command("demo", "--force", stdout=open("/dev/null", "w"))
    return Event.objects.get(slug=CLUB_SLUG)


def test_no_page_breaks_the_content_security_policy(live_server, page: Page, demo):
    blocked: list[str] = []
    page.on(
        "console",
        lambda message: (
            blocked.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", DEMO_USERNAME)
    page.fill("#id_password", DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-nav")).to_contain_text("Log out")

    game = Game.objects.filter(session__event=demo).in_progress().first() or (
        Game.objects.filter(session__event=demo).first()
    )
    player = Player.objects.filter(seats__game__session__event=demo).first()
    addresses = [
        "/",
        demo.get_absolute_url(),
        f"/events/{demo.slug}/standings/",
        f"/events/{demo.slug}/results/",
        f"/events/{demo.slug}/import/",
        "/players/",
        player.get_absolute_url(),
        game.get_absolute_url(),
    ]
    for address in addresses:
        response = page.goto(f"{live_server.url}{address}")
        assert response is not None and response.ok, address
        assert "script-src 'self'" in response.headers["content-security-policy"]

    if not game.is_finished:
        response = page.goto(f"{live_server.url}/games/{game.pk}/hands/new/")
        assert response is not None and response.ok

    assert blocked == []

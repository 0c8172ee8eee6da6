"""A player registers for an event on a phone, and the organiser confirms them on a phone:
at 390 px every number reads whole and every button is a 44 x 44 px target."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_phone_layout import PHONE, problems
from tournaments.models import Event, Player, Registration

PASSWORD = "a-long-test-password"


@pytest.fixture
def open_event(transactional_db, django_user_model):
    organiser = django_user_model.objects.create_user(username="organiser", password=PASSWORD)
    django_user_model.objects.create_user(username="kazu", password=PASSWORD)
    event = Event.objects.create(
        name="Autumn Open",
        slug="autumn",
        starts_on=datetime.date(2026, 10, 3),
        registration_open=True,
        registration_places=16,
    )
    event.organisers.add(organiser)
    return event


def log_in(page: Page, username: str) -> None:
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page.locator(".site-nav")).to_contain_text("Log out")


def fits(page: Page) -> None:
    assert problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_player_registers_on_a_phone_and_the_organiser_confirms_them(
    live_server, page: Page, open_event
):
    page.set_viewport_size(PHONE)
    log_in(page, "kazu")
    page.goto("/events/autumn/")
    fits(page)
    page.get_by_role("link", name="Register", exact=True).click()
    page.fill("#id_display_name", "Kazuhiro Moriyama-Takahashi")
    fits(page)
    page.get_by_role("button", name="Register", exact=True).click()

    expect(page.locator("main")).to_contain_text(
        "Kazuhiro Moriyama-Takahashi asks for a place; the organisers will confirm it."
    )
    expect(page.locator("#own-registration")).to_contain_text("Waiting for the organisers")
    fits(page)
    registration = Registration.objects.get(event=open_event)
    assert registration.status == Registration.Status.ASKED

    log_in(page, "organiser")
    page.goto("/events/autumn/")
    page.get_by_role("link", name="Registrations").click()
    card = page.locator(f"#registration-{registration.pk}")
    expect(card).to_contain_text("Kazuhiro Moriyama-Takahashi")
    fits(page)
    card.get_by_role("button", name="Confirm").click()

    expect(page.locator("main")).to_contain_text(
        "Kazuhiro Moriyama-Takahashi is confirmed and on the roster."
    )
    fits(page)
    player = Player.objects.get(display_name="Kazuhiro Moriyama-Takahashi")
    assert list(open_event.roster_players()) == [player]
    page.goto("/events/autumn/roster/")
    expect(page.locator("main")).to_contain_text("Kazuhiro Moriyama-Takahashi")

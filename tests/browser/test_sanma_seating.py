"""Seating a three-player (sanma) event in Chromium: previewed and confirmed on a phone,
the seating list with East, South and West only, and the slips printed on A4."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.builders import log_in_as
from tournaments import services
from tournaments.models import Event, Game, Session

PHONE_WIDTH = 390


@pytest.fixture
def sanma(django_user_model):
    """A three-player tournament of ten players, session 1 not seated yet."""
    organiser = django_user_model.objects.create_user(username="dora", password="x")
    event = Event.objects.create(
        name="Sanma Open",
        slug="sanma-open",
        kind="tournament",
        starts_on=datetime.date(2026, 10, 3),
        rules_preset="mahjongsoul-sanma",
    )
    event.organisers.add(organiser)
    names = [f"Player {chr(65 + n)} Nakamura-Lindqvist" for n in range(10)]
    services.add_names_to_roster(event.pk, names, create=True)
    Session.objects.create(event=event, number=1, date=event.starts_on)
    return {"event": event, "organiser": organiser}


def test_a_three_player_session_is_seated_on_a_phone_and_its_slips_print(live_server, page, sanma):
    log_in_as(page, live_server, sanma["organiser"])
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 844})
    page.goto(live_server.url + reverse("tournaments:seat_players", args=["sanma-open", 1]))
    page.get_by_label("Random").check()
    page.get_by_role("button", name="Preview the tables").click()
    expect(page.get_by_role("heading", name=re.compile(r"Preview: 3 tables"))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    assert page.locator(".seating-table .seats li").count() == 9
    expect(page.get_by_text("1 player does not fit at tables of 3")).to_be_visible()
    page.get_by_role("button", name="Create the 3 games").click()
    expect(page.get_by_role("heading", name="By table")).to_be_visible()
    assert Game.objects.count() == 3

    # The seating list on a phone: a block per table, a line per wind, no North.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    cells = page.locator(".seating-by-table tbody tr[id^=table-] td")
    assert cells.count() == 9
    winds = cells.evaluate_all("els => els.map(el => getComputedStyle(el, '::before').content)")
    assert winds == ['"East"', '"South"', '"West"'] * 3

    # The slips, one a table, three winds each, on A4.
    page.goto(live_server.url + reverse("tournaments:session_slips", args=["sanma-open", 1]))
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert text.count("East") == text.count("South") == text.count("West") == 3
    assert "North" not in text

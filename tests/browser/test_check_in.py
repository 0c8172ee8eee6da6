"""Check-in on a phone at 390 px before seating a round: all present, one absent, then
seat with the substitute pool filling the short table; for tables of four and of three."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.builders import log_in_as
from tournaments import services
from tournaments.models import Event, GameSeat, Player, Session

PHONE_WIDTH = 390


@pytest.mark.parametrize(("preset", "count"), [("ari-ari", 16), ("mahjongsoul-sanma", 9)])
def test_check_in_on_a_phone_leaves_the_absent_player_out_and_a_substitute_fills_the_table(
    live_server, page, django_user_model, preset, count
):
    organiser = django_user_model.objects.create_user(username="dora", password="x")
    event = Event.objects.create(
        name="Day Open",
        slug="day-open",
        kind="tournament",
        starts_on=datetime.date(2026, 10, 3),
        rules_preset=preset,
    )
    event.organisers.add(organiser)
    names = [f"Player {chr(65 + n)} Nakamura-Lindqvist" for n in range(count)]
    services.add_names_to_roster(event.pk, [*names, "Substitute Sato"], create=True)
    substitute = Player.objects.get(display_name="Substitute Sato")
    services.set_substitute(event.pk, substitute.pk, True)
    Session.objects.create(event=event, number=1, date=event.starts_on)
    absent = Player.objects.get(display_name=names[2])

    log_in_as(page, live_server, organiser)
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 844})
    page.goto(live_server.url + reverse("tournaments:check_in", args=["day-open", 1]))
    page.get_by_role("button", name="All present").click()
    expect(page.locator("#check-in-count")).to_have_text(f"{count} of {count} checked in")

    row = page.locator(f"#player-{absent.pk}")
    row.get_by_role("button", name="Mark absent").click()
    expect(page.locator("#check-in-count")).to_have_text(f"{count - 1} of {count} checked in")
    expect(page.locator(f"#player-{absent.pk}")).to_contain_text("Absent")
    # Phone first: nothing wider than the screen, every button a thumb's size.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    sizes = page.locator(".check-in-list button, .check-in-actions button").evaluate_all(
        "els => els.map(el => [el.offsetWidth, el.offsetHeight])"
    )
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes)

    page.get_by_role("link", name="Seat the players").click()
    expect(page.locator("#check-in-state")).to_contain_text(f"{count - 1} of {count} checked in")
    page.get_by_label("Random").check()
    page.get_by_label("Fill short tables with substitutes").check()
    page.get_by_role("button", name="Preview the tables").click()
    tables = count // event.player_count
    expect(
        page.get_by_role("heading", name=re.compile(rf"Preview: {tables} tables"))
    ).to_be_visible()
    expect(page.get_by_text("Substitutes seated:")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    page.get_by_role("button", name=f"Create the {tables} games").click()
    expect(page.get_by_role("heading", name="By table")).to_be_visible()

    seated = set(GameSeat.objects.values_list("player_id", flat=True))
    assert absent.pk not in seated
    assert len(seated) == count
    assert list(
        GameSeat.objects.filter(is_substitute=True).values_list("player_id", flat=True)
    ) == [substitute.pk]

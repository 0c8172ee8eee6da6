"""A three-player club night on a phone, from seating to the printed scoresheet: nine
players seated at three tables of three, a ron, a tsumo with a kita and a draw entered at
table 1, every score as the engine pays it, and the table's scoresheet on one A4 page."""

from __future__ import annotations

import datetime
import io
import re

from django.urls import reverse
from playwright.sync_api import Page, expect
from pypdf import PdfReader

import scoring
from tests.browser.builders import log_in_as
from tests.browser.test_game_entry import (
    PHONE,
    fits_the_phone,
    preview_and_save,
    tap,
    tap_result,
    tap_seat,
)
from tournaments import services
from tournaments.models import Event, Game, Session, Win

NAMES = ["Aoi", "Botan", "Chiyo", "Daichi", "Emi", "Fuyu", "Goro", "Haru", "Isamu"]


def club_night(organiser) -> Event:
    day = datetime.date(2026, 11, 26)
    event = Event.objects.create(
        name="Sanma Thursday", slug="sanma-thursday", starts_on=day, rules_preset="tenhou-sanma"
    )
    event.organisers.add(organiser)
    services.add_names_to_roster(event.pk, NAMES, create=True)
    Session.objects.create(event=event, number=1, date=day)
    return event


def test_a_three_player_club_night_on_a_phone(live_server, page: Page, organiser, tmp_path):
    event = club_night(organiser)
    page.set_viewport_size(PHONE)
    log_in_as(page, live_server, organiser)

    # Nine players, three tables of three.
    page.goto(live_server.url + reverse("tournaments:seat_players", args=[event.slug, 1]))
    page.get_by_label("Random").check()
    page.get_by_role("button", name="Preview the tables").click()
    expect(page.get_by_role("heading", name=re.compile(r"Preview: 3 tables"))).to_be_visible()
    fits_the_phone(page)
    page.get_by_role("button", name="Create the 3 games").click()
    expect(page.get_by_role("heading", name="By table")).to_be_visible()
    games = list(Game.objects.order_by("table_number"))
    assert [g.seats.count() for g in games] == [3, 3, 3]
    game = games[0]
    east, south, west = [s.player.display_name for s in game.ordered_seats()]

    page.goto(live_server.url + game.get_absolute_url())
    fits_the_phone(page)

    # Hand 1: South rons East, 3 han 40 fu.
    page.get_by_role("link", name="Enter hand 1").click()
    assert page.locator("#group-w1_winner label.pick").count() == 3
    tap_result(page, "Ron")
    tap_seat(page, "w1_winner", south)
    tap_seat(page, "loser", east)
    tap(page, "w1_han", "3")
    tap(page, "w1_fu", "40")
    preview_and_save(page, 1)

    # Hand 2: West (still not the dealer: South deals now) tsumo, riichi and menzen tsumo
    # with one North set aside, counted on the kita counter: 3 han 30 fu.
    page.get_by_role("link", name="Enter hand 2").click()
    tap_result(page, "Tsumo")
    tap_seat(page, "w1_winner", west)
    tap_seat(page, "riichi", west)
    help_ = page.locator('details[data-count="1"]')
    help_.locator(":scope > summary").click()
    help_.locator("#group-w1_hand label.pick", has_text="Closed").click()
    for key in ("riichi", "menzen_tsumo"):
        help_.locator(f'label[data-yaku="{key}"]').click()
    help_.locator('button[data-for="id_w1_kita"][data-step="1"]').click()
    expect(page.locator('input[name="w1_han"][value="3"]')).to_be_checked()
    tap(page, "w1_fu", "30")
    fits_the_phone(page)
    page.get_by_role("button", name=re.compile(r"^Preview")).click()
    expect(page.locator(".hand-yaku")).to_contain_text("1 dora (1 kita)")
    fits_the_phone(page)
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".messages")).to_contain_text("Hand 2 saved.")
    assert Win.objects.get(hand__game=game, hand__number=2).kita == 1

    # Hand 3: an exhaustive draw, East alone tenpai.
    page.get_by_role("link", name="Enter hand 3").click()
    tap_result(page, "Draw")
    tap_seat(page, "tenpai", east)
    preview_and_save(page, 3)
    page.screenshot(path=str(tmp_path / "sanma-game-phone.png"), full_page=True)
    fits_the_phone(page)

    # Every score is the engine's, and the points on the table add up.
    result = scoring.replay(scoring.parse_record(game.to_record()))
    seats = list(game.seats.order_by("seat"))
    assert [s.score for s in seats] == list(result.state.scores)
    assert sum(s.score for s in seats) + 1000 * result.state.sticks == 3 * 35000
    for seat in seats:
        expect(page.locator("main")).to_contain_text(f"{seat.score:,}")

    # The table's scoresheet prints on one A4 page with the three names.
    page.goto(
        live_server.url + reverse("tournaments:scoresheet", args=[event.slug, 1, game.table_number])
    )
    fits_the_phone(page)
    page.emulate_media(media="print")
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4", print_background=False)))
    assert len(pdf.pages) == 1
    text = pdf.pages[0].extract_text()
    assert all(name in text for name in (east, south, west))
    assert "North" not in text

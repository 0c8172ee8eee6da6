"""The seating list: printed by Chromium on A4 (by table, then names A-Z with table and
wind), and readable on a phone without sideways scrolling.

Set TENBOU_PRINT_DIR to a folder to keep the PDF and the phone screenshot."""

from __future__ import annotations

import datetime
import io
import os
import re
import shutil
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect
from pypdf import PdfReader

import seating
from tournaments import services
from tournaments.models import Event, Session

PHONE_WIDTH = 390
A4_SHORT, A4_LONG = 595, 842
SURNAMES = ["Tanaka", "Okonkwo-Smith", "Lindqvist", "Nakamura", "Fernández", "Kowalczyk"]


@pytest.fixture
def seated(django_user_model):
    """A public tournament: 38 players on the roster, session 1 seated at 9 tables."""
    organiser = django_user_model.objects.create_user(username="dora", password="x")
    event = Event.objects.create(
        name="Autumn Open", slug="autumn", kind="tournament", starts_on=datetime.date(2026, 10, 3)
    )
    event.organisers.add(organiser)
    names = [f"{chr(65 + n % 26)}{'abcdefgh'[n % 8]}o {SURNAMES[n % 6]}" for n in range(38)]
    services.add_names_to_roster(event.pk, names, create=True)
    session = Session.objects.create(event=event, number=1, date=event.starts_on)
    ids = sorted(event.roster.values_list("player_id", flat=True))
    plan = seating.make_plan(ids, 1, seed=3)
    services.seat_session(session.pk, [list(t) for t in plan.rounds[0]])
    return {"event": event, "organiser": organiser, "names": names}


def _keep(path: Path) -> None:
    keep = os.environ.get("TENBOU_PRINT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)


def test_the_seating_list_prints_on_a4_by_table_then_by_name(live_server, page, seated, tmp_path):
    client = Client()
    client.force_login(seated["organiser"])
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    response = page.goto(live_server.url + reverse("tournaments:seating_list", args=["autumn", 1]))
    assert response is not None and response.ok
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    (tmp_path / "seating-list.pdf").write_bytes(pdf)
    _keep(tmp_path / "seating-list.pdf")
    # The same print layout as an image at the width of A4 (96 dpi), to look at.
    page.set_viewport_size({"width": 794, "height": 1123})
    page.screenshot(path=str(tmp_path / "seating-print.png"), full_page=True)
    _keep(tmp_path / "seating-print.png")

    reader = PdfReader(io.BytesIO(pdf))
    assert 1 <= len(reader.pages) <= 2
    for sheet in reader.pages:
        width, height = float(sheet.mediabox.width), float(sheet.mediabox.height)
        assert abs(width - A4_SHORT) < 2 and abs(height - A4_LONG) < 2
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))
    for word in ("Log out", "Seat the players", "Find your name"):
        assert word not in text
    assert "By table" in text and "By name" in text and "Sitting out:" in text
    assert text.index("By table") < text.index("By name")
    # The right-most column of each part is printed whole: North at every table, and every
    # player's wind in the list by name.
    assert text.count("North") >= 1 + 9  # the header, and the players sitting North
    seated_names = [n for n in seated["names"] if n in text.split("By name")[1]]
    assert len(seated_names) == 38  # 36 seated, and the 2 sitting out named below the list
    by_name = text.split("By name")[1]
    first, last = sorted(seated["names"])[0], sorted(seated["names"])[-1]
    assert by_name.index(first) < by_name.index(last)


def test_the_seating_list_fits_a_phone(live_server, page, seated, tmp_path):
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 844})
    response = page.goto(live_server.url + reverse("tournaments:seating_list", args=["autumn", 1]))
    assert response is not None and response.ok
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    # Each table is a block on a phone, with the wind before every name.
    first_seat = page.locator(".seating-by-table td").first
    label = first_seat.evaluate("el => getComputedStyle(el, '::before').content")
    assert label == '"East"'
    link = page.get_by_role("link", name="Find your name")
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44
    page.screenshot(path=str(tmp_path / "seating-phone.png"), full_page=True)
    _keep(tmp_path / "seating-phone.png")


def test_seating_is_previewed_and_confirmed_on_a_phone(live_server, page, seated, tmp_path):
    client = Client()
    client.force_login(seated["organiser"])
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 844})
    page.goto(live_server.url + reverse("tournaments:session", args=["autumn", 1]))
    page.get_by_role("link", name="Seat the players").click()
    page.get_by_label("Random").check()
    page.get_by_role("button", name="Preview the tables").click()
    # The preview is the answer to a POST: wait for it rather than look at once.
    expect(page.get_by_role("heading", name=re.compile(r"Preview: 9 tables"))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    choice = page.locator(".seating-form fieldset label").first.bounding_box()
    assert choice is not None and choice["height"] >= 44
    page.screenshot(path=str(tmp_path / "seating-preview.png"), full_page=True)
    _keep(tmp_path / "seating-preview.png")
    page.get_by_role("button", name="Create the 9 games").click()
    expect(page.get_by_text("Session 1 is seated at 9 tables.")).to_be_visible()
    assert Session.objects.get(number=1, event=seated["event"]).games.count() == 9

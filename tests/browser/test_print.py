"""The printable pages, printed by Chromium to A4 PDFs: each fits its pages, keeps every
column, and leaves the navigation, buttons and forms off the paper.

Chromium cuts what is wider than the paper at its edge and leaves the cut text out of the
PDF, so each test looks for the words of its right-most column.

Set TENBOU_PRINT_DIR to a folder to keep the PDFs, e.g. to look at them as images:
`pdftoppm -png -r 60 scoresheet.pdf scoresheet`.
"""

from __future__ import annotations

import datetime
import io
import os
import random
import re
import shutil
from pathlib import Path

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.simulate import random_record
from tests.browser.builders import log_in_as
from tournaments import services
from tournaments.models import Event, Player, Session
from tournaments.scoresheet import build_sheet
from tournaments.standings import event_standings
from tournaments.wording.formatting import match_points as signed
from tournaments.wording.formatting import points
from tournaments.wording.formatting import sheet_match_points as decimal

NAMES = [
    "Aki",
    "Ben",
    "Chie",
    "Dan",
    "Emi",
    "Fumio",
    "Gwen",
    "Haruto",
    "Ines",
    "Jun",
    "Kasia",
    "Lorenzo",
]
# A4 in PostScript points.
A4_SHORT, A4_LONG = 595, 842


def _record(rng: random.Random, *, hands: range | None = None) -> dict:
    """A random finished game; with `hands`, one whose number of hands is in that range."""
    while True:
        record = random_record(rng, "ari-ari")
        if hands is None or len(record["hands"]) in hands:
            return record


@pytest.fixture
def league(django_user_model):
    """A public league: 3 sessions, 12 players at 3 tables. Session 1, table 1 plays four
    games with the same four players; one long game of about 15 hands."""
    organiser = django_user_model.objects.create_user(username="olive", password="x")
    event = Event.objects.create(
        name="Spring League", slug="spring", starts_on=datetime.date(2026, 4, 2)
    )
    event.organisers.add(organiser)
    players = [Player.objects.create(display_name=name) for name in NAMES]
    rng = random.Random(2026)
    sessions = [
        Session.objects.create(
            event=event, number=n, date=event.starts_on + datetime.timedelta(weeks=n - 1)
        )
        for n in (1, 2, 3)
    ]
    table_one = [
        services.create_game_from_record(sessions[0], _record(rng), players[:4], table_number=1)
        for _ in range(4)
    ]
    for index, session in enumerate(sessions):
        order = players[index:] + players[:index]  # other tables each week
        for table in (2, 3):
            four = order[(table - 1) * 4 : table * 4]
            services.create_game_from_record(session, _record(rng), four, table_number=table)
    long_game = services.create_game_from_record(
        sessions[1], _record(rng, hands=range(14, 17)), players[:4], table_number=1
    )
    return {
        "event": event,
        "organiser": organiser,
        "players": players,
        "session": sessions[0],
        "table_one": table_one,
        "long_game": long_game,
    }


def _print(page, live_server, path: str, name: str, tmp_path: Path) -> PdfReader:
    response = page.goto(live_server.url + path)
    assert response is not None and response.ok, path
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    (tmp_path / f"{name}.pdf").write_bytes(pdf)
    keep = os.environ.get("TENBOU_PRINT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / f"{name}.pdf", Path(keep) / f"{name}.pdf")
    return PdfReader(io.BytesIO(pdf))


def _text(reader: PdfReader) -> str:
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def _orientation(reader: PdfReader) -> str:
    """ "portrait" or "landscape" for A4 pages (Chromium's A4 is a point or so larger)."""
    kinds = set()
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        if abs(width - A4_SHORT) < 2 and abs(height - A4_LONG) < 2:
            kinds.add("portrait")
        elif abs(width - A4_LONG) < 2 and abs(height - A4_SHORT) < 2:
            kinds.add("landscape")
        else:
            kinds.add(f"not A4: {width} x {height}")
    assert len(kinds) == 1, kinds
    return kinds.pop()


def _assert_no_navigation(text: str) -> None:
    # The header (brand, "Events", "Players", "Log out") and the footer stay on screen.
    for word in ("Log out", "Events", "Tenbou"):
        assert word not in text


def test_the_scoresheet_prints_on_one_a4_page_with_the_grand_totals(
    live_server, page, league, tmp_path
):
    log_in_as(page, live_server, league["organiser"])
    session = league["session"]
    path = reverse("tournaments:scoresheet", args=["spring", 1, 1])

    reader = _print(page, live_server, path, "scoresheet", tmp_path)

    assert len(reader.pages) == 1
    assert _orientation(reader) == "portrait"
    text = _text(reader)
    _assert_no_navigation(text)
    sheet = build_sheet(league["players"][:4], league["table_one"], session.event.rules())
    for name in NAMES[:4]:
        assert name in text
    for total in sheet.grand_totals:
        assert decimal(total) in text
    for score in sheet.games[0].scores:
        assert points(score) in text
    assert "Grand Total" in text and "Game 4" in text
    assert "Starting Score: 25,000" in text and "Oka: +20" in text


def test_the_blank_scoresheet_prints_on_one_a4_page_with_names_only(
    live_server, page, league, tmp_path
):
    log_in_as(page, live_server, league["organiser"])
    path = reverse("tournaments:scoresheet_blank", args=["spring", 1, 1])

    reader = _print(page, live_server, path, "blank-sheet", tmp_path)

    assert len(reader.pages) == 1
    assert _orientation(reader) == "portrait"
    text = _text(reader)
    _assert_no_navigation(text)
    for name in NAMES[:4]:
        assert name in text
    assert "East" in text and "North" in text and "Grand Total" in text
    # The only numbers are in the heading (session, table, date) and the rules footer.
    body = text.split("Starting Score")[0].split("2026", 1)[1]
    assert re.findall(r"\d", body) == ["1", "2", "3", "4"]  # Game 1 ... Game 4


def test_a_long_game_sheet_prints_on_one_or_two_a4_pages(live_server, page, league, tmp_path):
    log_in_as(page, live_server, league["organiser"])
    game = league["long_game"]
    result = services.replay_record(game.to_record())
    assert 14 <= len(result.hands) <= 16

    reader = _print(
        page, live_server, reverse("tournaments:game_sheet", args=[game.pk]), "game", tmp_path
    )

    assert 1 <= len(reader.pages) <= 2
    assert _orientation(reader) == "portrait"
    text = _text(reader)
    _assert_no_navigation(text)
    for name in NAMES[:4]:
        assert name in text
    last = result.hands[-1]
    assert f"{last.round_label}-{last.honba}" in text
    for score in result.final_scores:
        assert points(score) in text
    assert "Match points" in text and "Final score" in text


def test_the_standings_print_on_one_landscape_a4_page_with_every_column(
    live_server, page, league, tmp_path
):
    log_in_as(page, live_server, league["organiser"])
    standings = event_standings(league["event"])
    assert len(standings.rows) == 12 and standings.sessions == [1, 2, 3]

    reader = _print(
        page, live_server, reverse("tournaments:standings", args=["spring"]), "standings", tmp_path
    )

    assert len(reader.pages) == 1
    assert _orientation(reader) == "landscape"
    text = _text(reader)
    _assert_no_navigation(text)
    assert "Filter" not in text and "Download" not in text
    # Every column, the last session's included, and every player with their numbers.
    for header in ("Rank", "Total", "Avg place", "Penalties", "S1 pts", "S3 pts", "S3 places"):
        assert header in text
    _assert_rows_whole(standings, text)


def _assert_rows_whole(standings, text: str) -> None:
    """Each player's line is printed whole: name, total, and the last session's points and
    places, which are the right-most columns."""
    last = standings.sessions[-1]
    for row in standings.rows:
        line = f"{row.games} {signed(row.match_points)} {row.average_placement}"
        assert line in text
        if last in row.sessions:
            session = row.sessions[last]
            assert f"{signed(session.match_points)} {session.placements_text}" in text


def test_standings_of_ten_sessions_still_print_every_column_on_one_page(
    live_server, page, django_user_model, tmp_path
):
    event = Event.objects.create(
        name="Long League", slug="long", starts_on=datetime.date(2026, 1, 7)
    )
    players = [Player.objects.create(display_name=f"{name} Longsurname") for name in NAMES]
    rng = random.Random(10)
    for number in range(1, 11):
        session = Session.objects.create(
            event=event, number=number, date=event.starts_on + datetime.timedelta(weeks=number)
        )
        order = players[number:] + players[:number]
        for table in (1, 2, 3):
            four = order[(table - 1) * 4 : table * 4]
            services.create_game_from_record(session, _record(rng), four, table_number=table)
    standings = event_standings(event)

    reader = _print(
        page, live_server, reverse("tournaments:standings", args=["long"]), "standings-10", tmp_path
    )

    assert len(reader.pages) == 1
    assert _orientation(reader) == "landscape"
    text = _text(reader)
    assert "S10" in text and "places" in text
    _assert_rows_whole(standings, text)


def test_a_players_page_prints_with_the_chart(live_server, page, league, tmp_path):
    log_in_as(page, live_server, league["organiser"])
    aki = league["players"][0]

    reader = _print(
        page, live_server, reverse("tournaments:player", args=[aki.pk]), "player", tmp_path
    )

    assert 1 <= len(reader.pages) <= 2
    text = _text(reader)
    _assert_no_navigation(text)
    assert "Aki" in text and "Spring League" in text and "Average placement" in text
    assert "Games, in the order played" in text  # the chart's axis, drawn as SVG text

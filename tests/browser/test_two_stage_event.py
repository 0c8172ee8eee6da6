"""A director runs a two-stage event in the browser: creates the stages, cuts to the top 8
with halved points, seats the final, the tables enter their hands from their links on
phones, time is called, and the final standings print with the final placement."""

from __future__ import annotations

import datetime
import io
import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.browser.builders import log_in_as
from tests.tournaments.builders import final_game
from tournaments import services
from tournaments.models import Event, Game, Session, Stage
from tournaments.reading.placement import final_placement
from tournaments.reading.stages import all_stage_standings
from tournaments.wording.formatting import match_points as signed

PHONE = {"width": 390, "height": 844}
NAMES = [f"Player {letter}" for letter in "ABCDEFGHIJKLMNOP"]


@pytest.fixture
def qualified(transactional_db, organiser):
    """Sixteen players, two qualifying sessions of four tables (final scores), and an
    empty session 3 for the final."""
    event = Event.objects.create(
        name="Winter Cup", slug="winter", starts_on=datetime.date(2026, 12, 5), kind="tournament"
    )
    event.organisers.add(organiser)
    sessions = [
        Session.objects.create(event=event, number=n, date=datetime.date(2026, 12, 5))
        for n in (1, 2, 3)
    ]
    scores = [[41300, 24900, 21800, 12000], [35000, 30000, 20000, 15000]]
    for table in range(4):
        final_game(sessions[0], NAMES[4 * table : 4 * table + 4], scores[table % 2], table + 1)
        # Session 2: the tables mixed (one player of each first-session table).
        names = [NAMES[(4 * k + table) % 16] for k in range(4)]
        final_game(sessions[1], names, scores[(table + 1) % 2], table + 1)
    return event


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_director_runs_a_qualifying_stage_a_cut_to_eight_and_a_final(
    live_server, page: Page, qualified, organiser, tmp_path
):
    page.set_viewport_size(PHONE)
    log_in_as(page, live_server, organiser)
    base = f"{live_server.url}/events/winter"

    # The two stages, made with the director's form.
    page.goto(f"{base}/stages/")
    fits_the_phone(page)
    page.get_by_role("link", name="Add a stage").click()
    page.get_by_label("Name").fill("Qualifying")
    page.get_by_label("First session").fill("1")
    page.get_by_label("Last session").fill("2")
    page.get_by_label("Everyone").check()
    page.get_by_label("Nothing: totals start again").check()
    fits_the_phone(page)
    page.get_by_role("button", name="Add the stage").click()
    expect(page.locator(".messages")).to_contain_text("Stage 1 added.")

    page.get_by_role("link", name="Add a stage").click()
    page.get_by_label("Name").fill("Final")
    page.get_by_label("First session").fill("3")
    page.get_by_label("Last session").fill("3")
    page.get_by_label("The top of the previous stage").check()
    page.get_by_label("How many go through (top)").fill("8")
    page.get_by_label("A part of the total").check()
    page.get_by_label("Factor (e.g. 0.5 for half)").fill("0.5")
    page.get_by_role("button", name="Add the stage").click()
    expect(page.locator(".messages")).to_contain_text("Stage 2 added.")
    final = Stage.objects.get(event=qualified, number=2)
    assert (final.top, final.carry_factor) == (8, Decimal("0.50"))

    # The cut: a preview of the eight, then the confirmation.
    page.goto(f"{base}/stages/2/")
    page.get_by_role("link", name="Cut to this stage").click()
    expect(page.locator("table.cut-preview tbody tr")).to_have_count(8)
    fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "cut-preview.png"), full_page=True)
    page.get_by_role("button", name="Confirm the cut").click()
    expect(page.locator(".messages")).to_contain_text("8 players go through to Final.")
    qualifying = all_stage_standings(qualified)[0]
    finalists = [row.player for row in qualifying.rows[:8]]
    rows = page.locator("table.stage-standings tbody tr")
    expect(rows).to_have_count(8)
    fits_the_phone(page)
    page.screenshot(path="/tmp/stage-phone.png", full_page=True)
    # Each finalist carries half their qualifying total, to the tenth, halves up.
    carried = {
        row.player: (row.total * Decimal("0.5")).quantize(Decimal("0.1"), "ROUND_HALF_UP")
        for row in qualifying.rows[:8]
    }
    for name, points in carried.items():
        expect(rows.filter(has_text=name)).to_contain_text(signed(points))

    # Seating the final from its entrants: two tables of the eight.
    page.get_by_role("link", name="Seat").click()
    page.get_by_label("Random").check()
    page.get_by_role("button", name="Preview the tables").click()
    expect(page.get_by_role("heading", name=re.compile(r"Preview: 2 tables"))).to_be_visible()
    fits_the_phone(page)
    page.get_by_role("button", name="Create the 2 games").click()
    expect(page.get_by_text("Session 3 is seated at 2 tables.")).to_be_visible()
    games = list(Game.objects.filter(session__event=qualified, session__number=3))
    seated = {seat.player.display_name for game in games for seat in game.seats.all()}
    assert seated == set(finalists)

    # Each table enters a hand from its link on a phone: East wins off West, 3 han 40 fu.
    for game in games:
        link = services.renew_table_link(game.pk)
        table_page = page.context.browser.new_page(viewport=PHONE)
        table_page.goto(f"{live_server.url}{link.get_absolute_url()}")
        names = [seat.player.display_name for seat in game.ordered_seats()]
        table_page.get_by_role("link", name="Enter hand 1").click()
        table_page.locator("#group-result label.pick", has_text="Ron").click()
        table_page.locator(
            "#group-w1_winner label.pick", has=table_page.locator("b", has_text=names[0])
        ).click()
        table_page.locator(
            "#group-loser label.pick", has=table_page.locator("b", has_text=names[2])
        ).click()
        table_page.locator('#group-w1_han label.pick:has(input[value="3"])').click()
        table_page.locator('#group-w1_fu label.pick:has(input[value="40"])').click()
        table_page.get_by_role("button", name=re.compile(r"^Preview")).click()
        table_page.get_by_role("button", name="Confirm and save").click()
        expect(table_page.locator(".messages")).to_contain_text("Hand 1 saved.")
        table_page.close()

    # The director calls time: both games end after their one hand.
    page.goto(f"{base}/sessions/3/call-time/")
    page.get_by_role("button", name="Call time").click()
    assert all(
        g.status == Game.Status.FINISHED for g in Game.objects.filter(pk__in=[g.pk for g in games])
    )

    # The final standings, printed: the final placement with the finalists first.
    placed = final_placement(qualified)
    assert [p.player.display_name for p in placed[:8]] == [
        row.player for row in all_stage_standings(qualified)[1].rows
    ]
    assert {p.player.display_name for p in placed[:8]} == set(finalists)
    assert all(p.eliminated for p in placed[8:]) and len(placed) == 16
    # A dealer's ron of 3 han 40 fu is 7,700: East ends on 32,700 (+2.7+30+20 = +52.7),
    # West on 17,300 (-12.7-30 = -42.7), the others on 25,000 (-5+10 = +5 and -5-10 = -15
    # in seat order, North and South split by seat: South second).
    final_rows = all_stage_standings(qualified)[1].rows
    for game in games:
        seats = game.ordered_seats()
        by_name = {r.player: r for r in final_rows}
        assert by_name[seats[0].player.display_name].match_points == Decimal("52.7")
        assert by_name[seats[2].player.display_name].match_points == Decimal("-42.7")
    page.set_viewport_size({"width": 1280, "height": 720})
    response = page.goto(f"{base}/standings/")
    assert response is not None and response.ok
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    (tmp_path / "final-standings.pdf").write_bytes(pdf)
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert "Final placement" in text
    assert "Download" not in text
    for p in placed:
        assert f"{p.place_label} {p.player.display_name} {signed(p.points)}" in text, p


def test_the_stage_form_fits_a_phone_and_the_stage_standings_a_projector(
    live_server, page: Page, qualified, organiser, tmp_path
):
    services.add_stage(
        qualified.pk, services.StagePlan(name="Qualifying", first_session=1, last_session=2)
    )
    log_in_as(page, live_server, organiser)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/events/winter/stages/new/")
    fits_the_phone(page)
    button = page.get_by_role("button", name="Add the stage").bounding_box()
    assert button is not None and button["height"] >= 44
    for choice in page.locator("#id_entrants label, #id_carry label").all():
        box = choice.bounding_box()
        assert box is not None and box["height"] >= 44
    page.screenshot(path=str(tmp_path / "stage-form-phone.png"), full_page=True)
    # A refusal at 390 px: the sessions overlap the first stage's.
    page.get_by_label("Name").fill("Final")
    page.get_by_label("First session").fill("2")
    page.get_by_label("Last session").fill("3")
    page.get_by_label("The top of the previous stage").check()
    page.get_by_label("How many go through (top)").fill("8")
    page.get_by_label("Nothing: totals start again").check()
    page.get_by_role("button", name="Add the stage").click()
    expect(page.locator(".errorlist")).to_contain_text("Stage 1 ends with session 2")
    fits_the_phone(page)

    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/events/winter/stages/1/")
        rows = page.locator("table.stage-standings tbody tr")
        expect(rows).to_have_count(16)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"]
        # Every column of the last row is on the screen, not cut at its edge.
        cell = rows.last.locator("td").last.bounding_box()
        assert cell is not None and cell["x"] + cell["width"] <= size["width"]

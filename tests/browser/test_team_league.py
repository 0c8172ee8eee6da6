"""A team league on a phone: a captain submits the match day's line-up at 390 px, and the
team table reads whole at 390 px (and on a 1280 x 720 projector)."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.browser.builders import log_in_as
from tests.browser.test_phone_layout import CHECK
from tests.tournaments.builders import final_game
from tournaments import services
from tournaments.models import Event, LineUp, Player, Session

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}
TEAMS = {
    "Kaze no Tora": ["Aki Tanaka", "Ben Okada", "Chie Mori"],
    "Blue Dragons": ["Dan Ito", "Eri Sato", "Fumi Abe"],
    "Red Phoenix": ["Gen Kato", "Hana Ueda", "Ima Endo"],
    "White Tigers": ["Jun Oda", "Kei Noma", "Leo Hara"],
}


@pytest.fixture
def league(transactional_db, organiser, django_user_model):
    event = Event.objects.create(
        name="Team League", slug="team-league", starts_on=datetime.date(2026, 10, 1)
    )
    event.organisers.add(organiser)
    for number in (1, 2):
        Session.objects.create(event=event, number=number, date=datetime.date(2026, 10, number))
    services.set_team_settings(event.pk, team_event=True, team_best=2)
    names = [n for members in TEAMS.values() for n in members]
    players = {p.display_name: p for p in services.players_by_name(names, create=True)}
    services.add_to_roster(event.pk, list(players.values()))
    teams = {}
    for name, members in TEAMS.items():
        team = services.create_team(event.pk, name)
        for index, member in enumerate(members):
            services.add_member(team.pk, players[member].pk, reserve=index == 2)
        teams[name] = team
    captain = django_user_model.objects.create_user(username="aki", password="x-long-password")
    aki = players["Aki Tanaka"]
    aki.user = captain
    aki.save(update_fields=["user"])
    services.set_captain(teams["Kaze no Tora"].pk, aki.pk)
    session_1 = Session.objects.get(event=event, number=1)
    final_game(
        session_1, ["Aki Tanaka", "Dan Ito", "Gen Kato", "Jun Oda"], [41300, 24900, 21800, 12000], 1
    )
    final_game(
        session_1,
        ["Eri Sato", "Ben Okada", "Kei Noma", "Hana Ueda"],
        [35000, 30000, 20000, 15000],
        2,
    )
    session_2 = Session.objects.get(event=event, number=2)
    services.set_lineup_deadline(
        session_2.pk, datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=1)
    )
    return {"event": event, "captain": captain, "team": teams["Kaze no Tora"]}


def test_a_captain_submits_the_line_up_on_a_phone(live_server, page: Page, league):
    page.set_viewport_size(PHONE)
    log_in_as(page, live_server, league["captain"])
    page.goto(f"{live_server.url}/events/team-league/sessions/2/lineups/")
    expect(page.get_by_role("heading", name="Your team: Kaze no Tora")).to_be_visible()
    page.get_by_label("Aki Tanaka").check()
    page.get_by_label("Chie Mori").check()
    assert page.evaluate(CHECK) == []
    page.get_by_role("button", name="Submit the line-up").click()
    expect(page.get_by_text("Your line-up is saved.")).to_be_visible()
    lineup = LineUp.objects.get(team=league["team"], session__number=2)
    assert sorted(p.display_name for p in lineup.players.all()) == ["Aki Tanaka", "Chie Mori"]
    expect(page.locator(".lineups")).to_contain_text("Aki Tanaka, Chie Mori")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(CHECK) == []
    # A ticked member's box is a tap target of a finger's size.
    box = page.get_by_label("Ben Okada").locator("xpath=..").bounding_box()
    assert box["height"] >= 44


def test_the_team_table_reads_whole_on_a_phone_and_a_projector(live_server, page: Page, league):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/events/team-league/team-standings/")
    table = page.locator("table.team-standings")
    expect(table).to_contain_text("Kaze no Tora")
    # Best 2: Kaze no Tora Aki +61.3 (first of 41,300) and Ben +10.0 (second of 30,000)
    # = +71.3 (Chie, a reserve, has not played).
    expect(table.locator("tbody tr").first).to_contain_text("+71.3")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(CHECK) == []
    page.set_viewport_size(PROJECTOR)
    page.reload()
    rows = table.locator("tbody tr")
    assert rows.count() == 4
    for index in range(4):
        box = rows.nth(index).bounding_box()
        assert box["y"] + box["height"] <= PROJECTOR["height"]
    assert Player.objects.filter(user=league["captain"]).exists()

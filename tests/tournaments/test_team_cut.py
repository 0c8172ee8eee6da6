"""A team season's later stages take the top teams of the stage before: the cut lets the
members of those teams through (the same cut as the players' one), each member carries
their own total, and the team table of the next stage adds up what they carried."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.stage_builders import WIDE, cut, play, stage, staged_event, table
from tests.tournaments.test_teams import TEAMS, make_teams, play_first_session, team_event, totals
from tournaments import services
from tournaments.models import Event, Stage, StageEntrant
from tournaments.reading.stages import all_stage_standings, cut_preview
from tournaments.reading.teams import team_tables
from tournaments.wording.refusals import say

pytestmark = pytest.mark.django_db


def season(organiser) -> Event:
    """A regular season (session 1) of the four teams of test_teams.py, a semi-final
    (session 2) of the top 2 teams carrying half their members' totals, and a final
    (session 3) of the top 2 teams of the semi-final carrying them in full."""
    event = team_event(organiser, "team-season", sessions=3)
    make_teams(event, TEAMS)
    stage(event, "Regular season", 1, 1)
    stage(
        event,
        "Semi-final",
        2,
        2,
        entrants=Stage.Entrants.TOP_TEAMS,
        top=2,
        carry=Stage.Carry.FACTOR,
        carry_factor=Decimal("0.5"),
    )
    stage(event, "Final", 3, 3, entrants=Stage.Entrants.TOP_TEAMS, top=2, carry="full")
    event = Event.objects.get(pk=event.pk)
    play_first_session(event)
    return event


def test_a_team_season_cuts_to_the_members_of_the_top_two_teams_and_carries_half(organiser):
    event = season(organiser)
    # The regular season, worked by hand (test_teams.py's play_first_session): A +55,
    # B +10, C -20, D -45 and H +60, F +10, G -20, E -50. Teams: Blue B+F = +20.0,
    # Gold D+H = +15.0, Red A+E = +5.0, Green C+G = -40.0: Blue and Gold go through, and
    # A (+55, second of all players) stays out with Red.
    # Seeds: Blue first, B and F sharing third place (B first by name), then Gold, H
    # (first) before D (seventh).
    assert cut(event, 2) == ["B", "F", "H", "D"]
    semi = Stage.objects.get(event=event, number=2)
    seeded = StageEntrant.objects.filter(stage=semi).order_by("seed")
    assert [e.player.display_name for e in seeded] == ["B", "F", "H", "D"]
    # Each member carries half their total, rounded half up to a tenth: B 5.0, F 5.0,
    # H 30.0, D -22.5; the team table adds them up: Blue 10.0, Gold 7.5; Red and Green
    # are out of the semi-final, not at 0.0 in it.
    _regular, semi_table, _final = team_tables(Event.objects.get(pk=event.pk))
    assert totals(semi_table) == [("1", "Blue", Decimal("10.0")), ("2", "Gold", Decimal("7.5"))]
    assert [(row.carried, row.match_points) for row in semi_table.rows] == [
        (Decimal("10.0"), Decimal("0.0")),
        (Decimal("7.5"), Decimal("0.0")),
    ]
    # The semi-final's game, 40,000/30,000/20,000/10,000: D +60, H +10, F -20, B -50.
    # D -22.5 + 60 = 37.5, H 30 + 10 = 40.0, F 5 - 20 = -15.0, B 5 - 50 = -45.0;
    # Gold 7.5 + 70 = 77.5, Blue 10 - 70 = -60.0.
    play(event, 2, (["D", "H", "F", "B"], WIDE))
    _regular, semi_table, _final = team_tables(Event.objects.get(pk=event.pk))
    assert totals(semi_table) == [("1", "Gold", Decimal("77.5")), ("2", "Blue", Decimal("-60.0"))]
    # The final takes the top 2 teams of the semi-final (Red and Green, out, do not come
    # back at 0.0 above Blue): Gold's H and D, then Blue's F and B, carrying in full.
    assert cut(event, 3) == ["H", "D", "F", "B"]
    standings = all_stage_standings(Event.objects.get(pk=event.pk))
    assert table(standings[2]) == [
        ("1", "H", Decimal("40.0"), Decimal("0.0"), Decimal("40.0")),
        ("2", "D", Decimal("37.5"), Decimal("0.0"), Decimal("37.5")),
        ("3", "F", Decimal("-15.0"), Decimal("0.0"), Decimal("-15.0")),
        ("4", "B", Decimal("-45.0"), Decimal("0.0"), Decimal("-45.0")),
    ]
    _regular, _semi, final_table = team_tables(Event.objects.get(pk=event.pk))
    assert totals(final_table) == [
        ("1", "Gold", Decimal("77.5")),
        ("2", "Blue", Decimal("-60.0")),
    ]


def test_the_cut_page_shows_the_teams_that_go_through_and_fixes_their_members(
    organiser, organiser_client
):
    event = season(organiser)
    url = reverse("tournaments:stage_cut", args=[event.slug, 2])
    page = organiser_client.get(url).content.decode()
    teams = page[page.index("cut-teams") : page.index("cut-preview")]
    assert teams.index(">Blue<") < teams.index(">Gold<")
    assert ">Red<" not in teams and ">Green<" not in teams
    assert "+20.0" in teams and "+15.0" in teams
    players = page[page.index("cut-preview") :]
    assert players.index(">B<") < players.index(">F<") < players.index(">H<")
    assert players.index(">H<") < players.index(">D<")
    assert ">A<" not in players
    response = organiser_client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    semi = Stage.objects.get(event=event, number=2)
    seeded = StageEntrant.objects.filter(stage=semi).order_by("seed")
    assert [e.player.display_name for e in seeded] == ["B", "F", "H", "D"]


def test_an_event_without_teams_refuses_a_cut_to_the_top_teams(organiser, organiser_client):
    event = staged_event(organiser, "singles", 2)
    stage(event, "Qualifying", 1, 1)
    with pytest.raises(services.StageRefused, match="Only a team event can let the top teams"):
        stage(event, "Final", 2, 2, entrants=Stage.Entrants.TOP_TEAMS, top=2)
    assert Stage.objects.filter(event=event).count() == 1
    # The form says so, in Japanese on a Japanese page.
    form = {
        "name": "Final",
        "first_session": "2",
        "last_session": "2",
        "entrants": "top_teams",
        "top": "2",
        "carry": "none",
        "carry_rounding": "half_up",
    }
    address = reverse("tournaments:stage_create", args=[event.slug])
    with translation.override("ja"):
        page = organiser_client.post(address, form, HTTP_ACCEPT_LANGUAGE="ja")
    assert page.status_code == 200
    assert "上位チームを通過させられるのはチーム戦だけです" in page.content.decode()
    assert Stage.objects.filter(event=event).count() == 1


def test_a_team_event_that_stops_being_one_refuses_its_top_teams_cut(organiser):
    event = season(organiser)
    services.set_team_settings(event.pk, team_event=False, team_best=None)
    event = Event.objects.get(pk=event.pk)
    standings = all_stage_standings(event)
    preview = cut_preview(standings[1].stage, standings[0])
    assert "Only a team event can let the top teams through" in say(preview.refusal)
    assert preview.rows == []


def test_a_first_stage_or_a_count_beyond_the_teams_is_refused(organiser):
    event = team_event(organiser, "few-teams", sessions=2)
    make_teams(event, TEAMS)
    with pytest.raises(services.StageRefused, match="no previous stage to take the top teams"):
        stage(event, "Season", 1, 1, entrants=Stage.Entrants.TOP_TEAMS, top=2)
    stage(event, "Season", 1, 1)
    with pytest.raises(services.StageRefused, match="Say how many teams go through: 1 to 64"):
        stage(event, "Final", 2, 2, entrants=Stage.Entrants.TOP_TEAMS, top=65)
    final = stage(event, "Final", 2, 2, entrants=Stage.Entrants.TOP_TEAMS, top=5)
    play_first_session(Event.objects.get(pk=event.pk))
    standings = all_stage_standings(Event.objects.get(pk=event.pk))
    preview = cut_preview(final, standings[0])
    assert say(preview.refusal) == (
        "Only 4 teams are in the previous stage's team table; the cut takes 5."
    )


def test_a_tie_between_teams_at_the_cut_line_is_refused_and_nothing_is_cut(
    organiser, organiser_client
):
    event = team_event(organiser, "tied", sessions=2)
    # The same games, other teams: Red A+H = 55 + 60 = +115.0, Blue B+C = 10 - 20 = -10.0,
    # Green F+G = 10 - 20 = -10.0, Gold D+E = -45 - 50 = -95.0: Blue and Green share the
    # second place, where the cut to the top 2 teams falls.
    make_teams(
        event, {"Red": ["A", "H"], "Blue": ["B", "C"], "Green": ["F", "G"], "Gold": ["D", "E"]}
    )
    stage(event, "Season", 1, 1)
    semi = stage(event, "Semi-final", 2, 2, entrants=Stage.Entrants.TOP_TEAMS, top=2)
    play_first_session(Event.objects.get(pk=event.pk))
    standings = all_stage_standings(Event.objects.get(pk=event.pk))
    preview = cut_preview(semi, standings[0])
    assert say(preview.refusal).startswith(
        "Blue and Green share place 2 of the team table, so the cut line falls between equal teams"
    )
    assert preview.rows == []
    url = reverse("tournaments:stage_cut", args=[event.slug, 2])
    page = organiser_client.post(url, {"confirm": "1"})
    assert page.status_code == 200
    assert "Blue and Green share place 2" in page.content.decode()
    assert not StageEntrant.objects.filter(stage=semi).exists()
    # Three teams go through without a tie at the line (Gold is fourth on its own).
    services.change_stage(
        semi.pk,
        services.StagePlan(
            name="Semi-final",
            first_session=2,
            last_session=2,
            entrants=Stage.Entrants.TOP_TEAMS,
            top=3,
        ),
    )
    assert cut(Event.objects.get(pk=event.pk), 2) == ["H", "A", "B", "C", "F", "G"]

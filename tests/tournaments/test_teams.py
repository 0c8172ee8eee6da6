"""Team events: teams and members, team standings (sum and best k, per stage with carried
points), line-ups hidden until the deadline, team seating through the app, and refusals."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.builders import final_game
from tests.tournaments.stage_builders import EVEN, WIDE, cut, stage, staged_event
from tournaments import seat_plans, services
from tournaments.models import Event, LineUp, Player, Session, Stage, Team, TeamMember
from tournaments.reading.teams import team_tables

pytestmark = pytest.mark.django_db

TEAMS = {"Red": ["A", "E"], "Blue": ["B", "F"], "Green": ["C", "G"], "Gold": ["D", "H"]}


def team_event(organiser, slug="teams", sessions=1) -> Event:
    event = staged_event(organiser, slug, sessions)
    services.set_team_settings(event.pk, team_event=True, team_best=None)
    return Event.objects.get(pk=event.pk)


def make_teams(event: Event, teams: dict[str, list[str]]) -> dict[str, Team]:
    made = {}
    names = [n for members in teams.values() for n in members]
    players = services.players_by_name(names, create=True)
    services.add_to_roster(event.pk, players)
    by_name = {p.display_name: p for p in players}
    for name, members in teams.items():
        team = services.create_team(event.pk, name)
        for member in members:
            services.add_member(team.pk, by_name[member].pk)
        made[name] = team
    return made


def session_of(event: Event, number: int) -> Session:
    return Session.objects.select_related("event").get(event=event, number=number)


def totals(table) -> list[tuple]:
    return [(row.rank_label, row.team, row.total) for row in table.rows]


def play_first_session(event: Event) -> None:
    # Worked by hand (ari-ari: 30,000 return, uma +30/+10/-10/-30, oka +20 to first):
    # 35,000/30,000/20,000/15,000 gives +55, +10, -20, -45;
    # 40,000/30,000/20,000/10,000 gives +60, +10, -20, -50.
    final_game(session_of(event, 1), ["A", "B", "C", "D"], EVEN, 1)
    final_game(session_of(event, 1), ["H", "F", "G", "E"], WIDE, 2)


def test_team_standings_add_up_members_or_count_the_best_k(organiser):
    event = team_event(organiser)
    make_teams(event, TEAMS)
    play_first_session(event)
    # All members: Red A +55 E -50 = +5.0; Blue B +10 F +10 = +20.0;
    # Green C -20 G -20 = -40.0; Gold D -45 H +60 = +15.0.
    (table,) = team_tables(event)
    assert totals(table) == [
        ("1", "Blue", Decimal("20.0")),
        ("2", "Gold", Decimal("15.0")),
        ("3", "Red", Decimal("5.0")),
        ("4", "Green", Decimal("-40.0")),
    ]
    # The best one member: Gold H +60, Red A +55, Blue +10 (a tie of B and F), Green -20.
    services.set_team_settings(event.pk, team_event=True, team_best=1)
    (table,) = team_tables(Event.objects.get(pk=event.pk))
    assert totals(table) == [
        ("1", "Gold", Decimal("60.0")),
        ("2", "Red", Decimal("55.0")),
        ("3", "Blue", Decimal("10.0")),
        ("4", "Green", Decimal("-20.0")),
    ]
    gold = table.rows[0]
    assert [(m.player, m.counted) for m in gold.members] == [("H", True), ("D", False)]


def test_a_season_carries_team_points_into_its_final_as_the_stages_carry_them(organiser):
    event = team_event(organiser, "season", sessions=2)
    make_teams(event, TEAMS)
    stage(event, "Regular season", 1, 1)
    stage(
        event,
        "Final",
        2,
        2,
        entrants=Stage.Entrants.EVERYONE,
        carry=Stage.Carry.FACTOR,
        carry_factor=Decimal("0.5"),
    )
    event = Event.objects.get(pk=event.pk)
    play_first_session(event)
    cut(event, 2)
    # Session 2: A B C D again, 40,000/30,000/20,000/10,000: A +60, B +10, C -20, D -50.
    final_game(session_of(event, 2), ["A", "B", "C", "D"], WIDE, 1)
    regular, final = team_tables(Event.objects.get(pk=event.pk))
    assert totals(regular)[0] == ("1", "Blue", Decimal("20.0"))
    # Each member carries half their regular season (Red: A 27.5, E -25.0 = 2.5), plus the
    # final: Red 2.5 + 60 = 62.5; Blue 10.0 + 10 = 20.0; Gold 7.5 - 50 = -42.5;
    # Green -20.0 - 20 = -40.0.
    assert totals(final) == [
        ("1", "Red", Decimal("62.5")),
        ("2", "Blue", Decimal("20.0")),
        ("3", "Green", Decimal("-40.0")),
        ("4", "Gold", Decimal("-42.5")),
    ]
    red = final.rows[0]
    assert (red.carried, red.match_points) == (Decimal("2.5"), Decimal("60.0"))
    # The final counts only each team's best member: Red A 27.5 + 60 = 87.5; Blue F 5 or
    # B 5 + 10 = 15; Gold H 30.0 (D 22.5 - 50 = -27.5); Green C -10 - 20 = -30, G -10.
    final_stage = Stage.objects.get(event=event, number=2)
    services.change_stage(
        final_stage.pk,
        services.StagePlan(
            name="Final",
            first_session=2,
            last_session=2,
            entrants=Stage.Entrants.EVERYONE,
            carry=Stage.Carry.FACTOR,
            carry_factor=Decimal("0.5"),
            team_best=1,
        ),
    )
    _regular, final = team_tables(Event.objects.get(pk=event.pk))
    assert totals(final) == [
        ("1", "Red", Decimal("87.5")),
        ("2", "Gold", Decimal("30.0")),
        ("3", "Blue", Decimal("15.0")),
        ("4", "Green", Decimal("-10.0")),
    ]


def test_the_team_table_page_and_its_exports_show_the_same_numbers(organiser, client):
    event = team_event(organiser)
    make_teams(event, TEAMS)
    play_first_session(event)
    address = reverse("tournaments:team_standings", args=[event.slug])
    page = client.get(address)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Blue" in text and "+20.0" in text
    exported = client.get(address + "?_export=csv")
    assert exported.status_code == 200
    rows = exported.content.decode().splitlines()
    assert rows[1].split(",")[:6] == ["", "1", "Blue", "0.0", "20.0", "20.0"]


def captain_client(django_user_model, team: Team, name: str, client_class):
    user = django_user_model.objects.create_user(username=name.lower(), password="x-long-password")
    player = Player.objects.get(display_name=name)
    player.user = user
    player.save(update_fields=["user"])
    services.set_captain(team.pk, player.pk)
    client = client_class()
    client.force_login(user)
    return client


@pytest.fixture
def league(organiser, django_user_model):
    from django.test import Client

    event = team_event(organiser, "league", sessions=2)
    teams = make_teams(event, {**TEAMS, "Red": ["A", "E", "R"]})
    services.set_lineup_deadline(
        session_of(event, 1).pk, timezone.now() + datetime.timedelta(hours=2)
    )
    return {
        "event": event,
        "teams": teams,
        "red": captain_client(django_user_model, teams["Red"], "A", Client),
        "blue": captain_client(django_user_model, teams["Blue"], "B", Client),
        "address": reverse("tournaments:lineups", args=[event.slug, 1]),
    }


def test_a_line_up_is_hidden_before_the_deadline_and_shown_after(
    league, organiser_client, anonymous
):
    red = league["red"]
    ids = list(Player.objects.filter(display_name__in=["A", "R"]).values_list("pk", flat=True))
    answer = red.post(league["address"], {"action": "submit", "players": ids})
    assert answer.status_code == 302
    lineup = LineUp.objects.get(team=league["teams"]["Red"])
    assert sorted(p.display_name for p in lineup.players.all()) == ["A", "R"]
    shown = "A, R"
    # Before the deadline: the captain and the organisers see it; the other captain and
    # the public see only that Red has sent one.
    assert shown in red.get(league["address"]).content.decode()
    assert shown in organiser_client.get(league["address"]).content.decode()
    for other in (league["blue"], anonymous):
        page = other.get(league["address"]).content.decode()
        assert page.count("Red") >= 1 and shown not in page
        assert "hidden until the deadline" in page
    Session.objects.filter(pk=lineup.session_id).update(
        lineup_deadline=timezone.now() - datetime.timedelta(minutes=1)
    )
    for other in (league["blue"], anonymous):
        assert shown in other.get(league["address"]).content.decode()


def test_a_line_up_after_the_deadline_or_of_strangers_is_refused(league, stranger_client):
    red = league["red"]
    blue_player = Player.objects.get(display_name="F").pk
    # A player of another team.
    page = red.post(league["address"], {"action": "submit", "players": [blue_player]})
    assert (
        page.status_code == 200 and "is not one of the available choices" in page.content.decode()
    )
    # None at all.
    page = red.post(league["address"], {"action": "submit"})
    assert "Choose at least one member to play." in page.content.decode()
    # A stranger may read but not post.
    assert stranger_client.post(league["address"], {"action": "submit"}).status_code == 403
    assert not LineUp.objects.exists()
    # After the deadline.
    Session.objects.filter(event=league["event"], number=1).update(
        lineup_deadline=timezone.now() - datetime.timedelta(minutes=1)
    )
    a = Player.objects.get(display_name="A").pk
    page = red.post(league["address"], {"action": "submit", "players": [a]})
    assert "Line-ups for this session are closed." in page.content.decode()
    with pytest.raises(services.TeamRefused, match="has passed"):
        services.submit_lineup(league["teams"]["Red"].pk, session_of(league["event"], 1).pk, [a])
    assert not LineUp.objects.exists()


def test_team_changes_that_break_the_rules_are_refused_and_store_nothing(organiser):
    event = team_event(organiser)
    teams = make_teams(event, TEAMS)
    red, blue = teams["Red"], teams["Blue"]
    b = Player.objects.get(display_name="B")
    outsider = Player.objects.create(display_name="Outsider")
    before = list(TeamMember.objects.values_list("team_id", "player_id"))
    with pytest.raises(services.TeamRefused, match="in team Blue already"):
        services.add_member(red.pk, b.pk)
    with pytest.raises(services.TeamRefused, match="roster"):
        services.add_member(red.pk, outsider.pk)
    with pytest.raises(services.TeamRefused, match="captain must be a member"):
        services.set_captain(red.pk, b.pk)
    with pytest.raises(services.TeamRefused, match="already"):
        services.create_team(event.pk, " red ")
    with pytest.raises(services.TeamRefused, match="1 to 60"):
        services.create_team(event.pk, "x" * 61)
    with pytest.raises(services.TeamRefused, match="best 1 to 12"):
        services.set_team_settings(event.pk, team_event=True, team_best=0)
    with pytest.raises(services.StageRefused, match="best 1 to 12"):
        services.add_stage(
            event.pk,
            services.StagePlan(name="Final", first_session=1, last_session=1, team_best=13),
        )
    assert list(TeamMember.objects.values_list("team_id", "player_id")) == before
    assert Team.objects.get(pk=blue.pk).captain is None
    # Not a team event: no deadline.
    plain = staged_event(organiser, "plain", 1)
    with pytest.raises(services.TeamRefused, match="not a team event"):
        services.set_lineup_deadline(session_of(plain, 1).pk, timezone.now())


def test_the_team_pages_refuse_bad_input_with_a_message(organiser, organiser_client):
    event = team_event(organiser)
    teams = make_teams(event, TEAMS)
    address = reverse("tournaments:teams", args=[event.slug])
    page = organiser_client.post(
        address, {"action": "settings", "team_event": "on", "team_best": "0"}
    )
    assert page.status_code == 200
    assert Event.objects.get(pk=event.pk).team_best is None
    page = organiser_client.post(address, {"action": "create", "name": "Red"})
    assert "The event has a team called Red already." in page.content.decode()
    team_address = reverse("tournaments:team", args=[event.slug, teams["Red"].pk])
    page = organiser_client.post(team_address, {"action": "remove", "player": "x"}, follow=True)
    assert "Choose a member of the team." in page.content.decode()
    assert Team.objects.count() == 4 and TeamMember.objects.count() == 8


def teammates_apart(event: Event) -> None:
    team_of = dict(TeamMember.objects.filter(event=event).values_list("player_id", "team_id"))
    for session in event.sessions.all():
        for game in session.games.all():
            teams = [team_of[s.player_id] for s in game.seats.all()]
            assert len(teams) == len(set(teams)), (session.number, game.table_number)


@pytest.mark.slow
def test_seating_a_team_season_through_the_app_never_seats_teammates_together(
    organiser, organiser_client
):
    # Six teams of four, six sessions: the first seated through the page, the rest by the
    # same proposal the page makes.
    event = team_event(organiser, "season-seating", sessions=6)
    make_teams(event, {f"Team {t}": [f"P{t}{m}" for m in range(4)] for t in range(6)})
    address = reverse("tournaments:seat_players", args=[event.slug, 1])
    preview = organiser_client.post(
        address, {"preview": "1", "method": "balanced", "rounds": "6", "entry_mode": "hands"}
    )
    assert preview.status_code == 200, preview.content.decode()[:500]
    assert "Line-ups sent: 0 of 6 teams" in preview.content.decode()
    plan = preview.context["plan_json"]
    confirmed = organiser_client.post(
        address, {"confirm": "1", "plan": plan, "entry_mode": "hands"}
    )
    assert confirmed.status_code == 302
    for number in range(2, 7):
        session = session_of(event, number)
        proposal = seat_plans.propose(session, "balanced", rounds=6, seed=number)
        services.seat_session(session.pk, proposal.plan())
    teammates_apart(event)
    assert sum(s.games.count() for s in event.sessions.all()) == 36
    # Swiss seating is refused for teams, with the reason.
    page = organiser_client.post(
        reverse("tournaments:seat_players", args=[event.slug, 1]),
        {"preview": "1", "method": "swiss", "rounds": "6", "entry_mode": "hands"},
    )
    assert "Swiss seating does not keep teams apart" in page.content.decode()


def test_seating_uses_the_line_ups_and_leaves_reserves_out(organiser):
    event = team_event(organiser, "lineup-seating", sessions=1)
    teams = make_teams(event, {f"Team {t}": [f"P{t}{m}" for m in range(3)] for t in range(4)})
    reserve = Player.objects.create(display_name="Reserve")
    services.add_to_roster(event.pk, [reserve])
    services.add_member(teams["Team 0"].pk, reserve.pk, reserve=True)
    session = session_of(event, 1)
    services.set_lineup_deadline(session.pk, timezone.now() + datetime.timedelta(hours=1))
    chosen = Player.objects.filter(display_name__in=["P00", "Reserve"])
    services.submit_lineup(teams["Team 0"].pk, session.pk, [p.pk for p in chosen])
    playing = {p.display_name for p in seat_plans.playing(session)}
    # Team 0 sends P00 and the reserve; the others all their regulars.
    assert playing == {"P00", "Reserve"} | {f"P{t}{m}" for t in range(1, 4) for m in range(3)}
    proposal = seat_plans.propose(session, "balanced", seed=1)
    assert len(proposal.tables) == 2 and len(proposal.sitting_out) == 3
    for table in proposal.tables:
        names = [p.display_name for _wind, p in table.seats]
        teams_at = ["Team 0" if n == "Reserve" else f"Team {n[1]}" for n in names]
        assert len(teams_at) == len(set(teams_at))


def test_a_backup_restores_teams_line_ups_and_the_team_table(league):
    from django.contrib.auth import get_user_model

    from tournaments.backup import dump_site, restore_site

    event = league["event"]
    ids = list(Player.objects.filter(display_name__in=["A", "R"]).values_list("pk", flat=True))
    services.submit_lineup(league["teams"]["Red"].pk, session_of(event, 1).pk, ids)
    services.set_team_settings(event.pk, team_event=True, team_best=2)
    final_game(session_of(event, 2), ["A", "B", "C", "D"], EVEN, 1)
    before = [totals(t) for t in team_tables(Event.objects.get(pk=event.pk))]
    document = json.loads(json.dumps(dump_site()))
    Event.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()
    restore_site(document)
    event = Event.objects.get(slug="league")
    assert (event.team_event, event.team_best) == (True, 2)
    assert [totals(t) for t in team_tables(event)] == before
    red = Team.objects.get(event=event, name="Red")
    assert red.captain.display_name == "A" and red.captain.user.username == "a"
    assert sorted(red.members.values_list("player__display_name", flat=True)) == ["A", "E", "R"]
    lineup = LineUp.objects.get(team=red)
    assert sorted(p.display_name for p in lineup.players.all()) == ["A", "R"]
    assert session_of(event, 1).lineup_deadline is not None


def test_a_session_is_not_seated_before_its_line_up_deadline_nor_with_teammates_together(
    league, organiser_client
):
    event = league["event"]
    session = session_of(event, 1)
    address = reverse("tournaments:seat_players", args=[event.slug, 1])
    page = organiser_client.get(address).content.decode()
    assert "Captains may send line-ups for session 1 until" in page
    by_name = dict(Player.objects.values_list("display_name", "pk"))
    apart = [[by_name[n] for n in "ABCD"], [by_name[n] for n in "EFGH"]]
    with pytest.raises(services.GameChangeRefused, match="may still send line-ups"):
        services.seat_session(session.pk, apart)
    answer = organiser_client.post(address, {"confirm": "1", "plan": json.dumps(apart)})
    assert answer.status_code == 200 and not session.games.exists()
    # After the deadline: a plan with two players of Red at a table is refused by name.
    Session.objects.filter(pk=session.pk).update(
        lineup_deadline=timezone.now() - datetime.timedelta(minutes=1)
    )
    together = [[by_name[n] for n in "AEBC"], [by_name[n] for n in "DFGH"]]
    with pytest.raises(services.GameChangeRefused) as refused:
        services.seat_session(session.pk, together)
    assert str(refused.value) == (
        "Table 1: A and E are in the same team; seat players of one team at different tables."
    )
    assert not session.games.exists()
    services.seat_session(session.pk, apart)
    assert session.games.count() == 2


def test_a_line_up_shows_to_everyone_once_its_session_is_seated(league, anonymous):
    event = league["event"]
    session = session_of(event, 1)
    ids = list(Player.objects.filter(display_name__in=["A", "R"]).values_list("pk", flat=True))
    services.submit_lineup(league["teams"]["Red"].pk, session.pk, ids)
    # The organisers clear the deadline (line-ups closed) and seat the session.
    services.set_lineup_deadline(session.pk, None)
    address = league["address"]
    assert "A, R" not in anonymous.get(address).content.decode()
    by_name = dict(Player.objects.values_list("display_name", "pk"))
    services.seat_session(session.pk, [[by_name[n] for n in "ABCD"]])
    assert "A, R" in anonymous.get(address).content.decode()


def test_a_stage_that_hides_its_totals_hides_the_team_table_from_players(
    organiser, organiser_client, anonymous
):
    event = team_event(organiser, "hidden-teams", sessions=1)
    make_teams(event, TEAMS)
    first = stage(event, "Regular season", 1, 1)
    play_first_session(event)
    services.hide_stage_totals(first.pk, True)
    address = reverse("tournaments:team_standings", args=[event.slug])
    page = anonymous.get(address).content.decode()
    assert "+20.0" not in page and "hide the totals" in page
    assert anonymous.get(address + "?_export=csv").status_code == 404
    assert "+20.0" in organiser_client.get(address).content.decode()

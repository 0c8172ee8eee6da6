"""Seating a three-player (sanma) event through the pages: tables of three, East, South and
West on the seating list and the slips, a tenth player sitting out, and fixed plans of
three names a line."""

from __future__ import annotations

import datetime
import json

import pytest

from tournaments import services
from tournaments.models import Event, Game, GameSeat, Player, Session

from .test_seating_views import roster, seat, sessions, tables_of, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def sanma(organiser):
    event = Event.objects.create(
        name="Sanma Cup",
        slug="sanma-cup",
        starts_on=datetime.date(2026, 9, 3),
        rules_preset="tenhou-sanma",
    )
    event.organisers.add(organiser)
    return event


def test_nine_players_are_seated_at_three_tables_of_three_through_the_page(
    organiser_client, anonymous, sanma
):
    players = roster(sanma, 9)
    (first, *_) = sessions(sanma, 4)
    page, proposal, done = seat(organiser_client, sanma, 1, method="balanced", rounds="4")
    text = page.content.decode()
    assert "Preview: 3 tables, 0 repeated meetings" in text
    assert [len(t.seats) for t in proposal.tables] == [3, 3, 3]
    assert [w for w, _ in proposal.tables[0].seats] == ["East", "South", "West"]
    assert "North" not in text.split('id="preview-title"')[1].split("</section>")[0]
    assert "Session 1 is seated at 3 tables." in done.content.decode()

    tables = tables_of(first)
    assert len(tables) == 3 and all(len(t) == 3 for t in tables)
    assert sorted(p for t in tables for p in t) == sorted(p.pk for p in players)
    assert list(
        GameSeat.objects.filter(game__session=first)
        .values_list("seat", flat=True)
        .distinct()
        .order_by("seat")
    ) == [0, 1, 2]
    assert all(g.status == Game.Status.IN_PROGRESS for g in first.games.all())

    listing = anonymous.get(url("seating_list", sanma.slug, 1))
    assert listing.status_code == 200
    assert [str(w) for w in listing.context["winds"]] == ["East", "South", "West"]
    body = listing.content.decode()
    header = body.split('class="seating-by-table"')[1].split("</thead>")[0]
    assert ">East<" in header and ">West<" in header and "North" not in header
    assert {str(r["wind"]) for r in listing.context["by_name"]} == {"East", "South", "West"}
    assert "Sitting out:" not in body

    slips = organiser_client.get(url("session_slips", sanma.slug, 1))
    assert slips.status_code == 200
    text = slips.content.decode()
    assert text.count('class="table-slip"') == 3
    assert text.count('<span class="wind">') == 9 and "North" not in text


def test_later_sessions_of_nine_players_meet_new_opponents(organiser_client, sanma):
    roster(sanma, 9)
    sessions(sanma, 4)
    met = set()
    for number in (1, 2, 3, 4):
        _, proposal, _ = seat(organiser_client, sanma, number, method="balanced", rounds="4")
        assert proposal.repeats == 0
        tables = tables_of(sanma.sessions.get(number=number))
        pairs = {frozenset((a, b)) for t in tables for a in t for b in t if a != b}
        assert not pairs & met
        met |= pairs
    assert len(met) == 36  # every pair of the nine has met exactly once


def test_a_tenth_player_sits_out_and_is_named(organiser_client, sanma):
    roster(sanma, 10)
    sessions(sanma, 1)
    page, proposal, _ = seat(organiser_client, sanma, 1, method="random", rounds="1")
    assert len(proposal.tables) == 3 and len(proposal.sitting_out) == 1
    text = " ".join(page.content.decode().split())
    assert f"Sitting out:</strong> {proposal.sitting_out[0]}" in text
    assert "1 player does not fit at tables of 3 and sits out this session" in text
    seated = [p for t in tables_of(sanma.sessions.get(number=1)) for p in t]
    assert len(seated) == 9 and proposal.sitting_out[0].pk not in seated


def test_a_plan_of_four_a_table_is_refused_for_a_three_player_event(organiser_client, sanma):
    players = roster(sanma, 8)
    sessions(sanma, 1)
    plan = json.dumps([[p.pk for p in players[:4]], [p.pk for p in players[4:]]])
    response = organiser_client.post(
        url("seat_players", sanma.slug, 1), {"confirm": "1", "plan": plan}, follow=True
    )
    assert "The roster changed since the preview" in response.content.decode()
    assert not Game.objects.exists()
    session = sanma.sessions.get(number=1)
    with pytest.raises(services.GameChangeRefused, match="three-player event needs three"):
        services.seat_session(session.pk, [[p.pk for p in players[:4]]])
    assert not Game.objects.exists()


def test_a_fixed_plan_of_three_names_a_line_is_seated_in_that_order(organiser_client, sanma):
    roster(sanma, 6)
    sessions(sanma, 1)
    form = organiser_client.get(url("seat_players", sanma.slug, 1)).content.decode()
    assert "three names in seat order East, South, West" in form
    assert "1st to 3rd at table 1" in form
    text = "Player 03, Player 01, Player 02\nPlayer 04,Player 05,Player 06\n"
    seat(organiser_client, sanma, 1, method="fixed", rounds="1", tables=text)
    names = [
        s.player.display_name
        for s in GameSeat.objects.filter(game__table_number=1)
        .select_related("player")
        .order_by("seat")
    ]
    assert names == ["Player 03", "Player 01", "Player 02"]


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        (
            "Player 01, Player 02, Player 03, Player 04",
            "Line 1 names 4 players; a table of this three-player event needs exactly three",
        ),
        ("Player 01, Player 02", "Line 1 names 2 players; a table of this three-player event"),
        ("", "three names separated by commas"),
    ],
)
def test_a_fixed_plan_not_of_threes_is_refused_with_the_reason(
    organiser_client, sanma, tables, message
):
    roster(sanma, 6)
    sessions(sanma, 1)
    page = organiser_client.post(
        url("seat_players", sanma.slug, 1),
        {"preview": "1", "method": "fixed", "rounds": "1", "tables": tables},
    )
    assert message in page.content.decode()
    assert "proposal" not in page.context
    assert not Game.objects.exists()


def test_two_players_are_too_few_for_a_three_player_event(organiser_client, sanma):
    roster(sanma, 2)
    sessions(sanma, 1)
    page = organiser_client.post(
        url("seat_players", sanma.slug, 1), {"preview": "1", "method": "random", "rounds": "1"}
    )
    assert (
        "2 player(s) on the roster take part in session 1; a plan of this three-player event "
        "needs at least 3." in page.content.decode()
    )
    assert not Game.objects.exists()
    # Three are enough: one table.
    Player.objects.create(display_name="Player 03")
    services.add_names_to_roster(sanma.pk, ["Player 03"], create=False)
    _, proposal, _ = seat(organiser_client, sanma, 1, method="random", rounds="1")
    assert len(proposal.tables) == 1 and Game.objects.count() == 1


def test_a_four_player_event_still_seats_four_with_north(organiser_client, event):
    roster(event, 8)
    sessions(event, 1)
    seat(organiser_client, event, 1, method="random", rounds="1")
    assert all(len(t) == 4 for t in tables_of(Session.objects.get(event=event, number=1)))
    listing = organiser_client.get(url("seating_list", event.slug, 1)).content.decode()
    assert "North" in listing.split('class="seating-by-table"')[1].split("</thead>")[0]


def test_the_seating_list_of_a_three_player_event_reads_in_japanese(
    organiser_client, anonymous, sanma
):
    roster(sanma, 6)
    sessions(sanma, 1)
    seat(organiser_client, sanma, 1, method="random", rounds="1")
    html = anonymous.get(
        url("seating_list", sanma.slug, 1), headers={"accept-language": "ja"}
    ).content.decode()
    header = html.split('class="seating-by-table"')[1].split("</thead>")[0]
    assert ">東<" in header and ">南<" in header and ">西<" in header and "北" not in header
    form = organiser_client.get(
        url("seat_players", sanma.slug, 1), headers={"accept-language": "ja"}
    ).content.decode()
    assert "3人の名前を東・南・西の席順でカンマ区切り" in form

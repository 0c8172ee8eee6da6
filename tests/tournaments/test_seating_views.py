"""Seating a session from the roster through the pages: method, preview with repeat counts,
the games created in one go, seating again, and the seating list. As an organiser, another
user and a visitor."""

from __future__ import annotations

import datetime
import json
import random
from itertools import combinations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.simulate import random_record
from tournaments import services
from tournaments.models import Game, GameSeat, Player, Session, TrailEntry

pytestmark = pytest.mark.django_db

DRAW = {"result": "draw", "riichi": [], "tenpai": []}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def roster(event, count: int) -> list[Player]:
    names = [f"Player {n:02d}" for n in range(1, count + 1)]
    services.add_names_to_roster(event.pk, names, create=True)
    return list(Player.objects.filter(display_name__in=names))


def sessions(event, count: int) -> list[Session]:
    start = datetime.date(2026, 9, 3)
    return [
        Session.objects.get_or_create(
            event=event, number=n, defaults={"date": start + datetime.timedelta(days=n)}
        )[0]
        for n in range(1, count + 1)
    ]


def seat(client, event, number: int, **data):
    """Preview through the form, then create the games from the previewed plan."""
    page = client.post(url("seat_players", event.slug, number), {"preview": "1", **data})
    assert page.status_code == 200
    proposal = page.context["proposal"]
    done = client.post(
        url("seat_players", event.slug, number),
        {"confirm": "1", "plan": page.context["plan_json"]},
        follow=True,
    )
    return page, proposal, done


def tables_of(session) -> list[list[int]]:
    games = session.games.prefetch_related("seats").order_by("table_number")
    return [[s.player_id for s in sorted(g.seats.all(), key=lambda s: s.seat)] for g in games]


def pairs(tables) -> set[frozenset]:
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


@pytest.mark.slow
def test_a_36_player_roster_is_seated_round_after_round_avoiding_pairs_already_met(
    organiser_client, event
):
    players = roster(event, 36)
    first, second, *_ = sessions(event, 8)

    page, proposal, done = seat(organiser_client, event, 1, method="balanced", rounds="8")
    assert "Preview: 9 tables, 0 repeated meetings" in page.content.decode()
    assert proposal.repeats == 0
    assert done.redirect_chain[-1][0] == url("seating_list", event.slug, 1)
    assert "Session 1 is seated at 9 tables." in done.content.decode()
    round_one = tables_of(first)
    assert len(round_one) == 9 and sorted(p for t in round_one for p in t) == sorted(
        p.pk for p in players
    )

    # Play the round: every table plays a whole game, hand by hand.
    rng = random.Random(9)
    for game in first.games.all():
        for number, hand in enumerate(random_record(rng, "ari-ari")["hands"], start=1):
            services.add_hand(game.pk, number, hand)
    assert first.games.finished().count() == 9

    page, proposal, done = seat(organiser_client, event, 2, method="balanced", rounds="8")
    assert proposal.repeats == 0
    round_two = tables_of(second)
    assert len(round_two) == 9
    assert not pairs(round_one) & pairs(round_two)
    seated = TrailEntry.objects.filter(kind=TrailEntry.Kind.SEATS_CHANGED, session_number=2)
    assert seated.count() == 9 and {e.author for e in seated} == {"Olive (organiser)"}
    # Every player once, and the winds are shared out: nobody is East twice so far.
    assert sorted(p for t in round_two for p in t) == sorted(p.pk for p in players)
    easts = [t[0] for t in round_one + round_two]
    assert len(easts) == len(set(easts))


def test_a_withdrawn_player_is_not_seated_and_others_sit_out_in_turn(organiser_client, event):
    players = roster(event, 18)
    sessions(event, 3)
    seat(organiser_client, event, 1, method="balanced", rounds="3")
    services.withdraw_from_roster(event.pk, players[0].pk, 2)

    page, proposal, _ = seat(organiser_client, event, 2, method="balanced", rounds="3")
    seated = {p for t in tables_of(Session.objects.get(event=event, number=2)) for p in t}
    assert players[0].pk not in seated
    assert len(seated) == 16 and len(proposal.sitting_out) == 1
    assert f"Sitting out:</strong> {proposal.sitting_out[0]}" in page.content.decode()
    first_out = {p.pk for p in players} - {
        p for t in tables_of(event.sessions.get(number=1)) for p in t
    }
    assert proposal.sitting_out[0].pk not in first_out


def test_a_session_is_seated_again_while_no_hand_is_entered(organiser_client, event):
    roster(event, 8)
    (first,) = sessions(event, 1)
    seat(organiser_client, event, 1, method="random", rounds="1")
    before = set(first.games.values_list("pk", flat=True))

    page = organiser_client.get(url("seat_players", event.slug, 1))
    assert "This session is seated already." in page.content.decode()
    seat(organiser_client, event, 1, method="random", rounds="1")

    assert first.games.count() == 2
    assert not before & set(first.games.values_list("pk", flat=True))


def test_seating_a_session_with_hands_is_refused_and_nothing_changes(organiser_client, event):
    roster(event, 8)
    (first,) = sessions(event, 1)
    page, _, _ = seat(organiser_client, event, 1, method="random", rounds="1")
    game = first.games.first()
    services.add_hand(game.pk, 1, DRAW)
    before = tables_of(first)

    response = organiser_client.post(
        url("seat_players", event.slug, 1),
        {"confirm": "1", "plan": page.context["plan_json"]},
        follow=True,
    )
    text = response.content.decode()
    assert "Session 1 has results entered already, so it cannot be seated again." in text
    assert tables_of(first) == before and game.hands.count() == 1
    # The form itself is not offered either.
    page = organiser_client.get(url("seat_players", event.slug, 1))
    assert "cannot be seated again" in page.content.decode()
    assert "Preview the tables" not in page.content.decode()
    with pytest.raises(services.GameChangeRefused, match="cannot be seated again"):
        services.seat_session(first.pk, before)


def test_fewer_than_four_players_on_the_roster_are_not_seated(organiser_client, event):
    roster(event, 3)
    sessions(event, 1)
    page = organiser_client.post(
        url("seat_players", event.slug, 1), {"preview": "1", "method": "random", "rounds": "1"}
    )
    assert "3 player(s) on the roster take part in session 1; a plan needs at least 4." in (
        page.content.decode()
    )
    assert "proposal" not in page.context
    assert not Game.objects.exists()


def test_an_organiser_types_a_fixed_plan_and_its_repeats_are_counted(organiser_client, event):
    roster(event, 8)
    sessions(event, 2)
    text = "Player 01, Player 02, Player 03, Player 04\nplayer 05,Player 06,Player 07,Player 08\n"
    seat(organiser_client, event, 1, method="fixed", rounds="2", tables=text)
    page, proposal, _ = seat(organiser_client, event, 2, method="fixed", rounds="2", tables=text)
    assert [t.repeats for t in proposal.tables] == [6, 6]
    assert "6 repeats" in page.content.decode()
    names = [
        s.player.display_name
        for s in GameSeat.objects.filter(game__session__number=2, game__table_number=1)
        .select_related("player")
        .order_by("seat")
    ]
    assert names == ["Player 01", "Player 02", "Player 03", "Player 04"]


def test_a_fixed_plan_can_be_uploaded_as_csv(organiser_client, event):
    roster(event, 4)
    sessions(event, 1)
    upload = SimpleUploadedFile("tables.csv", b"Player 04,Player 03,Player 02,Player 01\r\n")
    page = organiser_client.post(
        url("seat_players", event.slug, 1),
        {"preview": "1", "method": "fixed", "rounds": "1", "upload": upload},
    )
    assert page.context["proposal"].plan() == [
        [Player.objects.get(display_name=f"Player 0{n}").pk for n in (4, 3, 2, 1)]
    ]


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        (
            "Player 01, Player 02, Player 03, Player 04\n"
            "Player 05, Player 06, Player 07, Player 01",
            "Player 01 is at table 1 and at table 2; seat every player at one table only.",
        ),
        ("Player 01, Player 02, Player 03", "Line 1 names 3 players; a table needs exactly four"),
        (
            "Player 01, Player 02, Player 03, Nobody",
            "Line 1: Nobody is not taking part in this session.",
        ),
        ("", "A fixed plan needs its tables"),
    ],
)
def test_bad_fixed_plans_are_refused_with_the_reason_and_nothing_stored(
    organiser_client, event, tables, message
):
    roster(event, 8)
    sessions(event, 1)
    page = organiser_client.post(
        url("seat_players", event.slug, 1),
        {"preview": "1", "method": "fixed", "rounds": "1", "tables": tables},
    )
    assert message in page.content.decode()
    assert "proposal" not in page.context
    assert not Game.objects.exists()


def test_a_damaged_or_stale_plan_is_refused(organiser_client, event):
    players = roster(event, 8)
    sessions(event, 1)
    stranger = Player.objects.create(display_name="Not Entered")
    for plan in (
        "not json",
        json.dumps([[p.pk for p in players[:3]] + [stranger.pk]]),
        json.dumps([[players[0].pk] * 4]),
    ):
        response = organiser_client.post(
            url("seat_players", event.slug, 1), {"confirm": "1", "plan": plan}, follow=True
        )
        assert "The roster changed since the preview" in response.content.decode()
    assert not Game.objects.exists()


def test_swiss_seats_the_leaders_together(organiser_client, event):
    players = roster(event, 8)
    first, _ = sessions(event, 2)
    seat(organiser_client, event, 1, method="random", rounds="2")
    # The East player of each table wins a big hand: they lead the standings.
    leaders = []
    for game in first.games.all():
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        leaders.append(seats[0].player_id)
        game.entry_mode = Game.EntryMode.FINAL_SCORES
        game.save(update_fields=["entry_mode"])
        services.set_final_scores(game.pk, [40000, 25000, 20000, 15000], 0)
    _, proposal, _ = seat(organiser_client, event, 2, method="swiss", rounds="2")
    top = set(proposal.tables[0].player_ids)
    assert set(leaders) <= top
    assert len(players) == 8


def test_only_organisers_seat_players(client, event, stranger):
    roster(event, 4)
    sessions(event, 1)
    target = url("seat_players", event.slug, 1)
    assert client.get(target).status_code == 302  # to the login page
    client.force_login(stranger)
    assert client.get(target).status_code == 403
    assert client.post(target, {"confirm": "1", "plan": "[]"}).status_code == 403
    assert not Game.objects.exists()


def test_the_seating_list_shows_tables_and_names_a_to_z_to_everyone(
    organiser_client, anonymous, event
):
    roster(event, 9)
    sessions(event, 1)
    seat(organiser_client, event, 1, method="balanced", rounds="1")
    page = anonymous.get(url("seating_list", event.slug, 1))
    assert page.status_code == 200
    rows = page.context["by_name"]
    assert [r["player"].display_name for r in rows] == sorted(
        r["player"].display_name for r in rows
    )
    assert len(rows) == 8 and {r["wind"] for r in rows} == {"East", "South", "West", "North"}
    text = page.content.decode()
    assert "Sitting out:" in text and "Seat the players" not in text
    assert (
        organiser_client.get(url("session", event.slug, 1))
        .content.decode()
        .count(url("seating_list", event.slug, 1))
    )


def test_a_table_playing_several_games_is_listed_once(anonymous, event):
    players = roster(event, 4)
    (first,) = sessions(event, 1)
    # One game at a time at a table: the first two are played out before the next.
    for _ in range(2):
        game = services.create_game(first, players, table_number=1)
        for number in range(1, 9):
            services.add_hand(game.pk, number, {"result": "draw", "riichi": [], "tenpai": []})
    services.create_game(first, players, table_number=1)
    page = anonymous.get(url("seating_list", event.slug, 1))
    assert len(page.context["games"]) == 1 and len(page.context["by_name"]) == 4
    assert page.context["games"][0] == first.games.order_by("pk").first()


def test_more_rounds_than_a_plan_can_have_are_refused(organiser_client, event):
    roster(event, 8)
    sessions(event, 1)
    page = organiser_client.post(
        url("seat_players", event.slug, 1), {"preview": "1", "method": "balanced", "rounds": "31"}
    )
    assert "A plan can have at most 30 rounds; give fewer." in page.content.decode()
    assert "proposal" not in page.context and not Game.objects.exists()

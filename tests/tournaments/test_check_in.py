"""Check-in before seating a session, the event's substitute pool, substitutes filling
short tables, and seating's entry mode: through the pages, as an organiser, as another
user and as a visitor, for four-player and three-player events."""

from __future__ import annotations

import datetime

import pytest

from tournaments import services
from tournaments.models import CheckIn, Event, Game, GameSeat, Player, RosterEntry

from .test_seating_views import roster, sessions, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(event):
    """Sixteen regular players and two substitutes in the pool, one session."""
    players = roster(event, 16)
    pool = roster_pool(event, ["Sub One", "Sub Two"])
    sessions(event, 1)
    return event, players, pool


@pytest.fixture
def sanma(organiser):
    event = Event.objects.create(
        name="Sanma Day",
        slug="sanma-day",
        starts_on=datetime.date(2026, 9, 3),
        rules_preset="tenhou-sanma",
    )
    event.organisers.add(organiser)
    return event


def roster_pool(event, names: list[str]) -> list[Player]:
    services.add_names_to_roster(event.pk, names, create=True)
    pool = list(Player.objects.filter(display_name__in=names).order_by("display_name"))
    for player in pool:
        services.set_substitute(event.pk, player.pk, True)
    return pool


def check_in(client, event, **data):
    return client.post(url("check_in", event.slug, 1), data)


def preview(client, event, **data):
    page = client.post(url("seat_players", event.slug, 1), {"preview": "1", "rounds": "1", **data})
    assert page.status_code == 200
    return page


def confirm(client, event, page):
    data = {"confirm": "1", "plan": page.context["plan_json"]}
    data["entry_mode"] = page.context["entry_mode"]
    if page.context["fill"]:
        data["fill"] = "1"
    return client.post(url("seat_players", event.slug, 1), data, follow=True)


def seated_ids(event) -> set[int]:
    return set(
        GameSeat.objects.filter(game__session__event=event).values_list("player_id", flat=True)
    )


# The check-in page


def test_the_check_in_page_lists_the_roster_and_the_pool_for_the_organiser(organiser_client, day):
    event, players, pool = day
    page = organiser_client.get(url("check_in", event.slug, 1))
    assert page.status_code == 200
    text = page.content.decode()
    assert "All present" in text and "Player 01" in text and "Sub One" in text
    assert "Nobody is checked in yet" in text
    assert text.count('value="present"') == 18  # every regular and substitute unmarked


def test_all_present_marks_every_regular_player_and_leaves_the_pool_free(organiser_client, day):
    event, players, pool = day
    response = check_in(organiser_client, event, action="all")
    assert response.status_code == 302
    marks = dict(CheckIn.objects.values_list("player_id", "present"))
    assert marks == {p.pk: True for p in players}
    page = organiser_client.get(url("check_in", event.slug, 1)).content.decode()
    assert "16 of 16 checked in" in page
    seating = organiser_client.get(url("seat_players", event.slug, 1)).content.decode()
    assert "16 of 16 checked in" in seating and "2 substitutes free in the pool." in seating


def test_an_absent_player_is_not_seated_and_the_seating_page_says_so(organiser_client, day):
    event, players, pool = day
    check_in(organiser_client, event, action="all")
    check_in(organiser_client, event, action="absent", player=players[0].pk)
    absent = players[0]
    assert CheckIn.objects.get(player=absent).present is False
    page = preview(organiser_client, event, method="random")
    assert "15 of 16 checked in" in page.content.decode()
    proposal = page.context["proposal"]
    assert len(proposal.tables) == 3 and len(proposal.sitting_out) == 3
    confirm(organiser_client, event, page)
    assert absent.pk not in seated_ids(event)
    assert len(seated_ids(event)) == 12
    assert not GameSeat.objects.filter(is_substitute=True).exists()


def test_fifteen_present_fill_the_fourth_table_with_a_substitute_seat(organiser_client, day):
    """#11: Swiss seating with 15 players left three out; the pool fills the table."""
    event, players, pool = day
    check_in(organiser_client, event, action="all")
    check_in(organiser_client, event, action="absent", player=players[0].pk)
    page = preview(organiser_client, event, method="swiss", fill="on")
    proposal = page.context["proposal"]
    assert len(proposal.tables) == 4 and proposal.sitting_out == []
    assert "Substitutes seated:</strong> Sub One" in page.content.decode()
    done = confirm(organiser_client, event, page)
    assert "seated at 4 tables" in done.content.decode()
    subs = GameSeat.objects.filter(is_substitute=True).select_related("player")
    assert [s.player for s in subs] == [pool[0]]
    assert seated_ids(event) == {p.pk for p in players[1:]} | {pool[0].pk}


def test_a_no_show_replaced_from_the_pool_gives_the_substitute_a_substitute_seat(
    organiser_client, day
):
    event, players, pool = day
    check_in(organiser_client, event, action="all")
    response = check_in(
        organiser_client, event, action="replace", player=players[3].pk, substitute=pool[1].pk
    )
    assert response.status_code == 302
    no_show = CheckIn.objects.get(player=players[3])
    assert no_show.present is False and no_show.replaced_by == pool[1]
    assert CheckIn.objects.get(player=pool[1]).present is True
    text = organiser_client.get(url("check_in", event.slug, 1)).content.decode()
    assert "replaced by Sub Two" in text and "16 of 16 checked in" in text
    page = preview(organiser_client, event, method="balanced")
    confirm(organiser_client, event, page)
    assert players[3].pk not in seated_ids(event)
    seat = GameSeat.objects.get(player=pool[1])
    assert seat.is_substitute
    # The game counts for the others at the substitute's table.
    others = GameSeat.objects.filter(game=seat.game).exclude(pk=seat.pk)
    assert not others.filter(is_substitute=True).exists()


def test_without_check_in_the_regular_roster_is_seated_as_before(organiser_client, day):
    event, players, pool = day
    page = preview(organiser_client, event, method="random")
    assert "No check-in for this session" in page.content.decode()
    confirm(organiser_client, event, page)
    assert seated_ids(event) == {p.pk for p in players}
    assert Game.objects.filter(entry_mode=Game.EntryMode.HANDS).count() == 4


def test_clearing_the_check_in_seats_from_the_roster_again(organiser_client, day):
    event, players, pool = day
    check_in(organiser_client, event, action="absent", player=players[0].pk)
    assert check_in(organiser_client, event, action="clear").status_code == 302
    assert not CheckIn.objects.exists()


# Bad inputs


def test_a_player_not_on_the_roster_is_refused_and_nothing_is_stored(organiser_client, day):
    event, players, pool = day
    outsider = Player.objects.create(display_name="Outsider")
    response = check_in(organiser_client, event, action="present", player=outsider.pk)
    assert response.status_code == 400
    assert "is not on the roster for session 1" in response.content.decode()
    response = check_in(organiser_client, event, action="present", player="abc")
    assert response.status_code == 400
    assert "Choose a player from the list." in response.content.decode()
    assert check_in(organiser_client, event, action="sing").status_code == 400
    assert not CheckIn.objects.exists()


def test_a_withdrawn_player_cannot_be_checked_in(organiser_client, day):
    event, players, pool = day
    services.withdraw_from_roster(event.pk, players[0].pk, 1)
    response = check_in(organiser_client, event, action="present", player=players[0].pk)
    assert response.status_code == 400
    assert not CheckIn.objects.exists()


def test_a_substitute_already_checked_in_or_seated_is_refused(organiser_client, day):
    event, players, pool = day
    check_in(organiser_client, event, action="replace", player=players[0].pk, substitute=pool[0].pk)
    response = check_in(
        organiser_client, event, action="replace", player=players[1].pk, substitute=pool[0].pk
    )
    assert response.status_code == 400
    assert "Sub One is already checked in or seated in this session" in response.content.decode()
    assert not CheckIn.objects.filter(player=players[1]).exists()
    # A regular player is no substitute, and a substitute is not replaced.
    response = check_in(
        organiser_client, event, action="replace", player=players[1].pk, substitute=players[2].pk
    )
    assert "is not in the substitute pool" in response.content.decode()
    response = check_in(
        organiser_client, event, action="replace", player=pool[1].pk, substitute=pool[0].pk
    )
    assert "only a regular player is replaced" in response.content.decode()


def test_a_no_show_replaced_once_is_not_replaced_again_by_a_second_tap(organiser_client, day):
    event, players, pool = day
    data = {"action": "replace", "player": players[0].pk}
    check_in(organiser_client, event, **data, substitute=pool[0].pk)
    response = check_in(organiser_client, event, **data, substitute=pool[1].pk)
    assert response.status_code == 400
    assert "is replaced by Sub One already" in response.content.decode()
    assert not CheckIn.objects.filter(player=pool[1]).exists()


def test_a_substitute_seated_at_a_table_of_the_session_is_refused(organiser_client, day):
    event, players, pool = day
    session = event.sessions.get(number=1)
    services.create_game(session, [pool[0], *players[1:4]], table_number=1, substitutes=[0])
    with pytest.raises(services.GameChangeRefused, match="already checked in or seated"):
        services.replace_with_substitute(session.pk, players[5].pk, pool[0].pk)


def test_a_check_in_changed_after_the_preview_makes_the_plan_stale(organiser_client, day):
    event, players, pool = day
    check_in(organiser_client, event, action="all")
    page = preview(organiser_client, event, method="random")
    check_in(organiser_client, event, action="absent", player=players[5].pk)
    done = confirm(organiser_client, event, page)
    assert "The roster changed since the preview" in done.content.decode()
    assert not Game.objects.exists()


def test_filling_with_an_empty_pool_says_how_many_are_missing(organiser_client, event):
    players = roster(event, 7)
    sessions(event, 1)
    page = preview(organiser_client, event, method="random", fill="on")
    assert "proposal" not in page.context
    assert "short of 1 player, but the substitute pool has 0 free" in page.content.decode()
    assert CheckIn.objects.count() == 0 and len(players) == 7


# Who may


def test_a_stranger_and_a_visitor_cannot_check_in(stranger_client, anonymous, day):
    event, players, pool = day
    assert check_in(stranger_client, event, action="all").status_code == 403
    assert check_in(anonymous, event, action="all").status_code == 302
    assert stranger_client.get(url("check_in", event.slug, 1)).status_code == 403
    assert not CheckIn.objects.exists()


def test_the_organiser_moves_a_player_into_the_pool_and_back(
    organiser_client, stranger_client, day
):
    event, players, pool = day
    address = url("roster_substitute", event.slug, players[0].pk)
    assert stranger_client.post(address, {"substitute": "1"}).status_code == 403
    assert not RosterEntry.objects.get(player=players[0]).is_substitute
    assert organiser_client.post(address, {"substitute": "1"}).status_code == 302
    assert RosterEntry.objects.get(player=players[0]).is_substitute
    page = organiser_client.get(url("roster", event.slug)).content.decode()
    assert "Substitute pool" in page and "Make a regular player" in page
    organiser_client.post(address, {})
    assert not RosterEntry.objects.get(player=players[0]).is_substitute
    missing = url("roster_substitute", event.slug, 999999)
    assert organiser_client.post(missing, {"substitute": "1"}).status_code == 302
    assert RosterEntry.objects.filter(is_substitute=True).count() == 2


# Three-player events


def test_a_three_player_check_in_fills_tables_of_three_from_the_pool(organiser_client, sanma):
    players = roster(sanma, 8)
    pool = roster_pool(sanma, ["Sub One", "Sub Two"])
    sessions(sanma, 1)
    check_in(organiser_client, sanma, action="all")
    check_in(organiser_client, sanma, action="absent", player=players[0].pk)
    page = preview(organiser_client, sanma, method="random")
    assert "7 of 8 checked in" in page.content.decode()
    assert len(page.context["proposal"].tables) == 2
    page = preview(organiser_client, sanma, method="random", fill="on")
    proposal = page.context["proposal"]
    assert len(proposal.tables) == 3 and proposal.sitting_out == []
    assert all(len(table.seats) == 3 for table in proposal.tables)
    confirm(organiser_client, sanma, page)
    assert players[0].pk not in seated_ids(sanma)
    subs = set(GameSeat.objects.filter(is_substitute=True).values_list("player_id", flat=True))
    assert subs == {p.pk for p in pool}
    assert GameSeat.objects.count() == 9


# Seating's entry mode, and switching a seated game


def test_seating_creates_final_score_games_when_asked(organiser_client, day):
    event, players, pool = day
    page = preview(organiser_client, event, method="random", entry_mode="final_scores")
    confirm(organiser_client, event, page)
    games = Game.objects.filter(session__event=event)
    assert games.count() == 4
    assert set(games.values_list("entry_mode", flat=True)) == {Game.EntryMode.FINAL_SCORES}


def test_a_bad_entry_mode_on_the_seating_form_is_refused(organiser_client, day):
    event, players, pool = day
    page = preview(organiser_client, event, method="random", entry_mode="abacus")
    assert "Choose hand by hand or final scores only." in page.content.decode()
    assert "proposal" not in page.context


def test_a_seated_game_with_nothing_entered_switches_mode_on_its_page(organiser_client, game):
    page = organiser_client.get(url("game", game.pk)).content.decode()
    assert "Enter final scores only instead" in page
    response = organiser_client.post(
        url("game_entry_mode", game.pk), {"entry_mode": "final_scores"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.entry_mode == Game.EntryMode.FINAL_SCORES
    assert not game.seats.filter(score__isnull=False).exists()
    page = organiser_client.get(url("game", game.pk)).content.decode()
    assert "Enter hand by hand instead" in page
    organiser_client.post(url("game_entry_mode", game.pk), {"entry_mode": "hands"})
    game.refresh_from_db()
    assert game.entry_mode == Game.EntryMode.HANDS
    assert set(game.seats.values_list("score", flat=True)) == {25000}


def test_a_game_with_a_hand_keeps_its_mode_with_a_clear_message(organiser_client, game):
    services.add_hand(game.pk, 1, {"result": "draw", "riichi": [], "tenpai": []})
    assert (
        "Enter final scores only instead"
        not in organiser_client.get(url("game", game.pk)).content.decode()
    )
    response = organiser_client.post(
        url("game_entry_mode", game.pk), {"entry_mode": "final_scores"}, follow=True
    )
    assert "This game has 1 hand entered, so its entry mode cannot change" in (
        response.content.decode()
    )
    game.refresh_from_db()
    assert game.entry_mode == Game.EntryMode.HANDS


def test_a_game_with_final_scores_keeps_its_mode(organiser_client, final_game):
    services.set_final_scores(final_game.pk, [40000, 30000, 20000, 10000], 0)
    with pytest.raises(services.GameChangeRefused, match="final scores entered"):
        services.set_entry_mode(final_game.pk, Game.EntryMode.HANDS)
    final_game.refresh_from_db()
    assert final_game.entry_mode == Game.EntryMode.FINAL_SCORES


def test_a_stranger_cannot_switch_a_game_mode(stranger_client, game):
    response = stranger_client.post(url("game_entry_mode", game.pk), {"entry_mode": "final_scores"})
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.entry_mode == Game.EntryMode.HANDS


def test_an_unknown_mode_is_refused(organiser_client, game):
    response = organiser_client.post(
        url("game_entry_mode", game.pk), {"entry_mode": "abacus"}, follow=True
    )
    assert "Choose hand by hand or final scores only." in response.content.decode()
    game.refresh_from_db()
    assert game.entry_mode == Game.EntryMode.HANDS


# The game form offers the roster


def test_the_game_form_offers_the_roster_first_and_marks_its_substitutes(organiser_client, day):
    event, players, pool = day
    Player.objects.create(display_name="Elsewhere")
    page = organiser_client.get(url("game_create", event.slug, 1)).content.decode()
    east = page.split('name="east"')[1].split("</select>")[0]
    # The roster (its pool among it) first, by name; the others after it.
    assert east.index(">Player 01<") < east.index(">Player 16<") < east.index(">Elsewhere<")
    assert east.index(">Sub One (substitute)<") < east.index(">Elsewhere<")
    assert "Add them to the roster" in page


def test_a_player_unknown_to_the_organiser_is_refused_by_the_game_form(organiser_client, day):
    event, players, pool = day
    outsider = Player.objects.create(display_name="Elsewhere", active=False)
    data = {
        "table_number": "1",
        "entry_mode": "hands",
        "east": outsider.pk,
        "south": players[1].pk,
        "west": players[2].pk,
        "north": players[3].pk,
    }
    response = organiser_client.post(url("game_create", event.slug, 1), data)
    assert response.status_code == 200
    assert "is not one you can seat here" in response.content.decode()
    assert not Game.objects.exists()


def test_a_pool_player_on_the_game_form_takes_a_substitute_seat(organiser_client, day):
    event, players, pool = day
    data = {
        "table_number": "1",
        "entry_mode": "hands",
        "east": players[0].pk,
        "south": pool[0].pk,
        "west": players[2].pk,
        "north": players[3].pk,
    }
    response = organiser_client.post(url("game_create", event.slug, 1), data)
    assert response.status_code == 302
    assert GameSeat.objects.get(player=pool[0]).is_substitute
    assert GameSeat.objects.filter(is_substitute=True).count() == 1


def test_an_event_without_a_roster_offers_every_player_as_before(organiser_client, session):
    Player.objects.create(display_name="Anyone")
    page = organiser_client.get(url("game_create", session.event.slug, 1)).content.decode()
    assert "Anyone" in page and "Add a player" in page


def test_the_session_page_links_its_check_in_for_organisers_only(organiser_client, client, day):
    event, players, pool = day
    address = url("check_in", event.slug, 1)
    assert address in organiser_client.get(url("session", event.slug, 1)).content.decode()
    client.logout()
    assert address not in client.get(url("session", event.slug, 1)).content.decode()

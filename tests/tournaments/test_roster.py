"""The event roster: adding players three ways, withdrawing them, and what the standings
and seating read from it. Pages are tried as an organiser, another user and a visitor."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.limits import ROSTER_LIMIT
from tournaments.models import Player, RosterEntry, Session

pytestmark = pytest.mark.django_db

DRAW = {"result": "draw", "riichi": [], "tenpai": []}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def roster_names(event) -> list[str]:
    return [e.player.display_name for e in event.roster.select_related("player")]


def test_an_organiser_pastes_names_known_and_new_with_blanks_and_repeats(organiser_client, event):
    Player.objects.create(display_name="Aki")
    text = "aki\n\n  Ben   Ito \nChie\nBEN ITO\n   \n"
    response = organiser_client.post(
        url("roster_paste", event.slug), {"names": text, "create": "on"}, follow=True
    )
    page = response.content.decode()
    assert roster_names(event) == ["Aki", "Ben Ito", "Chie"]
    assert Player.objects.filter(display_name__in=["Ben Ito", "Chie"]).count() == 2
    assert "Added 3 players to the roster; 2 of them new to Tenbou (Ben Ito, Chie)." in page
    assert "Named twice, added once: BEN ITO." in page
    assert "2 blank lines left out." in page


def test_pasting_names_already_on_the_roster_adds_nobody_twice(organiser_client, event):
    services.add_names_to_roster(event.pk, ["Aki"], create=True)
    response = organiser_client.post(
        url("roster_paste", event.slug), {"names": "Aki\nBen", "create": "on"}, follow=True
    )
    assert roster_names(event) == ["Aki", "Ben"]
    assert "Already on the roster: Aki." in response.content.decode()


def test_unknown_names_are_refused_by_name_when_creating_is_unticked(organiser_client, event):
    Player.objects.create(display_name="Aki")
    response = organiser_client.post(url("roster_paste", event.slug), {"names": "Aki\nZed\nYu"})
    assert response.status_code == 400
    assert "Nobody was added. No player is called Zed, Yu." in response.content.decode()
    assert not event.roster.exists()
    assert not Player.objects.filter(display_name="Zed").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Paste at least one name, one a line."),
        ("\n  \n\n", "Every line is blank: paste at least one name, one a line."),
        ("Aki\n" + "x" * 61, "line(s) 2 are longer. Shorten them."),
        ("\n".join(f"P{i}" for i in range(501)), "Paste at most 500 names at a time"),
    ],
)
def test_a_bad_paste_is_refused_with_a_reason_and_stores_nothing(
    organiser_client, event, text, message
):
    response = organiser_client.post(
        url("roster_paste", event.slug), {"names": text, "create": "on"}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not event.roster.exists()
    assert not Player.objects.exists()


@pytest.mark.slow
def test_a_paste_of_500_names_is_accepted(organiser_client, event):
    text = "\n".join(f"Player {i}" for i in range(500))
    response = organiser_client.post(
        url("roster_paste", event.slug), {"names": text, "create": "on"}
    )
    assert response.status_code == 302
    assert event.roster.count() == 500


@pytest.mark.slow
def test_the_roster_holds_a_bounded_number_of_players(event):
    names = [f"P{i}" for i in range(ROSTER_LIMIT - 1)]
    for start in range(0, len(names), 500):
        services.add_names_to_roster(event.pk, names[start : start + 500], create=True)
    with pytest.raises(services.GameChangeRefused, match="at most 1000 players"):
        services.add_names_to_roster(event.pk, ["X", "Y"], create=True)
    assert event.roster.count() == ROSTER_LIMIT - 1


def test_an_organiser_picks_existing_players_from_a_search(organiser_client, event):
    aki = Player.objects.create(display_name="Aki")
    Player.objects.create(display_name="Ben")
    page = organiser_client.get(url("roster", event.slug), {"q": "ak"}).content.decode()
    assert "Aki" in page and "Ben" not in page
    response = organiser_client.post(url("roster_pick", event.slug), {"players": [aki.pk]})
    assert response.status_code == 302
    assert roster_names(event) == ["Aki"]
    # Once on the roster, a player is no longer offered.
    page = organiser_client.get(url("roster", event.slug), {"q": "ak"}).content.decode()
    assert "No player off the roster matches “ak”." in page


def test_picking_nobody_is_refused(organiser_client, event):
    Player.objects.create(display_name="Aki")
    response = organiser_client.post(url("roster_pick", event.slug), {})
    assert response.status_code == 400
    assert "Tick at least one player to add." in response.content.decode()


def test_an_organiser_creates_a_new_player_on_the_roster(organiser_client, event):
    response = organiser_client.post(
        url("roster_new", event.slug), {"new-display_name": "Dora", "new-ema_number": ""}
    )
    assert response.status_code == 302
    assert roster_names(event) == ["Dora"]


def test_a_new_player_named_like_an_existing_one_is_refused(organiser_client, event):
    Player.objects.create(display_name="Dora")
    response = organiser_client.post(url("roster_new", event.slug), {"new-display_name": "dora"})
    assert response.status_code == 400
    assert "There is already a player called “Dora”." in response.content.decode()
    assert not event.roster.exists()


def test_a_withdrawn_player_is_left_out_of_later_sessions_only(organiser_client, event):
    services.add_names_to_roster(event.pk, ["Aki", "Ben"], create=True)
    aki = Player.objects.get(display_name="Aki")
    response = organiser_client.post(
        url("roster_withdraw", event.slug, aki.pk), {"from_session": "3"}, follow=True
    )
    assert "Aki is withdrawn from session 3 on" in response.content.decode()
    assert list(event.roster_players(2).values_list("display_name", flat=True)) == ["Aki", "Ben"]
    assert list(event.roster_players(3).values_list("display_name", flat=True)) == ["Ben"]
    assert list(event.roster_players().values_list("display_name", flat=True)) == ["Aki", "Ben"]
    assert RosterEntry.objects.get(player=aki).plays_in(2)
    organiser_client.post(url("roster_return", event.slug, aki.pk))
    assert list(event.roster_players(3).values_list("display_name", flat=True)) == ["Aki", "Ben"]


@pytest.mark.parametrize(
    ("value", "message"), [("0", "Sessions are numbered from 1"), ("", "Give the first session")]
)
def test_a_withdrawal_without_a_sensible_session_is_refused(
    organiser_client, event, value, message
):
    services.add_names_to_roster(event.pk, ["Aki"], create=True)
    aki = Player.objects.get(display_name="Aki")
    response = organiser_client.post(
        url("roster_withdraw", event.slug, aki.pk), {"from_session": value}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert RosterEntry.objects.get(player=aki).withdrawn_from is None


def test_a_player_who_has_played_is_withdrawn_not_removed(organiser_client, event, game, players):
    services.add_to_roster(event.pk, players)
    response = organiser_client.post(url("roster_remove", event.slug, players[0].pk), follow=True)
    assert "Aki has played in this event: mark them withdrawn instead." in response.content.decode()
    assert event.roster.count() == 4
    newcomer = Player.objects.create(display_name="Eve")
    services.add_to_roster(event.pk, [newcomer])
    organiser_client.post(url("roster_remove", event.slug, newcomer.pk))
    assert event.roster.count() == 4


def test_standings_keep_showing_a_withdrawn_player_who_played(
    organiser_client, event, game, players
):
    services.add_to_roster(event.pk, players)
    for number in range(1, 9):
        services.add_hand(game.pk, number, DRAW)
    services.withdraw_from_roster(event.pk, players[0].pk, 2)
    page = organiser_client.get(url("standings", event.slug)).content.decode()
    assert all(p.display_name in page for p in players)


def test_visitors_read_the_roster_but_cannot_change_it(anonymous, stranger_client, event):
    services.add_names_to_roster(event.pk, ["Aki"], create=True)
    aki = Player.objects.get(display_name="Aki")
    page = anonymous.get(url("roster", event.slug)).content.decode()
    assert "Aki" in page and "Withdraw" not in page and "Paste a list" not in page
    assert anonymous.post(url("roster_paste", event.slug), {"names": "Zed"}).status_code == 302
    for name, data in [
        ("roster_paste", {"names": "Zed", "create": "on"}),
        ("roster_new", {"new-display_name": "Zed"}),
        ("roster_pick", {"players": [aki.pk]}),
    ]:
        assert stranger_client.post(url(name, event.slug), data).status_code == 403
    for name in ("roster_withdraw", "roster_return", "roster_remove"):
        response = stranger_client.post(url(name, event.slug, aki.pk), {"from_session": "1"})
        assert response.status_code == 403
    assert not Player.objects.filter(display_name="Zed").exists()
    assert RosterEntry.objects.get(player=aki).withdrawn_from is None


def test_a_private_events_roster_is_not_there_for_others(stranger_client, event):
    event.is_public = False
    event.save()
    assert stranger_client.get(url("roster", event.slug)).status_code == 404


@pytest.mark.slow
def test_the_roster_page_costs_the_same_queries_for_ten_and_two_hundred_players(
    organiser_client, event, django_assert_max_num_queries
):
    Session.objects.create(event=event, number=1, date=event.starts_on)
    services.add_names_to_roster(event.pk, [f"P{i}" for i in range(10)], create=True)
    with django_assert_max_num_queries(14) as small:
        organiser_client.get(url("roster", event.slug))
    services.add_names_to_roster(event.pk, [f"Q{i}" for i in range(200)], create=True)
    with django_assert_max_num_queries(len(small.captured_queries)):
        organiser_client.get(url("roster", event.slug))

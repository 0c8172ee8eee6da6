"""Events, sessions, players and game set-up pages: as an organiser, as another logged-in
user and as a visitor, with the database checked after every POST."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.models import Event, Game, GameSeat, Hand, Invitation, Player, Session

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [2], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
DRAW_NOTEN = {"result": "draw", "riichi": [], "tenpai": []}
NAGASHI = {"result": "nagashi", "riichi": [], "nagashi": [1], "tenpai": []}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def page(response) -> str:
    return response.content.decode()


@pytest.fixture
def private_event(organiser):
    event = Event.objects.create(
        name="Secret Cup", slug="secret", starts_on=datetime.date(2026, 10, 1), is_public=False
    )
    event.organisers.add(organiser)
    return event


@pytest.fixture
def private_session(private_event):
    return Session.objects.create(event=private_event, number=1, date=datetime.date(2026, 10, 1))


def finish_with_draws(game: Game) -> None:
    for number in range(1, 9):
        services.add_hand(game.pk, number, DRAW_NOTEN)


def make_players(count: int, prefix: str = "P") -> list[Player]:
    return [Player.objects.create(display_name=f"{prefix}{i}") for i in range(count)]


def event_data(**changes) -> dict:
    data = {
        "name": "Autumn Open",
        "slug": "",
        "kind": "tournament",
        "starts_on": "2026-10-10",
        "ends_on": "2026-10-11",
        "description": "Two days, eight hanchan.",
        "is_public": "on",
        "rules_preset": "ema",
    }
    return {**data, **changes}


# The events list


def test_the_events_list_shows_public_events_to_a_visitor(anonymous, event, private_event):
    Session.objects.create(event=event, number=1, date=event.starts_on)
    Session.objects.create(event=event, number=2, date=event.starts_on)

    response = anonymous.get(url("home"))

    assert response.status_code == 200
    html = page(response)
    assert "Thursday League" in html and event.get_absolute_url() in html
    assert "Club league" in html and "3 Sep 2026" in html
    assert '<td class="number">2</td>' in html
    assert "Secret Cup" not in html
    assert "New event" not in html and "badge-public" not in html


def test_the_events_list_shows_an_organiser_their_private_events_with_badges(
    organiser_client, event, private_event
):
    html = page(organiser_client.get(url("home")))

    assert "Secret Cup" in html and "Thursday League" in html
    assert "badge-private" in html and "badge-public" in html
    assert url("event_create") in html


def test_the_events_list_offers_a_stranger_a_new_event_but_no_private_ones(
    stranger_client, event, private_event
):
    html = page(stranger_client.get(url("home")))

    assert "Thursday League" in html and "Secret Cup" not in html
    assert url("event_create") in html
    assert "badge-public" not in html


def test_the_events_list_counts_sessions_once_however_many_organisers(
    organiser_client, event, stranger
):
    event.organisers.add(stranger)
    Session.objects.create(event=event, number=1, date=event.starts_on)

    html = page(organiser_client.get(url("home")))

    assert '<td class="number">1</td>' in html
    assert '<td class="number">2</td>' not in html


def test_a_tournament_shows_its_dates_as_a_range(anonymous, event):
    event.ends_on = datetime.date(2026, 9, 5)
    event.save()

    assert "3–5 Sep 2026" in page(anonymous.get(url("home")))


@pytest.mark.parametrize("count", [2, 12])
def test_the_events_list_needs_the_same_queries_for_few_and_many_events(
    organiser_client, organiser, django_assert_max_num_queries, count
):
    for i in range(count):
        event = Event.objects.create(
            name=f"League {i}", slug=f"league-{i}", starts_on=datetime.date(2026, 1, 1)
        )
        event.organisers.add(organiser)
        Session.objects.create(event=event, number=1, date=event.starts_on)

    with django_assert_max_num_queries(5):
        response = organiser_client.get(url("home"))

    assert page(response).count("badge-public") == count


# Creating and editing events


def test_a_visitor_is_sent_to_log_in_to_create_an_event(anonymous):
    response = anonymous.get(url("event_create"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))

    response = anonymous.post(url("event_create"), event_data())
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Event.objects.exists()


def test_the_new_event_form_offers_every_preset_with_a_description(stranger_client):
    response = stranger_client.get(url("event_create"))

    assert response.status_code == 200
    html = page(response)
    for preset in ("ari-ari", "tenhou", "mleague", "wrc", "ema", "mahjongsoul"):
        assert f'value="{preset}"' in html
    assert "EMA 2016: 30,000 start" in html


def test_any_logged_in_user_can_create_an_event_and_becomes_its_organiser(
    stranger_client, stranger
):
    response = stranger_client.post(url("event_create"), event_data())

    event = Event.objects.get()
    assert response.status_code == 302 and response.url == event.get_absolute_url()
    assert event.slug == "autumn-open"
    assert event.kind == "tournament" and event.rules_preset == "ema"
    assert event.ends_on == datetime.date(2026, 10, 11)
    assert list(event.organisers.all()) == [stranger]


def test_a_new_event_can_be_made_with_its_sessions_at_once(stranger_client):
    data = event_data(session_count="8", session_spacing="0")
    response = stranger_client.post(url("event_create"), data, follow=True)

    event = Event.objects.get()
    assert [(s.number, s.date) for s in event.sessions.all()] == [
        (number, datetime.date(2026, 10, 10)) for number in range(1, 9)
    ]
    assert "Autumn Open created with 8 sessions." in page(response)


def test_a_weekly_league_gets_one_session_a_week(stranger_client):
    data = event_data(ends_on="", kind="league", session_count="3", session_spacing="7")
    stranger_client.post(url("event_create"), data)

    dates = [s.date for s in Event.objects.get().sessions.all()]
    assert dates == [datetime.date(2026, 10, d) for d in (10, 17, 24)]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"session_count": "4", "session_spacing": "1"}, "after the event ends"),
        ({"session_count": "61"}, "At most 60 sessions can be created at once."),
        ({"session_count": "-1"}, "greater than or equal to 0"),
        ({"session_count": "x"}, "Enter a whole number."),
        ({"session_count": "2", "session_spacing": "3"}, "Select a valid choice."),
    ],
)
def test_sessions_that_cannot_be_made_refuse_the_whole_event(stranger_client, changes, message):
    response = stranger_client.post(url("event_create"), event_data(**changes))

    assert response.status_code == 200
    assert message in page(response)
    assert not Event.objects.exists() and not Session.objects.exists()


def test_an_event_gets_the_next_free_address_when_its_name_is_taken(organiser_client, event):
    organiser_client.post(url("event_create"), event_data(name="Thursday"))

    assert Event.objects.filter(slug__regex=r"^thursday-[0-9a-f]{4}$").exists()


def test_a_taken_address_is_refused_with_a_suggestion(organiser_client, event):
    response = organiser_client.post(url("event_create"), event_data(slug="thursday"))

    assert response.status_code == 200
    assert "The address “thursday” is not available. Choose another" in page(response)
    assert re.search(r"for example “thursday-[0-9a-f]{4}”", page(response))
    assert Event.objects.count() == 1


def test_the_address_of_the_new_event_page_is_refused(organiser_client):
    response = organiser_client.post(url("event_create"), event_data(slug="new"))

    assert "“new” is reserved" in page(response)
    assert not Event.objects.exists()


def test_an_event_that_ends_before_it_starts_is_refused(organiser_client):
    response = organiser_client.post(url("event_create"), event_data(ends_on="2026-10-01"))

    assert response.status_code == 200
    assert page(response).count("The event cannot end before it starts.") == 1
    assert not Event.objects.exists()


def test_the_new_event_form_asks_for_a_name_and_stores_nothing_without_one(organiser_client):
    response = organiser_client.post(url("event_create"), event_data(name=""))

    assert response.status_code == 200
    assert "This field is required." in page(response)
    assert not Event.objects.exists()


def test_an_organiser_can_edit_their_event(organiser_client, event, stranger):
    response = organiser_client.get(url("event_edit", "thursday"))
    assert response.status_code == 200 and 'value="Thursday League"' in page(response)
    assert "stranger" not in page(response)  # no list of every account

    data = event_data(name="Thursday Night League", slug="thursday", kind="league")
    response = organiser_client.post(url("event_edit", "thursday"), data)

    event.refresh_from_db()
    assert response.status_code == 302 and response.url == event.get_absolute_url()
    assert event.name == "Thursday Night League" and event.kind == "league"
    assert event.organisers.count() == 1
    assert event.rules_preset == "ari-ari"  # the edit form does not touch the rules


def test_removing_the_only_organiser_is_refused(organiser_client, event, organiser):
    response = organiser_client.post(url("organiser_remove", "thursday", organiser.pk), follow=True)

    assert response.status_code == 200
    assert "is the only organiser of Thursday League. Add another organiser first" in page(response)
    assert list(event.organisers.all()) == [organiser]


def test_an_organiser_may_hand_a_private_event_over_and_then_loses_sight_of_it(
    organiser_client, private_event, stranger, organiser
):
    response = organiser_client.post(url("event_organisers", "secret"), {"who": "stranger"})
    assert response.status_code == 302
    invited = Client()
    invited.force_login(stranger)
    invitation = Invitation.objects.get(user=stranger, event=private_event)
    accepted = invited.post(reverse("invitation_answer", args=[invitation.pk]), {"accept": "1"})
    assert accepted.status_code == 302
    response = organiser_client.post(url("organiser_remove", "secret", organiser.pk))

    assert response.status_code == 302 and response.url == url("home")
    assert list(private_event.organisers.all()) == [stranger]
    assert organiser_client.get(url("event", "secret")).status_code == 404


def test_editing_the_dates_the_wrong_way_round_is_refused(organiser_client, event, organiser):
    data = event_data(slug="thursday", starts_on="2026-09-10", ends_on="2026-09-01")
    data["organisers"] = [organiser.pk]
    response = organiser_client.post(url("event_edit", "thursday"), data)

    assert page(response).count("The event cannot end before it starts.") == 1
    event.refresh_from_db()
    assert event.starts_on == datetime.date(2026, 9, 3) and event.ends_on is None


def test_another_user_may_not_edit_an_event(stranger_client, event):
    assert stranger_client.get(url("event_edit", "thursday")).status_code == 403

    response = stranger_client.post(url("event_edit", "thursday"), event_data(slug="thursday"))

    assert response.status_code == 403
    event.refresh_from_db()
    assert event.name == "Thursday League"


def test_a_visitor_is_sent_to_log_in_to_edit_an_event(anonymous, event):
    response = anonymous.post(url("event_edit", "thursday"), event_data(slug="thursday"))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    event.refresh_from_db()
    assert event.name == "Thursday League"


def test_a_private_event_cannot_be_edited_by_another_user_who_does_not_see_it(
    stranger_client, private_event
):
    assert stranger_client.get(url("event_edit", "secret")).status_code == 404
    assert stranger_client.get(url("event_rules", "secret")).status_code == 404
    assert stranger_client.get(url("session_create", "secret")).status_code == 404


# The event page


def test_the_event_page_shows_sessions_players_and_rules_to_a_visitor(
    anonymous, event, session, game, final_game
):
    finish_with_draws(game)

    response = anonymous.get(url("event", "thursday"))

    assert response.status_code == 200
    html = page(response)
    assert session.get_absolute_url() in html and "3 Sep 2026" in html
    # Two games, one finished.
    assert '<td class="number">2</td>' in html and '<td class="number">1</td>' in html
    for name in ("Aki", "Ben", "Chie", "Dan"):
        assert name in html
    assert "ari-ari" in html and "Basic Ari-Ari rules" in html
    assert url("event_edit", "thursday") not in html
    assert url("session_create", "thursday") not in html


def test_the_event_page_gives_its_organiser_edit_rules_and_new_session(organiser_client, event):
    html = page(organiser_client.get(url("event", "thursday")))

    assert url("event_edit", "thursday") in html
    assert url("event_rules", "thursday") in html
    assert url("session_create", "thursday") in html
    assert "badge-public" in html


def test_the_event_page_says_the_rules_in_words(anonymous, event):
    event.rules_overrides = {"kiriage": True, "uma": [20, 10, -10, -20], "ties": "split"}
    event.save()

    html = page(anonymous.get(url("event", "thursday")))

    assert "ari-ari; uma +20/+10/−10/−20; kiriage on; ties: split uma" in html


def test_another_user_sees_a_public_event_without_organiser_actions(stranger_client, event):
    response = stranger_client.get(url("event", "thursday"))

    assert response.status_code == 200
    html = page(response)
    assert url("event_edit", "thursday") not in html
    assert url("session_create", "thursday") not in html
    # The rules are for everyone to read.
    assert url("event_rules", "thursday") in html


def test_a_private_event_is_hidden_from_everyone_but_its_organisers(
    anonymous, stranger_client, organiser_client, private_event
):
    assert anonymous.get(url("event", "secret")).status_code == 404
    assert stranger_client.get(url("event", "secret")).status_code == 404
    assert organiser_client.get(url("event", "secret")).status_code == 200


def test_an_unknown_event_is_not_found(anonymous):
    assert anonymous.get(url("event", "nothing-here")).status_code == 404


# Rules


def test_the_rules_page_has_a_field_per_option_with_the_presets_value_as_help(
    organiser_client, event
):
    response = organiser_client.get(url("event_rules", "thursday"))

    assert response.status_code == 200
    html = page(response)
    for name in ("kiriage", "multi_ron", "honba_value", "uma_0", "uma_3", "oka", "west_round"):
        assert f'name="{name}"' in html
    assert "Preset default (ari-ari): off." in html
    assert "Preset default (ari-ari): +30/+10/−10/−30." in html
    assert "Preset default (ari-ari): +20, from the start and return points." in html


def test_anyone_who_can_read_the_event_reads_its_rules_in_words_with_their_source(
    anonymous, stranger_client, event
):
    event.rules_overrides = {"kiriage": True}
    event.save()

    for client in (anonymous, stranger_client):
        response = client.get(url("event_rules", "thursday"))
        assert response.status_code == 200
        html = page(response)
        assert "Basic Ari-Ari Mahjong Rules" in html
        # An override is marked; a preset value names its clause.
        assert "changed for this event" in html
        assert "7.2: +30/+10/-10/-30" not in html  # uma shows in words, not as the comment
        assert "+30/+10/−10/−30" in html and "7.2 step 3" in html
        assert "20, from the start and return points" in html
        # Reading only: no form.
        assert 'name="kiriage"' not in html and "Save rules" not in html


def test_the_rules_of_a_private_event_stay_hidden(anonymous, stranger_client, private_event):
    assert anonymous.get(url("event_rules", "secret")).status_code == 404
    assert stranger_client.get(url("event_rules", "secret")).status_code == 404


def test_only_organisers_change_the_rules(anonymous, stranger_client, event):
    response = anonymous.post(url("event_rules", "thursday"), {"preset": "ema"})
    assert response.status_code == 302 and response.url.startswith(reverse("login"))

    response = stranger_client.post(url("event_rules", "thursday"), {"preset": "ema"})

    assert response.status_code == 403
    event.refresh_from_db()
    assert event.rules_preset == "ari-ari"


def test_the_rules_form_offers_the_new_options_and_presets(organiser_client, event):
    html = page(organiser_client.get(url("event_rules", "thursday")))

    for name in (
        "target_points",
        "riichi_min_points",
        "multi_ron_honba",
        "multi_ron_sticks",
        "pao_honba",
        "pao_scope",
    ):
        assert f'name="{name}"' in html
    for preset in ("tenhou-east", "mahjongsoul", "mahjongsoul-east", "club"):
        assert f'value="{preset}"' in html
    assert "Each winner takes back their own, the rest to the first" in html
    assert "Preset default (ari-ari): 30,000, the return points." in html


def test_saving_a_new_option_stores_it_and_the_page_reads_it_back(organiser_client, event):
    organiser_client.post(
        url("event_rules", "thursday"),
        {"preset": "ema", "multi_ron_sticks": "first", "riichi_min_points": "1000"},
    )

    event.refresh_from_db()
    assert event.rules_preset == "ema"
    assert event.rules_overrides == {"multi_ron_sticks": "first", "riichi_min_points": 1000}
    html = page(organiser_client.get(url("event_rules", "thursday")))
    assert "All to the first winner after the discarder" in html
    assert "EMA Riichi Competition Rules, 2016 edition" in html


def test_a_target_below_zero_is_refused_with_a_message_and_nothing_is_saved(
    organiser_client, event
):
    response = organiser_client.post(
        url("event_rules", "thursday"), {"preset": "ari-ari", "target_points": "-100"}
    )

    assert "Target points must be a multiple of 100, 0 or more." in page(response)
    event.refresh_from_db()
    assert event.rules_overrides == {}


def test_saving_an_override_stores_only_that_option_and_rescores_the_games(
    organiser_client, event, game
):
    response = organiser_client.post(
        url("event_rules", "thursday"), {"preset": "ari-ari", "kiriage": "True"}, follow=True
    )

    event.refresh_from_db()
    assert event.rules_overrides == {"kiriage": True}
    assert "Rules saved. 1 game re-scored; 0 changed." in page(response)


def test_uma_is_stored_as_four_numbers(organiser_client, event):
    data = {"preset": "ari-ari", "uma_0": "20", "uma_1": "10", "uma_2": "-10", "uma_3": "-20"}
    organiser_client.post(url("event_rules", "thursday"), data)

    event.refresh_from_db()
    assert event.rules_overrides == {"uma": [20, 10, -10, -20]}
    assert event.rules().uma == (Decimal(20), Decimal(10), Decimal(-10), Decimal(-20))


def test_part_of_an_uma_is_refused(organiser_client, event):
    data = {"preset": "ari-ari", "uma_0": "20", "uma_1": "10"}
    response = organiser_client.post(url("event_rules", "thursday"), data)

    assert "Give all four uma values" in page(response)
    event.refresh_from_db()
    assert event.rules_overrides == {}


def test_changing_the_preset_rescores_every_game_and_says_how_many_changed(
    organiser_client, event, game, final_game
):
    services.add_hand(game.pk, 1, RON)

    response = organiser_client.post(url("event_rules", "thursday"), {"preset": "ema"}, follow=True)

    event.refresh_from_db()
    assert event.rules_preset == "ema" and event.rules_overrides == {}
    assert [s.score for s in game.seats.order_by("seat")] == [24800, 36200, 29000, 30000]
    # The final-score game still waits for its scores, so only the other is re-scored.
    assert "Rules saved. 1 game re-scored; 1 changed." in page(response)


def test_a_finished_game_that_the_new_rules_do_not_end_is_reopened(organiser_client, event, game):
    finish_with_draws(game)

    # Nobody reached 30,000: under a west round the game goes on.
    response = organiser_client.post(
        url("event_rules", "thursday"), {"preset": "ari-ari", "west_round": "True"}, follow=True
    )

    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert "1 reopened because it is no longer over." in page(response)


def test_clearing_every_override_goes_back_to_the_plain_preset(organiser_client, event):
    event.rules_overrides = {"kiriage": True}
    event.save()
    response = organiser_client.get(url("event_rules", "thursday"))
    assert '<option value="True" selected>On</option>' in page(response)

    organiser_client.post(url("event_rules", "thursday"), {"preset": "ari-ari", "kiriage": ""})

    event.refresh_from_db()
    assert event.rules_overrides == {}


def test_an_override_the_engine_refuses_is_shown_next_to_its_field(organiser_client, event):
    response = organiser_client.post(
        url("event_rules", "thursday"), {"preset": "ari-ari", "honba_value": "250"}
    )

    assert response.status_code == 200
    html = page(response)
    assert "Honba value must be a multiple of 300" in html
    assert "Nothing was saved. Check the options marked in red below." in html
    assert 'id="id_honba_value_error"' in html
    event.refresh_from_db()
    assert event.rules_overrides == {}


def test_a_rules_change_that_makes_a_recorded_hand_impossible_changes_nothing(
    organiser_client, event, game
):
    services.add_hand(game.pk, 1, NAGASHI)
    before = [s.score for s in game.seats.order_by("seat")]

    response = organiser_client.post(url("event_rules", "thursday"), {"preset": "ema"})

    assert response.status_code == 200
    html = page(response)
    assert "Nothing was changed." in html and "table 1" in html
    event.refresh_from_db()
    assert event.rules_preset == "ari-ari"
    assert [s.score for s in game.seats.order_by("seat")] == before
    assert Hand.objects.filter(game=game).count() == 1


# Sessions


def test_the_new_session_form_suggests_the_next_number_and_today(organiser_client, session):
    html = page(organiser_client.get(url("session_create", "thursday")))

    assert 'name="number" value="2"' in html
    assert f'value="{timezone.localdate():%Y-%m-%d}"' in html


def test_an_organiser_can_create_a_session(organiser_client, event):
    data = {"number": "1", "date": "2026-09-03", "title": "Opening night"}
    response = organiser_client.post(url("session_create", "thursday"), data)

    session = Session.objects.get(event=event)
    assert response.status_code == 302 and response.url == session.get_absolute_url()
    assert session.number == 1 and session.title == "Opening night"


def test_a_duplicate_session_number_is_refused(organiser_client, session):
    data = {"number": "1", "date": "2026-09-10", "title": "Again"}
    response = organiser_client.post(url("session_create", "thursday"), data)

    assert response.status_code == 200
    assert "Session 1 exists already in this event. The next free number is 2." in page(response)
    assert Session.objects.count() == 1


def test_a_session_number_must_be_one_or_more(organiser_client, event):
    data = {"number": "0", "date": "2026-09-10"}
    response = organiser_client.post(url("session_create", "thursday"), data)

    assert "greater than or equal to 1" in page(response)
    assert not Session.objects.exists()


def test_sessions_are_created_by_organisers_only(anonymous, stranger_client, event):
    data = {"number": "1", "date": "2026-09-03"}
    response = anonymous.post(url("session_create", "thursday"), data)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert stranger_client.get(url("session_create", "thursday")).status_code == 403
    assert stranger_client.post(url("session_create", "thursday"), data).status_code == 403
    assert not Session.objects.exists()


def test_an_organiser_can_renumber_and_retitle_a_session(organiser_client, session):
    data = {"number": "3", "date": "2026-09-03", "title": "Finals"}
    response = organiser_client.post(url("session_edit", "thursday", 1), data)

    session.refresh_from_db()
    assert response.status_code == 302 and response.url == url("session", "thursday", 3)
    assert session.number == 3 and session.title == "Finals"


def test_renumbering_a_session_onto_another_is_refused(organiser_client, event, session):
    Session.objects.create(event=event, number=2, date=event.starts_on)

    data = {"number": "2", "date": "2026-09-03", "title": ""}
    response = organiser_client.post(url("session_edit", "thursday", 1), data)

    assert "Session 2 exists already" in page(response)
    session.refresh_from_db()
    assert session.number == 1


def test_another_user_may_not_edit_a_session(stranger_client, anonymous, session):
    data = {"number": "5", "date": "2026-09-03"}
    assert stranger_client.post(url("session_edit", "thursday", 1), data).status_code == 403
    assert anonymous.post(url("session_edit", "thursday", 1), data).status_code == 302
    session.refresh_from_db()
    assert session.number == 1


def test_the_session_page_lists_games_by_table_with_winds_scores_and_the_leader(
    anonymous, session, game, final_game
):
    services.add_hand(game.pk, 1, RON)

    response = anonymous.get(url("session", "thursday", 1))

    assert response.status_code == 200
    html = page(response)
    for wind in ("East", "South", "West", "North"):
        assert f'data-label="{wind}"' in html
    assert "19,800" in html and "31,200" in html
    assert '<strong class="leader">Ben' in html
    assert url("game", game.pk) in html and url("game", final_game.pk) in html
    assert "In progress" in html
    assert url("game_create", "thursday", 1) not in html
    assert url("game_edit", game.pk) not in html


def test_nobody_leads_a_game_that_has_not_started(anonymous, session, game):
    assert 'class="leader"' not in page(anonymous.get(url("session", "thursday", 1)))


def test_a_finished_game_highlights_its_first_place(anonymous, session, game):
    finish_with_draws(game)

    html = page(anonymous.get(url("session", "thursday", 1)))

    assert '<strong class="leader">Aki' in html and "Finished" in html


def test_the_session_page_gives_its_organiser_new_game_and_seat_links(
    organiser_client, session, game
):
    html = page(organiser_client.get(url("session", "thursday", 1)))

    assert url("game_create", "thursday", 1) in html
    assert url("game_edit", game.pk) in html
    assert url("session_edit", "thursday", 1) in html


def test_a_private_session_is_hidden_from_everyone_but_its_organisers(
    anonymous, stranger_client, organiser_client, private_session
):
    assert anonymous.get(url("session", "secret", 1)).status_code == 404
    assert stranger_client.get(url("session", "secret", 1)).status_code == 404
    assert organiser_client.get(url("session", "secret", 1)).status_code == 200


@pytest.mark.parametrize("tables", [1, 6])
def test_the_session_page_needs_the_same_queries_for_few_and_many_games(
    organiser_client, session, django_assert_max_num_queries, tables
):
    for table in range(tables):
        players = make_players(4, prefix=f"T{table}-")
        services.create_game(session, players, table_number=table + 1)

    with django_assert_max_num_queries(8):
        response = organiser_client.get(url("session", "thursday", 1))

    assert page(response).count('data-label="North"') == tables


# Setting up games


def seat_data(players, table="1", **changes) -> dict:
    data = {"table_number": table, "entry_mode": "hands"}
    # Fewer than four players leave the last seats empty, as a careless organiser would.
    winds = ("east", "south", "west", "north")
    data |= {wind: p.pk for wind, p in zip(winds, players, strict=False)}
    return {**data, **changes}


def test_the_new_game_form_suggests_the_next_table_and_offers_active_players(
    organiser_client, session, game, players
):
    Player.objects.create(display_name="Retired Rin", active=False)

    html = page(organiser_client.get(url("game_create", "thursday", 1)))

    assert 'name="table_number" value="2"' in html
    assert "Aki" in html and "Retired Rin" not in html


def test_an_organiser_creates_a_game_with_players_by_seat(organiser_client, session, players):
    response = organiser_client.post(url("game_create", "thursday", 1), seat_data(players))

    game = Game.objects.get()
    assert response.status_code == 302 and response.url == url("game", game.pk)
    assert [s.player for s in game.ordered_seats()] == players
    assert [s.score for s in game.ordered_seats()] == [25000] * 4
    assert game.entry_mode == Game.EntryMode.HANDS and game.table_number == 1


def test_a_final_scores_game_can_be_created(organiser_client, session, players):
    data = seat_data(players, entry_mode="final_scores")
    organiser_client.post(url("game_create", "thursday", 1), data)

    assert Game.objects.get().entry_mode == Game.EntryMode.FINAL_SCORES


def test_a_random_seat_draw_seats_the_same_four_players(organiser_client, session, players):
    data = seat_data(players, random_seats="on")
    response = organiser_client.post(url("game_create", "thursday", 1), data, follow=True)

    game = Game.objects.get()
    assert {s.player for s in game.ordered_seats()} == set(players)
    assert "Table 1 created: East " in page(response)


def test_a_game_with_three_players_is_refused(organiser_client, session, players):
    data = seat_data(players[:3])
    response = organiser_client.post(url("game_create", "thursday", 1), data)

    assert response.status_code == 200
    assert "Choose the player at North: a game needs four." in page(response)
    assert not Game.objects.exists() and not GameSeat.objects.exists()


def test_a_game_with_a_repeated_player_is_refused(organiser_client, session, players):
    data = seat_data([players[0], players[1], players[2], players[0]])
    response = organiser_client.post(url("game_create", "thursday", 1), data)

    assert response.status_code == 200
    assert "Aki is already at East: a game needs four different players." in page(response)
    assert not Game.objects.exists()


def test_games_are_created_by_organisers_only(anonymous, stranger_client, session, players):
    response = anonymous.post(url("game_create", "thursday", 1), seat_data(players))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert stranger_client.get(url("game_create", "thursday", 1)).status_code == 403
    response = stranger_client.post(url("game_create", "thursday", 1), seat_data(players))
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_a_private_events_game_pages_are_hidden_from_another_user(
    stranger_client, private_session, players
):
    game = services.create_game(private_session, players, table_number=1)

    assert stranger_client.get(url("game_create", "secret", 1)).status_code == 404
    assert stranger_client.get(url("game_edit", game.pk)).status_code == 404


def test_swapping_seats_keeps_the_results_with_the_seats_and_renames_the_record(
    organiser_client, game, players
):
    services.add_hand(game.pk, 1, RON)
    aki, ben, chie, dan = players

    response = organiser_client.get(url("game_edit", game.pk))
    assert response.status_code == 200 and 'name="table_number" value="1"' in page(response)

    data = seat_data([ben, aki, chie, dan], table="4")
    response = organiser_client.post(url("game_edit", game.pk), data)

    assert response.status_code == 302 and response.url == url("game", game.pk)
    game.refresh_from_db()
    assert game.table_number == 4
    assert [s.player for s in game.ordered_seats()] == [ben, aki, chie, dan]
    assert [s.score for s in game.ordered_seats()] == [19800, 31200, 24000, 25000]
    assert game.to_record()["players"] == ["Ben", "Aki", "Chie", "Dan"]
    assert Hand.objects.filter(game=game).count() == 1


def test_a_final_scores_game_waiting_for_its_scores_can_be_reseated(
    organiser_client, final_game, players
):
    new = Player.objects.create(display_name="Emi")
    data = seat_data([new, *players[1:]], table="2")

    response = organiser_client.post(url("game_edit", final_game.pk), data)

    assert response.status_code == 302
    assert final_game.ordered_seats()[0].player == new


def test_reseating_a_player_twice_is_refused_and_changes_nothing(organiser_client, game, players):
    aki, ben, chie, _ = players
    data = seat_data([aki, ben, chie, ben], table="7")
    response = organiser_client.post(url("game_edit", game.pk), data)

    assert response.status_code == 200
    assert "Ben is already at South" in page(response)
    game.refresh_from_db()
    assert game.table_number == 1
    assert [s.player for s in game.ordered_seats()] == players


def test_another_user_may_not_reseat_a_game(anonymous, stranger_client, game, players):
    data = seat_data(list(reversed(players)))
    assert stranger_client.get(url("game_edit", game.pk)).status_code == 403
    assert stranger_client.post(url("game_edit", game.pk), data).status_code == 403
    response = anonymous.post(url("game_edit", game.pk), data)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert [s.player for s in game.ordered_seats()] == players


# Players


def test_the_player_list_shows_active_players_and_their_games_to_a_visitor(
    anonymous, game, players
):
    Player.objects.create(display_name="Retired Rin", active=False)

    response = anonymous.get(url("players"))

    assert response.status_code == 200
    html = page(response)
    assert "Aki" in html and url("player", players[0].pk) in html
    assert "Retired Rin" not in html
    assert '<td class="number">1</td>' in html
    assert url("player_create") not in html


def test_players_of_private_events_only_are_hidden_from_a_visitor(
    anonymous, organiser_client, private_session, players
):
    services.create_game(private_session, players, table_number=1)

    visitor = page(anonymous.get(url("players")))
    assert "Aki" not in visitor and url("player", players[0].pk) not in visitor
    assert anonymous.get(url("player", players[0].pk)).status_code == 404
    organiser = page(organiser_client.get(url("players")))
    assert "Aki" in organiser and '<td class="number">1</td>' in organiser


def test_a_logged_in_user_can_add_a_player(stranger_client):
    assert url("player_create") in page(stranger_client.get(url("players")))
    data = {"display_name": "  Emi   T. ", "real_name": "Emi Tanaka", "ema_number": "0401 0001"}

    response = stranger_client.post(url("player_create"), data)

    player = Player.objects.get()
    assert response.status_code == 302 and response.url == url("player", player.pk)
    assert player.display_name == "Emi T." and player.ema_number == "04010001"


def test_a_visitor_is_sent_to_log_in_to_add_a_player(anonymous):
    response = anonymous.post(url("player_create"), {"display_name": "Emi"})

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Player.objects.exists()


def test_a_player_name_that_differs_only_in_case_is_refused(organiser_client, players):
    response = organiser_client.post(url("player_create"), {"display_name": "aki"})

    assert response.status_code == 200
    assert "There is already a player called “Aki”." in page(response)
    assert Player.objects.count() == 4


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("0401A001", "An EMA number has digits only"),
        ("0401001", "An EMA number has 8 digits; this one has 7."),
        ("040100011", "An EMA number has 8 digits; this one has 9."),
    ],
)
def test_a_bad_ema_number_is_refused(organiser_client, number, message):
    data = {"display_name": "Emi", "ema_number": number}
    response = organiser_client.post(url("player_create"), data)

    assert response.status_code == 200 and message in page(response)
    assert not Player.objects.exists()


def test_the_player_page_lists_their_games_finished_first(anonymous, session, players):
    second = services.create_game(session, players, table_number=2)
    finish_with_draws(second)
    first = services.create_game(session, players, table_number=1)

    response = anonymous.get(url("player", players[0].pk))

    assert response.status_code == 200
    html = page(response)
    assert html.index(url("game", second.pk)) < html.index(url("game", first.pk))
    assert "Thursday League" in html and "+45" in html


def test_a_players_real_name_is_shown_to_logged_in_users_only(anonymous, stranger_client, players):
    Player.objects.filter(pk=players[0].pk).update(real_name="Akiko Sato")

    assert "Akiko Sato" not in page(anonymous.get(url("player", players[0].pk)))
    assert "Akiko Sato" in page(stranger_client.get(url("player", players[0].pk)))


def test_the_player_page_hides_games_of_private_events_from_another_user(
    stranger_client, organiser_client, private_session, players
):
    game = services.create_game(private_session, players, table_number=1)

    assert url("game", game.pk) not in page(stranger_client.get(url("player", players[0].pk)))
    assert url("game", game.pk) in page(organiser_client.get(url("player", players[0].pk)))


def test_an_unknown_player_is_not_found(anonymous):
    assert anonymous.get(url("player", 999)).status_code == 404


# Navigation


def test_every_page_offers_events_players_and_logging_in(anonymous, event):
    html = page(anonymous.get(url("event", "thursday")))

    assert url("home") in html and url("players") in html
    assert f"{reverse('login')}?next=/events/thursday/" in html


def test_logging_out_is_a_form_that_posts(organiser_client):
    html = page(organiser_client.get(url("players")))

    assert f'<form method="post" action="{reverse("logout")}"' in html

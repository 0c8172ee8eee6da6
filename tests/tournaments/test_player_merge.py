"""Merging two players who are one person: everything moves to the kept player in one
go, the merged name stays as an alias the search finds, the stored totals are recounted,
and two people are never merged."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.tournaments.builders import final_game
from tests.tournaments.test_page_freshness import normal
from tournaments import backup, services
from tournaments.models import (
    CheckIn,
    Event,
    GameSeat,
    Player,
    PlayerAlias,
    PlayerTotal,
    Registration,
    RosterEntry,
    Session,
    StatisticsTotal,
)
from tournaments.standings import event_standings

pytestmark = pytest.mark.django_db


def _event(organiser, slug, day, *, public=True) -> Event:
    event = Event.objects.create(
        name=slug.title(), slug=slug, starts_on=datetime.date(2026, 3, day), is_public=public
    )
    event.organisers.add(organiser)
    return event


def _session(event, number=1) -> Session:
    return Session.objects.create(
        event=event, number=number, date=event.starts_on + datetime.timedelta(days=number - 1)
    )


@pytest.fixture
def twice(organiser, django_user_model):
    """Kenji played the spring cup as "Kenji" and the summer cup as "K. Sato", with a login
    and an EMA number only on the second."""
    spring = _event(organiser, "spring", 1)
    summer = _event(organiser, "summer", 20)
    final_game(_session(spring), ["Kenji", "Aki", "Ben", "Chie"], [40000, 30000, 20000, 10000], 1)
    final_game(_session(summer), ["K. Sato", "Aki", "Ben", "Chie"], [10000, 20000, 30000, 40000], 1)
    kenji = Player.objects.get(display_name="Kenji")
    sato = Player.objects.get(display_name="K. Sato")
    sato.user = django_user_model.objects.create_user(username="kenji", password="x-long-pass")
    sato.ema_number = "04010001"
    sato.real_name = "Kenji Sato"
    sato.save()
    services.add_to_roster(summer.pk, [sato])
    Registration.objects.create(
        event=summer, player=sato, status="confirmed", asked_at=datetime.datetime.now(datetime.UTC)
    )
    return {"spring": spring, "summer": summer, "kenji": kenji, "sato": sato}


def test_a_merge_moves_every_seat_roster_place_registration_and_the_login(twice):
    kenji, sato, summer = twice["kenji"], twice["sato"], twice["summer"]
    login = sato.user_id

    services.merge_players(kenji.pk, sato.pk)

    assert not Player.objects.filter(pk=sato.pk).exists()
    kenji.refresh_from_db()
    assert kenji.user_id == login
    assert kenji.ema_number == "04010001"
    assert kenji.real_name == "Kenji Sato"
    assert GameSeat.objects.filter(player=kenji).count() == 2
    assert RosterEntry.objects.filter(event=summer, player=kenji).exists()
    assert Registration.objects.filter(event=summer, player=kenji).exists()
    assert list(kenji.aliases.values_list("name", "former_id")) == [("K. Sato", sato.pk)]


def test_a_merge_recounts_the_stored_totals_and_statistics_of_both_events(twice):
    kenji, sato, summer = twice["kenji"], twice["sato"], twice["summer"]

    services.merge_players(kenji.pk, sato.pk)

    rows = PlayerTotal.objects.filter(player_id__in=[kenji.pk, sato.pk], session=None)
    assert sorted(rows.values_list("event__slug", "player_id")) == [
        ("spring", kenji.pk),
        ("summer", kenji.pk),
    ]
    assert not StatisticsTotal.objects.filter(player_id=sato.pk).exists()
    assert StatisticsTotal.objects.filter(player=kenji, event=summer, session=None).get().games == 1
    # The summer standings now name the kept player, with the last place he took there:
    # 10,000 is -20 +(-30) uma after a return of 30,000 (Ari-Ari: 30,000 return, 10/30 uma).
    last = event_standings(summer).rows[-1]
    assert (last.player_id, last.player) == (kenji.pk, "Kenji")
    assert last.match_points == Decimal("-50.0")


def test_the_player_search_finds_a_merged_player_by_the_old_name(twice, organiser_client):
    services.merge_players(twice["kenji"].pk, twice["sato"].pk)

    page = Client().get(reverse("tournaments:players") + "?q=sato").content.decode()

    assert ">Kenji<" in page
    assert "K. Sato" not in page.split("<table", 1)[1]  # the row is the kept player's


def test_the_player_page_names_the_alias_and_the_old_address_leads_there(twice):
    kenji, sato = twice["kenji"], twice["sato"]
    services.merge_players(kenji.pk, sato.pk)

    old = Client().get(reverse("tournaments:player", args=[sato.pk]))
    page = Client().get(reverse("tournaments:player", args=[kenji.pk])).content.decode()

    assert old.status_code == 302
    assert old["Location"] == reverse("tournaments:player", args=[kenji.pk])
    assert "Also known as K. Sato" in page


def test_two_players_who_sat_at_one_game_are_never_merged(twice):
    aki, ben = Player.objects.get(display_name="Aki"), Player.objects.get(display_name="Ben")

    with pytest.raises(services.MergeRefused) as refused:
        services.merge_players(aki.pk, ben.pk)

    assert str(refused.value).startswith("Aki and Ben sat at the same game (")
    assert "they are two people" in str(refused.value)
    assert GameSeat.objects.filter(player=ben).count() == 2


def test_two_players_who_played_in_one_session_are_never_merged(twice):
    spring = twice["spring"]
    final_game(spring.sessions.get(), ["Dan", "Eri", "Fumi", "Gen"], [25000] * 4, 2)
    kenji, dan = twice["kenji"], Player.objects.get(display_name="Dan")

    refusals = services.merge_refusals(kenji, dan)

    assert [str(r) for r in refusals] == [
        "Kenji and Dan both played in session 1 of Spring: one person plays one game at a time."
    ]
    with pytest.raises(services.MergeRefused):
        services.merge_players(kenji.pk, dan.pk)


def test_a_player_is_not_merged_with_themselves(twice):
    kenji = twice["kenji"]

    with pytest.raises(services.MergeRefused) as refused:
        services.merge_players(kenji.pk, kenji.pk)

    assert str(refused.value) == "A player cannot be merged with themselves."
    assert Player.objects.filter(pk=kenji.pk).exists()


def test_two_logins_or_two_ema_numbers_are_refused_with_what_to_do(twice, django_user_model):
    kenji, sato = twice["kenji"], twice["sato"]
    kenji.user = django_user_model.objects.create_user(username="other", password="x-long-pass")
    kenji.ema_number = "04010002"
    kenji.save()

    said = [str(r) for r in services.merge_refusals(kenji, sato)]

    assert said == [
        "Kenji and K. Sato each have a login of their own: unlink one of them first.",
        "Kenji and K. Sato have different EMA numbers (04010002 and 04010001): correct the "
        "wrong one first.",
    ]


def test_two_roster_places_in_one_event_are_refused(twice):
    kenji, sato, summer = twice["kenji"], twice["sato"], twice["summer"]
    services.add_to_roster(summer.pk, [kenji])

    said = [str(r) for r in services.merge_refusals(kenji, sato)]

    assert said == [
        "Kenji and K. Sato are both on the roster of Summer: take one of them off it first."
    ]


def test_two_check_ins_for_one_session_are_refused_by_the_unique_rule(twice):
    kenji, sato, summer = twice["kenji"], twice["sato"], twice["summer"]
    later = _session(summer, 2)
    CheckIn.objects.create(session=later, player=sato)
    CheckIn.objects.create(session=later, player=kenji)

    said = [str(r) for r in services.merge_refusals(kenji, sato)]

    assert len(said) == 1
    assert said[0].startswith("Both players have check-ins that only one player may hold")


def test_the_organiser_previews_then_merges_on_the_page(twice, organiser_client):
    kenji, sato = twice["kenji"], twice["sato"]
    url = reverse("tournaments:player_merge", args=[kenji.pk])

    search = organiser_client.get(url + "?q=sato").content.decode()
    preview = organiser_client.get(url + f"?other={sato.pk}").content.decode()
    assert f"other={sato.pk}" in search
    assert "K. Sato into Kenji" in preview
    assert "Their login" in preview
    assert Player.objects.filter(pk=sato.pk).exists()  # a preview changes nothing

    response = organiser_client.post(url, {"other": sato.pk})

    assert response.status_code == 302
    assert not Player.objects.filter(pk=sato.pk).exists()
    assert PlayerAlias.objects.filter(player=kenji, name="K. Sato").exists()


def test_the_page_shows_why_two_people_are_not_merged_and_changes_nothing(twice, organiser_client):
    aki, ben = Player.objects.get(display_name="Aki"), Player.objects.get(display_name="Ben")
    url = reverse("tournaments:player_merge", args=[aki.pk])

    preview = organiser_client.get(url + f"?other={ben.pk}").content.decode()
    posted = organiser_client.post(url, {"other": ben.pk})
    empty = organiser_client.post(url, {})
    wrong = organiser_client.post(url, {"other": "ben"})

    assert "they are two people" in preview
    assert 'name="other" value' not in preview  # no merge button
    assert posted.status_code == 200 and "they are two people" in posted.content.decode()
    assert "Choose the player to merge into this one." in empty.content.decode()
    assert "Choose the player from the list of matches." in wrong.content.decode()
    assert Player.objects.filter(pk=ben.pk).exists()


def test_a_stranger_cannot_merge_and_an_organiser_only_players_of_their_events(
    twice, stranger_client, django_user_model
):
    kenji, sato = twice["kenji"], twice["sato"]
    url = reverse("tournaments:player_merge", args=[kenji.pk])

    assert stranger_client.post(url, {"other": sato.pk}).status_code == 403

    # Someone else's event, with a player the organiser of the cups knows but does not
    # organise.
    other = django_user_model.objects.create_user(username="other", password="x-long-pass")
    elsewhere = _event(other, "elsewhere", 25)
    final_game(_session(elsewhere), ["Kenji S.", "Q", "R", "S"], [25000] * 4, 1)
    twin = Player.objects.get(display_name="Kenji S.")
    client = Client()
    client.force_login(Event.objects.get(slug="spring").organisers.get())
    page = client.post(url, {"other": twin.pk}).content.decode()

    assert "Only an organiser of an event both players played in can merge them" in page
    assert Player.objects.filter(pk=twin.pk).exists()
    assert Player.objects.filter(pk=sato.pk).exists()


def test_no_page_is_stale_after_a_merge(twice):
    kenji, sato, summer = twice["kenji"], twice["sato"], twice["summer"]
    client = Client()
    urls = [
        reverse("tournaments:standings", args=["summer"]),
        reverse("tournaments:results", args=["summer"]),
        reverse("tournaments:statistics", args=["summer"]),
        reverse("tournaments:event", args=["summer"]),
        reverse("tournaments:player", args=[kenji.pk]),
    ]
    before = [normal(client.get(url).content.decode()) for url in urls]
    assert all("K. Sato" in page for page in before[:4])

    services.merge_players(kenji.pk, sato.pk)
    served = [normal(client.get(url).content.decode()) for url in urls]
    cache.clear()
    fresh = [normal(client.get(url).content.decode()) for url in urls]

    assert served == fresh
    assert all("K. Sato" not in page for page in served[:4])
    assert served[4] != before[4]
    assert "Summer" in served[4]
    assert summer.pk  # the event is the one recounted


def test_the_profile_lists_events_a_page_at_a_time_with_the_place_in_each(organiser, monkeypatch):
    from tournaments.views import events as event_views

    monkeypatch.setattr(event_views, "PLAYER_EVENTS_PER_PAGE", 2)
    for day, scores in ((1, [40000, 30000, 20000, 10000]), (2, [10000, 20000, 30000, 40000])):
        final_game(
            _session(_event(organiser, f"cup-{day}", day)), ["Mio", "X", "Y", "Z"], scores, 1
        )
    final_game(_session(_event(organiser, "cup-3", 3)), ["X", "Mio", "Y", "Z"], [25000] * 4, 1)
    mio = Player.objects.get(display_name="Mio")
    url = reverse("tournaments:player", args=[mio.pk])

    def events_part(query=""):
        page = Client().get(url + query).content.decode()
        return page.split('id="events-title"', 1)[1].split('id="record-title"', 1)[0]

    first, second, beyond = events_part(), events_part("?events=2"), events_part("?events=99")

    # Newest first: cup 3 (an even split, Mio 2nd of 4 by seat order) and cup 2 (last).
    assert "Cup-3" in first and "Cup-2" in first and "Cup-1" not in first
    assert "Events page 1 of 2" in first and "Older events" in first and "3 events" in first
    assert "Cup-1" in second and "Cup-3" not in second and "Newer events" in second
    assert "Cup-1" in beyond and "Events page 2 of 2" in beyond
    cells = first.split('data-testid="event-place">')[1:]
    assert [cell.split("<", 1)[0] for cell in cells] == ["2 of 4", "4 of 4"]


def _restored(data) -> None:
    from django.contrib.auth import get_user_model

    Event.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()
    backup.restore_site(data)


def test_the_backup_carries_aliases_and_the_real_name_choice(twice):
    services.merge_players(twice["kenji"].pk, twice["sato"].pk)
    Player.objects.filter(display_name="Kenji").update(real_name_shown="organisers")
    data = json.loads(json.dumps(backup.dump_site(), default=str))

    _restored(data)

    kenji = Player.objects.get(display_name="Kenji")
    assert list(kenji.aliases.values_list("name", flat=True)) == ["K. Sato"]
    assert kenji.real_name_shown == "organisers"
    page = Client().get(reverse("tournaments:players") + "?q=k.+sato").content.decode()
    assert ">Kenji<" in page


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"aliases": "K. Sato"}, "“aliases” is a list of at most 100 names"),
        ({"aliases": ["x" * 61]}, "alias of player"),
        ({"real_name_shown": "nobody"}, "real_name_shown"),
    ],
)
def test_a_backup_with_bad_aliases_or_choice_is_refused(twice, change, problem):
    data = json.loads(json.dumps(backup.dump_site(), default=str))
    data["players"][0].update(change)

    with pytest.raises(backup.RestoreRefused, match=problem):
        _restored(data)


def test_the_roster_search_finds_a_merged_player_by_the_old_name(twice, organiser_client):
    services.merge_players(twice["kenji"].pk, twice["sato"].pk)
    autumn = _event(Event.objects.get(slug="spring").organisers.get(), "autumn", 28)

    page = organiser_client.get(
        reverse("tournaments:roster", args=[autumn.slug]) + "?q=sato"
    ).content.decode()

    assert f'value="{twice["kenji"].pk}"' in page

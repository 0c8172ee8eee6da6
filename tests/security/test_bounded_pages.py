"""Pages and exports cost a bounded amount whatever the address asks for."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.builders import small_league
from tournaments.limits import MAX_PER_PAGE
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["results", "standings"])
def test_a_huge_per_page_is_capped(client, organiser, page):
    small_league(organiser)

    response = client.get(reverse(f"tournaments:{page}", args=["league"]), {"per_page": "100000"})

    assert response.status_code == 200
    assert response.context["table"].paginator.per_page == MAX_PER_PAGE


@pytest.mark.parametrize("value", ["-5", "0", "abc"])
def test_a_nonsense_per_page_still_shows_the_page(client, organiser, value):
    small_league(organiser)

    response = client.get(reverse("tournaments:results", args=["league"]), {"per_page": value})

    assert response.status_code == 200
    assert 1 <= response.context["table"].paginator.per_page <= MAX_PER_PAGE


def test_the_player_list_caps_per_page_too(client, organiser):
    small_league(organiser)

    response = client.get(reverse("tournaments:players"), {"per_page": "100000"})

    assert response.status_code == 200
    assert response.context["table"].paginator.per_page == MAX_PER_PAGE


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json"])
def test_a_repeated_export_is_served_from_the_cache_until_results_change(client, organiser, fmt):
    event = small_league(organiser)
    address = reverse("tournaments:results", args=["league"])

    with CaptureQueriesContext(connection) as first:
        one = client.get(address, {"_export": fmt})
    with CaptureQueriesContext(connection) as second:
        two = client.get(address, {"_export": fmt})

    assert one.content == two.content
    # Only the event itself is read again; the games are not.
    assert len(second) < len(first)
    assert not any("tournaments_gameseat" in query["sql"] for query in second.captured_queries)

    player = Player.objects.filter(seats__game__session__event=event).first()
    player.display_name = "Renamed"
    player.save()
    three = client.get(address, {"_export": fmt})
    assert three.content != one.content


@pytest.mark.parametrize("name", ["home", "statistics"])
def test_every_other_paged_list_caps_per_page(client, organiser, name):
    small_league(organiser)
    args = [] if name == "home" else ["league"]

    response = client.get(reverse(f"tournaments:{name}", args=args), {"per_page": "100000"})

    assert response.status_code == 200
    assert response.context["table"].paginator.per_page == MAX_PER_PAGE


def test_an_export_ignores_per_page_and_has_every_row(client, organiser):
    small_league(organiser)
    address = reverse("tournaments:results", args=["league"])

    text = client.get(address, {"_export": "csv", "per_page": "1", "page": "2"}).content

    assert len(text.decode("utf-8-sig").strip().splitlines()) == 1 + 12  # header, 3 games

"""Between rounds (the round on the screen seated, nothing entered in it) the live screen
shows where everyone sits, by name A-Z with table and wind, a page a poll; once the first
hand or score is in, it shows the tables again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.sanma_builders import sanma_event
from tournaments import services
from tournaments.models import Game, Player
from tournaments.views import live

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
DRAW = {"result": "draw", "riichi": [], "tenpai": []}


def panel(client, event, query: str = "") -> str:
    address = reverse("tournaments:live", args=[event.slug]) + query
    return client.get(address, **HTMX).content.decode()


def names_in(text: str) -> list[str]:
    return [part.split("</span>")[0] for part in text.split('<span class="name">')[1:]]


def test_a_seated_round_shows_its_seating_by_name_with_table_and_wind(client, session, players):
    services.create_game(session, list(reversed(players)), table_number=3)
    text = panel(client, session.event)
    assert "Find your table" in text and "live-cards" not in text
    assert names_in(text) == ["Aki", "Ben", "Chie", "Dan"]
    assert "Table 3 · East" in text and "Table 3 · North" in text


def test_the_first_hand_brings_the_tables_back(client, session, game):
    assert "Find your table" in panel(client, session.event)
    services.add_hand(game.pk, 1, DRAW)
    text = panel(client, session.event)
    assert "Find your table" not in text and 'data-table="1"' in text


def test_a_chombo_as_the_first_hand_brings_the_tables_back_though_the_round_stays(
    client, session, game
):
    services.add_hand(game.pk, 1, {"result": "chombo", "riichi": [], "offender": 2})
    game.refresh_from_db()
    assert game.round_now == "E1-0"  # what the game says of itself is no help here
    text = panel(client, session.event)
    assert "Find your table" not in text and 'data-table="1"' in text


def test_final_scores_entered_end_the_seating_too(client, session, final_game):
    assert "Find your table" in panel(client, session.event)
    services.set_final_scores(final_game.pk, [40000, 30000, 20000, 10000], 0)
    assert "Find your table" not in panel(client, session.event)


def test_a_long_seating_pages_through_and_wraps(client, session, monkeypatch):
    monkeypatch.setattr(live, "SEATING_PER_PAGE", 3)
    for table in (1, 2):
        seated = [Player.objects.create(display_name=f"T{table}P{n}") for n in range(4)]
        services.create_game(session, seated, table_number=table)
    first = panel(client, session.event)
    assert "page 1 of 3" in first and names_in(first) == ["T1P0", "T1P1", "T1P2"]
    assert "page=1&amp;" in first
    second = panel(client, session.event, "?page=1")
    assert names_in(second) == ["T1P3", "T2P0", "T2P1"]
    last = panel(client, session.event, "?page=2")
    assert names_in(last) == ["T2P2", "T2P3"] and "page=0&amp;" in last
    assert names_in(panel(client, session.event, "?page=9999")) == names_in(first)


def test_a_round_of_three_shows_three_winds(client, organiser):
    event = sanma_event(organiser)
    players = services.players_by_name(["Chie", "Aki", "Ben"], create=True)
    services.create_game(event.sessions.get(), players, table_number=2)
    text = panel(client, event)
    assert names_in(text) == ["Aki", "Ben", "Chie"]
    assert "Table 2 · East" in text and "Table 2 · West" in text and "North" not in text
    assert Game.objects.get().seats.count() == 3

"""A reader's game page is kept until the game itself changes: a hand at another table,
which replaces the event's play version, leaves it as it was rendered."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import Player
from tournaments.wording.formatting import points

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
DRAW = {"result": "draw", "riichi": [], "tenpai": []}


@pytest.fixture
def other_game(session):
    players = [Player.objects.create(display_name=f"O{i}") for i in range(4)]
    return services.create_game(session, players, table_number=2)


def _reads_hands(client: Client, game) -> tuple[str, bool]:
    """The game page (without its form token, new in every response) and whether serving
    it read the game's hands."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("tournaments:game", args=[game.pk]))
    assert response.status_code == 200
    read = any("tournaments_hand" in q["sql"] for q in queries.captured_queries)
    return re.sub(r"[A-Za-z0-9]{64}", "(token)", response.content.decode()), read


def test_a_hand_at_another_table_leaves_a_readers_game_page_as_kept(game, other_game):
    services.add_hand(game.pk, 1, RON)
    reader = Client()
    first, read = _reads_hands(reader, game)
    assert read and points(30200) in first
    services.add_hand(other_game.pk, 1, DRAW)
    again, read = _reads_hands(reader, game)
    assert not read  # served as kept
    assert again == first


def test_a_hand_at_the_game_itself_shows_at_once_to_a_reader(game, other_game):
    reader = Client()
    before, _read = _reads_hands(reader, game)
    services.add_hand(game.pk, 1, RON)
    after, read = _reads_hands(reader, game)
    assert read and points(30200) in after and points(30200) not in before
    services.undo_last_hand(game.pk)
    undone, read = _reads_hands(reader, game)
    assert read and undone != after


def test_an_organisers_game_page_follows_every_change_of_play(organiser_client, game, other_game):
    url = reverse("tournaments:game", args=[game.pk])
    organiser_client.get(url)
    services.renew_table_link(game.pk)  # the organiser sees the table's link on the page
    page = organiser_client.get(url).content.decode()
    link = game.table_links.live().get()
    assert link.get_absolute_url().split("#")[0] in page

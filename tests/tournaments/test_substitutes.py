"""Substitutes: a seat taken for one game only. The game counts for the other three as
usual; the substitute is not ranked in the standings, on the page or in its exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import GameSeat, Player

pytestmark = pytest.mark.django_db

DRAW = {"result": "draw", "riichi": [], "tenpai": []}
RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def play_out(game) -> None:
    services.add_hand(game.pk, 1, RON)
    for number in range(2, 9):
        services.add_hand(game.pk, number, DRAW)
    game.refresh_from_db()
    assert game.is_finished


@pytest.fixture
def sub_game(session, players):
    """Ben (South, who wins the ron) sits in as a substitute."""
    game = services.create_game(session, players, table_number=1, substitutes=[1])
    play_out(game)
    return game


def standings_names(client, event, export: str | None = None) -> list[str]:
    query = {"_export": export} if export else {}
    response = client.get(url("standings", event.slug), query)
    if export == "csv":
        text = b"".join(response.streaming_content if response.streaming else [response.content])
        rows = list(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))
        return [row["Player"] for row in rows]
    if export == "json":
        return [row["Player"] for row in json.loads(response.content)]
    return response.content.decode()


def test_a_substitute_is_not_ranked_but_the_game_counts_for_the_other_three(
    client, event, sub_game
):
    names = standings_names(client, event, "csv")
    assert sorted(names) == ["Aki", "Chie", "Dan"]
    seats = {s.player.display_name: s for s in sub_game.seats.select_related("player")}
    # The other three keep the placements the whole table gave them: Ben won, so nobody
    # of them is first.
    assert sorted(seats[n].placement for n in names) == [2, 3, 4]
    assert seats["Ben"].placement == 1


def test_the_json_export_leaves_the_substitute_out_too(client, event, sub_game):
    assert sorted(standings_names(client, event, "json")) == ["Aki", "Chie", "Dan"]


def test_the_standings_page_leaves_the_substitute_out(client, event, sub_game):
    page = standings_names(client, event)
    assert "Aki" in page and "Ben" not in page


def test_a_substitute_who_also_plays_as_a_regular_is_ranked_on_their_regular_games(
    client, event, session, players, sub_game
):
    second = services.create_game(
        session, [players[1], players[0], players[2], players[3]], table_number=3
    )
    play_out(second)
    names = standings_names(client, event, "csv")
    assert sorted(names) == ["Aki", "Ben", "Chie", "Dan"]


def test_an_organiser_marks_a_substitute_on_a_new_game(organiser_client, session, players):
    data = {
        "table_number": "4",
        "entry_mode": "hands",
        "east": players[0].pk,
        "south": players[1].pk,
        "west": players[2].pk,
        "north": players[3].pk,
        "substitutes": ["3"],
    }
    response = organiser_client.post(url("game_create", session.event.slug, 1), data)
    assert response.status_code == 302
    seat = GameSeat.objects.get(game__table_number=4, is_substitute=True)
    assert seat.player == players[3]
    page = organiser_client.get(response["Location"]).content.decode()
    assert "substitute" in page


def test_marking_a_substitute_on_a_finished_game_changes_the_standings_at_once(
    organiser_client, client, event, game, players
):
    play_out(game)
    assert "Ben" in standings_names(client, event, "csv")
    data = {
        "table_number": "1",
        "east": players[0].pk,
        "south": players[1].pk,
        "west": players[2].pk,
        "north": players[3].pk,
        "substitutes": ["1"],
    }
    assert organiser_client.post(url("game_edit", game.pk), data).status_code == 302
    assert "Ben" not in standings_names(client, event, "csv")
    data.pop("substitutes")
    organiser_client.post(url("game_edit", game.pk), data)
    assert "Ben" in standings_names(client, event, "csv")


def test_four_substitutes_are_refused(organiser_client, session, players):
    data = {
        "table_number": "4",
        "entry_mode": "hands",
        "east": players[0].pk,
        "south": players[1].pk,
        "west": players[2].pk,
        "north": players[3].pk,
        "substitutes": ["0", "1", "2", "3"],
    }
    response = organiser_client.post(url("game_create", session.event.slug, 1), data)
    assert response.status_code == 200
    assert "A game of four substitutes counts for nobody" in response.content.decode()
    assert not GameSeat.objects.exists()


def test_an_unranked_substitute_still_has_the_game_on_their_player_page(client, sub_game):
    ben = Player.objects.get(display_name="Ben")
    page = client.get(url("player", ben.pk)).content.decode()
    assert f'href="{sub_game.get_absolute_url()}"' in page

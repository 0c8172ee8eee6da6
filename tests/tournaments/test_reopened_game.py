"""A reopened game says why it is over and what to do, and shows no dealer or next hand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Game

pytestmark = pytest.mark.django_db

DRAW_NOTEN = {"result": "draw", "riichi": [], "tenpai": []}


def url(name, game):
    return reverse(f"tournaments:{name}", args=[game.pk])


def main_html(response) -> str:
    html = response.content.decode().replace("&#x27;", "'")
    return html[html.index("<main") : html.index("</main>")]


def test_a_reopened_hanchan_gives_the_reason_and_no_next_dealer(organiser_client, game):
    for number in range(1, 9):
        services.add_hand(game.pk, number, DRAW_NOTEN)

    response = organiser_client.post(url("game_reopen", game), follow=True)

    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.ended_by == "last_hand"
    html = main_html(response)
    assert "Game reopened: change or delete its hands, then finish it again." in html
    assert (
        "This game was reopened. It is over under its rules: the last hand was played. "
        "Change or delete its hands, then finish it again."
    ) in html
    assert '<span class="round">W1' not in html and "deals" not in html
    assert "seat-card dealer" not in html and '<span class="place">dealer' not in html


def test_a_reopened_final_score_game_names_its_scores_not_its_hands(organiser_client, final_game):
    services.set_final_scores(final_game.pk, [35000, 30000, 20000, 15000], 0)

    response = organiser_client.post(url("game_reopen", final_game), follow=True)

    final_game.refresh_from_db()
    assert final_game.status == Game.Status.IN_PROGRESS
    assert final_game.seats.get(seat=0).entered_score == 35000
    html = main_html(response)
    assert "Game reopened: change its final scores, or clear them, then save them again." in html
    assert "This game was reopened. Change its final scores below" in html
    assert "under its rules: ." not in html
    assert "hands can be changed" not in html
    assert "seat-card dealer" not in html and "deals" not in html


def test_visitors_see_the_reopened_banner_without_the_organisers_tools(anonymous, final_game):
    services.set_final_scores(final_game.pk, [35000, 30000, 20000, 15000], 0)
    services.reopen_game(final_game.pk)

    html = main_html(anonymous.get(url("game", final_game)))

    assert "This game was reopened. Its organisers are checking its final scores." in html
    assert "Finish the game" not in html

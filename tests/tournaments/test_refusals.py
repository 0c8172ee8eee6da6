"""A refused change says what to do next, in a full sentence."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Hand
from tournaments.views.games import refusal

pytestmark = pytest.mark.django_db

DRAW_NOTEN = {"result": "draw", "riichi": [], "tenpai": []}
# Chie (seat 2) deals in a dealer yakuman: 48,000 takes her below zero, and the game ends.
BUST_FORM = {"result": "ron", "riichi": [], "w1_winner": "0", "loser": "2", "w1_han": "Y"}
BUST_FORM["w1_yakuman"] = "1"


def test_an_edit_that_ends_the_game_early_says_which_hands_to_delete(organiser_client, game):
    for number in range(1, 4):
        services.add_hand(game.pk, number, DRAW_NOTEN)
    edit = reverse("tournaments:hand_edit", args=[game.pk, 1])

    response = organiser_client.post(edit, {**BUST_FORM, "action": "preview"})

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "With this change the game would be over before hand 2 (a player went below zero). "
        "Delete hand 2 and the hands after it first (from the last one), then make this "
        "change again; or change it so that the game goes on."
    ) in html
    assert [h.result for h in Hand.objects.filter(game=game)] == ["draw"] * 3


def test_an_engine_refusal_starts_with_a_capital_and_says_what_to_do():
    text = refusal(services.GameChangeRefused("hand 7: 1 han 20 fu is not a possible ron"))

    assert text == "Hand 7: 1 han 20 fu is not a possible ron. Correct it, then check it again."

"""Pickers offer the seats in the hand's wind order with the dealer marked; the preview
names limit hands, lists riichi and breaks a seat's change into its parts."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.rules import Kazoe, Rules
from tournaments import services
from tournaments.forms.hands import HandForm, seat_labels
from tournaments.models import Hand
from tournaments.wording import describe_hand, limit_name

NAMES = ["Aki", "Ben", "Chie", "Dan"]
DRAW_NOTEN = {"result": "draw", "riichi": [], "tenpai": []}


def test_pickers_list_the_seats_from_the_dealer_on():
    form = HandForm(seats=seat_labels(NAMES, 2), rules=Rules())

    order = [value for value, _ in form.fields["w1_winner"].choices]

    assert order == [2, 3, 0, 1]
    assert [str(label) for _, label in form.fields["riichi"].choices][0] == "Chie (E)"
    assert form.name(0) == "Aki"


@pytest.mark.parametrize(
    ("win", "rules", "name"),
    [
        ({"han": 3, "fu": 40}, Rules(), ""),
        ({"han": 4, "fu": 40}, Rules(), "mangan"),
        ({"han": 4, "fu": 30}, Rules(), ""),
        ({"han": 4, "fu": 30}, Rules(kiriage=True), "mangan"),
        ({"han": 5}, Rules(), "mangan"),
        ({"han": 7}, Rules(), "haneman"),
        ({"han": 10}, Rules(), "baiman"),
        ({"han": 12}, Rules(), "sanbaiman"),
        ({"han": 13}, Rules(), "kazoe yakuman"),
        ({"han": 13}, Rules(kazoe=Kazoe.SANBAIMAN), "sanbaiman"),
        ({"yakuman": 1}, Rules(), ""),
    ],
)
def test_limit_hands_are_named_as_the_rules_pay_them(win, rules, name):
    assert limit_name(win, rules) == name


def test_a_summary_with_rules_names_the_limit():
    hand = {"result": "tsumo", "riichi": [], "wins": [{"winner": 2, "han": 6}]}
    assert describe_hand(hand, NAMES, rules=Rules()) == "Chie tsumo · 6 han haneman"
    assert describe_hand(hand, NAMES) == "Chie tsumo · 6 han"


@pytest.mark.django_db
def test_the_hand_form_marks_the_dealer(organiser_client, game):
    services.add_hand(game.pk, 1, DRAW_NOTEN)  # noten dealer: Ben deals next

    html = organiser_client.get(reverse("tournaments:hand_new", args=[game.pk])).content.decode()

    riichi = html[html.index('id="group-riichi"') :]
    assert re.search(r'class="pick dealer".*?<b>Ben</b>.*?E · dealer', riichi, re.S)
    assert riichi.index("<b>Ben</b>") < riichi.index("<b>Aki</b>")


@pytest.mark.django_db
def test_the_preview_lists_riichi_names_the_limit_and_gives_each_change_its_parts(
    organiser_client, game
):
    services.add_hand(game.pk, 1, DRAW_NOTEN)  # 1 honba, Ben deals
    data = {
        "number": "2",
        "result": "ron",
        "riichi": ["2", "3"],
        "w1_winner": "2",
        "w1_han": "6",
        "w2_winner": "3",
        "w2_han": "3",
        "w2_fu": "40",
        "loser": "0",
        "action": "preview",
    }

    response = organiser_client.post(reverse("tournaments:hand_new", args=[game.pk]), data)

    html = response.content.decode().replace("&#x27;", "'")
    assert "Double ron off Aki · Chie 6 han haneman, Dan 3 han 40 fu" in html
    assert "Riichi: Chie, Dan." in html
    aki = html[html.index("<summary>Aki") : html.index("</details>", html.index("<summary>Aki"))]
    assert "Chie's 6 han haneman</span> <b>−12,000" in aki
    assert "Dan's 3 han 40 fu</span> <b>−5,200" in aki
    assert "honba and riichi sticks</span> <b>−300" in aki
    assert Hand.objects.filter(game=game).count() == 1

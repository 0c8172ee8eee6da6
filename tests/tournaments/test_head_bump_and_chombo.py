"""The hand form, its preview, the game page and the game sheet follow the rules of a ron
with several winners and of a chombo.

WRC rules (scoring/rules.py, preset "wrc"): head bump, only the winner nearest the
discarder in turn order is paid (5.7.6); a chombo moves no points at the table and costs
the offender 30 match points (7.1, 2022 changes). Ari-ari: a chombo is paid at once as a
reverse mangan.
"""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Event, Game, Player, Session

# Chie (seat 2) and Ben (seat 1) both ron Aki's (seat 0) discard: Ben sits next after Aki,
# so head bump gives the hand to Ben; Chie's ron is not paid.
DOUBLE_RON = {
    "result": "ron",
    "riichi": [],
    "wins": [
        {"winner": 2, "loser": 0, "han": 3, "fu": 40},
        {"winner": 1, "loser": 0, "han": 1, "fu": 30},
    ],
}
DOUBLE_RON_FORM = {
    "result": "ron",
    "loser": "0",
    "w1_winner": "2",
    "w1_han": "3",
    "w1_fu": "40",
    "w2_winner": "1",
    "w2_han": "1",
    "w2_fu": "30",
}
CHOMBO = {"result": "chombo", "riichi": [], "offender": 0}
CHOMBO_FORM = {"result": "chombo", "offender": "0"}


def make_game(organiser, preset, names, overrides=None) -> Game:
    event = Event.objects.create(
        name="Day",
        slug="day",
        starts_on=datetime.date(2026, 9, 3),
        rules_preset=preset,
        rules_overrides=overrides or {},
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    players = [Player.objects.create(display_name=name) for name in names]
    return services.create_game(session, players, table_number=1)


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def text(response) -> str:
    """The page's text without tags, spaces squeezed."""
    body = html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))
    return " ".join(body.split())


@pytest.mark.django_db
def test_the_hand_form_under_head_bump_asks_for_one_winner(organiser_client, organiser):
    game = make_game(organiser, "wrc", ["Aki", "Ben", "Chie", "Dan"])
    page = organiser_client.get(url("hand_new", game.pk)).content.decode()
    assert 'name="w1_winner"' in page
    assert 'name="w2_winner"' not in page and "Second winner" not in page


@pytest.mark.django_db
def test_the_hand_form_under_double_ron_still_offers_a_second_winner(organiser_client, game):
    page = organiser_client.get(url("hand_new", game.pk)).content.decode()
    assert 'name="w2_winner"' in page and 'name="w3_winner"' not in page


@pytest.mark.django_db
def test_a_second_winner_posted_under_head_bump_is_not_stored(organiser_client, organiser):
    game = make_game(organiser, "wrc", ["Aki", "Ben", "Chie", "Dan"])
    organiser_client.post(
        url("hand_new", game.pk), {**DOUBLE_RON_FORM, "number": "1", "action": "save"}
    )
    (hand,) = game.to_record()["hands"]
    assert [w["winner"] for w in hand["wins"]] == [2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "names", [["Aki", "Ben", "Chie", "Dan"], ["Aki", "Ben", "Chie"]], ids=["four", "three"]
)
def test_an_older_double_ron_under_head_bump_names_the_one_winner_everywhere(
    organiser_client, organiser, names
):
    preset = "wrc" if len(names) == 4 else "tenhou-sanma"
    overrides = {} if len(names) == 4 else {"multi_ron": "head_bump"}
    game = make_game(organiser, preset, names, overrides)
    services.add_hand(game.pk, 1, DOUBLE_RON)
    said = "Ben ron off Aki · 1 han 30 fu · head bump: Chie not paid"

    shown = text(organiser_client.get(url("game", game.pk)))
    assert said in shown and "Double ron" not in shown
    sheet = text(organiser_client.get(url("game_sheet", game.pk)))
    assert said in sheet and "Double ron" not in sheet

    # Editing it shows both rons, and the preview says which one the head bump paid.
    form = organiser_client.get(url("hand_edit", game.pk, 1)).content.decode()
    assert 'name="w2_winner"' in form
    edit = url("hand_edit", game.pk, 1)
    preview = text(organiser_client.post(edit, {**DOUBLE_RON_FORM, "action": "preview"}))
    assert said in preview
    assert "Chie's 3 han 40 fu" not in preview
    assert game.to_record()["hands"] == [DOUBLE_RON]


@pytest.mark.django_db
def test_a_chombo_preview_states_the_match_point_penalty(organiser_client, organiser):
    game = make_game(organiser, "wrc", ["Aki", "Ben", "Chie", "Dan"])
    preview = text(
        organiser_client.post(
            url("hand_new", game.pk), {**CHOMBO_FORM, "number": "1", "action": "preview"}
        )
    )
    assert "Chombo · Aki −30.0 match points" in preview
    assert not game.hands.exists()

    services.add_hand(game.pk, 1, CHOMBO)
    assert "Chombo · Aki −30.0 match points" in text(organiser_client.get(url("game", game.pk)))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "names", [["Aki", "Ben", "Chie", "Dan"], ["Aki", "Ben", "Chie"]], ids=["four", "three"]
)
def test_a_chombo_paid_as_a_reverse_mangan_says_so(organiser_client, organiser, names):
    preset = "ari-ari" if len(names) == 4 else "tenhou-sanma"
    overrides = {} if len(names) == 4 else {"chombo": "reverse_mangan"}
    game = make_game(organiser, preset, names, overrides)
    preview = text(
        organiser_client.post(
            url("hand_new", game.pk), {**CHOMBO_FORM, "number": "1", "action": "preview"}
        )
    )
    assert "Chombo · Aki pays a reverse mangan:" in preview

"""A liable player (pao) who answers only for the yakuman they fed: the win's `pao_yakuman`
under `pao_scope: fed_yakuman` (Mahjong Soul), from the hand form to the database, the game
page, the records and an event's export and import."""

from __future__ import annotations

import json

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring.rules import resolve_rules
from tournaments import exchange, services
from tournaments.forms.hands import HandForm, initial_from_hand, seat_labels
from tournaments.models import Event, Win

NAMES = ["Aki", "Ben", "Chie", "Dan"]
MAHJONG_SOUL = resolve_rules("mahjongsoul")
TENHOU = resolve_rules("tenhou")
# Ben (South) tsumo with a double yakuman (daisangen and tsuuiisou, say), Chie (West) fed
# the third dragon: liable for one of the two yakuman.
DOUBLE_TSUMO = {
    "result": "tsumo",
    "w1_winner": "1",
    "w1_han": "Y",
    "w1_yakuman": "2",
    "w1_pao": "2",
    "w1_pao_yakuman": "1",
}


def hand_form(data, rules=MAHJONG_SOUL):
    return HandForm(data, seats=seat_labels(NAMES, 0), rules=rules)


def test_the_form_asks_how_many_yakuman_the_liable_player_fed_only_where_it_matters():
    assert "w1_pao_yakuman" in hand_form(None).fields
    # Tenhou's liable player answers for the whole win: there is nothing to ask.
    assert "w1_pao_yakuman" not in hand_form(None, TENHOU).fields


def test_a_pao_double_yakuman_keeps_how_many_yakuman_were_fed():
    form = hand_form(DOUBLE_TSUMO)
    assert form.is_valid(), form.errors
    assert form.to_hand()["wins"] == [{"winner": 1, "yakuman": 2, "pao": 2, "pao_yakuman": 1}]
    # Shown again for editing as it was entered.
    assert initial_from_hand(form.to_hand())["w1_pao_yakuman"] == 1


def test_a_pao_double_yakuman_without_the_count_is_liable_for_one_as_the_spec_says():
    data = {k: v for k, v in DOUBLE_TSUMO.items() if k != "w1_pao_yakuman"}
    form = hand_form(data)
    assert form.is_valid(), form.errors
    assert form.to_hand()["wins"][0]["pao_yakuman"] == 1


def test_a_single_pao_yakuman_needs_no_count():
    data = {**DOUBLE_TSUMO, "w1_yakuman": "1", "w1_pao_yakuman": "1"}
    form = hand_form(data)
    assert form.is_valid(), form.errors
    assert form.to_hand()["wins"] == [{"winner": 1, "yakuman": 1, "pao": 2}]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"w1_pao_yakuman": "3"},
            "Ben: the liable player can answer for at most the hand's 2 yakuman, not ×3: "
            "choose ×1 to ×2.",
        ),
        (
            {"w1_pao": "", "w1_pao_yakuman": "2"},
            "Ben: choose the liable player under Pao, or set Liable for to ×1.",
        ),
        (
            {"w1_pao_yakuman": "many"},
            "Liable for: choose how many of the yakuman were fed.",
        ),
    ],
)
def test_a_count_of_fed_yakuman_that_the_hand_cannot_hold_is_refused(change, message):
    form = hand_form({**DOUBLE_TSUMO, **change})
    assert not form.is_valid()
    assert message in form.errors["w1_pao_yakuman"]


@pytest.fixture
def soul_game(organiser, players):
    event = Event.objects.create(
        name="Soul League", slug="soul", starts_on="2026-09-03", rules_preset="mahjongsoul"
    )
    event.organisers.add(organiser)
    session = event.sessions.create(number=1, date="2026-09-03")
    return services.create_game(session, players, table_number=1)


def scores(game):
    return [s.score for s in game.seats.order_by("seat")]


@pytest.mark.django_db
def test_a_pao_double_yakuman_entered_on_the_form_pays_as_mahjong_soul_says(
    organiser_client, soul_game
):
    response = organiser_client.post(
        reverse("tournaments:hand_new", args=[soul_game.pk]),
        {**DOUBLE_TSUMO, "number": "1", "action": "save"},
    )
    assert response.status_code == 302
    win = Win.objects.get(hand__game=soul_game)
    assert (win.yakuman, win.pao, win.pao_yakuman) == (2, 2, 1)
    # pao_scope fed_yakuman: Chie answers alone for the fed yakuman of a non-dealer tsumo,
    # 32,000; the other yakuman is an ordinary non-dealer tsumo, 16,000 from Aki (dealer)
    # and 8,000 each from Chie and Dan. Ben +64,000; Aki -16,000; Chie -40,000; Dan -8,000.
    assert scores(soul_game) == [9000, 89000, -15000, 17000]
    page = organiser_client.get(soul_game.get_absolute_url()).content.decode()
    assert "(pao Chie for ×1 of ×2)" in page
    assert soul_game.to_record()["hands"][0]["wins"][0]["pao_yakuman"] == 1


@pytest.mark.django_db
def test_liable_for_both_yakuman_the_liable_player_pays_the_whole_tsumo(
    organiser_client, soul_game
):
    organiser_client.post(
        reverse("tournaments:hand_new", args=[soul_game.pk]),
        {**DOUBLE_TSUMO, "w1_pao_yakuman": "2", "number": "1", "action": "save"},
    )
    # Both yakuman fed: Chie pays all 64,000 of the tsumo.
    assert scores(soul_game) == [25000, 89000, -39000, 25000]


@pytest.mark.django_db
def test_a_refused_count_of_fed_yakuman_stores_nothing(organiser_client, soul_game):
    response = organiser_client.post(
        reverse("tournaments:hand_new", args=[soul_game.pk]),
        {**DOUBLE_TSUMO, "w1_pao_yakuman": "4", "number": "1", "action": "save"},
    )
    assert response.status_code == 200
    assert "not ×4: choose ×1 to ×2" in response.content.decode()
    assert not soul_game.hands.exists()
    assert scores(soul_game) == [25000] * 4


@pytest.mark.django_db
def test_the_database_refuses_a_count_of_fed_yakuman_beyond_the_win(soul_game):
    services.add_hand(
        soul_game.pk,
        1,
        {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "yakuman": 2, "pao": 2}]},
    )
    win = Win.objects.get(hand__game=soul_game)
    with pytest.raises(IntegrityError), transaction.atomic():
        Win.objects.filter(pk=win.pk).update(pao_yakuman=3)
    with pytest.raises(IntegrityError), transaction.atomic():
        Win.objects.filter(pk=win.pk).update(pao=None, pao_yakuman=1)


@pytest.mark.django_db
def test_an_event_export_and_import_keeps_how_many_yakuman_were_fed(soul_game):
    hand = {
        "result": "tsumo",
        "riichi": [],
        "wins": [{"winner": 1, "yakuman": 2, "pao": 2, "pao_yakuman": 1}],
    }
    services.add_hand(soul_game.pk, 1, hand)
    data = json.loads(json.dumps(exchange.export_event(soul_game.session.event)))
    assert data["games"][0]["record"]["hands"][0]["wins"][0]["pao_yakuman"] == 1
    copy = Event.objects.create(name="Copy", slug="copy", starts_on="2026-09-03")
    assert exchange.import_event(copy, data) == 1
    win = Win.objects.get(hand__game__session__event=copy)
    assert (win.yakuman, win.pao, win.pao_yakuman) == (2, 2, 1)
    copied = copy.sessions.get().games.get()
    assert scores(copied) == [9000, 89000, -15000, 17000]

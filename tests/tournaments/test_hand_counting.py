"""Counting help on the hand form: the yaku checklist fills han and fu and is stored."""

from __future__ import annotations

import re

from django.urls import reverse

from scoring.rules import Rules
from tournaments.forms.hands import HandForm, seat_labels
from tournaments.models import Win

NAMES = ["Aki", "Ben", "Chie", "Dan"]
# Ben (South, not the dealer) tsumo: riichi, menzen tsumo, pinfu and one dora; no han or fu.
BEGINNER_TSUMO = {
    "result": "tsumo",
    "riichi": ["1"],
    "w1_winner": "1",
    "w1_hand": "closed",
    "w1_yaku": ["riichi", "menzen_tsumo", "pinfu"],
    "w1_dora": "1",
}


def form(data, rules=None):
    return HandForm(data, seats=seat_labels(NAMES, 0), rules=rules or Rules())


def url(name, game, *args):
    return reverse(f"tournaments:{name}", args=[game.pk, *args])


def test_ticked_yaku_and_dora_give_the_han_and_the_fu_without_choosing_them():
    f = form(BEGINNER_TSUMO)
    assert f.is_valid(), f.errors
    assert f.to_hand()["wins"] == [
        {
            "winner": 1,
            "han": 4,
            "fu": 20,
            "yaku": ["riichi", "menzen_tsumo", "pinfu"],
            "dora": 1,
            "open": False,
        }
    ]


def test_an_open_hand_counts_the_open_values_and_the_han_chosen_must_agree():
    data = {
        "result": "ron",
        "riichi": [],
        "loser": "0",
        "w1_winner": "2",
        "w1_hand": "open",
        "w1_yaku": ["honitsu", "haku"],
        "w1_aka": "1",
        "w1_fu": "40",
    }
    f = form(data)
    assert f.is_valid(), f.errors
    assert f.to_hand()["wins"][0]["han"] == 4
    f = form({**data, "w1_han": "5"})
    assert not f.is_valid()
    assert "the ticked yaku and dora make 4 han, but 5 han is chosen" in str(f.errors)


def test_a_double_yakuman_sets_the_multiple():
    data = {
        "result": "ron",
        "riichi": [],
        "loser": "3",
        "w1_winner": "0",
        "w1_hand": "open",
        "w1_yaku": ["daisuushii"],
    }
    f = form(data)
    assert f.is_valid(), f.errors
    assert f.to_hand()["wins"][0] == {
        "winner": 0,
        "loser": 3,
        "yakuman": 2,
        "yaku": ["daisuushii"],
        "dora": 0,
        "open": True,
    }
    f = form({**data, "w1_han": "Y", "w1_yakuman": "1"})
    assert not f.is_valid()
    assert "the ticked yakuman make ×2, but ×1 is chosen" in str(f.errors)


def test_impossible_ticks_are_refused_with_the_reason():
    f = form({**BEGINNER_TSUMO, "w1_hand": "open", "w1_yaku": ["pinfu", "tanyao"]})
    assert not f.is_valid()
    assert "Ben: Pinfu needs a closed hand: untick it, or choose Closed." in str(f.errors)
    f = form({**BEGINNER_TSUMO, "w1_hand": ""})
    assert "Ben: choose Closed or Open" in str(f.errors)
    f = form({**BEGINNER_TSUMO, "w1_fu": "30"})
    assert "with pinfu by tsumo the hand is 20 fu, not 30" in str(f.errors)
    f = form({**BEGINNER_TSUMO, "w1_dora": "-2"})
    assert "Dora: enter a number from 0 to" in str(f.errors)


def test_seven_pairs_ron_takes_25_fu():
    data = {
        "result": "ron",
        "riichi": [],
        "loser": "0",
        "w1_winner": "3",
        "w1_hand": "closed",
        "w1_yaku": ["chiitoitsu", "tanyao"],
    }
    f = form(data)
    assert f.is_valid(), f.errors
    assert (f.to_hand()["wins"][0]["han"], f.to_hand()["wins"][0]["fu"]) == (3, 25)


def test_the_plain_han_and_fu_buttons_work_as_before():
    data = {"result": "ron", "riichi": [], "loser": "0", "w1_winner": "1", "w1_han": "3",
            "w1_fu": "40"}  # fmt: skip
    f = form(data)
    assert f.is_valid(), f.errors
    assert f.to_hand()["wins"] == [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]


def test_a_beginner_enters_riichi_tsumo_pinfu_one_dora_and_gets_the_right_payments(
    organiser_client, game
):
    page = organiser_client.get(url("hand_new", game)).content.decode()
    assert "Count it for me" in page and 'name="w1_yaku"' in page
    assert "js/hand-count.js" in page
    data = {**BEGINNER_TSUMO, "number": "1"}
    preview = organiser_client.post(url("hand_new", game), {**data, "action": "preview"})
    text = preview.content.decode()
    assert "Ben tsumo · 4 han 20 fu" in text
    assert "Ben: Riichi, Menzen tsumo, Pinfu · 1 dora · closed" in text
    organiser_client.post(url("hand_new", game), {**data, "action": "save"})
    win = Win.objects.get(hand__game=game)
    assert (win.han, win.fu, win.yaku, win.dora, win.is_open) == (
        4, 20, ["riichi", "menzen_tsumo", "pinfu"], 1, False
    )  # fmt: skip
    # 4 han 20 fu tsumo by a non-dealer: 1,300 from each child, 2,600 from the dealer,
    # and Ben's own riichi stick back.
    assert [s.score for s in game.seats.order_by("seat")] == [22400, 30200, 23700, 23700]


def test_refused_ticks_show_on_the_page_and_store_nothing(organiser_client, game):
    data = {**BEGINNER_TSUMO, "number": "1", "w1_hand": "open", "action": "save"}
    page = organiser_client.post(url("hand_new", game), data).content.decode()
    assert "Riichi needs a closed hand: untick it, or choose Closed." in page
    assert not game.hands.exists()


def test_the_page_draws_the_tile_picker_once_for_every_winner_to_share(organiser_client, game):
    # hand-picker.js copies it for a second and third winner; without it, it stays hidden.
    page = organiser_client.get(url("hand_new", game)).content.decode()
    assert page.count('data-count="') == 2  # a winner and a double ron's second
    assert page.count("data-picker=") == 1
    assert 'data-picker="1" hidden' in page


def test_the_tile_picker_answer_names_yaku_han_fu_and_dora(organiser_client, game):
    query = {
        "tiles": "234m406p678s22m567s",
        "win": "2m",
        "calls": "",
        "dora": "2m",
        "ura": "",
        "tsumo": "1",
        "riichi": "1",
        "seat_wind": "1",
        "round_wind": "0",
    }
    answer = organiser_client.get(url("hand_count", game), query).json()
    assert answer == {
        "ok": True,
        "han": 6,
        "fu": 20,
        "yakuman": 0,
        "yaku": ["menzen_tsumo", "riichi", "pinfu", "tanyao"],
        "dora": 2,
        "open": False,
        "text": "6 han: Menzen tsumo, Riichi, Pinfu, Tanyao and 2 dora",
    }
    # The same ticks through the checklist give the same han and fu.
    data = {
        "result": "tsumo", "riichi": ["1"], "w1_winner": "1", "w1_hand": "closed",
        "w1_yaku": answer["yaku"], "w1_dora": str(answer["dora"]),
    }  # fmt: skip
    f = form(data)
    assert f.is_valid(), f.errors
    assert f.to_hand()["wins"][0]["han"] == 6


def test_the_tile_picker_refuses_with_the_reason_and_answers_no_stranger(
    organiser_client, stranger_client, game
):
    query = {"tiles": "234m456p678s22m", "win": "2m", "tsumo": "1", "seat_wind": "0",
             "round_wind": "0"}  # fmt: skip
    answer = organiser_client.get(url("hand_count", game), query).json()
    assert answer == {
        "ok": False,
        "error": "The hand holds 11 tiles with its calls: a winning hand has 14.",
    }
    bad_wind = organiser_client.get(url("hand_count", game), {**query, "seat_wind": "7"}).json()
    assert "Choose the seat and round winds again" in bad_wind["error"]
    too_many = {**query, "calls": "pon:111z pon:222z pon:333z pon:444z pon:555z"}
    assert (
        "at most 4 calls" in organiser_client.get(url("hand_count", game), too_many).json()["error"]
    )
    assert stranger_client.get(url("hand_count", game), query).status_code == 403


def test_an_empty_forms_count_help_kept_once_is_the_one_the_form_draws(
    organiser_client, game, monkeypatch
):
    """Each winner's "Count it for me" in the empty form for the next hand is drawn once
    for its rules and language; the page is the same as with every one drawn in place."""
    from django.core.cache import cache

    from tournaments.views import hands

    def page(language):
        cache.clear()
        answer = organiser_client.get(url("hand_new", game), HTTP_ACCEPT_LANGUAGE=language)
        return re.sub(r"[A-Za-z0-9]{64}", "(token)", answer.content.decode())

    for language in ("en", "ja"):
        kept = page(language)
        assert "data-count=" in kept
        with monkeypatch.context() as patched:
            patched.setattr(hands, "_empty_count_help", lambda win, rules: "")
            assert page(language) == kept

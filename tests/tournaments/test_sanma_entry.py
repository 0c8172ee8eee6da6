"""Entering three-player (sanma) games: creating a game of three, the hand form and its
preview, the counting help's kita, final scores of three and the rules form's uma.

A three-player event's games have seats 0 (East), 1 (South) and 2 (West); payments follow
the engine's three-player rules (spec "Three-player games (sanma)"): under tenhou-sanma a
tsumo is paid as in a four-player game without the North's share (tsumo_loss on), 200 a
honba on a ron, 2,000 noten in all, 35,000 start.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Event, Game, Hand, Player, Session

NAMES = ["Aki", "Ben", "Chie"]


@pytest.fixture
def sanma_event(organiser):
    event = Event.objects.create(
        name="Sanma Night",
        slug="sanma",
        starts_on=datetime.date(2026, 9, 3),
        rules_preset="tenhou-sanma",
    )
    event.organisers.add(organiser)
    return event


@pytest.fixture
def sanma_session(sanma_event):
    return Session.objects.create(event=sanma_event, number=1, date=datetime.date(2026, 9, 3))


@pytest.fixture
def trio():
    return [Player.objects.create(display_name=name) for name in NAMES]


@pytest.fixture
def sanma_game(sanma_session, trio) -> Game:
    return services.create_game(sanma_session, trio, table_number=1)


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def content(response):
    return response.content.decode()


def scores(game):
    return [s.score for s in game.seats.order_by("seat")]


def hand_docs(game):
    return game.to_record()["hands"]


def save(client, game, data, number=1):
    return client.post(url("hand_new", game.pk), {**data, "number": str(number), "action": "save"})


# Creating a game of three.


@pytest.mark.django_db
def test_a_three_player_events_game_form_asks_for_east_south_and_west(
    organiser_client, sanma_session
):
    response = organiser_client.get(url("game_create", "sanma", 1))
    assert response.status_code == 200
    page = content(response)
    assert 'name="east"' in page and 'name="south"' in page and 'name="west"' in page
    assert 'name="north"' not in page
    assert "enter the three scores" in page


@pytest.mark.django_db
def test_creating_a_game_of_three_stores_three_seats(organiser_client, sanma_session, trio):
    data = {
        "table_number": "1",
        "entry_mode": "hands",
        "east": str(trio[0].pk),
        "south": str(trio[1].pk),
        "west": str(trio[2].pk),
    }
    response = organiser_client.post(url("game_create", "sanma", 1), data, follow=True)
    assert response.status_code == 200
    game = Game.objects.get()
    assert [(s.seat, s.player.display_name) for s in game.ordered_seats()] == list(enumerate(NAMES))
    assert scores(game) == [35000, 35000, 35000]
    assert "Table 1 created: East Aki, South Ben, West Chie." in content(response)


@pytest.mark.django_db
def test_a_game_of_three_needs_three_different_players(organiser_client, sanma_session, trio):
    data = {"table_number": "1", "entry_mode": "hands", "east": trio[0].pk, "south": trio[1].pk}
    response = organiser_client.post(url("game_create", "sanma", 1), data)
    assert response.status_code == 200
    assert "Choose the player at West: a three-player game needs three." in content(response)
    data["west"] = trio[0].pk
    response = organiser_client.post(url("game_create", "sanma", 1), data)
    assert "Aki is already at East: a three-player game needs three different players." in (
        content(response)
    )
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_service_refuses_four_players_for_a_three_player_event(sanma_session, trio):
    fourth = Player.objects.create(display_name="Dan")
    with pytest.raises(services.GameChangeRefused) as refused:
        services.create_game(sanma_session, [*trio, fourth], table_number=1)
    assert str(refused.value) == (
        "A game of this event needs three different players (three-player rules): choose three."
    )
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_substitute_at_a_three_player_table_and_three_substitutes_refused(
    organiser_client, sanma_session, trio
):
    data = {
        "table_number": "1",
        "entry_mode": "hands",
        "east": trio[0].pk,
        "south": trio[1].pk,
        "west": trio[2].pk,
        "substitutes": ["0", "1", "2"],
    }
    response = organiser_client.post(url("game_create", "sanma", 1), data)
    assert response.status_code == 200
    assert "A game of three substitutes counts for nobody" in content(response)
    assert not Game.objects.exists()
    response = organiser_client.post(url("game_create", "sanma", 1), {**data, "substitutes": "2"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s.is_substitute for s in game.ordered_seats()] == [False, False, True]


@pytest.mark.django_db
def test_editing_a_three_player_tables_seats_keeps_three_seats(organiser_client, sanma_game, trio):
    services.add_hand(sanma_game.pk, 1, {"result": "draw", "riichi": [], "tenpai": [0]})
    page = content(organiser_client.get(url("game_edit", sanma_game.pk)))
    assert 'name="west"' in page and 'name="north"' not in page
    newcomer = Player.objects.create(display_name="Dan")
    data = {
        "table_number": "1",
        "east": trio[0].pk,
        "south": newcomer.pk,
        "west": trio[2].pk,
        "substitutes": ["1"],
    }
    response = organiser_client.post(url("game_edit", sanma_game.pk), data)
    assert response.status_code == 302
    seats = sanma_game.ordered_seats()
    assert [(s.player.display_name, s.is_substitute) for s in seats] == [
        ("Aki", False),
        ("Dan", True),
        ("Chie", False),
    ]
    # The hand stays with its seat: Dan now holds Ben's noten 1,000.
    assert scores(sanma_game) == [37000, 34000, 34000]


# The hand form at three players.

RON_FORM = {"result": "ron", "riichi": ["2"], "w1_winner": "1", "loser": "0", "w1_han": "3"}
RON_FORM["w1_fu"] = "40"


def at_table(game) -> Client:
    """A phone with no login that opened the table's link."""
    link = services.renew_table_link(game.pk)
    client = Client()
    address, code = link.get_absolute_url().split("#")
    assert client.post(address, {"code": code}).status_code == 302
    return client


@pytest.mark.django_db
def test_the_hand_form_of_a_three_player_game_offers_three_seats_and_no_four_player_aborts(
    organiser_client, sanma_game
):
    response = organiser_client.get(url("hand_new", sanma_game.pk))
    assert response.status_code == 200
    form = response.context["form"]
    assert [(s.name, s.wind) for s in form.seats] == [("Aki", "E"), ("Ben", "S"), ("Chie", "W")]
    for name in ("w1_winner", "loser", "tenpai", "riichi", "offender"):
        assert [value for value, _label in form.fields[name].choices] == [0, 1, 2], name
    assert [value for value, _label in form.fields["w1_pao"].choices] == ["", 0, 1, 2]
    assert [value for value, _label in form.fields["reason"].choices] == [
        "nine_terminals",
        "four_kans",
    ]
    page = content(response)
    # Two winners at most: no triple ron, no third winner's section.
    assert "w2_winner" in page and "w3_winner" not in page and "triple_ron" not in page
    assert 'value="four_winds"' not in page and 'value="four_riichi"' not in page
    assert 'name="w1_kita"' in page and "Kita (Norths set aside)" in page


@pytest.mark.django_db
def test_a_ron_at_three_players_is_previewed_and_saved_with_three_seats(
    organiser_client, sanma_game
):
    response = organiser_client.post(
        url("hand_new", sanma_game.pk), {**RON_FORM, "number": "1", "action": "preview"}
    )
    assert response.status_code == 200
    rows = response.context["rows"]
    # 3 han 40 fu off the dealer: 5,200, and Chie's riichi stick.
    assert [(r["name"], r["wind"], r["delta"], r["after"]) for r in rows] == [
        ("Aki", "E", -5200, 29800),
        ("Ben", "S", 6200, 41200),
        ("Chie", "W", -1000, 34000),
    ]
    assert sum(r["delta"] for r in rows) == 0  # every hand conserves points
    assert not Hand.objects.exists()
    response = save(organiser_client, sanma_game, RON_FORM)
    assert response.status_code == 302
    assert hand_docs(sanma_game) == [
        {"result": "ron", "riichi": [2], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
    ]
    assert scores(sanma_game) == [29800, 41200, 34000]


@pytest.mark.django_db
def test_a_tsumo_with_kita_counts_them_as_dora_and_pays_without_the_norths_share(
    organiser_client, sanma_game
):
    data = {
        "result": "tsumo",
        "riichi": ["1"],
        "w1_winner": "1",
        "w1_yaku": ["riichi", "menzen_tsumo"],
        "w1_hand": "closed",
        "w1_kita": "1",
        "w1_fu": "30",
    }
    preview = organiser_client.post(
        url("hand_new", sanma_game.pk), {**data, "number": "1", "action": "preview"}
    )
    assert "Ben: Riichi, Menzen tsumo · 1 dora (1 kita) · closed" in content(preview)
    response = save(organiser_client, sanma_game, data)
    assert response.status_code == 302, response.context["form"].errors
    (win,) = hand_docs(sanma_game)[0]["wins"]
    # Riichi, menzen tsumo and one kita: 3 han; the kita is kept apart too.
    assert (win["han"], win["fu"], win["dora"], win["kita"]) == (3, 30, 1, 1)
    # 3 han 30 fu by a non-dealer's tsumo: 2,000 from the dealer and 1,000 from the other;
    # tenhou-sanma's tsumo loss leaves the North's 1,000 unpaid. Ben's stick comes back.
    assert scores(sanma_game) == [33000, 38000, 34000]
    assert sum(scores(sanma_game)) == 3 * 35000


@pytest.mark.django_db
def test_kita_beyond_the_four_norths_are_refused_and_nothing_is_stored(
    organiser_client, sanma_game
):
    data = {"result": "tsumo", "riichi": [], "w1_winner": "1", "w1_han": "2", "w1_fu": "30"}
    response = save(organiser_client, sanma_game, {**data, "w1_kita": "5"})
    assert response.status_code == 200
    assert "Kita (Norths set aside): enter a number from 0 to 4." in content(response)
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_a_draw_with_one_and_with_two_tenpai_moves_the_2000_noten_points(
    organiser_client, sanma_game
):
    one = {"result": "draw", "tenpai": ["0"]}
    assert save(organiser_client, sanma_game, one).status_code == 302
    # The dealer tenpai takes 1,000 from each noten player.
    assert scores(sanma_game) == [37000, 34000, 34000]
    two = {"result": "draw", "tenpai": ["1", "2"]}
    response = organiser_client.post(
        url("hand_new", sanma_game.pk), {**two, "number": "2", "action": "preview"}
    )
    assert "Draw · tenpai: Ben, Chie" in content(response)
    assert save(organiser_client, sanma_game, two, number=2).status_code == 302
    # The noten dealer pays 1,000 to each tenpai player.
    assert scores(sanma_game) == [35000, 35000, 35000]


@pytest.mark.django_db
def test_a_draw_with_all_three_tenpai_says_all_tenpai(organiser_client, sanma_game):
    data = {"result": "draw", "tenpai": ["0", "1", "2"], "number": "1", "action": "preview"}
    response = organiser_client.post(url("hand_new", sanma_game.pk), data)
    assert response.status_code == 200
    assert "Draw · all tenpai" in content(response)
    assert [r["delta"] for r in response.context["rows"]] == [0, 0, 0]


@pytest.mark.django_db
def test_a_chombo_at_three_players_is_paid_as_a_reverse_mangan_tsumo(organiser_client, sanma_game):
    response = save(organiser_client, sanma_game, {"result": "chombo", "offender": "2"})
    assert response.status_code == 302
    # Chie pays a mangan as a non-dealer's tsumo would be paid: 4,000 to the dealer and
    # 2,000 to Ben; the absent North's 2,000 is not paid (tsumo loss).
    assert scores(sanma_game) == [39000, 37000, 29000]


@pytest.mark.django_db
def test_a_double_ron_at_three_players_pays_both_winners(organiser_client, sanma_game):
    data = {
        "result": "ron",
        "loser": "0",
        "w1_winner": "1",
        "w1_han": "2",
        "w1_fu": "30",
        "w2_winner": "2",
        "w2_han": "1",
        "w2_fu": "30",
    }
    response = save(organiser_client, sanma_game, data)
    assert response.status_code == 302
    assert [w["winner"] for w in hand_docs(sanma_game)[0]["wins"]] == [1, 2]
    assert scores(sanma_game) == [32000, 37000, 36000]


@pytest.mark.django_db
def test_a_seat_the_table_does_not_have_or_a_four_player_abort_is_refused(
    organiser_client, sanma_game
):
    response = save(organiser_client, sanma_game, {**RON_FORM, "w1_winner": "3"})
    assert response.status_code == 200
    assert "Select a valid choice" in content(response)
    response = save(organiser_client, sanma_game, {"result": "abort", "reason": "four_winds"})
    assert response.status_code == 200
    assert "Select a valid choice. four_winds is not one of the available choices." in content(
        response
    )
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_a_phone_at_the_table_enters_a_three_player_hand_through_the_link(sanma_game):
    phone = at_table(sanma_game)
    response = phone.get(url("hand_new", sanma_game.pk))
    assert response.status_code == 200
    assert [s.wind for s in response.context["form"].seats] == ["E", "S", "W"]
    response = save(phone, sanma_game, {"result": "draw", "tenpai": ["1"]})
    assert response.status_code == 302
    assert scores(sanma_game) == [34000, 37000, 34000]


# Final scores of three.


@pytest.fixture
def sanma_final_game(sanma_session) -> Game:
    others = [Player.objects.create(display_name=name) for name in ("Eri", "Fumi", "Gen")]
    return services.create_game(
        sanma_session, others, table_number=2, entry_mode=Game.EntryMode.FINAL_SCORES
    )


def final_form(*scores, sticks=0, action="preview"):
    data = {f"score_{seat}": str(score) for seat, score in enumerate(scores)}
    return {**data, "leftover_sticks": str(sticks), "action": action}


@pytest.mark.django_db
def test_the_final_score_form_of_a_three_player_game_asks_for_three_scores(
    organiser_client, sanma_final_game
):
    response = organiser_client.get(url("final_scores", sanma_final_game.pk))
    assert response.status_code == 200
    page = content(response)
    assert 'name="score_2"' in page and 'name="score_3"' not in page
    assert "The three scores and the sticks left on the table must add up" in page
    assert "all three in hundreds (350)" in page


@pytest.mark.django_db
def test_three_final_scores_that_make_three_times_the_start_are_previewed_and_saved(
    organiser_client, sanma_final_game
):
    # 3 x 35,000 = 105,000, with one stick on the table: 104,000 in scores.
    response = organiser_client.post(
        url("final_scores", sanma_final_game.pk), final_form(52000, 33000, 19000, sticks=1)
    )
    assert response.status_code == 200
    rows = response.context["rows"]
    # Return 40,000, uma +20/0/-20, oka +15; the stick goes to first place.
    assert [(r["name"], r["score"], r["place"], str(r["match_points"])) for r in rows] == [
        ("Eri", 53000, 1, "48.0"),
        ("Fumi", 33000, 2, "-7.0"),
        ("Gen", 19000, 3, "-41.0"),
    ]
    assert not sanma_final_game.seats.filter(entered_score__isnull=False).exists()
    response = organiser_client.post(
        url("final_scores", sanma_final_game.pk),
        final_form(52000, 33000, 19000, sticks=1, action="save"),
    )
    assert response.status_code == 302
    sanma_final_game.refresh_from_db()
    assert sanma_final_game.status == Game.Status.FINISHED
    assert scores(sanma_final_game) == [53000, 33000, 19000]


@pytest.mark.django_db
def test_three_final_scores_in_hundreds_are_read_as_hundreds(organiser_client, sanma_final_game):
    response = organiser_client.post(
        url("final_scores", sanma_final_game.pk), final_form(500, 350, 200)
    )
    assert response.status_code == 200
    assert [r["score"] for r in response.context["rows"]] == [50000, 35000, 20000]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("values", "sticks", "message"),
    [
        # Four-player arithmetic: 4 x 35,000 is not what three players start with.
        (
            (50000, 35000, 20000),
            1,
            "The final scores add up to 105,000 plus 1 stick(s) on the table; they must make "
            "105,000 (3 x 35,000). Check the scores and the sticks, then try again.",
        ),
        ((40000, 30000, 30000), 0, "they must make 105,000 (3 x 35,000)"),
        ((50000, 35000, 20050), 0, "Type all three in hundreds (e.g. 350)"),
        ((50000, 35000, ""), 0, "Type Gen&#x27;s final score."),
    ],
)
def test_three_final_scores_that_do_not_add_up_are_refused_and_nothing_is_stored(
    organiser_client, sanma_final_game, values, sticks, message
):
    response = organiser_client.post(
        url("final_scores", sanma_final_game.pk), final_form(*values, sticks=sticks)
    )
    assert response.status_code == 200
    assert message in content(response)
    assert not sanma_final_game.seats.filter(entered_score__isnull=False).exists()
    sanma_final_game.refresh_from_db()
    assert sanma_final_game.status == Game.Status.IN_PROGRESS


# The tile picker at three players.

PICKED = {
    "tiles": "123456789p99m789s",
    "win": "9s",
    "calls": "",
    "dora": "",
    "ura": "",
    "tsumo": "1",
    "riichi": "1",
    "seat_wind": "1",
    "round_wind": "0",
}


@pytest.mark.django_db
def test_the_tile_picker_of_a_three_player_game_offers_no_2m_to_8m_and_a_kita_mode(
    organiser_client, sanma_game
):
    page = content(organiser_client.get(url("hand_new", sanma_game.pk)))
    assert 'data-tile="1m"' in page and 'data-tile="9m"' in page
    for tile in ("2m", "5m", "0m", "8m"):
        assert f'data-tile="{tile}"' not in page
    assert 'data-tile="5p"' in page and 'data-tile="0s"' in page
    assert 'name="picker1_mode" value="kita"' in page
    assert 'name="picker1_mode" value="chi"' not in page
    assert "the wall has no 2m to 8m" in page


@pytest.mark.django_db
def test_the_tile_picker_refuses_5m_at_three_players_with_a_clear_message(
    organiser_client, sanma_game
):
    query = {**PICKED, "tiles": "123456789p55m789s"}
    answer = organiser_client.get(url("hand_count", sanma_game.pk), query).json()
    assert answer == {
        "ok": False,
        "error": "5m is not in a three-player game: its wall has no 2m to 8m, of the "
        "characters only 1m and 9m. Remove it and pick the tiles again.",
    }
    # A 5m shown as a dora indicator is no more in the wall.
    query = {**PICKED, "dora": "5m"}
    answer = organiser_client.get(url("hand_count", sanma_game.pk), query).json()
    assert answer["ok"] is False and answer["error"].startswith("5m is not in a three-player")


@pytest.mark.django_db
def test_the_tile_picker_counts_kita_and_the_three_player_dora_after_1m(
    organiser_client, sanma_game
):
    answer = organiser_client.get(url("hand_count", sanma_game.pk), {**PICKED, "kita": "2"}).json()
    # Riichi, menzen tsumo, pinfu and ittsu (5 han) and two kita.
    assert (answer["han"], answer["dora"], answer["kita"]) == (7, 2, 2)
    assert answer["yaku"] == ["menzen_tsumo", "riichi", "pinfu", "ittsu"]
    # A 1m indicator makes 9m the dora in a three-player wall: the pair of 9m is two dora.
    query = {**PICKED, "dora": "1m"}
    answer = organiser_client.get(url("hand_count", sanma_game.pk), query).json()
    assert (answer["han"], answer["dora"], answer["kita"]) == (7, 2, 0)
    # A West indicator makes North the dora: each kita counts twice.
    query = {**PICKED, "kita": "1", "dora": "3z"}
    answer = organiser_client.get(url("hand_count", sanma_game.pk), query).json()
    assert (answer["dora"], answer["kita"]) == (2, 1)
    query = {**PICKED, "kita": "5"}
    answer = organiser_client.get(url("hand_count", sanma_game.pk), query).json()
    assert answer["ok"] is False and "there are only four" in answer["error"]


@pytest.mark.django_db
def test_the_tile_picker_of_a_four_player_game_takes_5m_and_refuses_kita(organiser_client, game):
    query = {**PICKED, "tiles": "123456789p55m789s", "win": "9s"}
    answer = organiser_client.get(url("hand_count", game.pk), query).json()
    assert answer["ok"] is True and "kita" not in answer
    # A 1m indicator makes 2m the dora with four players: none in this hand.
    answer = organiser_client.get(url("hand_count", game.pk), {**PICKED, "dora": "1m"}).json()
    assert answer["dora"] == 0
    answer = organiser_client.get(url("hand_count", game.pk), {**PICKED, "kita": "1"}).json()
    assert answer == {
        "ok": False,
        "error": "Kita (Norths set aside) are only for three-player games: remove them.",
    }
    page = content(organiser_client.get(url("hand_new", game.pk)))
    assert 'data-tile="5m"' in page and 'value="kita"' not in page and "w1_kita" not in page


# The rules form.


@pytest.mark.django_db
def test_the_rules_form_of_a_three_player_event_asks_for_three_uma_and_the_tsumo_loss(
    organiser_client, sanma_event
):
    response = organiser_client.get(url("event_rules", "sanma"))
    assert response.status_code == 200
    page = content(response)
    assert 'name="uma_2"' in page and 'name="tsumo_loss"' in page
    assert "Match points for 1st, 2nd and 3rd place: three numbers." in page
    assert "Preset default (tenhou-sanma): +20/0/−20." in page
    assert "Preset default (tenhou-sanma): not paid (tsumo loss)." in page
    # The 4th place input is there but hidden.
    assert re.search(r'<input[^>]*name="uma_3"[^>]*hidden', page)


@pytest.mark.django_db
def test_three_uma_values_and_a_split_tsumo_loss_are_stored_for_three_players(
    organiser_client, sanma_event
):
    data = {"preset": "tenhou-sanma", "uma_0": "30", "uma_1": "0", "uma_2": "-30"}
    response = organiser_client.post(
        url("event_rules", "sanma"), {**data, "tsumo_loss": "split"}, follow=True
    )
    assert response.status_code == 200
    sanma_event.refresh_from_db()
    assert sanma_event.rules_overrides == {"uma": [30, 0, -30], "tsumo_loss": "split"}
    assert [str(u) for u in sanma_event.rules().uma] == ["30", "0", "-30"]
    page = content(organiser_client.get(url("event_rules", "sanma")))
    assert "Split between the two payers" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("preset", "uma", "message"),
    [
        (
            "tenhou-sanma",
            ["20", "10", "-10", "-20"],
            "These are three-player rules: give three uma values, 1st to 3rd place, and leave "
            "the 4th empty (or leave all empty for the preset&#x27;s uma).",
        ),
        (
            "tenhou-sanma",
            ["20", "-20"],
            "These are three-player rules: give three uma values, 1st to 3rd place",
        ),
        (
            "tenhou-sanma",
            ["20", "", "-20"],
            "Give the uma values from 1st place on, with no place left empty in between.",
        ),
        ("ari-ari", ["20", "0", "-20"], "Give all four uma values, 1st to 4th"),
    ],
)
def test_an_uma_that_does_not_fit_the_number_of_players_is_refused(
    organiser_client, organiser, preset, uma, message
):
    event = Event.objects.create(
        name="Open", slug="open", starts_on=datetime.date(2026, 9, 3), rules_preset=preset
    )
    event.organisers.add(organiser)
    data = {"preset": preset, **{f"uma_{i}": value for i, value in enumerate(uma)}}
    response = organiser_client.post(url("event_rules", "open"), data)
    assert response.status_code == 200
    assert message in content(response)
    event.refresh_from_db()
    assert event.rules_overrides == {}


@pytest.mark.django_db
def test_a_four_player_events_rules_form_has_four_uma_and_no_tsumo_loss(organiser_client, event):
    page = content(organiser_client.get(url("event_rules", "thursday")))
    assert 'name="uma_3"' in page and not re.search(r'<input[^>]*name="uma_3"[^>]*hidden', page)
    assert 'name="tsumo_loss"' not in page
    assert "Match points for 1st, 2nd, 3rd and 4th place." in page


@pytest.mark.django_db
def test_changing_a_three_player_event_with_games_to_four_player_rules_is_refused(
    organiser_client, sanma_event, sanma_game
):
    response = organiser_client.post(url("event_rules", "sanma"), {"preset": "tenhou"})
    assert response.status_code == 200
    assert (
        "Nothing was changed. This event&#x27;s games are played by 3 players, so its rules "
        "cannot change to rules for 4 players." in content(response)
    )
    sanma_event.refresh_from_db()
    assert sanma_event.rules_preset == "tenhou-sanma"
    assert sanma_game.seats.count() == 3


@pytest.mark.django_db
def test_changing_a_four_player_event_with_games_to_three_player_rules_is_refused(
    organiser_client, event, final_game
):
    # A game still waiting for its final scores counts: it was set up for four.
    response = organiser_client.post(url("event_rules", "thursday"), {"preset": "tenhou-sanma"})
    assert response.status_code == 200
    assert "cannot change to rules for 3 players" in content(response)
    event.refresh_from_db()
    assert event.rules_preset == "ari-ari"


@pytest.mark.django_db
def test_an_event_without_games_may_change_between_three_and_four_players(
    organiser_client, sanma_event
):
    response = organiser_client.post(url("event_rules", "sanma"), {"preset": "tenhou"})
    assert response.status_code == 302
    sanma_event.refresh_from_db()
    assert sanma_event.rules_preset == "tenhou" and sanma_event.player_count == 4


@pytest.mark.django_db
def test_a_three_player_hand_is_edited_and_the_game_replayed(organiser_client, sanma_game):
    services.add_hand(sanma_game.pk, 1, {"result": "draw", "riichi": [], "tenpai": [0]})
    response = organiser_client.get(url("hand_edit", sanma_game.pk, 1))
    assert response.status_code == 200
    assert [s.wind for s in response.context["form"].seats] == ["E", "S", "W"]
    data = {"result": "draw", "tenpai": ["0", "2"], "action": "save"}
    response = organiser_client.post(url("hand_edit", sanma_game.pk, 1), data)
    assert response.status_code == 302
    assert hand_docs(sanma_game) == [{"result": "draw", "riichi": [], "tenpai": [0, 2]}]
    assert scores(sanma_game) == [36000, 33000, 36000]


@pytest.mark.django_db
def test_an_abort_for_nine_terminals_and_a_nagashi_mangan_are_entered_at_three_players(
    organiser_client, sanma_game
):
    response = save(organiser_client, sanma_game, {"result": "abort", "reason": "nine_terminals"})
    assert response.status_code == 302
    data = {"result": "nagashi", "nagashi": ["2"], "tenpai": ["2"]}
    assert save(organiser_client, sanma_game, data, number=2).status_code == 302
    assert [h["result"] for h in hand_docs(sanma_game)] == ["abort", "nagashi"]
    # Chie's nagashi mangan is paid as a non-dealer's mangan tsumo: 4,000 from the dealer
    # and 2,000 from Ben, without the North's share.
    assert scores(sanma_game) == [31000, 33000, 41000]


@pytest.mark.django_db
def test_a_tsumo_under_a_split_tsumo_loss_set_on_the_rules_form(organiser_client, sanma_game):
    response = organiser_client.post(
        url("event_rules", "sanma"), {"preset": "tenhou-sanma", "tsumo_loss": "split"}
    )
    assert response.status_code == 302
    data = {"result": "tsumo", "w1_winner": "1", "w1_han": "3", "w1_fu": "30"}
    assert save(organiser_client, sanma_game, data).status_code == 302
    # 2,000 from the dealer and 1,000 from Chie, and the North's 1,000 split between
    # them: 500 more each.
    assert scores(sanma_game) == [32500, 39000, 33500]


@pytest.mark.django_db
def test_the_three_player_forms_speak_japanese(organiser_client, sanma_game, sanma_session):
    ja = {"headers": {"accept-language": "ja"}}
    page = content(organiser_client.get(url("hand_new", sanma_game.pk), **ja))
    assert "抜きドラ（抜いた北）" in page and "二萬から八萬は使いません" in page
    page = content(organiser_client.get(url("game_create", "sanma", 1), **ja))
    assert "3 人の持ち点を入力します" in page
    response = organiser_client.get(
        url("hand_count", sanma_game.pk), {**PICKED, "tiles": "123456789p55m789s"}, **ja
    )
    assert response.json()["error"].startswith("5m は三人麻雀にはありません。")
    page = content(organiser_client.post(url("event_rules", "sanma"), {"preset": "tenhou"}, **ja))
    assert "3 人打ちなので、ルールを 4 人打ちのものに変えることはできません" in page

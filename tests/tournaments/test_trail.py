"""The trail: every change to a result is recorded once, with who, when, before and after;
organisers read it on the game page and for the event, and download it as CSV."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import TrailEntry
from tournaments.trail import Actor

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
TSUMO = {"result": "tsumo", "riichi": [], "wins": [{"winner": 2, "han": 2, "fu": 30}]}
DRAW = {"result": "draw", "riichi": [], "tenpai": []}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def kinds(game=None) -> list[str]:
    entries = TrailEntry.objects.order_by("at", "pk")
    if game is not None:
        entries = entries.filter(game=game)
    return list(entries.values_list("kind", flat=True))


def csv_rows(response) -> list[dict]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))


def test_every_kind_of_change_leaves_one_entry(organiser, game, final_game):
    me = Actor.of(organiser)
    services.add_hand(game.pk, 1, RON, actor=me)
    services.replace_hand(game.pk, 1, TSUMO, actor=me)
    services.add_hand(game.pk, 2, DRAW, actor=me)
    services.delete_hand(game.pk, 1, actor=me)
    services.undo_last_hand(game.pk, actor=me)
    services.add_hand(game.pk, 1, RON, actor=me)
    penalty = services.add_penalty(game.pk, 0, Decimal("-10"), "Late", actor=me)
    services.delete_penalty(game.pk, penalty.pk, actor=me)
    services.call_time(game.pk, actor=me)
    services.reopen_game(game.pk, actor=me)
    services.set_final_scores(final_game.pk, [40000, 30000, 20000, 10000], 0, actor=me)
    services.change_event_rules(game.event.pk, "ari-ari", {"kiriage": True}, actor=me)
    assert kinds() == [
        "hand_added",
        "hand_edited",
        "hand_added",
        "hand_deleted",
        "hand_undone",
        "hand_added",
        "penalty_added",
        "penalty_removed",
        "time_called",
        "reopened",
        "final_scores",
        "rules_changed",
    ]
    assert set(TrailEntry.objects.values_list("author", flat=True)) == {"Olive (organiser)"}
    edit = TrailEntry.objects.get(kind="hand_edited")
    assert edit.before == {"hand": RON} and edit.after == {"hand": TSUMO}
    assert edit.hand_number == 1 and edit.table_number == 1 and edit.session_number == 1
    rules = TrailEntry.objects.get(kind="rules_changed")
    assert rules.game is None and rules.before["overrides"] == {}
    assert rules.after["overrides"] == {"kiriage": True}


def test_a_refused_change_leaves_no_entry(game):
    with pytest.raises(services.GameChangeRefused):
        services.add_hand(
            game.pk,
            1,
            {
                "result": "ron",
                "riichi": [],
                "wins": [{"winner": 1, "loser": 0, "han": 1, "fu": 20}],
            },
        )
    with pytest.raises(services.GameChangeRefused):
        services.undo_last_hand(game.pk)
    assert not TrailEntry.objects.exists()


def test_the_organiser_pages_record_their_author(organiser_client, game):
    organiser_client.post(
        url("hand_new", game.pk),
        {
            "result": "ron",
            "riichi": [],
            "w1_winner": "1",
            "loser": "0",
            "w1_han": "3",
            "w1_fu": "40",
            "number": "1",
            "action": "save",
        },
    )
    organiser_client.post(url("hand_undo", game.pk), {"number": "1"})
    entries = TrailEntry.objects.order_by("at", "pk")
    assert [(e.kind, e.author, e.user.username) for e in entries] == [
        ("hand_added", "Olive (organiser)", "organiser"),
        ("hand_undone", "Olive (organiser)", "organiser"),
    ]


def test_the_game_page_shows_its_trail_to_organisers_only(organiser_client, anonymous, game):
    link = services.renew_table_link(game.pk)
    services.add_hand(game.pk, 1, RON, actor=Actor.of(table_link=link))
    page = organiser_client.get(url("game", game.pk)).content.decode()
    assert "Hand added 1" in page and "Ben ron off Aki" in page
    assert f"Table 1 link #{link.pk}" in page
    assert "Hand added 1" not in anonymous.get(url("game", game.pk)).content.decode()


def test_the_event_trail_answers_who_changed_hand_7(organiser_client, organiser, game):
    for number in range(1, 8):
        services.add_hand(game.pk, number, DRAW)
    services.replace_hand(game.pk, 7, RON, actor=Actor.of(organiser))
    page = organiser_client.get(url("event_trail", game.event.slug)).content.decode()
    assert "Hand edited 7" in page and "Olive (organiser)" in page
    rows = csv_rows(organiser_client.get(url("event_trail_csv", game.event.slug)))
    edited = [r for r in rows if r["Change"] == "Hand edited 7"]
    assert len(edited) == 1
    assert edited[0]["Who"] == "Olive (organiser)" and edited[0]["Table"] == "1"
    assert edited[0]["Before"].startswith("Draw") and "Ben ron off Aki" in edited[0]["After"]
    assert '"result": "ron"' in edited[0]["After (record)"]


def test_the_trail_csv_keeps_formulas_as_text(organiser_client, game, players):
    players[0].display_name = "=HYPERLINK(1)"
    players[0].save()
    services.add_penalty(game.pk, 0, Decimal("-5"), "=cmd|' /C calc'!A0")
    rows = csv_rows(organiser_client.get(url("event_trail_csv", game.event.slug)))
    after = rows[0]["After"]
    assert after.startswith("'=")


def test_only_organisers_read_the_trail(stranger_client, anonymous, game):
    services.add_hand(game.pk, 1, RON)
    assert stranger_client.get(url("event_trail", game.event.slug)).status_code == 403
    assert stranger_client.get(url("event_trail_csv", game.event.slug)).status_code == 403
    assert anonymous.get(url("event_trail", game.event.slug)).status_code == 302


def test_the_trail_page_costs_the_same_queries_for_few_and_many_entries(
    organiser_client, game, django_assert_max_num_queries
):
    services.add_hand(game.pk, 1, DRAW)
    with django_assert_max_num_queries(12) as few:
        organiser_client.get(url("event_trail", game.event.slug))
    for number in range(2, 8):
        services.add_hand(game.pk, number, DRAW)
    with django_assert_max_num_queries(len(few.captured_queries)):
        organiser_client.get(url("event_trail", game.event.slug))


def test_changing_the_seats_leaves_an_entry(organiser_client, game, players):
    data = {
        "table_number": "5",
        "east": players[1].pk,
        "south": players[0].pk,
        "west": players[2].pk,
        "north": players[3].pk,
        "substitutes": ["3"],
    }
    assert organiser_client.post(url("game_edit", game.pk), data).status_code == 302
    entry = TrailEntry.objects.get(kind="seats_changed")
    assert entry.before == {"table": 1, "seats": ["Aki", "Ben", "Chie", "Dan"]}
    assert entry.after == {"table": 5, "seats": ["Ben", "Aki", "Chie", "Dan (substitute)"]}
    page = organiser_client.get(url("event_trail", game.event.slug)).content.decode()
    assert "table 5: Ben, Aki, Chie, Dan (substitute)" in page

"""A table's phone and the server: `record.json` gives the game as the phone reads it, and
`sync` takes one hand (or undo, or report) at a time from the phone's outbox, applies it
once however often it is sent, replays it with the engine and refuses what the phone's
scores disagree with; conflicts with the server's game come back with the server's game."""

from __future__ import annotations

import json
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.rules import PRESETS, option_names, resolve_rules
from tournaments import services
from tournaments.models import EntryReceipt, Hand, PhoneContact, Player, TrailEntry

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}
NOTEN = {"result": "draw", "riichi": [], "tenpai": []}
# Aki deals E1; Ben rons Aki for 3 han 40 fu: 5,200.
AFTER_RON = [19800, 30200, 25000, 25000]


def url(name: str, game) -> str:
    return reverse(f"tournaments:{name}", args=[game.pk])


def phone(game) -> Client:
    """A browser holding the game's table link, checking CSRF as a real one does."""
    client = Client(enforce_csrf_checks=True)
    link = services.renew_table_link(game.pk)
    address, code = link.get_absolute_url().split("#")
    client.get(address)
    token = client.cookies["csrftoken"].value
    assert client.post(address, {"code": code, "csrfmiddlewaretoken": token}).status_code == 302
    client.token = client.cookies["csrftoken"].value
    return client


def send(client, game, body, *, raw: bytes | None = None, content_type="application/json"):
    data = raw if raw is not None else json.dumps(body).encode()
    return client.post(
        url("hand_sync", game),
        data=data,
        content_type=content_type,
        HTTP_X_CSRFTOKEN=getattr(client, "token", ""),
    )


def add(entry: str, number: int, hand=RON, scores=AFTER_RON, **extra) -> dict:
    return {"entry": entry, "kind": "add", "number": number, "hand": hand, "scores": scores} | extra


def _play_to_the_last_hand(game) -> int:
    """Enter draws until the next one ends the game; its number."""
    number = 1
    while not services.preview_hand(game, NOTEN).result.finished:
        services.add_hand(game.pk, number, NOTEN)
        number += 1
    return number


def test_the_record_gives_the_phone_the_game_with_its_rules_resolved(game):
    services.add_hand(game.pk, 1, RON, entry="8f0c6a52-3f0e-4a4e-9a57-6e0fb1b0c001")
    answer = phone(game).get(url("hand_record", game)).json()
    assert answer["game"] == game.pk and answer["status"] == "open" and answer["hands"] == 1
    assert answer["entries"] == ["8f0c6a52-3f0e-4a4e-9a57-6e0fb1b0c001"]
    assert answer["names"] == ["Aki", "Ben", "Chie", "Dan"]
    rules = answer["record"]["rules"]
    assert rules["preset"] == game.session.event.rules_preset
    assert rules["overrides"]["start_points"] == 25000 and "uma" in rules["overrides"]
    assert answer["record"]["hands"] == [RON]
    assert answer["changed"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_records_rules_stand_for_every_preset_and_override_exactly(game, preset):
    event = game.session.event
    event.rules_preset = preset
    event.rules_overrides = {"kiriage": True, "oka": 7.5} if preset == "ema" else {}
    event.save(update_fields=["rules_preset", "rules_overrides"])
    rules = phone(game).get(url("hand_record", game)).json()["record"]["rules"]
    assert rules["preset"] == preset
    assert set(rules["overrides"]) == set(option_names())
    assert resolve_rules(rules) == event.rules()


def test_a_hand_sent_by_the_phone_is_saved_once_with_one_trail_entry(game):
    client = phone(game)
    entry = str(uuid.uuid4())
    first = send(client, game, add(entry, 1, waiting=2))
    assert first.status_code == 200, first.content
    assert first.json()["status"] == "saved" and first.json()["number"] == 1
    again = send(client, game, add(entry, 1, waiting=2))
    assert again.status_code == 200 and again.json()["status"] == "already"
    assert again.json()["number"] == 1 and again.json()["kind"] == "add"
    assert again.json()["record"] == first.json()["record"]
    assert again.json()["changed"] == first.json()["changed"]
    assert Hand.objects.filter(game=game).count() == 1
    assert TrailEntry.objects.filter(game=game, kind="hand_added").count() == 1
    assert first.json()["entries"] == [entry]
    trail = TrailEntry.objects.get(game=game, kind="hand_added")
    assert trail.table_link_id is not None


def test_the_phone_reads_the_hands_their_wins_and_entry_ids_in_one_statement(game):
    # A hand edited meanwhile is deleted and made again: read in two statements, a ron
    # could come without its wins, and the phone would get a game it cannot replay.
    client = phone(game)
    entry = str(uuid.uuid4())
    assert send(client, game, add(entry, 1)).status_code == 200
    services.add_hand(game.pk, 2, DRAW)
    with CaptureQueriesContext(connection) as reading:
        answer = client.get(url("hand_record", game)).json()
    reads = [q["sql"] for q in reading.captured_queries if "tournaments_hand" in q["sql"]]
    assert len(reads) == 1 and "tournaments_win" in reads[0]
    assert answer["record"]["hands"] == [RON, DRAW]
    second = str(Hand.objects.get(game=game, number=2).entry)
    assert answer["entries"] == [entry, second] and answer["hands"] == 2


def test_a_resent_add_whose_hand_was_undone_since_is_not_added_again(game):
    client = phone(game)
    entry = str(uuid.uuid4())
    assert send(client, game, add(entry, 1)).json()["status"] == "saved"
    services.undo_last_hand(game.pk)
    again = send(client, game, add(entry, 1))
    assert again.status_code == 200 and again.json()["status"] == "already"
    assert again.json()["hands"] == 0
    assert Hand.objects.filter(game=game).count() == 0


def test_a_resent_undo_answers_the_stored_undo_and_undoes_nothing_more(game):
    services.add_hand(game.pk, 1, DRAW)
    services.add_hand(game.pk, 2, DRAW)
    client = phone(game)
    undo = {"entry": str(uuid.uuid4()), "kind": "undo", "number": 2}
    first = send(client, game, undo)
    assert first.status_code == 200 and first.json()["status"] == "saved"
    assert first.json()["number"] == 2
    again = send(client, game, undo)
    assert again.status_code == 200 and again.json()["status"] == "already"
    assert again.json()["number"] == 2 and again.json()["kind"] == "undo"
    assert Hand.objects.filter(game=game).count() == 1
    assert TrailEntry.objects.filter(game=game, kind="hand_undone").count() == 1


def test_a_different_entry_for_a_number_taken_is_a_conflict_with_the_servers_game(game):
    services.add_hand(game.pk, 1, DRAW)
    answer = send(phone(game), game, add(str(uuid.uuid4()), 1))
    assert answer.status_code == 409
    body = answer.json()
    assert body["status"] == "conflict" and "Hand 1 is on the server already" in body["message"]
    assert body["record"]["hands"] == [DRAW] and body["changed"]
    assert Hand.objects.filter(game=game).count() == 1
    assert TrailEntry.objects.filter(game=game, kind="hand_added").count() == 1


def test_a_hand_ahead_of_the_servers_game_is_a_conflict(game):
    answer = send(phone(game), game, add(str(uuid.uuid4()), 3))
    assert answer.status_code == 409
    assert "The server has 0 hands of this game" in answer.json()["message"]
    assert not Hand.objects.filter(game=game).exists()


def test_a_game_changed_since_the_phone_read_it_is_a_conflict(game):
    client = phone(game)
    seen = client.get(url("hand_record", game)).json()["changed"]
    services.add_hand(game.pk, 1, DRAW)  # an organiser, meanwhile
    services.undo_last_hand(game.pk)  # and back: the hands are as they were
    assert client.get(url("hand_record", game)).json()["changed"] == seen
    services.add_hand(game.pk, 1, DRAW)
    answer = send(client, game, add(str(uuid.uuid4()), 2, based_on=seen))
    assert answer.status_code == 409 and "changed on the server" in answer.json()["message"]
    assert Hand.objects.filter(game=game).count() == 1


def test_a_finished_or_locked_game_is_a_conflict_and_its_own_last_hand_is_already_saved(game):
    client = phone(game)
    number = _play_to_the_last_hand(game)
    last = str(uuid.uuid4())
    scores = list(services.preview_hand(game, NOTEN).report.scores_after)
    first = send(client, game, add(last, number, hand=NOTEN, scores=scores))
    assert first.status_code == 200 and first.json()["game_status"] == "finished"
    again = send(client, game, add(last, number, hand=NOTEN, scores=scores))
    assert again.status_code == 200 and again.json()["status"] == "already"
    other = send(client, game, add(str(uuid.uuid4()), number + 1, hand=NOTEN, scores=scores))
    assert other.status_code == 409 and other.json()["game_status"] == "finished"
    assert "finished" in other.json()["message"]
    assert client.get(url("hand_record", game)).json()["status"] == "finished"


def test_a_locked_game_refuses_the_phones_hand_as_a_conflict(game):
    client = phone(game)
    services.lock_game(game.pk, True)
    answer = send(client, game, add(str(uuid.uuid4()), 1))
    assert answer.status_code == 409 and answer.json()["game_status"] == "locked"
    assert "locked" in answer.json()["message"]
    assert not Hand.objects.filter(game=game).exists()


def test_scores_that_disagree_with_the_servers_replay_are_refused(game):
    answer = send(phone(game), game, add(str(uuid.uuid4()), 1, scores=[20000, 30000, 25000, 25000]))
    assert answer.status_code == 422
    body = answer.json()
    assert body["status"] == "refused"
    assert "19800, 30200, 25000, 25000" in body["message"] and "20000" in body["message"]
    assert not Hand.objects.filter(game=game).exists()
    assert not EntryReceipt.objects.exists()


def test_a_hand_the_rules_refuse_is_refused_with_the_reason(game):
    bad = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 1, "fu": 20}]}
    answer = send(phone(game), game, add(str(uuid.uuid4()), 1, hand=bad))
    assert answer.status_code == 422 and answer.json()["status"] == "refused"
    assert "20 fu" in answer.json()["message"]
    assert not Hand.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("raw", "content_type", "says"),
    [
        (b"{not json", "application/json", "not valid JSON"),
        (b"[1, 2]", "application/json", "one JSON object"),
        (b"kind=add", "application/x-www-form-urlencoded", "as JSON"),
        (b'{"kind": "add", "number": 1}', "application/json", "no entry id"),
        (b'{"kind": "fold"}', "application/json", "add, undo or status"),
        (b'{"kind": "add", "entry": "not-a-uuid", "number": 1}', "application/json", "id"),
        (
            b'{"kind": "add", "entry": "8f0c6a52-3f0e-4a4e-9a57-6e0fb1b0c001", "number": true}',
            "application/json",
            "whole number",
        ),
        (
            b'{"kind": "add", "entry": "8f0c6a52-3f0e-4a4e-9a57-6e0fb1b0c001", "number": 1,'
            b' "hand": {"result": "ron"}, "scores": [1, 2, 3, 4]}',
            "application/json",
            "",
        ),
        (
            b'{"kind": "add", "entry": "8f0c6a52-3f0e-4a4e-9a57-6e0fb1b0c001", "number": 1,'
            b' "hand": {"result": "draw", "riichi": [], "tenpai": []}, "scores": [1, 2]}',
            "application/json",
            "scores",
        ),
    ],
)
def test_a_request_that_is_not_one_hand_of_json_is_refused_with_a_reason(
    game, raw, content_type, says
):
    answer = send(phone(game), game, None, raw=raw, content_type=content_type)
    assert answer.status_code == 422, answer.content
    assert answer.json()["status"] == "refused" and says in answer.json()["message"]
    assert not Hand.objects.filter(game=game).exists()


def test_a_request_over_sixteen_kilobytes_is_refused(game):
    body = add(str(uuid.uuid4()), 1) | {"padding": "x" * 17_000}
    answer = send(phone(game), game, body)
    assert answer.status_code == 422 and "too large" in answer.json()["message"]
    assert not Hand.objects.filter(game=game).exists()


def test_a_hand_for_another_game_is_refused(game, session):
    others = [Player.objects.create(display_name=n) for n in ("Eri", "Fumi", "Gen", "Hana")]
    other = services.create_game(session, others, table_number=2)
    client = phone(game)
    answer = send(client, game, add(str(uuid.uuid4()), 1, game=other.pk))
    assert answer.status_code == 422 and "another game" in answer.json()["message"]
    # The link of one table opens nothing of another's game.
    assert send(client, other, add(str(uuid.uuid4()), 1)).status_code == 403
    assert not Hand.objects.exists()


def test_the_sync_needs_the_csrf_token(game):
    client = phone(game)
    client.token = ""
    assert send(client, game, add(str(uuid.uuid4()), 1)).status_code == 403
    assert not Hand.objects.filter(game=game).exists()


def test_a_status_report_keeps_the_time_and_the_hands_waiting(game):
    client = phone(game)
    answer = send(client, game, {"kind": "status", "waiting": 3})
    assert answer.status_code == 200 and answer.json()["status"] == "noted"
    contact = PhoneContact.objects.get(game=game)
    assert contact.waiting == 3
    first = contact.at
    send(client, game, add(str(uuid.uuid4()), 1, waiting=0))
    contact.refresh_from_db()
    assert contact.waiting == 0 and contact.at >= first
    assert send(client, game, {"kind": "status", "waiting": -1}).status_code == 422
    contact.refresh_from_db()
    assert contact.waiting == 0  # a report refused keeps the time only
    PhoneContact.objects.all().delete()
    assert send(client, game, None, raw=b"{not json").status_code == 422
    assert PhoneContact.objects.get(game=game).waiting == 0


def test_a_second_phone_takes_over_from_the_record(game):
    lost = phone(game)
    send(lost, game, add(str(uuid.uuid4()), 1))
    taking_over = phone(game)  # the organiser renews the link for the new phone
    record = taking_over.get(url("hand_record", game)).json()
    assert record["hands"] == 1
    scores = services.preview_hand(game, DRAW).report.scores_after
    answer = send(
        taking_over,
        game,
        add(str(uuid.uuid4()), 2, hand=DRAW, scores=list(scores), based_on=record["changed"]),
    )
    assert answer.status_code == 200 and answer.json()["status"] == "saved"
    # The lost phone's link was renewed: it opens nothing now.
    assert send(lost, game, add(str(uuid.uuid4()), 3)).status_code == 403
    assert Hand.objects.filter(game=game).count() == 2


def test_the_session_page_shows_the_director_each_tables_phone_and_hands_waiting(
    game, organiser_client
):
    send(phone(game), game, {"kind": "status", "waiting": 3})
    address = reverse("tournaments:session", args=[game.session.event.slug, 1])
    page = organiser_client.get(address).content.decode()
    assert "Phone " in page and "(just now), 3 hands waiting" in page
    assert 'class="phone-contact waiting"' in page
    assert "3 hands waiting" not in Client().get(address).content.decode()  # the director's


def test_a_phones_report_shows_on_the_live_screen_without_touching_the_event(game, client):
    event = game.session.event
    address = reverse("tournaments:live", args=[event.slug])
    services.add_hand(game.pk, 1, RON)
    assert "waiting" not in client.get(address, HTTP_HX_REQUEST="true").content.decode()
    table = phone(game)
    event.refresh_from_db()
    versions = event.play_token, event.results_token
    send(table, game, {"kind": "status", "waiting": 2})
    event.refresh_from_db()
    assert (event.play_token, event.results_token) == versions
    panel = client.get(address, HTTP_HX_REQUEST="true").content.decode()
    assert 'class="live-phone waiting"' in panel and "2 hands waiting" in panel
    send(table, game, {"kind": "status", "waiting": 0})
    panel = client.get(address, HTTP_HX_REQUEST="true").content.decode()
    assert "hands waiting" not in panel and 'class="live-phone"' in panel


def test_the_phone_is_refused_in_its_own_language(game):
    client = phone(game)
    answer = client.post(
        url("hand_sync", game),
        data=b"{not json",
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.token,
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 422
    assert answer.json()["message"] == "この送信は正しいJSONではありません。何も保存していません。"


def test_the_directors_phone_line_speaks_japanese(game, organiser_client):
    send(phone(game), game, {"kind": "status", "waiting": 3})
    address = reverse("tournaments:session", args=[game.session.event.slug, 1])
    page = organiser_client.get(address, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "端末 " in page and "（たった今）、未送信3局" in page


def test_the_record_of_a_stage_with_its_own_preset_gives_that_preset(game):
    event = game.session.event
    services.add_stage(
        event.pk,
        services.StagePlan(name="Final", first_session=1, last_session=1, rules_preset="mleague"),
    )
    rules = phone(game).get(url("hand_record", game)).json()["record"]["rules"]
    assert event.rules_preset != "mleague"
    assert rules["preset"] == "mleague"
    assert resolve_rules(rules) == resolve_rules("mleague")

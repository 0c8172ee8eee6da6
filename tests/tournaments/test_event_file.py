"""The whole-event export read from plain values: the same records as each game's own
`to_record()`, in a few queries at any size, cached until anything in the file changes
(also a hand of a game still going, which leaves the results token alone)."""

from __future__ import annotations

import datetime
import io
import json
import zipfile

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import exchange, services
from tournaments.models import Event, Game, Session

from .test_exchange import played  # noqa: F401  (a fixture)
from .test_standings_views import make_big_league
from .test_statistics import build_online

pytestmark = pytest.mark.django_db


@pytest.fixture
def online(organiser):
    return build_online(organiser)


def games_in_export_order(event):
    return (
        Game.objects.filter(session__event=event)
        .select_related("session__event")
        .order_by("session__number", "table_number", "pk")
    )


@pytest.mark.parametrize("fixture", ["played", "online"])
def test_every_record_is_the_one_the_game_itself_writes(request, fixture):
    event = request.getfixturevalue(fixture)

    data = exchange.export_event(event)

    games = list(games_in_export_order(event))
    assert len(data["games"]) == len(games) > 0
    for entry, game in zip(data["games"], games, strict=True):
        assert entry["record"] == game.to_record()
        assert (entry["session"], entry["table"]) == (game.session.number, game.table_number)
        assert entry["source_id"] == game.source_id
    assert any("hands" in entry["record"] for entry in data["games"])
    if fixture == "played":
        assert any("penalties" in entry["record"] for entry in data["games"])
        assert any("final_scores" in entry["record"] for entry in data["games"])


def test_the_files_hold_the_same_json_as_the_document(played):  # noqa: F811
    data = exchange.export_event(played)

    assert json.loads(exchange.event_json(data)) == json.loads(json.dumps(data))
    archive = zipfile.ZipFile(io.BytesIO(exchange.export_zip(played, data)))
    records = [json.loads(archive.read(name)) for name in archive.namelist()]
    assert records == [json.loads(json.dumps(game["record"])) for game in data["games"]]


def test_an_event_without_games_or_sessions_exports_an_empty_file(event):
    text = exchange.event_json(exchange.export_event(event))

    assert json.loads(text) == {
        "format": exchange.FORMAT,
        "event": event.name,
        "rules": event.rules_spec(),
        "sessions": [],
        "games": [],
    }


@pytest.mark.parametrize("name", ["event_export", "event_export_zip"])
def test_the_export_costs_the_same_queries_at_any_size(client, organiser, name):
    def queries(slug):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse(f"tournaments:{name}", args=[slug])).status_code == 200
        return len(captured)

    make_big_league(organiser, sessions=2, tables=2, slug="small")
    make_big_league(organiser, sessions=5, tables=3, slug="large")

    assert queries("small") == queries("large") <= 10


def download(client, event, name="event_export"):
    return client.get(reverse(f"tournaments:{name}", args=[event.slug])).content


@pytest.mark.parametrize("name", ["event_export", "event_export_zip"])
def test_a_repeated_download_reads_no_hands_again(client, played, name):  # noqa: F811
    first = download(client, played, name)

    with CaptureQueriesContext(connection) as captured:
        again = download(client, played, name)

    assert again == first
    assert not any("tournaments_hand" in q["sql"] for q in captured.captured_queries)


def test_a_hand_in_a_game_still_going_shows_at_once(client, played):  # noqa: F811
    game = Game.objects.get(session__event=played, status=Game.Status.IN_PROGRESS)
    token = Event.objects.get(pk=played.pk).results_token
    before = json.loads(download(client, played))
    hands = len(game.to_record()["hands"])

    services.add_hand(game.pk, hands + 1, {"result": "draw", "riichi": [], "tenpai": [0]})

    assert Event.objects.get(pk=played.pk).results_token == token  # standings unchanged
    after = json.loads(download(client, played))
    entry = next(g for g in after["games"] if g["session"] == 2 and g["table"] == 1)
    assert len(entry["record"]["hands"]) == hands + 1
    assert after != before


def test_the_events_name_rules_and_sessions_show_at_once(client, played):  # noqa: F811
    download(client, played)

    played.name = "Renamed"
    played.save()
    assert json.loads(download(client, played))["event"] == "Renamed"

    session = Session.objects.get(event=played, number=2)
    session.title = "Finals"
    session.save()
    sessions = json.loads(download(client, played))["sessions"]
    assert [s["title"] for s in sessions] == ["", "Finals"]

    session.date = datetime.date(2026, 9, 11)
    session.save()
    sessions = json.loads(download(client, played))["sessions"]
    assert sessions[1]["date"] == "2026-09-11"

    played.rules_overrides = {}
    played.save()
    assert json.loads(download(client, played))["rules"] == "ari-ari"


def test_a_renamed_player_shows_at_once(client, played):  # noqa: F811
    download(client, played)
    game = games_in_export_order(played).first()
    player = game.ordered_seats()[0].player
    player.display_name = "Someone else"
    player.save()

    names = json.loads(download(client, played))["games"][0]["record"]["players"]

    assert names[0] == "Someone else"

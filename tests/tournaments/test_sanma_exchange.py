"""A three-player (sanma) event through the event file and the backup: exported, imported
into a fresh event or restored into an empty site, it comes back exactly, three seats a
game; and its results and standings download with three seats a game."""

from __future__ import annotations

import csv
import datetime
import io
import json
from pathlib import Path

import openpyxl
import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.security.test_backup import site_picture, wipe
from tournaments import exchange, imports, services
from tournaments.models import Event, Game, Session

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"
TENHOU_SANMA = DATA / "tenhou-sanma" / "2024070112gm-00b9-0000-3a5c7e11.json"
DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}


@pytest.fixture
def sanma(organiser):
    """A three-player event: an imported game played hand by hand to its end, a game of
    final scores, a game going on with hands and a penalty, a game awaiting its scores."""
    event = Event.objects.create(
        name="Sanma League",
        slug="sanma-league",
        starts_on=datetime.date(2026, 9, 3),
        rules_preset="tenhou-sanma",
        rules_overrides={"uma": [30, 0, -30]},
        is_public=True,
    )
    event.organisers.add(organiser)
    names = ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi", "Gen", "Hana", "Ivo"]
    services.add_names_to_roster(event.pk, names, create=True)
    first = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    second = Session.objects.create(event=event, number=2, date=datetime.date(2026, 9, 10))
    check = imports.check_log(event, TENHOU_SANMA.name, TENHOU_SANMA.read_bytes())
    assert check.problems == []
    players = {p.display_name: p for p in event.roster_players()}
    imported = imports.import_game(
        first, check, [players[n] for n in ("Aki", "Ben", "Chie")], table_number=1
    )
    assert imported.is_finished and imported.hands.count() == 6
    final = services.create_game(
        first,
        [players[n] for n in ("Dan", "Eri", "Fumi")],
        table_number=2,
        entry_mode=Game.EntryMode.FINAL_SCORES,
    )
    services.set_final_scores(final.pk, [52000, 33000, 20000], 0)
    going = services.create_game(
        second, [players[n] for n in ("Gen", "Hana", "Ivo")], table_number=1
    )
    services.add_hand(going.pk, 1, DRAW)
    services.add_hand(going.pk, 2, {"result": "draw", "riichi": [], "tenpai": [1, 2]})
    services.add_penalty(going.pk, 2, -5, "Slow play", actor=None)
    services.create_game(
        second,
        [players[n] for n in ("Aki", "Dan", "Eri")],
        table_number=2,
        entry_mode=Game.EntryMode.FINAL_SCORES,
    )
    return event


def seats_of(event) -> list:
    return [
        (
            g.session.number,
            g.table_number,
            g.status,
            g.entry_mode,
            g.source_id,
            g.hands.count(),
            [
                (s.seat, s.player.display_name, s.score, s.placement, s.match_points)
                for s in g.ordered_seats()
            ],
        )
        for g in Game.objects.filter(session__event=event)
        .select_related("session")
        .order_by("session__number", "table_number")
    ]


def test_the_event_file_of_a_three_player_event_imports_into_a_fresh_event_exactly(
    sanma, organiser
):
    data = json.loads(exchange.event_json(exchange.export_event(sanma)))
    assert data["rules"] == {"preset": "tenhou-sanma", "overrides": {"uma": [30, 0, -30]}}
    assert all(len(g["record"]["players"]) == 3 for g in data["games"])
    finals = [g["record"]["final_scores"] for g in data["games"] if "final_scores" in g["record"]]
    assert finals == [[52000, 33000, 20000], [None, None, None]]

    fresh = Event.objects.create(
        name="Copy", slug="copy", starts_on=datetime.date(2026, 9, 3), rules_preset="ari-ari"
    )
    assert exchange.import_event(fresh, data, user=organiser) == 4
    fresh.refresh_from_db()
    assert fresh.player_count == 3
    again = exchange.export_event(fresh)
    assert {**again, "event": data["event"]} == data
    assert seats_of(fresh) == seats_of(sanma)
    assert all(len(row[-1]) == 3 for row in seats_of(fresh))


def test_an_event_file_of_four_names_a_game_is_refused_under_three_player_rules(sanma):
    data = exchange.export_event(sanma)
    data["games"][0]["record"]["players"].append("Zed")
    fresh = Event.objects.create(name="Copy", slug="copy", starts_on=datetime.date(2026, 9, 3))
    with pytest.raises(exchange.ImportRefused, match="game 1 needs three player names"):
        exchange.import_event(fresh, data)
    assert not fresh.sessions.exists() and fresh.rules_preset == "ari-ari"
    # And three names under four-player rules.
    data = exchange.export_event(sanma)
    data["rules"] = "tenhou"
    with pytest.raises(exchange.ImportRefused, match="game 1 needs four player names"):
        exchange.import_event(fresh, data)


def test_a_backup_of_a_three_player_event_restores_exactly(client, sanma, organiser, tmp_path):
    client.force_login(organiser)
    before = site_picture(client)
    assert all(len(game[-1]) == 3 for game in before["games"])
    path = tmp_path / "site.json"
    call_command("backup", str(path), stdout=io.StringIO())
    wipe()
    call_command("restore", str(path), stdout=io.StringIO())
    client.force_login(type(organiser).objects.get(username="organiser"))
    assert site_picture(client) == before
    restored = Event.objects.get(slug="sanma-league")
    assert restored.player_count == 3 and seats_of(restored)[1][-1][0][2] == 52000


def test_the_results_and_standings_files_of_a_three_player_event_have_three_seats_a_game(
    client, sanma
):
    results = client.get(reverse("tournaments:results", args=[sanma.slug]), {"_export": "csv"})
    assert results.status_code == 200
    rows = list(csv.reader(io.StringIO(results.content.decode("utf-8-sig"))))
    body = rows[1:]
    assert len(body) == 6  # the two finished games, three seats each
    text = results.content.decode("utf-8-sig")
    assert "North" not in text and "East" in text and "West" in text
    xlsx = client.get(reverse("tournaments:results", args=[sanma.slug]), {"_export": "xlsx"})
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    column = rows[0].index("Wind")
    assert sorted(row[column] for row in rows[1:]) == sorted(["East", "South", "West"] * 2)
    standings = client.get(reverse("tournaments:standings", args=[sanma.slug]), {"_export": "json"})
    assert standings.status_code == 200
    assert len(json.loads(standings.content)) == 6  # six players have a finished game

"""What pages read and keep: a made file goes out before the standings are read, a game's
record is kept across other tables' hands and after a hand is entered, the standings
work out only the rows they show, and a player's games come a page at a time."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from perf import bench
from tests.tournaments.builders import final_game, small_league
from tournaments import services
from tournaments.models import Event, GameSeat, Player, Session
from tournaments.standings import event_standings
from tournaments.tables import StandingsRecord, StandingsTable

pytestmark = pytest.mark.django_db

DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}


def tables_read(queries) -> set[str]:
    return {
        name for query in queries.captured_queries for name in re.findall(r'"(\w+)"', query["sql"])
    }


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json"])
def test_a_standings_file_made_already_goes_out_without_reading_the_standings(
    client, organiser, fmt
):
    small_league(organiser)
    address = reverse("tournaments:standings", args=["league"])
    first = client.get(address, {"_export": fmt, "sort": "-games", "utm": "x"})
    with CaptureQueriesContext(connection) as again:
        second = client.get(address, {"_export": fmt, "sort": "-games"})
    assert second.content == first.content
    assert "tournaments_playertotal" not in tables_read(again)
    assert "tournaments_gameseat" not in tables_read(again)
    # The file of another order is another file, and a change of results makes anew.
    assert client.get(address, {"_export": fmt}).content != first.content
    services.add_penalty(GameSeat.objects.first().game_id, 0, Decimal("-9.0"), "Late")
    assert client.get(address, {"_export": fmt, "sort": "-games"}).content != first.content


def test_a_file_ordered_by_a_session_without_finished_games_is_the_file_made_anew(
    client, organiser, players
):
    event = small_league(organiser)
    # Session 3 has a game still going: its columns are not in the table yet.
    third = Session.objects.create(event=event, number=3, date=datetime.date(2026, 1, 15))
    services.create_game(third, players, table_number=1)
    address = reverse("tournaments:standings", args=["league"])
    query = {"_export": "csv", "sort": "-s3_points"}
    kept = client.get(address, query).content
    assert client.get(address, query).content == kept
    cache.clear()
    assert client.get(address, query).content == kept
    assert kept == client.get(address, {"_export": "csv"}).content  # the standing order


def test_a_rename_or_new_rules_read_a_games_record_again(organiser):
    event = bench.build_league(players=12, games=4, slug="renamed", say=lambda _: None)
    game = bench.start_game(event)
    services.add_hand(game.pk, 1, DRAW)
    page = reverse("tournaments:game", args=[game.pk])
    client = Client()
    client.get(page)
    player = game.seats.get(seat=0).player
    player.display_name = "Someone Else"
    player.save()
    assert "Someone Else" in client.get(page).content.decode()
    services.change_event_rules(event.pk, "ari-ari", {"uma": [20, 10, -10, -20]})
    with CaptureQueriesContext(connection) as queries:
        client.get(page)
    assert "tournaments_hand" in tables_read(queries)


def test_a_new_player_is_one_insert_and_a_rename_changes_their_pages(organiser):
    # Nothing shows a player who has just been made, so making one (a roster of names, an
    # import) asks for no page's versions; a rename of a player who played does.
    with CaptureQueriesContext(connection) as making:
        player = Player.objects.create(display_name="Newcomer")
    assert [q["sql"].split()[0] for q in making.captured_queries] == ["INSERT"]
    event = small_league(organiser)
    played = GameSeat.objects.filter(game__session__event=event).first().player
    before = Event.objects.get(pk=event.pk).results_token
    played.display_name = "Renamed"
    played.save()
    assert Event.objects.get(pk=event.pk).results_token != before
    assert player.pk


def test_standings_records_work_out_their_cells_on_first_use(organiser):
    standings = event_standings(small_league(organiser))
    table = StandingsTable(standings)
    records = list(table.data.data)
    assert all(isinstance(record, StandingsRecord) for record in records)
    record = records[0]
    assert "average_placement" not in dict.keys(record)
    row = standings.rows[0]
    assert record.get("average_placement") == row.average_placement
    assert record["rank_label"] == row.rank_label
    assert record.get("no such cell", "none") == "none"
    with pytest.raises(KeyError):
        record["no such cell"]


def test_ordering_by_a_cell_worked_out_on_first_use_orders_every_row(organiser):
    standings = event_standings(small_league(organiser))
    table = StandingsTable(standings, order_by="-average_placement")
    shown = [row.record["player"] for row in table.rows]
    expected = sorted(
        standings.rows, key=lambda row: (row.average_placement is None, row.average_placement)
    )
    assert shown == [row.player for row in reversed(expected)]


@pytest.mark.slow
def test_a_players_games_come_twenty_five_to_a_page(client, organiser):
    event = Event.objects.create(name="Long", slug="long", starts_on=datetime.date(2026, 1, 1))
    names = ["Regular", "B", "C", "D"]
    for number in range(1, 31):
        session = Session.objects.create(
            event=event, number=number, date=datetime.date(2026, 1, 1) + datetime.timedelta(number)
        )
        final_game(session, names, [40000, 30000, 20000, 10000], 1)
    regular = Player.objects.get(display_name="Regular")
    address = reverse("tournaments:player", args=[regular.pk])
    first = client.get(address).content.decode()
    second = client.get(address, {"page": "2"}).content.decode()
    body = re.compile(r'<tr class="(?:odd|even)">')
    assert len(body.findall(first.split("<h3>")[-1])) == 25
    assert len(body.findall(second.split("<h3>")[-1])) == 5
    # The totals count every game, not only those of the page.
    assert "<dt>Games</dt><dd>30</dd>" in first
    # Pages past the last and unknown parameters are the last page, rendered once.
    last = client.get(address, {"page": "99", "x": "1"}).content.decode()
    assert last[last.index("<main") :] == second[second.index("<main") :]
    assert 'href="?page=2"' in first


def test_the_standings_filter_is_drawn_once_for_each_choice_and_state_of_sessions(
    client, organiser
):
    event = small_league(organiser)
    address = reverse("tournaments:standings", args=["league"])

    def chosen(page: str) -> list[str]:
        return re.findall(r'<option value="(\d+)"[^>]*selected', page)

    assert chosen(client.get(address, {"first_session": "2"}).content.decode()) == ["2"]
    # Served again, and after a change of results, the choice is still the one asked for.
    assert chosen(client.get(address, {"first_session": "2"}).content.decode()) == ["2"]
    services.add_penalty(GameSeat.objects.first().game_id, 0, Decimal("-9.0"), "Late")
    assert chosen(client.get(address, {"last_session": "1"}).content.decode()) == ["1"]
    # A number written oddly is drawn as written, and a session added is offered at once.
    page = client.get(address, {"min_games": "007"}).content.decode()
    assert 'value="007"' in page
    Session.objects.create(event=event, number=3, date=datetime.date(2026, 1, 15))
    page = client.get(address, {"first_session": "2"}).content.decode()
    assert '<option value="3"' in page and chosen(page) == ["2"]

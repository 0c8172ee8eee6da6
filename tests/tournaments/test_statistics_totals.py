"""The stored statistics, the one source of the statistics of finished games, always equal
the seats' own figures added up.

After every kind of change of results, made through the services or the admin, the
statistics the pages read (stored rows and the seats of games still going) must be what
adding up every seat of the event gives, as the statistics page once did, and the stored
rows what a recount from nothing makes.
"""

from __future__ import annotations

import datetime
import importlib
import json
from collections import Counter
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from perf.bench import build_league
from tests.conftest import fresh, kept_for_module, make_organiser
from tests.tournaments.builders import small_league
from tests.tournaments.test_statistics_stored import DOUBLE_RON, RON, TSUMO
from tournaments import services, totals
from tournaments.models import Event, Game, GameSeat, Player, Session, StatisticsTotal
from tournaments.statistics import (
    SEAT_FIGURES,
    STORED_VALUES,
    event_player_statistics,
    player_statistics,
)
from tournaments.wording import yaku_name

pytestmark = pytest.mark.django_db

DRAW = {"result": "draw", "riichi": [], "tenpai": [3]}


def seat_sums(event: Event) -> dict[int, dict]:
    """Per player, every seat of the event's games added up here: games, places of finished
    games, the seats' figures and their yaku (what the statistics page summed before the
    statistics were stored)."""
    found: dict[int, dict] = {}
    for seat in GameSeat.objects.filter(game__session__event=event).select_related("player"):
        row = found.setdefault(
            seat.player_id,
            {"player": seat.player.display_name, "games": 0, "places": [0, 0, 0, 0]}
            | dict.fromkeys(SEAT_FIGURES, 0)
            | {"yaku": Counter()},
        )
        row["games"] += 1
        if seat.placement:
            row["places"][seat.placement - 1] += 1
        for name in SEAT_FIGURES:
            row[name] += getattr(seat, name)
        row["yaku"].update(seat.yaku)
    return found


def shown(stats) -> dict[int, dict]:
    return {
        s.player_id: {"player": s.player, "games": s.games, "places": s.places}
        | {name: getattr(s, name) for name in SEAT_FIGURES}
        | {"yaku": Counter(s.yaku)}
        for s in stats
    }


def stored_rows(event: Event) -> list[tuple]:
    return sorted(
        StatisticsTotal.objects.filter(event=event).values_list(
            "session_id", "player_id", *STORED_VALUES
        ),
        key=repr,
    )


def assert_statistics_agree(event: Event) -> None:
    expected = seat_sums(event)
    players = event_player_statistics(event)
    assert shown(players) == expected
    assert [p.player.casefold() for p in players] == sorted(p.player.casefold() for p in players)
    one_event = Event.objects.filter(pk=event.pk)
    for player_id, row in expected.items():
        player = Player.objects.get(pk=player_id)
        assert shown([player_statistics(player, one_event)]) == {player_id: row}
    kept = stored_rows(event)
    with transaction.atomic():
        totals.rebuild(event.pk)
        assert stored_rows(event) == kept
        transaction.set_rollback(True)


def build_totals_league(organiser):
    """The small league's final-score games, a finished game of hands in a third session
    and a game of hands still going there."""
    event = small_league(organiser)
    three = Session.objects.create(event=event, number=3, date=datetime.date(2026, 1, 15))
    hands = services.create_game(
        three, services.players_by_name(["A", "B", "C", "F"], create=True), table_number=1
    )
    for number, hand in enumerate([TSUMO, RON, DOUBLE_RON, DRAW], start=1):
        services.add_hand(hands.pk, number, hand)
    services.call_time(hands.pk)
    going = services.create_game(
        three, services.players_by_name(["D", "E", "G", "H"], create=True), table_number=2
    )
    services.add_hand(going.pk, 1, RON)
    return event


# Built once for the module; every test reads it afresh (see tests/conftest.py).
@pytest.fixture(scope="module")
def _built(django_db_setup, django_db_blocker):
    with kept_for_module(django_db_blocker):
        organiser = make_organiser(get_user_model())
        yield organiser, build_totals_league(organiser)


@pytest.fixture
def organiser(_built, db):
    return fresh(_built[0])


@pytest.fixture
def league(_built, db):
    return fresh(_built[1])


def _game(event, session_number, table):
    return Game.objects.get(
        session__event=event, session__number=session_number, table_number=table
    )


def _stats(event, name):
    return next(s for s in event_player_statistics(event) if s.player == name)


def test_stored_statistics_made_as_games_are_played_agree_with_the_seats(league):
    assert_statistics_agree(league)
    # A, B, C, D, E and F played finished games; G and H only the game going on.
    assert StatisticsTotal.objects.filter(event=league, session__isnull=True).count() == 6
    c = _stats(league, "C")
    assert (c.games, c.wins, c.hands, c.riichi, c.yaku) == (4, 1, 4, 1, {"pinfu": 1, "riichi": 1})
    assert _stats(league, "G").games == 1


def test_a_hand_edited_in_a_finished_game_is_counted_again(league):
    game = _game(league, 3, 1)
    services.reopen_game(game.pk)
    assert_statistics_agree(league)
    services.replace_hand(game.pk, 2, DRAW)
    assert_statistics_agree(league)
    services.call_time(game.pk)
    assert_statistics_agree(league)
    c = _stats(league, "C")
    assert (c.wins, c.riichi, c.yaku) == (0, 0, {})


def test_a_hand_deleted_from_a_finished_game_is_counted_again(league):
    game = _game(league, 3, 1)
    services.reopen_game(game.pk)
    services.delete_hand(game.pk, 1)
    services.call_time(game.pk)
    assert_statistics_agree(league)
    assert _stats(league, "A").tsumo == 0


def test_a_penalty_given_and_taken_back_keeps_the_statistics(league):
    game = _game(league, 3, 1)
    before = shown(event_player_statistics(league))
    penalty = services.add_penalty(game.pk, 0, Decimal("-5.0"), "slow play")
    assert_statistics_agree(league)
    services.delete_penalty(game.pk, penalty.pk)
    assert_statistics_agree(league)
    assert shown(event_player_statistics(league)) == before


def test_final_scores_cleared_and_entered_again_move_the_game_out_and_back(league):
    game = _game(league, 1, 1)
    first, second, third, fourth = _stats(league, "A").places
    services.clear_final_scores(game.pk)
    assert_statistics_agree(league)
    a = _stats(league, "A")
    # Still one of A's games, but one going on, without a place.
    assert a.places == [first - 1, second, third, fourth] and a.games == 3
    services.set_final_scores(game.pk, [12000, 24900, 21800, 41300], 0)
    assert_statistics_agree(league)
    assert _stats(league, "A").places == [first - 1, second, third, fourth + 1]


def test_a_substitute_and_a_player_put_in_a_seat_are_counted_where_they_sat(league):
    game = _game(league, 3, 1)
    services.set_substitutes(game.pk, [3])
    assert_statistics_agree(league)
    assert _stats(league, "F").games == 1  # a substitute's game counts in the statistics
    newcomer = services.players_by_name(["Newcomer"], create=True)[0]
    services.put_player_in_seat(game.pk, 3, newcomer)
    assert_statistics_agree(league)
    assert "F" not in {s.player for s in event_player_statistics(league)}
    assert _stats(league, "Newcomer").riichi == 1


def test_a_withdrawn_player_keeps_the_games_they_played(league):
    a = services.players_by_name(["A"])[0]
    services.add_to_roster(league.pk, [a])
    services.withdraw_from_roster(league.pk, a.pk, 3)
    assert_statistics_agree(league)
    assert _stats(league, "A").games == 3


def test_a_game_still_going_counts_at_once_and_is_stored_when_it_ends(league):
    going = _game(league, 3, 2)
    services.add_hand(going.pk, 2, TSUMO)
    assert_statistics_agree(league)
    assert _stats(league, "D").tsumo == 1
    assert not StatisticsTotal.objects.filter(player__display_name="G").exists()
    services.call_time(going.pk)
    assert_statistics_agree(league)
    assert StatisticsTotal.objects.filter(player__display_name="G").count() == 2
    services.reopen_game(going.pk)
    assert_statistics_agree(league)


def test_finished_games_deleted_in_the_admin_leave_the_statistics_at_once(league):
    game = _game(league, 3, 1)
    # Not counted in the standings: its every seat a substitute's.
    services.set_substitutes(game.pk, [0, 1, 2, 3])
    game.delete()
    assert_statistics_agree(league)
    assert "F" not in {s.player for s in event_player_statistics(league)}
    _game(league, 1, 2).delete()
    assert_statistics_agree(league)


def test_a_session_deleted_in_the_admin_and_a_change_of_rules_recount_the_statistics(league):
    services.change_event_rules(league.pk, "tenhou", {})
    assert_statistics_agree(league)
    Session.objects.get(event=league, number=3).delete()
    assert_statistics_agree(league)
    assert StatisticsTotal.objects.filter(event=league, session__number=3).count() == 0


def test_the_statistics_page_shows_the_seats_added_up(client, league):
    url = reverse("tournaments:statistics", args=[league.slug])
    exported = json.loads(client.get(url, {"_export": "json"}).content)
    expected = {row["player"]: row for row in seat_sums(league).values()}
    assert {row["Player"] for row in exported} == set(expected)
    for row in exported:
        sums = expected[row["Player"]]
        assert (row["Games"], row["Hands"], row["Wins"], row["Deal-ins"], row["Riichi"]) == (
            sums["games"], sums["hands"], sums["wins"], sums["deal_ins"], sums["riichi"]
        )  # fmt: skip
        assert [row["1st"], row["2nd"], row["3rd"], row["4th"]] == sums["places"]
    # Three wins with riichi in the finished game, one in the game going on.
    text = client.get(url).content.decode()
    row = f'<tr><td>{yaku_name("riichi")}</td><td class="number">4</td>'
    assert row in text.split("Yaku won with")[1]


def test_the_migration_adds_up_the_statistics_of_games_stored_before(league):
    kept = stored_rows(league)
    StatisticsTotal.objects.all().delete()
    migration = importlib.import_module("tournaments.migrations.0025_stored_statistics")
    migration.add_up_statistics(apps, None)
    assert stored_rows(league) == kept


def test_the_benchmark_league_is_counted_once_it_is_built():
    event = build_league(players=12, games=30, say=lambda *_: None)
    assert_statistics_agree(event)


def test_the_statistics_read_no_seat_of_a_finished_game_and_the_same_queries_at_any_size():
    counts = []
    for games, slug in ((8, "small"), (40, "larger")):
        event = build_league(players=12, games=games, slug=slug, say=lambda *_: None)
        before = shown(event_player_statistics(event))
        # Figures no finished game has: read, they would show.
        GameSeat.objects.filter(game__session__event=event).update(wins=999, yaku={"x": 1})
        with CaptureQueriesContext(connection) as queries:
            assert shown(event_player_statistics(event)) == before
        counts.append(len(queries))
    assert counts[0] == counts[1]

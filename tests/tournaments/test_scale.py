"""Page query counts do not grow with the size of the league (the benchmark's pages)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import bench
from tournaments.models import Game, GameSeat
from tournaments.services import replay_record

pytestmark = pytest.mark.django_db


def page_queries(client, event) -> dict[str, int]:
    seat = GameSeat.objects.filter(game__session__event=event).order_by("pk").first()
    game = Game.objects.filter(session__event=event).order_by("-pk").first()
    urls = {
        "standings": reverse("tournaments:standings", args=[event.slug]),
        "player": reverse("tournaments:player", args=[seat.player_id]),
        "game": reverse("tournaments:game", args=[game.pk]),
        "game sheet": reverse("tournaments:game_sheet", args=[game.pk]),
        "results": reverse("tournaments:results", args=[event.slug]),
    }
    counts = {}
    for name, url in urls.items():
        client.get(url)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts[name] = len(captured.captured_queries)
    return counts


def test_page_query_counts_stay_the_same_from_a_small_to_a_larger_league(client):
    small = bench.build_league(players=8, games=6, slug="small", say=lambda _: None)
    large = bench.build_league(players=40, games=60, slug="large", say=lambda _: None)
    small_counts = page_queries(client, small)
    large_counts = page_queries(client, large)
    assert small_counts == large_counts
    for name, count in large_counts.items():
        assert count <= 12, (name, count)


def test_the_benchmark_league_holds_engine_results_for_every_game():
    event = bench.build_league(players=10, games=12, slug="check", say=lambda _: None)
    games = Game.objects.filter(session__event=event)
    assert games.count() == 12
    for game in games:
        result = replay_record(game.to_record())
        assert result.finished
        assert [s.score for s in game.ordered_seats()] == list(result.final_scores)
        assert [s.match_points for s in game.ordered_seats()] == list(result.match_points)


def test_the_page_benchmark_prints_times_and_query_counts_and_can_clean_up(capsys):
    from django.core.management import call_command

    from tournaments.models import Event, Player

    args = ["--players", "8", "--games", "6", "--requests", "2", "--remove"]
    call_command("bench_pages", *args)
    out = capsys.readouterr().out
    for label in ("standings", "after a change", "player page", "game page"):
        assert label in out
    assert "queries" in out and "Removed the benchmark league." in out
    assert not Event.objects.filter(slug=bench.SLUG).exists()
    assert not Player.objects.exists()

"""`bench_pages`: its league, its table of pages with their ratios and bounds, and the
query counts of the pages it times, which do not grow with the size of the league."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from perf import bench
from perf.management.commands.bench_pages import Command, Page
from tournaments import services
from tournaments.models import Event, Game, GameSeat, Penalty, Player
from tournaments.services import replay_record
from tournaments.statistics import SEAT_FIGURES

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


@pytest.mark.slow
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
    # Each seat's statistics are those a replay through the services writes.
    figures = [*SEAT_FIGURES, "yaku"]
    built = list(GameSeat.objects.filter(game__in=games).order_by("pk").values_list(*figures))
    assert sum(row[1] for row in built) > 0  # someone won
    for game in games:
        services.rescore_game(game)
    assert (
        list(GameSeat.objects.filter(game__in=games).order_by("pk").values_list(*figures)) == built
    )


BENCH_PAGES = (
    "login",
    "event",
    "standings",
    "standings after a change",
    "results",
    "results after a change",
    "player",
    "player after a change",
    "another player after a change",
    "game",
    "game after a change",
    "game sheet",
    "scoresheet",
    "statistics",
    "statistics after a change",
    "live screen",
    "live screen after a change",
    "seating list",
    "standings CSV",
    "standings XLSX",
    "standings JSON",
    "results CSV",
    "results XLSX",
    "results JSON",
    "statistics CSV",
    "event export JSON",
    "event export ZIP",
    "hand form",
    "entering a hand",
)


def bench_lines(out: str) -> dict[str, str]:
    """The printed rows by page label (the text before the time)."""
    rows = {}
    for line in out.splitlines():
        match = re.match(r"\s+(\S.*?)\s{2,}(\d+\.\d ms|FAILED)", line)
        if match:
            rows[match.group(1)] = line
    return rows


EXPORT_KINDS = ("CSV", "XLSX", "JSON", "ZIP")
# The budgets, as ratios to the login page: a page from the cache 3x, the first view of a
# page right after a change 25x, entering a hand and every export 10x; the rest unbounded.
BOUNDS = {
    **dict.fromkeys(
        ["event", "standings", "results", "player", "game", "game sheet", "statistics",
         "live screen"],
        "3x",
    ),
    **{label: "25x" for label in BENCH_PAGES if label.endswith(" after a change")},
    **{label: "10x" for label in BENCH_PAGES if label.split()[-1] in EXPORT_KINDS},
    "entering a hand": "10x",
    "scoresheet": "-",
    "hand form": "-",
    "seating list": "-",
}  # fmt: skip
ROW = re.compile(r"(\d+\.\d) ms +(\d+\.\d)x +(\S+) (OK  |OVER|    ) +(\d+)  \(/")


@pytest.mark.slow
def test_the_page_benchmark_prints_every_page_with_its_ratio_bound_and_query_count(capsys):
    args = ["--players", "8", "--games", "12", "--requests", "2", "--remove", "--report-only"]
    call_command("bench_pages", *args)
    out = capsys.readouterr().out
    rows = bench_lines(out)
    assert set(rows) == set(BENCH_PAGES)
    assert set(BOUNDS) == set(BENCH_PAGES[1:])
    for label in BENCH_PAGES[1:]:
        match = ROW.search(rows[label])
        assert match, rows[label]
        ratio, bound, verdict = float(match.group(2)), match.group(3), match.group(4).strip()
        assert ratio > 0 and int(match.group(5)) > 0
        assert bound == BOUNDS[label], label
        if bound == "-":
            assert verdict == ""
        else:
            assert verdict == ("OVER" if ratio > float(bound[:-1]) else "OK"), rows[label]
    # Each first view follows a change of what it shows, so it is drawn anew rather than
    # taken from the cache: it reads more than the same page between two changes.
    for label in BENCH_PAGES:
        if label.endswith(" after a change"):
            # Another player's page compares with the player's page between two changes.
            cached = label.removesuffix(" after a change").removeprefix("another ")
            queries = int(ROW.search(rows[label]).group(5))
            assert queries > int(ROW.search(rows[cached]).group(5)), (rows[label], rows[cached])
    assert re.search(
        r"^(All \d+ bounded pages are within|\d+ of \d+ bounded pages are OVER)", out, re.M
    )
    assert "Removed the benchmark league." in out
    assert not Event.objects.filter(slug=bench.SLUG).exists()
    assert not Player.objects.exists() and not Game.objects.exists()
    assert not get_user_model().objects.exists()


@pytest.mark.slow
def test_the_page_benchmark_leaves_the_league_as_it_found_it(capsys):
    bench.build_league(players=8, games=12, say=lambda _: None)
    seats = sorted(GameSeat.objects.values_list("pk", "score", "match_points", "penalty_points"))
    call_command("bench_pages", "--requests", "1", "--report-only")
    assert Game.objects.count() == 12 and not Penalty.objects.exists()
    after = sorted(GameSeat.objects.values_list("pk", "score", "match_points", "penalty_points"))
    assert after == seats


@pytest.mark.slow
def test_a_page_that_fails_is_named_and_the_benchmark_exits_non_zero(capsys, monkeypatch):
    real_pages = Command.pages

    def with_a_broken_page(self, event, playing, elsewhere, reader):
        return [
            *real_pages(self, event, playing, elsewhere, reader),
            Page("broken page", "/no-such-page/"),
        ]

    monkeypatch.setattr(Command, "pages", with_a_broken_page)
    args = ["--players", "8", "--games", "12", "--requests", "1", "--remove", "--report-only"]
    with pytest.raises(CommandError, match=r"broken page \(answered 404, expected 200\)"):
        call_command("bench_pages", *args)
    rows = bench_lines(capsys.readouterr().out)
    assert "FAILED: answered 404" in rows["broken page"]
    assert "ms" in rows["standings"]


def _only_pages(monkeypatch, *extra: Page) -> None:
    def the_login_page_and(self, event, playing, elsewhere, reader):
        return list(extra)

    monkeypatch.setattr(Command, "pages", the_login_page_and)


@pytest.mark.slow
def test_a_page_over_its_bound_is_marked_over_and_the_benchmark_exits_non_zero(capsys, monkeypatch):
    standings = reverse("tournaments:standings", args=[bench.SLUG])
    _only_pages(
        monkeypatch,
        Page("cheap enough", standings, bound=10**9),
        Page("far too slow", standings, bound=0.0001),
        Page("unbounded", standings),
    )
    args = ["--players", "8", "--games", "12", "--requests", "1", "--remove"]
    with pytest.raises(
        CommandError, match=r"over their bound: far too slow \(\d+\.\dx, bound 0\.0001x\)\.$"
    ):
        call_command("bench_pages", *args)
    out = capsys.readouterr().out
    rows = bench_lines(out)
    assert ROW.search(rows["far too slow"]).group(3, 4) == ("0.0001x", "OVER")
    assert ROW.search(rows["cheap enough"]).group(3, 4) == ("1e+09x", "OK  ")
    assert ROW.search(rows["unbounded"]).group(3, 4) == ("-", "    ")
    assert "1 of 2 bounded pages are OVER their bound: far too slow." in out
    assert not Event.objects.exists()


@pytest.mark.slow
def test_report_only_prints_a_page_over_its_bound_and_exits_zero(capsys, monkeypatch):
    standings = reverse("tournaments:standings", args=[bench.SLUG])
    _only_pages(monkeypatch, Page("far too slow", standings, bound=0.0001))
    call_command(
        "bench_pages", "--players", "8", "--games", "12", "--requests", "1", "--report-only"
    )
    assert "OVER" in bench_lines(capsys.readouterr().out)["far too slow"]


@pytest.mark.slow
def test_pages_within_their_bound_exit_zero(capsys, monkeypatch):
    standings = reverse("tournaments:standings", args=[bench.SLUG])
    _only_pages(monkeypatch, Page("cheap enough", standings, bound=10**9))
    call_command("bench_pages", "--players", "8", "--games", "12", "--requests", "1")
    assert "All 1 bounded pages are within their bound." in capsys.readouterr().out


def test_the_page_benchmark_refuses_a_league_too_small_to_seat_two_tables():
    with pytest.raises(CommandError, match="at least 8 players, for two tables in play"):
        call_command("bench_pages", "--players", "7", "--games", "2")
    assert not Event.objects.exists()


@pytest.mark.slow
def test_the_page_benchmark_can_time_only_some_pages(capsys):
    # Only which pages are timed is checked here: their ratios on a busy machine are not.
    args = ["--players", "8", "--games", "12", "--requests", "1", "--remove", "--report-only"]
    call_command("bench_pages", *args, "--only", "standings, results")
    assert set(bench_lines(capsys.readouterr().out)) == {"login", "standings", "results"}
    with pytest.raises(CommandError, match="No page is called standing. The pages: event, "):
        call_command("bench_pages", *args, "--only", "standing")
    assert not Game.objects.filter(table_number__gt=12).exists()


@pytest.mark.slow
def test_a_league_of_one_game_still_seats_two_tables_in_play(capsys):
    # Four of the eight players have no game yet: the second table seats them.
    args = ["--players", "8", "--games", "1", "--requests", "1", "--remove", "--report-only"]
    call_command("bench_pages", *args, "--only", "game after a change,entering a hand")
    rows = bench_lines(capsys.readouterr().out)
    assert set(rows) == {"login", "game after a change", "entering a hand"}
    assert "FAILED" not in rows["game after a change"] + rows["entering a hand"]
    assert not Game.objects.exists()

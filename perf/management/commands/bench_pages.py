"""`python manage.py bench_pages`: time every page of a large generated league against
the login page, and count their SQL queries."""

from __future__ import annotations

import statistics
import time
from argparse import ArgumentTypeError
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from perf import bench
from tournaments import services
from tournaments.models import Event, Game, GameSeat, Penalty, Player

ORGANISER = f"{bench.SLUG}-organiser"
# The most a page may cost, as a ratio to the login page of the same run, by what a user
# feels: a page served from the cache (as readers get it between two changes); the first
# view of a page right after a change of results or play (at 5,000 games, and no more at
# 20,000); the whole POST of a hand; an export.
CACHED, FIRST, HAND, EXPORT = 3.0, 25.0, 10.0, 10.0
FORM_ENCODED = "application/x-www-form-urlencoded"


@dataclass
class Page:
    """One thing to time: a GET (or a POST with `data`), with `before` run untimed first."""

    label: str
    url: str
    data: Callable[[], dict] | None = None
    before: Callable[[], None] | None = None
    status: int = 200
    bound: float | None = None  # the most this page may cost, as a ratio to the login page
    # Timed after the others: a first view after a change (its `before` makes the change),
    # a request that is a change itself, and the hand form, which a table loads right after
    # each hand. The others are then timed as readers see them between two changes.
    changes: bool = False
    timings: list[float] = field(default_factory=list)
    logins: list[float] = field(default_factory=list)
    queries: int = 0
    failure: str = ""
    ratio: float | None = None

    @property
    def over(self) -> bool:
        # Judged as printed, to a tenth: "3.0x" is within a bound of 3x.
        return (
            self.bound is not None and self.ratio is not None and round(self.ratio, 1) > self.bound
        )


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ArgumentTypeError(f"Give a whole number of at least 1, not {text!r}.")
    return value


class Command(BaseCommand):
    help = (
        "Build a large league (kept under the slug bench-league for later runs; --fresh "
        "rebuilds it) and print, for every page, the median time, its ratio to the login "
        "page (requested in turn with each page), the bound of that ratio and the SQL "
        "query count. Exits non-zero when a page fails or a ratio is over its bound."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=positive, default=300)
        parser.add_argument("--games", type=positive, default=5000)
        parser.add_argument("--requests", type=positive, default=20, help="requests per page")
        parser.add_argument("--fresh", action="store_true", help="rebuild the league")
        parser.add_argument("--remove", action="store_true", help="delete the league after")
        parser.add_argument(
            "--report-only",
            action="store_true",
            help="print the bounds, but exit zero when a ratio is over its bound",
        )
        parser.add_argument(
            "--only",
            default="",
            help='only these pages, by label, comma-separated (e.g. "standings,results")',
        )

    def handle(self, *args, **options):
        if options["players"] < 8:
            raise CommandError(
                "A league needs at least 8 players, for two tables in play: give --players 8 "
                "or more."
            )
        event = Event.objects.filter(slug=bench.SLUG).first()
        if event and options["fresh"]:
            self._remove(event)
            event = None
        if event is None:
            self.stdout.write(
                f"Building {options['games']} games for {options['players']} players..."
            )
            started = time.perf_counter()
            event = bench.build_league(
                players=options["players"], games=options["games"], say=self.stdout.write
            )
            self.stdout.write(f"Built in {time.perf_counter() - started:.1f} s.")
        bench.tidy()
        organiser, _ = get_user_model().objects.get_or_create(username=ORGANISER)
        event.organisers.add(organiser)
        # Requests go through the whole stack, so they need a host the settings allow.
        allowed = [h for h in settings.ALLOWED_HOSTS if h and not h.startswith(".")]
        host = allowed[0] if allowed else "localhost"
        visitor, client = Client(HTTP_HOST=host), Client(HTTP_HOST=host)
        client.force_login(organiser)
        # One game in progress takes the hands timed; play changes happen at the other.
        playing = bench.start_game(event)
        elsewhere = bench.start_game(event)
        try:
            pages = self._chosen(
                self.pages(event, playing, elsewhere, Client(HTTP_HOST=host)), options["only"]
            )
            self._run(visitor, client, pages, event, options["requests"])
        finally:
            bench.remove_game(playing)
            bench.remove_game(elsewhere)
            for penalty in Penalty.objects.filter(
                reason=PENALTY_REASON, game__session__event=event
            ):
                services.delete_penalty(penalty.game_id, penalty.pk)
        failed = [page for page in pages if page.failure]
        over = [page for page in pages if page.over]
        if options["remove"]:
            self._remove(event)
        problems = []
        if failed:
            problems.append(
                "These pages failed: "
                + "; ".join(f"{page.label} ({page.failure})" for page in failed)
                + ". Fix them and run the benchmark again."
            )
        if over and not options["report_only"]:
            problems.append(
                "These pages are over their bound: "
                + "; ".join(f"{p.label} ({p.ratio:.1f}x, bound {p.bound:g}x)" for p in over)
                + "."
            )
        if problems:
            raise CommandError(" ".join(problems))

    def pages(self, event: Event, playing: Game, elsewhere: Game, reader: Client) -> list[Page]:
        """Every page measured, in the order printed. `playing` is the game in progress whose
        hands are timed, `elsewhere` another one where play changes between requests;
        `reader` is another visitor, whose untimed requests come before a timed one."""
        busiest = (
            GameSeat.objects.filter(game__session__event=event)
            .values("player_id")
            .order_by()
            .annotate(n=Count("id"))
            .order_by("-n")
            .first()
        )
        player = busiest["player_id"]
        # The busiest player's last finished game: the penalties given and taken back there
        # change that player's record as well as the event's results.
        game = (
            Game.objects.filter(
                session__event=event, status=Game.Status.FINISHED, seats__player=player
            )
            .select_related("session")
            .order_by("-pk")
            .first()
        )
        slug, number = event.slug, game.session.number
        # A tablemate of that game: their page is read right after the busiest player's.
        tablemate = (
            GameSeat.objects.filter(game=game).exclude(player_id=player).values("player_id")[0]
        )["player_id"]

        def url(name, *args, query=""):
            return reverse(f"tournaments:{name}", args=args) + query

        def change_results():
            # Alternately give and take back a penalty: each rewrites the game's results.
            penalty = Penalty.objects.filter(game=game, reason=PENALTY_REASON).first()
            if penalty:
                services.delete_penalty(game.pk, penalty.pk)
            else:
                services.add_penalty(game.pk, 0, Decimal("-1.0"), PENALTY_REASON)

        def change_play():
            # Alternately enter a hand at the other table and take it back again.
            if elsewhere.hands.exists():
                services.undo_last_hand(elsewhere.pk)
            else:
                services.add_hand(elsewhere.pk, 1, EVERYONE_TENPAI)

        hands = iter(range(1, 10**6))

        def next_hand():
            return {"number": str(next(hands)), **FORM_TENPAI, "action": "save"}

        def change_then_read_a_player():
            # After a change, one reader opens the busiest player's page; the next reader
            # opens their tablemate's: what players' pages share is built by the first.
            change_results()
            reader.get(url("player", player))

        def first_view(label, page_url, change):
            # The first request for a page after a change of what it shows renders it anew.
            return Page(label, page_url, before=change, bound=FIRST, changes=True)

        standings, results = url("standings", slug), url("results", slug)
        player_page, game_page = url("player", player), url("game", game.pk)
        statistics, live = url("statistics", slug), url("live", slug)
        return [
            Page("event", url("event", slug), bound=CACHED),
            Page("standings", standings, bound=CACHED),
            first_view("standings after a change", standings, change_results),
            Page("results", results, bound=CACHED),
            first_view("results after a change", results, change_results),
            Page("player", player_page, bound=CACHED),
            first_view("player after a change", player_page, change_results),
            first_view(
                "another player after a change",
                url("player", tablemate),
                change_then_read_a_player,
            ),
            Page("game", game_page, bound=CACHED),
            first_view("game after a change", game_page, change_play),
            Page("game sheet", url("game_sheet", game.pk), bound=CACHED),
            Page("scoresheet", url("scoresheet", slug, number, game.table_number)),
            Page("statistics", statistics, bound=CACHED),
            first_view("statistics after a change", statistics, change_results),
            Page("live screen", live, bound=CACHED),
            first_view("live screen after a change", live, change_play),
            Page("seating list", url("seating_list", slug, number)),
            Page("standings CSV", standings + "?_export=csv", bound=EXPORT),
            Page("standings XLSX", standings + "?_export=xlsx", bound=EXPORT),
            Page("standings JSON", standings + "?_export=json", bound=EXPORT),
            Page("results CSV", results + "?_export=csv", bound=EXPORT),
            Page("results XLSX", results + "?_export=xlsx", bound=EXPORT),
            Page("results JSON", results + "?_export=json", bound=EXPORT),
            Page("statistics CSV", statistics + "?_export=csv", bound=EXPORT),
            Page("event export JSON", url("event_export", slug), bound=EXPORT),
            Page("event export ZIP", url("event_export_zip", slug), bound=EXPORT),
            # The form a table's phone loads before each hand: in a room of tables it is
            # requested as often as hands are entered.
            Page("hand form", url("hand_new", playing.pk), changes=True),
            Page(
                "entering a hand",
                url("hand_new", playing.pk),
                data=next_hand,
                status=302,
                bound=HAND,
                changes=True,
            ),
        ]

    def _chosen(self, pages: list[Page], only: str) -> list[Page]:
        wanted = [label.strip() for label in only.split(",") if label.strip()]
        if not wanted:
            return pages
        labels = [page.label for page in pages]
        unknown = [label for label in wanted if label not in labels]
        if unknown:
            raise CommandError(
                f"No page is called {', '.join(unknown)}. The pages: {', '.join(labels)}."
            )
        return [page for page in pages if page.label in wanted]

    def _run(self, visitor: Client, client: Client, pages: list[Page], event, requests: int):
        login = reverse("login")
        games = Game.objects.filter(session__event=event, status=Game.Status.FINISHED)
        players = GameSeat.objects.filter(game__session__event=event).values("player").distinct()
        self.stdout.write(
            f"{connection.vendor}: {games.count()} games, {players.count()} players, "
            f"{requests} requests per page, each after a request for the login page"
        )
        visitor.get(login)
        # Pages that change results come last: each makes every page after it render anew.
        readers = [page for page in pages if not page.changes]
        writers = [page for page in pages if page.changes]
        for page in writers + readers:  # warm caches and the template loader
            self._request(client, page, timed=False)
        for group in (readers, writers):
            for _ in range(requests):
                for page in group:
                    if page.failure:
                        continue
                    started = time.perf_counter()
                    visitor.get(login)
                    page.logins.append(time.perf_counter() - started)
                    self._request(client, page, timed=True)
        all_logins = [t for page in pages for t in page.logins]
        base = statistics.median(all_logins) if all_logins else 0
        self.stdout.write(
            f"  {'page':30} {'median':>9} {'ratio':>7} {'bound':>6} {'':4} {'queries':>7}"
        )
        self.stdout.write(f"  {'login':30} {base * 1000:6.1f} ms {1:6.1f}x")
        for page in pages:
            if page.failure:
                self.stdout.write(f"  {page.label:30} FAILED: {page.failure}  ({page.url})")
                continue
            median = statistics.median(page.timings)
            page.ratio = median / base if base else None
            bound, verdict = "-", ""
            if page.bound is not None:
                bound, verdict = f"{page.bound:g}x", "OVER" if page.over else "OK"
            self.stdout.write(
                f"  {page.label:30} {median * 1000:6.1f} ms {page.ratio or 0:6.1f}x {bound:>6} "
                f"{verdict:4} {page.queries:7d}  ({page.url})"
            )
        bounded = [page for page in pages if page.bound is not None and not page.failure]
        over = [page for page in bounded if page.over]
        if over:
            self.stdout.write(
                f"{len(over)} of {len(bounded)} bounded pages are OVER their bound: "
                + ", ".join(page.label for page in over)
                + "."
            )
        else:
            self.stdout.write(f"All {len(bounded)} bounded pages are within their bound.")

    def _request(self, client: Client, page: Page, *, timed: bool) -> None:
        if page.failure:
            return
        try:
            if page.before:
                page.before()
            data = page.data() if page.data else None
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                if data is None:
                    response = client.get(page.url)
                else:
                    # Encoded as a browser sends a form without files.
                    response = client.post(
                        page.url, urlencode(data, doseq=True), content_type=FORM_ENCODED
                    )
                elapsed = time.perf_counter() - started
        except Exception as err:  # a page that raises is reported, not fatal to the run
            page.failure = f"{type(err).__name__}: {err}"
            return
        if response.status_code != page.status:
            page.failure = f"answered {response.status_code}, expected {page.status}"
            return
        if timed:
            page.timings.append(elapsed)
            page.queries = len(captured.captured_queries)

    def _remove(self, event):
        players = list(
            GameSeat.objects.filter(game__session__event=event).values_list("player_id", flat=True)
        )
        event.delete()
        Player.objects.filter(pk__in=players, display_name__startswith=bench.SLUG).delete()
        get_user_model().objects.filter(username=ORGANISER).delete()
        self.stdout.write("Removed the benchmark league.")


PENALTY_REASON = "Benchmark: a change of results"
# A draw with all four tenpai: nobody pays and the dealer repeats, so a game in progress
# stays in progress however many are entered; as a hand object and as the form posts it.
EVERYONE_TENPAI = {"result": "draw", "riichi": [], "tenpai": [0, 1, 2, 3]}
FORM_TENPAI = {"result": "draw", "tenpai": ["0", "1", "2", "3"]}

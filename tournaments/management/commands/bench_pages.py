"""`python manage.py bench_pages`: time the standings, a player page and a game page on a
large generated league, and count their SQL queries."""

from __future__ import annotations

import statistics
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import bench
from tournaments.models import Event, Game, GameSeat, Player


class Command(BaseCommand):
    help = (
        "Build a large league (kept under the slug bench-league for later runs; --fresh "
        "rebuilds it) and print the median time and the SQL query count of the standings, "
        "a player page and a game page."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=300)
        parser.add_argument("--games", type=int, default=5000)
        parser.add_argument("--requests", type=int, default=20, help="requests per page")
        parser.add_argument("--fresh", action="store_true", help="rebuild the league")
        parser.add_argument("--remove", action="store_true", help="delete the league after")

    def handle(self, *args, **options):
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
        games = Game.objects.filter(session__event=event)
        busiest = (
            GameSeat.objects.filter(game__session__event=event)
            .values("player_id")
            .order_by()
            .annotate(n=Count("id"))
            .order_by("-n")
            .first()
        )
        game = games.order_by("-pk").first()
        pages = [
            ("standings", reverse("tournaments:standings", args=[event.slug])),
            ("player page", reverse("tournaments:player", args=[busiest["player_id"]])),
            ("game page", reverse("tournaments:game", args=[game.pk])),
        ]
        seated = GameSeat.objects.filter(game__session__event=event)
        self.stdout.write(
            f"{connection.vendor}: {games.count()} games, "
            f"{seated.values('player').distinct().count()} players, "
            f"{options['requests']} requests per page"
        )
        # Requests go through the whole stack, so they need a host the settings allow.
        allowed = [h for h in settings.ALLOWED_HOSTS if h and not h.startswith(".")]
        client = Client(HTTP_HOST=allowed[0] if allowed else "localhost")
        for label, url in pages:
            self._measure(client, label, url, options["requests"])
            if label == "standings":
                # The first request after any change to results computes them anew.
                def changed():
                    Event.objects.filter(pk=event.pk).results_changed()

                self._measure(client, "  after a change", url, options["requests"], before=changed)
        if options["remove"]:
            self._remove(event)

    def _measure(self, client, label, url, requests, before=None):
        client.get(url)  # warm caches and the template loader
        timings, queries = [], 0
        for _ in range(requests):
            if before:
                before()
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                response = client.get(url)
                timings.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise CommandError(f"{url} answered {response.status_code}")
            queries = len(captured.captured_queries)
        self.stdout.write(
            f"  {label:16} median {statistics.median(timings) * 1000:7.1f} ms, "
            f"{queries} queries  ({url})"
        )

    def _remove(self, event):
        players = list(
            GameSeat.objects.filter(game__session__event=event).values_list("player_id", flat=True)
        )
        event.delete()
        Player.objects.filter(pk__in=players, display_name__startswith=bench.SLUG).delete()
        self.stdout.write("Removed the benchmark league.")

"""A large generated league, for measuring pages at scale.

Games are random but valid (`scoring.simulate`); every stored result is the engine's
own, written with the same mapping the services use, only in bulk.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from django.db import connection, transaction
from django.db.models import Max, Q

import scoring
from scoring.simulate import random_record
from tournaments import services, totals, versions
from tournaments.models import Event, Game, GameSeat, Hand, Player, Session, Win
from tournaments.services import apply_result
from tournaments.statistics import seat_figures

SLUG = "bench-league"
GAMES_PER_SESSION = 100
BATCH = 250


def build_league(
    *, players: int, games: int, seed: int = 1, slug: str = SLUG, say: Callable = print
) -> Event:
    """Create the event `slug` with `players` players and `games` finished games."""
    rng = random.Random(seed)
    with transaction.atomic():
        event = Event.objects.create(
            name=f"Benchmark League ({games} games)",
            slug=slug,
            starts_on=datetime.date(2025, 1, 1),
        )
        people = Player.objects.bulk_create(
            [Player(display_name=f"{slug} player {i:04d}") for i in range(players)]
        )
        session_count = max(1, -(-games // GAMES_PER_SESSION))
        sessions = Session.objects.bulk_create(
            [
                Session(
                    event=event, number=n, date=datetime.date(2025, 1, 1) + datetime.timedelta(n)
                )
                for n in range(1, session_count + 1)
            ]
        )
        # Made in bulk, without the signal that marks a change of sessions.
        versions.changed(event.pk, results=True)
    rules = event.rules_spec()
    made = 0
    while made < games:
        count = min(BATCH, games - made)
        with transaction.atomic():
            _build_batch(rng, rules, sessions, people, first=made, count=count)
        made += count
        say(f"  {made} of {games} games")
    with transaction.atomic():
        totals.results_changed(event.pk)  # the games went in by bulk: count them once
    tidy()
    return event


def tidy() -> None:
    """On PostgreSQL, what autovacuum does by itself on a server that runs it: clear the
    rows that changes of results left behind (each one rewrites a few stored totals) and
    refresh the planner's table statistics (without them it takes the tables for as small
    as they were before a bulk load). A server with autovacuum off, as some test machines
    run, would otherwise slow down with every run of the benchmark."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")


def _build_batch(rng, rules, sessions, people, *, first: int, count: int) -> None:
    docs, results, game_rows = [], [], []
    for index in range(first, first + count):
        doc = random_record(rng, rules)
        result = scoring.replay(scoring.parse_record(doc))
        docs.append(doc)
        results.append(result)
        game_rows.append(
            Game(
                session=sessions[index // GAMES_PER_SESSION],
                table_number=index % GAMES_PER_SESSION + 1,
                status=Game.Status.FINISHED,
                ended_by=result.ended_by or "",
            )
        )
    game_rows = Game.objects.bulk_create(game_rows)
    seats, hands = [], []
    for game, doc, result in zip(game_rows, docs, results, strict=True):
        four = rng.sample(people, 4)
        game_seats = [GameSeat(game=game, seat=s, player=p) for s, p in enumerate(four)]
        apply_result(game_seats, result, finished=True)
        # Each seat's statistics, as services store them.
        for seat, figures in zip(game_seats, seat_figures(doc["hands"], result.hands), strict=True):
            for name, value in figures.items():
                setattr(seat, name, value)
        seats.extend(game_seats)
        reports = list(result.hands)
        for number, hand_doc in enumerate(doc["hands"], start=1):
            # The dealer and point changes the statistics read, as services store them.
            facts = {}
            if number <= len(reports):
                report = reports[number - 1]
                facts = {"dealer": report.dealer, "deltas": list(report.deltas)}
            hands.append(Hand.from_record(game, number, hand_doc, **facts))
    GameSeat.objects.bulk_create(seats)
    saved = Hand.objects.bulk_create(hands)
    wins = []
    for hand, built in zip(saved, hands, strict=True):
        for win in built.pending_wins:
            win.hand = hand
            wins.append(win)
    Win.objects.bulk_create(wins)


def start_game(event: Event) -> Game:
    """A game in progress at a new table of the event's last session, for timing hand entry,
    with four of the event's players who sit in no other unfinished game of that session."""
    session = event.sessions.order_by("-number").first()
    seated = GameSeat.objects.filter(game__in=session.games.exclude(status=Game.Status.FINISHED))
    # The league's players, also those its few games left without a seat.
    league = Q(seats__game__session__event=event) | Q(display_name__startswith=f"{event.slug} ")
    players = list(
        Player.objects.filter(league)
        .exclude(pk__in=seated.values("player"))
        .distinct()
        .order_by("pk")[:4]
    )
    last = session.games.aggregate(n=Max("table_number"))["n"] or 0
    return services.create_game(session, players, table_number=last + 1)


def remove_game(game: Game) -> None:
    """Take the game `start_game` made out of the league again."""
    game.delete()

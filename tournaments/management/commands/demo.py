"""`manage.py demo`: a small club league that shows every feature, and the demo login.

`make run` runs this on every start, so it is idempotent and quick: each demo event is
created once, everything in one transaction, and a later run creates nothing and only
prints the login. Games go in through `tournaments.services`, as an organiser's would,
so every stored result is the engine's.
"""

from __future__ import annotations

import datetime
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

import scoring
from scoring.record import FORMAT
from scoring.simulate import random_record
from tenhou import convert_file
from tournaments import services
from tournaments.models import Event, Game, Hand, Player, Session

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "tenbou-demo"
LOGIN_URL = "http://127.0.0.1:8000/accounts/login/"

CLUB_SLUG = "demo-club-league"
ONLINE_SLUG = "demo-online-league"
COMMITTEE_SLUG = "demo-committee-test"
DEMO_SLUGS = (CLUB_SLUG, ONLINE_SLUG, COMMITTEE_SLUG)

# The six real Tenhou games the engine's tests check against.
TENHOU_LOGS = Path(settings.BASE_DIR) / "tests" / "data" / "tenhou"

# Display name, real name, EMA number.
CLUB_PLAYERS = (
    ("Aki", "Akiko Tanaka", "04290017"),
    ("Benji", "", ""),
    ("Chiara", "Chiara Rossi", "08010233"),
    ("Dmitri K.", "", ""),
    ("Elif", "", ""),
    ("Freya", "Freya Lindqvist", "13000458"),
    ("Goro", "", ""),
    ("Hana", "", ""),
    ("Inês", "Inês Carvalho", "12000076"),
    ("Jonas", "", ""),
    ("Kaito", "", ""),
    ("Lena M.", "", ""),
)

# One hand of every kind, checked to end by the rules at the last south hand (ari-ari):
# ron with riichi, tsumo, draw with tenpai, double ron, abortive draw, chombo, nagashi
# mangan, a daisangen with a liable (pao) player. The penalty comes after the game.
SHOWCASE_RECORD: dict[str, Any] = {
    "format": FORMAT,
    "rules": "ari-ari",
    "players": ["East", "South", "West", "North"],
    "hands": [
        {
            "result": "ron",
            "riichi": [1],
            "wins": [
                {"winner": 1, "loser": 0, "han": 3, "fu": 40, "yaku": ["Riichi", "Pinfu", "Dora"]}
            ],
        },
        {
            "result": "tsumo",
            "riichi": [],
            "wins": [{"winner": 2, "han": 2, "fu": 30, "yaku": ["Menzen tsumo", "Tanyao"]}],
        },
        {"result": "draw", "riichi": [3], "tenpai": [0, 3]},
        {
            "result": "ron",
            "riichi": [0],
            "wins": [
                {"winner": 0, "loser": 1, "han": 2, "fu": 40},
                {"winner": 2, "loser": 1, "han": 1, "fu": 30},
            ],
        },
        {"result": "abort", "riichi": [], "reason": "nine_terminals"},
        {"result": "chombo", "riichi": [], "offender": 3},
        {"result": "nagashi", "riichi": [], "nagashi": [2], "tenpai": [0]},
        {
            "result": "ron",
            "riichi": [],
            "wins": [
                {
                    "winner": 3,
                    "loser": 1,
                    "yakuman": 1,
                    "pao": 2,
                    "yaku": ["Daisangen"],
                    "open": True,
                }
            ],
        },
        {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 3, "han": 3, "fu": 30}]},
        {"result": "ron", "riichi": [3], "wins": [{"winner": 0, "loser": 3, "han": 1, "fu": 30}]},
        {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "han": 2, "fu": 30}]},
        {"result": "ron", "riichi": [2], "wins": [{"winner": 0, "loser": 2, "han": 2, "fu": 40}]},
    ],
}
SHOWCASE_PENALTY = (1, Decimal("-10.0"), "Arrived 20 minutes late")  # seat, points, reason

# Seats in order East, South, West, North; some players come more often than others.
SESSION_1_TABLES = (
    ("Aki", "Benji", "Chiara", "Dmitri K."),
    ("Elif", "Freya", "Goro", "Hana"),
    ("Inês", "Jonas", "Kaito", "Lena M."),
    ("Aki", "Elif", "Inês", "Goro"),
)
# Seeds of random whole games for the other tables (with today's engine 14 and 15 end
# at the last hand, 2 by a bust).
SESSION_1_SEEDS = (14, 15, 2)
SESSION_2_TABLES = (
    ("Benji", "Freya", "Jonas", "Aki"),
    ("Chiara", "Hana", "Kaito", "Dmitri K."),
)
SESSION_2_SEEDS = (17, 21)
# Tables 3 and 4 hand in final scores only; table 4 has not yet.
SESSION_2_SCORED_TABLE = ("Elif", "Goro", "Lena M.", "Inês")
SESSION_2_FINAL_SCORES = ([38200, 27600, 21400, 11800], 1)  # scores, sticks left over
SESSION_2_PENDING_TABLE = ("Aki", "Benji", "Freya", "Kaito")
SESSION_3_TABLES = (
    ("Aki", "Chiara", "Elif", "Jonas"),
    ("Benji", "Dmitri K.", "Goro", "Hana"),
)
# (seed, hands entered so far) of tonight's games.
SESSION_3_GAMES = ((18, 5), (24, 3))


class Command(BaseCommand):
    help = "Create demonstration data for trying Tenbou locally. Safe to run repeatedly."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="run even with DEBUG off (the demo login's password is public)",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "DEBUG is off, so this looks like a production site: the demo would add an "
                f"account {DEMO_USERNAME} / {DEMO_PASSWORD} whose password everyone knows. "
                "Run it on a development copy, or add --force if you really mean it."
            )
        today = timezone.localdate()
        try:
            with transaction.atomic():
                user = self._organiser()
                existing = set(
                    Event.objects.filter(slug__in=DEMO_SLUGS).values_list("slug", flat=True)
                )
                created = []
                if CLUB_SLUG not in existing:
                    created.append(self._club_league(user, today))
                if ONLINE_SLUG not in existing:
                    created.append(self._online_league(user, today))
                if COMMITTEE_SLUG not in existing:
                    created.append(self._committee_test(user, today))
        except (services.GameChangeRefused, scoring.ScoringError) as err:
            raise CommandError(f"The demo data could not be created (nothing was): {err}") from None

        created = [event for event in created if event is not None]
        if created:
            for event in created:
                self.stdout.write(_summary(event))
        else:
            self.stdout.write("Demo data already present.")
        self.stdout.write(
            self.style.SUCCESS(f"Log in at {LOGIN_URL} as {DEMO_USERNAME} / {DEMO_PASSWORD}")
        )

    def _organiser(self):
        """The demo organiser: an ordinary user who organises the demo events (every
        organiser task has its page; the admin is for superusers), always with the password
        printed at the end."""
        user, created = get_user_model().objects.get_or_create(
            username=DEMO_USERNAME, defaults={"first_name": "Demo", "last_name": "Organiser"}
        )
        if created or not user.check_password(DEMO_PASSWORD) or user.is_staff:
            user.set_password(DEMO_PASSWORD)
            # An organiser made by an older version of this command was staff.
            user.is_staff = False
            user.save(update_fields=["password", "is_staff"])
            user.user_permissions.clear()
        return user

    def _club_league(self, user, today: datetime.date) -> Event:
        week = datetime.timedelta(days=7)
        event = Event.objects.create(
            name="Demo Club League",
            slug=CLUB_SLUG,
            kind=Event.Kind.LEAGUE,
            starts_on=today - 2 * week,
            is_public=True,
            rules_preset="ari-ari",
            description="Thursday evenings at the club: four games a night, ari-ari rules.",
        )
        event.organisers.add(user)
        players = _club_players()

        def seats(names):
            return [players[name] for name in names]

        first = Session.objects.create(
            event=event, number=1, date=today - 2 * week, title="Opening night"
        )
        records = [SHOWCASE_RECORD] + [_random_game(seed) for seed in SESSION_1_SEEDS]
        for table, (names, record) in enumerate(zip(SESSION_1_TABLES, records, strict=True), 1):
            game = services.create_game_from_record(
                first, record, seats(names), table_number=table, user=user
            )
            if record is SHOWCASE_RECORD:
                services.add_penalty(game.pk, *SHOWCASE_PENALTY, user=user)

        second = Session.objects.create(event=event, number=2, date=today - week)
        for table, (names, seed) in enumerate(
            zip(SESSION_2_TABLES, SESSION_2_SEEDS, strict=True), 1
        ):
            services.create_game_from_record(
                second, _random_game(seed), seats(names), table_number=table, user=user
            )
        final_only = Game.EntryMode.FINAL_SCORES
        scored = services.create_game(
            second, seats(SESSION_2_SCORED_TABLE), table_number=3, entry_mode=final_only
        )
        scores, sticks = SESSION_2_FINAL_SCORES
        services.set_final_scores(scored.pk, scores, sticks)
        services.create_game(
            second, seats(SESSION_2_PENDING_TABLE), table_number=4, entry_mode=final_only
        )

        tonight = Session.objects.create(event=event, number=3, date=today, title="Tonight")
        for table, (names, (seed, count)) in enumerate(
            zip(SESSION_3_TABLES, SESSION_3_GAMES, strict=True), 1
        ):
            game = services.create_game(tonight, seats(names), table_number=table)
            hands = _random_game(seed)["hands"]
            # Stop short of the end, whatever the engine makes of this seed.
            for number, hand in enumerate(hands[: min(count, len(hands) - 1)], 1):
                services.add_hand(game.pk, number, hand, user=user)
        return event

    def _online_league(self, user, today: datetime.date) -> Event | None:
        logs = sorted(TENHOU_LOGS.glob("*.json"))
        if not logs:
            self.stderr.write(f"No Tenhou logs in {TENHOU_LOGS}: the Online League is skipped.")
            return None
        event = Event.objects.create(
            name="Online League",
            slug=ONLINE_SLUG,
            kind=Event.Kind.LEAGUE,
            starts_on=today - datetime.timedelta(days=10),
            is_public=True,
            rules_preset="tenhou",
            description="Games played on Tenhou, imported from their logs.",
        )
        event.organisers.add(user)
        session = Session.objects.create(
            event=event, number=1, date=event.starts_on, title="Tenhou ranked games"
        )
        table = 0
        for path in logs:
            game = convert_file(path)
            table += 1
            services.create_game_from_record(
                session,
                game.record,
                services.players_by_name(game.players, create=True),
                table_number=table,
                source_id=game.log_id or "",
                user=user,
            )
        return event

    def _committee_test(self, user, today: datetime.date) -> Event:
        event = Event.objects.create(
            name="Committee Test",
            slug=COMMITTEE_SLUG,
            kind=Event.Kind.LEAGUE,
            starts_on=today + datetime.timedelta(days=7),
            is_public=False,
            rules_preset="ari-ari",
            description="A private event for trying things out; only its organisers see it.",
        )
        event.organisers.add(user)
        Session.objects.create(event=event, number=1, date=event.starts_on, title="Trial run")
        return event


def _club_players() -> dict[str, Player]:
    players = {}
    for name, real_name, ema_number in CLUB_PLAYERS:
        player, _ = Player.objects.get_or_create(
            display_name=name, defaults={"real_name": real_name, "ema_number": ema_number}
        )
        players[name] = player
    return players


def _random_game(seed: int) -> dict[str, Any]:
    """A whole random game under the club's rules, the same one for a seed every time."""
    return random_record(random.Random(seed), "ari-ari")


def _summary(event: Event) -> str:
    games = Game.objects.filter(session__event=event)
    players = Player.objects.filter(seats__game__session__event=event).distinct().count()
    hands = Hand.objects.filter(game__session__event=event).count()
    visibility = "public" if event.is_public else "private"
    return (
        f"{event.name} ({visibility}, {event.rules_preset} rules): "
        f"{_plural(event.sessions.count(), 'session')}, {_plural(games.count(), 'game')} "
        f"({games.finished().count()} finished, {games.in_progress().count()} in progress), "
        f"{_plural(hands, 'hand')}, {_plural(players, 'player')}"
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"

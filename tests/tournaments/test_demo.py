"""`manage.py demo`: the demo club league, the imported Tenhou games, the private event,
the login it prints, and that a second run (every `make run`) creates nothing."""

from __future__ import annotations

import io
import re
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.management import CommandError, call_command
from django.db import transaction
from django.db.models import Count
from django.test import override_settings
from django.utils import timezone

import scoring
from tenhou import convert_file
from tournaments import services
from tournaments.models import Event, Game, GameSeat, Hand, Penalty, Player, Session, Win

pytestmark = pytest.mark.django_db

TENHOU_LOGS = sorted((Path(__file__).parents[1] / "data" / "tenhou").glob("*.json"))
CLUB = "demo-club-league"
ONLINE = "demo-online-league"
COMMITTEE = "demo-committee-test"


def run_demo() -> str:
    out = io.StringIO()
    call_command("demo", "--force", stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def demo_output(django_db_setup, django_db_blocker):
    """One run of the demo shared by this module's tests, rolled back at the end.

    Each test runs in a savepoint inside this transaction, so what a test changes is
    undone too; the command takes about a second, too long to repeat for every test.
    """
    fast_hashing = override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
    )
    with django_db_blocker.unblock(), fast_hashing, transaction.atomic():
        yield run_demo()
        transaction.set_rollback(True)


def row_counts() -> dict[str, int]:
    models = (Event, Session, Game, GameSeat, Hand, Win, Penalty, Player, get_user_model())
    return {model.__name__: model.objects.count() for model in models}


@pytest.mark.slow
def test_the_demo_creates_three_events_organised_by_an_ordinary_user(demo_output):
    club, online, committee = (Event.objects.get(slug=s) for s in (CLUB, ONLINE, COMMITTEE))
    club_games = Game.objects.filter(session__event=club)
    user = get_user_model().objects.get(username="organiser")

    assert Event.objects.count() == 3
    assert (club.kind, club.rules_preset, club.is_public) == ("league", "ari-ari", True)
    assert (online.kind, online.rules_preset, online.is_public) == ("league", "tenhou", True)
    assert committee.is_public is False
    dates = [s.date for s in club.sessions.order_by("number")]
    assert [(later - earlier).days for earlier, later in pairwise(dates)] == [7, 7]
    assert dates[-1] == timezone.localdate()
    assert online.sessions.count() == committee.sessions.count() == 1
    assert club_games.count() == 10
    assert club_games.finished().count() == 7
    assert club_games.in_progress().count() == 3
    assert [club_games.filter(session__number=n).count() for n in (1, 2, 3)] == [4, 4, 2]
    assert Game.objects.filter(session__event=online).finished().count() == 6
    assert not Game.objects.filter(session__event=committee).exists()
    for line in ("Demo Club League", "Online League", "Committee Test"):
        assert line in demo_output

    # Organisers work in the pages; the admin is for superusers.
    assert not user.is_staff and not user.is_superuser
    assert not user.has_perm("tournaments.change_game")
    assert set(user.organised_events.values_list("slug", flat=True)) == {CLUB, ONLINE, COMMITTEE}
    assert list(committee.organisers.all()) == [user]
    assert not Event.objects.visible_to(AnonymousUser()).filter(slug=COMMITTEE).exists()
    assert Event.objects.visible_to(user).filter(slug=COMMITTEE).exists()


def test_club_players_have_some_real_names_and_unequal_numbers_of_games(demo_output):
    seats = GameSeat.objects.filter(game__session__event__slug=CLUB)
    games_per_player = Counter(seats.values_list("player__display_name", flat=True))
    with_ema = Player.objects.filter(pk__in=seats.values("player")).exclude(ema_number="")

    assert len(games_per_player) == 12
    assert len(set(games_per_player.values())) > 1
    assert with_ema.count() >= 3
    assert all(re.fullmatch(r"\d{8}", p.ema_number) and p.real_name for p in with_ema)


def test_the_club_league_has_a_hand_of_every_kind_a_double_ron_a_pao_and_a_penalty(demo_output):
    hands = Hand.objects.filter(game__session__event__slug=CLUB)
    wins = Win.objects.filter(hand__in=hands)

    assert set(hands.values_list("result", flat=True)) == set(Hand.Result.values)
    assert hands.filter(result="ron").exclude(riichi_mask=0).exists()
    assert hands.filter(result="draw").exclude(tenpai_mask=0).exists()
    assert hands.annotate(n=Count("wins")).filter(n=2).exists()
    assert wins.filter(pao__isnull=False, yakuman__isnull=False).exists()
    penalty = Penalty.objects.get(game__session__event__slug=CLUB)
    penalised = penalty.game.seats.get(seat=penalty.seat)
    assert penalty.game.is_finished
    assert penalised.penalty_points == penalty.match_points < 0


def test_the_engine_agrees_which_club_games_are_finished_and_which_go_on(demo_output):
    games = Game.objects.filter(session__event__slug=CLUB).select_related("session__event")
    by_hands = games.filter(entry_mode=Game.EntryMode.HANDS)
    entered, awaiting = games.filter(entry_mode=Game.EntryMode.FINAL_SCORES).order_by(
        "table_number"
    )

    for game in by_hands:
        result = services.replay_record(game.to_record())
        assert result.finished == game.is_finished == (game.session.number != 3)
        assert game.hands.exists()
    for game in by_hands.filter(session__number=3):
        assert all(seat.placement is None for seat in game.seats.all())
    entered_total = sum(s.entered_score for s in entered.seats.all())
    assert entered.is_finished and entered.session.number == 2
    assert entered_total + 1000 * entered.leftover_sticks == 4 * 25_000
    assert not awaiting.is_finished
    assert all(s.entered_score is None for s in awaiting.seats.all())


def test_the_tenhou_games_keep_the_final_scores_of_their_logs(demo_output):
    assert len(TENHOU_LOGS) == 6
    for path in TENHOU_LOGS:
        log = convert_file(path)
        game = Game.objects.get(source_id=log.log_id)
        seats = game.ordered_seats()

        assert game.session.event.slug == ONLINE
        assert game.is_finished
        assert [s.player.display_name for s in seats] == log.players
        assert [s.score for s in seats] == log.final_scores


def test_running_the_demo_twice_creates_nothing_more_and_its_login_works(demo_output, client):
    before = row_counts()

    again = run_demo()

    assert row_counts() == before
    assert "Demo data already present" in again
    for output in (demo_output, again):
        url, username, password = re.search(r"Log in at (\S+) as (\S+) / (\S+)", output).groups()
        assert url == "http://127.0.0.1:8000/accounts/login/"
        # Through the login page, as a person would (and as login throttling requires).
        response = client.post("/accounts/login/", {"username": username, "password": password})
        assert response.status_code == 302


def test_a_failure_leaves_no_demo_data_behind(monkeypatch):
    # Start from an empty database, even after the shared run of the demo (undone with
    # this test's savepoint).
    Event.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()

    def broken_log(path):
        raise scoring.ScoringError("not a Tenhou log: it is empty")

    # The Tenhou import runs after the whole club league has been written.
    monkeypatch.setattr("tournaments.management.commands.demo.convert_file", broken_log)

    with pytest.raises(CommandError, match="it is empty"):
        run_demo()

    assert set(row_counts().values()) == {0}

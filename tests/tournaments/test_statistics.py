"""Player statistics: the sample Tenhou logs imported into an event, counted again here
from the game records themselves."""

from __future__ import annotations

import datetime
import io
import json
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import scoring
from scoring import yaku as yaku_table
from tests.conftest import fresh, kept_for_module, make_organiser
from tournaments import imports, services
from tournaments.models import Event, Game, Hand, Player, Session
from tournaments.statistics import event_player_statistics, player_statistics, rate

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "tenhou"
LOGS = sorted(SAMPLES.glob("*.json"))


def build_online(organiser) -> Event:
    """An event of the sample Tenhou logs, imported as the app imports them."""
    event = Event.objects.create(
        name="Online League", slug="online", starts_on=datetime.date(2026, 1, 1),
        rules_preset="tenhou",
    )  # fmt: skip
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 8))
    for path in LOGS:
        check = imports.check_log(event, path.name, path.read_bytes())
        players = imports.resolve_players(check, {}, create_unknown=True)
        imports.import_game(session, check, players, table_number=session.games.next_table_number())
    return event


# Imported once for the module; every test reads it afresh (see tests/conftest.py).
@pytest.fixture(scope="module")
def _built(django_db_setup, django_db_blocker):
    with kept_for_module(django_db_blocker):
        organiser = make_organiser(get_user_model())
        yield organiser, build_online(organiser)


@pytest.fixture
def organiser(_built, db):
    return fresh(_built[0])


@pytest.fixture
def online(_built, db):
    return fresh(_built[1])


def expected_counts(event):
    """Counts made from each game's record and its replay, by player name."""
    counts = defaultdict(Counter)
    yaku = defaultdict(Counter)
    for game in Game.objects.filter(session__event=event):
        record = game.to_record()
        names = record["players"]
        replay = scoring.replay(scoring.parse_record(record))
        for seat in game.seats.all():
            counts[names[seat.seat]]["games"] += 1
            if game.is_finished:
                counts[names[seat.seat]][f"place{seat.placement}"] += 1
        previous_dealer = None
        for hand, report in zip(record["hands"], replay.hands, strict=True):
            if hand["result"] == "chombo":
                continue
            for name in names:
                counts[name]["hands"] += 1
            for seat in hand.get("riichi", []):
                counts[names[seat]]["riichi"] += 1
            if previous_dealer == report.dealer:
                counts[names[report.dealer]]["dealer_repeats"] += 1
            previous_dealer = report.dealer
            for win in hand.get("wins", []):
                who = names[win["winner"]]
                counts[who]["wins"] += 1
                counts[who]["tsumo"] += hand["result"] == "tsumo"
                own = 1000 * (win["winner"] in hand.get("riichi", []))
                counts[who]["won"] += report.deltas[win["winner"]] + own
                yaku[who].update(y for y in win.get("yaku", []) if "ドラ" not in y)
            if hand["result"] == "ron":
                loser = hand["wins"][0]["loser"]
                counts[names[loser]]["deal_ins"] += 1
                own = 1000 * (loser in hand.get("riichi", []))
                counts[names[loser]]["dealt"] -= report.deltas[loser] + own
    return counts, yaku


def test_statistics_of_the_sample_logs_match_counts_made_from_the_records(online):
    counts, yaku = expected_counts(online)
    rows = event_player_statistics(online)
    assert {r.player for r in rows} == set(counts)
    assert sum(c["wins"] for c in counts.values()) > 20  # the samples hold real games
    for row in rows:
        c = counts[row.player]
        assert (row.games, row.hands, row.wins, row.tsumo, row.deal_ins, row.riichi) == (
            c["games"], c["hands"], c["wins"], c["tsumo"], c["deal_ins"], c["riichi"]
        ), row.player  # fmt: skip
        assert row.dealer_repeats == c["dealer_repeats"], row.player
        assert row.places == [c[f"place{p}"] for p in (1, 2, 3, 4)], row.player
        assert row.won_total == c["won"] and row.won_counted == c["wins"], row.player
        assert row.dealt_total == c["dealt"] and row.dealt_counted == c["deal_ins"]
        assert row.yaku == yaku[row.player], row.player
        assert row.win_rate == rate(c["wins"], c["hands"])


@pytest.mark.slow
def test_the_statistics_page_shows_and_exports_the_figures_in_constant_queries(client, online):
    url = reverse("tournaments:statistics", args=[online.slug])
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Deal-ins" in text and "ron hands in which they discarded the winning tile" in text
    counts, _ = expected_counts(online)
    many = len(queries)
    exported = json.loads(client.get(url, {"_export": "json"}).content)
    for row in exported:
        c = counts[row["Player"]]
        assert (row["Hands"], row["Wins"], row["Tsumo"], row["Deal-ins"], row["Riichi"]) == (
            c["hands"], c["wins"], c["tsumo"], c["deal_ins"], c["riichi"]
        )  # fmt: skip
        assert Decimal(str(row["Win rate"])) == rate(c["wins"], c["hands"])
    assert client.get(url, {"_export": "csv"}).content.decode("utf-8-sig").startswith("Player,")
    assert client.get(url, {"_export": "xlsx"}).status_code == 200
    assert client.get(url, {"sort": "-win_rate"}).status_code == 200
    # One more game costs no more queries.
    session = online.sessions.get()
    players = list(Player.objects.all()[:4])
    game = services.create_game(session, players, table_number=99)
    services.add_hand(game.pk, 1, {"result": "draw", "riichi": [0], "tenpai": [0]})
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    # The finished games are read as one stored row per player, the game going as its seats.
    assert len(queries) <= many


def test_a_player_with_no_games_and_rates_with_zero_hands(online, session):
    nobody = Player.objects.create(display_name="Newcomer")
    assert player_statistics(nobody, Event.objects.all()) is None
    game = services.create_game(
        session, [nobody, *Player.objects.exclude(pk=nobody.pk)[:3]], table_number=1
    )
    row = player_statistics(nobody, Event.objects.filter(pk=game.session.event_id))
    assert (row.games, row.hands, row.wins) == (1, 0, 0)
    assert (row.win_rate, row.tsumo_rate, row.deal_in_rate, row.riichi_rate) == (None,) * 4
    assert (row.average_won, row.average_dealt_in) == (None, None)
    assert row.as_row()["win_rate_key"] == Decimal(-1)


def test_an_empty_event_shows_an_empty_table(client, event):
    page = client.get(reverse("tournaments:statistics", args=[event.slug]))
    assert page.status_code == 200 and "No hands recorded yet." in page.content.decode()


def test_a_players_page_shows_their_figures_for_the_event_and_for_all_events(client, online):
    counts, yaku = expected_counts(online)
    name, c = max(counts.items(), key=lambda item: item[1]["wins"])
    player = Player.objects.get(display_name=name)
    for query in ({"event": online.slug}, {}):
        page = client.get(reverse("tournaments:player", args=[player.pk]), query)
        text = page.content.decode()
        figures = text.split('data-testid="statistics"')[1].split("</dl>")[0]
        assert f"<dt>Wins</dt><dd>{c['wins']} <small" in figures
        assert f"<dt>Deal-ins</dt><dd>{c['deal_ins']} <small" in figures
        assert f"<dt>Riichi</dt><dd>{c['riichi']} <small" in figures
        assert f"{rate(c['wins'], c['hands'])}%" in figures
        assert "Final places: 1st" in text
        top_yaku = yaku[name].most_common(1)[0][0]
        assert yaku_table.name(top_yaku) in text.split("Yaku won with")[1]


def test_a_player_with_no_games_has_a_page_without_figures(db, client, players):
    page = client.get(reverse("tournaments:player", args=[players[0].pk]))
    assert page.status_code == 200
    assert "No hands recorded yet." in page.content.decode()


def test_hands_stored_before_they_kept_their_facts_get_them_from_the_command(online):
    Hand.objects.update(dealer=None, deltas=[])
    out = io.StringIO()
    call_command("store_hand_facts", stdout=out)
    assert out.getvalue() == "Hand facts written for 6 games.\n"
    assert not Hand.objects.filter(dealer__isnull=True).exists()
    counts, _ = expected_counts(online)
    for row in event_player_statistics(online):
        assert row.dealer_repeats == counts[row.player]["dealer_repeats"]
        assert row.won_total == counts[row.player]["won"]


def test_the_event_page_counts_yaku_over_all_players(client, online):
    _, yaku = expected_counts(online)
    total = Counter()
    for c in yaku.values():
        total.update(c)
    top, n = total.most_common(1)[0]
    text = client.get(reverse("tournaments:statistics", args=[online.slug])).content.decode()
    table = text.split("Yaku won with")[1]
    # Imported logs store the yaku table's keys; the page names them.
    assert f'<tr><td>{yaku_table.name(top)}</td><td class="number">{n}</td>' in table

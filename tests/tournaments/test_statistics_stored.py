"""Each seat keeps its player's statistics for its game: after every kind of change they
are what a count of the game's hands makes of them, and the statistics pages read them
instead of the hands."""

from __future__ import annotations

import importlib
from collections import Counter

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import scoring
from tournaments import services
from tournaments.models import Game, GameSeat, Player
from tournaments.services.errors import GameChangeRefused
from tournaments.statistics import SEAT_FIGURES, event_player_statistics

TSUMO = {
    "result": "tsumo",
    "riichi": [0],
    "wins": [{"winner": 0, "han": 2, "fu": 30, "yaku": ["riichi", "menzen_tsumo"]}],
}
RON = {
    "result": "ron",
    "riichi": [1, 2],
    "wins": [{"winner": 2, "loser": 1, "han": 3, "fu": 40, "yaku": ["riichi", "pinfu", "ドラ"]}],
}
DOUBLE_RON = {
    "result": "ron",
    "riichi": [3],
    "wins": [
        {"winner": 1, "loser": 0, "han": 2, "fu": 30, "yaku": ["tanyao", "pinfu"]},
        {"winner": 3, "loser": 0, "han": 1, "fu": 40, "yaku": ["riichi"]},
    ],
}
DRAW = {"result": "draw", "riichi": [3], "tenpai": [3]}
CHOMBO = {"result": "chombo", "riichi": [], "offender": 2}


def recount(game: Game) -> list[dict]:
    """Each seat's figures counted here from the game's record and its replay."""
    record = game.to_record()
    replay = scoring.replay(scoring.parse_record(record))
    counts = [Counter(dict.fromkeys(SEAT_FIGURES, 0)) for _ in range(4)]
    yaku = [Counter() for _ in range(4)]
    previous_dealer = None
    for hand, report in zip(record.get("hands", []), replay.hands, strict=True):
        if hand["result"] == "chombo":
            continue
        riichi = hand.get("riichi", [])
        for seat in range(4):
            counts[seat]["hands"] += 1
            counts[seat]["riichi"] += seat in riichi
        counts[report.dealer]["dealer_hands"] += 1
        counts[report.dealer]["dealer_repeats"] += previous_dealer == report.dealer
        previous_dealer = report.dealer
        for win in hand.get("wins", []):
            winner = win["winner"]
            counts[winner]["wins"] += 1
            counts[winner]["tsumo"] += hand["result"] == "tsumo"
            counts[winner]["won_total"] += report.deltas[winner] + 1000 * (winner in riichi)
            counts[winner]["won_counted"] += 1
            yaku[winner].update(y for y in win.get("yaku", []) if "ドラ" not in y)
        if hand["result"] == "ron":
            loser = hand["wins"][0]["loser"]
            counts[loser]["deal_ins"] += 1
            counts[loser]["dealt_total"] -= report.deltas[loser] + 1000 * (loser in riichi)
            counts[loser]["dealt_counted"] += 1
    return [dict(c) | {"yaku": dict(y)} for c, y in zip(counts, yaku, strict=True)]


def stored(game: Game) -> list[dict]:
    return [
        {name: getattr(seat, name) for name in SEAT_FIGURES} | {"yaku": seat.yaku}
        for seat in GameSeat.objects.filter(game=game).order_by("seat")
    ]


def scribble(game: Game) -> None:
    """Wrong figures on every seat, so that a change which forgets to write them shows."""
    GameSeat.objects.filter(game=game).update(hands=99, wins=7, dealt_total=-1, yaku={"x": 1})


def test_each_kind_of_change_leaves_every_seat_with_the_figures_its_hands_make(
    event, session, game, final_game
):
    for number, hand in enumerate([TSUMO, RON, CHOMBO, DOUBLE_RON, DRAW, RON], start=1):
        scribble(game)
        services.add_hand(game.pk, number, hand)
        assert stored(game) == recount(game), f"after adding hand {number}"
    figures = stored(game)
    assert [f["wins"] for f in figures] == [1, 1, 2, 1]
    assert [f["deal_ins"] for f in figures] == [1, 2, 0, 0]  # the double ron is one deal-in
    assert figures[2]["yaku"] == {"pinfu": 2, "riichi": 2}  # dora are not yaku
    assert sum(f["hands"] for f in figures) == 4 * 5  # the chombo is played again

    scribble(game)
    services.replace_hand(game.pk, 2, DRAW)
    assert stored(game) == recount(game), "after an edit"
    assert stored(game)[2]["yaku"] == {"pinfu": 1, "riichi": 1}

    scribble(game)
    services.delete_hand(game.pk, 1)
    assert stored(game) == recount(game), "after a deletion"
    assert stored(game)[0]["tsumo"] == 0

    scribble(game)
    services.undo_last_hand(game.pk)
    assert stored(game) == recount(game), "after an undo"

    scribble(game)
    services.change_event_rules(event.pk, "tenhou", {})
    assert stored(game) == recount(game), "after a change of rules"

    scribble(final_game)
    services.set_final_scores(final_game.pk, [40000, 30000, 20000, 10000], 0)
    assert (
        stored(final_game)
        == recount(final_game)
        == [dict.fromkeys(SEAT_FIGURES, 0) | {"yaku": {}}] * 4
    )

    newcomers = [Player.objects.create(display_name=f"Newcomer {n}") for n in range(4)]
    empty = services.create_game(session, newcomers, table_number=3)
    names = {p.display_name for p in newcomers}
    assert names <= {row.player for row in event_player_statistics(event)}
    services.delete_game(empty.pk)
    assert not GameSeat.objects.filter(game_id=empty.pk).exists()
    rows = event_player_statistics(event)
    assert not names & {row.player for row in rows}
    assert sum(row.games for row in rows) == 8


def test_a_refused_hand_leaves_the_stored_figures_as_they_were(game):
    services.add_hand(game.pk, 1, TSUMO)
    before = stored(game)
    with pytest.raises(GameChangeRefused):
        services.add_hand(game.pk, 2, {"result": "ron", "wins": [{"winner": 1, "loser": 1}]})
    assert stored(game) == before


def test_the_migration_counts_the_figures_of_games_stored_before_seats_kept_them(game):
    for number, hand in enumerate([TSUMO, RON, CHOMBO, DOUBLE_RON, DRAW], start=1):
        services.add_hand(game.pk, number, hand)
    expected = recount(game)
    GameSeat.objects.update(**dict.fromkeys(SEAT_FIGURES, 0), yaku={})
    migration = importlib.import_module("tournaments.migrations.0024_stats_seat_figures")
    migration.count_seat_figures(apps, None)
    assert stored(game) == expected


def test_the_statistics_pages_read_no_hand_and_no_win(client, event, game, players):
    for number, hand in enumerate([TSUMO, RON, DOUBLE_RON], start=1):
        services.add_hand(game.pk, number, hand)
    url = reverse("tournaments:statistics", args=[event.slug])
    for address, query in (
        (url, {}),
        (url, {"_export": "csv"}),
        (reverse("tournaments:player", args=[players[1].pk]), {"event": event.slug}),
    ):
        with CaptureQueriesContext(connection) as queries:
            page = client.get(address, query)
        assert page.status_code == 200
        sql = " ".join(q["sql"] for q in queries.captured_queries)
        assert "tournaments_gameseat" in sql
        assert '"tournaments_hand"' not in sql and '"tournaments_win"' not in sql, address
    text = client.get(url).content.decode()
    assert "Tanyao" in text.split("Yaku won with")[1]

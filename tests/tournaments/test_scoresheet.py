"""The four-game scoresheet: the seed's example fills in exactly its numbers."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments import services
from tournaments.models import Player
from tournaments.scoresheet import SheetRefused, build_sheet

pytestmark = pytest.mark.django_db


def final(session, players, scores, table=1):
    game = services.create_game(session, players, table_number=table, entry_mode="final_scores")
    services.set_final_scores(game.pk, scores, 0)
    game.refresh_from_db()
    return game


def test_the_seed_example_game_fills_in_exactly_its_numbers(event, session, players):
    game = final(session, players, [41300, 24900, 21800, 12000])
    sheet = build_sheet(players, [game], event.rules())
    first = sheet.games[0]
    assert first.scores == [41300, 24900, 21800, 12000]
    assert first.match_points == [
        Decimal("61.3"),
        Decimal("4.9"),
        Decimal("-18.2"),
        Decimal("-48.0"),
    ]
    assert first.placements == [1, 2, 3, 4]
    assert first.totals == first.match_points
    assert all(block.game is None and block.scores == [None] * 4 for block in sheet.games[1:])
    assert sheet.rules_footer == [
        ("Starting Score", "25,000"),
        ("Return Score", "30,000"),
        ("Uma", "+30/+10/−10/−30"),
        ("Oka", "+20"),
    ]


def test_later_games_carry_a_subtotal_and_the_last_a_grand_total(event, session, players):
    aki, ben, chie, dan = players
    games = [
        final(session, players, [41300, 24900, 21800, 12000], 1),
        # The same four at other seats: columns still follow the sheet's player order.
        final(session, [dan, chie, ben, aki], [35000, 30000, 20000, 15000], 1),
        final(session, players, [25000, 25000, 25000, 25000], 1),
        final(session, players, [30000, 30000, 25000, 15000], 1),
    ]
    sheet = build_sheet(players, games, event.rules())
    second = sheet.games[1]
    assert second.scores == [15000, 20000, 30000, 35000]
    assert second.match_points == [Decimal(-45), Decimal(-20), Decimal(10), Decimal(55)]
    assert second.subtotals == sheet.games[0].totals
    assert second.totals == [Decimal("16.3"), Decimal("-15.1"), Decimal("-8.2"), Decimal("7.0")]
    # Game 3: all 25,000 -> seat order: +45, +5, -15, -35.  Game 4: +50, +10, -15, -45.
    assert sheet.grand_totals == [
        Decimal("111.3"),
        Decimal("-0.1"),
        Decimal("-38.2"),
        Decimal("-73.0"),
    ]
    assert sum(sheet.grand_totals) == 0


def test_a_game_by_other_players_or_unfinished_cannot_go_on_the_sheet(event, session, players):
    eve = Player.objects.create(display_name="Eve")
    elsewhere = final(session, [eve, *players[1:]], [41300, 24900, 21800, 12000], 4)
    other = services.create_game(session, players, table_number=3)
    with pytest.raises(SheetRefused, match="not finished yet"):
        build_sheet(players, [other], event.rules())
    with pytest.raises(SheetRefused, match="not played by the sheet's four players"):
        build_sheet(players, [elsewhere], event.rules())
    with pytest.raises(SheetRefused, match="at most four"):
        build_sheet(players, [other] * 5, event.rules())

"""Writes to games: each replays the game, stores derived results, or stores nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments import services
from tournaments.models import Game, Hand, TrailEntry, Win

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [2], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
DRAW_NOTEN = {"result": "draw", "riichi": [], "tenpai": []}


def seat_scores(game):
    return [s.score for s in game.seats.order_by("seat")]


def test_a_new_game_starts_everyone_on_the_starting_points(game):
    assert seat_scores(game) == [25000] * 4
    assert game.status == Game.Status.IN_PROGRESS


def test_adding_a_hand_stores_it_and_the_scores_it_leads_to(game, organiser):
    hand = services.add_hand(game.pk, 1, RON, user=organiser)
    assert hand.number == 1 and hand.riichi == (2,) and hand.created_by == organiser
    assert list(hand.wins.values_list("winner", "loser", "han", "fu")) == [(1, 0, 3, 40)]
    assert seat_scores(game) == [19800, 31200, 24000, 25000]
    assert game.to_record()["hands"] == [RON]


def test_a_hand_number_someone_already_entered_is_refused(game):
    services.add_hand(game.pk, 1, RON)
    with pytest.raises(services.HandAlreadyEntered, match="Someone entered hand 1 already"):
        services.add_hand(game.pk, 1, DRAW_NOTEN)
    assert Hand.objects.filter(game=game).count() == 1


def test_an_impossible_hand_is_refused_with_the_engines_reason_and_nothing_is_stored(game):
    bad = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 1, "fu": 20}]}
    with pytest.raises(services.GameChangeRefused, match="hand 1: 1 han 20 fu is not a possible"):
        services.add_hand(game.pk, 1, bad)
    assert not Hand.objects.exists() and not Win.objects.exists()
    assert seat_scores(game) == [25000] * 4


def test_the_hand_that_ends_the_game_finishes_it_with_placements_and_match_points(game):
    for number in range(1, 9):
        services.add_hand(game.pk, number, DRAW_NOTEN)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.ended_by == "last_hand"
    seats = list(game.seats.order_by("seat"))
    assert [s.placement for s in seats] == [1, 2, 3, 4]
    assert [s.match_points for s in seats] == [Decimal(45), Decimal(5), Decimal(-15), Decimal(-35)]


def test_the_trail_of_the_hand_that_ends_the_game_has_the_final_scores(game):
    for number in range(1, 8):
        services.add_hand(game.pk, number, DRAW_NOTEN)
    services.add_hand(game.pk, 8, RON)
    entry = TrailEntry.objects.get(game=game, hand_number=8)
    assert entry.after["game_ended"] == "last_hand"
    assert entry.after["final_scores"] == seat_scores(game) != [25000] * 4


def test_an_added_hand_keeps_its_dealer_and_score_changes(game):
    services.add_hand(game.pk, 1, RON)
    services.add_hand(game.pk, 2, DRAW_NOTEN)
    stored = list(game.hands.order_by("number").values_list("dealer", "deltas"))
    assert stored == [(0, [-5200, 6200, -1000, 0]), (1, [0, 0, 0, 0])]


def test_reading_a_record_leaves_the_games_hands_to_be_counted_anew(game):
    services.add_hand(game.pk, 1, RON)
    assert len(services.record_of(game)["hands"]) == 1
    services.add_hand(game.pk, 2, DRAW_NOTEN)
    assert game.hands.count() == 2 and len(game.penalties.all()) == 0


def test_a_hand_number_someone_else_took_is_refused_and_the_next_one_is_stored(game):
    services.add_hand(game.pk, 1, RON)
    with pytest.raises(services.HandAlreadyEntered, match="Someone entered hand 1 already"):
        services.add_hand(game.pk, 1, DRAW_NOTEN)
    services.add_hand(game.pk, 2, DRAW_NOTEN)
    assert Game.objects.get(pk=game.pk).to_record()["hands"] == [RON, DRAW_NOTEN]
    assert seat_scores(game) == [19800, 31200, 24000, 25000]


def test_a_finished_game_refuses_hands_until_reopened(game):
    for number in range(1, 9):
        services.add_hand(game.pk, number, DRAW_NOTEN)
    with pytest.raises(services.GameChangeRefused, match="Reopen it"):
        services.undo_last_hand(game.pk)
    services.reopen_game(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert game.seats.filter(match_points__isnull=False).count() == 0
    assert services.undo_last_hand(game.pk) == 8
    with pytest.raises(services.GameChangeRefused, match="not over yet"):
        services.finish_game(game.pk)


def test_editing_an_early_hand_replays_every_later_hand(game):
    services.add_hand(game.pk, 1, RON)
    services.add_hand(game.pk, 2, DRAW_NOTEN)
    services.add_hand(
        game.pk, 3, {"result": "tsumo", "riichi": [], "wins": [{"winner": 3, "han": 5}]}
    )
    # Hand 1 becomes a dealer win: the dealer keeps the deal, so hand 3 is now at E1 1 honba.
    dealer_win = {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 1, "han": 5}]}
    services.replace_hand(game.pk, 1, dealer_win)
    # E1: dealer 12,000. E1-1 draw: noten, deal passes (honba 2 on E2). E2 tsumo seat 3
    # mangan with 2 honba: 2,000+200 from seats 0 and 2, 4,000+200 from the dealer (seat 1).
    assert seat_scores(game) == [37000 - 2200, 13000 - 4200, 25000 - 2200, 25000 + 8600]
    assert game.hands.get(number=1).wins.get().winner == 0


def test_an_edit_that_would_make_a_later_hand_impossible_is_refused_and_nothing_changes(game):
    for number in range(1, 9):
        services.add_hand(
            game.pk, number, DRAW_NOTEN if number < 8 else {**DRAW_NOTEN, "tenpai": [3]}
        )
    services.add_hand(game.pk, 9, DRAW_NOTEN)  # S4 again after the dealer was tenpai: ends
    services.reopen_game(game.pk)
    before = seat_scores(game)
    with pytest.raises(services.GameChangeRefused, match="hand 9: the game already ended"):
        services.replace_hand(game.pk, 8, DRAW_NOTEN)
    assert seat_scores(game) == before
    assert game.hands.get(number=8).tenpai == (3,)


def test_deleting_a_hand_moves_later_hands_up(game):
    services.add_hand(game.pk, 1, DRAW_NOTEN)
    services.add_hand(game.pk, 2, RON)
    services.add_hand(game.pk, 3, DRAW_NOTEN)
    services.delete_hand(game.pk, 1)
    assert list(game.hands.values_list("number", "result")) == [(1, "ron"), (2, "draw")]
    assert seat_scores(game) == [19800, 31200, 24000, 25000]


def test_final_scores_finish_the_game_at_once(final_game):
    result = services.set_final_scores(final_game.pk, [41300, 24900, 21800, 12000], 0)
    final_game.refresh_from_db()
    assert final_game.status == Game.Status.FINISHED
    assert [str(p) for p in result.match_points] == ["61.3", "4.9", "-18.2", "-48.0"]
    assert [s.match_points for s in final_game.seats.order_by("seat")] == [
        Decimal("61.3"),
        Decimal("4.9"),
        Decimal("-18.2"),
        Decimal("-48.0"),
    ]


def test_final_scores_that_do_not_add_up_store_nothing(final_game):
    with pytest.raises(services.GameChangeRefused, match="must make 100,000"):
        services.set_final_scores(final_game.pk, [41300, 24900, 21800, 11000], 0)
    assert final_game.seats.filter(entered_score__isnull=False).count() == 0
    final_game.refresh_from_db()
    assert final_game.status == Game.Status.IN_PROGRESS


def test_changing_the_rules_rescores_every_game_and_counts_the_changes(
    event, session, players, game, final_game
):
    services.set_final_scores(final_game.pk, [41300, 24900, 21800, 12000], 0)
    services.add_hand(game.pk, 1, RON)
    change = services.change_event_rules(event.pk, "tenhou", {})
    assert change == services.RulesChange(games=2, changed=1, reopened=0)
    final_game.refresh_from_db()
    assert final_game.seats.get(seat=0).match_points == Decimal("51.3")


def test_rules_under_which_a_game_is_impossible_are_refused_naming_the_game(event, game):
    services.add_hand(game.pk, 1, {"result": "nagashi", "riichi": [], "nagashi": [1], "tenpai": []})
    with pytest.raises(services.GameChangeRefused, match="table 1: hand 1: nagashi mangan is not"):
        services.change_event_rules(event.pk, "ema", {})
    event.refresh_from_db()
    assert event.rules_preset == "ari-ari"

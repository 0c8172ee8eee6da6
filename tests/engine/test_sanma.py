"""Three-player games (sanma): one small record per rule of the spec's three-player section.

Every payment below is worked out by hand in a comment from the spec
(/work/shared/spec/game-record.md, "Three-player games (sanma)") and the usual table of
hand values (a ron pays 4 x base, 6 x for the dealer; a tsumo base from each non-dealer
and 2 x base from the dealer, rounded up to 100). Under `tenhou-sanma`: start 35,000,
return 40,000, uma +20/0/-20, oka +15, 200 a honba, noten 2,000, tsumo loss.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import ScoringError, parse_record, replay, score
from scoring.rules import PRESETS, preset_clauses

from .builders import draw, ron, rules_with, tsumo

PLAYERS = ["Aki", "Ben", "Chie"]


def sanma(hands=None, rules="tenhou-sanma", **extra):
    doc = {"format": "tenbou-game/1", "rules": rules, "players": list(PLAYERS)}
    if hands is not None:
        doc["hands"] = hands
    doc.update(extra)
    return score(doc)


def deltas(result, number=1):
    return result["hands"][number - 1]["deltas"]


# Tsumo payments


def test_a_non_dealer_tsumo_loses_the_norths_share_under_tsumo_loss():
    # Seat 1 tsumos a mangan (base 2,000) in E1: the dealer pays 4,000, seat 2 pays 2,000;
    # the absent North's 2,000 is not paid: 6,000 instead of a four-player 8,000.
    assert deltas(sanma([tsumo(1, han=5)])) == [-4000, 6000, -2000]


def test_a_dealer_tsumo_loses_the_norths_share_under_tsumo_loss():
    # The dealer tsumos 2 han 30 fu (base 480): 1,000 from each of the two others; the
    # North's 1,000 is lost.
    assert deltas(sanma([tsumo(0, han=2, fu=30)])) == [2000, -1000, -1000]


def test_a_split_tsumo_shares_the_norths_part_between_the_two_payers():
    # Mangan tsumo by seat 1: the North's 2,000 is split, 1,000 each: the dealer pays
    # 4,000 + 1,000, seat 2 pays 2,000 + 1,000; 8,000 in all, as with four players.
    rules = rules_with("tenhou-sanma", tsumo_loss="split")
    assert deltas(sanma([tsumo(1, han=5)], rules)) == [-5000, 8000, -3000]


def test_each_half_of_a_split_share_is_rounded_up_to_100():
    # 1 han 30 fu (base 240) by seat 1: 500 from the dealer, 300 from seat 2; half of the
    # North's 300 is 150, rounded up to 200 for each payer: 700 and 500.
    rules = rules_with("tenhou-sanma", tsumo_loss="split")
    assert deltas(sanma([tsumo(1)], rules)) == [-700, 1200, -500]


def test_a_dealer_tsumo_split_adds_half_the_norths_share_to_each_payer():
    # Dealer 2 han 30 fu: 1,000 all; the North's 1,000 split: 1,500 from each.
    rules = rules_with("tenhou-sanma", tsumo_loss="split")
    assert deltas(sanma([tsumo(0, han=2, fu=30)], rules)) == [3000, -1500, -1500]


# Honba


def test_at_a_tsumo_each_payer_pays_100_a_honba():
    # Hand 1: only the dealer is tenpai, 1,000 from each other seat; E1 again, 1 honba.
    # Hand 2: seat 1 tsumos 1 han 30 fu: 500 + 100 from the dealer, 300 + 100 from seat 2
    # (honba_value 200 / (3 - 1) = 100 from each payer).
    result = sanma([draw(0), tsumo(1)])
    assert deltas(result, 1) == [2000, -1000, -1000]
    assert result["hands"][1]["honba"] == 1
    assert deltas(result, 2) == [-600, 1000, -400]


def test_a_ron_is_worth_the_whole_honba_value_a_honba():
    # One honba, then seat 2 rons seat 1 for 1 han 30 fu: 1,000 + 200.
    result = sanma([draw(0), ron(2, 1)])
    assert deltas(result, 2) == [0, -1200, 1200]


# Exhaustive draws


def test_one_tenpai_player_takes_the_whole_noten_total():
    # 2,000 in all: 1,000 from each of the two noten seats; the dealer was noten and the
    # deal passes to seat 1.
    result = sanma([draw(1), draw()])
    assert deltas(result, 1) == [-1000, 2000, -1000]
    assert result["hands"][1]["round"] == "E2"


def test_two_tenpai_players_share_what_the_noten_player_pays():
    # Seat 1 pays 2,000, 1,000 to each tenpai seat; the dealer keeps the deal.
    result = sanma([draw(0, 2), draw()])
    assert deltas(result, 1) == [1000, -2000, 1000]
    assert (result["hands"][1]["round"], result["hands"][1]["honba"]) == ("E1", 1)


def test_all_or_none_tenpai_pays_nothing():
    assert deltas(sanma([draw(0, 1, 2)])) == [0, 0, 0]
    assert deltas(sanma([draw()])) == [0, 0, 0]


def test_a_nagashi_mangan_is_paid_as_a_three_player_tsumo():
    # Seat 2's nagashi mangan: 4,000 from the dealer and 2,000 from seat 1 (tsumo loss).
    hand = {"result": "nagashi", "riichi": [], "nagashi": [2], "tenpai": []}
    assert deltas(sanma([hand])) == [-4000, -2000, 6000]


# The deal and the end of the game


def test_a_dealer_win_repeats_the_deal_with_a_honba():
    # The dealer rons seat 1 for 1 han 30 fu (1,500 for a dealer): E1 again, 1 honba; a
    # win by seat 1 then passes the deal to seat 1 as E2.
    result = sanma([ron(0, 1), ron(1, 2), draw()])
    assert deltas(result, 1) == [1500, -1500, 0]
    rounds = [(h["round"], h["honba"], h["dealer"]) for h in result["hands"]]
    assert rounds == [("E1", 0, 0), ("E1", 1, 0), ("E2", 0, 1)]


def test_the_deal_passes_east_south_west_and_the_game_ends_after_south_3():
    # Seat 1 rons seat 2 for a haneman (12,000) in E1, then five noten draws: E2, E3, S1,
    # S2, S3; seat 1 has 47,000, past the 40,000 return score, so the game ends.
    # Match points: seat 1 (47,000 - 40,000) / 1,000 + 20 + 15 = 42; seat 0 -5 + 0 = -5;
    # seat 2 (23,000 - 40,000) / 1,000 - 20 = -37.
    result = sanma([ron(1, 2, han=6), *[draw() for _ in range(5)]])
    assert [h["round"] for h in result["hands"]] == ["E1", "E2", "E3", "S1", "S2", "S3"]
    assert [h["dealer"] for h in result["hands"]] == [0, 1, 2, 0, 1, 2]
    assert result["finished"] is True
    assert result["ended_by"] == "last_hand"
    assert result["final_scores"] == [35000, 47000, 23000]
    assert result["placements"] == [2, 1, 3]
    assert result["match_points"] == [-5.0, 42.0, -37.0]


def test_nobody_at_40000_after_south_3_plays_on_into_the_west_round():
    record = parse_record(
        {
            "format": "tenbou-game/1",
            "rules": "tenhou-sanma",
            "players": PLAYERS,
            "hands": [draw() for _ in range(6)],
        }
    )
    result = replay(record)
    assert result.finished is False
    assert result.state.round_label == "W1"


def test_an_east_only_game_ends_after_east_3():
    result = sanma([ron(1, 2, han=6), draw(), draw()], "tenhou-sanma-east")
    assert [h["round"] for h in result["hands"]] == ["E1", "E2", "E3"]
    assert result["ended_by"] == "last_hand"


def test_a_bust_ends_the_game_with_three_placements():
    # The dealer's yakuman ron costs seat 1 48,000: 35,000 - 48,000 = -13,000, below zero.
    # Match points: seat 0 (83,000 - 40,000) / 1,000 + 20 + 15 = 78; seat 2 -5 + 0 = -5;
    # seat 1 (-13,000 - 40,000) / 1,000 - 20 = -73.
    result = sanma([ron(0, 1, yakuman=1)])
    assert deltas(result) == [48000, -48000, 0]
    assert result["ended_by"] == "bust"
    assert result["final_scores"] == [83000, -13000, 35000]
    assert result["placements"] == [1, 3, 2]
    assert result["match_points"] == [78.0, -73.0, -5.0]


def test_oka_defaults_to_three_times_the_difference_of_return_and_start():
    assert PRESETS["tenhou-sanma"].effective_oka == Decimal(15)
    assert PRESETS["mahjongsoul-sanma"].effective_oka == Decimal(0)


def test_a_final_scores_record_gives_three_scores_that_sum_to_three_starts():
    # 50,000 + 30,000 + 24,000 + 1 stick = 105,000 = 3 x 35,000; the stick goes to first.
    result = sanma(final_scores=[50000, 30000, 24000], leftover_sticks=1)
    assert result["final_scores"] == [51000, 30000, 24000]
    assert result["match_points"] == [46.0, -10.0, -36.0]
    with pytest.raises(ScoringError, match=r"must make 105,000 \(3 x 35,000\)"):
        sanma(final_scores=[50000, 30000, 25000], leftover_sticks=1)


def test_a_kita_count_is_kept_for_statistics_and_the_han_alone_pays():
    hand = {
        "result": "ron",
        "riichi": [],
        "wins": [{"winner": 1, "loser": 2, "han": 2, "fu": 30, "dora": 1, "kita": 1}],
    }
    doc = {"format": "tenbou-game/1", "rules": "tenhou-sanma", "players": PLAYERS}
    record = parse_record({**doc, "hands": [hand]})
    assert record.hands[0].wins[0].kita == 1
    assert deltas(score({**doc, "hands": [hand]})) == [0, 2000, -2000]


# Refusals


def test_three_names_under_four_player_rules_are_refused():
    doc = {"format": "tenbou-game/1", "rules": "tenhou", "players": PLAYERS, "hands": []}
    with pytest.raises(ScoringError, match="'players' has 3 names, but these are 4-player rules"):
        score(doc)


def test_four_names_under_three_player_rules_are_refused():
    with pytest.raises(ScoringError) as caught:
        sanma([], players=[*PLAYERS, "Dan"])
    assert str(caught.value) == (
        "'players' has 4 names, but these are 3-player rules: give 3 names, or rules for 4 players"
    )
    assert caught.value.template.startswith("'players' has %(given)s names")


@pytest.mark.parametrize("reason", ["four_winds", "four_riichi"])
def test_aborts_that_need_a_fourth_player_are_refused(reason):
    with pytest.raises(ScoringError) as caught:
        sanma([{"result": "abort", "riichi": [], "reason": reason}])
    assert str(caught.value) == f"hand 1: a three-player game has no {reason} abort"


def test_nine_terminals_and_four_kans_are_aborts_of_a_three_player_game():
    result = sanma([{"result": "abort", "riichi": [], "reason": "four_kans"}])
    assert (result["hands"][0]["deltas"], len(result["hands"])) == ([0, 0, 0], 1)


@pytest.mark.parametrize(
    "hand",
    [
        ron(3, 1),
        tsumo(3),
        draw(3),
        draw(riichi=[3]),
        {"result": "chombo", "riichi": [], "offender": 3},
    ],
)
def test_a_seat_the_table_does_not_have_is_refused(hand):
    with pytest.raises(ScoringError, match="seat 3 is not at the table"):
        sanma([hand])


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"uma": [20, 10, -10, -20]}, "uma needs three numbers in a three-player game"),
        ({"honba_value": 300}, "honba_value must be a multiple of 200"),
        ({"noten_total": 2100}, "noten_total must be a multiple of 200"),
        ({"players": 5}, "players must be 4, or 3 for a three-player game, not 5"),
        ({"tsumo_loss": "half"}, "option 'tsumo_loss' must be one of on, split"),
    ],
)
def test_three_player_options_out_of_bounds_are_refused(overrides, message):
    with pytest.raises(ScoringError, match=message):
        sanma([], rules_with("tenhou-sanma", **overrides))


def test_four_player_rules_switched_to_three_players_need_three_uma_and_a_honba_that_splits():
    with pytest.raises(ScoringError, match="honba_value must be a multiple of 200"):
        sanma([], rules_with("ari-ari", players=3, uma=[30, 0, -30]))
    rules = rules_with("ari-ari", players=3, uma=[30, 0, -30], honba_value=200)
    # Noten 3,000 in all: 1,500 from each noten seat to the tenpai dealer.
    assert deltas(sanma([draw(0)], rules)) == [3000, -1500, -1500]


# The presets


SANMA = [name for name, rules in PRESETS.items() if rules.players == 3]


def test_the_three_player_presets_are_tenhous_and_mahjong_souls_both_lengths():
    assert SANMA == [
        "tenhou-sanma",
        "tenhou-sanma-east",
        "mahjongsoul-sanma",
        "mahjongsoul-sanma-east",
    ]


@pytest.mark.parametrize("preset", SANMA)
def test_each_three_player_preset_plays_its_values(preset):
    r = PRESETS[preset]
    # A ron after one honba, a tsumo with tsumo loss, a draw with one tenpai seat.
    assert deltas(sanma([draw(0), ron(2, 1)], preset), 2)[2] == 1000 + r.honba_value
    assert deltas(sanma([tsumo(1, han=5)], preset)) == [-4000, 6000, -2000]
    assert deltas(sanma([draw(1)], preset))[1] == r.noten_total
    # Uma and oka: a final-scores game.
    start = r.start_points
    finals = [start + 10000, start, start - 10000]
    points = sanma(final_scores=finals, leftover_sticks=0, rules=preset)["match_points"]
    expected = [Decimal(s - r.return_points) / 1000 + u for s, u in zip(finals, r.uma, strict=True)]
    expected[0] += r.effective_oka
    assert [Decimal(str(p)) for p in points] == expected
    # Where the regular game ends for someone past the target: E3 or S3.
    hands = [ron(1, 2, han=6), *[draw() for _ in range(r.last_regular_round)]]
    assert sanma(hands, preset)["hands"][-1]["round"] == ("E3" if r.length == "tonpuusen" else "S3")
    assert sanma(hands, preset)["ended_by"] == "last_hand"


@pytest.mark.parametrize("preset", SANMA)
def test_every_three_player_value_names_its_source(preset):
    clauses = preset_clauses()[preset]
    assert all(clauses.values())
    assert "three" in clauses["players"] or "三" in clauses["players"]


def test_tenhou_sanma_shares_every_rule_of_play_with_the_four_player_game():
    three, four = PRESETS["tenhou-sanma"], PRESETS["tenhou"]
    for option in ("kiriage", "kazoe", "bust", "agari_yame", "tenpai_yame", "west_round"):
        assert getattr(three, option) == getattr(four, option)


def test_the_command_line_scores_a_three_player_record(tmp_path, capsys):
    import json

    from scoring.__main__ import main

    path = tmp_path / "sanma.json"
    doc = {"format": "tenbou-game/1", "rules": "tenhou-sanma", "players": PLAYERS}
    path.write_text(json.dumps({**doc, "hands": [tsumo(1, han=5)]}), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["hands"][0]["deltas"] == [-4000, 6000, -2000]
    assert printed["hands"][0]["scores_after"] == [31000, 41000, 33000]
    path.write_text(json.dumps({**doc, "hands": [tsumo(3)]}), encoding="utf-8")
    assert main(["score", str(path)]) == 2
    assert "seat 3 is not at the table" in capsys.readouterr().err

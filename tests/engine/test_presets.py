"""Every preset against its rule book, option by option.

Each preset in scoring/rules.py spells out every option with the clause it comes from
beside the value. Here one test per preset and option plays a small game whose result
depends on that option and checks the preset's value decides it; the test's id carries
the clause, read from the comment beside the value.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from scoring import ScoringError, score
from scoring.rules import PRESET_SOURCES, PRESETS, Rules, preset_clauses

from .builders import draw, make_record, ron, tsumo

OPTIONS = [f.name for f in dataclasses.fields(Rules)]


CLAUSES = preset_clauses()


def test_every_preset_spells_out_every_option_with_its_source_beside_it():
    assert set(CLAUSES) == set(PRESETS) == set(PRESET_SOURCES)
    for preset, clauses in CLAUSES.items():
        assert sorted(clauses) == sorted(OPTIONS), preset
        missing = [option for option, clause in clauses.items() if not clause]
        assert missing == [], f"{preset}: no source beside {missing}"


def play(preset, hands, **extra):
    return score(make_record(hands, preset, **extra))


def refused(preset, hands) -> bool:
    try:
        play(preset, hands)
    except ScoringError:
        return True
    return False


def noten_draws(count):
    return [draw() for _ in range(count)]


# One scenario per option: play under the preset, return what the option decides, and
# what that must be for the preset's value.


def kiriage(preset, r):
    # A non-dealer ron of 4 han 30 fu: 7,700, or 8,000 (mangan) with kiriage.
    paid = play(preset, [ron(1, 2, han=4, fu=30)])["hands"][0]["deltas"][1]
    return paid, 8000 if r.kiriage else 7700


def kazoe(preset, r):
    # 13 han without a yakuman yaku: yakuman (32,000) or sanbaiman (24,000).
    paid = play(preset, [ron(1, 2, han=13)])["hands"][0]["deltas"][1]
    return paid, 32000 if r.kazoe.value == "yakuman" else 24000


def double_yakuman(preset, r):
    paid = play(preset, [ron(1, 2, yakuman=2)])["hands"][0]["deltas"][1]
    return paid, 64000 if r.double_yakuman else 32000


def _double_ron(riichi=()):
    return {
        "result": "ron",
        "riichi": list(riichi),
        "wins": [
            {"winner": 1, "loser": 0, "han": 2, "fu": 30},
            {"winner": 2, "loser": 0, "han": 1, "fu": 30},
        ],
    }


def multi_ron(preset, r):
    # A double ron on seat 0, and a triple ron: head bump pays one winner; double ron
    # pays two and refuses the triple (an abortive draw); triple ron pays all three.
    two = play(preset, [_double_ron()])["hands"][0]["deltas"]
    triple = _double_ron()
    triple["wins"].append({"winner": 3, "loser": 0, "han": 1, "fu": 30})
    outcome = (sum(1 for d in two[1:] if d > 0), refused(preset, [triple]))
    expected = {"head_bump": (1, False), "double": (2, True), "triple": (2, False)}
    return outcome, expected[r.multi_ron.value]


def multi_ron_honba(preset, r):
    # One honba (a noten draw first), then the double ron on seat 0 (dealer is seat 1):
    # the second winner (seat 2, 1,000) gets the honba too only under "each".
    second = play(preset, [draw(), _double_ron()])["hands"][1]["deltas"][2]
    if r.multi_ron.value == "head_bump":
        return second, 0
    return second, 1000 + r.honba_value if r.multi_ron_honba.value == "each" else 1000


def multi_ron_sticks(preset, r):
    # Both winners declared riichi: the second takes its stick back only under own_back.
    second = play(preset, [_double_ron(riichi=[1, 2])])["hands"][0]["deltas"][2]
    if r.multi_ron.value == "head_bump":
        return second, -1000
    return second, 1000 if r.multi_ron_sticks.value == "own_back" else 0


def _pao_ron():
    return {
        "result": "ron",
        "riichi": [],
        "wins": [{"winner": 2, "loser": 0, "yakuman": 1, "pao": 3}],
    }


def pao_honba(preset, r):
    # One honba, then seat 2 rons seat 0 for a yakuman fed by seat 3 (16,000 each).
    deltas = play(preset, [draw(), _pao_ron()])["hands"][1]["deltas"]
    liable_pays = r.pao_honba.value == "liable"
    honba = r.honba_value
    return (deltas[0], deltas[3]), (
        -16000 - (0 if liable_pays else honba),
        -16000 - (honba if liable_pays else 0),
    )


def pao_scope(preset, r):
    # Seat 2 tsumos a double yakuman, seat 3 liable for one of them.
    hand = {
        "result": "tsumo",
        "riichi": [],
        "wins": [{"winner": 2, "yakuman": 2, "pao": 3, "pao_yakuman": 1}],
    }
    liable = play(preset, [hand])["hands"][0]["deltas"][3]
    if not r.double_yakuman:
        return liable, -32000
    return liable, -64000 if r.pao_scope.value == "whole" else -40000


def honba_value(preset, r):
    # One honba, then a non-dealer 1 han 30 fu ron.
    paid = play(preset, [draw(), ron(3, 2, han=1, fu=30)])["hands"][1]["deltas"][3]
    return paid, 1000 + r.honba_value


def noten_total(preset, r):
    return play(preset, [draw(1)])["hands"][0]["deltas"][1], r.noten_total


def nagashi_mangan(preset, r):
    hand = {"result": "nagashi", "riichi": [], "nagashi": [3], "tenpai": []}
    return not refused(preset, [hand]), r.nagashi_mangan


def abortive_draws(preset, r):
    hand = {"result": "abort", "riichi": [], "reason": "four_winds"}
    return not refused(preset, [hand]), r.abortive_draws


def bust(preset, r):
    # A dealer yakuman ron (48,000) takes seat 1 below zero.
    result = play(preset, [ron(0, 1, yakuman=1)])
    return result["ended_by"], "bust" if r.bust.value == "below_zero" else None


def _leader_at_all_last(r):
    """Seat 3 wins 12,000 in E1; noten draws pass the deal until seat 3 deals all-last."""
    return [ron(3, 1, han=6), *noten_draws(r.last_regular_round - 1)]


def agari_yame(preset, r):
    result = play(preset, [*_leader_at_all_last(r), tsumo(3, han=1, fu=30)])
    return result["ended_by"], "agari_yame" if r.agari_yame else None


def tenpai_yame(preset, r):
    result = play(preset, [*_leader_at_all_last(r), draw(3)])
    return result["ended_by"], "tenpai_yame" if r.tenpai_yame else None


def west_round(preset, r):
    # All four declare riichi in E1 and nobody wins after: everyone is below the target
    # score after the last regular hand, so a game with a west round plays on.
    hands = [draw(riichi=[0, 1, 2, 3]), *noten_draws(r.last_regular_round)]
    return play(preset, hands)["finished"], not r.west_round


def target_points(preset, r):
    # Seat 1 wins 3,900 in E1 and nobody wins after: where 28,900 is short of the target
    # score a game with a west round plays on, though it is past a 25,000 return score.
    result = play(preset, [ron(1, 2, han=3, fu=30), *noten_draws(r.last_regular_round)])
    reached = r.start_points + 3900 >= r.target
    return result["finished"], not r.west_round or reached


def length(preset, r):
    # Seat 1 reaches the target in E1; after East 4 an east-only game ends.
    result = play(preset, [ron(1, 2, han=6), *noten_draws(3)])
    return result["finished"], r.length.value == "tonpuusen"


def dealer_repeat_on_tenpai(preset, r):
    result = play(preset, [draw(0), draw()])
    return result["hands"][1]["round"], "E1" if r.dealer_repeat_on_tenpai else "E2"


def leftover_sticks(preset, r):
    # Seat 3's stick is on the table when time is called; seats 0 to 2 are tied first.
    result = play(preset, [draw(riichi=[3])], ended_early="time")
    if r.leftover_sticks.value == "lost":
        share = 0
    elif r.ties.value == "split":
        share = 1000 // 3 + 1000 % 3  # shared by the three, the rest to seat 0
    else:
        share = 1000
    return result["final_scores"][0], r.start_points + share


def ties(preset, r):
    result = play(preset, [draw()], ended_early="time")
    return result["placements"], [1, 1, 1, 1] if r.ties.value == "split" else [1, 2, 3, 4]


def chombo(preset, r):
    result = play(preset, [{"result": "chombo", "riichi": [], "offender": 1}])
    paid = result["hands"][0]["deltas"][1]
    return paid, -8000 if r.chombo.value == "reverse_mangan" else 0


def chombo_penalty(preset, r):
    hands = [{"result": "chombo", "riichi": [], "offender": 1}, draw()]
    with_chombo = play(preset, hands, ended_early="time")["match_points"][1]
    without = play(preset, [draw()], ended_early="time")["match_points"][1]
    if r.chombo.value == "reverse_mangan":
        return with_chombo < without, True
    return Decimal(str(with_chombo)) - Decimal(str(without)), r.chombo_penalty


def _final_scores(r, offsets):
    return make_record(
        None,
        None,
        final_scores=[r.start_points + o for o in offsets],
        leftover_sticks=0,
    )


def _match_points(preset, r, offsets):
    doc = _final_scores(r, offsets)
    doc["rules"] = preset
    return score(doc)["match_points"]


def start_points(preset, r):
    result = play(preset, [draw()], ended_early="time")
    return result["final_scores"], [r.start_points] * 4


def rounding(preset, r):
    # 400 points above the start: exact keeps the 0.4; thousands drops it.
    points = _match_points(preset, r, [10000, 400, -3400, -7000])
    base = Decimal(r.start_points + 400 - r.return_points) / 1000 + r.uma[1]
    if r.rounding.value == "thousands":
        base = Decimal(round((r.start_points + 400) / 1000) * 1000 - r.return_points) / 1000
        base += r.uma[1]
    return Decimal(str(points[1])), base


def uma(preset, r):
    # Second to fourth place: (score - return) / 1,000 + uma.
    points = _match_points(preset, r, [10000, 0, -3000, -7000])
    expected = [
        Decimal(r.start_points + o - r.return_points) / 1000 + u
        for o, u in zip([0, -3000, -7000], r.uma[1:], strict=True)
    ]
    return [Decimal(str(p)) for p in points[1:]], expected


def oka(preset, r):
    points = _match_points(preset, r, [10000, 0, -3000, -7000])
    first = Decimal(r.start_points + 10000 - r.return_points) / 1000 + r.uma[0]
    return Decimal(str(points[0])) - first, r.effective_oka


def return_points(preset, r):
    # Second place on the start score: (start - return) / 1,000 + the second uma.
    points = _match_points(preset, r, [10000, 0, -3000, -7000])
    return Decimal(str(points[1])), Decimal(r.start_points - r.return_points) / 1000 + r.uma[1]


def riichi_min_points(preset, r):
    # A dealer baiman (24,000) on seat 1, then: from 25,000, a draw where only the dealer
    # is tenpai (1,000 from each other seat) leaves seat 1 on 0; from 30,000, a dealer
    # haneman (18,000 + 300 honba) leaves it on -12,300. Can seat 1 declare riichi now?
    second = draw(0) if r.start_points == 25000 else ron(0, 1, han=6)
    hands = [ron(0, 1, han=8), second]
    left = play(preset, hands)["hands"][-1]["scores_after"][1]
    accepted = not refused(preset, [*hands, draw(riichi=[1])])
    allowed = r.riichi_min_points == 0 or left >= r.riichi_min_points
    return (left, accepted), (left, allowed)


def players(preset, r):
    # Every seat of the record is at the table: four names play, three are refused.
    result = play(preset, [draw()], ended_early="time")
    three = make_record([draw()], preset)
    three["players"] = three["players"][:3]
    try:
        score(three)
    except ScoringError:
        return (len(result["final_scores"]), True), (r.players, True)
    return (len(result["final_scores"]), False), (r.players, True)


def tsumo_loss(preset, r):
    # Four players pay every tsumo whatever the option: a non-dealer mangan is 8,000.
    won = play(preset, [tsumo(1, han=5)])["hands"][0]["deltas"][1]
    return won, 8000


SCENARIOS = {name: fn for name, fn in dict(globals()).items() if name in OPTIONS and callable(fn)}


def test_every_option_has_a_scenario():
    assert sorted(SCENARIOS) == sorted(OPTIONS)


# The three-player presets play three-player scenarios (test_sanma.py).
FOUR_PLAYER_PRESETS = [name for name, rules in PRESETS.items() if rules.players == 4]
CASES = [
    pytest.param(preset, option, id=f"{preset}-{option}: {CLAUSES[preset][option]}")
    for preset in FOUR_PLAYER_PRESETS
    for option in OPTIONS
]


@pytest.mark.parametrize(("preset", "option"), CASES)
def test_the_preset_plays_each_option_as_its_source_says(preset, option):
    rules = PRESETS[preset]
    outcome, expected = SCENARIOS[option](preset, rules)
    assert outcome == expected


def test_the_presets_table_in_the_docs_is_the_one_the_engine_prints():
    from pathlib import Path

    from scoring.__main__ import presets_markdown

    docs = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    assert docs.read_text(encoding="utf-8") == presets_markdown(), (
        "docs/rules.md is stale: run .venv/bin/python -m scoring presets > docs/rules.md"
    )


def test_mahjongsoul_counts_match_points_from_25000_without_shifting_the_uma():
    # Ranked rooms: match points from 25,000 with +15/+5/-5/-15; the west round plays to
    # 30,000. A 41,300 / 24,900 / 21,800 / 12,000 finish: 16.3 + 15, -0.1 + 5, -3.2 - 5,
    # -13.0 - 15.
    doc = make_record(None, "mahjongsoul", final_scores=[41300, 24900, 21800, 12000])
    doc["leftover_sticks"] = 0
    assert score(doc)["match_points"] == [31.3, 4.9, -8.2, -28.0]

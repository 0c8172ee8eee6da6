"""The record format: parsing, bad records, rules and overrides, and round trips."""

from __future__ import annotations

import pytest

from scoring import ScoringError, dump_record, parse_record, resolve_rules
from scoring.rules import PRESETS, Kazoe

from .builders import draw, make_record, ron, rules_with

SPEC_EXAMPLE = {
    "format": "tenbou-game/1",
    "rules": "ari-ari",
    "players": ["Aki", "Ben", "Chie", "Dan"],
    "hands": [
        {"result": "ron", "riichi": [2], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]},
        {"result": "draw", "riichi": [], "tenpai": [0, 3]},
        {"result": "tsumo", "riichi": [0], "wins": [{"winner": 0, "han": 4, "fu": 30}]},
    ],
}


def test_the_spec_example_round_trips_unchanged():
    assert dump_record(parse_record(SPEC_EXAMPLE)) == SPEC_EXAMPLE


def test_every_optional_field_round_trips():
    doc = make_record(
        [
            {
                "result": "tsumo",
                "riichi": [],
                "wins": [
                    {
                        "winner": 1,
                        "yakuman": 1,
                        "pao": 2,
                        "yaku": ["daisangen"],
                        "dora": 0,
                        "open": True,
                    }
                ],
            },
            {"result": "nagashi", "riichi": [3], "nagashi": [1, 2], "tenpai": [2]},
            {"result": "abort", "riichi": [], "reason": "four_kans"},
            {"result": "chombo", "riichi": [], "offender": 3},
        ],
        rules_with("tenhou", kiriage=True, uma=[15, 5, -5, -15]),
        penalties=[{"seat": 1, "match_points": -2.5, "reason": "slow play"}],
    )
    assert dump_record(parse_record(doc)) == doc


def test_a_final_score_record_round_trips():
    doc = make_record(None, final_scores=[41300, 24900, 21800, 11000], leftover_sticks=1)
    assert dump_record(parse_record(doc)) == doc


@pytest.mark.parametrize(
    "rules, option, value",
    [
        ("ari-ari", "kiriage", False),
        (rules_with(kiriage=True), "kiriage", True),
        (rules_with("ema", kazoe="yakuman"), "kazoe", Kazoe.YAKUMAN),
        (rules_with(start_points=30000, oka=0), "start_points", 30000),
    ],
)
def test_overrides_change_one_option_of_a_preset(rules, option, value):
    assert getattr(resolve_rules(rules), option) == value


def test_every_preset_has_the_specs_name_and_the_agreed_new_ones():
    spec = {"ari-ari", "tenhou", "mleague", "wrc", "ema", "mahjongsoul"}
    spec |= {"tenhou-sanma", "mahjongsoul-sanma"}  # the spec's three-player section
    agreed = {"tenhou-east", "mahjongsoul-east", "club"}
    agreed |= {"tenhou-sanma-east", "mahjongsoul-sanma-east"}
    assert set(PRESETS) == spec | agreed


@pytest.mark.parametrize(
    "rules, message",
    [
        ("riichi-city", "unknown rule preset 'riichi-city'"),
        (rules_with(kiriagee=True), "unknown rule option 'kiriagee'"),
        (rules_with(kiriage="yes"), "option 'kiriage' must be true or false"),
        (rules_with(start_points=25000.5), "option 'start_points' must be a whole number"),
        (rules_with(start_points=True), "option 'start_points' must be a whole number"),
        (rules_with(multi_ron="quadruple"), "option 'multi_ron' must be one of"),
        (rules_with(uma=[30, 10, -10]), "option 'uma' must be a list of four numbers"),
        (rules_with(uma=[30, 10, -10, "x"]), "option 'uma' must be a number"),
        (rules_with(uma=[30.05, 10, -10, -30]), "match points are kept to tenths"),
        (rules_with(honba_value=250), "honba_value must be a multiple of 300"),
        (rules_with(noten_total=1000), "noten_total must be a multiple of 600"),
        (rules_with(chombo_penalty=20), "chombo_penalty is a deduction"),
        ({"preset": "ari-ari", "overrides": [1]}, "'overrides' must be an object"),
        ({"preset": "ari-ari", "extra": 1}, "rules: unknown field 'extra'"),
        (42, "rules must be a preset name"),
    ],
)
def test_bad_rules_are_refused_with_a_reason(rules, message):
    with pytest.raises(ScoringError, match=message.replace("(", r"\(")):
        parse_record(make_record([], rules))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "tenbou-game/2"}, "'format' must be 'tenbou-game/1'"),
        ({"players": ["A", "B", "C"]}, "'players' has 3 names, but these are 4-player rules"),
        ({"players": ["A", "B"]}, "'players' must be four names"),
        ({"players": ["A", "B", "C", ""]}, "'players' must be four names"),
        ({"players": ["A", "B", "C", "A"]}, "'players' names a player twice"),
        ({"hands": {}}, "'hands' must be a list"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"final_scores": [25000] * 4}, "either 'hands' or 'final_scores'"),
        ({"penalties": [{"seat": 5, "match_points": -1}]}, "seat number 0 to 3"),
        ({"penalties": [{"seat": 1, "match_points": "lots"}]}, "a penalty needs 'match_points'"),
        ({"penalties": [{"seat": 1, "match_points": -1.25}]}, "kept to tenths"),
    ],
)
def test_bad_documents_are_refused_with_a_reason(change, message):
    doc = {**make_record([]), **change}
    with pytest.raises(ScoringError, match=message):
        parse_record(doc)


BAD_HANDS = [
    ("ron", "a hand must be a JSON object"),
    ({"result": "win", "riichi": []}, "unknown result 'win'"),
    ({"result": "draw", "tenpai": []}, "every hand needs 'riichi'"),
    ({"result": "draw", "riichi": []}, "a draw hand needs 'tenpai'"),
    ({"result": "draw", "riichi": [], "tenpai": [1, 1]}, "'tenpai' names a seat twice"),
    ({"result": "draw", "riichi": [7], "tenpai": []}, "must be a seat number 0 to 3, not 7"),
    ({"result": "draw", "riichi": [], "tenpai": [], "wins": []}, "unknown or misplaced field"),
    ({"result": "ron", "riichi": [], "wins": []}, "needs 'wins', a list of one or more"),
    ({"result": "abort", "riichi": [], "reason": "boredom"}, "unknown abort reason 'boredom'"),
    ({"result": "chombo", "riichi": []}, "a chombo hand needs 'offender'"),
    ({"result": "nagashi", "riichi": [], "nagashi": [], "tenpai": []}, "at least one seat"),
    (
        {"result": "ron", "riichi": [], "wins": [{"winner": 1, "han": 2, "fu": 30}]},
        "needs the 'loser'",
    ),
    (
        {
            "result": "ron",
            "riichi": [],
            "wins": [
                {"winner": 1, "loser": 0, "han": 2, "fu": 30},
                {"winner": 2, "loser": 3, "han": 2, "fu": 30},
            ],
        },
        "must share the same loser",
    ),
    (
        {
            "result": "tsumo",
            "riichi": [],
            "wins": [{"winner": 1, "han": 2, "fu": 30}, {"winner": 2, "han": 2, "fu": 30}],
        },
        "a tsumo has exactly one winner",
    ),
    (
        {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "loser": 2, "han": 5}]},
        "a tsumo has no loser",
    ),
    (
        {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "han": 5, "pao": 2}]},
        "pao applies only to a yakuman win",
    ),
    (
        {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "yakuman": 1, "pao": 1}]},
        "cannot be liable",
    ),
    (
        {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "han": "3", "fu": 30}]},
        "'han' must be a whole number",
    ),
    (
        {"result": "tsumo", "riichi": [], "wins": [{"han": 3, "fu": 30}]},
        "a win needs 'winner'",
    ),
]


@pytest.mark.parametrize("hand, message", BAD_HANDS)
def test_each_kind_of_bad_hand_is_refused_naming_the_hand(play, hand, message):
    with pytest.raises(ScoringError) as err:
        play([draw(), ron(1, 2), hand])
    assert str(err.value).startswith("hand 3: ")
    assert message in str(err.value)

"""The browser's engine (static/js/engine.js) settles records exactly as `scoring` does.

A phone settles hands offline with engine.js; these tests run it inside Chromium on
thousands of generated records under every preset and every option value and compare
every result with `scoring.score`, refusals included. The seed is fixed, so a failure
reproduces; the first record the engines disagree on is printed.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from scoring import replay, resolve_rules, score
from scoring.record import parse_record
from scoring.rules import _FIELDS, PRESETS, engine_rules
from scoring.simulate import random_any_record
from tenhou import convert_file
from tests.engine.js_cases import (
    ENGINE_JS,
    SCORE_BATCH_JS,
    coverage,
    edge_records,
    every_choice,
    first_mismatch,
    generated_records,
    mutated_records,
    outcome,
)

SEED = 28
# The sample Tenhou and Mahjong Soul logs, four and three players.
DATA = Path(__file__).resolve().parents[1] / "data"
HANDS = 10_000
BATCH = 250


def _engine(page, *, load_rules: bool = True):
    page.goto("about:blank")
    page.add_script_tag(path=str(ENGINE_JS))
    if load_rules:
        page.evaluate("data => TenbouEngine.load(data)", engine_rules())


def _in_browser(page, records):
    answers = []
    for start in range(0, len(records), BATCH):
        batch = json.dumps(records[start : start + BATCH])
        answers += json.loads(page.evaluate(SCORE_BATCH_JS, batch))
    return answers


def test_the_browser_engine_scores_ten_thousand_generated_hands_as_scoring_does(page):
    records = generated_records(SEED, hands=HANDS) + edge_records()
    python = [outcome(record) for record in records]
    assert all("result" in answer for answer in python), "the generator made a bad record"
    _engine(page)

    started = time.perf_counter()
    browser = _in_browser(page, records)
    elapsed = time.perf_counter() - started

    mismatch = first_mismatch(records, python, browser)
    assert mismatch is None, mismatch
    hands = sum(len(record.get("hands", ())) for record in records)
    assert hands >= HANDS
    print(f"{len(records)} records, {hands} hands: the same in Chromium ({elapsed:.1f} s)")


def test_the_compared_records_exercise_every_preset_option_value_and_kind_of_hand():
    records = generated_records(SEED, hands=HANDS)
    seen = coverage(records, [score(record) for record in records])

    assert seen["preset"] == set(PRESETS)
    for name, values in every_choice().items():
        assert seen[name] == values, name
    for name in _FIELDS:
        # The options that take numbers: several values of each, None where it is allowed.
        assert len(seen[name]) >= 2, name
    assert "null" in seen["target_points"] and "null" in seen["oka"]
    assert seen["hand"] >= {
        "ron x1",
        "ron x2",
        "ron x3",
        "tsumo",
        "draw",
        "nagashi",
        "chombo",
        "abort nine_terminals",
        "abort four_winds",
        "abort four_kans",
        "abort four_riichi",
        "abort triple_ron",
        "ron with pao",
        "tsumo with pao",
        "ron with pao_yakuman",
        "tsumo with pao_yakuman",
        "tsumo with kita",
        "ron with yaku",
    }
    assert seen["ended_by"] == {
        None,
        "last_hand",
        "bust",
        "agari_yame",
        "tenpai_yame",
        "west_round",
        "time",
    }
    assert seen["record"] == {
        "final_scores",
        "penalties",
        "ended_early",
        "shared place",
        "sticks shared unevenly",
        "below zero",
        "three players, tsumo_loss on",
        "three players, tsumo_loss split",
    }


def test_the_browser_engine_refuses_what_scoring_refuses_and_accepts_what_it_accepts(page):
    records = mutated_records(SEED, generated_records(SEED, hands=HANDS), 2500) + _bad_records()
    python = [outcome(record) for record in records]
    refused = sum("refused" in answer for answer in python)
    assert refused > len(records) // 3  # the mutations break most records, not all
    _engine(page)

    browser = _in_browser(page, records)

    mismatch = first_mismatch(records, python, browser)
    assert mismatch is None, mismatch
    # Every refusal is the engine's own, with a message a person can read.
    unreadable = [a for a in browser if "refused" in a and not a["readable"]]
    assert not unreadable, unreadable[:3]


def _bad_records() -> list[dict]:
    players = ["Aki", "Ben", "Chie", "Dan"]

    def game(hands, rules="ari-ari", **extra):
        return {
            "format": "tenbou-game/1",
            "rules": rules,
            "players": players,
            "hands": hands,
            **extra,
        }

    def ron(**win):
        return {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, **win}]}

    return [
        game([ron(han=1, fu=20)]),  # 20 fu is only a pinfu tsumo
        game([ron(han=2, fu=35)]),
        game([ron(han=0, fu=30)]),
        game([ron(han=3)]),  # fu needed up to 4 han
        game([ron(yakuman=7)]),
        game([ron(yakuman=1, han=13)]),
        game(
            [
                {
                    "result": "ron",
                    "riichi": [],
                    "wins": [{"winner": 0, "loser": 0, "han": 3, "fu": 30}],
                }
            ]
        ),
        game([{"result": "tsumo", "riichi": [], "wins": [{"winner": 0, "han": 1, "fu": 20}]}]),
        game([{"result": "draw", "riichi": [4], "tenpai": []}]),
        game([{"result": "draw", "riichi": [1, 1], "tenpai": []}]),
        game([{"result": "nagashi", "riichi": [], "nagashi": [], "tenpai": []}]),
        game([{"result": "abort", "riichi": [], "reason": "nine_terminals"}], "wrc"),
        game([{"result": "abort", "riichi": [], "reason": "triple_ron"}], "ema"),
        game([ron(yakuman=1, pao=1)]),  # the winner liable for their own hand
        game([ron(han=3, fu=30, pao=2)]),  # pao needs a yakuman
        game([ron(han=5)] * 30),  # hands after the end of the game
        game([ron(han=3, fu=30)], {"preset": "ari-ari", "overrides": {"honba_value": 250}}),
        game([], {"preset": "ari-ari", "overrides": {"uma": [30, 10, -10]}}),
        game([], {"preset": "ari-ari", "overrides": {"uma": [30.05, 10, -10, -30]}}),
        game([], {"preset": "ari-ari", "overrides": {"unknown": 1}}),
        game([], {"preset": "nowhere"}),
        game([], "tenhou-sanma"),  # four names under three-player rules
        game([], ended_early="time"),
        {**game([]), "players": ["Aki", "Aki", "Chie", "Dan"]},
        {
            "format": "tenbou-game/1",
            "rules": "ari-ari",
            "players": players,
            "final_scores": [30000, 30000, 20000, 10000],
            "leftover_sticks": 1,
        },
        {
            "format": "tenbou-game/1",
            "rules": "ari-ari",
            "players": players,
            "final_scores": [25050, 24950, 25000, 25000],  # not hundreds
        },
        {**game([]), "leftover_sticks": 1},  # computed from the hands
        game(
            [
                {
                    "result": "ron",
                    "riichi": [],
                    "wins": [  # a triple ron aborts under ari-ari
                        {"winner": s, "loser": 0, "han": 1, "fu": 30} for s in (1, 2, 3)
                    ],
                }
            ]
        ),
        game([ron(yakuman=1, pao=2, pao_yakuman=2)]),  # liable for more than the win
        {
            **game([{"result": "abort", "riichi": [], "reason": "four_winds"}], "tenhou-sanma"),
            "players": players[:3],
        },
        game(
            [{"result": "draw", "riichi": [0], "tenpai": []}],  # 25,000 points, 30,000 needed
            {"preset": "ari-ari", "overrides": {"riichi_min_points": 30000}},
        ),
        {
            **game([{"result": "chombo", "riichi": [], "offender": 3}], "tenhou-sanma"),
            "players": players[:3],
        },
        game([ron(yakuman=7)]),
        {**game([]), "penalties": [{"seat": 0, "match_points": -2.55}]},
        {**game([]), "format": "tenbou-game/2"},
    ]


def test_every_bad_record_listed_is_refused_by_both_engines(page):
    records = _bad_records()
    _engine(page)

    browser = _in_browser(page, records)

    for record, answer in zip(records, browser, strict=True):
        assert "refused" in outcome(record), record
        assert "refused" in answer and answer["readable"], (record, answer)
    assert browser[0]["refused"] == (
        "hand 1: 1 han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo"
    )


def test_without_the_presets_the_engine_scores_rules_given_in_full_and_refuses_a_bare_name(
    page,
):
    rng = random.Random(SEED)
    records = []
    for name in sorted(PRESETS):
        record = random_any_record(rng, name)
        record["rules"] = {"preset": name, "overrides": resolve_rules(name).to_dict()}
        records.append(record)
    _engine(page, load_rules=False)

    browser = _in_browser(page, records + [{**records[0], "rules": "ari-ari"}])

    python = [outcome(record) for record in records]
    mismatch = first_mismatch(records, python, browser[:-1])
    assert mismatch is None, mismatch
    assert "not loaded" in browser[-1]["refused"]
    unknown_word = json.loads(json.dumps(records[0]))
    unknown_word["rules"]["overrides"]["ties"] = "coin_toss"
    assert "refused" in _in_browser(page, [unknown_word])[0]


def test_a_preview_settles_the_next_hand_and_tells_the_table_after_it(page):
    rng = random.Random(SEED + 1)
    cases = []
    for name in sorted(PRESETS):
        record = random_any_record(rng, name)
        if record.get("hands") and "ended_early" not in record:
            cases.append(record)
    _engine(page)

    for record in cases:
        *before, hand = record["hands"]
        shown = page.evaluate(
            "([record, hand]) => TenbouEngine.preview(record, hand)",
            [{**record, "hands": before}, hand],
        )
        game = replay(parse_record(record))
        state = game.state
        assert shown["hand"] == json.loads(json.dumps(game.hands[-1].to_json()))
        assert shown["state"] == {
            "round": state.round_label,
            "round_index": state.round_index,
            "dealer": state.dealer,
            "honba": state.honba,
            "sticks": state.sticks,
            "scores": list(state.scores),
            "winds": [state.seat_wind(seat) for seat in range(len(state.scores))],
            "finished": state.finished,
            "ended_by": state.ended_by,
        }
        assert shown["result"] == json.loads(json.dumps(score(record)))


def test_the_engine_writes_a_result_as_python_writes_its_json(page):
    records = generated_records(SEED + 2, hands=300) + edge_records()
    _engine(page)

    texts = page.evaluate(
        "records => records.map(r => TenbouEngine.stringify(TenbouEngine.score(r)))", records
    )

    assert texts == [json.dumps(score(record)) for record in records]


def test_the_engine_reads_the_presets_from_the_page_when_it_carries_them(page):
    page.goto("about:blank")
    page.set_content(
        '<script type="application/json" id="tenbou-engine-rules">'
        + json.dumps(engine_rules()).replace("<", "\\u003c")
        + "</script>"
    )
    page.add_script_tag(path=str(ENGINE_JS))

    presets = page.evaluate("Object.keys(TenbouEngine.presets)")
    rules = page.evaluate("TenbouEngine.resolveRules('tenhou-sanma')")

    assert presets == list(PRESETS)
    assert rules == PRESETS["tenhou-sanma"].to_dict()


def test_an_option_or_choice_the_engine_does_not_know_makes_it_refuse_rather_than_guess(page):
    record = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": ["A", "B", "C", "D"],
        "hands": [],
    }
    new_option = engine_rules()
    new_option["options"]["open_riichi"] = {"kind": "bool"}
    new_choice = engine_rules()
    new_choice["options"]["multi_ron"]["choices"].append("quadruple")
    _engine(page, load_rules=False)

    answers = [
        page.evaluate(
            """([data, record]) => {
                TenbouEngine.load(data);
                try { TenbouEngine.score(record); return "scored"; }
                catch (err) { return err.message; }
            }""",
            [data, record],
        )
        for data in (new_option, new_choice, engine_rules())
    ]

    assert answers == [
        "this page's scoring engine does not know the rule option 'open_riichi'",
        "this page's scoring engine does not know the rule option 'multi_ron': 'quadruple'",
        "scored",
    ]


def test_the_browser_engine_settles_the_real_sample_logs_as_scoring_does(page):
    paths = sorted(DATA.glob("*/*.json")) + sorted(DATA.glob("*/*.xml"))
    records = [convert_file(path).record for path in paths]
    python = [outcome(record) for record in records]
    assert len(records) >= 10 and all("result" in answer for answer in python)
    _engine(page)

    browser = _in_browser(page, records)

    mismatch = first_mismatch(records, python, browser)
    assert mismatch is None, mismatch


# Numbers and numeric text as a rule option may give them (text in any form Python's
# Decimal reads, or does not).
NUMBERS = [
    *("1", "1.5", "-2.5", "1e1", "1_0", "1__0", "_1", ".5", "5.", "+3", "1e-1", " 7 "),
    *("x", "", "_", "inf", "NaN", "1e", "-", "1.2.3", "0.10", "1.25", "12.30", "1E+2"),
    *("0e-99999", "1e-99999", "1e999", "  -3.0\n", "1._5"),
    *(7.5, 0.1, 100, 0.05, -20, 1e-7),
]


def test_the_engine_reads_numbers_in_options_as_python_decimal_does(page):
    _engine(page)

    answers = page.evaluate(
        """values => values.map(value => {
            try {
                return TenbouEngine.resolveRules({preset: "ari-ari", overrides: {oka: value}}).oka;
            } catch (err) {
                return "refused";
            }
        })""",
        NUMBERS,
    )

    for value, answer in zip(NUMBERS, answers, strict=True):
        try:
            expected = float(resolve_rules({"preset": "ari-ari", "overrides": {"oka": value}}).oka)
        except Exception:
            expected = "refused"
        assert (value, answer) == (value, expected)


def test_a_field_the_page_left_undefined_is_no_field_as_once_sent_to_the_server(page):
    _engine(page)

    deltas = page.evaluate(
        """() => TenbouEngine.score({
            format: "tenbou-game/1", rules: "ari-ari", players: ["A", "B", "C", "D"],
            hands: [{result: "tsumo", riichi: [],
                     wins: [{winner: 1, loser: undefined, pao: undefined, han: 3, fu: 30}]}],
        }).hands[0].deltas"""
    )

    assert deltas == [-2000, 4000, -1000, -1000]

"""`python -m scoring`: output for good records, exit status 2 and one line for bad ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .builders import draw, make_record, ron
from .test_hands import IMPOSSIBLE_VALUES
from .test_record import BAD_HANDS

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_score_prints_the_spec_object_for_a_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(make_record([ron(1, 0, riichi=[2], han=3, fu=40)])))
    done = run("score", str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["hands"][0]["deltas"] == [-5200, 6200, -1000, 0]
    assert set(result) == {
        "hands",
        "finished",
        "ended_by",
        "final_scores",
        "leftover_sticks",
        "placements",
        "match_points",
    }
    # One hand per line, so the deltas read as written in the spec.
    assert '"deltas": [-5200, 6200, -1000, 0]' in done.stdout


def test_score_reads_standard_input_and_prints_match_points():
    doc = make_record(None, final_scores=[41300, 24900, 21800, 12000], leftover_sticks=0)
    done = run("score", "-", stdin=json.dumps(doc))
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["hands"] == []
    assert result["match_points"] == [61.3, 4.9, -18.2, -48.0]


@pytest.mark.parametrize(
    "document, message",
    [
        (
            make_record([draw(), ron(1, 2, han=1, fu=20)]),
            "hand 2: 1 han 20 fu is not a possible ron",
        ),
        (make_record([draw(), ron(4, 2)]), "hand 2: 'winner' must be a seat number 0 to 3"),
        (make_record([draw(), ron(2, 2)]), "hand 2: the loser cannot also be a winner"),
        (
            make_record([draw()] * 9),
            "hand 9: the game already ended (last_hand)",
        ),
        (
            make_record(
                [{"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "han": 2, "fu": 30}] * 2}]
            ),
            "hand 1: a tsumo has exactly one winner",
        ),
        (make_record([], "house-rules"), "unknown rule preset 'house-rules'"),
    ],
)
def test_a_bad_record_exits_2_with_one_line_naming_the_problem(tmp_path, document, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    done = run("score", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert message in done.stderr


def test_text_that_is_not_json_exits_2():
    done = run("score", "-", stdin="{not json")
    assert done.returncode == 2
    assert "not valid JSON" in done.stderr


def test_a_missing_file_exits_2_with_its_name():
    done = run("score", "no-such-file.json")
    assert done.returncode == 2
    assert "no-such-file.json" in done.stderr


def test_bench_prints_its_figures():
    done = run("bench", "--games", "20", "--repeat", "2")
    assert done.returncode == 0, done.stderr
    assert "hands per second" in done.stdout
    assert "per second of CPU" in done.stdout
    assert "60-game event replay" in done.stdout


@pytest.mark.parametrize("hand, message", BAD_HANDS + IMPOSSIBLE_VALUES)
def test_every_kind_of_bad_hand_exits_2_naming_the_hand(tmp_path, hand, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(make_record([draw(), ron(1, 2), hand])))
    done = run("score", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: hand 3: ")
    assert message in done.stderr

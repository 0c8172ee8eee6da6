"""`manage.py seating_plan`: a plan without a database, and refusals with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    # No database: the settings point at a file that does not exist and is never opened.
    env = {"DATABASE_URL": "sqlite:////nonexistent/tenbou.sqlite3", "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "manage.py", "seating_plan", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )


def test_the_command_prints_a_perfect_plan_for_sixteen_players_as_json():
    done = run("--players", "16", "--rounds", "5", "--seed", "4")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["repeated_meetings"] == 0
    assert len(doc["rounds"]) == 5 and doc["sitting_out"] == [[]] * 5
    for rnd in doc["rounds"]:
        assert sorted(p for table in rnd for p in table) == list(range(1, 17))


@pytest.mark.slow
def test_the_command_prints_text_with_winds_sitting_out_and_the_repeat_count():
    done = run("--players", "13", "--rounds", "2", "--format", "text", "--method", "random")
    assert done.returncode == 0, done.stderr
    assert "Round 2" in done.stdout and "Sitting out:" in done.stdout
    assert "Table   1:  E" in done.stdout
    assert done.stdout.strip().splitlines()[-1].startswith("Repeated meetings: ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3", "--rounds", "2"], "A plan needs at least 4 players; there are 3."),
        (["--players", "16", "--rounds", "40"], "An event can have at most 30 rounds"),
        (["--players", "16", "--rounds", "2", "--method", "best"], "Unknown seating method"),
        (["--players", "16", "--rounds", "2", "--method", "fixed"], "typed by the organiser"),
        (["--players", "16", "--rounds", "2", "--format", "xml"], "Unknown format"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_status_2(args, message):
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""

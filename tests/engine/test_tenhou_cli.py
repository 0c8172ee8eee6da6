"""`python -m tenhou convert FILE...` prints records, and names the file that fails."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "tenhou"
GAME = "2019103023gm-00a9-0000-f90e0fe9"


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tenhou", *args], cwd=ROOT, input=stdin, capture_output=True
    )


def test_converting_one_log_prints_its_record():
    done = run("convert", str(DATA / f"{GAME}.json"))
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["format"] == "tenbou-game/1"
    assert len(record["players"]) == 4


def test_converting_several_logs_prints_a_list_in_the_order_given():
    done = run("convert", str(DATA / f"{GAME}.json"), str(DATA / f"{GAME}.xml"))
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)
    assert [r["players"] for r in records] == [records[0]["players"]] * 2


def test_a_log_that_cannot_be_read_is_named_and_the_status_is_two(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("garbage")
    done = run("convert", str(DATA / f"{GAME}.json"), str(bad), str(tmp_path / "missing.xml"))
    assert done.returncode == 2
    errors = done.stderr.decode().splitlines()
    assert errors == [
        f"error: {bad}: not a Tenhou log: neither JSON nor XML",
        f"error: cannot read {tmp_path / 'missing.xml'}: No such file or directory",
    ]
    assert done.stdout == b""


def test_a_log_on_standard_input_is_read_with_a_dash():
    done = run("convert", "-", stdin=(DATA / f"{GAME}.json").read_bytes())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "tenbou-game/1"


def test_the_engine_no_longer_converts_tenhou_logs():
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "from-tenhou", str(DATA / f"{GAME}.json")],
        cwd=ROOT,
        capture_output=True,
    )
    assert done.returncode == 2
    assert b"invalid choice" in done.stderr


def test_rules_given_on_the_command_line_are_the_records_rules(tmp_path):
    doc = json.loads((DATA / f"{GAME}.json").read_text(encoding="utf-8"))
    doc["rule"]["disp"] = "League final"
    doc["ref"] = "final-1"
    path = tmp_path / "final.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    done = run("convert", "--rules", "tenhou", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rules"] == "tenhou"
    assert done.stderr == b""
    done = run("convert", str(path))
    assert done.returncode == 0
    assert b"does not say where it was played" in done.stderr
    done = run(
        "convert", "--rules", '{"preset": "tenhou", "overrides": {"kiriage": true}}', str(path)
    )
    assert json.loads(done.stdout)["rules"]["overrides"] == {"kiriage": True}
    done = run("convert", "--rules", "nonsense", str(path))
    assert done.returncode == 2 and b"unknown rule preset 'nonsense'" in done.stderr

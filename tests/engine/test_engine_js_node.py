"""A quick check of the browser's engine under node, when node is installed: the same
comparison as tests/browser/test_engine_js.py (which CI runs in Chromium), on fewer hands."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from scoring.rules import engine_rules
from tests.engine.js_cases import (
    ENGINE_JS,
    SCORE_BATCH_JS,
    edge_records,
    first_mismatch,
    generated_records,
    mutated_records,
    outcome,
)

NODE = shutil.which("node")
# Reads {"rules": ..., "records": "<JSON text>"} on standard input, prints the answers.
SCRIPT = f"""
const engine = require({json.dumps(str(ENGINE_JS))});
let input = "";
process.stdin.on("data", chunk => input += chunk);
process.stdin.on("end", () => {{
    const data = JSON.parse(input);
    engine.load(data.rules);
    const TenbouEngine = engine;
    process.stdout.write(({SCORE_BATCH_JS})(data.records));
}});
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_under_node_the_browser_engine_scores_generated_and_mutated_records_as_scoring_does(
    tmp_path,
):
    records = generated_records(7, hands=2000) + edge_records()
    records = records + mutated_records(7, records, 500)
    python = [outcome(record) for record in records]
    payload = json.dumps({"rules": engine_rules(), "records": json.dumps(records)})

    run = subprocess.run(
        [NODE, "-e", SCRIPT], input=payload, capture_output=True, text=True, timeout=60
    )

    assert run.returncode == 0, run.stderr
    mismatch = first_mismatch(records, python, json.loads(run.stdout))
    assert mismatch is None, mismatch

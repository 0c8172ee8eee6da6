"""The engine stays pure Python: no Django anywhere inside `scoring/`."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SCORING = Path(__file__).resolve().parents[2] / "scoring"


def test_no_module_of_the_engine_imports_django():
    for path in SCORING.glob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n == "django" or n.startswith("django.") for n in names), path.name


def test_importing_and_using_the_engine_loads_no_django():
    code = (
        "import sys, scoring, scoring.tenhou, scoring.simulate, scoring.__main__\n"
        "scoring.score({'format': 'tenbou-game/1', 'rules': 'ari-ari',"
        " 'players': ['A', 'B', 'C', 'D'], 'hands': []})\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=SCORING.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr

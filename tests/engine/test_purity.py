"""The engine stays pure Python: no Django and no `mahjong` anywhere inside `scoring/`, and
the Tenhou converter and the seating planner beside it need no Django either."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
TENHOU = ROOT / "tenhou"
SEATING = ROOT / "seating"


def _imported(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


def _is(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_no_module_of_the_engine_imports_django_or_mahjong():
    paths = sorted(SCORING.rglob("*.py"))
    assert paths
    for path in paths:
        for name in _imported(path):
            assert not _is(name, "django"), f"{path.name} imports {name}"
            assert not _is(name, "mahjong"), f"{path.name} imports {name}"


def test_no_module_of_the_tenhou_converter_imports_django():
    paths = sorted(TENHOU.rglob("*.py"))
    assert paths
    for path in paths:
        assert not any(_is(name, "django") for name in _imported(path)), path.name


def test_importing_and_using_the_engine_loads_neither_django_nor_mahjong():
    code = (
        "import sys, scoring, scoring.simulate, scoring.__main__\n"
        "scoring.score({'format': 'tenbou-game/1', 'rules': 'ari-ari',"
        " 'players': ['A', 'B', 'C', 'D'], 'hands': []})\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('django', 'mahjong')]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=SCORING.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_converting_a_tenhou_log_loads_no_django():
    code = (
        "import sys, tenhou, tenhou.__main__\n"
        "game = tenhou.convert_file('tests/data/tenhou/2019103023gm-00a9-0000-f90e0fe9.json')\n"
        "assert tenhou.differences(game) == []\n"
        "assert 'mahjong' in sys.modules\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django']\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_no_module_of_the_seating_planner_imports_django():
    paths = sorted(SEATING.rglob("*.py"))
    assert paths
    for path in paths:
        assert not any(_is(name, "django") for name in _imported(path)), path.name


def test_planning_seats_loads_no_django():
    code = (
        "import sys, seating\n"
        "assert seating.make_plan(range(20), 5).repeats == 0\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django']\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

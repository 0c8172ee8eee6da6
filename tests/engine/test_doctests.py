"""The examples in the docstrings of the pure packages run, and say what they return."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
from pathlib import Path

import pytest

import scoring
import seating
import tenhou

ROOT = Path(__file__).resolve().parents[2]


def _modules(package) -> list[str]:
    names = [package.__name__]
    for info in pkgutil.iter_modules(package.__path__):
        if info.name != "__main__":
            names.append(f"{package.__name__}.{info.name}")
    return names


# tournaments.wording.formatting is pure too: its examples pin how every number looks.
MODULES = (
    _modules(scoring) + _modules(tenhou) + _modules(seating) + ["tournaments.wording.formatting"]
)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_hold(name, monkeypatch):
    # The examples name sample files relative to the repository's root.
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert failed == 0, f"{name}: {failed} example(s) failed (run python -m doctest -v)"


def test_the_pure_packages_have_examples_to_run():
    found = sum(
        len(doctest.DocTestFinder().find(importlib.import_module(name))) for name in MODULES
    )
    assert found > 10
    assert os.path.isdir(ROOT / "tests" / "data" / "tenhou")

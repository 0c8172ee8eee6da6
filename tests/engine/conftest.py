"""Fixtures for engine tests."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import score

from .builders import make_record


@pytest.fixture
def play():
    """Score hands under rules and return the spec's result object."""

    def _play(hands, rules: Any = "ari-ari", **extra):
        return score(make_record(hands, rules, **extra))

    return _play

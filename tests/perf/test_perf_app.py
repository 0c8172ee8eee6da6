"""perf/ is a development-only app: its commands are there in a checkout and in the tests,
and not in production unless asked for."""

from __future__ import annotations

import secrets

import pytest
from django.core.management import get_commands

from tests.tournaments.test_foundation import PRODUCTION_ENV, read_setting


def test_the_benchmark_commands_come_from_the_perf_app():
    commands = get_commands()
    assert commands["bench_pages"] == "perf"
    assert commands["load_test"] == "perf"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("env", "installed"),
    [
        ({}, True),  # a checkout: DEBUG is on
        ({"TENBOU_PERF": "0"}, False),
        ({**PRODUCTION_ENV}, False),
        ({**PRODUCTION_ENV, "TENBOU_PERF": "1"}, True),
    ],
)
def test_the_perf_app_is_installed_in_development_and_only_when_asked_in_production(env, installed):
    env = {**env, "SECRET_KEY": secrets.token_urlsafe(50)}
    assert read_setting("'perf' in settings.INSTALLED_APPS", env=env) == str(installed)


@pytest.mark.slow
def test_a_bad_tenbou_perf_value_is_refused_by_name():
    with pytest.raises(AssertionError, match="TENBOU_PERF must be 1 or 0"):
        read_setting("settings.TENBOU_PERF", env={"TENBOU_PERF": "sometimes"})

"""Replaying real Tenhou games: the engine must pay every hand as Tenhou did.

Each sample log (both formats) is converted into a record that says only what happened;
the engine's payments, final scores and match points must then equal the log's own.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.game import score
from tenhou import convert_file, differences

from .test_tenhou import sample_paths

SAMPLES = sample_paths()


def replay(path):
    game = convert_file(path)
    return game, score(game.record)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_the_engine_pays_every_hand_as_the_log_did(path):
    game, result = replay(path)
    engine = [hand["deltas"] for hand in result["hands"]]
    assert len(engine) == len(game.hand_deltas)
    for number, (ours, theirs) in enumerate(zip(engine, game.hand_deltas, strict=True), 1):
        assert (number, ours) == (number, theirs)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_the_check_the_import_uses_finds_no_difference_under_the_logs_own_rules(path):
    assert differences(convert_file(path)) == []


def test_the_check_the_import_uses_names_the_first_hand_paid_differently():
    game = convert_file(SAMPLES[0])
    game.hand_deltas[0][0] += 100
    problems = differences(game)
    assert problems[0].startswith("hand 1: the engine pays ")
    assert "the log says" in problems[0]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_the_engine_ends_the_game_where_the_log_ends(path):
    _, result = replay(path)
    assert result["finished"] is True
    assert result["ended_by"] in ("last_hand", "bust", "agari_yame", "tenpai_yame")


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_the_engine_reaches_the_logs_final_scores(path):
    game, result = replay(path)
    assert result["final_scores"] == game.final_scores


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_the_engine_reaches_the_logs_match_points(path):
    game, result = replay(path)
    ours = [Decimal(str(p)) for p in result["match_points"]]
    assert all(abs(a - b) < Decimal("0.05") for a, b in zip(ours, game.match_points, strict=True))


def test_the_samples_include_a_bust_and_games_played_to_the_last_hand():
    endings = {replay(path)[1]["ended_by"] for path in SAMPLES}
    assert {"bust", "last_hand"} <= endings

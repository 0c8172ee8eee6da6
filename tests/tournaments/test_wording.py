"""What the app says about endings and hands lives in `tournaments.wording`: every way the
engine can end a game has words, so no page shows a bare code."""

from __future__ import annotations

import pytest

import scoring
from scoring import EndReason, score
from tournaments import wording


@pytest.mark.parametrize("reason", list(EndReason))
def test_every_way_a_game_can_end_has_words(reason):
    words = wording.END_REASONS.get(reason)
    assert words, f"tournaments/wording.py has no words for EndReason.{reason.name}"
    assert words[0].islower() and not words.endswith("."), "words that go after 'because'"
    assert wording.ended_by(reason.value) == words


def test_the_words_are_for_the_engines_reasons_only():
    assert set(wording.END_REASONS) == set(EndReason)


def test_a_game_going_on_has_no_reason_and_an_unknown_code_shows_as_it_is():
    assert wording.ended_by(None) == "" and wording.ended_by("") == ""
    assert wording.ended_by("meteor") == "meteor"


def test_the_engine_gives_its_reasons_as_members_of_the_enum():
    draw = {"result": "draw", "riichi": [], "tenpai": []}
    result = score(
        {
            "format": "tenbou-game/1",
            "rules": "ari-ari",
            "players": ["A", "B", "C", "D"],
            "hands": [draw],
            "ended_early": "time",
        }
    )
    assert result["ended_by"] is EndReason.TIME
    assert wording.ended_by(result["ended_by"]) == "time was called"


def test_hands_are_summed_up_in_one_line():
    names = ["Aki", "Ben", "Chie", "Dan"]
    ron = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
    assert wording.describe_hand(ron, names) == "Ben ron off Aki · 3 han 40 fu"
    draw = {"result": "draw", "riichi": [], "tenpai": [0, 3]}
    assert wording.describe_hand(draw, names) == "Draw · tenpai: Aki, Dan"
    assert wording.win_value({"winner": 0, "yakuman": 2}) == "double yakuman"


@pytest.mark.parametrize("preset", sorted(scoring.PRESETS))
def test_every_preset_is_offered_with_a_description_in_english_and_japanese(preset):
    from django.utils import translation

    import tournaments.forms  # noqa: F401  (the wording of rules is loaded through the forms)
    from tournaments.wording.rules import PRESET_DESCRIPTIONS, preset_choices

    assert preset in PRESET_DESCRIPTIONS
    label = dict(preset_choices())[preset]
    assert label.startswith(f"{preset}: ") and len(label) > len(preset) + 10
    with translation.override("ja"):
        japanese = dict(preset_choices())[preset]
    assert japanese != label, "the description has no Japanese translation"

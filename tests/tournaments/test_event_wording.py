"""The words of the event, session, roster, seating, import and trail pages: translated
when shown, never once at import, and the scripts take theirs from the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.functional import lazy

import scoring
from tenhou import platforms
from tournaments import services
from tournaments.forms import RULE_REFUSALS, RulesForm, capitalised, lazy_format
from tournaments.imports import ACCEPTED_GAMES

ENGINE_RULES = Path(scoring.__file__).with_name("rules.py")


def test_every_rule_refusal_is_a_message_the_engine_gives():
    source = ENGINE_RULES.read_text(encoding="utf-8")
    for message in RULE_REFUSALS:
        assert f'"{message}"' in source, message


@pytest.mark.django_db
def test_an_engine_refusal_is_shown_in_the_forms_words_next_to_its_option(event):
    form = RulesForm({"preset": "ari-ari", "honba_value": "100"}, event=event)
    assert not form.is_valid()
    assert form.errors["honba_value"] == ["Honba value must be a multiple of 300 (0 or more)."]


def test_a_lazily_formatted_message_is_filled_in_when_shown_not_when_made():
    words = {"text": "Up to %(limit)s."}
    message = lazy_format(lazy(lambda: words["text"], str)(), limit=30)
    words["text"] = "%(limit)s at most."  # as if the page's language changed
    assert str(message) == "30 at most."


def test_capitalising_a_label_keeps_its_other_capitals():
    assert capitalised("the EMA rules") == "The EMA rules"
    assert capitalised("") == ""


@pytest.mark.django_db
def test_the_upload_script_takes_its_words_from_the_page(organiser_client, event):
    page = organiser_client.get(reverse("tournaments:import_upload", args=[event.slug]))
    html = page.content.decode()
    assert 'data-text-uploading="Uploading {files} file(s): {percent}"' in html
    assert 'data-text-checking="Checking {files} log(s)…"' in html
    assert 'data-text-failed="The upload failed.' in html
    script = (settings.BASE_DIR / "static/js/import-upload.js").read_text(encoding="utf-8")
    assert 'form.getAttribute("data-text-" + name)' in script


@pytest.mark.django_db
def test_the_round_clock_takes_its_word_for_time_up_from_the_page(organiser_client, session):
    services.start_round_clock(session.pk, 30)
    page = organiser_client.get(
        reverse("tournaments:session", args=[session.event.slug, session.number])
    )
    assert 'data-clock-over-text="Time"' in page.content.decode()
    script = (settings.BASE_DIR / "static/js/round-clock.js").read_text(encoding="utf-8")
    assert 'clock.getAttribute("data-clock-over-text")' in script


def test_the_games_an_event_takes_read_as_the_log_converter_names_them():
    assert set(ACCEPTED_GAMES) == set(platforms.PRESETS)
    for (platform, length), words in ACCEPTED_GAMES.items():
        assert str(words) == platforms.describe_games(platform, length)

"""The Japanese translation is whole: every message of the catalogue is translated (none
fuzzy, placeholders kept), every string the code marks is in the catalogue, and no template
shows text outside the translation tags."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

from tests.template_text import untranslated_text

CATALOGUE = settings.BASE_DIR / "locale" / "ja" / "LC_MESSAGES" / "django.po"
TEMPLATES = settings.BASE_DIR / "templates"
# %(name)s, %s, %d ... and {name} / {0}: what must survive translation unchanged.
# What `make messages` leaves out (besides hidden folders such as .venv).
SKIPPED_BY_MESSAGES = {"locale", "tests", "docs", "staticfiles", "node_modules"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sdifr]|%[sdifr]|\{\w*\}")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def catalogue_problems(catalogue: polib.POFile) -> list[str]:
    """What keeps a catalogue from being complete, one line per message."""
    problems = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        name = f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"
        if entry.fuzzy:
            problems.append(f"fuzzy: {name}")
            continue
        if entry.msgid_plural:
            forms = [
                entry.msgstr_plural.get(i, "") for i in range(max(1, len(entry.msgstr_plural)))
            ]
            wanted = placeholders(entry.msgid_plural)
        else:
            forms = [entry.msgstr]
            wanted = placeholders(entry.msgid)
        if not all(form.strip() for form in forms):
            problems.append(f"untranslated: {name}")
            continue
        for form in forms:
            if placeholders(form) != wanted:
                problems.append(f"placeholders {placeholders(form)} instead of {wanted}: {name}")
    return problems


def test_the_japanese_catalogue_translates_every_message():
    catalogue = polib.pofile(str(CATALOGUE), encoding="utf-8")
    assert len(catalogue) > 100, "the catalogue holds the app's messages"
    assert catalogue.metadata["Plural-Forms"].startswith("nplurals=1;")
    assert catalogue_problems(catalogue) == []


def test_the_catalogue_check_finds_untranslated_fuzzy_and_broken_messages():
    catalogue = polib.POFile()
    catalogue.append(polib.POEntry(msgid="Save", msgstr="保存"))
    catalogue.append(polib.POEntry(msgid="Delete", msgstr=""))
    catalogue.append(polib.POEntry(msgid="Edit", msgstr="編集", flags=["fuzzy"]))
    catalogue.append(polib.POEntry(msgid="Table %(table)s", msgstr="%(tbl)s 卓"))
    catalogue.append(polib.POEntry(msgid="{name} won", msgstr="和了"))
    catalogue.append(
        polib.POEntry(
            msgid="One game",
            msgid_plural="%(count)s games",
            msgstr_plural={0: "%(count)s 対局"},
        )
    )
    catalogue.append(
        polib.POEntry(msgid="One hand", msgid_plural="%(count)s hands", msgstr_plural={0: ""})
    )
    assert catalogue_problems(catalogue) == [
        "untranslated: 'Delete'",
        "fuzzy: 'Edit'",
        "placeholders ['%(tbl)s'] instead of ['%(table)s']: 'Table %(table)s'",
        "placeholders [] instead of ['{name}']: '{name} won'",
        "untranslated: 'One hand'",
    ]


@pytest.mark.skipif(not shutil.which("xgettext"), reason="gettext not installed: make messages")
def test_every_message_the_code_marks_is_in_the_catalogue(tmp_path, settings, monkeypatch):
    # makemessages over the project's sources, seen through links from an empty folder so
    # that it writes a fresh catalogue there and leaves the real one alone.
    sources = tmp_path / "src"
    sources.mkdir()
    for entry in settings.BASE_DIR.iterdir():
        if entry.name.startswith(".") or entry.name in SKIPPED_BY_MESSAGES:
            continue
        (sources / entry.name).symlink_to(entry)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(sources)
    call_command(
        "makemessages",
        locale=["ja"],
        extensions=["html", "txt", "svg", "py"],
        symlinks=True,
        verbosity=0,
    )
    fresh = polib.pofile(str(tmp_path / "locale" / "ja" / "LC_MESSAGES" / "django.po"))
    marked = {(e.msgctxt, e.msgid) for e in fresh if not e.obsolete}
    known = {(e.msgctxt, e.msgid) for e in polib.pofile(str(CATALOGUE)) if not e.obsolete}
    assert len(marked) > 5
    missing = sorted(f"{ctx or ''} {msgid!r}".strip() for ctx, msgid in marked - known)
    assert missing == [], "run `make messages` and translate the new messages"


def every_template() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.is_file())


@pytest.mark.parametrize("template", every_template(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_shows_text_outside_the_translation_tags(template):
    findings = untranslated_text(template.read_text(encoding="utf-8"))
    assert [str(f) for f in findings] == []


SAMPLE = """{% load i18n %}{# a note for developers #}
<h1>{% translate "Standings" %}</h1>
<p>Bare words</p>
<a href="{% url 'x' %}" title="Open the sheet">{{ game }}</a>
<img src="x.png" alt="{% translate "Logo" %}">
{% blocktranslate trimmed with n=game.table %}Table {{ n }}{% endblocktranslate %}
{% comment %}Not shown{% endcomment %}
<span>{{ count }} game{{ count|pluralize:"s" }}</span>
<time datetime="{{ when|date:'c' }}">{{ when|date:"j F Y" }}</time>
{{ when|date:"SHORT_DATE_FORMAT" }}
<input placeholder="Name" aria-label="{{ label }}">{% blocktranslate with d=day|date:"j F Y" %}
{{ d }}{% endblocktranslate %}<svg id="{{ chart_id|default:'chart' }}"></svg>
<p>Tenbou · 3 – 1 ×</p><p>{{ names|join:", " }}</p>
<script src="x.js"></script>
"""


def test_the_scan_finds_bare_text_and_passes_translated_text():
    found = [(f.line, f.text) for f in untranslated_text(SAMPLE)]
    assert found == [
        (3, "Bare words"),
        (4, 'title="Open the sheet"'),
        (8, '{{ count|pluralize:"s" }}'),
        (8, "\u2063 game\u2063"),
        (9, '{{ when|date:"j F Y" }}'),
        (11, '{% blocktranslate with d=day|date:"j F Y" %}'),
        (11, 'placeholder="Name"'),
    ]
    # Nothing after line 11: the blocktranslate's text and the id default are fine.


def test_the_scan_passes_a_template_with_every_word_translated():
    assert (
        untranslated_text('{% load i18n %}<p title="{% translate "Hi" %}">{% translate "Hi" %}</p>')
        == []
    )

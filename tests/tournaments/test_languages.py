"""Tenbou speaks English and Japanese: the language follows the browser's Accept-Language
until someone picks one with the switcher in the page header, which a cookie remembers.
Yaku are named in the language shown, and the catalogues compile without gettext."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import translation

from tournaments import wording
from tournaments.translations import compile_catalogue

HOME = "/"


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


@pytest.mark.django_db
def test_a_browser_without_a_preference_gets_english(client):
    response = client.get(HOME)
    assert html_lang(response) == "en"
    assert ">Events</a>" in response.content.decode()


@pytest.mark.django_db
def test_the_language_follows_the_browsers_accept_language(client):
    response = client.get(HOME, headers={"accept-language": "ja,en;q=0.5"})
    text = response.content.decode()
    assert html_lang(response) == "ja"
    assert ">大会</a>" in text and "ログイン" in text
    assert response.headers["Content-Language"] == "ja"
    assert "Accept-Language" in response.headers["Vary"]


@pytest.mark.django_db
def test_a_language_the_app_does_not_speak_falls_back_to_english(client):
    response = client.get(HOME, headers={"accept-language": "fr-FR,fr"})
    assert html_lang(response) == "en"


@pytest.mark.django_db
def test_the_header_offers_the_other_language_in_its_own_name(client):
    text = client.get(HOME).content.decode()
    switcher = re.search(r'<form[^>]*class="language-switch".*?</form>', text, re.S).group(0)
    assert 'action="/i18n/setlang/"' in switcher and 'method="post"' in switcher
    assert 'name="csrfmiddlewaretoken"' in switcher
    assert '<input type="hidden" name="next" value="/">' in switcher
    offer = r'<button type="submit" name="language" value="ja"[^>]*>日本語</button>'
    assert re.search(offer, switcher)
    assert re.search(r'<span class="language-current" lang="en"[^>]*>English</span>', switcher)
    assert "<script" not in switcher and "style=" not in switcher


@pytest.mark.django_db
def test_the_switcher_remembers_the_choice_over_the_browsers_language(client):
    response = client.post(
        "/i18n/setlang/",
        {"language": "ja", "next": "/players/?page=2"},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 302 and response["Location"] == "/players/?page=2"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "ja"
    assert int(cookie["max-age"]) >= 300 * 24 * 60 * 60, "kept across browser restarts"
    later = client.get(HOME, headers={"accept-language": "en"})
    assert html_lang(later) == "ja"
    back = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert back.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert html_lang(client.get(HOME, headers={"accept-language": "ja"})) == "en"


@pytest.mark.django_db
def test_the_switcher_refuses_an_unknown_language_and_a_foreign_next(client):
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/players/"})
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    response = client.post("/i18n/setlang/", {"language": "ja", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


@pytest.mark.django_db
def test_the_switcher_needs_the_csrf_token(client):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert response.status_code == 403


def test_yaku_are_named_in_the_active_language():
    with translation.override("en"):
        assert wording.yaku_name("pinfu") == "Pinfu"
        assert wording.yaku_name("menzen_tsumo") == "Menzen tsumo"
    with translation.override("ja"):
        assert wording.yaku_name("pinfu") == "平和"
        assert wording.yaku_name("riichi") == "立直"
    with translation.override("ja"):
        assert wording.yaku_name("no_such_yaku") == "no_such_yaku"


def test_the_hand_statistics_name_yaku_in_the_language_shown():
    win = {"winner": 0, "loser": 1, "han": 2, "fu": 30, "yaku": ["riichi", "pinfu"]}
    hand = {"result": "ron", "wins": [win]}
    names = ["Aki", "Ben", "Chie", "Dan"]
    with translation.override("en"):
        assert wording.describe_stats(hand, names)[0].startswith("Aki: Riichi, Pinfu")
    with translation.override("ja"):
        assert wording.describe_stats(hand, names)[0].startswith("Aki: 立直, 平和")


PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"

msgid "Save"
msgstr "保存"

#, fuzzy
msgid "Delete"
msgstr "消す"

msgid "%(n)s game"
msgid_plural "%(n)s games"
msgstr[0] "%(n)s 対局"
"""


def test_a_catalogue_compiles_without_gettext_and_leaves_guesses_out(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(PO, encoding="utf-8")
    assert compile_catalogue(po) is True
    assert compile_catalogue(po) is False, "an up-to-date .mo is left alone"
    with (tmp_path / "django.mo").open("rb") as mo:
        import gettext

        catalogue = gettext.GNUTranslations(mo)
    assert catalogue.gettext("Save") == "保存"
    assert catalogue.gettext("Delete") == "Delete", "a fuzzy translation is not used"
    assert catalogue.ngettext("%(n)s game", "%(n)s games", 3) == "%(n)s 対局"


def test_the_compile_command_reports_a_broken_catalogue(tmp_path, settings):
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text('msgid "Save"\nmsgstr\n', encoding="utf-8")
    settings.LOCALE_PATHS = [tmp_path]
    with pytest.raises(CommandError, match="Cannot compile a translation catalogue"):
        call_command("compile_translations")
    assert not (folder / "django.mo").exists(), "nothing half-written is left"


def test_the_compile_command_compiles_every_catalogue(tmp_path, settings, capsys):
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text(PO, encoding="utf-8")
    settings.LOCALE_PATHS = [tmp_path]
    call_command("compile_translations")
    assert (folder / "django.mo").exists()
    call_command("compile_translations")
    assert "up to date" in capsys.readouterr().out

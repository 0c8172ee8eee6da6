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
        assert wording.describe_stats(hand, names)[0].startswith("Aki: 立直、平和")


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


# The page frame, the accounts pages, their messages and the email, in Japanese.

JA = {"accept-language": "ja"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, words",
    [
        ("/accounts/login/", ["ログイン", "パスワードをお忘れですか？"]),
        ("/accounts/password/reset/", ["パスワードの再設定", "リンクを送信"]),
        ("/accounts/password/reset/sent/", ["メールを確認してください"]),
        ("/accounts/password/reset/done/", ["パスワードを設定しました"]),
        ("/", ["大会", "リーチ麻雀のクラブと大会のための点数・ポイント・順位表。"]),
        ("/no-such-page/", ["見つかりません", "大会一覧に戻る"]),
    ],
)
def test_the_accounts_pages_and_the_frame_speak_japanese(client, path, words):
    text = client.get(path, headers=JA).content.decode()
    for word in words:
        assert word in text
    assert "Forgot your password?" not in text and "Back to the events" not in text


@pytest.mark.django_db
def test_a_locked_out_login_is_told_in_japanese(client, organiser):
    for _ in range(6):
        response = client.post(
            "/accounts/login/", {"username": "organiser", "password": "guess"}, headers=JA
        )
    assert response.status_code == 429
    assert "ログイン失敗が多すぎます。10分後にもう一度試す" in response.content.decode()


@pytest.mark.django_db
def test_the_password_reset_email_is_written_in_the_language_of_the_request(client, organiser):
    from django.core import mail

    organiser.email = "olive@example.org"
    organiser.save()
    client.post("/accounts/password/reset/", {"email": "olive@example.org"}, headers=JA)
    message = mail.outbox[0]
    assert message.subject == "Tenbou のパスワード再設定"
    assert "Tenbou アカウント「organiser」のパスワード再設定が申し込まれました。" in message.body
    assert re.search(r"http://testserver/accounts/password/reset/\S+/", message.body)
    client.post("/accounts/password/reset/", {"email": "olive@example.org"})
    assert mail.outbox[1].subject == "Reset your Tenbou password"
    assert 'the Tenbou account "organiser"' in mail.outbox[1].body


@pytest.mark.django_db
def test_organiser_messages_speak_japanese(organiser_client, django_user_model):
    from tournaments.models import Event

    event = Event.objects.create(name="木曜リーグ", slug="thursday", starts_on="2026-11-05")
    event.organisers.add(django_user_model.objects.get(username="organiser"))
    django_user_model.objects.create_user(username="helper", password="helper-long-password")
    response = organiser_client.post(
        "/events/thursday/organisers/", {"who": "helper"}, headers=JA, follow=True
    )
    assert (
        "ユーザー名またはメールアドレスが「helper」のアカウントがあれば、木曜リーグ の運営に招待"
        "しました。" in response.content.decode()
    )


HANDS = [
    (
        {"result": "ron", "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]},
        "Ben ron off Aki · 3 han 40 fu",
        "BenがAkiからロン · 3翻40符",
    ),
    (
        {"result": "tsumo", "wins": [{"winner": 2, "han": 6, "fu": 30, "pao": 3}]},
        "Chie tsumo · 6 han haneman (pao Dan)",
        "Chieがツモ · 6翻 跳満（包: Dan）",
    ),
    (
        {
            "result": "ron",
            "wins": [
                {"winner": 1, "loser": 0, "han": 1, "fu": 30},
                {"winner": 2, "loser": 0, "han": 0, "yakuman": 2},
            ],
        },
        "Double ron off Aki · Ben 1 han 30 fu, Chie double yakuman",
        "Akiからダブロン · Ben 1翻30符、Chie ダブル役満",
    ),
    ({"result": "draw", "tenpai": [0, 3]}, "Draw · tenpai: Aki, Dan", "流局 · 聴牌: Aki、Dan"),
    ({"result": "draw", "tenpai": []}, "Draw · all noten", "流局 · 全員ノーテン"),
    (
        {"result": "nagashi", "nagashi": [1], "tenpai": [1, 2]},
        "Nagashi mangan · Ben · tenpai: Ben, Chie",
        "流し満貫 · Ben · 聴牌: Ben、Chie",
    ),
    (
        {"result": "abort", "reason": "nine_terminals"},
        "Abortive draw · nine terminals",
        "途中流局 · 九種九牌",
    ),
    ({"result": "chombo", "offender": 3}, "Chombo · Dan", "チョンボ · Dan"),
]


@pytest.mark.parametrize("hand, english, japanese", HANDS)
def test_hands_are_described_in_the_language_shown(hand, english, japanese):
    from scoring import resolve_rules

    names = ["Aki", "Ben", "Chie", "Dan"]
    rules = resolve_rules("ari-ari")
    with translation.override("en"):
        assert wording.describe_hand(hand, names, rules=rules) == english
    with translation.override("ja"):
        assert wording.describe_hand(hand, names, rules=rules) == japanese


def test_endings_places_winds_and_choices_in_japanese():
    from tournaments.models import WINDS, Hand
    from tournaments.wording import formatting

    with translation.override("ja"):
        assert wording.ended_by("time") == "時間打ち切り"
        assert formatting.placement(1) == "1着" and formatting.placement(4) == "4着"
        assert [str(w) for w in WINDS] == ["東", "南", "西", "北"]
        assert Hand.Result.DRAW.label == "荒牌流局"
        assert wording.yakuman_name(4) == "4倍役満"
    with translation.override("en"):
        assert formatting.placement(2) == "2nd" and wording.yakuman_name(4) == "4× yakuman"


@pytest.mark.django_db
def test_sessions_and_games_name_themselves_in_the_language_shown(game):
    with translation.override("en"):
        assert str(game).endswith("· session 1 · table 1")
    with translation.override("ja"):
        assert str(game).endswith("· 第1回戦 · 1番卓")


def test_dates_are_written_for_the_language():
    import datetime

    from django.utils.formats import date_format

    day = datetime.date(2026, 11, 23)
    with translation.override("en"):
        assert date_format(day) == "23 November 2026"
        assert date_format(day, "SHORT_DATE_FORMAT") == "23 Nov 2026"
    with translation.override("ja"):
        assert date_format(day) == "2026年11月23日"


@pytest.mark.parametrize(
    "start, end, english, japanese",
    [
        ((2026, 9, 3), None, "3 Sep 2026", "2026年9月3日"),
        ((2026, 10, 10), (2026, 10, 11), "10–11 Oct 2026", "2026年10月10日–11日"),
        ((2026, 9, 30), (2026, 10, 2), "30 Sep – 2 Oct 2026", "2026年9月30日 – 10月2日"),
        ((2026, 12, 30), (2027, 1, 2), "30 Dec 2026 – 2 Jan 2027", "2026年12月30日 – 2027年1月2日"),
    ],
)
def test_event_dates_are_written_for_the_language(start, end, english, japanese):
    import datetime

    from tournaments.tables import date_range

    start = datetime.date(*start)
    end = datetime.date(*end) if end else None
    with translation.override("en"):
        assert date_range(start, end) == english
    with translation.override("ja"):
        assert date_range(start, end) == japanese

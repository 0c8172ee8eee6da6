"""The words of the event, session, roster, seating, import and trail pages: translated
when shown, never once at import, and the scripts take theirs from the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.functional import lazy

import scoring
from tenhou import TenhouGame, platforms
from tournaments import services
from tournaments.forms import RULE_REFUSALS, RulesForm, capitalised, lazy_format
from tournaments.imports import (
    ACCEPTED_GAMES,
    ONE_GAME,
    PLAYED_ON,
    game_refusal,
    played_under,
)

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
    assert set(ACCEPTED_GAMES) == set(ONE_GAME) == set(PLAYED_ON) == set(platforms.PRESETS)
    for (platform, length), words in ACCEPTED_GAMES.items():
        assert str(words) == platforms.describe_games(platform, length)
        assert str(ONE_GAME[platform, length]) == platforms.describe_game(platform, length)
        assert str(PLAYED_ON[platform, length]) == platforms.describe(platform, length)


@pytest.mark.parametrize("ruleset", ["", "玉の間南喰赤"])
def test_a_refused_log_reads_as_the_log_converter_says_it_in_english(ruleset):
    for platform, length in platforms.PRESETS:
        game = TenhouGame({}, None, [], [], [], [], ruleset, platform=platform, length=length)
        assert played_under(game) == game.played_under
        for preset in [*scoring.PRESETS, "tenhou-east"]:
            for event_length in (platforms.HANCHAN, platforms.TONPUUSEN):
                expected = game.refusal(preset, event_length)
                assert game_refusal(game, preset, event_length) == expected


# In Japanese


@pytest.fixture
def japanese():
    """Headers asking for Japanese."""
    return {"accept-language": "ja"}


@pytest.mark.django_db
def test_the_event_page_and_its_rules_in_words_read_in_japanese(client, event, japanese):
    event.rules_overrides = {"kiriage": True, "ties": "split"}
    event.save()
    html = client.get(event.get_absolute_url(), headers=japanese).content.decode()
    assert ">参加者名簿</a>" in html and "<h2>回戦</h2>" in html
    assert "ari-ari; 切り上げ満貫 あり; 同着：ウマを分け合う" in html
    assert "基本アリアリルール：配給原点25,000" in html
    assert "2026年9月3日" in html
    english = client.get(event.get_absolute_url(), headers={"accept-language": "en"})
    assert "ari-ari; kiriage on; ties: split uma" in english.content.decode()


@pytest.mark.django_db
def test_the_rules_form_reads_in_japanese(organiser_client, event, japanese):
    url = reverse("tournaments:event_rules", args=[event.slug])
    html = organiser_client.get(url, headers=japanese).content.decode()
    assert "<legend>点数とポイント</legend>" in html
    assert "プリセットの既定値（ari-ari）：なし。" in html
    assert 'aria-label="1着のウマ"' in html
    response = organiser_client.post(
        url, {"preset": "ari-ari", "honba_value": "100"}, headers=japanese
    )
    assert "本場の点は0以上の300の倍数にしてください。" in response.content.decode()


@pytest.mark.django_db
def test_a_limit_written_into_a_message_at_import_still_reads_in_japanese(
    organiser_client, event, japanese
):
    response = organiser_client.post(
        reverse("tournaments:session_create", args=[event.slug]),
        {"number": "99999", "date": "2026-09-10"},
        headers=japanese,
    )
    assert "回戦の番号は10,000までです。小さい番号を選んでください。" in response.content.decode()
    assert not event.sessions.exists()


@pytest.mark.django_db
def test_the_roster_says_what_it_added_in_japanese(organiser_client, event, japanese):
    response = organiser_client.post(
        reverse("tournaments:roster_paste", args=[event.slug]),
        {"names": "Aki\nBen\n\nAki", "create": "on"},
        headers=japanese,
        follow=True,
    )
    html = response.content.decode()
    assert "2名を名簿に追加しました。うち2名はTenbouに新しく登録しました（Aki, Ben）。" in html
    assert "2回書かれた名前は1回だけ追加しました：Aki。" in html
    assert "空行1行は除きました。" in html


@pytest.mark.django_db
def test_the_trail_csv_has_japanese_headings_for_a_japanese_reader(
    organiser_client, game, japanese
):
    response = organiser_client.get(
        reverse("tournaments:event_trail_csv", args=[game.session.event.slug]), headers=japanese
    )
    first = b"".join(response.streaming_content).decode().lstrip("\ufeff").splitlines()[0]
    assert first.startswith("日時（UTC）,回戦,卓,局,変更,変更者,卓リンクから,")


@pytest.mark.django_db
def test_the_upload_script_gets_japanese_words_from_a_japanese_page(
    organiser_client, event, japanese
):
    url = reverse("tournaments:import_upload", args=[event.slug])
    html = organiser_client.get(url, headers=japanese).content.decode()
    assert 'data-text-uploading="{files}件のファイルをアップロード中：{percent}"' in html


@pytest.mark.django_db
def test_the_log_check_says_where_a_log_was_played_and_why_it_is_refused_in_japanese(
    client, organiser, japanese
):
    from tests.tournaments.test_online_imports import GOLD_EAST, JADE, make_event

    event = make_event(organiser, "soul", "mahjongsoul-east")
    client.force_login(organiser)
    files = [open(path, "rb") for path in (GOLD_EAST, JADE)]
    try:
        response = client.post(
            reverse("tournaments:import_upload", args=[event.slug]),
            {"files": files, "session": "1"},
            headers=japanese,
            follow=True,
        )
    finally:
        for fh in files:
            fh.close()
    html = " ".join(response.content.decode().split())
    assert "2件中1件の牌譜を第1回戦に取り込めます。" in html
    assert "雀魂・東風戦・金の間東喰赤 · 5局" in html
    assert (
        "この牌譜は雀魂の半荘戦（玉の間南喰赤）のものです。この大会は雀魂の東風戦"
        "（ルールのプリセットmahjongsoul-east）です。mahjongsoulプリセットの大会に取り込んでください。"
    ) in html

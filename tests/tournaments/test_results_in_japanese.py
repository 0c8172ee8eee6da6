"""The standings, results, statistics, sheets, player pages and the live screen in
Japanese: the words follow each visitor's language, cached HTML and files are kept per
language, CSV and XLSX headers are translated, and the JSON export keeps its English keys
(scripts read them)."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import openpyxl
import pytest
from django.utils import translation

from tests.tournaments.builders import small_league
from tournaments import services
from tournaments.views.sheets import round_name

from .test_sheets import HANDS, game_sheet_url, hands_game, rows, sheet_url
from .test_standings_views import parse_table, url

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def league(organiser):
    return small_league(organiser, slug="league")


def page_text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", unescape(response.content.decode())))


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


# The standings page and its cached table


def test_the_cached_standings_table_is_worded_in_each_visitors_language(client, league):
    standings = url("standings", "league")

    english = parse_table(client.get(standings, **EN))
    japanese = parse_table(client.get(standings, **JA))
    english_again = parse_table(client.get(standings, **EN))

    assert english.headers[:6] == ["Rank", "Player", "Games", "Total", "Avg place", "1st"]
    assert japanese.headers[:6] == ["順位", "プレイヤー", "対局数", "合計", "平均着順", "1着"]
    assert "1回戦ポイント" in japanese.headers and "1回戦着順" in japanese.headers
    assert english_again.headers == english.headers
    assert japanese.rows == english.rows, "the same numbers in either language"


def test_the_standings_page_reads_in_japanese_around_the_table(client, league):
    response = client.get(url("standings", "league"), {"first_session": "2"}, **JA)

    text = page_text(response)
    assert "第2回戦以降の終了した対局 1件。" in text
    assert "順位は合計ポイント、次に1着の回数の多さ" in text
    assert "この表をダウンロード:" in text
    assert "開始回戦" in text and "最低対局数" in text
    english = page_text(client.get(url("standings", "league"), {"first_session": "2"}, **EN))
    assert "1 finished game from session 2 on." in english


def test_a_bad_filter_is_refused_in_japanese(client, league):
    response = client.get(
        url("standings", "league"), {"first_session": "2", "last_session": "1"}, **JA
    )

    text = page_text(response)
    assert "開始回戦が終了回戦より後になっています。" in text
    assert "絞り込みの値に解釈できないものがあった" in text


# Exports


@pytest.mark.parametrize("name", ["standings", "results", "statistics"])
def test_csv_headers_follow_the_language_and_the_numbers_do_not(client, league, name):
    english = csv_rows(client.get(url(name, "league"), {"_export": "csv"}, **EN))
    japanese = csv_rows(client.get(url(name, "league"), {"_export": "csv"}, **JA))

    assert japanese[0] != english[0]
    assert "プレイヤー" in japanese[0] and "Player" in english[0]
    assert len(japanese) == len(english) > 1
    if name != "results":  # the results' wind column is a word too
        assert japanese[1:] == english[1:]


def test_xlsx_headers_and_sheet_title_are_in_japanese(client, league):
    response = client.get(url("standings", "league"), {"_export": "xlsx"}, **JA)

    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == "順位表"
    headers = [cell.value for cell in next(sheet.iter_rows(max_row=1))]
    assert headers[:4] == ["順位", "プレイヤー", "対局数", "合計"]


@pytest.mark.parametrize("name", ["standings", "results", "statistics"])
def test_the_json_export_keeps_its_english_keys_in_any_language(client, league, name):
    # Japanese first: a cached file must not carry the first visitor's language either.
    japanese = client.get(url(name, "league"), {"_export": "json"}, **JA)
    english = client.get(url(name, "league"), {"_export": "json"}, **EN)

    assert japanese.content == english.content
    records = json.loads(japanese.content)
    assert records and all(key.isascii() for record in records for key in record)


def test_the_json_keys_of_the_standings_are_the_english_headers(client, league):
    records = json.loads(client.get(url("standings", "league"), {"_export": "json"}, **JA).content)

    keys = list(records[0])
    assert keys[:11] == [
        "Rank", "Player", "Games", "Total", "Avg place",
        "1st", "2nd", "3rd", "4th", "Avg score", "Penalties",
    ]  # fmt: skip
    assert keys[11:13] == ["S1 pts", "S1 places"]


# Sheets for print


def test_the_scoresheet_reads_in_japanese(client, session, players):
    assert hands_game(session, players).is_finished

    response = client.get(sheet_url(session), **JA)

    text = page_text(response)
    assert "スコアシート" in text and "1卓" in text and "第1回戦" in text
    grid = rows(unescape(response.content.decode()), "scoresheet")
    labels = [row[0] for row in grid[1:]]
    assert labels[:4] == ["素点", "ポイント", "着順", "合計"]
    assert "総合計" in labels and "小計" in labels
    assert "第1対局" in text
    for words in ("配給原点 25,000", "返し 30,000", "ウマ", "オカ"):
        assert words in text


def test_the_blank_scoresheet_reads_in_japanese(client, session, players):
    hands_game(session, players, HANDS[:2])

    text = page_text(client.get(sheet_url(session, blank=True), **JA))

    assert "白紙のスコアシート" in text and "記入済みのシート" in text


def test_the_game_sheet_reads_in_japanese_with_rounds_in_kanji(client, session, players):
    game = hands_game(session, players)

    response = client.get(game_sheet_url(game), **JA)

    grid = rows(unescape(response.content.decode()), "hand-sheet")
    assert grid[0][:5] == ["#", "局", "親", "結果", "立直"]
    assert grid[1][:2] == ["", "開始"]
    assert [row[1] for row in grid[2:5]] == ["東1-0", "東2-0", "東3-1"]
    assert grid[6][1] == "南1-0"
    assert [row[1] for row in grid[-3:]] == ["最終持ち点", "着順", "ポイント"]
    text = page_text(response)
    assert "対局終了の理由" in text
    assert "各プレイヤーの欄は、上段がその局の収支" in text


def test_a_game_in_progress_says_in_japanese_what_comes_next(client, session, players):
    game = hands_game(session, players, HANDS[:3])

    text = page_text(client.get(game_sheet_url(game), **JA))

    assert "対局中" in text
    assert "次の局: 東4-0、親はDan。" in text


def test_round_names_follow_the_language():
    with translation.override("en"):
        assert [round_name("E3-1"), round_name("S1-0"), round_name("")] == ["E3-1", "S1-0", ""]
    with translation.override("ja"):
        assert [round_name("E3-1"), round_name("W4-2"), round_name("N1-0")] == [
            "東3-1",
            "西4-2",
            "北1-0",
        ]


# The live screen


def test_the_live_screen_is_cached_per_language(client, session, game):
    services.add_hand(game.pk, 1, HANDS[0])
    live = url("live", session.event.slug)

    japanese = client.get(live, **JA).content.decode()
    english_poll = client.get(live, **EN, **HTMX).content.decode()
    japanese_poll = client.get(live, **JA, **HTMX).content.decode()

    assert '<html lang="ja">' in japanese
    for words in ("順位表", "卓", "対局中", "東2-0", "第1回戦"):
        assert words in japanese and words in japanese_poll
    assert "Playing" in english_poll and "E2-0" in english_poll and "対局中" not in english_poll
    assert 'class="live-card status-playing"' in japanese_poll


# Statistics and player pages


def test_the_statistics_page_reads_in_japanese(client, league):
    response = client.get(url("statistics", "league"), **JA)

    headers = parse_table(response).headers
    assert headers[:5] == ["プレイヤー", "対局数", "局数", "和了数", "和了率"]
    text = page_text(response)
    assert "プレイヤーの成績統計" in text and "各列の数え方" in text
    assert "局数に対する割合" in text


def test_the_player_page_reads_in_japanese(client, session, players):
    hands_game(session, players)

    response = client.get(url("player", players[0].pk), **JA)

    text = page_text(response)
    for words in ("平均着順", "1着–2着–3着–4着", "対局一覧", "成績統計", "和了数", "放銃"):
        assert words in text
    html = response.content.decode()
    assert "ポイントの累計</title>" in html and "対局（対局順）" in html
    assert 'aria-label="最終着順: 1着 1回, 2着 0回, 3着 0回, 4着 0回"' in html
    assert re.search(r"<desc [^>]*>1対局のポイントの累計: 合計\+69\.3", html)
    english = client.get(url("player", players[0].pk), **EN).content.decode()
    assert 'aria-label="Final places: 1st 1, 2nd 0, 3rd 0, 4th 0"' in english
    assert "Cumulative match points over 1 game: +69.3 in all" in english

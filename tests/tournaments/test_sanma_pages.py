"""The reading pages of a three-player (sanma) event: the game page, the game sheet, the
scoresheet, standings, results, statistics, a player's page, the session page and the live
screen show three seats (East, South, West) and places 1 to 3, with the numbers of a
tenhou-sanma game worked out by hand (tests/tournaments/sanma_builders.py); four-player
events keep their four seats."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from html import unescape

import pytest
from django.urls import reverse

import scoring
from tests.tournaments.builders import final_game
from tests.tournaments.sanma_builders import (
    SANMA_FINAL,
    SANMA_HANDS,
    SANMA_PLACES,
    SANMA_POINTS,
    sanma_event,
    sanma_game,
)
from tournaments import services
from tournaments.models import Event, GameSeat, Session
from tournaments.scoresheet import build_sheet
from tournaments.views import standings as standings_views

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def content(response) -> str:
    assert response.status_code == 200
    return unescape(response.content.decode())


def text(html: str) -> str:
    """The words of some HTML, tags and runs of white space as single spaces."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def rows(html: str, css_class: str) -> list[list[str]]:
    """The cells' text of each row of the first table with this class."""
    table = re.search(rf'<table class="[^"]*\b{css_class}\b[^"]*">(.*?)</table>', html, re.S)
    return [
        [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    ]


def headers(html: str, css_class: str) -> list[str]:
    table = re.search(rf'<table class="[^"]*\b{css_class}\b[^"]*">(.*?)</table>', html, re.S)
    head = re.search(r"<thead[^>]*>(.*?)</thead>", table.group(1), re.S).group(1)
    return [text(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]


def signed(value: str) -> str:
    return value.replace("-", MINUS)


@pytest.fixture
def sanma(organiser) -> Event:
    """Session 1: Aki, Ben and Chie play the hand-by-hand game and then a game of final
    scores at table 1; Dan, Eri and Fumi a game of final scores at table 2; Gen, Hana and
    Ike are two hands into a game at table 3."""
    event = sanma_event(organiser)
    session = event.sessions.get()
    sanma_game(session, ["Aki", "Ben", "Chie"], hands=SANMA_HANDS)
    # 45,000 / 30,000 / 30,000: Aki +5 +20 +15 = +40.0; Ben and Chie tie, Ben (nearer the
    # first dealer) places 2nd: -10.0; Chie 3rd: -10 - 20 = -30.0.
    sanma_game(session, ["Aki", "Ben", "Chie"], final_scores=[45000, 30000, 30000])
    # 50,000 / 35,000 / 20,000: +10 +20 +15 = +45.0, -5.0, -20 - 20 = -40.0.
    sanma_game(session, ["Dan", "Eri", "Fumi"], table=2, final_scores=[50000, 35000, 20000])
    sanma_game(session, ["Gen", "Hana", "Ike"], table=3, hands=SANMA_HANDS[:2])
    return event


def game_at(event: Event, table: int, number: int = 0):
    return event.sessions.get().games.filter(table_number=table).order_by("pk")[number]


# The numbers


def test_a_finished_three_player_game_stores_the_places_and_points_worked_out_by_hand(sanma):
    game = game_at(sanma, 1)
    seats = list(game.seats.order_by("seat"))
    assert game.is_finished and game.ended_by == "last_hand"
    assert [s.score for s in seats] == SANMA_FINAL
    assert [s.placement for s in seats] == SANMA_PLACES
    assert [s.match_points for s in seats] == [Decimal(p) for p in SANMA_POINTS]
    # The engine, given the same record, agrees.
    result = scoring.replay(scoring.parse_record(services.record_of(game)))
    assert list(result.final_scores) == SANMA_FINAL
    assert list(result.placements) == SANMA_PLACES
    assert sum(result.match_points) == 0


# The game page


def test_the_game_page_of_a_three_player_game_shows_three_seats_and_no_north(client, sanma):
    html = content(client.get(url("game", game_at(sanma, 1).pk)))
    cards = re.findall(r'<li class="seat-card[^"]*">(.*?)</li>', html, re.S)
    assert [text(card) for card in cards] == [
        f"E Aki 29,400 3rd · {signed('-30.6')}",
        "S Ben 46,100 1st · +41.1",
        f"W Chie 29,500 2nd · {signed('-10.5')}",
    ]
    assert 'class="seat-cards seats-3 finished"' in html
    assert ">N<" not in html and "North" not in html and "4th" not in html
    assert rows(html, "final-table")[1:] == [
        ["1st", "Ben", "46,100", "+41.1"],
        ["2nd", "Chie", "29,500", signed("-10.5")],
        ["3rd", "Aki", "29,400", signed("-30.6")],
    ]


def test_the_hands_of_a_three_player_game_have_three_columns_and_rounds_of_three(client, sanma):
    html = content(client.get(url("game", game_at(sanma, 1).pk)))
    assert headers(html, "hand-list") == ["Round", "Aki", "Ben", "Chie"]
    # The line above each hand's numbers spans the round and the three seats.
    assert html.count('<td colspan="4">') == len(SANMA_HANDS)
    assert 'colspan="5"' not in html
    numbers = [row for row in rows(html, "hand-list") if row and row[0][:1] in "ES"]
    assert [row[0] for row in numbers] == [
        "E1-0", "E2-0", "E3-0", "S1-1", "S1-2", "S2-0", "S3-0",
    ]  # fmt: skip
    # S1-2: Ben's mangan tsumo, 4,000 + 200 from the dealer Aki and 2,000 + 200 from Chie;
    # the North's 2,000 is not paid (tsumo_loss on).
    assert numbers[4][1:] == [f"{MINUS}4,200 30,400", "+6,400 46,100", f"{MINUS}2,200 28,500"]


def test_a_three_player_game_going_on_shows_the_dealer_and_the_three_winds(client, sanma):
    html = content(client.get(url("game", game_at(sanma, 3).pk)))
    line = text(re.search(r'<p class="table-line">(.*?)</p>', html, re.S).group(1))
    assert line == "E3 0 honba 0 sticks Ike deals"
    cards = re.findall(r'<li class="seat-card[^"]*">(.*?)</li>', html, re.S)
    # At E3 the third seat deals: Gen sits South, Hana West.
    assert [text(card) for card in cards] == [
        "S Gen 29,500",
        "W Hana 40,700",
        "E Ike 34,800 dealer",
    ]


def test_a_three_player_game_of_final_scores_shows_three_places(client, sanma):
    html = content(client.get(url("game", game_at(sanma, 2).pk)))
    assert rows(html, "final-table")[1:] == [
        ["1st", "Dan", "50,000", "+45.0"],
        ["2nd", "Eri", "35,000", signed("-5.0")],
        ["3rd", "Fumi", "20,000", signed("-40.0")],
    ]


def test_the_game_page_of_a_four_player_game_keeps_its_four_seats(client, game):
    services.add_hand(game.pk, 1, SANMA_HANDS[0])
    html = content(client.get(url("game", game.pk)))
    assert len(re.findall(r'<li class="seat-card', html)) == 4
    assert "seats-3" not in html
    assert headers(html, "hand-list") == ["Round", "Aki", "Ben", "Chie", "Dan"]
    assert '<td colspan="5">' in html


# The sheets


def test_the_game_sheet_of_a_three_player_game_has_three_columns(client, sanma):
    html = content(client.get(url("game_sheet", game_at(sanma, 1).pk)))
    assert headers(html, "hand-sheet")[-3:] == ["Aki East", "Ben South", "Chie West"]
    assert "North" not in html
    sheet = rows(html, "hand-sheet")
    assert sheet[1] == ["", "Start", "35,000", "35,000", "35,000"]
    assert sheet[-3:] == [
        ["", "Final score", "29,400", "46,100", "29,500"],
        ["", "Placement", "3", "1", "2"],
        ["", "Match points", signed("-30.6"), "+41.1", signed("-10.5")],
    ]


def test_the_scoresheet_of_a_three_player_table_adds_up_three_columns(client, sanma):
    html = content(client.get(url("scoresheet", sanma.slug, 1, 1)))
    assert headers(html, "scoresheet") == ["Aki East", "Ben South", "Chie West"]
    assert "North" not in html
    sheet = rows(html, "scoresheet")[1:]
    assert sheet[0] == ["Raw Score", "29,400", "46,100", "29,500", "Game 1"]
    assert sheet[3] == ["Total", signed("-30.6"), "41.1", signed("-10.5")]
    assert sheet[4] == ["Raw Score", "45,000", "30,000", "30,000", "Game 2"]
    assert sheet[5] == ["Match Points", "40.0", signed("-10.0"), signed("-30.0")]
    assert sheet[6] == ["Placement", "1", "2", "3"]
    # -30.6 + 40.0, 41.1 - 10.0, -10.5 - 30.0
    assert sheet[8] == ["Total", "9.4", "31.1", signed("-40.5")]
    # Games 3 and 4 are blank, a cell for each of the three players.
    assert sheet[-1] == ["Grand Total", "", "", ""]
    assert "Uma +20/0/" in text(html)


def test_the_blank_scoresheet_of_a_three_player_table_has_three_columns(client, sanma):
    html = content(client.get(url("scoresheet_blank", sanma.slug, 1, 2)))
    assert headers(html, "scoresheet") == ["Dan East", "Eri South", "Fumi West"]
    assert rows(html, "scoresheet")[1] == ["Raw Score", "", "", "", "Game 1"]


def test_a_three_player_scoresheet_refuses_a_game_of_other_players_naming_three(client, sanma):
    session = sanma.sessions.get()
    sanma_game(session, ["Aki", "Ben", "Jun"], table=1, final_scores=[40000, 35000, 30000])
    html = content(client.get(url("scoresheet", sanma.slug, 1, 1)))
    assert "not by the three players of game 1 (Aki, Ben, Chie)" in html
    assert "scoresheet is for three players" in html


def test_a_sheet_of_three_players_keeps_a_cell_for_each(sanma):
    games = list(sanma.sessions.get().games.filter(table_number=1).order_by("pk"))
    players = [seat.player for seat in games[0].ordered_seats()]
    sheet = build_sheet(players, games, sanma.rules())
    assert [len(game.scores) for game in sheet.games] == [3, 3, 3, 3]
    assert sheet.grand_totals == [None, None, None]
    assert sheet.games[1].totals == [Decimal("9.4"), Decimal("31.1"), Decimal("-40.5")]


# Standings, results, statistics


def test_the_standings_of_a_three_player_event_rank_its_players_without_a_4th_place(client, sanma):
    html = content(client.get(url("standings", sanma.slug)))
    head = headers(html, "standings")
    assert head[:8] == ["Rank", "Player", "Games", "Total", "Avg place", "1st", "2nd", "3rd"]
    assert "4th" not in head
    table = [row[:8] for row in rows(html, "standings")[1:]]
    assert table == [
        ["1", "Dan", "1", "+45.0", "1.00", "1", "0", "0"],
        ["2", "Ben", "2", "+31.1", "1.50", "1", "1", "0"],
        ["3", "Aki", "2", "+9.4", "2.00", "1", "0", "1"],
        ["4", "Eri", "1", signed("-5.0"), "2.00", "0", "1", "0"],
        ["5", "Fumi", "1", signed("-40.0"), "3.00", "0", "0", "1"],
        ["6", "Chie", "2", signed("-40.5"), "2.50", "0", "1", "1"],
    ]


def test_the_standings_of_a_three_player_event_ignore_an_order_by_4th_place(client, sanma):
    response = client.get(url("standings", sanma.slug) + "?sort=fourth")
    assert [row[1] for row in rows(content(response), "standings")[1:]][:2] == ["Dan", "Ben"]


def test_the_standings_file_of_a_three_player_event_has_no_4th_place(client, sanma):
    response = client.get(url("standings", sanma.slug) + "?_export=csv")
    header = b"".join(response.streaming_content if response.streaming else [response.content])
    first_line = header.decode("utf-8-sig").splitlines()[0]
    assert "3rd" in first_line and "4th" not in first_line


def test_the_standings_of_a_four_player_event_keep_the_4th_place(client, organiser):
    event = Event.objects.create(name="Four", slug="four", starts_on=datetime.date(2026, 1, 1))
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    final_game(session, ["A", "B", "C", "D"], [41300, 24900, 21800, 12000], 1)
    html = content(client.get(url("standings", event.slug)))
    assert "4th" in headers(html, "standings")


def test_the_results_of_a_three_player_event_list_three_seats_a_game(client, sanma):
    html = content(client.get(url("results", sanma.slug)))
    table = rows(html, "results")[1:]
    assert len(table) == 9  # three finished games of three
    first_game = [(row[2], row[3], row[7]) for row in table[:3]]
    assert first_game == [("Aki", "3", "East"), ("Ben", "1", "South"), ("Chie", "2", "West")]
    assert "North" not in html


def test_the_statistics_of_a_three_player_event_count_three_places(client, sanma):
    html = content(client.get(url("statistics", sanma.slug)))
    head = headers(html, "statistics")
    assert head[-3:] == ["1st", "2nd", "3rd"] and "4th" not in head
    by_player = {row[0]: row for row in rows(html, "statistics")[1:]}
    assert by_player["Ben"][1:3] == ["2", "7"]  # two games, the seven hands of one
    assert by_player["Ben"][-3:] == ["1", "1", "0"]
    assert by_player["Ike"][-3:] == ["0", "0", "0"]  # a game still going has no place


def test_the_statistics_page_of_a_four_player_event_keeps_the_4th_place(client, game):
    html = content(client.get(url("statistics", game.event.slug)))
    assert headers(html, "statistics")[-1] == "4th"


# A player's page, the session, the live screen


def test_a_players_page_lists_their_three_player_game_with_three_places(client, sanma):
    ben = game_at(sanma, 1).seats.get(seat=1).player
    html = content(client.get(url("player", ben.pk)))
    # Place in the event, games, total, average place, places.
    assert rows(html, "player-events")[1][1:] == ["2 of 6", "2", "+31.1", "1.50", "1–1–0"]
    assert "1st–2nd–3rd–4th" not in html
    totals = text(re.search(r'<dl class="totals" data-testid="totals">(.*?)</dl>', html, re.S)[1])
    assert totals.endswith("1st–2nd–3rd 1–1–0")
    # The places chart has a bar for each of three places.
    assert html.count('class="place-bar') == 3
    assert 'viewBox="0 0 300 82"' in html
    # The list of their games has the game at table 1, where Ben sat South.
    assert "3 Sep 2026 1st +41.1 46,100 Sanma Night 1 1 South Finished" in text(html)


def test_a_player_of_both_kinds_of_event_sees_four_places_a_4th_as_0_at_three(
    client, sanma, session
):
    final_game(session, ["Ben", "X", "Y", "Z"], [12000, 41300, 24900, 21800], 5)
    ben = game_at(sanma, 1).seats.get(seat=1).player
    html = content(client.get(url("player", ben.pk)))
    by_event = {row[0]: row[-1] for row in rows(html, "player-events")[1:]}
    assert by_event == {
        "Sanma Night": "1–1–0–0",
        "Thursday League": "0–0–0–1",
        "All events": "1–1–0–1",
    }
    # The record of the three-player event alone counts three places.
    html = content(client.get(url("player", ben.pk) + f"?event={sanma.slug}"))
    totals = text(re.search(r'<dl class="totals" data-testid="totals">(.*?)</dl>', html, re.S)[1])
    assert totals.endswith("1st–2nd–3rd 1–1–0")


def test_the_session_page_of_a_three_player_event_has_no_north_column(organiser_client, sanma):
    html = content(organiser_client.get(url("session", sanma.slug, 1)))
    assert headers(html, "games")[:5] == ["Table", "Status", "East", "South", "West"]
    assert "North" not in html


def test_the_live_screen_shows_tables_of_three(client, sanma):
    html = content(client.get(url("live", sanma.slug)))
    seats = re.findall(r'data-table="(\d+)">.*?<ul>(.*?)</ul>', html, re.S)
    assert [(table, text(items)) for table, items in seats] == [
        ("1", "Aki 29,400 Ben 46,100 Chie 29,500"),
        ("1", "Aki 45,000 Ben 30,000 Chie 30,000"),
        ("2", "Dan 50,000 Eri 35,000 Fumi 20,000"),
        ("3", "Gen 29,500 Hana 40,700 Ike 34,800"),
    ]
    assert "E3-0" in html


def test_the_final_score_preview_of_a_three_player_game_shows_three_places(organiser_client, sanma):
    game = sanma_game(sanma.sessions.get(), ["Jun", "Ken", "Lin"], table=4, awaits_scores=True)
    form = {"score_0": "300", "score_1": "450", "score_2": "290", "leftover_sticks": "1"}
    html = content(organiser_client.post(url("final_scores", game.pk), form))
    # In hundreds: 30,000 + 45,000 + 29,000 + one stick = 105,000; the stick goes to Ken,
    # 1st: 46,000, +6 +20 +15 = +41.0; Jun 2nd -10.0; Lin 3rd -11 - 20 = -31.0.
    result = [text(row) for row in re.findall(r'<li class="result-row">(.*?)</li>', html, re.S)]
    assert result == [
        f"E Jun 30,000 2nd {MINUS}10.0",
        "S Ken 45,000 46,000 1st +41.0",
        f"W Lin 29,000 3rd {MINUS}31.0",
    ]
    assert "Ken's 45,000 becomes 46,000" in html
    assert [name for name, _value in re.findall(r'name="(score_\d)" value="(\d+)"', html)] == [
        "score_0", "score_1", "score_2",
    ]  # fmt: skip
    assert not game.seats.filter(score__isnull=False).exists()  # a preview stores nothing


def test_a_players_page_in_japanese_counts_three_places(client, sanma):
    ben = game_at(sanma, 1).seats.get(seat=1).player
    html = content(client.get(url("player", ben.pk), headers={"accept-language": "ja"}))
    assert "1着–2着–3着" in html and "4着" not in html


def test_a_three_player_game_waiting_for_its_scores_asks_for_three(organiser_client, sanma):
    game = sanma_game(sanma.sessions.get(), ["Jun", "Ken", "Lin"], table=4, awaits_scores=True)
    html = content(organiser_client.get(url("game", game.pk)))
    assert re.findall(r'name="(score_\d)"', html) == ["score_0", "score_1", "score_2"]
    assert len(re.findall(r'<li class="seat-card', html)) == 3


def test_the_results_of_a_three_player_event_page_by_whole_games(client, organiser, monkeypatch):
    monkeypatch.setattr(standings_views, "RESULTS_GAMES_PER_PAGE", 2)
    event = sanma_event(organiser, slug="long-sanma")
    session = event.sessions.get()
    for table in range(1, 4):
        sanma_game(session, ["P", "Q", "R"], table=table, final_scores=[45000, 30000, 30000])
    first = rows(content(client.get(url("results", event.slug))), "results")[1:]
    second = rows(content(client.get(url("results", event.slug) + "?page=2")), "results")[1:]
    # Two games of three to a page: no game is split between two pages.
    assert len(first) == 6 and len(second) == 3
    assert GameSeat.objects.count_finished_in(event) == 9
    assert {row[1] for row in second} == {"3"}

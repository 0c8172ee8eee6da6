"""The printable sheets through HTTP: the Ari-Ari scoresheet of a table (filled in and
blank) and the hand-by-hand sheet of one game, with numbers worked out by hand."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from html import unescape

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Event, Player, Session

pytestmark = pytest.mark.django_db

MINUS = "\u2212"
HANDS = [
    # E1-0: the spec's example: Ben rons Aki for 5,200 and takes Chie's riichi stick.
    {"result": "ron", "riichi": [2], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]},
    # E2-0: Aki and Dan tenpai: 1,500 each from Ben and Chie.
    {"result": "draw", "riichi": [], "tenpai": [0, 3]},
    # E3-1: Dan tsumo 500/1,000 plus 100 a payer; the dealer Chie pays 1,100.
    {"result": "tsumo", "riichi": [], "wins": [{"winner": 3, "han": 2, "fu": 30}]},
    # E4-0: double ron on Aki: 1,000 to Ben and 2,000 to Chie.
    {
        "result": "ron",
        "riichi": [],
        "wins": [
            {"winner": 1, "loser": 0, "han": 1, "fu": 30},
            {"winner": 2, "loser": 0, "han": 2, "fu": 30},
        ],
    },
    # S1-0: Chie's nagashi mangan is paid as a mangan tsumo: 4,000 from the dealer Aki.
    {"result": "nagashi", "riichi": [], "nagashi": [2], "tenpai": []},
    # S2-1: nine terminals: nothing paid, the dealer Ben keeps the deal, one more honba.
    {"result": "abort", "riichi": [], "reason": "nine_terminals"},
    # S2-2: Dan's chombo: a reverse mangan, 4,000 to the dealer and 2,000 to each other.
    {"result": "chombo", "riichi": [], "offender": 3},
    # S2-2 again: Aki's yakuman tsumo, 16,000 + 200 from the dealer Ben, who put out a stick.
    {"result": "tsumo", "riichi": [1], "wins": [{"winner": 0, "yakuman": 1}]},
    {"result": "draw", "riichi": [], "tenpai": []},
    {"result": "draw", "riichi": [], "tenpai": []},
]


def content(response) -> str:
    return unescape(response.content.decode())


def text(html: str) -> str:
    """The words of some HTML, with tags and runs of white space as single spaces."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def rows(html: str, css_class: str) -> list[list[str]]:
    """The cells' text of each row in the table with this class."""
    table = re.search(rf'<table class="{css_class}[^"]*">(.*?)</table>', html, re.S).group(1)
    return [
        [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    ]


def final(session, players, scores, table=1, penalties=()):
    doc = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": [p.display_name for p in players],
        "final_scores": scores,
        "leftover_sticks": 0,
        "penalties": list(penalties),
    }
    return services.create_game_from_record(session, doc, players, table_number=table)


def hands_game(session, players, hands=HANDS, table=1, penalties=()):
    doc = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": [p.display_name for p in players],
        "hands": hands,
        "penalties": list(penalties),
    }
    return services.create_game_from_record(session, doc, players, table_number=table)


def sheet_url(session, table=1, *, blank=False):
    name = "tournaments:scoresheet_blank" if blank else "tournaments:scoresheet"
    return reverse(name, args=[session.event.slug, session.number, table])


def game_sheet_url(game):
    return reverse("tournaments:game_sheet", args=[game.pk])


@pytest.fixture
def private_event(organiser):
    event = Event.objects.create(
        name="Closed Cup", slug="closed", starts_on=datetime.date(2026, 10, 1), is_public=False
    )
    event.organisers.add(organiser)
    return event


# The four-game scoresheet


def test_the_scoresheet_shows_the_seeds_example_exactly(client, session, players):
    final(session, players, [41300, 24900, 21800, 12000])

    response = client.get(sheet_url(session))

    assert response.status_code == 200
    grid = rows(content(response), "scoresheet")
    assert grid[0] == ["", "Aki East", "Ben South", "Chie West", "Dan North", ""]
    assert grid[1] == ["Raw Score", "41,300", "24,900", "21,800", "12,000", "Game 1"]
    assert grid[2] == ["Match Points", "61.3", "4.9", f"{MINUS}18.2", f"{MINUS}48.0"]
    assert grid[3] == ["Placement", "1", "2", "3", "4"]
    assert grid[4] == ["Total", "61.3", "4.9", f"{MINUS}18.2", f"{MINUS}48.0"]
    # Games 2 to 4 are still to play: their blocks stand empty, the last ends in the
    # Grand Total.
    assert grid[5] == ["Raw Score", "", "", "", "", "Game 2"]
    assert [row[0] for row in grid[5:10]] == [
        "Raw Score",
        "Match Points",
        "Placement",
        "Subtotal",
        "Total",
    ]
    assert grid[-1] == ["Grand Total", "", "", "", ""]
    assert len(grid) == 1 + 4 + 5 + 5 + 5
    page = text(content(response))
    for words in (
        "Starting Score 25,000",
        "Return Score 30,000",
        f"Uma +30/+10/{MINUS}10/{MINUS}30",
        "Oka +20",
    ):
        assert words in page


def test_a_four_game_scoresheet_carries_subtotals_to_the_grand_totals(client, session, players):
    aki, ben, chie, dan = players
    final(session, players, [41300, 24900, 21800, 12000])
    # The same four at other seats: the columns keep game 1's seating.
    final(session, [dan, chie, ben, aki], [35000, 30000, 20000, 15000])
    final(session, players, [25000, 25000, 25000, 25000])
    final(session, players, [30000, 30000, 25000, 15000])

    grid = rows(content(client.get(sheet_url(session))), "scoresheet")

    game_2 = grid[5:10]
    assert game_2[0] == ["Raw Score", "15,000", "20,000", "30,000", "35,000", "Game 2"]
    assert game_2[1] == ["Match Points", f"{MINUS}45.0", f"{MINUS}20.0", "10.0", "55.0"]
    assert game_2[2] == ["Placement", "4", "3", "2", "1"]
    assert game_2[3] == ["Subtotal", "61.3", "4.9", f"{MINUS}18.2", f"{MINUS}48.0"]
    assert game_2[4] == ["Total", "16.3", f"{MINUS}15.1", f"{MINUS}8.2", "7.0"]
    game_4 = grid[15:20]
    assert game_4[0][-1] == "Game 4"
    assert game_4[3] == ["Subtotal", "61.3", f"{MINUS}10.1", f"{MINUS}23.2", f"{MINUS}28.0"]
    assert game_4[4] == ["Grand Total", "111.3", f"{MINUS}0.1", f"{MINUS}38.2", f"{MINUS}73.0"]


def test_penalties_and_unfinished_games_are_noted_under_the_scoresheet(client, session, players):
    late = {"seat": 3, "match_points": -10.0, "reason": "late arrival"}
    final(session, players, [41300, 24900, 21800, 12000], penalties=[late])
    services.create_game(session, players, table_number=1)

    response = client.get(sheet_url(session))

    grid = rows(content(response), "scoresheet")
    assert grid[2] == ["Match Points", "61.3", "4.9", f"{MINUS}18.2", f"{MINUS}58.0"]
    # The unfinished second game leaves its block blank.
    assert grid[5][1:5] == ["", "", "", ""]
    page = text(content(response))
    assert (
        f"Game 1: Dan {MINUS}10.0 in penalties (late arrival), included in the match points."
    ) in page
    assert "1 game at this table is not finished yet" in page


def test_the_blank_sheet_has_the_names_and_seats_and_no_numbers(client, session, players):
    final(session, players, [41300, 24900, 21800, 12000])

    response = client.get(sheet_url(session, blank=True))

    assert response.status_code == 200
    grid = rows(content(response), "scoresheet")
    assert grid[0] == ["", "Aki East", "Ben South", "Chie West", "Dan North", ""]
    assert len(grid) == 20
    for row in grid[1:]:
        assert row[1:5] == ["", "", "", ""], row
    assert [row[-1] for row in grid if row[-1].startswith("Game")] == [
        "Game 1",
        "Game 2",
        "Game 3",
        "Game 4",
    ]
    page = text(content(response))
    assert "41,300" not in page and "61.3" not in page
    assert "Starting Score 25,000" in page


def test_the_blank_sheet_can_be_printed_before_the_first_game_is_played(client, session, players):
    services.create_game(session, players, table_number=2)

    response = client.get(sheet_url(session, 2, blank=True))

    assert response.status_code == 200
    assert rows(content(response), "scoresheet")[0][1:5] == [
        "Aki East",
        "Ben South",
        "Chie West",
        "Dan North",
    ]


def test_a_table_where_others_played_shows_why_there_is_no_sheet(client, session, players):
    eve = Player.objects.create(display_name="Eve")
    final(session, players, [41300, 24900, 21800, 12000])
    final(session, [eve, *players[1:]], [30000, 30000, 25000, 15000])

    response = client.get(sheet_url(session))

    assert response.status_code == 200
    page = text(content(response))
    assert "No scoresheet for this table." in page
    assert (
        "Game 2 at this table was played by Eve, Ben, Chie, Dan, not by the four players of "
        "game 1 (Aki, Ben, Chie, Dan)"
    ) in page
    assert 'class="scoresheet' not in content(response)


def test_a_table_with_more_than_four_games_shows_why_there_is_no_sheet(client, session, players):
    for _ in range(5):
        final(session, players, [41300, 24900, 21800, 12000])

    response = client.get(sheet_url(session))

    assert response.status_code == 200
    assert "This table has 5 finished games; a scoresheet holds 4." in text(content(response))


def test_a_table_without_games_has_no_scoresheet(client, session):
    assert client.get(sheet_url(session, 7)).status_code == 404
    assert client.get(sheet_url(session, 7, blank=True)).status_code == 404


def test_the_sheets_of_a_private_event_are_hidden_from_strangers(
    client, private_event, players, stranger, organiser
):
    session = Session.objects.create(event=private_event, number=1, date=private_event.starts_on)
    game = final(session, players, [41300, 24900, 21800, 12000])
    urls = [sheet_url(session), sheet_url(session, blank=True), game_sheet_url(game)]

    assert [client.get(url).status_code for url in urls] == [404, 404, 404]
    client.force_login(stranger)
    assert [client.get(url).status_code for url in urls] == [404, 404, 404]
    client.force_login(organiser)
    assert [client.get(url).status_code for url in urls] == [200, 200, 200]


def test_the_session_page_links_each_tables_scoresheets(client, session, players):
    final(session, players, [41300, 24900, 21800, 12000], table=3)

    page = content(client.get(session.get_absolute_url()))

    assert f'href="{sheet_url(session, 3)}"' in page
    assert f'href="{sheet_url(session, 3, blank=True)}"' in page


# The game sheet


def test_the_game_sheet_shows_every_kind_of_hand_with_payments_and_running_scores(
    client, session, players
):
    game = hands_game(session, players)

    response = client.get(game_sheet_url(game))

    assert response.status_code == 200
    grid = rows(content(response), "hand-sheet")
    assert grid[0] == ["#", "Hand", "Dealer", "Result", "Riichi"] + [
        "Aki East",
        "Ben South",
        "Chie West",
        "Dan North",
    ]
    assert grid[1] == ["", "Start", "25,000", "25,000", "25,000", "25,000"]
    m = MINUS
    # Each player's cell: the payment (blank when none) then the running score.
    assert grid[2:12] == [
        ["1", "E1-0", "Aki", "Ben ron off Aki · 3 han 40 fu", "Chie"]
        + [f"{m}5,200 19,800", "+6,200 31,200", f"{m}1,000 24,000", "25,000"],
        ["2", "E2-0", "Ben", "Draw · tenpai: Aki, Dan", ""]
        + ["+1,500 21,300", f"{m}1,500 29,700", f"{m}1,500 22,500", "+1,500 26,500"],
        ["3", "E3-1", "Chie", "Dan tsumo · 2 han 30 fu", ""]
        + [f"{m}600 20,700", f"{m}600 29,100", f"{m}1,100 21,400", "+2,300 28,800"],
        ["4", "E4-0", "Dan", "Double ron off Aki · Ben 1 han 30 fu, Chie 2 han 30 fu", ""]
        + [f"{m}3,000 17,700", "+1,000 30,100", "+2,000 23,400", "28,800"],
        ["5", "S1-0", "Aki", "Nagashi mangan · Chie", ""]
        + [f"{m}4,000 13,700", f"{m}2,000 28,100", "+8,000 31,400", f"{m}2,000 26,800"],
        ["6", "S2-1", "Ben", "Abortive draw · nine terminals", ""]
        + ["13,700", "28,100", "31,400", "26,800"],
        ["7", "S2-2", "Ben", "Chombo · Dan", ""]
        + ["+2,000 15,700", "+4,000 32,100", "+2,000 33,400", f"{m}8,000 18,800"],
        ["8", "S2-2", "Ben", "Aki tsumo · yakuman", "Ben"]
        + ["+33,600 49,300", f"{m}17,200 14,900", f"{m}8,200 25,200", f"{m}8,200 10,600"],
        ["9", "S3-0", "Chie", "Draw · all noten", ""] + ["49,300", "14,900", "25,200", "10,600"],
        ["10", "S4-1", "Dan", "Draw · all noten", ""] + ["49,300", "14,900", "25,200", "10,600"],
    ]
    # The end: 49,300 -> 19.3 + 30 + 20 = 69.3; 25,200 -> -4.8 + 10 = 5.2;
    # 14,900 -> -15.1 - 10 = -25.1; 10,600 -> -19.4 - 30 = -49.4.
    assert grid[12:] == [
        ["", "Final score", "49,300", "14,900", "25,200", "10,600"],
        ["", "Placement", "1", "3", "2", "4"],
        ["", "Match points", "+69.3", f"{m}25.1", "+5.2", f"{m}49.4"],
    ]
    page = text(content(response))
    assert "The game ended because the last hand was played." in page
    assert "Starting Score 25,000" in page


def test_the_game_sheet_lists_penalties_inside_the_match_points(client, session, players):
    late = {"seat": 3, "match_points": -10.0, "reason": "late arrival"}
    game = hands_game(session, players, penalties=[late])

    response = client.get(game_sheet_url(game))

    grid = rows(content(response), "hand-sheet")
    assert grid[-2:] == [
        ["", "Penalties", "", "", "", f"{MINUS}10.0"],
        ["", "Match points", "+69.3", f"{MINUS}25.1", "+5.2", f"{MINUS}59.4"],
    ]
    assert f"Dan {MINUS}10.0: late arrival" in text(content(response))


def test_the_game_sheet_of_a_game_in_progress_says_what_comes_next(client, session, players):
    game = hands_game(session, players, HANDS[:3])

    response = client.get(game_sheet_url(game))

    grid = rows(content(response), "hand-sheet")
    assert len(grid) == 2 + 3
    page = text(content(response))
    assert "In progress" in page
    assert "The game is not over: next hand E4-0, Dan deals." in page


def test_the_game_sheet_of_a_final_score_game_shows_the_result_only(client, session, players):
    game = final(session, players, [41300, 24900, 21800, 12000])

    grid = rows(content(client.get(game_sheet_url(game))), "hand-sheet")

    # No empty hand columns: a label, then one column per player.
    assert all(len(row) == 5 for row in grid)
    assert grid[2:] == [
        ["Final score", "41,300", "24,900", "21,800", "12,000"],
        ["Placement", "1", "2", "3", "4"],
        ["Match points", "+61.3", "+4.9", f"{MINUS}18.2", f"{MINUS}48.0"],
    ]


def test_the_game_page_links_its_game_sheet(client, session, players):
    game = hands_game(session, players, HANDS[:2])

    assert f'href="{game_sheet_url(game)}"' in content(client.get(game.get_absolute_url()))


# Query counts


@pytest.mark.parametrize("hands", [2, 10])
def test_the_game_sheet_costs_the_same_queries_for_a_short_and_a_long_game(
    client, session, players, django_assert_max_num_queries, hands
):
    late = {"seat": 0, "match_points": -1.0, "reason": "late"}
    game = hands_game(session, players, HANDS[:hands], penalties=[late])

    with django_assert_max_num_queries(6):
        assert client.get(game_sheet_url(game)).status_code == 200


@pytest.mark.parametrize("games", [1, 4])
def test_the_scoresheet_costs_the_same_queries_for_one_and_four_games(
    client, session, players, django_assert_max_num_queries, games
):
    for _ in range(games):
        hands_game(session, players)

    with django_assert_max_num_queries(6):
        assert client.get(sheet_url(session)).status_code == 200


def test_match_points_on_the_sheet_are_the_stored_ones(client, session, players):
    game = hands_game(session, players)
    stored = [s.match_points for s in game.seats.order_by("seat")]

    grid = rows(content(client.get(sheet_url(session))), "scoresheet")

    assert stored == [Decimal("69.3"), Decimal("-25.1"), Decimal("5.2"), Decimal("-49.4")]
    assert grid[2][1:5] == ["69.3", f"{MINUS}25.1", "5.2", f"{MINUS}49.4"]

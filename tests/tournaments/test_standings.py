"""Standings checked against values worked out by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tournaments.builders import small_league, tied_event
from tournaments import services
from tournaments.models import Player
from tournaments.standings import event_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(organiser):
    return small_league(organiser)


def test_standings_add_up_match_points_places_and_penalties_as_worked_by_hand(league):
    standings = event_standings(league)
    table = [
        (r.rank_label, r.player, r.games, r.match_points, r.placement_counts, r.penalties)
        for r in standings.rows
    ]
    assert table == [
        ("1", "A", 2, Decimal("111.3"), [2, 0, 0, 0], Decimal(0)),
        ("2", "B", 2, Decimal("59.9"), [1, 1, 0, 0], Decimal(0)),
        ("3", "C", 3, Decimal("1.8"), [0, 2, 1, 0], Decimal(0)),
        ("4", "D", 3, Decimal("-83.0"), [0, 0, 2, 1], Decimal(0)),
        ("5", "E", 2, Decimal("-95.0"), [0, 0, 0, 2], Decimal("-5.0")),
    ]
    a, b, c, d, e = standings.rows
    assert (a.average_placement, a.average_score) == (Decimal("1.00"), 35650)
    assert (c.average_placement, c.average_score) == (Decimal("2.33"), 27267)
    assert standings.sessions == [1, 2] and standings.games == 3
    assert (c.sessions[1].match_points, c.sessions[1].placements_text) == (Decimal("-8.2"), "3·2")
    assert (c.sessions[2].match_points, c.sessions[2].placements) == (Decimal("10.0"), [2])
    assert 2 not in b.sessions


def test_a_range_of_sessions_and_a_minimum_of_games_narrow_the_standings(league):
    second = event_standings(league, first_session=2, last_session=2)
    assert [(r.player, r.match_points) for r in second.rows] == [
        ("A", Decimal("50.0")),
        ("C", Decimal("10.0")),
        ("D", Decimal("-15.0")),
        ("E", Decimal("-50.0")),
    ]
    regulars = event_standings(league, min_games=3)
    assert [(r.rank, r.player) for r in regulars.rows] == [(1, "C"), (2, "D")]


def summary(standings) -> list[tuple]:
    return [
        (r.rank_label, r.player, r.games, r.match_points, r.placement_counts, r.penalties)
        for r in standings.rows
    ]


def test_a_range_up_to_the_last_session_with_games_is_the_whole_event(
    league, django_assert_max_num_queries
):
    first = event_standings(league, last_session=1)
    assert [(r.player, r.match_points) for r in first.rows][:1] == [("A", Decimal("61.3"))]
    whole = event_standings(league)
    for last in (2, 9):
        # Read from the event's own rows: no sum over its sessions.
        with django_assert_max_num_queries(5) as read:
            assert summary(event_standings(league, last_session=last)) == summary(whole)
        assert not [q for q in read.captured_queries if "SUM(" in q["sql"]]


def test_players_equal_on_every_tie_break_share_a_rank(organiser):
    event = tied_event()
    rows = event_standings(event).rows
    # Split ties: (+30 +10 +20 oka) / 2 = +30 each for first; (-10 -30) / 2 = -20 - 10 each.
    assert [(r.rank_label, r.player, r.match_points) for r in rows] == [
        ("1=", "P", Decimal("30.0")),
        ("1=", "Q", Decimal("30.0")),
        ("3=", "R", Decimal("-30.0")),
        ("3=", "S", Decimal("-30.0")),
    ]


def test_games_in_progress_do_not_count(league, players):
    session = league.sessions.get(number=2)
    services.create_game(session, players, table_number=2)
    assert [r.player for r in event_standings(league).rows] == ["A", "B", "C", "D", "E"]
    assert Player.objects.filter(display_name="Aki").exists()


def test_standings_take_a_constant_number_of_queries(league, django_assert_num_queries):
    # Totals, sessions, and the lines of the latest sessions.
    with django_assert_num_queries(3):
        event_standings(league)

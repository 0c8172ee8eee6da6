"""The live screen: standings, every table's round and scores, the clock; a poll returns
the panel alone, costs the same few queries however large the event, and is never stale."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import Player, Session

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
DRAW = {"result": "draw", "riichi": [], "tenpai": []}
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def make_tables(session, count: int, start: int = 1) -> list:
    games = []
    for table in range(start, start + count):
        players = [Player.objects.create(display_name=f"T{table}P{i}") for i in range(4)]
        games.append(services.create_game(session, players, table_number=table))
    return games


def test_the_live_screen_shows_standings_tables_and_the_clock(client, session, game):
    finished = make_tables(session, 1, start=2)[0]
    for number in range(1, 9):
        services.add_hand(finished.pk, number, DRAW)
    services.add_hand(game.pk, 1, RON)
    services.start_round_clock(session.pk, 45)
    page = client.get(url("live", session.event.slug)).content.decode()
    assert "T2P0" in page  # ranked after its finished game
    assert 'data-table="1"' in page and "E2-0" in page and "30,200" in page
    assert "Playing" in page and "Finished" in page
    assert "data-clock-ends" in page and "data-server-now" in page
    assert 'hx-trigger="every 5s"' in page and "js/round-clock.js" in page


def test_a_poll_returns_the_panel_and_shows_a_hand_entered_since(client, session, game):
    first = client.get(url("live", session.event.slug), **HTMX).content.decode()
    assert first.startswith('<div id="live-panel"') and "<html" not in first
    assert "Find your table" in first  # nothing entered yet: the room finds its tables
    services.add_hand(game.pk, 1, RON)
    second = client.get(url("live", session.event.slug), **HTMX).content.decode()
    assert "E2-0" in second and "30,200" in second


@pytest.mark.slow
def test_the_rest_of_the_standings_pages_through_poll_by_poll(client, session):
    games = make_tables(session, 5)
    for game in games:
        for number in range(1, 9):
            services.add_hand(game.pk, number, DRAW)
    slug = session.event.slug
    page0 = client.get(url("live", slug), {"top": "4"}, **HTMX).content.decode()
    assert "page 1 of 2" in page0 and "page=1&amp;top=4" in page0
    page1 = client.get(url("live", slug), {"top": "4", "page": "1"}, **HTMX).content.decode()
    assert "page 2 of 2" in page1
    assert "page=0&amp;top=4" in page1  # back to the first page, not ever larger
    page2 = client.get(url("live", slug), {"top": "4", "page": "2"}, **HTMX).content.decode()
    assert "page 1 of 2" in page2


def test_a_private_events_live_screen_is_not_there_for_others(anonymous, session):
    session.event.is_public = False
    session.event.save()
    assert anonymous.get(url("live", session.event.slug)).status_code == 404


@pytest.mark.parametrize(
    "query", [{"page": "x"}, {"top": "-3"}, {"top": "99999"}, {"page": "9" * 30}]
)
def test_odd_parameters_are_bounded_not_errors(client, session, query):
    assert client.get(url("live", session.event.slug), query).status_code == 200


def test_an_unknown_session_is_not_found(client, session):
    assert client.get(url("live", session.event.slug), {"session": "7"}).status_code == 404


@pytest.mark.slow
def test_a_poll_costs_the_same_few_queries_for_two_and_twenty_tables(
    client, session, django_assert_max_num_queries
):
    games = make_tables(session, 2)
    services.add_hand(games[0].pk, 1, RON)
    client.get(url("live", session.event.slug), **HTMX)
    with django_assert_max_num_queries(4) as small:
        client.get(url("live", session.event.slug), **HTMX)
    # Read now: the next request clears the connection's query log.
    few = len(small.captured_queries)
    assert few
    more = make_tables(session, 18, start=3)
    services.add_hand(more[0].pk, 1, RON)
    client.get(url("live", session.event.slug), **HTMX)  # once after the change
    with django_assert_max_num_queries(few):
        client.get(url("live", session.event.slug), **HTMX)


@pytest.mark.slow
def test_rendering_after_a_change_is_bounded_too(client, session, django_assert_max_num_queries):
    games = make_tables(session, 20)
    client.get(url("live", session.event.slug), **HTMX)  # the standings, read once
    for game in games:
        services.add_hand(game.pk, 1, RON)
    # Every table changed: the panel is made anew from the games' stored rounds and scores.
    with django_assert_max_num_queries(8) as after:
        client.get(url("live", session.event.slug), **HTMX)
    # A hand at a table leaves the standings as they were: they are not read again.
    assert not [q for q in after.captured_queries if "tournaments_playertotal" in q["sql"]]


def test_a_finished_game_shows_in_the_standings_at_the_next_poll(client, session, game):
    def standings() -> str:
        panel = client.get(url("live", session.event.slug), **HTMX).content.decode()
        return panel.split('class="live-standings"')[1].split("</section>")[0]

    other = make_tables(session, 1, start=2)[0]
    services.add_hand(other.pk, 1, RON)
    assert "T2P1" not in standings()
    for number in range(2, 9):
        services.add_hand(other.pk, number, DRAW)
    assert "T2P1" in standings()


def test_a_table_shows_the_round_its_game_keeps_without_reading_any_hand(client, session, game):
    dealer_wins = {"result": "tsumo", "riichi": [], "wins": [{"winner": 0, "han": 2, "fu": 30}]}
    services.add_hand(game.pk, 1, dealer_wins)  # the dealer keeps the deal: E1, one honba
    game.refresh_from_db()
    assert game.round_now == "E1-1"
    services.add_hand(game.pk, 2, RON)  # seat 1 wins: the deal passes, the honba go
    game.refresh_from_db()
    assert game.round_now == "E2-0"
    with CaptureQueriesContext(connection) as queries:
        panel = client.get(url("live", session.event.slug), **HTMX).content.decode()
    assert "E2-0" in panel
    assert not [q for q in queries.captured_queries if "tournaments_hand" in q["sql"]]


def test_the_event_live_screen_shows_the_round_being_played_not_one_seated_ahead(
    client, session, game
):
    # Round 2 exists with nothing at its tables yet; round 1's table is playing.
    Session.objects.create(event=session.event, number=2, date=session.date)
    panel = client.get(url("live", session.event.slug), **HTMX).content.decode()
    assert "Session 1<" in panel
    assert "session=1" not in panel  # the next poll follows the play, not session 1


def test_the_event_live_screen_moves_on_when_the_next_round_starts(client, session, game):
    services.add_hand(game.pk, 1, RON)
    second = Session.objects.create(event=session.event, number=2, date=session.date)
    make_tables(second, 1)
    panel = client.get(url("live", session.event.slug), **HTMX).content.decode()
    assert "Session 2<" in panel


def test_a_live_screen_opened_for_a_session_stays_on_it(client, session, game):
    second = Session.objects.create(event=session.event, number=2, date=session.date)
    make_tables(second, 1)
    panel = client.get(url("live", session.event.slug), {"session": 1}, **HTMX).content.decode()
    assert "Session 1<" in panel
    assert "session=1" in panel


def two_pages_of_tables_seen(client, session):
    """Nine tables, two pages of them on the live screen (tables 1-8, then table 9), each
    page drawn once: the games and the two pages' addresses."""
    games = make_tables(session, 9)
    first, second = url("live", session.event.slug), url("live", session.event.slug) + "?page=1"
    services.add_hand(games[8].pk, 1, RON)  # the round is under way: the tables show
    client.get(first, **HTMX)
    client.get(second, **HTMX)
    return games, first, second


def test_a_phones_report_at_one_table_draws_only_its_own_page_of_tables_again(client, session):
    games, first, second = two_pages_of_tables_seen(client, session)
    services.note_phone_contact(games[0].pk, waiting=2)  # table 1, on the first page
    with CaptureQueriesContext(connection) as other_page:
        client.get(second, **HTMX)
    assert not [q for q in other_page.captured_queries if "tournaments_player" in q["sql"]]
    # Table 1's own page shows the report at once (no other table has a phone).
    assert "live-phone waiting" in client.get(first, **HTMX).content.decode()


def test_a_hand_at_one_table_draws_only_its_own_page_of_tables_again(client, session):
    games, first, second = two_pages_of_tables_seen(client, session)
    services.add_hand(games[0].pk, 1, RON)  # at table 1, on the first page
    with CaptureQueriesContext(connection) as other_page:
        panel = client.get(second, **HTMX).content.decode()
    assert "T9P0" in panel
    # The second page's cards are kept: no seat or name of a card is read.
    assert not [q for q in other_page.captured_queries if "tournaments_player" in q["sql"]]
    with CaptureQueriesContext(connection) as own_page:
        panel = client.get(first, **HTMX).content.decode()
    assert [q for q in own_page.captured_queries if "tournaments_player" in q["sql"]]
    assert "E1-0" not in panel.split('data-table="1"')[1].split("</li>\n")[0]

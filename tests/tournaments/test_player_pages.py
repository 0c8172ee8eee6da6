"""A player's page: their games across the events the viewer may read, totals, the
filter by event and the cumulative chart drawn on the server."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from html import unescape

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.charts import cumulative_chart, game_step, nice_step
from tournaments.models import Event, Session

MINUS = "\u2212"


def content(response) -> str:
    return unescape(response.content.decode())


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def totals(html: str) -> dict[str, str]:
    block = re.search(r'<dl class="totals"[^>]*>(.*?)</dl>', html, re.S).group(1)
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", block, re.S)
    return {text(term): text(value) for term, value in pairs}


def polyline_points(html: str) -> list[tuple[float, float]]:
    svg = re.search(r"<svg[^>]*>.*?</svg>", html, re.S).group(0)
    points = re.search(r'<polyline[^>]*points="([^"]*)"', svg).group(1)
    return [tuple(float(v) for v in pair.split(",")) for pair in points.split()]


def final(session, players, scores, table=1):
    doc = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": [p.display_name for p in players],
        "final_scores": scores,
        "leftover_sticks": 0,
    }
    return services.create_game_from_record(session, doc, players, table_number=table)


def player_url(player, event=None):
    url = reverse("tournaments:player", args=[player.pk])
    return f"{url}?event={event}" if event else url


@pytest.fixture
def cup(organiser):
    event = Event.objects.create(
        name="Autumn Cup", slug="cup", starts_on=datetime.date(2026, 10, 3)
    )
    return Session.objects.create(event=event, number=1, date=event.starts_on)


@pytest.fixture
def closed(organiser):
    event = Event.objects.create(
        name="Closed Club", slug="closed", starts_on=datetime.date(2026, 11, 1), is_public=False
    )
    event.organisers.add(organiser)
    return Session.objects.create(event=event, number=1, date=event.starts_on)


@pytest.fixture
def history(session, cup, closed, players):
    """Aki: 1st (+61.3) and 4th (−45.0) in the Thursday League, 2nd (+4.9) in the Autumn
    Cup, 1st (+61.3) in the private Closed Club, and one game still going on."""
    aki, ben, chie, dan = players
    games = [
        final(session, players, [41300, 24900, 21800, 12000], 1),
        final(session, [dan, chie, ben, aki], [35000, 30000, 20000, 15000], 2),
        final(cup, [ben, aki, chie, dan], [41300, 24900, 21800, 12000], 1),
        final(closed, players, [41300, 24900, 21800, 12000], 1),
    ]
    services.create_game(session, players, table_number=3)
    return games


@pytest.mark.django_db
def test_the_player_page_adds_up_games_points_and_places_across_readable_events(
    client, history, players
):
    response = client.get(player_url(players[0]))

    assert response.status_code == 200
    html = content(response)
    assert totals(html) == {
        "Games": "3",
        "Match points": "+21.2",
        # (1 + 4 + 2) / 3
        "Average placement": "2.33",
        "1st–2nd–3rd–4th": "1–1–0–1",
    }
    page = text(html)
    # The place in each event's standings: in the league Aki +16.3, Dan +7.0 (−48.0,
    # +55.0), Chie −8.2 (−18.2, +10.0), Ben −15.1 (+4.9, −20.0); in the cup Ben won.
    assert "Thursday League (1 in progress) 1 of 4 2 +16.3 2.50 1–0–0–1" in page
    assert "Autumn Cup 2 of 4 1 +4.9 2.00 0–1–0–0" in page
    assert "All events 2 events 3 +21.2 2.33 1–1–0–1" in page
    assert "Closed Club" not in page


@pytest.mark.django_db
def test_the_player_page_lists_each_game_with_placement_and_match_points(client, history, players):
    html = content(client.get(player_url(players[0])))

    for game in history[:3]:
        assert f'href="{game.get_absolute_url()}"' in html
    assert f'href="{history[3].get_absolute_url()}"' not in html
    page = text(html)
    assert f"{MINUS}45.0" in page and "+61.3" in page and "+4.9" in page


@pytest.mark.django_db
def test_the_event_filter_shows_one_events_games_totals_and_chart(client, history, players):
    response = client.get(player_url(players[0], "thursday"))

    assert response.status_code == 200
    html = content(response)
    assert totals(html) == {
        "Games": "2",
        "Match points": "+16.3",
        "Average placement": "2.50",
        "1st–2nd–3rd–4th": "1–0–0–1",
    }
    assert f'href="{history[0].get_absolute_url()}"' in html
    assert f'href="{history[2].get_absolute_url()}"' not in html
    assert len(polyline_points(html)) == 2
    # The chosen event is marked in the list of events, which still shows them all.
    assert re.search(r'<a href="\?event=thursday" aria-current="page">Thursday League</a>', html)
    assert "Autumn Cup" in html


@pytest.mark.django_db
def test_the_chart_has_one_point_per_finished_game_in_the_order_played(client, history, players):
    html = content(client.get(player_url(players[0])))

    svg = re.search(r"<svg[^>]*>.*?</svg>", html, re.S).group(0)
    points = polyline_points(html)
    assert len(points) == 3  # the game in progress is not on the chart
    # Running totals +61.3, +16.3, +21.2: down after the second game, up after the third.
    ys = [y for _, y in points]
    assert ys[0] < ys[2] < ys[1]
    assert 'class="zero"' in svg and "Match points" in svg and "Games" in svg
    assert "<script" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]


@pytest.mark.django_db
def test_a_private_event_is_on_the_player_page_of_its_organiser_only(
    client, history, players, stranger, organiser
):
    aki = players[0]

    assert client.get(player_url(aki, "closed")).status_code == 404
    client.force_login(stranger)
    assert client.get(player_url(aki, "closed")).status_code == 404
    assert "Closed Club" not in content(client.get(player_url(aki)))
    client.force_login(organiser)
    response = client.get(player_url(aki))
    assert "Closed Club" in content(response)
    assert totals(content(response))["Games"] == "4"
    assert client.get(player_url(aki, "closed")).status_code == 200


@pytest.mark.django_db
def test_an_unknown_event_in_the_filter_is_not_found(client, players):
    assert client.get(player_url(players[0], "nowhere")).status_code == 404


@pytest.mark.django_db
def test_a_player_without_finished_games_has_no_chart(client, session, players):
    services.create_game(session, players, table_number=1)

    html = content(client.get(player_url(players[0])))

    assert "<svg" not in html
    assert totals(html) == {
        "Games": "0",
        "Match points": "–",
        "Average placement": "–",
        "1st–2nd–3rd–4th": "0–0–0–0",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("games", [2, 12])
def test_the_player_page_costs_the_same_queries_for_few_and_many_games(
    client, session, cup, players, django_assert_max_num_queries, games
):
    for number in range(games):
        final(session if number % 2 else cup, players, [41300, 24900, 21800, 12000], number)

    # The statistics add two queries: the player's stored statistics of finished games and
    # their seats in games still going. The place in each event is worked out once for
    # each results version of the event: a few queries for each of the two events, the
    # first time only. Whether the player has merged names (aliases) or a rating over
    # their events is read with the player: with neither, neither is read. The seats are
    # read as numbers, their events once, and the table's page of games on its own.
    with django_assert_max_num_queries(7 + 5 * 2):
        response = client.get(player_url(players[0]))
    assert len(polyline_points(content(response))) == games
    with django_assert_max_num_queries(8) as cached:
        response = client.get(player_url(players[0], "thursday"))
    assert len(polyline_points(content(response))) == games // 2
    tables = [re.match(r'SELECT (?:DISTINCT )?"(\w+)"', q["sql"]) for q in cached.captured_queries]
    read = {table[1] for table in tables if table}
    assert not read & {"tournaments_playeralias", "tournaments_rating"}


# The chart's geometry, without a database


def test_one_game_is_a_single_point_in_the_middle_with_a_marker():
    chart = cumulative_chart([Decimal("61.3")])

    x, y = (float(v) for v in chart.points.split(","))
    assert x == (chart.left + chart.right) / 2
    assert chart.top <= y <= chart.bottom
    assert len(chart.dots) == 1
    assert chart.last.label == "+61.3"
    assert [t.label for t in chart.x_ticks] == ["1"]


def test_two_hundred_games_fit_the_box_with_a_readable_axis():
    values = [Decimal((-1) ** n * (n % 7)) + Decimal("0.5") for n in range(200)]

    chart = cumulative_chart(values)

    points = [tuple(float(v) for v in pair.split(",")) for pair in chart.points.split()]
    assert len(points) == 200
    assert all(chart.left <= x <= chart.right and chart.top <= y <= chart.bottom for x, y in points)
    assert points[0][0] == chart.left and points[-1][0] == chart.right
    # Game numbers every 20 games, not 200 labels; no markers crowd the line.
    assert [t.label for t in chart.x_ticks] == ["1"] + [str(n) for n in range(20, 201, 20)]
    assert chart.dots == []
    assert chart.top <= chart.zero_y <= chart.bottom


def test_the_points_axis_always_shows_zero_and_round_steps():
    chart = cumulative_chart([Decimal("61.3"), Decimal("-45.0"), Decimal("4.9")])

    labels = [t.label for t in chart.y_ticks]
    assert labels == ["0", "+20", "+40", "+60", "+80"]
    assert chart.zero_y == chart.bottom
    all_losses = cumulative_chart([Decimal("-48.0"), Decimal("-18.2")])
    assert [t.label for t in all_losses.y_ticks][-1] == "0"
    assert all_losses.zero_y == all_losses.top


def test_nice_steps_and_game_steps_are_round_numbers():
    assert nice_step(Decimal(130), 5) == 50
    assert nice_step(Decimal("0.4"), 5) == Decimal("0.1")
    assert nice_step(Decimal(1000), 5) == 200
    assert [game_step(n) for n in (1, 10, 11, 25, 60, 200, 1000)] == [1, 1, 2, 5, 10, 20, 100]


@pytest.mark.django_db
def test_a_player_known_only_from_a_private_event_is_not_found_by_a_stranger(
    client, stranger, organiser
):
    private = Event.objects.create(
        name="Back Room", slug="back-room", starts_on=datetime.date(2026, 1, 1), is_public=False
    )
    private.organisers.add(organiser)
    session = Session.objects.create(event=private, number=1, date=datetime.date(2026, 1, 1))
    seated = services.players_by_name(["Hidden", "Quiet", "Still", "Shy"], create=True)
    services.create_game(session, seated, table_number=1)
    rostered, newcomer = services.players_by_name(["Listed", "Fresh"], create=True)
    services.add_to_roster(private.pk, [rostered])
    for reader in (None, stranger):
        if reader:
            client.force_login(reader)
        assert client.get(player_url(seated[0])).status_code == 404
        assert client.get(player_url(rostered)).status_code == 404
        # A player with no games and no roster place is nobody's secret.
        assert client.get(player_url(newcomer)).status_code == 200
    client.force_login(organiser)
    assert client.get(player_url(seated[0])).status_code == 200
    assert client.get(player_url(rostered)).status_code == 200


@pytest.mark.django_db
def test_the_games_table_reads_a_page_at_a_time_finished_newest_first_then_those_going_on(
    client, history, players, monkeypatch
):
    from tournaments.models import Game
    from tournaments.views import events

    monkeypatch.setattr(events, "PLAYER_GAMES_PER_PAGE", 2)
    finished = sorted(
        history[:3],
        key=lambda g: (g.session.date, g.session.number, g.table_number, g.pk),
        reverse=True,
    )
    playing = Game.objects.get(status=Game.Status.IN_PROGRESS)
    shown = []
    for page in (1, 2):
        html = content(client.get(player_url(players[0]) + f"?page={page}"))
        table = html[html.index('<table class="listing"') :]
        shown += [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', table)]
    assert shown == [game.pk for game in [*finished, playing]]

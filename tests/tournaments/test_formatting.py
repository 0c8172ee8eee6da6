"""Every number has one look: zero, negative, positive and missing values read the same on
the standings, the results, the player page, the game page and in every export, and one
average placement is computed once (13 over 8 games is 1.63 everywhere)."""

from __future__ import annotations

import csv
import datetime
import io
import json
import random
import re
from decimal import ROUND_HALF_UP, Decimal
from html import unescape

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template

from tests.conftest import fresh, kept_for_module, make_organiser
from tests.tournaments.builders import final_game
from tournaments.models import Event, Game, Player, Session
from tournaments.wording import formatting

from .test_standings_views import column, parse_table, url

pytestmark = pytest.mark.django_db

MINUS = "\u2212"
DASH = "\u2013"


# The functions themselves


@pytest.mark.parametrize(
    ("function", "positive", "negative", "zero", "missing"),
    [
        (formatting.points, (25000, "25,000"), (-1500, f"{MINUS}1,500"), (0, "0"), DASH),
        (formatting.delta, (8000, "+8,000"), (-2600, f"{MINUS}2,600"), (0, "0"), DASH),
        (
            formatting.match_points,
            (Decimal("61.3"), "+61.3"),
            (Decimal("-48"), f"{MINUS}48.0"),
            (Decimal("0.0"), "0.0"),
            DASH,
        ),
        (
            formatting.penalty,
            (Decimal("5"), "+5.0"),
            (Decimal("-20"), f"{MINUS}20.0"),
            (Decimal(0), DASH),
            DASH,
        ),
        (
            formatting.rule_number,
            (Decimal("30"), "+30"),
            (Decimal("-10.0"), f"{MINUS}10"),
            (Decimal(0), "0"),
            DASH,
        ),
        (
            formatting.sheet_match_points,
            (Decimal("61.3"), "61.3"),
            (Decimal("-18.2"), f"{MINUS}18.2"),
            (Decimal(0), "0.0"),
            DASH,
        ),
    ],
    ids=lambda value: getattr(value, "__name__", None),
)
def test_each_kind_of_number_has_one_look_for_zero_sign_and_missing(
    function, positive, negative, zero, missing
):
    for value, text in (positive, negative, zero):
        assert function(value) == text
    assert function(None) == missing
    assert "-" not in function(negative[0]), "a true minus sign, never a hyphen"


def test_a_negative_zero_has_no_sign():
    assert formatting.match_points(Decimal("-0.0")) == "0.0"
    assert formatting.match_points(Decimal("-0.04")) == "0.0"


def test_averages_round_halves_up_in_one_place():
    assert formatting.average(13, 8) == Decimal("1.63")
    assert formatting.average(Decimal("2.5"), 1, 0) == Decimal(3)
    assert formatting.average(5, 0) is None
    assert formatting.average_placement(Decimal("1.625")) == "1.63"
    assert formatting.average_placement(None) == DASH


def test_the_template_filters_are_the_formatting_functions():
    template = Template(
        "{% load numbers %}{{ p|points }} {{ d|delta }} {{ m|match_points }} {{ z|match_points }}"
        " {{ n|match_points }} {{ q|placement }} {{ a|average_placement }} {{ u|rule_number }}"
        " {{ k|penalty }}"
    )
    context = Context(
        {
            "p": -1500,
            "d": 0,
            "m": Decimal("4.9"),
            "z": Decimal(0),
            "n": None,
            "q": 2,
            "a": Decimal("1.625"),
            "u": Decimal(-10),
            "k": Decimal(0),
        }
    )
    assert template.render(context) == (f"{MINUS}1,500 0 +4.9 0.0 {DASH} 2nd 1.63 {MINUS}10 {DASH}")


# The pages and exports


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", unescape(html))).strip()


def build_event(organiser):
    """Totals under ari-ari (uma 30/10, oka 20): A +120.0, Z 0.0, B -15.0, M -50.0
    (session 1 only), C -55.0; in game 3, E has exactly 0.0, F -20.0, D +70.0. N has no
    game at all."""
    event = Event.objects.create(name="Looks", slug="looks", starts_on=datetime.date(2026, 1, 1))
    event.organisers.add(organiser)
    one = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    two = Session.objects.create(event=event, number=2, date=datetime.date(2026, 1, 8))
    # +15+30+20, 0+10, -15-10, -20-30
    final_game(one, ["A", "Z", "B", "M"], [45000, 30000, 15000, 10000], 1)
    # +5+30+20, 0+10, 0-10 (Z sits after B), -25-30
    final_game(two, ["A", "B", "Z", "C"], [35000, 30000, 30000, 5000], 1)
    # +20+30+20, -10+10, -10-10 (F sits after E), -20-30
    final_game(two, ["D", "E", "F", "G"], [50000, 20000, 20000, 10000], 2)
    Player.objects.create(display_name="N")
    return event


# Built once for the module; every test reads it afresh (see tests/conftest.py).
@pytest.fixture(scope="module")
def _built(django_db_setup, django_db_blocker):
    with kept_for_module(django_db_blocker):
        organiser = make_organiser(get_user_model())
        yield organiser, build_event(organiser)


@pytest.fixture
def organiser(_built, db):
    return fresh(_built[0])


@pytest.fixture
def event(_built, db):
    return fresh(_built[1])


TOTALS = {
    "positive": ("A", "+120.0", Decimal("120.0")),
    "negative": ("B", f"{MINUS}15.0", Decimal("-15.0")),
    "zero": ("Z", "0.0", Decimal("0.0")),
}
GAME_POINTS = {
    "positive": ("D", "+70.0", Decimal("70.0")),
    "negative": ("F", f"{MINUS}20.0", Decimal("-20.0")),
    "zero": ("E", "0.0", Decimal("0.0")),
}


def standings_cell(client, player: str, header: str) -> str:
    parsed = parse_table(client.get(url("standings", "looks")))
    return column(parsed, header)[column(parsed, "Player").index(player)]


def export_rows(client, name: str, kind: str) -> list[dict]:
    response = client.get(url(name, "looks"), {"_export": kind})
    assert response.status_code == 200
    if kind == "csv":
        return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    if kind == "json":
        return json.loads(response.content, parse_float=Decimal)
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header, *rows = (list(row) for row in sheet.iter_rows(values_only=True))
    return [dict(zip(header, row, strict=True)) for row in rows]


def as_decimal(value) -> Decimal | None:
    if value is None or value == "":
        return None
    assert isinstance(value, str | int | float | Decimal) and not isinstance(value, bool)
    return Decimal(str(value))


@pytest.mark.parametrize("kind", TOTALS)
def test_a_total_looks_the_same_on_the_standings_and_the_player_page(client, event, kind):
    name, shown, _ = TOTALS[kind]
    assert standings_cell(client, name, "Total") == shown
    player = Player.objects.get(display_name=name)
    page = text(client.get(url("player", player.pk)).content.decode())
    assert f"Match points {shown} " in page


@pytest.mark.parametrize("kind", GAME_POINTS)
def test_a_games_match_points_look_the_same_on_the_game_page_results_and_player_page(
    client, event, kind
):
    name, shown, _ = GAME_POINTS[kind]
    game = Game.objects.get(table_number=2)
    game_page = client.get(reverse_game(game)).content.decode()
    assert f"<b>{shown}</b>" in game_page
    parsed = parse_table(client.get(url("results", "looks")))
    players = column(parsed, "Player")
    assert column(parsed, "Match points")[players.index(name)] == shown
    player = Player.objects.get(display_name=name)
    player_page = text(client.get(url("player", player.pk)).content.decode())
    assert f"Match points {shown} " in player_page


def reverse_game(game) -> str:
    return url("game", game.pk)


@pytest.mark.parametrize("export", ["csv", "json", "xlsx"])
@pytest.mark.parametrize("kind", TOTALS)
def test_exports_carry_the_total_as_a_plain_number(client, event, kind, export):
    name, _, number = TOTALS[kind]
    rows = {row["Player"]: row for row in export_rows(client, "standings", export)}
    value = rows[name]["Total"]
    assert as_decimal(value) == number
    if export == "csv":
        assert value == str(number), "ASCII minus, no plus sign, one decimal"


@pytest.mark.parametrize("export", ["csv", "json", "xlsx"])
@pytest.mark.parametrize("kind", GAME_POINTS)
def test_exports_carry_a_games_match_points_as_a_plain_number(client, event, kind, export):
    name, _, number = GAME_POINTS[kind]
    rows = {row["Player"]: row for row in export_rows(client, "results", export)}
    assert as_decimal(rows[name]["Match points"]) == number


def test_a_missing_value_is_a_dash_on_the_pages_and_empty_in_the_exports(client, event):
    # M did not play session 2; N has played no game at all.
    assert standings_cell(client, "M", "S2 pts") == DASH
    for export in ("csv", "json", "xlsx"):
        rows = {row["Player"]: row for row in export_rows(client, "standings", export)}
        assert as_decimal(rows["M"]["S2 pts"]) is None
    nobody = Player.objects.get(display_name="N")
    page = text(client.get(url("player", nobody.pk)).content.decode())
    assert f"Match points {DASH} " in page
    assert f"Average placement {DASH} " in page


# One average, one rounding


@pytest.fixture
def eight_games(organiser):
    """P places 1, 1, 1, 1, 1, 2, 3, 3: 13 over 8 games, 1.625 exactly."""
    event = Event.objects.create(name="Eight", slug="eight", starts_on=datetime.date(2026, 1, 1))
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    seats = {
        1: (["P", "Q", "R", "S"], [40000, 30000, 20000, 10000]),
        2: (["Q", "P", "R", "S"], [40000, 30000, 20000, 10000]),
        3: (["Q", "R", "P", "S"], [40000, 30000, 20000, 10000]),
    }
    for table, place in enumerate([1, 1, 1, 1, 1, 2, 3, 3], start=1):
        names, scores = seats[place]
        final_game(session, names, scores, table)
    return event


def test_eight_games_placed_thirteen_in_all_average_1_63_on_both_pages(client, eight_games):
    parsed = parse_table(client.get(url("standings", "eight")))
    assert column(parsed, "Avg place")[column(parsed, "Player").index("P")] == "1.63"
    player = Player.objects.get(display_name="P")
    page = text(client.get(url("player", player.pk)).content.decode())
    assert "Average placement 1.63 " in page
    assert "1.62" not in page


def test_averages_of_whole_numbers_round_as_decimals_do_and_print_alike():
    rng = random.Random(12)
    cases = [(5, 2, 0), (-5, 2, 0), (-1, 1000, 2), (13, 8, 2), (0, 3, 2), (202700, 8, 0)]
    cases += [
        (rng.randint(-(10**7), 10**7), rng.randint(1, 400), rng.choice((0, 1, 2)))
        for _ in range(5000)
    ]
    for total, count, places in cases:
        exact = (Decimal(total) / count).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
        got = formatting.average(total, count, places)
        assert (got, str(got)) == (exact, str(exact)), (total, count, places)

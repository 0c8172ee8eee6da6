"""The EMA's results file, its refusal while results do not balance, the MERS weight and
the players' EMA numbers and countries."""

from __future__ import annotations

import csv
import datetime
import io
import json
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.builders import final_game
from tournaments import backup, exchange, services, totals
from tournaments.models import (
    Event,
    Game,
    GameSeat,
    Penalty,
    Player,
    PlayerTotal,
    Session,
)
from tournaments.reading import ema
from tournaments.reading.ema import base_rank, mers_weight, split_name

pytestmark = pytest.mark.django_db

# Six tables of four: each table's scores, first to fourth (each table sums to 100,000).
# Under ari-ari (30,000 return, uma 30/10/-10/-30, oka 20 to the first) a seat's match
# points are (score - 30,000) / 1,000 + uma (+ oka). Tables 4 and 5 both have a second
# place on 26,800 (+6.8): same points, same placement, same score, so the standings'
# tie-breaks leave those two players sharing a place.
TABLES = [
    [50000, 28000, 14000, 8000],
    [49000, 27700, 14900, 8400],
    [48000, 27400, 15800, 8800],
    [47000, 27100, 16700, 9200],
    [46000, 26800, 17600, 9600],
    [45000, 26800, 18500, 9700],
]
COUNTRIES = ["DE", "FR", "NL", "AT", "DK", "PL", "IT"]


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def name(index: int) -> str:
    return f"P{index + 1:02d}"


@pytest.fixture
def tournament(organiser) -> Event:
    """24 players in one session: P01-P04 at table 1, ..., P21-P24 at table 6."""
    event = Event.objects.create(
        name="Open",
        slug="open",
        kind=Event.Kind.TOURNAMENT,
        starts_on=datetime.date(2026, 5, 2),
        ends_on=datetime.date(2026, 5, 3),
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 5, 2))
    for table, scores in enumerate(TABLES):
        final_game(session, [name(table * 4 + seat) for seat in range(4)], scores, table + 1)
    for index, player in enumerate(Player.objects.order_by("display_name")):
        player.real_name = f"Given{index + 1} Family{index + 1}"
        player.ema_number = f"0401{index + 1:04d}"
        player.country = COUNTRIES[index % len(COUNTRIES)]
        player.save()
    return event


# The expected file, worked out by hand. N = 24, base rank = 1000 x (24 - place) / 23.
# Firsts: P01 +70 (50,000: +20 +30 +20), P05 +69, P09 +68, P13 +67, P17 +66, P21 +65:
# places 1-6, base ranks 1000, 22000/23 = 956.52, 913.04, 869.57, 826.09, 782.61.
# Seconds: P02 +8.0 (28,000: -2 +10), P06 +7.7, P10 +7.4, P14 +7.1: places 7-10, base
# ranks 17000/23 = 739.13, 695.65, 652.17, 608.70. P18 and P22 +6.8 each (26,800): they
# share place 11, holding places 11 and 12 together: each gets the mean of 13000/23 and
# 12000/23 = 12500/23 = 543.48 (P18 first of the two by name).
# Thirds: P23 -21.5 (18,500: -11.5 -10), P19 -22.4, P15 -23.3, P11 -24.2, P07 -25.1,
# P03 -26.0: places 13-18, base ranks 11000/23 = 478.26 down to 6000/23 = 260.87.
# Fourths: P24 -50.3 (9,700: -20.3 -30), P20 -50.4, P16 -50.8, P12 -51.2, P08 -51.6,
# P04 -52.0: places 19-24, base ranks 5000/23 = 217.39 down to 0.
EXPECTED = [
    (1, "P01", "70.0", "1000.00"),
    (2, "P05", "69.0", "956.52"),
    (3, "P09", "68.0", "913.04"),
    (4, "P13", "67.0", "869.57"),
    (5, "P17", "66.0", "826.09"),
    (6, "P21", "65.0", "782.61"),
    (7, "P02", "8.0", "739.13"),
    (8, "P06", "7.7", "695.65"),
    (9, "P10", "7.4", "652.17"),
    (10, "P14", "7.1", "608.70"),
    (11, "P18", "6.8", "543.48"),
    (11, "P22", "6.8", "543.48"),
    (13, "P23", "-21.5", "478.26"),
    (14, "P19", "-22.4", "434.78"),
    (15, "P15", "-23.3", "391.30"),
    (16, "P11", "-24.2", "347.83"),
    (17, "P07", "-25.1", "304.35"),
    (18, "P03", "-26.0", "260.87"),
    (19, "P24", "-50.3", "217.39"),
    (20, "P20", "-50.4", "173.91"),
    (21, "P16", "-50.8", "130.43"),
    (22, "P12", "-51.2", "86.96"),
    (23, "P08", "-51.6", "43.48"),
    (24, "P04", "-52.0", "0.00"),
]


PLAYER_FORM_FIELDS = (
    "display_name",
    "real_name",
    "last_name",
    "first_name",
    "ema_number",
    "country",
)


def expected_row(place, display, points, rank) -> dict:
    number = int(display[1:])
    return {
        # A file's place is the number alone: tied players have the same one.
        "Place": str(place),
        "EMA number": f"0401{number:04d}",
        "Last name": f"Family{number}",
        "First name": f"Given{number}",
        "Country": COUNTRIES[(number - 1) % len(COUNTRIES)],
        "Points": points,
        "Base rank": rank,
    }


def csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_ema_file_of_a_24_player_event_places_every_player_with_a_shared_place(
    tournament,
):
    rows = ema.results(tournament)

    assert [(r.place, r.points, r.base_rank) for r in rows] == [
        (place, Decimal(points), Decimal(rank)) for place, _name, points, rank in EXPECTED
    ]
    assert [r.shared for r in rows] == [place == 11 for place, *_ in EXPECTED]
    # The base ranks the tied players hold add up to those of the places they hold.
    assert rows[10].base_rank + rows[11].base_rank == Decimal("1086.96")


def test_the_ema_csv_has_the_columns_of_the_emas_results_pages(organiser_client, tournament):
    response = organiser_client.get(url("ema_results", tournament.slug), {"_export": "csv"})

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="open-ema-results.csv"'
    rows = csv_rows(response)
    assert list(rows[0]) == [
        "Place",
        "EMA number",
        "Last name",
        "First name",
        "Country",
        "Points",
        "Base rank",
    ]
    assert rows == [expected_row(*row) for row in EXPECTED]


def test_the_ema_xlsx_holds_numbers_as_numbers(organiser_client, tournament):
    response = organiser_client.get(url("ema_results", tournament.slug), {"_export": "xlsx"})

    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    cells = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert cells[0] == [
        "Place",
        "EMA number",
        "Last name",
        "First name",
        "Country",
        "Points",
        "Base rank",
    ]
    assert cells[1] == [1, "04010001", "Family1", "Given1", "DE", 70, 1000]
    assert cells[11][0] == 11 and cells[12][0] == 11
    assert cells[11][6] == pytest.approx(543.48)
    assert cells[24] == [24, "04010004", "Family4", "Given4", "AT", -52, 0]
    assert len(cells) == 25


def test_the_ema_page_shows_the_file_and_the_tie_rule(organiser_client, tournament):
    page = organiser_client.get(url("ema_results", tournament.slug)).content.decode()

    assert "24 ranked players" in page and "11=" in page and "543.48" in page
    assert "each gets their mean" in page
    assert "?_export=csv" in page and "?_export=xlsx" in page


def test_the_ema_page_names_the_players_the_ema_could_not_tell_apart(organiser_client, tournament):
    page = organiser_client.get(url("ema_results", tournament.slug)).content.decode()
    assert "Check before sending" not in page
    # Edited on their player pages: the EMA page, built once per results version, follows.
    for name, change in (("P05", {"ema_number": ""}), ("P06", {"real_name": ""})):
        player = Player.objects.get(display_name=name)
        form = {f: getattr(player, f) for f in PLAYER_FORM_FIELDS} | change
        response = organiser_client.post(reverse("tournaments:player_edit", args=[player.pk]), form)
        assert response.status_code == 302
    page = organiser_client.get(url("ema_results", tournament.slug)).content.decode()
    assert "2 players have no EMA number or no first and last name" in page
    for name in ("P05", "P06"):
        pk = Player.objects.get(display_name=name).pk
        assert f'href="{reverse("tournaments:player_edit", args=[pk])}">{name}</a>' in page


def test_a_formula_in_a_name_stays_text_in_the_ema_file(organiser_client, tournament):
    Player.objects.filter(display_name="P01").update(last_name="=HYPERLINK(1)", first_name="Ann")

    rows = csv_rows(organiser_client.get(url("ema_results", tournament.slug), {"_export": "csv"}))

    assert rows[0]["Last name"] == "'=HYPERLINK(1)"


def test_an_unfinished_game_refuses_the_ema_file_with_the_reason(organiser_client, tournament):
    session = tournament.sessions.get()
    open_game = services.create_game(
        session, services.players_by_name(["Q1", "Q2", "Q3", "Q4"], create=True), table_number=7
    )

    response = organiser_client.get(url("ema_results", tournament.slug), {"_export": "csv"})

    assert response.status_code == 409
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "not made while the results do not balance" in page
    assert "Session 1, table 7 is not finished" in page
    assert open_game.status == Game.Status.IN_PROGRESS


def test_penalties_that_do_not_balance_refuse_the_ema_file(organiser_client, tournament):
    # A penalty counted on a seat with no penalty recorded for it: the results were
    # changed behind the app's back, and the file would send points nobody can explain.
    seat = GameSeat.objects.get(player__display_name="P02")
    GameSeat.objects.filter(pk=seat.pk).update(penalty_points=Decimal("-5"))

    response = organiser_client.get(url("ema_results", tournament.slug), {"_export": "xlsx"})

    assert response.status_code == 409
    page = response.content.decode()
    assert (
        "Session 1, table 1: the penalties counted for P02 (-5.0) are not those recorded (0.0)"
        in (page)
    )


def test_totals_behind_their_games_refuse_the_ema_file(organiser_client, tournament):
    PlayerTotal.objects.filter(player__display_name="P05", session__isnull=True).update(
        points_tenths=0
    )

    problems = ema.balance_problems(tournament)

    assert problems == [
        "P05: the standings count 0.0, their games add up to 69.0. Save the event's rules page "
        "again: it scores every game anew and recounts the standings."
    ]
    response = organiser_client.get(url("ema_results", tournament.slug), {"_export": "csv"})
    assert response.status_code == 409


def test_a_balanced_event_with_a_penalty_exports(organiser_client, organiser):
    event = Event.objects.create(
        name="Small", slug="small", kind="tournament", starts_on=datetime.date(2026, 1, 1)
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    penalty = {"seat": 3, "match_points": -5.0, "reason": "late"}
    final_game(session, ["A", "B", "C", "D"], [35000, 30000, 20000, 15000], 1, [penalty])

    assert ema.balance_problems(event) == []
    rows = csv_rows(organiser_client.get(url("ema_results", event.slug), {"_export": "csv"}))
    # D: -15 -30 -5 = -50; four players: base ranks 1000, 666.67, 333.33, 0.
    assert [(r["Last name"], r["Points"], r["Base rank"]) for r in rows] == [
        ("A", "55.0", "1000.00"),
        ("B", "10.0", "666.67"),
        ("C", "-20.0", "333.33"),
        ("D", "-50.0", "0.00"),
    ]


def test_an_event_without_games_has_no_ema_file(organiser_client, event):
    response = organiser_client.get(url("ema_results", event.slug), {"_export": "csv"})

    assert response.status_code == 409
    assert "The event has no games" in response.content.decode()


def test_an_unknown_format_is_refused_plainly(organiser_client, tournament):
    response = organiser_client.get(url("ema_results", tournament.slug), {"_export": "pdf"})

    assert response.status_code == 409
    assert "Choose CSV or Excel (XLSX)" in response.content.decode()


def test_names_are_split_as_the_ema_lists_them():
    assert split_name(Player(display_name="X", real_name="Anna Maria de Vries")) == (
        "Vries",
        "Anna Maria de",
    )
    assert split_name(Player(display_name="X", real_name="de Vries, Anna Maria")) == (
        "de Vries",
        "Anna Maria",
    )
    assert split_name(Player(display_name="X", real_name="Ana", last_name="Ruiz")) == (
        "Ruiz",
        "",
    )
    assert split_name(Player(display_name="Kaz")) == ("Kaz", "")


def test_base_ranks_of_one_and_two_players():
    assert base_rank(1, 1) == Decimal("1000.00")
    assert base_rank(1, 2) == Decimal("1000.00") and base_rank(2, 2) == Decimal("0.00")
    # Both players of two sharing first: the mean of 1000 and 0.
    assert base_rank(1, 2, sharing=2) == Decimal("500.00")


# The MERS weight at its bounds ("Basics for ranking system", the EMA).


@pytest.mark.parametrize(("players", "weight"), [(40, "0"), (41, "0.5"), (80, "0.5"), (81, "1")])
def test_the_mers_weight_of_players_at_its_bounds(players, weight):
    result = mers_weight(days=1, players=players, countries=1, qualification=False)

    assert result.parts[1].weight == Decimal(weight)
    assert result.total == 1 + Decimal(weight)


@pytest.mark.parametrize(("countries", "weight"), [(5, "0"), (6, "0.5"), (9, "0.5"), (10, "1")])
def test_the_mers_weight_of_countries_at_its_bounds(countries, weight):
    result = mers_weight(days=1, players=20, countries=countries, qualification=False)

    assert result.parts[2].weight == Decimal(weight)
    assert result.total == 1 + Decimal(weight)


@pytest.mark.parametrize(("days", "weight"), [(1, 1), (2, 2), (3, 3), (4, 3)])
def test_the_mers_weight_counts_at_most_three_days(days, weight):
    assert mers_weight(days=days, players=20, countries=1, qualification=False).total == weight


def test_a_qualification_adds_one_to_the_mers_weight():
    result = mers_weight(days=3, players=81, countries=10, qualification=True)

    assert result.total == Decimal(6)
    assert [part.what for part in result.parts] == [
        "3 days",
        "81 players",
        "10 countries",
        "qualification needed",
    ]


def test_the_event_page_shows_a_tournaments_mers_weight_and_how(client, tournament):
    Event.objects.filter(pk=tournament.pk).update(ema_qualification=True)
    Session.objects.create(event=tournament, number=2, date=datetime.date(2026, 5, 3))

    page = client.get(tournament.get_absolute_url()).content.decode()

    # Two days (+2), 24 players (+0), 7 countries (+0.5), a qualification (+1).
    assert "MERS weight 3.5" in page
    for line in ("2 days", "24 players", "7 countries", "qualification needed"):
        assert line in page
    assert "+0.5" in page


def test_up_to_three_substitutes_who_played_count_for_the_mers_weight(tournament):
    session = tournament.sessions.get()
    for table in range(4):
        names = [f"S{table}", f"T{table}a", f"T{table}b", f"T{table}c"]
        players = services.players_by_name(names, create=True)
        game = services.create_game(
            session,
            players,
            table_number=10 + table,
            entry_mode=Game.EntryMode.FINAL_SCORES,
            substitutes=[0],
        )
        services.set_final_scores(game.pk, [40000, 30000, 20000, 10000], 0)

    weight = ema.event_weight(tournament)

    # 24 + 12 ranked players, and 3 of the 4 substitutes.
    assert weight.players == 39


def test_a_league_page_shows_no_mers_weight(client, event):
    assert "MERS weight" not in client.get(event.get_absolute_url()).content.decode()


# EMA numbers and countries.


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("０４０１０００１", "An EMA number has digits only"),
        ("0401-0001", "An EMA number has digits only"),
        ("4010001", "An EMA number has 8 digits; this one has 7."),
        ("040100012", "An EMA number has 8 digits; this one has 9."),
    ],
)
def test_the_player_form_refuses_a_bad_ema_number(organiser_client, number, message):
    response = organiser_client.post(
        url("player_create"), {"display_name": "Emi", "ema_number": number}
    )

    assert response.status_code == 200 and message in response.content.decode()
    assert not Player.objects.exists()


def test_two_players_may_not_share_an_ema_number(organiser_client):
    Player.objects.create(display_name="Emi", ema_number="04010001")

    response = organiser_client.post(
        url("player_create"), {"display_name": "Ken", "ema_number": "0401 0001"}
    )

    assert response.status_code == 200
    assert "Another player has this EMA number already." in response.content.decode()
    assert Player.objects.count() == 1


def test_the_player_form_takes_a_country_code_in_any_case(organiser_client):
    organiser_client.post(url("player_create"), {"display_name": "Emi", "country": " de "})

    assert Player.objects.get().country == "DE"


def test_the_player_form_refuses_an_unknown_country(organiser_client):
    response = organiser_client.post(url("player_create"), {"display_name": "Emi", "country": "XX"})

    assert "“XX” is not a country code" in response.content.decode()
    assert not Player.objects.exists()


def test_an_organiser_edits_the_ema_details_of_a_player_who_played(organiser_client, tournament):
    player = Player.objects.get(display_name="P01")

    response = organiser_client.post(
        url("player_edit", player.pk),
        {
            "display_name": "P01",
            "real_name": "Ana Ruiz",
            "last_name": "Ruiz Soto",
            "first_name": "Ana",
            "ema_number": "10990001",
            "country": "es",
        },
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.last_name, player.ema_number, player.country) == ("Ruiz Soto", "10990001", "ES")
    assert ema.results(tournament)[0].last_name == "Ruiz Soto"


def test_a_stranger_may_not_edit_a_players_details(stranger_client, tournament):
    player = Player.objects.get(display_name="P01")

    response = stranger_client.post(
        url("player_edit", player.pk), {"display_name": "P01", "country": "JP"}
    )

    assert response.status_code == 403
    player.refresh_from_db()
    assert player.country == "DE"


# Round trips.


def test_the_event_file_carries_ema_numbers_countries_and_for_organisers_names(
    organiser_client, client, tournament, organiser
):
    public = json.loads(client.get(url("event_export", tournament.slug)).content)
    assert public["players"][0] == {"name": "P01", "ema_number": "04010001", "country": "DE"}
    assert "last_name" not in json.dumps(public)
    # Saved as the player's page saves it: the event's files follow.
    player = Player.objects.get(display_name="P01")
    player.last_name, player.first_name = "Family1", "Given1"
    player.save()
    data = exchange.export_event(tournament, names=True)
    assert data["players"][0] == {
        "name": "P01",
        "ema_number": "04010001",
        "country": "DE",
        "last_name": "Family1",
        "first_name": "Given1",
    }
    organisers_file = organiser_client.get(url("event_export", tournament.slug)).content
    assert '"last_name": "Family1"' in organisers_file.decode()

    # Into a fresh site: the players come back with their details.
    Event.objects.all().delete()
    Player.objects.all().delete()
    copy = Event.objects.create(name="Copy", slug="copy", starts_on=datetime.date(2026, 5, 2))

    exchange.import_event(copy, data)

    player = Player.objects.get(display_name="P01")
    assert (player.ema_number, player.country, player.last_name, player.first_name) == (
        "04010001",
        "DE",
        "Family1",
        "Given1",
    )
    assert [(r.place, r.ema_number) for r in ema.results(copy)][:2] == [
        (1, "04010001"),
        (2, "04010005"),
    ]


def test_an_event_file_with_a_bad_ema_number_is_refused_whole(tournament):
    data = exchange.export_event(tournament)
    data["players"][3]["ema_number"] = "12AB"
    copy = Event.objects.create(name="Copy", slug="copy", starts_on=datetime.date(2026, 5, 2))

    with pytest.raises(exchange.ImportRefused, match=r"player 4 \(P04\): An EMA number has"):
        exchange.import_event(copy, data)
    assert not copy.sessions.exists()


def test_an_event_file_with_an_unknown_country_is_refused_whole(tournament):
    data = exchange.export_event(tournament)
    data["players"][0]["country"] = "ZZ"
    copy = Event.objects.create(name="Copy", slug="copy", starts_on=datetime.date(2026, 5, 2))

    with pytest.raises(exchange.ImportRefused, match="is not a country code"):
        exchange.import_event(copy, data)


def test_an_imported_file_leaves_a_players_own_details_as_they_are(tournament):
    data = exchange.export_event(tournament)
    Player.objects.filter(display_name="P01").update(country="JP")
    copy = Event.objects.create(name="Copy", slug="copy", starts_on=datetime.date(2026, 5, 2))

    exchange.import_event(copy, data)

    assert Player.objects.get(display_name="P01").country == "JP"


def test_the_backup_carries_the_ema_fields_of_players_and_events(tournament):
    Player.objects.filter(display_name="P01").update(last_name="Family1", first_name="Given1")
    Event.objects.filter(pk=tournament.pk).update(substitute_rule="ema", ema_qualification=True)
    data = json.loads(json.dumps(backup.dump_site(), default=str))
    before = list(
        Player.objects.order_by("display_name").values_list(
            "display_name", "ema_number", "country", "last_name", "first_name"
        )
    )
    Event.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()

    backup.restore_site(data)

    after = list(
        Player.objects.order_by("display_name").values_list(
            "display_name", "ema_number", "country", "last_name", "first_name"
        )
    )
    assert after == before
    event = Event.objects.get(slug="open")
    assert (event.substitute_rule, event.ema_qualification) == ("ema", True)


def test_a_backup_with_a_bad_country_is_refused(tournament):
    data = json.loads(json.dumps(backup.dump_site(), default=str))
    data["players"][0]["country"] = "Germany"
    Event.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()

    with pytest.raises(backup.RestoreRefused, match="country"):
        backup.restore_site(data)
    assert not Player.objects.exists()


# The EMA substitute rule: a replaced player's game counts -30.


@pytest.fixture
def replaced(organiser):
    """Dan does not come to session 1: Sub, of the substitute pool, takes his seat and
    plays Aki, Ben and Chie (40,000/30,000/20,000/10,000, Sub last). In session 2 Dan plays
    the same three himself (35,000/30,000/20,000/15,000, Dan last)."""
    event = Event.objects.create(
        name="Cup", slug="cup", kind="tournament", starts_on=datetime.date(2026, 9, 3)
    )
    event.organisers.add(organiser)
    services.add_names_to_roster(event.pk, ["Aki", "Ben", "Chie", "Dan", "Sub"], create=True)
    people = {p.display_name: p for p in Player.objects.all()}
    services.set_substitute(event.pk, people["Sub"].pk, True)
    one = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    two = Session.objects.create(event=event, number=2, date=datetime.date(2026, 9, 3))
    services.replace_with_substitute(one.pk, people["Dan"].pk, people["Sub"].pk)
    game = services.create_game(
        one,
        [people[n] for n in ("Aki", "Ben", "Chie", "Sub")],
        table_number=1,
        entry_mode=Game.EntryMode.FINAL_SCORES,
        substitutes=[3],
    )
    services.set_final_scores(game.pk, [40000, 30000, 20000, 10000], 0)
    final_game(two, ["Aki", "Ben", "Chie", "Dan"], [35000, 30000, 20000, 15000], 1)
    return event


def placed(event) -> list[tuple[int, str, Decimal]]:
    return [(r.place, r.last_name, r.points) for r in ema.results(event)]


def test_under_todays_rule_a_replaced_player_misses_the_game(replaced):
    # Session 1: Aki +60 (40,000: +10 +30 +20), Ben +10, Chie -20; Sub is not ranked.
    # Session 2: Aki +55 (35,000: +5 +30 +20), Ben +10, Chie -20, Dan -45 (15,000).
    assert placed(replaced) == [
        (1, "Aki", Decimal("115.0")),
        (2, "Ben", Decimal("20.0")),
        (3, "Chie", Decimal("-40.0")),
        (4, "Dan", Decimal("-45.0")),
    ]
    assert PlayerTotal.objects.get(player__display_name="Dan", session__isnull=True).games == 1


def test_under_the_ema_rule_a_replaced_players_game_counts_minus_30(organiser_client, replaced):
    response = organiser_client.post(
        url("event_edit", replaced.slug),
        {
            "name": "Cup",
            "slug": "cup",
            "kind": "tournament",
            "starts_on": "2026-09-03",
            "is_public": "on",
            "substitute_rule": "ema",
        },
    )

    assert response.status_code == 302
    # Dan: -30 for the game Sub played in his place, -45 for his own: -75, two games.
    assert placed(replaced)[3] == (4, "Dan", Decimal("-75.0"))
    total = PlayerTotal.objects.get(player__display_name="Dan", session__isnull=True)
    assert (total.games, total.fourths) == (2, 2)
    assert ema.balance_problems(replaced) == []
    rows = csv_rows(organiser_client.get(url("ema_results", "cup"), {"_export": "csv"}))
    assert [(r["Last name"], r["Points"]) for r in rows] == [
        ("Aki", "115.0"),
        ("Ben", "20.0"),
        ("Chie", "-40.0"),
        ("Dan", "-75.0"),
    ]
    standings = organiser_client.get(url("standings", "cup"), {"_export": "csv"})
    dan = [row for row in csv_rows(standings) if row["Player"] == "Dan"][0]
    assert dan["Games"] == "2"


def test_the_ema_rule_follows_a_later_change_of_check_in(replaced):
    Event.objects.filter(pk=replaced.pk).update(substitute_rule="ema")
    totals.results_changed(replaced.pk)
    assert placed(replaced)[3][2] == Decimal("-75.0")
    one = replaced.sessions.get(number=1)
    dan = Player.objects.get(display_name="Dan")

    # Dan was there after all: nobody replaced him, and he has his own game only.
    services.mark_present(one.pk, dan.pk, True)

    assert placed(replaced)[3] == (4, "Dan", Decimal("-45.0"))


def test_the_ema_rule_counts_a_game_finished_after_the_replacement(replaced):
    Event.objects.filter(pk=replaced.pk).update(substitute_rule="ema")
    one = replaced.sessions.get(number=1)
    game = Game.objects.get(session=one)
    services.clear_final_scores(game.pk)
    assert placed(replaced)[3][2] == Decimal("-45.0")

    services.set_final_scores(game.pk, [40000, 30000, 20000, 10000], 0)

    assert placed(replaced)[3][2] == Decimal("-75.0")


def test_saving_the_rules_again_puts_counted_penalties_right(tournament):
    seat = GameSeat.objects.get(player__display_name="P02")
    GameSeat.objects.filter(pk=seat.pk).update(penalty_points=Decimal("-5"))
    assert ema.balance_problems(tournament)

    services.change_event_rules(tournament.pk, tournament.rules_preset, tournament.rules_overrides)

    assert ema.balance_problems(tournament) == []


def test_the_ema_page_and_its_refusal_speak_japanese(organiser_client, tournament):
    page = organiser_client.get(
        url("ema_results", tournament.slug), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "EMA成績" in page and "ベースランク" in page and "MERSウェイト" in page

    services.create_game(
        tournament.sessions.get(),
        services.players_by_name(["Q1", "Q2", "Q3", "Q4"], create=True),
        table_number=7,
    )
    refused = organiser_client.get(
        url("ema_results", tournament.slug), {"_export": "csv"}, HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "第1回戦・7卓が終わっていません" in refused


# The roster's paste takes spreadsheet columns: name, EMA number, country.


def test_a_pasted_spreadsheet_gives_new_players_their_ema_number_and_country(
    organiser_client, event
):
    Player.objects.create(display_name="Aki", country="JP")
    text = "Aki\t04010001\tfr\nBen\t0401 0002\tDE\nChie\n\nDan\t\tnl\n"

    response = organiser_client.post(
        url("roster_paste", event.slug), {"names": text, "create": "on"}
    )

    assert response.status_code == 302
    found = dict((p.display_name, (p.ema_number, p.country)) for p in Player.objects.all())
    # Aki keeps the country he had and gets the number he had not.
    assert found == {
        "Aki": ("04010001", "JP"),
        "Ben": ("04010002", "DE"),
        "Chie": ("", ""),
        "Dan": ("", "NL"),
    }
    assert event.roster.count() == 4


def test_a_paste_with_a_bad_ema_number_or_country_stores_nothing(organiser_client, event):
    text = "Ben\t0401A002\tDE\nChie\t04010003\tXX\nDan\t04010004\tNL\textra"

    response = organiser_client.post(
        url("roster_paste", event.slug), {"names": text, "create": "on"}
    )

    page = response.content.decode()
    assert response.status_code == 400
    assert "line 1: An EMA number has digits only" in page
    assert "line 2: “XX” is not a country code" in page
    assert "line 3: a line has at most three columns" in page
    assert not Player.objects.exists() and not event.roster.exists()


def test_the_migration_takes_the_spaces_out_of_stored_ema_numbers():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("tournaments.migrations.0035_ema_player_fields_and_substitute_rule")
    Player.objects.create(display_name="Emi", ema_number="0401 0001")
    Player.objects.create(display_name="Ken", ema_number="04010002")

    migration.tidy_ema_numbers(apps, None)

    assert sorted(Player.objects.values_list("ema_number", flat=True)) == ["04010001", "04010002"]


def test_a_seat_without_its_result_refuses_the_ema_file(tournament):
    GameSeat.objects.filter(player__display_name="P07").update(match_points=None)

    problems = ema.balance_problems(tournament)

    assert problems[0] == "Session 1, table 2: West (P07) has no final result."


def test_a_penalty_for_a_seat_the_game_lacks_refuses_the_ema_file(tournament):
    game = Game.objects.get(session__event=tournament, table_number=3)
    Penalty.objects.create(game=game, seat=3, match_points=Decimal("-5"), reason="late")
    GameSeat.objects.filter(game=game, seat=3).delete()

    problems = ema.balance_problems(tournament)

    assert "Session 1, table 3: a penalty names seat 4, which the game does not have." in problems


def test_the_refusal_lists_ten_problems_and_counts_the_rest(tournament):
    GameSeat.objects.filter(game__session__event=tournament).update(match_points=None)

    problems = ema.shown_problems(ema.balance_problems(tournament))

    assert len(problems) == 11 and problems[-1] == "… and 14 more problems."


def test_the_standings_say_when_the_ema_substitute_rule_counts(client, replaced):
    assert "EMA substitute rule" not in client.get(url("standings", "cup")).content.decode()
    Event.objects.filter(pk=replaced.pk).update(substitute_rule="ema")

    page = client.get(url("standings", "cup")).content.decode()

    assert "counts −30 match points for that player, as a last place" in page


def test_the_event_form_sets_the_qualification_and_the_substitute_rule(
    organiser_client, tournament
):
    form = organiser_client.get(url("event_edit", "open"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "代打ちの扱い" in form.content.decode() and "予選あり" in form.content.decode()

    organiser_client.post(
        url("event_edit", "open"),
        {
            "name": "Open",
            "slug": "open",
            "kind": "tournament",
            "starts_on": "2026-05-02",
            "ends_on": "2026-05-03",
            "is_public": "on",
            "substitute_rule": "unranked",
            "ema_qualification": "on",
        },
    )

    page = organiser_client.get(url("event", "open")).content.decode()
    # One day (+1), 24 players (+0), 7 countries (+0.5), a qualification (+1).
    assert "MERS weight 2.5" in page and "qualification needed" in page


@pytest.mark.parametrize("preset", ["ema", "mleague"])
def test_a_chombo_fined_in_match_points_balances_and_exports(organiser_client, organiser, preset):
    event = Event.objects.create(
        name="Fined",
        slug="fined",
        kind="tournament",
        starts_on=datetime.date(2026, 1, 1),
        rules_preset=preset,
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(display_name=name) for name in ("A", "B", "C", "D")]
    game = services.create_game(session, players, table_number=1)
    services.add_hand(game.pk, 1, {"result": "chombo", "riichi": [], "offender": 2})
    services.call_time(game.pk)
    game.refresh_from_db()
    assert game.is_finished
    fine = event.rules().chombo_penalty
    assert game.seats.get(seat=2).penalty_points == fine != 0

    assert ema.balance_problems(event) == []
    rows = csv_rows(organiser_client.get(url("ema_results", event.slug), {"_export": "csv"}))
    assert rows[-1]["Last name"] == "C"

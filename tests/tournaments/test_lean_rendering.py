"""Tables and the hand form drawn by django-tables2 and Django's widgets with their
per-column and per-option work done once: cell attributes, signatures, addresses, and
option markup written in one template per field."""

from __future__ import annotations

import datetime
import inspect
import re

import django_tables2 as tables
import pytest
from django import forms
from django.core.exceptions import ImproperlyConfigured
from django.template import Context
from django.template.base import render_value_in_context
from django.test import RequestFactory
from django.urls import reverse
from django_tables2.rows import BoundRow
from django_tables2.utils import signature

from perf import bench
from tournaments import tables as listing
from tournaments.cells import Row
from tournaments.models import GameSeat
from tournaments.standings import event_standings
from tournaments.views import standings as standings_view
from tournaments.views.standings import StandingsFilterForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return bench.build_league(players=8, games=6, slug="lean", say=lambda _: None)


def _html(table) -> str:
    request = RequestFactory().get("/x/")
    listing.BoundedRequestConfig(request, paginate={"per_page": 50}).configure(table)
    return re.sub(r">\s+<", "><", table.as_html(request))


def _cell_methods():
    classes = [listing.Column, listing.Table]
    seen = []
    while classes:
        cls = classes.pop()
        seen.append(cls)
        classes += cls.__subclasses__()
    for cls in seen:
        for name, member in vars(cls).items():
            if inspect.isfunction(member) and (
                name in {"render", "value"} or name.startswith(("render_", "value_"))
            ):
                yield cls, name, member


def test_every_cell_method_declares_the_parameters_its_code_takes():
    methods = list(_cell_methods())
    assert len(methods) > 30
    for cls, name, method in methods:
        assert "__signature__" in vars(method), f"{cls.__name__}.{name}"
        code = method.__code__
        written = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        declared = [p.name for p in method.__signature__.parameters.values()]
        assert declared[: len(written)] == list(written), f"{cls.__name__}.{name}"


def test_django_tables2_reads_the_declared_arguments_of_a_bound_cell_method(league):
    table = listing.ResultsTable(GameSeat.objects.finished_in(league))
    assert signature(table.columns["player"].render) == (("record", "value"), None)
    assert signature(table.columns["score"].render) == (("value",), None)
    assert signature(table.columns["match_points"].value) == (("value",), "kwargs")


def test_a_column_whose_cell_attributes_vary_by_row_is_refused():
    class Varying(listing.Table):
        name = listing.Column(attrs={"td": {"data-name": lambda record: record["name"]}})

    with pytest.raises(ImproperlyConfigured, match="vary by row"):
        _html(Varying([{"name": "Aki"}]))


def test_a_localized_column_is_refused():
    class Localized(listing.Table):
        amount = tables.Column(localize=True)

    with pytest.raises(ImproperlyConfigured, match="localize"):
        _html(Localized([{"amount": 1000}]))


def test_each_cell_carries_its_columns_attributes(league):
    html = _html(listing.StandingsTable(event_standings(league)))
    rows = re.findall(r"<tr class=\"(?:even|odd)\">(.*?)</tr>", html)
    assert len(rows) == 8
    for row in rows:
        cells = re.findall(r"<td ([^>]*)>", row)
        assert cells[:3] == ['class="number"', 'class="player"', 'class="number"']
        assert 'class="number session-start"' in cells


def test_an_address_pattern_gives_what_reverse_gives():
    session = listing.url_pattern("tournaments:session", count=2)
    assert session.format("thursday", 12) == reverse("tournaments:session", args=["thursday", 12])
    player = listing.url_pattern("tournaments:player")
    assert player.format(7) == reverse("tournaments:player", args=[7])


def test_results_link_each_session_player_and_game_and_export_the_values(league):
    seats = GameSeat.objects.finished_in(league).select_related("game__session__event", "player")
    seat = seats.order_by("game_id", "seat").first()
    html = _html(listing.ResultsTable(seats))
    session_url = reverse("tournaments:session", args=[league.slug, seat.game.session.number])
    assert f'<td class="number"><a href="{session_url}">{seat.game.session.number}</a></td>' in html
    player_url = reverse("tournaments:player", args=[seat.player_id])
    assert f'<td class="player"><a href="{player_url}">{seat.player.display_name}</a></td>' in html
    game_url = reverse("tournaments:game", args=[seat.game_id])
    assert f'<a href="{game_url}">#{seat.game_id}</a>' in html
    header, *rows = listing.ResultsTable(seats.order_by("game_id", "seat")).as_values()
    first = dict(zip(header, rows[0], strict=True))
    assert first["Session"] == seat.game.session.number
    assert first["Player"] == seat.player.display_name
    assert first["Game"] == seat.game_id


def test_the_hand_forms_picks_draw_each_option_once_with_its_label(organiser_client, game):
    html = organiser_client.get(reverse("tournaments:hand_new", args=[game.pk])).content.decode()
    for value in ("ron", "tsumo", "draw", "chombo"):
        assert len(re.findall(rf'<input type="radio" name="result" value="{value}"', html)) == 1
    seats = re.findall(r'<label class="pick( dealer)?" for="id_w1_winner_(\d)">', html)
    assert [seat for _dealer, seat in seats] == ["0", "1", "2", "3"]
    assert [bool(dealer) for dealer, _seat in seats] == [True, False, False, False]
    assert '<span><b>Aki</b><small class="wind" data-wind="E" title="East">' in html
    assert html.count('<label class="pick yaku" for="id_w1_yaku_') > 30
    assert 'data-yaku="riichi" data-closed="1" data-open="" data-yakuman="0"' in html


def test_a_ticked_yaku_and_a_chosen_seat_come_back_checked(organiser_client, game):
    address = reverse("tournaments:hand_new", args=[game.pk])
    data = {"number": "1", "result": "ron", "w1_winner": "2", "w1_yaku": ["tanyao"]}
    html = organiser_client.post(address, {**data, "action": "preview"}).content.decode()
    assert re.search(r'name="w1_winner" value="2" id="id_w1_winner_2" checked>', html)
    assert re.search(r'name="w1_yaku" value="tanyao" id="id_w1_yaku_\d+" checked>', html)
    assert not re.search(r'name="w1_yaku" value="riichi"[^>]* checked', html)


def test_the_penalty_form_offers_each_player_as_a_button(organiser_client, game):
    html = organiser_client.get(reverse("tournaments:penalty_new", args=[game.pk])).content
    html = html.decode()
    for seat, name in enumerate(("Aki", "Ben", "Chie", "Dan")):
        assert f'for="id_seat_{seat}">' in html
        assert f"<b>{name}</b>" in html


def test_the_standings_session_lists_offer_every_session_once_each(organiser_client, league):
    html = organiser_client.get(reverse("tournaments:standings", args=[league.slug])).content
    html = html.decode()
    lists = re.findall(r"<select name=\"(\w+)\"[^>]*>(.*?)</select>", html, re.S)
    assert [name for name, _options in lists] == ["first_session", "last_session"]
    for _name, options in lists:
        values = re.findall(r'<option value="([^"]*)"', options)
        numbers = [str(n) for n in league.sessions.values_list("number", flat=True)]
        assert values == ["", *sorted(numbers, key=int)]


SESSIONS = [(number, datetime.date(2026, 9, number)) for number in range(1, 8)]


def test_the_session_lists_are_written_as_djangos_own_select_writes_them():
    sessions = SESSIONS
    data = {"first_session": str(sessions[1][0]), "last_session": "<b>"}
    form = StandingsFilterForm(data, sessions=sessions)
    ours = form["first_session"].as_widget()
    plain = form["first_session"].as_widget(
        widget=forms.Select(choices=form.fields["first_session"].choices)
    )
    assert re.sub(r"\s+", " ", ours) == re.sub(r"\s+", " ", plain)
    assert ours.count(" selected") == 1
    assert f'<option value="{sessions[1][0]}" selected>{sessions[1][0]} · ' in ours
    # A value that is no session selects nothing, and is not written.
    last = form["last_session"].as_widget()
    assert " selected" not in last.replace('<option value="" selected>', "")
    assert "<b>" not in last


def test_each_session_label_is_written_once_for_both_lists(monkeypatch):
    written = []
    real = standings_view.date_format
    monkeypatch.setattr(standings_view, "date_format", lambda *a: written.append(a) or real(*a))
    sessions = SESSIONS
    form = StandingsFilterForm({}, sessions=sessions)
    form.is_valid()
    html = form["first_session"].as_widget() + form["last_session"].as_widget()
    assert len(written) == len(sessions)
    assert html.count("<option") == 2 * (len(sessions) + 1)


def test_every_cell_a_row_writes_is_the_cell_django_tables2s_own_row_gives(league):
    seats = GameSeat.objects.filter(game__session__event=league)
    player = seats.first().player
    made = [
        listing.StandingsTable(event_standings(league)),
        listing.ResultsTable(seats.select_related("game__session__event", "player")),
        listing.PlayerGamesTable(
            GameSeat.objects.filter(player=player).select_related("game__session__event")
        ),
        listing.GameTable(league.sessions.first().games.all(), organiser=True),
    ]
    for table in made:
        _html(table)
        rows = list(table.paginated_rows)
        assert rows and all(isinstance(row, Row) for row in rows)
        for row in rows:
            theirs = BoundRow(row.record, table=table)
            cells = [
                f"<td {column.attrs['td'].as_html()}>"
                f"{render_value_in_context(cell, Context())}</td>"
                for column, cell in theirs.items()
            ]
            assert row.html == "".join(cells)

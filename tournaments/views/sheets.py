"""Printable sheets: the Ari-Ari four-game scoresheet of a table (filled in or blank) and
the sheet of one game, hand by hand.

Every number comes from stored results (`scoresheet.build_sheet`) or from the engine's
replay of the game; the views format them with `formatting` (a sheet's rows mix kinds of
number) and the templates only lay them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from scoring.game import GameResult
from scoring.rules import LeftoverSticks

from .. import access, pagecache, services, versions, wording
from ..models import WINDS, Game, GameSeat, Session
from ..reading.games import hand_rows
from ..scoresheet import SHEET_GAMES, Sheet, SheetRefused, build_sheet
from ..wording.formatting import match_points, penalty, points, sheet_match_points, sheet_placement
from .games import replayed

# Rounds, as "E3-1": the wind of the round, the hand in it, then the honba. The wind is a
# word of the language the page is in ("東3-1" in Japanese).
ROUND_WINDS = {
    "E": pgettext_lazy("round wind, as in E3-1", "E"),
    "S": pgettext_lazy("round wind, as in S3-1", "S"),
    "W": pgettext_lazy("round wind, as in W3-1", "W"),
    "N": pgettext_lazy("round wind, as in N3-1", "N"),
}


def round_name(code: str) -> str:
    """A round and honba code ("E3-1", as the engine labels rounds) in the active language;
    "" stays ""."""
    wind = ROUND_WINDS.get(code[:1])
    return f"{wind}{code[1:]}" if wind is not None else code


def game_record(game: Game) -> dict[str, Any]:
    prefetch_related_objects([game], "seats__player")
    return game.to_record()


# The four-game scoresheet


@dataclass
class SheetRow:
    label: str
    cells: list[str]
    kind: str = ""  # a CSS class: "total" rows are drawn heavier


@dataclass
class SheetBlock:
    number: int
    rows: list[SheetRow]
    game: Game | None = None


@dataclass
class SheetColumn:
    name: str
    wind: str


@dataclass
class SheetPage:
    columns: list[SheetColumn]
    blocks: list[SheetBlock]
    footer: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)


def _row_labels(number: int) -> list[tuple[str, str, str]]:
    """(label, attribute of SheetGame, CSS class) for the rows of game `number`, as on the
    seed's sheet: game 1 ends with Total, games 2-3 with Subtotal and Total, game 4 with
    Subtotal and Grand Total."""
    rows = [
        (_("Raw Score"), "scores", ""),
        (_("Match Points"), "match_points", ""),
        (_("Placement"), "placements", ""),
    ]
    if number > 1:
        rows.append((_("Subtotal"), "subtotals", "subtotal"))
    rows.append((_("Grand Total") if number == SHEET_GAMES else _("Total"), "totals", "total"))
    return rows


FORMATS = {
    "scores": points,
    "match_points": sheet_match_points,
    "placements": sheet_placement,
    "subtotals": sheet_match_points,
    "totals": sheet_match_points,
}


def _sheet_blocks(sheet: Sheet | None, size: int) -> list[SheetBlock]:
    """The sheet's four game blocks as rows of text, a cell for each of its `size` players;
    without a sheet, every cell empty."""
    blocks = []
    for number in range(1, SHEET_GAMES + 1):
        game = sheet.games[number - 1] if sheet else None
        rows = [
            SheetRow(
                label,
                # On paper a cell with nothing to write stays blank, for a pen.
                [FORMATS[attr](v) if v is not None else "" for v in getattr(game, attr)]
                if game
                else [""] * size,
                kind,
            )
            for label, attr, kind in _row_labels(number)
        ]
        blocks.append(SheetBlock(number, rows, game.game if game else None))
    return blocks


def _table_games(session: Session, table: int) -> list[Game]:
    """The games of a session at one table in the order they were created, with their
    seats, players and penalties, in a fixed number of queries."""
    games = list(
        session.games.filter(table_number=table)
        .order_by("pk")
        .prefetch_related(
            Prefetch("seats", queryset=GameSeat.objects.select_related("player")),
            "penalties",
        )
    )
    if not games:
        raise Http404("No game was played at this table.")
    for game in games:
        game.session = session  # saves a query per game for str(game) and links
    return games


def _names(seats: list[GameSeat]) -> str:
    return ", ".join(seat.player.display_name for seat in seats)


def _refusal(games: list[Game], finished: list[Game]) -> str | None:
    """Why these games cannot share one sheet, in words an organiser can act on."""
    if len(finished) > SHEET_GAMES:
        return _(
            "This table has %(count)s finished games; a scoresheet holds %(most)s. Seat the "
            "next games at another table number."
        ) % {"count": len(finished), "most": SHEET_GAMES}
    first = games[0].ordered_seats()
    expected = {seat.player_id for seat in first}
    for number, game in enumerate(games, start=1):
        seats = game.ordered_seats()
        if {seat.player_id for seat in seats} != expected:
            if len(first) == 3:
                text = _(
                    "Game %(number)s at this table was played by %(players)s, not by the three "
                    "players of game 1 (%(first)s): a scoresheet is for three players who play "
                    "their games together. Put the other game at another table number."
                )
            else:
                text = _(
                    "Game %(number)s at this table was played by %(players)s, not by the four "
                    "players of game 1 (%(first)s): a scoresheet is for four players who play "
                    "their games together. Put the other game at another table number."
                )
            return text % {"number": number, "players": _names(seats), "first": _names(first)}
    return None


def _penalty_notes(games: list[Game]) -> list[str]:
    """A line per player with penalties in a game: the stored total (entered penalties and,
    under some rules, chombo) with the reasons given."""
    notes = []
    for number, game in enumerate(games, start=1):
        for seat in game.ordered_seats():
            if not seat.penalty_points:
                continue
            reasons = [p.reason for p in game.penalties.all() if p.seat == seat.seat]
            notes.append(
                _(
                    "Game %(number)s: %(player)s %(points)s in penalties (%(reasons)s), "
                    "included in the match points."
                )
                % {
                    "number": number,
                    "player": seat.player.display_name,
                    "points": penalty(seat.penalty_points),
                    "reasons": "; ".join(reasons) or _("chombo"),
                }
            )
    return notes


def _sheet_context(session: Session, table: int, *, blank: bool):
    games = _table_games(session, table)
    first = games[0].ordered_seats()
    columns = [SheetColumn(seat.player.display_name, WINDS[seat.seat]) for seat in first]
    event = session.event
    rules = event.rules()
    context: dict[str, Any] = {
        "event": event,
        "session": session,
        "table": table,
        "blank": blank,
        "other_url": "tournaments:scoresheet" if blank else "tournaments:scoresheet_blank",
    }
    if blank:
        empty = Sheet([seat.player for seat in first], [], rules)
        context["sheet"] = SheetPage(columns, _sheet_blocks(None, len(columns)), empty.rules_footer)
        return context
    finished = [game for game in games if game.is_finished]
    refusal = _refusal(games, finished)
    if refusal is None:
        try:
            sheet = build_sheet([seat.player for seat in first], finished, rules)
        except SheetRefused as err:
            refusal = str(err)
    if refusal is not None:
        context["refusal"] = refusal
        return context
    page = SheetPage(columns, _sheet_blocks(sheet, len(columns)), sheet.rules_footer)
    page.notes = _penalty_notes(finished)
    waiting = len(games) - len(finished)
    if waiting:
        page.notes.append(
            ngettext(
                "%(count)s game at this table is not finished yet and will appear once finished.",
                "%(count)s games at this table are not finished yet and will appear once finished.",
                waiting,
            )
            % {"count": waiting}
        )
    context["sheet"] = page
    return context


@access.readable_session
def scoresheet(request: HttpRequest, session: Session, table: int) -> HttpResponse:
    """The Ari-Ari scoresheet of one table of a session, from its finished games."""
    context = _sheet_context(session, table, blank=False)
    return render(request, "tournaments/scoresheet.html", context)


@access.readable_session
def scoresheet_blank(request: HttpRequest, session: Session, table: int) -> HttpResponse:
    """The same sheet with only the names and seats, to fill in by hand at the table."""
    context = _sheet_context(session, table, blank=True)
    return render(request, "tournaments/scoresheet.html", context)


# The sheet of one game


def _final_rows(result: GameResult) -> list[dict[str, Any]]:
    """The rows under the hands, one cell per seat."""
    rows = [
        {"label": _("Final score"), "cells": [points(s) for s in result.final_scores]},
        {"label": _("Placement"), "cells": [sheet_placement(p) for p in result.placements]},
    ]
    if any(result.penalties):
        penalties = [penalty(p) if p else "" for p in result.penalties]
        rows.append({"label": _("Penalties"), "cells": penalties})
    rows.append(
        {
            "label": _("Match points"),
            "cells": [match_points(p) for p in result.match_points],
            "total": True,
        }
    )
    return rows


def _sticks_note(result: GameResult) -> str:
    sticks = result.leftover_sticks
    if not sticks:
        return ""
    if result.rules.leftover_sticks is LeftoverSticks.FIRST:
        text = ngettext(
            "%(count)s riichi stick left on the table went to first place (in the final score).",
            "%(count)s riichi sticks left on the table went to first place (in the final score).",
            sticks,
        )
    else:
        text = ngettext(
            "%(count)s riichi stick left on the table was lost.",
            "%(count)s riichi sticks left on the table were lost.",
            sticks,
        )
    return text % {"count": sticks}


@access.readable_game
def game_sheet(request: HttpRequest, game: Game) -> HttpResponse:
    """Every hand of one game with its payments and running scores, then the result:
    rendered once for each play version of its event."""
    event, session = game.event, game.session

    def context() -> dict[str, Any]:
        return {
            "game": game,
            "session": session,
            "event": event,
            "sheet_html": render_to_string(
                "tournaments/partials/game_sheet_body.html", _sheet(game)
            ),
        }

    parts = (pagecache.row(game), pagecache.row(session))
    return versions.page(
        request,
        "game-sheet",
        event,
        versions.PLAY,
        "tournaments/game_sheet.html",
        context,
        parts=parts,
    )


def _sheet(game: Game) -> dict[str, Any]:
    try:
        record, names, result = replayed(game)
    except services.GameChangeRefused as err:
        record, result = game_record(game), err
    names = record["players"]
    context: dict[str, Any] = {
        "game": game,
        "session": game.session,
        "event": game.event,
        "columns": [SheetColumn(name, WINDS[seat]) for seat, name in enumerate(names)],
        "hands_mode": game.entry_mode == Game.EntryMode.HANDS,
        "penalties": [
            {
                "name": names[p["seat"]],
                "points": match_points(Decimal(str(p["match_points"]))),
                "reason": p["reason"],
            }
            for p in record.get("penalties", [])
        ],
    }
    if game.awaits_final_scores:
        context["waiting"] = _("The final scores of this game have not been entered yet.")
        return context
    if isinstance(result, services.GameChangeRefused):
        context["waiting"] = _(
            "This game cannot be replayed under the event's rules: %(reason)s"
        ) % {"reason": result}
        return context
    context["start"] = [points(result.rules.start_points)] * len(names)
    if "hands" in record:
        context["hands"] = hand_rows(
            record,
            result,
            names,
            round_words=lambda report: round_name(f"{report.round_label}-{report.honba}"),
        )
    if result.finished:
        context["final"] = _final_rows(result)
        context["ended_by"] = wording.ended_by(result.ended_by or "final_scores")
        context["sticks"] = _sticks_note(result)
    else:
        state = result.state
        context["next"] = _("%(round)s, %(player)s deals") % {
            "round": round_name(f"{state.round_label}-{state.honba}"),
            "player": names[state.dealer],
        }
    context["footer"] = Sheet([], [], result.rules).rules_footer
    return context

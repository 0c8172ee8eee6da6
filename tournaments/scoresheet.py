"""The four-game scoresheet of the Ari-Ari rules, filled in from stored results.

Four players (three at a three-player event) play up to four games together. The sheet
has the players as columns and, for each game, Raw Score, Match Points and Placement, then
the running totals: the first game's Total; for later games a Subtotal (the total so far)
and the new Total; the last game of the sheet ends with the Grand Total. A footer states
the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from scoring import Rules
from scoring.errors import gettext_noop

from .models import Game, Player
from .wording.formatting import points, rule_number
from .wording.refusals import Refusal

SHEET_GAMES = 4
# By the number of players on the sheet.
NOT_THE_SHEETS_PLAYERS = {
    4: gettext_noop("%(game)s was not played by the sheet's four players."),
    3: gettext_noop("%(game)s was not played by the sheet's three players."),
}


class SheetRefused(Refusal):
    """Games that do not make one scoresheet; the message says why."""


@dataclass
class SheetGame:
    number: int
    game: Game | None = None  # None: a blank block for a game still to play
    # One cell per column (player); empty lists are filled with blanks, one per player.
    size: int = 4
    scores: list[int | None] = field(default_factory=list)
    match_points: list[Decimal | None] = field(default_factory=list)
    placements: list[int | None] = field(default_factory=list)
    subtotals: list[Decimal | None] = field(default_factory=list)
    totals: list[Decimal | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("scores", "match_points", "placements", "subtotals", "totals"):
            if not getattr(self, name):
                setattr(self, name, [None] * self.size)

    @property
    def is_last(self) -> bool:
        return self.number == SHEET_GAMES


@dataclass
class Sheet:
    players: list[Player]
    games: list[SheetGame]
    rules: Rules

    @property
    def grand_totals(self) -> list[Decimal | None]:
        return self.games[-1].totals

    @property
    def rules_footer(self) -> list[tuple[str, str]]:
        return [
            (_("Starting Score"), points(self.rules.start_points)),
            (_("Return Score"), points(self.rules.return_points)),
            (_("Uma"), "/".join(rule_number(u) for u in self.rules.uma)),
            (_("Oka"), rule_number(self.rules.effective_oka)),
        ]


def build_sheet(players: Sequence[Player], games: Sequence[Game], rules: Rules) -> Sheet:
    """A sheet for `players` (the columns, in this order: four, or three at a three-player
    event) from up to four finished games among exactly these players; blocks without a
    game stay blank."""
    if len(games) > SHEET_GAMES:
        raise SheetRefused(
            gettext_noop("A scoresheet holds %(count)s games; choose at most four."),
            count=SHEET_GAMES,
        )
    column = {player.pk: index for index, player in enumerate(players)}
    blocks = []
    running: list[Decimal] | None = None
    for number in range(1, SHEET_GAMES + 1):
        block = SheetGame(number, size=len(players))
        if number <= len(games):
            game = games[number - 1]
            seats = game.ordered_seats()
            if {s.player_id for s in seats} != set(column):
                raise SheetRefused(NOT_THE_SHEETS_PLAYERS[len(players)], game=str(game))
            if not game.is_finished:
                raise SheetRefused(gettext_noop("%(game)s is not finished yet."), game=str(game))
            block.game = game
            for seat in seats:
                col = column[seat.player_id]
                block.scores[col] = seat.score
                block.match_points[col] = seat.match_points
                block.placements[col] = seat.placement
            if running is not None:
                block.subtotals = list(running)
            running = [
                (running[c] if running else Decimal(0)) + block.match_points[c]
                for c in range(len(players))
            ]
            block.totals = list(running)
        blocks.append(block)
    return Sheet(list(players), blocks, rules)

"""Player statistics: how often each player wins, deals in and declares riichi, what they
win and pay, and which yaku they win with.

Each seat of a game keeps its player's figures for that game (`seat_figures`, written with
the game's other results whenever it is stored), and each player keeps those of their
finished games added up (`StatisticsTotal`, rewritten with the standings totals by
`tournaments.totals`). A page reads those rows and the seats of the games still going, in
two queries whose size does not grow with the games played, reading no hand. Nothing is
computed in a template.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .models import Event, GameSeat, Hand, Player, StatisticsTotal
from .wording import formatting, yaku_name

if TYPE_CHECKING:
    from scoring.game import HandReport

# How many hands a player played: a count, not the list of a game's hands.
HANDS = pgettext_lazy("how many hands a player played", "Hands")
# As the statistics page states them.
DEFINITIONS = (
    (HANDS, gettext_lazy(
        "every hand recorded in the player's games, except chombo hands (which are "
        "played again); aborts and draws count.")),
    (gettext_lazy("Wins"), gettext_lazy("hands they won (each winner of a double ron counts).")),
    (gettext_lazy("Tsumo"), gettext_lazy("their wins by tsumo; the tsumo rate is of their wins.")),
    (gettext_lazy("Deal-ins"), gettext_lazy(
        "ron hands in which they discarded the winning tile (a double ron is one).")),
    (gettext_lazy("Riichi"), gettext_lazy("hands in which their riichi stick went on the table.")),
    (gettext_lazy("Average won"), gettext_lazy(
        "what a win brought them: payments, honba and the riichi sticks taken, "
        "not counting their own stick.")),
    (gettext_lazy("Average dealt in"), gettext_lazy(
        "what a deal-in cost them, honba included, not counting their own riichi stick.")),
    (gettext_lazy("Dealer repeats"), gettext_lazy(
        "hands they dealt after which they dealt again (a win or tenpai as dealer).")),
    (gettext_lazy("Places"), gettext_lazy("finished games by final place.")),
)  # fmt: skip
PLACE_NAMES = (gettext_lazy("1st"), gettext_lazy("2nd"), gettext_lazy("3rd"), gettext_lazy("4th"))
# Dora as some logs list them among the yaku (Tenhou's names): counted in `dora`, not here.
NOT_YAKU = frozenset({"ドラ", "裏ドラ", "赤ドラ"})
HUNDRED = Decimal(100)
BAR_WIDTH = 220  # the longest bar of the places chart
# Figures that may be missing (no hands, no wins): sorted as below every real value.
SORT_KEYS = (
    "win_rate",
    "tsumo_rate",
    "deal_in_rate",
    "riichi_rate",
    "average_won",
    "average_dealt_in",
)


def _key(value):
    return Decimal(-1) if value is None else value


RATE_PLACES = Decimal("0.1")


def rate(part: int, whole: int) -> Decimal | None:
    """A percentage to one decimal place; None when there is nothing to divide by.

    >>> rate(1, 3), rate(0, 0)
    (Decimal('33.3'), None)
    """
    if not whole:
        return None
    return (HUNDRED * part / whole).quantize(RATE_PLACES, rounding=ROUND_HALF_UP)


def _count(value: int) -> str:
    return formatting.points(value)


def _percent(value: Decimal | None) -> str:
    return formatting.MISSING if value is None else f"{value}%"


def _points(value: int | None) -> str:
    return formatting.points(value)


def average(total: int, count: int) -> int | None:
    """A whole-point average (halves up), or None of nothing."""
    value = formatting.average(total, count, places=0)
    return None if value is None else int(value)


@dataclass
class PlayerStats:
    player_id: int
    player: str
    games: int = 0
    hands: int = 0
    wins: int = 0
    tsumo: int = 0
    deal_ins: int = 0
    riichi: int = 0
    dealer_hands: int = 0
    dealer_repeats: int = 0
    won_total: int = 0
    won_counted: int = 0  # wins whose point change is stored
    dealt_total: int = 0
    dealt_counted: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    yaku: Counter = field(default_factory=Counter)

    @property
    def win_rate(self) -> Decimal | None:
        return rate(self.wins, self.hands)

    @property
    def tsumo_rate(self) -> Decimal | None:
        return rate(self.tsumo, self.wins)

    @property
    def deal_in_rate(self) -> Decimal | None:
        return rate(self.deal_ins, self.hands)

    @property
    def riichi_rate(self) -> Decimal | None:
        return rate(self.riichi, self.hands)

    @property
    def average_won(self) -> int | None:
        return average(self.won_total, self.won_counted)

    @property
    def average_dealt_in(self) -> int | None:
        return average(self.dealt_total, self.dealt_counted)

    @property
    def finished_games(self) -> int:
        return sum(self.places)

    def place_bars(self) -> list[dict[str, Any]]:
        """The four places as bars of a small chart (an SVG 300 wide): where each bar and
        its count go."""
        most = max(self.places) or 1
        return [
            {
                "place": str(PLACE_NAMES[place - 1]),
                "count": count,
                "width": round(BAR_WIDTH * count / most),
                "count_x": 46 + round(BAR_WIDTH * count / most),
                "y": 4 + 26 * (place - 1),
                "text_y": 21 + 26 * (place - 1),
            }
            for place, count in enumerate(self.places, start=1)
        ]

    def place_summary(self) -> str:
        """The places chart in words, for a screen reader: "Final places: 1st 3, 2nd 1, ..."."""
        places = ", ".join(
            _("%(place)s %(count)s") % {"place": PLACE_NAMES[place], "count": count}
            for place, count in enumerate(self.places)
        )
        return _("Final places: %(places)s") % {"places": places}

    def figures(self) -> list[dict[str, str]]:
        """The figures as a page shows them: a label, the count, and the rate beside it."""
        return [
            {"label": _("Games"), "value": _count(self.games), "rate": ""},
            {"label": str(HANDS), "value": _count(self.hands), "rate": ""},
            {"label": _("Wins"), "value": _count(self.wins), "rate": _percent(self.win_rate)},
            {"label": _("Tsumo"), "value": _count(self.tsumo), "rate": _percent(self.tsumo_rate)},
            {
                "label": _("Deal-ins"),
                "value": _count(self.deal_ins),
                "rate": _percent(self.deal_in_rate),
            },
            {
                "label": _("Riichi"),
                "value": _count(self.riichi),
                "rate": _percent(self.riichi_rate),
            },
            {"label": _("Average won"), "value": _points(self.average_won), "rate": ""},
            {"label": _("Average dealt in"), "value": _points(self.average_dealt_in), "rate": ""},
            {"label": _("Dealer repeats"), "value": _count(self.dealer_repeats), "rate": ""},
        ]

    def yaku_rows(self) -> list[dict[str, Any]]:
        """Yaku by how often they were won with, the most first."""
        return [
            {
                "key": key,
                "name": yaku_name(key),
                "count": n,
                "rate": _percent(rate(n, self.wins)),
            }
            for key, n in sorted(self.yaku.items(), key=lambda item: (-item[1], item[0]))
        ]

    def add_seat(self, values: Sequence) -> None:
        """Count one seat in: its `SEAT_VALUES` in order (a place only once its game is
        finished)."""
        placement, *figures, yaku = values
        self.games += 1
        if placement:
            self.places[placement - 1] += 1
        for name, value in zip(SEAT_FIGURES, figures, strict=True):
            setattr(self, name, getattr(self, name) + value)
        self.yaku.update(yaku)

    def add(self, other: PlayerStats) -> None:
        """Count in another set of the same player's games."""
        for name in ADDED:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.places = [a + b for a, b in zip(self.places, other.places, strict=True)]
        self.yaku.update(other.yaku)

    def add_stored(self, values: Sequence) -> None:
        """Count in a stored row of the same player's statistics: its `STORED_VALUES` in
        order."""
        games, *counts, yaku = values
        self.games += games
        places, figures = counts[: len(PLACES)], counts[len(PLACES) :]
        self.places = [a + b for a, b in zip(self.places, places, strict=True)]
        for name, value in zip(SEAT_FIGURES, figures, strict=True):
            setattr(self, name, getattr(self, name) + value)
        self.yaku.update(yaku)

    def stored(self) -> dict[str, Any]:
        """The fields of a stored row (`StatisticsTotal`) that hold these statistics."""
        return {
            "games": self.games,
            **dict(zip(PLACES, self.places, strict=True)),
            **{name: getattr(self, name) for name in SEAT_FIGURES},
            "yaku": dict(sorted(self.yaku.items())),
        }

    def as_row(self) -> dict[str, Any]:
        """The flat record the statistics table shows and exports."""
        return {
            "player_id": self.player_id,
            "player": self.player,
            "games": self.games,
            "hands": self.hands,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "tsumo": self.tsumo,
            "tsumo_rate": self.tsumo_rate,
            "deal_ins": self.deal_ins,
            "deal_in_rate": self.deal_in_rate,
            "riichi": self.riichi,
            "riichi_rate": self.riichi_rate,
            "average_won": self.average_won,
            "average_dealt_in": self.average_dealt_in,
            "dealer_repeats": self.dealer_repeats,
            "first": self.places[0],
            "second": self.places[1],
            "third": self.places[2],
            "fourth": self.places[3],
        } | {f"{name}_key": _key(getattr(self, name)) for name in SORT_KEYS}


# What a seat keeps of its game for the statistics, each added up over a player's seats.
SEAT_FIGURES = (
    "hands", "wins", "tsumo", "deal_ins", "riichi", "dealer_hands", "dealer_repeats",
    "won_total", "won_counted", "dealt_total", "dealt_counted",
)  # fmt: skip


# What a player's statistics add up of each seat (see `PlayerStats.add_seat`), and what a
# stored row of them holds (`StatisticsTotal`, see `PlayerStats.add_stored`).
SEAT_VALUES = ("placement", *SEAT_FIGURES, "yaku")
PLACES = ("firsts", "seconds", "thirds", "fourths")
STORED_VALUES = ("games", *PLACES, *SEAT_FIGURES, "yaku")
ADDED = ("games", *SEAT_FIGURES)


def seat_figures(hands: Sequence[dict[str, Any]], reports: Sequence[HandReport]) -> list[dict]:
    """Each seat's figures of one game (the `SEAT_FIGURES` and a `yaku` count), from its
    hands as tenbou-game/1 hand objects and the replay's report of each; a game of final
    scores only has neither. Chombo hands, which are played again, are left out.

    >>> [f["wins"] for f in seat_figures([], [])]
    [0, 0, 0, 0]
    """
    figures = [dict.fromkeys(SEAT_FIGURES, 0) for _ in range(4)]
    yaku = [Counter() for _ in range(4)]
    previous = None  # the dealer of the hand before, chombo hands skipped
    for hand, report in zip(hands, reports, strict=False):
        if hand["result"] == Hand.Result.CHOMBO:
            continue
        riichi = set(hand.get("riichi", []))
        for seat in range(4):
            figures[seat]["hands"] += 1
            figures[seat]["riichi"] += seat in riichi
        dealer = report.dealer
        figures[dealer]["dealer_hands"] += 1
        figures[dealer]["dealer_repeats"] += previous == dealer
        previous = dealer
        dealt_in = False
        for win in hand.get("wins", []):
            winner, loser = win["winner"], win.get("loser")
            row = figures[winner]
            row["wins"] += 1
            row["tsumo"] += hand["result"] == Hand.Result.TSUMO
            row["won_total"] += report.deltas[winner] + 1000 * (winner in riichi)
            row["won_counted"] += 1
            yaku[winner].update(
                k for k in win.get("yaku") or [] if isinstance(k, str) and k not in NOT_YAKU
            )
            if loser is not None and not dealt_in:
                dealt_in = True  # a double ron is one deal-in
                row = figures[loser]
                row["deal_ins"] += 1
                row["dealt_total"] -= report.deltas[loser] + 1000 * (loser in riichi)
                row["dealt_counted"] += 1
    for row, counts in zip(figures, yaku, strict=True):
        row["yaku"] = dict(sorted(counts.items()))
    return figures


def _gathered(stored: QuerySet[StatisticsTotal], going: QuerySet[GameSeat]) -> list[PlayerStats]:
    """The statistics of the players in `stored` rows (their finished games) and in `going`
    (their seats in games still going), added up per player and ordered by name."""
    found: dict[int, PlayerStats] = {}

    def of(player_id: int, name: str) -> PlayerStats:
        if player_id not in found:
            found[player_id] = PlayerStats(player_id, name)
        return found[player_id]

    for player_id, name, *values in stored.order_by().values_list(
        "player_id", "player__display_name", *STORED_VALUES
    ):
        of(player_id, name).add_stored(values)
    for player_id, name, *values in going.order_by().values_list(
        "player_id", "player__display_name", *SEAT_VALUES
    ):
        of(player_id, name).add_seat(values)
    return sorted(found.values(), key=lambda s: (s.player.casefold(), s.player_id))


def event_player_statistics(event: Event) -> list[PlayerStats]:
    """The statistics of an event's players over all its games: a stored row per player for
    its finished games, and the seats of the games still going, so the cost is the same at
    500 games as at 20,000."""
    return _gathered(
        StatisticsTotal.objects.filter(event=event, session__isnull=True),
        # A seat names its session while its game is going (and only then): found by that
        # index without looking at the finished games.
        GameSeat.objects.filter(open_session__event=event),
    )


def player_statistics(player: Player, events: QuerySet[Event]) -> PlayerStats | None:
    """One player's statistics over their games in `events`; None if they have none."""
    found = _gathered(
        StatisticsTotal.objects.filter(player=player, event__in=events, session__isnull=True),
        GameSeat.objects.filter(player=player, open_session__event__in=events),
    )
    return found[0] if found else None


def yaku_frequency(players: list[PlayerStats]) -> list[dict[str, Any]]:
    """Every player's yaku added up, the most won with first, each with its share of all
    wins."""
    total = Counter()
    for p in players:
        total.update(p.yaku)
    wins = sum(p.wins for p in players)
    return [
        {"name": yaku_name(key), "count": n, "rate": _percent(rate(n, wins))}
        for key, n in sorted(total.items(), key=lambda item: (-item[1], item[0]))
    ]

"""Player statistics: how often each player wins, deals in and declares riichi, what they
win and pay, and which yaku they win with.

Each seat of a game keeps its player's figures for that game (`seat_figures`, written with
the game's other results whenever it is stored); a page adds them up per player in two
queries for any number of games, reading no hand. Nothing is computed in a template.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q, QuerySet, Sum, TextField
from django.db.models.functions import Cast
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from . import versions
from .models import Game, GameSeat, Hand
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


def statistics(games: QuerySet[Game], *, player_id: int | None = None) -> list[PlayerStats]:
    """Statistics of every player seated in `games` (or only of `player_id`), ordered by
    name: the seats' figures added up per player in one query, and their yaku in one more
    when someone won."""
    seats = GameSeat.objects.filter(game__in=games.values("pk"))
    if player_id is not None:
        seats = seats.filter(player_id=player_id)
    rows = (
        seats.order_by()
        .values("player_id", "player__display_name")
        .annotate(
            seat_count=Count("pk"),
            **{f"sum_{name}": Sum(name) for name in SEAT_FIGURES},
            # A seat has a placement only while its game is finished.
            **{f"place_{p}": Count("pk", filter=Q(placement=p)) for p in range(1, 5)},
        )
    )
    stats: dict[int, PlayerStats] = {}
    for row in rows:
        stats[row["player_id"]] = PlayerStats(
            row["player_id"],
            row["player__display_name"],
            games=row["seat_count"],
            places=[row[f"place_{p}"] for p in range(1, 5)],
            **{name: row[f"sum_{name}"] or 0 for name in SEAT_FIGURES},
        )
    if any(s.wins for s in stats.values()):
        # Read as text and decoded in one go: a decoding per seat was most of the page's time.
        rows = (
            seats.filter(wins__gt=0).order_by().values_list("player_id", Cast("yaku", TextField()))
        )
        ids, texts = zip(*rows, strict=True) if rows else ((), ())
        for pid, counts in zip(ids, json.loads(f"[{','.join(texts)}]"), strict=True):
            into = stats[pid].yaku
            for key, n in counts.items():
                into[key] += n
    return sorted(stats.values(), key=lambda s: (s.player.casefold(), s.player_id))


def merged(*parts: list[PlayerStats]) -> list[PlayerStats]:
    """Statistics of disjoint sets of games added up, ordered by name as `statistics`
    orders them."""
    total: dict[int, PlayerStats] = {}
    for part in parts:
        for stats in part:
            into = total.get(stats.player_id)
            if into is None:
                total[stats.player_id] = dataclasses.replace(
                    stats, places=list(stats.places), yaku=Counter(stats.yaku)
                )
                continue
            for name in ADDED:
                setattr(into, name, getattr(into, name) + getattr(stats, name))
            into.places = [a + b for a, b in zip(into.places, stats.places, strict=True)]
            into.yaku.update(stats.yaku)
    return sorted(total.values(), key=lambda s: (s.player.casefold(), s.player_id))


ADDED = ("games", *SEAT_FIGURES)


def event_player_statistics(event) -> list[PlayerStats]:
    """The statistics of an event's players over all its games. Those of finished games
    are counted once for each results version of the event; only the games still going
    are counted again after a hand, which stays small however long the event is."""
    games = Game.objects.filter(session__event=event)
    done = versions.cached(
        "statistics-finished",
        event,
        versions.RESULTS,
        lambda: statistics(games.filter(status=Game.Status.FINISHED)),
    )
    return merged(done, statistics(games.exclude(status=Game.Status.FINISHED)))


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

"""The three rating formulas, each a pure function with its trace.

Sources of every rule value:

MERS (`mers`), the EMA's ranking of players:

- The EMA's "Basics for ranking system", https://mahjong-europe.org/ranking/Basicsranking.html
  (last update: EMA General Assembly of 25 May 2017, "a major update launched from January
  1st, 2018"): "A player's ranking is always between 0 and 1000 ... The player's total
  ranking is a weighted average of his obtained base ranks from the tournaments he has
  participated in"; a tournament's weight is its MERS weight (TOTAL_MERS = duration +
  players + countries + qualification), computed by the app in `tournaments/reading/ema.py`
  and handed in here with each result, as are the base ranks (ties as there).
- The EMA's ranking page before 2018 ("Basics", mahjong-europe.org portal, article 28):
  "To establish a representative ranking five results are needed. A player is required to
  have participated in at least two tournaments to appear on the ranking and a player with
  less than five tournaments is given a result of 0 (weight 1) for each missing
  tournament."
- The rules since 2018 (the stored copy of the EMA's page read here shows its base rank
  and weight sections only; these are as the UK association's recap of MERS gives them,
  "A re-explanation of MERS" in github.com/tomp31/RiichiUKRankingSystem, mers-vs-rukrs.md,
  and as an open reimplementation checked against the EMA's published ranks states them):
  a result's weight is its MERS weight x an age factor: 1 up to one year before the
  reckoning date, 0.5 up to two years, 0 when older ("Results older than a year have their
  weight halved. Results older than two years no longer count."); at least two results
  with a weight above 0 to be ranked; fewer than five are padded with results of 0,
  weight 1; results are ordered by base rank (the larger weight first among equal ranks);
  part A is the weighted average of the best ceil(5 + 0.8 x (n - 5)) of the n results
  ("a player with at least 10, 15, 20... results can leave their worst 1, 2, 3... results
  out"); part B is the weighted average of the best four (padding included); the ranking
  is the mean of parts A and B.
- Where the issue's text and these differ: the issue says "part A over the best 5 + 80% of
  the rest"; it is read here as the recap and the reimplementation read it, as how MANY
  results part A takes (5 + 80% of those beyond five, rounded up), not as a 0.8 weight on
  the rest; and the issue's "padded to five" applies to part B as well, since the padding
  results are results of the player's list. The pre-2018 page aged results over three
  years (66.66% after one year, 33.33% after two) and took no parts; Tenbou follows the
  2018 rules (version 1 of this formula). Tenbou keeps base ranks to two decimals as its
  EMA export does (the reimplementation rounds them to whole numbers). Results played after
  the reckoning date are not known on that date and count 0. The age is reckoned in
  calendar years: a result exactly one year old counts in full, exactly two years old half.

Tenhou R (`tenhou_r`), the rating of Tenhou's ranked lobby, as the Tenhou manual gives it
(https://tenhou.net/man/#RATING; quoted by riichi.wiki "Tenhou.net ranking", section "R
rating", and by the Japanese clubs that use it, e.g. zennipponkmj.sakura.ne.jp niigatakmj
2021/09/12):

- initial value R1500;
- change = games factor x (place score + (table's average R - own R) / 40) x scaling
  factor (1.0 in the ranked lobby, so left out);
- games factor: 1 - games x 0.002 below 400 games, 0.2 from 400 games on (the games the
  player had played before this one: the first game counts in full);
- place scores, four players: 1st +30, 2nd +10, 3rd -10, 4th -30; three players (sanma):
  1st +30, 2nd 0, 3rd -30 (the manual's 三麻 line, also riichi.wiki's "30/0/-30 for
  sanma");
- the table's average includes the player's own R (the Niigata page's worked examples:
  own R2000 with R2100, R1900, R2000: average R2000).
- Tenhou never shares a place; a tournament may (a tie its rules leave standing): players
  sharing a place get the mean of the place scores of the places they hold together.

Best of n (`best_of`): the sum of a player's n highest event totals of match points; a
plain league rule, no outside source.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

# The version of each formula's rules: a stored rating pins the one it was made with.
VERSIONS = {"mers": 1, "tenhou_r": 1, "best_n": 1}

HUNDREDTH = Decimal("0.01")
# The games factor moves by 0.002 a game: shown to three places.
THOUSANDTH = Decimal("0.001")

# MERS (see the module's docstring for the sources).
MERS_MIN_RESULTS = 2
MERS_PADDED_TO = 5
MERS_PART_A_FIRST = 5
MERS_PART_A_BEYOND = Fraction(8, 10)
MERS_PART_B_BEST = 4
MERS_PAD_WEIGHT = Decimal(1)
AGE_FULL = Decimal(1)
AGE_HALF = Decimal("0.5")
AGE_NONE = Decimal(0)

# Tenhou R (see the module's docstring for the sources).
R_START = 1500
R_GAMES_LIMIT = 400
R_GAMES_STEP = Fraction(2, 1000)
R_LATE_FACTOR = Fraction(2, 10)
R_SPREAD = 40
PLACE_SCORES = {4: (30, 10, -10, -30), 3: (30, 0, -30)}

# Best of n: at most this many results counted.
MAX_BEST_OF = 50


class RatingError(ValueError):
    """Input a formula cannot rate; `message` is a template with `params` for the app to
    translate."""

    def __init__(self, message: str, **params) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


def _(text: str) -> str:
    # Marks a message for makemessages; the app translates it.
    return text


def _hundredths(value: Decimal | Fraction, step: Decimal = HUNDREDTH) -> Decimal:
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return value.quantize(step, ROUND_HALF_UP)


# --- MERS -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MersResult:
    """One tournament of a player: its key, the day it ended, the player's base rank and
    the tournament's MERS weight."""

    event: Hashable
    played: datetime.date
    base_rank: Decimal
    weight: Decimal


@dataclass(frozen=True)
class MersLine:
    """How one result (or a padding result, `event` None) was counted: its age factor
    (its weight in the parts is `weight` x `age`) and which parts took it."""

    event: Hashable | None
    played: datetime.date | None
    base_rank: Decimal
    weight: Decimal
    age: Decimal
    in_part_a: bool
    in_part_b: bool

    @property
    def padding(self) -> bool:
        return self.event is None


@dataclass(frozen=True)
class MersValue:
    value: Decimal | None
    part_a: Decimal | None
    part_b: Decimal | None
    counted: int
    lines: tuple[MersLine, ...]


def _years_before(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February, in a year without one
        return day.replace(year=day.year - years, day=28)


def age_factor(played: datetime.date, reckoning: datetime.date) -> Decimal:
    """1 for a result at most a year old on the reckoning date, 0.5 for one at most two
    years old, 0 for an older one or one after that date.

    >>> import datetime as d
    >>> age_factor(d.date(2025, 6, 1), d.date(2026, 6, 1))
    Decimal('1')
    >>> age_factor(d.date(2025, 5, 31), d.date(2026, 6, 1))
    Decimal('0.5')
    """
    if played > reckoning:
        return AGE_NONE
    if played >= _years_before(reckoning, 1):
        return AGE_FULL
    if played >= _years_before(reckoning, 2):
        return AGE_HALF
    return AGE_NONE


def part_a_size(results: int) -> int:
    """How many of a player's results (padding included) part A takes: five, and 80% of
    those beyond five, rounded up.

    >>> [part_a_size(n) for n in (5, 6, 9, 10, 15, 20)]
    [5, 6, 9, 9, 13, 17]
    """
    beyond = max(results - MERS_PADDED_TO, 0)
    return MERS_PART_A_FIRST + math.ceil(MERS_PART_A_BEYOND * beyond)


def _weighted_mean(pairs: Iterable[tuple[Decimal, Decimal]]) -> Decimal:
    pairs = list(pairs)
    total = sum((weight for _value, weight in pairs), Decimal(0))
    return sum((value * weight for value, weight in pairs), Decimal(0)) / total


def mers(results: Sequence[MersResult], *, reckoning: datetime.date) -> MersValue:
    """A player's MERS ranking on the reckoning date, with how each result counted.

    >>> import datetime as d
    >>> day = d.date(2026, 1, 1)
    >>> mers([MersResult(1, day, Decimal(1000), Decimal(1)),
    ...       MersResult(2, day, Decimal(500), Decimal(1))], reckoning=day).value
    Decimal('337.50')
    """
    aged = [(result, age_factor(result.played, reckoning)) for result in results]
    counted = sorted(
        ((result, age) for result, age in aged if age > 0),
        key=lambda pair: (-pair[0].base_rank, -pair[0].weight * pair[1], _neg(pair[0].played)),
    )
    listed = [
        (result.event, result.played, result.base_rank, result.weight, age)
        for result, age in counted
    ]
    listed += [(None, None, Decimal(0), MERS_PAD_WEIGHT, AGE_FULL)] * max(
        0, MERS_PADDED_TO - len(counted)
    )
    in_a = part_a_size(len(listed))
    lines = [
        MersLine(*values, index < in_a, index < MERS_PART_B_BEST)
        for index, values in enumerate(listed)
    ]
    dropped = [
        MersLine(result.event, result.played, result.base_rank, result.weight, age, False, False)
        for result, age in sorted(aged, key=lambda pair: _neg(pair[0].played))
        if age == 0
    ]
    if len(counted) < MERS_MIN_RESULTS:
        real = [line for line in lines if not line.padding]
        return MersValue(None, None, None, len(counted), tuple(real + dropped))
    part_a = _weighted_mean(
        (line.base_rank, line.weight * line.age) for line in lines if line.in_part_a
    )
    part_b = _weighted_mean(
        (line.base_rank, line.weight * line.age) for line in lines if line.in_part_b
    )
    value = (part_a + part_b) / 2
    return MersValue(
        _hundredths(value),
        _hundredths(part_a),
        _hundredths(part_b),
        len(counted),
        tuple(lines + dropped),
    )


def _neg(day: datetime.date) -> int:
    return -day.toordinal()


# --- Tenhou R ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RGame:
    """One finished game: its key and (player, place) for each seat (places from 1; a
    shared place is given to each player who shares it)."""

    game: Hashable
    seats: tuple[tuple[Hashable, int], ...]


@dataclass(frozen=True)
class RStep:
    """One game of a player's R, to two decimals (the games factor to three): the R
    before, the games played before, the games factor, the place and its score, the
    table's average, the change and the R after."""

    game: Hashable
    before: Decimal
    games_before: int
    factor: Decimal
    place: int
    place_score: Decimal
    table_average: Decimal
    change: Decimal
    after: Decimal


@dataclass(frozen=True)
class RValue:
    value: Decimal
    games: int
    steps: tuple[RStep, ...]


def place_score(place: int, players: int, *, sharing: int = 1) -> Fraction:
    """The place score of `place` at a table of `players` (3 or 4); players sharing a place
    get the mean of the places they hold.

    >>> place_score(2, 4), place_score(2, 3), place_score(1, 4, sharing=2)
    (Fraction(10, 1), Fraction(0, 1), Fraction(20, 1))
    """
    scores = PLACE_SCORES.get(players)
    if scores is None:
        raise RatingError(_("A game of %(players)s players cannot be rated."), players=players)
    held = range(place, place + sharing)
    if place < 1 or held[-1] > players:
        raise RatingError(_("A game has a place that its table does not have."))
    return Fraction(sum(scores[q - 1] for q in held), sharing)


def games_factor(games: int) -> Fraction:
    """1 - 0.002 x games below 400 games, 0.2 from then on."""
    if games < R_GAMES_LIMIT:
        return 1 - R_GAMES_STEP * games
    return R_LATE_FACTOR


def tenhou_r(games: Sequence[RGame]) -> dict[Hashable, RValue]:
    """Each player's R after the games, in the order given, with a step for each game.

    >>> r = tenhou_r([RGame(1, (("a", 1), ("b", 2), ("c", 3), ("d", 4)))])
    >>> r["a"].value, r["d"].value
    (Decimal('1530.00'), Decimal('1470.00'))
    """
    ratings: dict[Hashable, Fraction] = {}
    played: dict[Hashable, int] = {}
    steps: dict[Hashable, list[RStep]] = {}
    for game in games:
        players = len(game.seats)
        sharing: dict[int, int] = {}
        for _player, place in game.seats:
            sharing[place] = sharing.get(place, 0) + 1
        if len({player for player, _place in game.seats}) != players:
            raise RatingError(_("A game seats one player twice."))
        before = {player: ratings.get(player, Fraction(R_START)) for player, _p in game.seats}
        average = sum(before.values(), Fraction(0)) / players
        changes = []
        for player, place in game.seats:
            score = place_score(place, players, sharing=sharing[place])
            factor = games_factor(played.get(player, 0))
            change = factor * (score + (average - before[player]) / R_SPREAD)
            changes.append((player, place, score, factor, change))
        for player, place, score, factor, change in changes:
            after = before[player] + change
            steps.setdefault(player, []).append(
                RStep(
                    game.game,
                    _hundredths(before[player]),
                    played.get(player, 0),
                    _hundredths(factor, THOUSANDTH),
                    place,
                    _hundredths(score),
                    _hundredths(average),
                    _hundredths(change),
                    _hundredths(after),
                )
            )
            ratings[player] = after
            played[player] = played.get(player, 0) + 1
    return {
        player: RValue(_hundredths(ratings[player]), played[player], tuple(steps[player]))
        for player in ratings
    }


# --- Best of n --------------------------------------------------------------------------


@dataclass(frozen=True)
class EventTotal:
    """A player's total match points in one event, and the day it ended."""

    event: Hashable
    played: datetime.date
    points: Decimal


@dataclass(frozen=True)
class BestLine:
    event: Hashable
    played: datetime.date
    points: Decimal
    counted: bool


@dataclass(frozen=True)
class BestValue:
    value: Decimal
    lines: tuple[BestLine, ...]


def best_of(totals: Sequence[EventTotal], *, n: int) -> BestValue:
    """The sum of the n highest totals (the newer first among equal totals).

    >>> day = datetime.date(2026, 1, 1)
    >>> best_of([EventTotal(1, day, Decimal("12.5")), EventTotal(2, day, Decimal("-3")),
    ...          EventTotal(3, day, Decimal("4"))], n=2).value
    Decimal('16.5')
    """
    if not 1 <= n <= MAX_BEST_OF:
        raise RatingError(_("Count from 1 to %(most)s results of each player."), most=MAX_BEST_OF)
    ordered = sorted(totals, key=lambda total: (-total.points, _neg(total.played)))
    lines = tuple(
        BestLine(total.event, total.played, total.points, index < n)
        for index, total in enumerate(ordered)
    )
    value = sum((line.points for line in lines if line.counted), Decimal(0))
    return BestValue(value, lines)


# --- A table of values ------------------------------------------------------------------


def ranked(values: Mapping[Hashable, Decimal | None]) -> list[tuple[int | None, Hashable]]:
    """(place, player) from the highest value down, equal values sharing a place; players
    without a value (not ranked) last, with no place.

    >>> ranked({"a": Decimal(5), "b": Decimal(7), "c": Decimal(5), "d": None})
    [(1, 'b'), (2, 'a'), (2, 'c'), (None, 'd')]
    """
    rated = sorted(
        (player for player, value in values.items() if value is not None),
        key=lambda player: -values[player],
    )
    rows: list[tuple[int | None, Hashable]] = []
    for index, player in enumerate(rated):
        if index and values[rated[index - 1]] == values[player]:
            place = rows[-1][0]
        else:
            place = index + 1
        rows.append((place, player))
    rows.extend((None, player) for player, value in values.items() if value is None)
    return rows

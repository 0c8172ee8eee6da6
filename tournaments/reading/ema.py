"""What the European Mahjong Association (EMA) is sent of an event, and its MERS weight.

- `results(event)`: the final placement (`reading.placement.final_placement`) as the rows
  of the EMA's results file: place, EMA number, last name, first name, country, points and
  base rank.
- `balance_problems(event)`: why the results may not be sent yet (empty: they may).
- `event_weight(event)`: the tournament's MERS weight and how it was reached.

Sources (the EMA's own pages):

- Base rank, "Basics for ranking system", https://mahjong-europe.org/ranking/Basicsranking.html
  and the ranking's calculation page, http://mahjong-europe.org/ranking/calculation: a
  player's base rank is 1000 x (N - place) / (N - 1) for N players (the winner 1000, the
  last 0).
- MERS weight, the same "Basics for ranking system" page, table "Weight calculation"
  (update of the EMA General Assembly of 25 May 2017, in force from 1 January 2018):
  TOTAL_MERS = Weight_duration + Weight_players + Weight_countries + Weight_qualif, with
  1, 2 or 3 days: +1, +2, +3; more than 40 players: +0.5, more than 80: +1 ("Substitute
  players (maximum 3) are accounted in the calculation of participating players"); 6 to 9
  countries: +0.5, 10 or more: +1; a qualification needed: +1. (The 2018 draft of that
  page, Basicsranking2018.html, wrote the countries' bounds as 6-10 and over 10; the page
  in force says 6-9 and 10 or more, as used here.)
- Tied players: the EMA's pages above give the formula for one player per place and say
  nothing of ties. Tenbou gives players who share a place the mean of the base ranks of
  the places they hold together (two players sharing 3rd of 24 hold 3rd and 4th: each gets
  (1000 x 21/23 + 1000 x 20/23) / 2 = 891.30), so that a tie neither adds nor takes away
  base rank from the field, and says so on the export page.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Sum
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import resolve_rules
from scoring.rules import Chombo

from ..countries import country_name
from ..models import (
    WINDS,
    Event,
    Game,
    GameSeat,
    Hand,
    Penalty,
    Player,
    PlayerTotal,
)
from ..totals import REPLACED_GAME_POINTS, replaced_games, tenths
from .placement import Placed, final_placement

HUNDREDTH = Decimal("0.01")
# How many problems the refusal lists; the rest are counted.
PROBLEMS_SHOWN = 10
# The MERS duration weight counts at most three days (one per day: "Basics for ranking
# system", Weight_duration).
MAX_DAYS = 3
# "Substitute players (maximum 3) are accounted in the calculation of participating
# players" ("Basics for ranking system", Weight_players).
MAX_SUBSTITUTES_COUNTED = 3


@dataclass(frozen=True)
class EmaRow:
    place: int
    shared: bool
    ema_number: str
    last_name: str
    first_name: str
    country: str
    points: Decimal
    base_rank: Decimal
    player_id: int | None = None
    display_name: str = ""

    @property
    def incomplete(self) -> bool:
        """No EMA number, or no first name: the EMA cannot tell who this is for sure."""
        return not self.ema_number or not self.first_name


def base_rank(place: int, players: int, *, sharing: int = 1) -> Decimal:
    """The EMA base rank of `place` among `players`, to two decimals (halves up); players
    sharing a place (`sharing` of them) hold that place and the next ones, and each gets
    the mean of their base ranks.

    >>> base_rank(1, 24), base_rank(24, 24), base_rank(3, 24, sharing=2)
    (Decimal('1000.00'), Decimal('0.00'), Decimal('891.30'))
    """
    if players <= 1:
        return Decimal(1000).quantize(HUNDREDTH)
    held = range(place, place + sharing)
    total = sum(Decimal(1000) * (players - q) for q in held)
    return (total / (sharing * (players - 1))).quantize(HUNDREDTH, ROUND_HALF_UP)


def split_name(player: Player) -> tuple[str, str]:
    """(last name, first name) as the EMA lists a player: the player's own fields when set;
    else the real name, "Last, First" or else its last word as the last name; else the
    display name as the last name.

    >>> split_name(Player(display_name="Emi T.", real_name="Emi Tanaka"))
    ('Tanaka', 'Emi')
    >>> split_name(Player(display_name="Emi T.", real_name="van Dijk, Anna"))
    ('van Dijk', 'Anna')
    """
    if player.last_name or player.first_name:
        return player.last_name, player.first_name
    real = " ".join(player.real_name.split())
    if "," in real:
        last, first = real.split(",", 1)
        return last.strip(), first.strip()
    if real:
        first, _space, last = real.rpartition(" ")
        return last, first
    return player.display_name, ""


def rows_of(placed: list[Placed]) -> list[EmaRow]:
    """The EMA rows of a final placement."""
    players = len(placed)
    sharing: dict[int, int] = defaultdict(int)
    for one in placed:
        sharing[one.place] += 1
    rows = []
    for one in placed:
        last, first = split_name(one.player)
        rows.append(
            EmaRow(
                place=one.place,
                shared=one.shared,
                ema_number=one.player.ema_number,
                last_name=last,
                first_name=first,
                country=one.player.country,
                points=one.points,
                base_rank=base_rank(one.place, players, sharing=sharing[one.place]),
                player_id=one.player.pk,
                display_name=one.player.display_name,
            )
        )
    return rows


def results(event: Event) -> list[EmaRow]:
    return rows_of(final_placement(event))


def in_tenths(count: int) -> Decimal:
    """Whole tenths as match points: -50 -> -5.0."""
    return (Decimal(count) / 10).quantize(Decimal("0.1"))


def _where(game: Game) -> str:
    return _("Session %(session)s, table %(table)s") % {
        "session": game.session.number,
        "table": game.table_number,
    }


def balance_problems(event: Event) -> list[str]:
    """Why the event's results do not balance yet, each said so that an organiser can act;
    empty when they do. They balance when:

    1. every game of the event is finished (none still going, none awaiting its scores);
    2. every seat of a finished game holds its final score, placement and match points;
    3. the penalties held in each seat's results are the penalties recorded for that seat
       of that game (none lost, none counted twice), and no penalty names a seat the game
       does not have;
    4. (once 1-3 hold) each ranked player's stored total is the sum of their games' match
       points, which include the penalties (and, under the EMA substitute rule, -30 for
       each game a substitute played in their place): the standings are not behind their
       games.
    """
    problems: list[str] = []
    games = list(
        Game.objects.filter(session__event=event)
        .select_related("session")
        .order_by("session__number", "table_number", "pk")
    )
    if not games:
        return [_("The event has no games: there are no results to send.")]
    unfinished = [game for game in games if game.status != Game.Status.FINISHED]
    for game in unfinished:
        problems.append(
            _("%(where)s is not finished: finish it or delete it.") % {"where": _where(game)}
        )
    finished = {game.pk: game for game in games if game.status == Game.Status.FINISHED}
    # Plain values, a row a seat: a league's thousands of games read without models.
    seats = defaultdict(list)
    for game_id, *values in (
        GameSeat.objects.filter(game__session__event=event, game__status=Game.Status.FINISHED)
        .order_by("game_id", "seat")
        .values_list(
            "game_id",
            "seat",
            "player__display_name",
            "score",
            "placement",
            "match_points",
            "penalty_points",
        )
    ):
        seats[game_id].append(values)
    recorded: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for game_id, seat, points in Penalty.objects.filter(
        game__session__event=event, game__status=Game.Status.FINISHED
    ).values_list("game_id", "seat", "match_points"):
        recorded[game_id][seat] += tenths(points)
    # A chombo under rules that fine it in match points counts as a penalty too, as the
    # engine counts it (scoring.game._penalty_totals).
    fines: dict[int, Decimal | None] = {}
    for game_id, session_id, offender in Hand.objects.filter(
        game__session__event=event,
        game__status=Game.Status.FINISHED,
        chombo_offender__isnull=False,
    ).values_list("game_id", "game__session_id", "chombo_offender"):
        if session_id not in fines:
            rules = resolve_rules(finished[game_id].session.rules_spec())
            fines[session_id] = rules.chombo_penalty if rules.chombo is Chombo.PENALTY else None
        if fines[session_id] is not None:
            recorded[game_id][offender] += tenths(fines[session_id])
    for game_id, game in finished.items():
        penalties = recorded.get(game_id, {})
        for seat, player, score, placement, points, penalty in seats[game_id]:
            if score is None or placement is None or points is None:
                problems.append(
                    _("%(where)s: %(wind)s (%(player)s) has no final result.")
                    % {"where": _where(game), "wind": WINDS[seat], "player": player}
                )
            elif tenths(penalty) != penalties.get(seat, 0):
                problems.append(
                    _(
                        "%(where)s: the penalties counted for %(player)s (%(counted)s) are "
                        "not those recorded (%(recorded)s). Save the event's rules page again: "
                        "it scores every game anew."
                    )
                    % {
                        "where": _where(game),
                        "player": player,
                        "counted": in_tenths(tenths(penalty)),
                        "recorded": in_tenths(penalties.get(seat, 0)),
                    }
                )
        held = {values[0] for values in seats[game_id]}
        for seat in sorted(set(penalties) - held):
            problems.append(
                _("%(where)s: a penalty names seat %(seat)s, which the game does not have.")
                % {"where": _where(game), "seat": seat + 1}
            )
    # The totals are checked against games that are whole: with a game or a seat wanting,
    # the problems above say what to put right first.
    if not problems:
        problems.extend(_totals_behind(event))
    return problems


def _totals_behind(event: Event) -> list[str]:
    """Ranked players whose stored total is not the sum of their counted games."""
    counted: dict[int, int] = defaultdict(int)
    for player_id, points in (
        GameSeat.objects.finished_in(event)
        .filter(is_substitute=False)
        .values("player_id")
        .annotate(points=Sum("match_points"))
        .values_list("player_id", "points")
    ):
        counted[player_id] += tenths(points or 0)
    for _session, player_id, _last in replaced_games(event.pk):
        counted[player_id] += tenths(REPLACED_GAME_POINTS)
    stored = dict(
        PlayerTotal.objects.filter(event=event, session__isnull=True).values_list(
            "player_id", "points_tenths"
        )
    )
    problems = []
    everyone = set(counted) | set(stored)
    names = dict(Player.objects.filter(pk__in=everyone).values_list("pk", "display_name"))
    for player_id in sorted(everyone, key=lambda pk: names.get(pk, "")):
        if counted.get(player_id, 0) != stored.get(player_id, 0):
            problems.append(
                _(
                    "%(player)s: the standings count %(stored)s, their games add up to "
                    "%(counted)s. Save the event's rules page again: it scores every game "
                    "anew and recounts the standings."
                )
                % {
                    "player": names.get(player_id, "?"),
                    "stored": in_tenths(stored.get(player_id, 0)),
                    "counted": in_tenths(counted.get(player_id, 0)),
                }
            )
    return problems


def shown_problems(problems: list[str]) -> list[str]:
    """The first problems, and how many more there are."""
    if len(problems) <= PROBLEMS_SHOWN:
        return problems
    more = len(problems) - PROBLEMS_SHOWN
    return problems[:PROBLEMS_SHOWN] + [
        ngettext("… and %(count)s more problem.", "… and %(count)s more problems.", more)
        % {"count": more}
    ]


@dataclass(frozen=True)
class WeightPart:
    """One line of the MERS weight: what was counted, how many, and what it adds."""

    what: str
    count: int | None
    weight: Decimal


@dataclass(frozen=True)
class MersWeight:
    days: int
    players: int
    countries: int
    qualification: bool
    parts: tuple[WeightPart, ...]

    @property
    def total(self) -> Decimal:
        return sum((part.weight for part in self.parts), Decimal(0))


def duration_weight(days: int) -> Decimal:
    """One per day, at most three ("Basics for ranking system": 1 day +1, 2 days +2, 3 days
    +3)."""
    return Decimal(max(0, min(days, MAX_DAYS)))


def players_weight(players: int) -> Decimal:
    """Over 40 players +0.5, over 80 +1 ("Basics for ranking system": X <= 40 +0,
    41 <= X <= 80 +0.5, X > 80 +1)."""
    if players > 80:
        return Decimal(1)
    if players > 40:
        return Decimal("0.5")
    return Decimal(0)


def countries_weight(countries: int) -> Decimal:
    """6 to 9 countries +0.5, 10 or more +1 ("Basics for ranking system": X <= 5 +0,
    6 <= X <= 9 +0.5, X >= 10 +1)."""
    if countries >= 10:
        return Decimal(1)
    if countries >= 6:
        return Decimal("0.5")
    return Decimal(0)


def qualification_weight(qualification: bool) -> Decimal:
    """A qualification needed +1 ("Basics for ranking system": Weight_qualif)."""
    return Decimal(1) if qualification else Decimal(0)


def mers_weight(*, days: int, players: int, countries: int, qualification: bool) -> MersWeight:
    """The MERS weight of a tournament and its four parts.

    >>> mers_weight(days=2, players=41, countries=6, qualification=False).total
    Decimal('3.0')
    """
    parts = (
        WeightPart(
            ngettext("%(count)s day", "%(count)s days", days) % {"count": days},
            days,
            duration_weight(days),
        ),
        WeightPart(
            ngettext("%(count)s player", "%(count)s players", players) % {"count": players},
            players,
            players_weight(players),
        ),
        WeightPart(
            ngettext("%(count)s country", "%(count)s countries", countries) % {"count": countries},
            countries,
            countries_weight(countries),
        ),
        WeightPart(
            _("qualification needed") if qualification else _("no qualification"),
            None,
            qualification_weight(qualification),
        ),
    )
    return MersWeight(days, players, countries, qualification, parts)


def event_days(event: Event) -> int:
    """The days the event was played on: the distinct dates of its sessions; without
    sessions, the days from its start to its end (one if it has no end)."""
    dates = set(event.sessions.values_list("date", flat=True))
    if dates:
        return len(dates)
    if event.ends_on:
        return (event.ends_on - event.starts_on).days + 1
    return 1


def event_weight(event: Event) -> MersWeight:
    """The event's MERS weight: its days, its ranked players and up to three substitutes
    who played, the countries of those players, and whether a qualification was needed."""
    ranked = {one.player.pk: one.player for one in final_placement(event)}
    substitutes = list(
        Player.objects.filter(
            seats__game__session__event=event,
            seats__game__status=Game.Status.FINISHED,
            seats__is_substitute=True,
        )
        .exclude(pk__in=ranked)
        .distinct()
        .order_by("pk")[:MAX_SUBSTITUTES_COUNTED]
    )
    counted = list(ranked.values()) + substitutes
    countries = {player.country for player in counted if player.country}
    return mers_weight(
        days=event_days(event),
        players=len(counted),
        countries=len(countries),
        qualification=event.ema_qualification,
    )


__all__ = [
    "EmaRow",
    "MersWeight",
    "balance_problems",
    "base_rank",
    "country_name",
    "event_weight",
    "mers_weight",
    "results",
    "rows_of",
    "shown_problems",
    "split_name",
]

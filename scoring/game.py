"""Replaying a game: a fold of hand results into table states, and the end of the game.

The record says what happened in each hand; everything else (dealer, round, honba,
sticks, scores, when the game ends, match points) is derived here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from .endings import EndReason
from .errors import ScoringError, Term, gettext_noop
from .match import match_points, placements, seat_order_ranking
from .payouts import STICK, Hand, Settlement, settle
from .record import GameRecord, parse_record, validate_hand
from .rules import Bust, Chombo, LeftoverSticks, Rules, Ties

WINDS = "ESWN"
# A hand entered after the game's end; the app tells it apart to say what to do instead.
ALREADY_ENDED = gettext_noop("the game already ended (%(why)s)")
ROUND_LABELS = tuple(f"{wind}{n}" for wind in "ESW" for n in range(1, 5))
# A three-player game: E1 to E3, S1 to S3, W1 to W3.
ROUND_LABELS_3 = tuple(f"{wind}{n}" for wind in "ESW" for n in range(1, 4))


def round_labels(players: int) -> tuple[str, ...]:
    """The hands of a game in order: E1 ... W4, or E1 ... W3 with three players."""
    return ROUND_LABELS if players == 4 else ROUND_LABELS_3


@dataclass(frozen=True)
class TableState:
    """The table before a hand: which hand of which round, honba, sticks, scores."""

    round_index: int  # 0 = E1 ... 7 = S4 ... 11 = W4; three players: 0 = E1 ... 3 = S1
    honba: int
    sticks: int
    scores: tuple[int, ...]  # one per seat: the number of players
    ended_by: EndReason | None = None

    @property
    def dealer(self) -> int:
        return self.round_index % len(self.scores)

    @property
    def round_label(self) -> str:
        return round_labels(len(self.scores))[self.round_index]

    @property
    def finished(self) -> bool:
        return self.ended_by is not None

    def seat_wind(self, seat: int) -> str:
        """E, S, W or N (never N with three players): the wind `seat` holds in this hand."""
        return WINDS[(seat - self.dealer) % len(self.scores)]


def start_state(rules: Rules) -> TableState:
    return TableState(0, 0, 0, (rules.start_points,) * rules.players)


@dataclass(frozen=True)
class HandReport:
    """One settled hand, as the command line prints it."""

    round_label: str
    honba: int
    dealer: int
    sticks_before: int
    scores_before: tuple[int, ...]
    deltas: tuple[int, ...]
    scores_after: tuple[int, ...]
    sticks_after: int

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round_label,
            "honba": self.honba,
            "dealer": self.dealer,
            "sticks_before": self.sticks_before,
            "scores_before": list(self.scores_before),
            "deltas": list(self.deltas),
            "scores_after": list(self.scores_after),
            "sticks_after": self.sticks_after,
        }


def _ends_after(before: TableState, s: Settlement, scores: tuple[int, ...], rules: Rules):
    """Why the game ends after this hand, or None if it goes on."""
    if rules.bust is Bust.BELOW_ZERO and min(scores) < 0:
        return EndReason.BUST
    if s.replayed:
        return None
    last = rules.last_regular_round
    if before.round_index < last:
        return None
    in_extension = before.round_index > last
    someone_reached = max(scores) >= rules.target
    if s.dealer_keeps:
        dealer = before.dealer
        leads = seat_order_ranking(scores)[0] == dealer
        # The dealer stops only when leading with the target score or more.
        may_stop = leads and scores[dealer] >= rules.target
        if may_stop and s.dealer_won and rules.agari_yame:
            return EndReason.AGARI_YAME
        if may_stop and s.dealer_tenpai and rules.tenpai_yame:
            return EndReason.TENPAI_YAME
        # A dealer repeat goes on, in the west round too, even past the return score.
        return None
    if not rules.west_round:
        return EndReason.LAST_HAND
    if someone_reached:
        return EndReason.WEST_ROUND if in_extension else EndReason.LAST_HAND
    if before.round_index + 1 > last + rules.hands_per_round:
        return EndReason.WEST_ROUND
    return None


def _check_riichi_points(hand: Hand, scores: tuple[int, ...], rules: Rules) -> None:
    if not rules.riichi_min_points:
        return  # 0 allows any score, below zero too
    for seat in hand.riichi:
        if scores[seat] < rules.riichi_min_points:
            raise ScoringError(
                gettext_noop(
                    "seat %(seat)s declared riichi with %(points)s points, but riichi needs at"
                    " least %(least)s (riichi_min_points); remove the riichi or correct an"
                    " earlier hand"
                ),
                seat=seat,
                points=f"{scores[seat]:,}",
                least=f"{rules.riichi_min_points:,}",
            )


def play_hand(
    state: TableState, hand: Hand, rules: Rules, *, number: int
) -> tuple[HandReport, Settlement]:
    """Settle hand `number` (from 1) on `state`: its report and settlement.

    `next_state` turns them into the table after the hand.
    """
    if state.finished:
        reason = str(state.ended_by)
        raise ScoringError(ALREADY_ENDED, hand=number, why=Term("end", reason, reason))
    try:
        validate_hand(hand, rules)
        _check_riichi_points(hand, state.scores, rules)
    except ScoringError as err:
        raise err.in_hand(number) from None
    dealer = state.round_index % rules.players
    s = settle(hand, dealer=dealer, honba=state.honba, sticks=state.sticks, rules=rules)
    if rules.players == 4:
        east, south, west, north = state.scores
        to_east, to_south, to_west, to_north = s.deltas
        after = (east + to_east, south + to_south, west + to_west, north + to_north)
    else:
        after = tuple(score + delta for score, delta in zip(state.scores, s.deltas, strict=True))
    return HandReport(
        round_labels(rules.players)[state.round_index],
        state.honba,
        dealer,
        state.sticks,
        state.scores,
        s.deltas,
        after,
        s.sticks_after,
    ), s


def next_state(state: TableState, report: HandReport, s: Settlement, rules: Rules) -> TableState:
    """The table after a settled hand: the deal moves on or stays, honba, end of game."""
    ended_by = _ends_after(state, s, report.scores_after, rules)
    if s.replayed:
        round_index, honba = state.round_index, state.honba
    elif s.dealer_keeps:
        round_index, honba = state.round_index, state.honba + 1
    else:
        round_index = state.round_index + 1
        honba = state.honba + 1 if s.adds_honba else 0
    hands = 3 * rules.players  # E1 to W4, or E1 to W3
    if round_index >= hands and ended_by is None:
        ended_by = EndReason.WEST_ROUND
    return TableState(
        min(round_index, hands - 1),
        honba,
        report.sticks_after,
        report.scores_after,
        ended_by,
    )


@dataclass(frozen=True)
class GameResult:
    """Everything derived from a record."""

    rules: Rules
    hands: tuple[HandReport, ...]
    state: TableState  # the table now: before the next hand, or at the end
    finished: bool
    ended_by: EndReason | None
    final_scores: tuple[int, ...] | None
    leftover_sticks: int
    placements: tuple[int, ...] | None
    match_points: tuple[Decimal, ...] | None
    penalties: tuple[Decimal, ...] = field(default=(Decimal(0),) * 4)

    def to_json(self) -> dict[str, Any]:
        """The object `python -m scoring score` prints (see the game-record spec)."""
        return {
            "hands": [h.to_json() for h in self.hands],
            "finished": self.finished,
            "ended_by": self.ended_by,
            "final_scores": list(self.final_scores) if self.final_scores else None,
            "leftover_sticks": self.leftover_sticks,
            "placements": list(self.placements) if self.placements else None,
            "match_points": [float(p) for p in self.match_points] if self.match_points else None,
        }


def replay_hands(rules: Rules, hands: Iterable[Hand]) -> tuple[list[HandReport], TableState]:
    """Fold hands into reports and the table after the last one."""
    state = start_state(rules)
    reports = []
    for number, hand in enumerate(hands, start=1):
        report, settlement = play_hand(state, hand, rules, number=number)
        reports.append(report)
        state = next_state(state, report, settlement, rules)
    return reports, state


def _penalty_totals(record: GameRecord, hands: Iterable[Hand]) -> list[Decimal]:
    totals = [Decimal(0)] * record.rules.players
    for penalty in record.penalties:
        totals[penalty.seat] += penalty.match_points
    if record.rules.chombo is Chombo.PENALTY:
        for hand in hands:
            if hand.offender is not None:
                totals[hand.offender] += record.rules.chombo_penalty
    return totals


def _finish(scores: tuple[int, ...], sticks: int, rules: Rules) -> tuple[int, ...]:
    """Final scores: the sticks still on the table go to first place, or are lost.

    With split ties, players tied for first share them in whole points; what does not
    divide goes to the tied player nearest the first dealer's seat.
    """
    if rules.leftover_sticks is not LeftoverSticks.FIRST or not sticks:
        return scores
    ranking = seat_order_ranking(scores)
    firsts = [ranking[0]]
    if rules.ties is Ties.SPLIT:
        firsts = sorted(seat for seat in ranking if scores[seat] == scores[ranking[0]])
    part, rest = divmod(sticks * STICK, len(firsts))
    final = list(scores)
    for seat in firsts:
        final[seat] += part
    final[firsts[0]] += rest
    return tuple(final)


def replay(record: GameRecord) -> GameResult:
    """Score a parsed record.

    >>> rec = parse_record({"format": "tenbou-game/1", "rules": "ari-ari",
    ...     "players": ["A", "B", "C", "D"],
    ...     "final_scores": [41300, 24900, 21800, 12000], "leftover_sticks": 0})
    >>> [str(p) for p in replay(rec).match_points]
    ['61.3', '4.9', '-18.2', '-48.0']
    """
    rules = record.rules
    if record.final_scores is not None:
        state = replace(
            start_state(rules),
            scores=record.final_scores,
            sticks=record.leftover_sticks,
            ended_by=EndReason.FINAL_SCORES,
        )
        reports: list[HandReport] = []
        ended_by = None
    else:
        reports, state = replay_hands(rules, record.hands)
        if record.ended_early is not None:
            # Time was called: the game ends here, wherever the rules would have gone on.
            state = replace(state, ended_by=EndReason(record.ended_early))
        ended_by = state.ended_by
    if not state.finished:
        nothing = (Decimal(0),) * rules.players
        return GameResult(
            rules, tuple(reports), state, False, None, None, state.sticks, None, None, nothing
        )
    final = _finish(state.scores, state.sticks, rules)
    # Places are decided before the leftover sticks, so that players who shared them
    # stay tied when the sticks do not divide evenly.
    standing = state.scores if rules.ties is Ties.SPLIT else final
    penalties = _penalty_totals(record, record.hands or ())
    points = match_points(final, rules, standing=standing)
    points = [p + penalties[seat] for seat, p in enumerate(points)]
    return GameResult(
        rules,
        tuple(reports),
        state,
        True,
        ended_by,
        final,
        state.sticks,
        tuple(placements(standing, ties=rules.ties)),
        tuple(points),
        tuple(penalties),
    )


def score(data: dict[str, Any]) -> dict[str, Any]:
    """Score a tenbou-game/1 document; the result is the spec's JSON object.

    >>> score({"format": "tenbou-game/1", "rules": "ari-ari", "players": ["A", "B", "C", "D"],
    ...        "hands": [{"result": "ron", "riichi": [2],
    ...                   "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}]}
    ...      )["hands"][0]["deltas"]
    [-5200, 6200, -1000, 0]
    """
    return replay(parse_record(data)).to_json()

"""Final scores into placements and match points: return score, uma, oka, rounding, ties."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_DOWN, Decimal

from .rules import Rounding, Rules, Ties

TENTH = Decimal("0.1")


def seat_order_ranking(scores: Sequence[int]) -> list[int]:
    """Seats from first to last place; equal scores go to the seat nearer the first dealer.

    >>> seat_order_ranking([25000, 30000, 25000, 20000])
    [1, 0, 2, 3]
    """
    return sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))


def placements(scores: Sequence[int], *, ties: Ties) -> list[int]:
    """Each seat's place, 1 to 4. With split ties, equal scores share the better place.

    >>> placements([30000, 30000, 20000, 20000], ties=Ties.SPLIT)
    [1, 1, 3, 3]
    """
    ranking = seat_order_ranking(scores)
    places = [0] * len(scores)
    for index, seat in enumerate(ranking):
        places[seat] = index + 1
    if ties is Ties.SPLIT:
        for seat in range(len(scores)):
            places[seat] = 1 + sum(1 for other in scores if other > scores[seat])
    return places


def _tied_groups(scores: Sequence[int], ties: Ties) -> list[list[int]]:
    """Seats grouped by equal final score (each alone under seat-order ties), best first."""
    ranking = seat_order_ranking(scores)
    if ties is Ties.SEAT_ORDER:
        return [[seat] for seat in ranking]
    groups: list[list[int]] = []
    for seat in ranking:
        if groups and scores[groups[-1][0]] == scores[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def _share(total: Decimal, seats: list[int]) -> dict[int, Decimal]:
    """Split `total` into tenths among `seats`; the seats nearer the first dealer take any
    tenths left over, so the parts add up to the total exactly."""
    part = (total / len(seats)).quantize(TENTH, rounding=ROUND_DOWN)
    shares = {seat: part for seat in seats}
    left = total - part * len(seats)
    for seat in sorted(seats):
        if left == 0:
            break
        step = TENTH if left > 0 else -TENTH
        shares[seat] += step
        left -= step
    return shares


def _placement_bonus(scores: Sequence[int], rules: Rules) -> list[Decimal]:
    """Uma plus oka per seat, tied players sharing the bonuses of the places they hold."""
    bonus_by_place = list(rules.uma)
    bonus_by_place[0] += rules.effective_oka
    result = [Decimal(0)] * len(scores)
    place = 0
    for group in _tied_groups(scores, rules.ties):
        total = sum(bonus_by_place[place : place + len(group)], Decimal(0))
        for seat, value in _share(total, group).items():
            result[seat] = value
        place += len(group)
    return result


def round_to_thousands(score: int) -> int:
    """A score to whole thousands, halves rounding up (as Tenhou's older logs do).

    >>> round_to_thousands(25400), round_to_thousands(25500), round_to_thousands(-2500)
    (25000, 26000, -2000)
    """
    thousands, rest = divmod(score, 1000)
    return (thousands + (1 if rest >= 500 else 0)) * 1000


def match_points(
    scores: Sequence[int], rules: Rules, *, standing: Sequence[int] | None = None
) -> list[Decimal]:
    """Match points for final scores (before penalties); `standing`, if given, are the
    scores that decide the places (the scores before leftover sticks were shared).

    >>> [str(p) for p in match_points([41300, 24900, 21800, 12000], Rules())]
    ['61.3', '4.9', '-18.2', '-48.0']
    """
    standing = scores if standing is None else standing
    bonus = _placement_bonus(standing, rules)
    if rules.rounding is Rounding.EXACT:
        raw = [
            Decimal(score - rules.return_points) / 1000 + bonus[seat]
            for seat, score in enumerate(scores)
        ]
        points = [p.quantize(TENTH) for p in raw]
        # Scores are whole hundreds, so this is exact, except after leftover sticks were
        # shared in whole points: first place then absorbs the rounding, so that the
        # table still sums as the scores do.
        points[seat_order_ranking(standing)[0]] += (sum(raw) - sum(points)).quantize(TENTH)
        return points
    # Whole thousands: everyone but the first-placed player rounds; first takes what makes
    # the table sum to zero.
    first = seat_order_ranking(scores)[0]
    points = [
        Decimal(round_to_thousands(score) - rules.return_points) / 1000 + bonus[seat]
        for seat, score in enumerate(scores)
    ]
    points[first] = -sum((p for seat, p in enumerate(points) if seat != first), Decimal(0))
    return [p.quantize(TENTH) for p in points]

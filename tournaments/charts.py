"""The cumulative match-points chart as plain geometry.

The chart is drawn on the server as inline SVG: this module works out every coordinate
and label, and the template only writes them out. So a chart needs no script and no
outside service, prints black on white, and looks the same on paper as on screen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .wording import formatting

# The chart


@dataclass(frozen=True)
class Tick:
    position: float  # x for the games axis, y for the points axis
    label: str


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str  # "Game 3: +12.4" for the tooltip


@dataclass(frozen=True)
class CumulativeChart:
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    points: str  # the polyline: "x,y x,y ...", one pair per game
    count: int
    dots: list[Dot]  # a marker per game while they are few enough to tell apart
    zero_y: float
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    last: Dot  # where the line ends, labelled with the total
    description: str

    # Where the axes' marks and words go, so that the template only writes numbers out.

    @property
    def tick_end(self) -> float:
        return self.bottom + 5

    @property
    def x_label_y(self) -> float:
        return self.bottom + 18

    @property
    def y_label_x(self) -> float:
        return self.left - 6

    @property
    def x_title_y(self) -> float:
        return self.height - 4

    @property
    def y_title_x(self) -> float:
        return 12

    @property
    def total_x(self) -> float:
        return self.last.x + 8


WIDTH = 600
HEIGHT = 260
LEFT = 62  # room for "−1,000" on the points axis and its title
RIGHT = 58  # room for the total written after the line's end
TOP = 14
BOTTOM = 44  # game numbers and the axis title
MAX_DOTS = 40
STEPS = (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5), Decimal(10))


def nice_step(span: Decimal, target: int) -> Decimal:
    """The smallest 1, 2, 2.5 or 5 times a power of ten that cuts `span` into at most
    about `target` parts: nice_step(Decimal(130), 5) -> Decimal(50)."""
    raw = span / target
    magnitude = Decimal(10) ** math.floor(math.log10(raw))
    for step in STEPS:
        if step * magnitude >= raw:
            return step * magnitude
    return 10 * magnitude  # pragma: no cover - STEPS ends at 10


def game_step(count: int, target: int = 10) -> int:
    """Every how many games the games axis is labelled: 1, 2, 5, 10, 20, 50, ...

    >>> game_step(8), game_step(15), game_step(200)
    (1, 2, 20)
    """
    magnitude = 1
    while True:
        for step in (1, 2, 5):
            if count / (step * magnitude) <= target:
                return step * magnitude
        magnitude *= 10


def tick_label(value: Decimal, step: Decimal) -> str:
    """+50, −25, 0; tenths only when the step needs them (+2.5)."""
    if value == 0:
        return "0"
    if step == step.to_integral_value():
        return formatting.rule_number(value)
    return formatting.match_points(value)


def _round(value: float) -> float:
    return round(value, 1)


def cumulative_chart(
    match_points: Sequence[Decimal], *, width: int = WIDTH, height: int = HEIGHT
) -> CumulativeChart | None:
    """The running total of `match_points` (one per game, in the order played), scaled to
    fit the box whatever the number of games; None when there is no game.

    >>> chart = cumulative_chart([Decimal("61.3"), Decimal("-48.0")])
    >>> chart.count, chart.last.label
    (2, '+13.3')
    """
    if not match_points:
        return None
    totals: list[Decimal] = []
    running = Decimal(0)
    for value in match_points:
        running += value
        totals.append(running)
    count = len(totals)
    left, top, right, bottom = LEFT, TOP, width - RIGHT, height - BOTTOM

    # The points axis always includes zero, so the zero line is always drawn.
    low, high = min(Decimal(0), *totals), max(Decimal(0), *totals)
    if low == high:
        low, high = Decimal(-10), Decimal(10)
    step = nice_step(high - low, 5)
    low = (low / step).to_integral_value(rounding="ROUND_FLOOR") * step
    high = (high / step).to_integral_value(rounding="ROUND_CEILING") * step

    def y(value: Decimal) -> float:
        return _round(bottom - float((value - low) / (high - low)) * (bottom - top))

    def x(index: int) -> float:
        # One game sits in the middle; more spread over the whole width.
        if count == 1:
            return _round((left + right) / 2)
        return _round(left + (right - left) * index / (count - 1))

    coords = [(x(i), y(total)) for i, total in enumerate(totals)]
    y_ticks = []
    value = low
    while value <= high:
        y_ticks.append(Tick(y(value), tick_label(value, step)))
        value += step
    every = game_step(count)
    numbers = [1, *range(every, count + 1, every)] if every > 1 else list(range(1, count + 1))
    if every > 1 and count not in numbers and count - numbers[-1] > every / 2:
        numbers.append(count)
    x_ticks = [Tick(x(n - 1), str(n)) for n in dict.fromkeys(numbers)]
    dots = (
        [
            Dot(
                cx,
                cy,
                _("Game %(number)s: %(total)s")
                % {"number": i + 1, "total": formatting.match_points(totals[i])},
            )
            for i, (cx, cy) in enumerate(coords)
        ]
        if count <= MAX_DOTS
        else []
    )
    last_x, last_y = coords[-1]
    description = ngettext(
        "Cumulative match points over %(count)s game: %(total)s in all; highest %(highest)s, "
        "lowest %(lowest)s.",
        "Cumulative match points over %(count)s games: %(total)s in all; highest %(highest)s, "
        "lowest %(lowest)s.",
        count,
    ) % {
        "count": count,
        "total": formatting.match_points(totals[-1]),
        "highest": formatting.match_points(max(totals)),
        "lowest": formatting.match_points(min(totals)),
    }
    return CumulativeChart(
        width=width,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        points=" ".join(f"{cx:g},{cy:g}" for cx, cy in coords),
        count=count,
        dots=dots,
        zero_y=y(Decimal(0)),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        last=Dot(last_x, last_y, formatting.match_points(totals[-1])),
        description=description,
    )

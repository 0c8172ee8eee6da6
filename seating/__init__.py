"""The seating planner: plain Python, no Django.

`make_plan(players, rounds, method=..., seed=..., history=...)` returns a `Plan`: the tables
of every round in seat order East, South, West, North, who sits out, and how many pairs at
each table have met before. `fixed_plan` checks a round typed by the organiser.
"""

from .planner import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    METHODS,
    Plan,
    SeatingError,
    check_round,
    check_size,
    count_repeats,
    fixed_plan,
    make_plan,
)

__all__ = [
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "METHODS",
    "Plan",
    "SeatingError",
    "check_round",
    "check_size",
    "count_repeats",
    "fixed_plan",
    "make_plan",
]

"""Ratings across events: plain Python, no Django.

Three formulas, each a pure function from results to a value per player with the trace
of how it was reached:

- `mers(results, reckoning=...)`: the EMA's Mahjong European Ranking System;
- `tenhou_r(games)`: a club rating of the Tenhou R kind, game by game;
- `best_of(totals, n=...)`: the best n event totals of a season.

Each formula carries a version (`VERSIONS`); a rating stored by the app pins the version it
was made with, and a formula whose rules change gets a new version beside the old one.
"""

from .formulas import (
    MAX_BEST_OF,
    VERSIONS,
    BestLine,
    BestValue,
    EventTotal,
    MersLine,
    MersResult,
    MersValue,
    RatingError,
    RGame,
    RStep,
    RValue,
    age_factor,
    best_of,
    mers,
    place_score,
    ranked,
    tenhou_r,
)

__all__ = [
    "MAX_BEST_OF",
    "VERSIONS",
    "BestLine",
    "BestValue",
    "EventTotal",
    "MersLine",
    "MersResult",
    "MersValue",
    "RGame",
    "RStep",
    "RValue",
    "RatingError",
    "age_factor",
    "best_of",
    "mers",
    "place_score",
    "ranked",
    "tenhou_r",
]

"""Tenbou's scoring engine: pure Python, no Django.

Read a tenbou-game/1 record, settle every hand under the game's rules, and turn the
final scores into placements and match points.

>>> from scoring import score
>>> score({"format": "tenbou-game/1", "rules": "ari-ari", "players": ["A", "B", "C", "D"],
...        "hands": []})["finished"]
False
"""

from .endings import EndReason
from .errors import ScoringError
from .game import GameResult, HandReport, TableState, replay, score
from .record import GameRecord, dump_record, parse_record
from .rules import PRESETS, Rules, resolve_rules

__all__ = [
    "PRESETS",
    "EndReason",
    "GameRecord",
    "GameResult",
    "HandReport",
    "Rules",
    "ScoringError",
    "TableState",
    "dump_record",
    "parse_record",
    "replay",
    "resolve_rules",
    "score",
]

"""The check of a converted game against the log's own figures, under given rules.

The import and the tests share it: a game is imported only when the engine, replaying the
record under the event's rules, pays every hand and reaches the final scores as the log did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import scoring

from .game import TenhouGame


def _mismatch(number: int, engine: Sequence[int], log: Sequence[int]) -> str:
    return (
        f"hand {number}: the engine pays {list(engine)} under this event's rules, "
        f"the log says {list(log)}"
    )


def differences(game: TenhouGame, rules: Any = None) -> list[str]:
    """Replay `game` under `rules` (a record's `rules` value; the log's own when None) and
    list every difference from the log's point changes and final scores. An empty list
    means they agree.

    >>> from tenhou import convert_file
    >>> game = convert_file("tests/data/tenhou/2019123123gm-00a9-0000-f4386d0e.json")
    >>> differences(game)
    []
    >>> [problem.split(":")[0] for problem in differences(game, "wrc")]
    ['final scores']
    """
    doc = game.record if rules is None else {**game.record, "rules": rules}
    try:
        result = scoring.replay(scoring.parse_record(doc))
    except scoring.ScoringError as err:
        return [f"the rules of this event cannot settle it: {err}"]
    problems = [
        _mismatch(number, report.deltas, log)
        for number, (report, log) in enumerate(
            zip(result.hands, game.hand_deltas, strict=False), start=1
        )
        if list(report.deltas) != list(log)
    ]
    if len(result.hands) != len(game.hand_deltas):
        problems.append(
            f"the engine replayed {len(result.hands)} hands, the log has {len(game.hand_deltas)}"
        )
    if not result.finished:
        problems.append("under this event's rules the game would not be over after its last hand")
    elif list(result.final_scores) != list(game.final_scores):
        problems.append(
            f"final scores: the engine gives {list(result.final_scores)}, "
            f"the log says {list(game.final_scores)}"
        )
    return problems

"""The check of a converted game against the log's own figures, under given rules.

The import and the tests share it: a game is imported only when the engine, replaying the
record under the event's rules, pays every hand and reaches the final scores as the log did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import scoring
from scoring.errors import Phrase, gettext_noop

from .game import TenhouGame


def _mismatch(number: int, engine: Sequence[int], log: Sequence[int]) -> Phrase:
    return Phrase(
        gettext_noop(
            "hand %(number)s: the engine pays %(engine)s under this event's rules, the log says"
            " %(log)s"
        ),
        number=number,
        engine=str(list(engine)),
        log=str(list(log)),
    )


def differences(game: TenhouGame, rules: Any = None) -> list[Phrase]:
    """Replay `game` under `rules` (a record's `rules` value; the log's own when None) and
    list every difference from the log's point changes and final scores (English text that
    carries its template, for the app to translate). An empty list means they agree.

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
        return [
            Phrase(
                gettext_noop("the rules of this event cannot settle it: %(problem)s"),
                problem=err.phrase,
            )
        ]
    problems = [
        _mismatch(number, report.deltas, log)
        for number, (report, log) in enumerate(
            zip(result.hands, game.hand_deltas, strict=False), start=1
        )
        if list(report.deltas) != list(log)
    ]
    if len(result.hands) != len(game.hand_deltas):
        problems.append(
            Phrase(
                gettext_noop("the engine replayed %(engine)s hands, the log has %(log)s"),
                engine=len(result.hands),
                log=len(game.hand_deltas),
            )
        )
    if not result.finished:
        problems.append(
            Phrase(
                gettext_noop(
                    "under this event's rules the game would not be over after its last hand"
                )
            )
        )
    elif list(result.final_scores) != list(game.final_scores):
        problems.append(
            Phrase(
                gettext_noop("final scores: the engine gives %(engine)s, the log says %(log)s"),
                engine=str(list(result.final_scores)),
                log=str(list(game.final_scores)),
            )
        )
    return problems

"""A game's hands as rows, for the game page and the printed game sheet alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring.game import GameResult

from ..wording import describe_hand


def hand_rows(
    record: dict[str, Any],
    result: GameResult | None,
    names: list[str],
    *,
    round_words: Callable[[Any], str],
) -> list[dict[str, Any]]:
    """One row per hand: its number, round (in `round_words` of the hand's report), dealer,
    what happened, who declared riichi, and per seat the payment, the score after it and
    whether the seat dealt. Numbers stay numbers: the templates format them."""
    if result is None or "hands" not in record:
        return []
    rows = []
    for number, (doc, report) in enumerate(zip(record["hands"], result.hands, strict=True), 1):
        rows.append(
            {
                "number": number,
                "round": round_words(report),
                "dealer": names[report.dealer],
                "summary": describe_hand(doc, names, rules=result.rules),
                "riichi": ", ".join(names[s] for s in doc["riichi"]),
                "cells": [
                    {
                        "delta": d,
                        "score": after,
                        "sign": (d > 0) - (d < 0),
                        "dealer": seat == report.dealer,
                    }
                    for seat, (d, after) in enumerate(
                        zip(report.deltas, report.scores_after, strict=True)
                    )
                ],
            }
        )
    return rows

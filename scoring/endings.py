"""Why a game ended: the values of a result's `ended_by`.

A new way for a game to end is one more member here; the app's wording test then asks for
its words (tournaments/wording.py), so no page ever shows a bare code.

>>> EndReason("bust") is EndReason.BUST, EndReason.TIME == "time"
(True, True)
"""

from __future__ import annotations

from enum import StrEnum


class EndReason(StrEnum):
    LAST_HAND = "last_hand"  # the last regular hand was played
    BUST = "bust"  # a player went below zero
    AGARI_YAME = "agari_yame"  # the dealer won the last hand in the lead and stopped
    TENPAI_YAME = "tenpai_yame"  # the dealer was tenpai at the last hand in the lead
    WEST_ROUND = "west_round"  # the west round (an extension) is over
    FINAL_SCORES = "final_scores"  # only the final scores were entered
    TIME = "time"  # the organiser called time after the last hand entered

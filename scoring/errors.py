"""The one exception type of the scoring engine."""

from __future__ import annotations


class ScoringError(ValueError):
    """A record, a rule option or a log that the engine cannot settle.

    The message is written for an organiser: it says what is wrong and, when the
    problem lies in a hand, which hand (counted from 1).

    >>> str(ScoringError("1 han 20 fu is not a possible ron", hand=7))
    'hand 7: 1 han 20 fu is not a possible ron'
    """

    def __init__(self, message: str, *, hand: int | None = None) -> None:
        self.message = message
        self.hand = hand
        super().__init__(f"hand {hand}: {message}" if hand is not None else message)

    def in_hand(self, hand: int) -> ScoringError:
        """The same problem, attributed to a hand (keeps an attribution already made)."""
        if self.hand is not None:
            return self
        return ScoringError(self.message, hand=hand)

"""The refusals of the services: a change the rules or the game's state do not allow."""

from __future__ import annotations

from typing import Any

from scoring.errors import gettext_noop

from ..wording.refusals import Refusal


class GameChangeRefused(Refusal):
    """A change the rules or the game's state do not allow; the message says why (a marked
    template and its parameters, or the engine's refusal passed on)."""


class HandAlreadyEntered(GameChangeRefused):
    """Someone else stored this hand number first."""


class HandChanged(GameChangeRefused):
    """Someone else changed the hand since the edit form was opened; `hand` is the hand as
    it is stored now."""

    def __init__(self, hand: dict[str, Any]) -> None:
        super().__init__(gettext_noop("The hand was changed by someone else in the meantime."))
        self.hand = hand

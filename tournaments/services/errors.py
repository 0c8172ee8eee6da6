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


class EntrySentBefore(Exception):
    """The hand entry with this id was applied already: nothing was changed, and the caller
    answers with what the first time stored (`receipt`: its kind and hand number). Not a
    refusal: a resend (a lost answer, a second tap, a phone's outbox retrying) is told its
    entry is saved."""

    def __init__(self, receipt) -> None:
        super().__init__(f"entry {receipt.entry} was stored already")
        self.receipt = receipt


class ScoresDisagree(GameChangeRefused):
    """The scores the sender computed after its hand are not those the server's replay
    gives: nothing is stored."""


class GameClosed(GameChangeRefused):
    """The game takes no change of its hands now: finished, locked, of final scores only, or
    its table link revoked."""


class GameChangedMeanwhile(GameChangeRefused):
    """The game is no longer the one the sender based its change on (its version differs):
    someone else changed it since."""

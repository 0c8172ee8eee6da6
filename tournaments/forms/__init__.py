"""The app's forms, by what they enter: events and sessions, rules, games, players and the
roster, accounts, hands and final scores, log uploads and seating. Every public name is
importable from here.
"""

from ..limits import MAX_RULE_NUMBER, MAX_SESSION_NUMBER, MAX_TABLE_NUMBER
from .accounts import LoginNameField, OrganiserAddForm, PlayerLinkForm, find_login
from .common import (
    NAME_LENGTH,
    RESERVED_SLUGS,
    TenbouBoundField,
    TenbouFormMixin,
    capitalised,
    free_slug,
    lazy_format,
)
from .events import EventCreateForm, EventForm, SessionForm
from .games import SEAT_WINDS, GameForm, PlayerChoice
from .players import PlayerForm, RosterPasteForm, RosterPickForm, WithdrawForm
from .rules import OPTION_REFUSALS, RULE_REFUSALS, RulesForm, UmaField, UmaWidget, option_kind

__all__ = [
    "NAME_LENGTH",
    "RESERVED_SLUGS",
    "lazy_format",
    "capitalised",
    "MAX_TABLE_NUMBER",
    "MAX_SESSION_NUMBER",
    "MAX_RULE_NUMBER",
    "TenbouBoundField",
    "TenbouFormMixin",
    "free_slug",
    "RULE_REFUSALS",
    "OPTION_REFUSALS",
    "option_kind",
    "UmaWidget",
    "UmaField",
    "RulesForm",
    "EventForm",
    "EventCreateForm",
    "SessionForm",
    "SEAT_WINDS",
    "PlayerChoice",
    "GameForm",
    "PlayerForm",
    "RosterPickForm",
    "RosterPasteForm",
    "WithdrawForm",
    "find_login",
    "LoginNameField",
    "OrganiserAddForm",
    "PlayerLinkForm",
]

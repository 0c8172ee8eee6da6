"""The app's forms, by what they enter: events and sessions, rules, games, players and the
roster, accounts, hands and final scores, log uploads and seating. Every public name is
importable from here.
"""

from .accounts import (
    LoginNameField,
    OrganiserAddForm,
    PlayerLinkForm,
    find_login,
)
from .common import (
    MAX_RULE_NUMBER,
    MAX_SESSION_NUMBER,
    MAX_TABLE_NUMBER,
    NAME_LENGTH,
    RESERVED_SLUGS,
    TenbouBoundField,
    TenbouFormMixin,
    capitalised,
    free_slug,
    lazy_format,
)
from .events import (
    EventCreateForm,
    EventForm,
    SessionForm,
)
from .games import (
    SEAT_WINDS,
    GameForm,
    PlayerChoice,
)
from .players import (
    PlayerForm,
    RosterPasteForm,
    RosterPickForm,
    WithdrawForm,
)
from .rules import (
    ENUM_LABELS,
    OPTION_ENUM_LABELS,
    OPTION_REFUSALS,
    PRESET_DESCRIPTIONS,
    RULE_HELP,
    RULE_LABELS,
    RULE_REFUSALS,
    RulesForm,
    UmaField,
    UmaWidget,
    describe_rules,
    enum_in_words,
    option_kind,
    preset_choices,
    rule_label,
    rule_value_in_words,
    rules_for_reading,
)

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
    "PRESET_DESCRIPTIONS",
    "preset_choices",
    "RULE_LABELS",
    "RULE_HELP",
    "OPTION_ENUM_LABELS",
    "ENUM_LABELS",
    "RULE_REFUSALS",
    "OPTION_REFUSALS",
    "enum_in_words",
    "rule_label",
    "rule_value_in_words",
    "describe_rules",
    "option_kind",
    "UmaWidget",
    "UmaField",
    "RulesForm",
    "rules_for_reading",
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

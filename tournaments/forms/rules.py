"""An event's rules: the form of every option."""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

import scoring
from scoring.rules import Rules, option_names

from ..limits import MAX_RULE_NUMBER
from ..models import Event
from ..wording.refusals import say
from ..wording.rules import (
    RULE_GROUPS,
    RULE_HELP,
    THREE_PLAYER_UMA_HELP,
    _oka_from_points,
    _target_is_return,
    enum_in_words,
    preset_choices,
    rule_label,
    rule_value_in_words,
)
from .common import TenbouFormMixin, capitalised

# The engine's refusals of option values (scoring/rules.py, _check_consistency), in the
# form's words; an engine message not listed here is shown with the option's label put in.
RULE_REFUSALS = {
    "start_points must be a positive multiple of 100": gettext_lazy(
        "Start points must be a positive multiple of 100."
    ),
    "return_points must be a multiple of 100, 0 or more": gettext_lazy(
        "Return points must be a multiple of 100, 0 or more."
    ),
    "target_points must be a multiple of 100, 0 or more": gettext_lazy(
        "Target points must be a multiple of 100, 0 or more."
    ),
    "riichi_min_points must be a multiple of 100, 0 or more": gettext_lazy(
        "Points needed for riichi must be a multiple of 100, 0 or more."
    ),
    "honba_value must be a multiple of 300 (0 or more)": gettext_lazy(
        "Honba value must be a multiple of 300 (0 or more)."
    ),
    "noten_total must be a multiple of 600 (0 or more)": gettext_lazy(
        "Noten payments must be a multiple of 600 (0 or more)."
    ),
    "uma needs four numbers, for 1st to 4th place": gettext_lazy(
        "Uma needs four numbers, for 1st to 4th place."
    ),
    "match points are kept to tenths: uma, oka and penalties too": gettext_lazy(
        "Match points are kept to tenths: uma, oka and penalties too."
    ),
    "chombo_penalty is a deduction: give it as 0 or a negative number": gettext_lazy(
        "Chombo penalty is a deduction: give it as 0 or a negative number."
    ),
}


# The engine's refusals of one option's value (by their templates), with the option named
# by its label.
OPTION_REFUSALS = {
    "option %(name)s must be a number": gettext_lazy("%(option)s must be a number."),
    "option %(name)s must be true or false": gettext_lazy("%(option)s must be true or false."),
    "option %(name)s must be a whole number of points": gettext_lazy(
        "%(option)s must be a whole number of points."
    ),
    "option %(name)s must be one of %(choices)s": gettext_lazy(
        "%(option)s must be one of %(choices)s."
    ),
    "option 'uma' must be a list of four numbers, 1st to 4th": gettext_lazy(
        "%(option)s must be a list of four numbers, 1st to 4th."
    ),
}


# Options that only a three-player game uses: the form shows them for three-player rules.
THREE_PLAYER_OPTIONS = frozenset({"tsumo_loss"})


def _preset_values(name: str) -> list[Any]:
    return [getattr(rules, name) for rules in scoring.PRESETS.values()]


def option_kind(name: str) -> str:
    """bool, enum, int, decimal or uma, judged from the presets' values."""
    if name == "uma":
        return "uma"
    if name == "target_points":
        return "int"
    values = [v for v in _preset_values(name) if v is not None]
    sample = values[0] if values else None
    if isinstance(sample, bool):
        return "bool"
    if isinstance(sample, StrEnum):
        return "enum"
    if isinstance(sample, int):
        return "int"
    return "decimal"


def _to_json(value: Any) -> Any:
    """An option value as stored in `Event.rules_overrides`."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    return value


class UmaWidget(forms.MultiWidget):
    """Four inputs, 1st to 4th place; a three-player event's form hides the 4th."""

    def __init__(self, attrs=None):
        places = [
            gettext_lazy("Uma for 1st place"),
            gettext_lazy("Uma for 2nd place"),
            gettext_lazy("Uma for 3rd place"),
            gettext_lazy("Uma for 4th place"),
        ]
        widgets = [
            forms.NumberInput(attrs={"step": "0.1", "aria-label": place}) for place in places
        ]
        super().__init__(widgets, attrs)

    def decompress(self, value):
        values = list(value) if value else []
        return values + [None] * (4 - len(values))


class UmaField(forms.MultiValueField):
    """Numbers for 1st place onward (four, or three under three-player rules), or none at
    all; the rules form checks that there are as many as the rules have players."""

    widget = UmaWidget

    def __init__(self, **kwargs):
        fields = [
            forms.DecimalField(max_digits=5, decimal_places=1, required=False) for _ in range(4)
        ]
        kwargs["required"] = False
        super().__init__(fields, require_all_fields=False, **kwargs)

    def compress(self, data_list):
        values = list(data_list or [])
        while values and values[-1] is None:
            values.pop()
        if not values:
            return None
        if None in values:
            raise forms.ValidationError(
                _("Give the uma values from 1st place on, with no place left empty in between.")
            )
        return tuple(values)


class RulesForm(TenbouFormMixin, forms.Form):
    """The event's preset and one field per rule option; an empty field keeps the preset's
    value, so only real differences are stored as overrides."""

    preset = forms.ChoiceField(label=gettext_lazy("Preset"), choices=preset_choices)

    # Groups as shown on the page, so that forty fields read as five short lists.
    GROUPS = RULE_GROUPS

    def __init__(self, *args, event: Event, **kwargs):
        kwargs.setdefault("initial", self.initial_for(event))
        super().__init__(*args, **kwargs)
        self.event = event
        defaults = scoring.PRESETS[event.rules_preset]
        for name in option_names():
            self.fields[name] = self._option_field(name, defaults, event.rules_preset)
        self.player_count = self._players(self.data.get("preset")) or defaults.players
        if self.player_count == 3 and not self.data.get("uma_3"):
            # Three places: the 4th input stays out of the way (shown if something is in it).
            self.fields["uma"].widget.widgets[3].attrs["hidden"] = True

    @staticmethod
    def _players(preset: str | None) -> int | None:
        """How many players the rules of `preset` are for, None for no known preset."""
        rules = scoring.PRESETS.get(preset) if isinstance(preset, str) else None
        return rules.players if rules is not None else None

    @staticmethod
    def initial_for(event: Event) -> dict[str, Any]:
        initial: dict[str, Any] = {"preset": event.rules_preset}
        for name, value in event.rules_overrides.items():
            initial[name] = value
        return initial

    @staticmethod
    def _option_field(name: str, defaults: Rules, preset: str) -> forms.Field:
        label = capitalised(rule_label(name))
        default = getattr(defaults, name)
        words = rule_value_in_words(name, default)
        if name == "oka" and default is None:
            words = _oka_from_points(defaults)
        if name == "target_points" and default is None:
            words = _target_is_return(defaults)
        help_text = _("Preset default (%(preset)s): %(value)s.") % {
            "preset": preset,
            "value": words,
        }
        if name == "uma" and defaults.players == 3:
            help_text = f"{THREE_PLAYER_UMA_HELP} {help_text}"
        elif name in RULE_HELP:
            help_text = f"{RULE_HELP[name]} {help_text}"
        kind = option_kind(name)
        common = {"label": label, "help_text": help_text, "required": False}
        if kind == "bool":
            return forms.TypedChoiceField(
                choices=[
                    ("", _("Preset default")),
                    ("True", pgettext("rule option", "On")),
                    ("False", pgettext("rule option", "Off")),
                ],
                coerce=lambda v: v == "True",
                empty_value=None,
                **common,
            )
        if kind == "enum":
            enum = type(default)
            return forms.TypedChoiceField(
                choices=[("", _("Preset default"))]
                + [(e.value, capitalised(enum_in_words(name, e.value))) for e in enum],
                empty_value=None,
                **common,
            )
        if kind == "int":
            return forms.IntegerField(
                min_value=-MAX_RULE_NUMBER,
                max_value=MAX_RULE_NUMBER,
                widget=forms.NumberInput(attrs={"placeholder": _("preset default")}),
                **common,
            )
        if kind == "uma":
            return UmaField(**common)
        return forms.DecimalField(
            max_digits=6,
            decimal_places=1,
            widget=forms.NumberInput(attrs={"step": "0.1", "placeholder": _("preset default")}),
            **common,
        )

    def groups(self) -> list[tuple[str, list[BoundField]]]:
        return [
            (title, [self[name] for name in names if name in self.fields and self._shown(name)])
            for title, names in self.GROUPS
        ]

    def _shown(self, name: str) -> bool:
        # Only a three-player game has a tsumo without the North's share.
        return name not in THREE_PLAYER_OPTIONS or self.player_count == 3

    def clean(self):
        cleaned = super().clean()
        preset = cleaned.get("preset")
        if not preset:
            return cleaned
        overrides = {
            name: _to_json(cleaned[name])
            for name in option_names()
            if cleaned.get(name) is not None
        }
        cleaned["overrides"] = overrides
        if not self._uma_fits(overrides.get("uma"), self._players(preset) or 4):
            return cleaned
        try:
            scoring.resolve_rules({"preset": preset, "overrides": overrides})
        except scoring.ScoringError as err:
            self._add_engine_error(err, overrides)
        return cleaned

    def _uma_fits(self, uma: list | None, players: int) -> bool:
        """Whether the uma given (if any) has one number per player of the chosen rules; if
        not, the field says what to give."""
        if uma is None or len(uma) == players:
            return True
        if players == 3:
            message = _(
                "These are three-player rules: give three uma values, 1st to 3rd place, and "
                "leave the 4th empty (or leave all empty for the preset's uma)."
            )
        else:
            message = _("Give all four uma values, 1st to 4th, or leave all four empty.")
        self.add_error("uma", message)
        return False

    def _add_engine_error(self, err: scoring.ScoringError, overrides: dict[str, Any]) -> None:
        """Put the engine's refusal next to the option it names, in the form's words."""
        names = sorted(overrides, key=len, reverse=True)
        field = next((name for name in names if name in str(err)), None)
        if err.template in RULE_REFUSALS and field is not None:
            self.add_error(field, str(RULE_REFUSALS[err.template]))
        elif err.template in OPTION_REFUSALS and field is not None:
            label = capitalised(rule_label(field))
            words = str(OPTION_REFUSALS[err.template])
            self.add_error(field, words % {**err.params, "option": label})
        else:
            self.add_error(
                field, _("These rules are not possible: %(reason)s.") % {"reason": say(err)}
            )

"""Forms for events, sessions, players and setting up games.

Each form normalises its input in `clean_<field>` and says what is wrong next to the
field, in words an organiser can act on. Nothing here writes to a game's outcome: the
views hand cleaned data to `services`.
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from enum import StrEnum
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.forms.boundfield import BoundField
from django.utils.functional import lazy
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

import scoring
from scoring.rules import Chombo, Rules, option_names, preset_clauses

from . import access, player_names, services
from .formatting import points, rule_number
from .hand_forms import WIND_NAMES
from .models import Event, Game, Player, Session
from .player_names import clean_player_name, normalised, refused_character
from .refusals import say
from .services import PASTE_LIMIT

NAME_LENGTH = Player._meta.get_field("display_name").max_length

# Paths under events/ that are not event addresses.
RESERVED_SLUGS = {"new"}


def lazy_format(message, **values) -> str:
    """`message`, a lazy translation with %(name)s placeholders, filled in with `values`
    when it is shown, so in the language of the page (`message % values` would translate
    it once, at import)."""
    return lazy(lambda: str(message) % values, str)()


def capitalised(text) -> str:
    """The first letter in upper case and the rest as it is (str.capitalize would lower
    "EMA" and every other capital after the first)."""
    text = str(text)
    return text[:1].upper() + text[1:]


PRESET_DESCRIPTIONS = {
    "ari-ari": gettext_lazy(
        "Basic Ari-Ari rules: 25,000 start, 30,000 return, uma +30/+10, oka 20."
    ),
    "club": gettext_lazy("Club nights: Ari-Ari with no bust and tied players sharing uma."),
    "tenhou": gettext_lazy(
        "Tenhou ranked: uma +20/+10 with oka, agari-yame, tenpai-yame, west round."
    ),
    "tenhou-east": gettext_lazy(
        "Tenhou ranked, east only: as Tenhou, a south round if nobody has 30,000."
    ),
    "mahjongsoul": gettext_lazy(
        "Mahjong Soul ranked: points from 25,000, uma +15/+5, west round to 30,000."
    ),
    "mahjongsoul-east": gettext_lazy(
        "Mahjong Soul ranked, east only: as Mahjong Soul, south round."
    ),
    "mleague": gettext_lazy(
        "M.League: uma +30/+10 with oka, kiriage, head bump, no bust, chombo −20."
    ),
    "wrc": gettext_lazy(
        "WRC: 30,000 start, uma +15/+5, no oka, kiriage, head bump, no nagashi, chombo −30."
    ),
    "ema": gettext_lazy(
        "EMA 2016: 30,000 start, uma +15/+5, no oka, triple ron, honba to each winner."
    ),
}

# Bounds on numbers people type, far beyond any real event: a 30-digit table number is
# refused with a message instead of overflowing the database.
MAX_TABLE_NUMBER = 999
MAX_SESSION_NUMBER = 10_000
MAX_RULE_NUMBER = 10_000_000


def preset_choices() -> list[tuple[str, str]]:
    return [
        (
            name,
            _("%(preset)s: %(description)s")
            % {"preset": name, "description": PRESET_DESCRIPTIONS[name]}
            if name in PRESET_DESCRIPTIONS
            else name,
        )
        for name in scoring.PRESETS
    ]


# Short names for rule options, used as form labels and in "the rules in words".
RULE_LABELS = {
    "start_points": gettext_lazy("start points"),
    "return_points": gettext_lazy("return points"),
    "target_points": gettext_lazy("target points"),
    "uma": gettext_lazy("uma"),
    "oka": gettext_lazy("oka"),
    "length": pgettext_lazy("rule option", "length"),
    "kiriage": gettext_lazy("kiriage"),
    "kazoe": gettext_lazy("13 han and more"),
    "double_yakuman": gettext_lazy("double yakuman"),
    "multi_ron": gettext_lazy("several winners"),
    "multi_ron_honba": gettext_lazy("honba with several winners"),
    "multi_ron_sticks": gettext_lazy("riichi sticks with several winners"),
    "pao_honba": gettext_lazy("honba on a ron with pao"),
    "pao_scope": gettext_lazy("the liable player (pao) pays for"),
    "honba_value": gettext_lazy("honba value"),
    "noten_total": gettext_lazy("noten payments"),
    "nagashi_mangan": gettext_lazy("nagashi mangan"),
    "abortive_draws": gettext_lazy("abortive draws"),
    "bust": pgettext_lazy("rule option", "bust"),
    "agari_yame": gettext_lazy("agari-yame"),
    "tenpai_yame": gettext_lazy("tenpai-yame"),
    "west_round": gettext_lazy("west round"),
    "dealer_repeat_on_tenpai": gettext_lazy("dealer repeats when tenpai"),
    "leftover_sticks": gettext_lazy("leftover riichi sticks"),
    "ties": pgettext_lazy("rule option", "ties"),
    "chombo": gettext_lazy("chombo"),
    "chombo_penalty": gettext_lazy("chombo penalty"),
    "rounding": pgettext_lazy("rule option", "rounding"),
    "riichi_min_points": gettext_lazy("points needed for riichi"),
}

RULE_HELP = {
    "start_points": gettext_lazy("Points each player starts with."),
    "return_points": gettext_lazy("Scores are counted from this in match points."),
    "target_points": gettext_lazy(
        "The score that ends the west round and that a leading all-last dealer needs to stop."
    ),
    "riichi_min_points": gettext_lazy(
        "A player below this score may not declare riichi; 0 allows any."
    ),
    "uma": gettext_lazy("Match points for 1st, 2nd, 3rd and 4th place."),
    "oka": gettext_lazy("Bonus to the winner of the game."),
    "kiriage": gettext_lazy("4 han 30 fu and 3 han 60 fu paid as mangan."),
    "double_yakuman": gettext_lazy("Stacked yakuman paid as multiples."),
    "honba_value": gettext_lazy("Paid per honba counter, in total."),
    "noten_total": gettext_lazy("Paid by noten to tenpai players at an exhaustive draw, in total."),
    "agari_yame": gettext_lazy("A leading dealer may stop the game by winning the last hand."),
    "tenpai_yame": gettext_lazy(
        "A leading dealer may stop the game by being tenpai in the last hand."
    ),
    "west_round": gettext_lazy("Play on into the west round if nobody reached the return points."),
    "chombo_penalty": gettext_lazy("Match points added to the offender when chombo is a penalty."),
    "multi_ron_honba": gettext_lazy("When several players ron one discard: who is paid the honba."),
    "multi_ron_sticks": gettext_lazy(
        "When several players ron one discard: where the riichi sticks go."
    ),
    "pao_honba": gettext_lazy("Who pays the honba when a ron has a liable player (pao)."),
    "pao_scope": gettext_lazy(
        "What a liable player answers for: the whole win, or only the fed yakuman."
    ),
}

# Enum values whose words depend on the option ("first" is a place for leftover sticks,
# but a winner for the honba of a double ron).
OPTION_ENUM_LABELS = {
    ("multi_ron_honba", "first"): gettext_lazy("the first winner after the discarder only"),
    ("multi_ron_honba", "each"): gettext_lazy("every winner"),
    ("multi_ron_sticks", "first"): gettext_lazy("all to the first winner after the discarder"),
    ("multi_ron_sticks", "own_back"): gettext_lazy(
        "each winner takes back their own, the rest to the first"
    ),
    ("pao_honba", "discarder"): gettext_lazy("the discarder"),
    ("pao_honba", "liable"): gettext_lazy("the liable player"),
    ("pao_scope", "whole"): gettext_lazy("the whole win"),
    ("pao_scope", "fed_yakuman"): gettext_lazy("only the yakuman they fed"),
}

ENUM_LABELS = {
    "hanchan": gettext_lazy("hanchan (east and south)"),
    "tonpuusen": gettext_lazy("tonpuusen (east only)"),
    "yakuman": gettext_lazy("kazoe yakuman"),
    "sanbaiman": gettext_lazy("sanbaiman at most"),
    "double": gettext_lazy("double ron, triple ron aborts"),
    "triple": gettext_lazy("double and triple ron paid"),
    "head_bump": gettext_lazy("head bump (one winner)"),
    "below_zero": gettext_lazy("below zero ends the game"),
    "off": gettext_lazy("no bust"),
    "first": gettext_lazy("to 1st place"),
    "lost": pgettext_lazy("rule option", "lost"),
    "seat_order": gettext_lazy("seat order"),
    "split": gettext_lazy("split uma"),
    "reverse_mangan": gettext_lazy("reverse mangan"),
    "penalty": gettext_lazy("match point penalty"),
    "exact": pgettext_lazy("rule option", "exact"),
    "thousands": gettext_lazy("to thousands"),
}


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


def enum_in_words(name: str, value: str) -> str:
    return str(OPTION_ENUM_LABELS.get((name, value)) or ENUM_LABELS.get(value, value))


def rule_label(name: str) -> str:
    """An option's short name in the active language: "start points"."""
    return str(RULE_LABELS.get(name, name.replace("_", " ")))


def rule_value_in_words(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return pgettext("rule option", "on") if value else pgettext("rule option", "off")
    if isinstance(value, StrEnum):
        return enum_in_words(name, value.value)
    if name == "uma":
        return "/".join(rule_number(v) for v in value)
    if value is None:
        return pgettext("rule option", "usual")
    if isinstance(value, Decimal):
        return rule_number(value)
    if isinstance(value, int):
        return points(value)
    return str(value)


def describe_rules(preset: str, overrides: dict[str, Any]) -> str:
    """The rules as a line of words: "ari-ari; kiriage on; uma +20/+10/−10/−20"."""
    rules = scoring.resolve_rules({"preset": preset, "overrides": overrides})
    parts = [preset]
    # In the options' own order: a database need not keep the keys of a JSON object in order.
    for name in (n for n in option_names() if n in overrides):
        value = getattr(rules, name)
        values = {"label": rule_label(name), "value": rule_value_in_words(name, value)}
        # "kiriage on", "start points 30,000", but "ties: split uma".
        if isinstance(value, StrEnum):
            parts.append(pgettext("an option and its value", "%(label)s: %(value)s") % values)
        else:
            parts.append(pgettext("an option and its value", "%(label)s %(value)s") % values)
    return "; ".join(parts)


class TenbouBoundField(BoundField):
    """Adds the widget's kind to the field's wrapper, so that check boxes and groups of
    radio buttons can be laid out differently from text inputs."""

    def css_classes(self, extra_classes=None):
        kind = "field"
        widget = self.field.widget
        if isinstance(widget, forms.CheckboxInput):
            kind += " field-check"
        elif isinstance(widget, forms.RadioSelect | forms.CheckboxSelectMultiple):
            kind += " field-choices"
        elif isinstance(widget, forms.MultiWidget):
            kind += " field-multi"
        return super().css_classes(kind if not extra_classes else f"{kind} {extra_classes}")


class TenbouFormMixin:
    bound_field_class = TenbouBoundField
    error_css_class = "invalid"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


def _date_input() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


# Events


def free_slug(base: str, *, exclude_pk: int | None = None) -> str:
    """`base` when free, or else `base` with a random suffix (`base-3f9a`) that no event
    uses. Not `base-2`, `base-3` ...: the next free number would tell anyone which
    addresses private events hold."""
    base = base[:72].strip("-") or "event"
    others = Event.objects.exclude(pk=exclude_pk)
    if base not in RESERVED_SLUGS and not others.filter(slug=base).exists():
        return base
    length = 2
    while True:
        candidates = {f"{base}-{secrets.token_hex(length)}" for _ in range(8)}
        taken = set(others.filter(slug__in=candidates).values_list("slug", flat=True))
        free = sorted(candidates - taken)
        if free:
            return free[0]
        length += 1  # eight random four-letter suffixes taken: a crowded base


class EventForm(TenbouFormMixin, forms.ModelForm):
    slug = forms.SlugField(
        label=gettext_lazy("Address"),
        max_length=80,
        required=False,
        help_text=gettext_lazy(
            "The event's address: letters, digits and hyphens. Leave empty to make "
            "one from the name."
        ),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "slug",
            "kind",
            "starts_on",
            "ends_on",
            "description",
            "is_public",
        ]
        labels = {
            "starts_on": gettext_lazy("Starts on"),
            "ends_on": gettext_lazy("Ends on"),
            "is_public": pgettext_lazy("event", "Public"),
        }
        help_texts = {
            "ends_on": gettext_lazy("Leave empty for a league that runs on."),
            "is_public": gettext_lazy(
                "Anyone may read a public event. A private one is seen by its organisers only."
            ),
        }
        widgets = {
            "starts_on": _date_input(),
            "ends_on": _date_input(),
            "description": forms.Textarea(attrs={"rows": 4}),
        }

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"].strip().lower()
        exclude_pk = self.instance.pk
        if not slug:
            name = self.cleaned_data.get("name")
            # Without a name there is nothing to suggest; the name's own error says so.
            return free_slug(slugify(name), exclude_pk=exclude_pk) if name else ""
        if slug in RESERVED_SLUGS:
            raise ValidationError(
                _("“%(slug)s” is reserved for the page that creates events. Choose another.")
                % {"slug": slug}
            )
        if Event.objects.filter(slug=slug).exclude(pk=exclude_pk).exists():
            raise ValidationError(
                _(
                    "The address “%(slug)s” is not available. Choose another, for example "
                    "“%(free)s”."
                )
                % {"slug": slug, "free": free_slug(slug, exclude_pk=exclude_pk)}
            )
        return slug


class EventCreateForm(EventForm):
    rules_preset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=preset_choices,
        initial="ari-ari",
        help_text=gettext_lazy(
            "Single options can be changed afterwards on the event's rules page."
        ),
    )

    class Meta(EventForm.Meta):
        fields = [*EventForm.Meta.fields, "rules_preset"]


# Rules


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
        return list(value) if value else [None] * 4


class UmaField(forms.MultiValueField):
    """Four numbers, 1st to 4th place, or none at all."""

    widget = UmaWidget

    def __init__(self, **kwargs):
        incomplete = gettext_lazy("Give all four uma values, 1st to 4th, or leave all four empty.")
        fields = [
            forms.DecimalField(
                max_digits=5, decimal_places=1, error_messages={"incomplete": incomplete}
            )
            for _ in range(4)
        ]
        kwargs["required"] = False
        super().__init__(fields, require_all_fields=False, **kwargs)

    def compress(self, data_list):
        return tuple(data_list) if data_list else None


class RulesForm(TenbouFormMixin, forms.Form):
    """The event's preset and one field per rule option; an empty field keeps the preset's
    value, so only real differences are stored as overrides."""

    preset = forms.ChoiceField(label=gettext_lazy("Preset"), choices=preset_choices)

    # Groups as shown on the page, so that forty fields read as five short lists.
    GROUPS = [
        (
            gettext_lazy("Points and match points"),
            ["start_points", "return_points", "target_points", "uma", "oka", "rounding"],
        ),
        (
            gettext_lazy("How the game ends"),
            [
                "length",
                "bust",
                "agari_yame",
                "tenpai_yame",
                "west_round",
                "dealer_repeat_on_tenpai",
            ],
        ),
        (
            gettext_lazy("Wins and draws"),
            [
                "riichi_min_points",
                "kiriage",
                "kazoe",
                "double_yakuman",
                "multi_ron",
                "multi_ron_honba",
                "multi_ron_sticks",
                "pao_honba",
                "pao_scope",
                "honba_value",
                "noten_total",
                "nagashi_mangan",
                "abortive_draws",
            ],
        ),
        (gettext_lazy("Sticks and ties"), ["leftover_sticks", "ties"]),
        (gettext_lazy("Chombo"), ["chombo", "chombo_penalty"]),
    ]

    def __init__(self, *args, event: Event, **kwargs):
        kwargs.setdefault("initial", self.initial_for(event))
        super().__init__(*args, **kwargs)
        self.event = event
        defaults = scoring.PRESETS[event.rules_preset]
        for name in option_names():
            self.fields[name] = self._option_field(name, defaults, event.rules_preset)

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
        if name in RULE_HELP:
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
            (title, [self[name] for name in names if name in self.fields])
            for title, names in self.GROUPS
        ]

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
        try:
            scoring.resolve_rules({"preset": preset, "overrides": overrides})
        except scoring.ScoringError as err:
            self._add_engine_error(err, overrides)
        cleaned["overrides"] = overrides
        return cleaned

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


def _oka_from_points(rules: Rules) -> str:
    return _("%(oka)s, from the start and return points") % {
        "oka": rule_number(rules.effective_oka)
    }


def _target_is_return(rules: Rules) -> str:
    return _("%(points)s, the return points") % {"points": points(rules.return_points)}


# Sessions


def rules_for_reading(preset: str, overrides: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules in the rules form's groups, each option in words with where it comes from:
    the preset's source clause, or "changed for this event" for an override."""
    rules = scoring.resolve_rules({"preset": preset, "overrides": overrides})
    clauses = preset_clauses().get(preset, {})
    groups = []
    for title, names in RulesForm.GROUPS:
        rows = []
        for name in names:
            value = getattr(rules, name)
            words = rule_value_in_words(name, value)
            if name == "oka" and value is None:
                words = _oka_from_points(rules)
            elif name == "target_points" and value is None:
                words = _target_is_return(rules)
            elif name == "chombo_penalty" and rules.chombo is not Chombo.PENALTY:
                words = _("not used: chombo is paid at the table")
            elif name == "riichi_min_points" and value == 0:
                words = _("any score")
            rows.append(
                {
                    "label": capitalised(rule_label(name)),
                    "words": words,
                    "help": str(RULE_HELP.get(name, "")),
                    "changed": name in overrides,
                    "source": clauses.get(name, ""),
                }
            )
        groups.append({"title": title, "rows": rows})
    return groups


class SessionForm(TenbouFormMixin, forms.ModelForm):
    number = forms.IntegerField(
        label=pgettext_lazy("of a session", "Number"),
        min_value=1,
        max_value=MAX_SESSION_NUMBER,
        help_text=gettext_lazy("Sessions are numbered 1, 2, 3 …"),
        error_messages={
            "max_value": lazy_format(
                gettext_lazy("Session numbers go up to %(limit)s. Choose a smaller one."),
                limit=f"{MAX_SESSION_NUMBER:,}",
            )
        },
    )

    class Meta:
        model = Session
        fields = ["number", "date", "title"]
        widgets = {"date": _date_input()}
        help_texts = {"title": gettext_lazy("Optional, e.g. “Round 3” or “Finals”.")}

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.instance.event = event

    def clean_number(self) -> int:
        number = self.cleaned_data["number"]
        others = Session.objects.filter(event=self.event).exclude(pk=self.instance.pk)
        if others.filter(number=number).exists():
            raise ValidationError(
                _(
                    "Session %(number)s exists already in this event. The next free number "
                    "is %(next)s."
                )
                % {"number": number, "next": self.event.sessions.next_number()}
            )
        return number


# Players


class PlayerForm(TenbouFormMixin, forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name", "real_name", "ema_number"]
        help_texts = {
            "display_name": gettext_lazy(
                "The name shown in standings and on score sheets. It must be "
                "different from every other player's."
            ),
            "ema_number": gettext_lazy("Eight digits, if the player has one."),
        }

    def __init__(self, *args, known=None, **kwargs):
        super().__init__(*args, **kwargs)
        # The players the user may know of: a name only clashes with theirs (a new player
        # whose name a hidden player holds gets a numbered one: `services.free_name`).
        self.known = Player.objects.all() if known is None else known

    def validate_unique(self) -> None:
        # The name is checked among the known players in clean_display_name; the model's
        # own check would tell of every player's name.
        exclude = self._get_validation_exclusions() | {"display_name"}
        try:
            self.instance.validate_unique(exclude=exclude)
        except ValidationError as err:
            self._update_errors(err)

    def clean_display_name(self) -> str:
        name = clean_player_name(self.cleaned_data["display_name"])
        clash = self.known.filter(display_name__iexact=name).exclude(pk=self.instance.pk)
        existing = clash.values_list("display_name", flat=True).first()
        if existing:
            raise ValidationError(
                _(
                    "There is already a player called “%(name)s”. Choose a name that tells "
                    "them apart, e.g. with an initial."
                )
                % {"name": existing}
            )
        return name

    def clean_ema_number(self) -> str:
        number = "".join(self.cleaned_data["ema_number"].split())
        if not number:
            return ""
        if not number.isdigit() or not number.isascii():
            raise ValidationError(_("An EMA number has digits only, e.g. 04010001."))
        if len(number) != 8:
            raise ValidationError(
                _(
                    "An EMA number has 8 digits; this one has %(count)s. "
                    "Check it on the EMA ranking page."
                )
                % {"count": len(number)}
            )
        return number


# Games


# The starting seats, East first, named in the page's language.
SEAT_WINDS = tuple(WIND_NAMES[wind] for wind in "ESWN")


class PlayerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return obj.display_name


class GameForm(TenbouFormMixin, forms.Form):
    """Table number and the four players by starting seat; on creation also the entry
    mode and an optional random seat draw."""

    SEAT_FIELDS = ("east", "south", "west", "north")

    table_number = forms.IntegerField(
        label=gettext_lazy("Table"),
        min_value=1,
        max_value=MAX_TABLE_NUMBER,
    )

    def __init__(self, *args, session: Session, user, game: Game | None = None, **kwargs) -> None:
        self.session = session
        self.game = game
        if game is not None:
            seats = game.ordered_seats()
            kwargs.setdefault(
                "initial",
                {"table_number": game.table_number}
                | {
                    name: seat.player_id for name, seat in zip(self.SEAT_FIELDS, seats, strict=True)
                },
            )
        else:
            kwargs.setdefault("initial", {"table_number": session.games.next_table_number()})
        super().__init__(*args, **kwargs)
        self.fields["table_number"].error_messages["max_value"] = _(
            "Table numbers go up to %(most)s. Choose a smaller one."
        ) % {"most": MAX_TABLE_NUMBER}
        # Only players this organiser may know of: another organiser's private event
        # neither shows its players here nor lets a posted id seat one.
        offered = Q(pk__in=access.pickable_players(user, session.event).values("pk"))
        if game is not None:
            # A player made inactive since keeps their seat in the game they played.
            offered |= Q(seats__game=game)
        players = Player.objects.filter(offered).distinct().order_by("display_name")
        for name, wind in zip(self.SEAT_FIELDS, SEAT_WINDS, strict=True):
            self.fields[name] = PlayerChoice(
                queryset=players,
                label=wind,
                empty_label=_("Choose a player"),
                error_messages={
                    "required": _("Choose the player at %(wind)s: a game needs four.")
                    % {"wind": wind},
                    "invalid_choice": _(
                        "The player chosen at %(wind)s is not one you can seat here: choose "
                        "a player from the list, or add a new player first."
                    )
                    % {"wind": wind},
                },
            )
        self.fields["substitutes"] = forms.TypedMultipleChoiceField(
            label=gettext_lazy("Substitutes"),
            choices=list(enumerate(SEAT_WINDS)),
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            initial=[s.seat for s in game.ordered_seats() if s.is_substitute] if game else [],
            help_text=_(
                "A substitute sits in for this one game: it counts for the other three "
                "players, but the substitute is not ranked in the standings."
            ),
        )
        if game is None:
            self.fields["entry_mode"] = forms.ChoiceField(
                label=_("Entry"),
                choices=Game.EntryMode.choices,
                initial=Game.EntryMode.HANDS,
                widget=forms.RadioSelect,
                help_text=_("Final scores only: enter the four scores when the game is over."),
            )
            self.fields["random_seats"] = forms.BooleanField(
                label=_("Random seat draw"),
                required=False,
                help_text=_("Shuffle the four players into seats when the game is created."),
            )
            self.order_fields(["table_number", "entry_mode", *self.SEAT_FIELDS])

    def clean(self):
        cleaned = super().clean()
        seen: dict[int, str] = {}
        for name, wind in zip(self.SEAT_FIELDS, SEAT_WINDS, strict=True):
            player = cleaned.get(name)
            if player is None:
                continue
            if player.pk in seen:
                self.add_error(
                    name,
                    _("%(player)s is already at %(wind)s: a game needs four different players.")
                    % {"player": player, "wind": seen[player.pk]},
                )
            else:
                seen[player.pk] = wind
        self._check_seating(cleaned)
        return cleaned

    def _check_seating(self, cleaned) -> None:
        """A table holds one unfinished game of the session, and a player sits in one."""
        if self.game is not None and self.game.is_finished:
            return
        exclude = self.game.pk if self.game is not None else None
        table = cleaned.get("table_number")
        if table and services.open_table_clash(self.session.pk, table, exclude=exclude):
            self.add_error("table_number", say(services.table_clash_message(table)))
        chosen = [(name, cleaned.get(name)) for name in self.SEAT_FIELDS]
        clashes = services.open_seat_clashes(
            self.session.pk, [p for _, p in chosen if p is not None], exclude=exclude
        )
        for name, player in chosen:
            if player is not None and player.pk in clashes and name not in self.errors:
                self.add_error(
                    name, say(services.player_clash_message([player], clashes[player.pk]))
                )

    def players(self) -> list[Player]:
        return [self.cleaned_data[name] for name in self.SEAT_FIELDS]

    def clean_substitutes(self) -> list[int]:
        seats = sorted(set(self.cleaned_data["substitutes"]))
        if len(seats) == 4:
            raise ValidationError(
                _("A game of four substitutes counts for nobody: untick the regular players.")
            )
        return seats


# The roster


class RosterPickForm(TenbouFormMixin, forms.Form):
    """Existing players, ticked from a short list of search matches."""

    players = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Players"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": gettext_lazy("Tick at least one player to add."),
            "invalid_choice": gettext_lazy(
                "One of the ticked players is on the roster already or was "
                "removed meanwhile: search again."
            ),
        },
    )

    def __init__(self, *args, event: Event, user, matches=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Never a player known only from another organiser's private event.
        offered = access.pickable_players(user, event).exclude(entries__event=event)
        self.fields["players"].queryset = offered if matches is None else matches

    def clean_players(self):
        players = self.cleaned_data["players"]
        if len(players) > PASTE_LIMIT:
            raise ValidationError(
                _("Add at most %(limit)s players at a time.") % {"limit": PASTE_LIMIT}
            )
        return players


class RosterPasteForm(TenbouFormMixin, forms.Form):
    """One name a line; blank lines and repeats are left out and said so."""

    names = forms.CharField(
        label=gettext_lazy("Names"),
        strip=False,  # blank lines at either end are counted too
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text=lazy_format(
            gettext_lazy("One display name a line, at most %(limit)s names."), limit=PASTE_LIMIT
        ),
        error_messages={"required": gettext_lazy("Paste at least one name, one a line.")},
    )
    create = forms.BooleanField(
        label=gettext_lazy("Create players for new names"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Names nobody has yet become new players. Untick to add only known players."
        ),
    )

    def clean_names(self) -> list[str]:
        lines = self.cleaned_data["names"].splitlines()
        names: list[str] = []
        seen: dict[str, str] = {}
        self.blank_lines = 0
        self.repeats: list[str] = []
        too_long = []
        refused: list[str] = []
        for number, line in enumerate(lines, start=1):
            name = normalised(line)
            if not name:
                self.blank_lines += 1
                continue
            character = refused_character(name)
            if character is not None:
                refused.append(
                    _("line %(line)s: %(refusal)s")
                    % {"line": number, "refusal": player_names.refusal(character)}
                )
                continue
            if len(name) > NAME_LENGTH:
                too_long.append(str(number))
                continue
            key = name.casefold()
            if key in seen:
                self.repeats.append(name)
                continue
            seen[key] = name
            names.append(name)
        if refused:
            raise ValidationError(refused)
        if too_long:
            raise ValidationError(
                _(
                    "A name has at most %(limit)s characters; line(s) %(lines)s are longer. "
                    "Shorten them."
                )
                % {"limit": NAME_LENGTH, "lines": ", ".join(too_long)}
            )
        if not names:
            raise ValidationError(_("Every line is blank: paste at least one name, one a line."))
        if len(names) > PASTE_LIMIT:
            raise ValidationError(
                _(
                    "Paste at most %(limit)s names at a time; this list has %(count)s. "
                    "Split it in two."
                )
                % {"limit": PASTE_LIMIT, "count": len(names)}
            )
        return names


class WithdrawForm(TenbouFormMixin, forms.Form):
    from_session = forms.IntegerField(
        label=gettext_lazy("From session"),
        min_value=1,
        max_value=10_000,
        error_messages={
            "required": gettext_lazy("Give the first session the player misses."),
            "min_value": gettext_lazy(
                "Sessions are numbered from 1: give the first session the player misses."
            ),
            "max_value": gettext_lazy("Give the number of a session, e.g. 3."),
            "invalid": gettext_lazy("Give the number of a session, e.g. 3."),
        },
    )


# Organisers and accounts


def find_login(who: str):
    """The one active account whose username is exactly `who`, or the one whose email is
    `who` (in any case); None otherwise. Callers answer the same either way, so that no
    form tells which usernames and emails exist."""
    users = get_user_model().objects.filter(is_active=True)
    user = users.filter(username=who).first()
    if user is None and "@" in who:
        matches = list(users.filter(email__iexact=who)[:2])
        user = matches[0] if len(matches) == 1 else None
    return user


class LoginNameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("label", gettext_lazy("Username or email"))
        kwargs.setdefault("max_length", 254)
        kwargs.setdefault(
            "help_text",
            gettext_lazy("Exactly as they log in, or the email address of their account."),
        )
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"})
        )
        super().__init__(**kwargs)


class OrganiserAddForm(TenbouFormMixin, forms.Form):
    """A co-organiser named exactly, by username or email: nobody browses a list of every
    account. The account gets an invitation to accept; the answer is the same whether an
    account has that name or not."""

    who = LoginNameField()

    def clean_who(self) -> str:
        return self.cleaned_data["who"].strip()


class PlayerLinkForm(TenbouFormMixin, forms.Form):
    """The login of a player, by username or email; the account accepts the link (unless
    it is the organiser's own), and the answer is the same whether it exists or not."""

    who = LoginNameField(
        label=gettext_lazy("Their username or email"),
        help_text=gettext_lazy(
            "The login of this player. They accept the link on their invitations page; "
            "“My games” then shows their games."
        ),
    )

    def clean_who(self) -> str:
        return self.cleaned_data["who"].strip()

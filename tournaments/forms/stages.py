"""Forms for an event's stages: a stage's settings, and the names of a seeded cut."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy

import scoring

from ..limits import (
    MAX_BRACKETS,
    MAX_SEED_TABLE,
    MAX_SESSION_NUMBER,
    PASTE_LIMIT,
    ROSTER_LIMIT,
    TEAM_MEMBERS_LIMIT,
)
from ..models import Stage
from ..services.stages import StagePlan
from .common import TenbouFormMixin, lazy_format
from .seating import METHOD_CHOICES

TIE_BREAK_CHOICES = [(key, label) for key, label in Stage.TieBreak.choices]


class TieBreaksWidget(forms.MultiWidget):
    """One list a place in the order: the first decides a tie, the next one what is left."""

    def __init__(self) -> None:
        choices = [("", "—"), *TIE_BREAK_CHOICES]
        super().__init__([forms.Select(choices=choices) for _choice in TIE_BREAK_CHOICES])

    def decompress(self, value) -> list[str]:
        chosen = list(value or ())
        return chosen + [""] * (len(self.widgets) - len(chosen))


class TieBreaksField(forms.MultiValueField):
    """The tie-breaks in order, from lists of the known ones; empty places are left out."""

    def __init__(self, **kwargs) -> None:
        fields = [
            forms.ChoiceField(required=False, choices=[("", "")] + TIE_BREAK_CHOICES)
            for _choice in TIE_BREAK_CHOICES
        ]
        super().__init__(
            fields=fields,
            require_all_fields=False,
            required=False,
            widget=TieBreaksWidget(),
            **kwargs,
        )

    def compress(self, data_list) -> tuple[str, ...]:
        return tuple(value for value in data_list or () if value)


class StageForm(TenbouFormMixin, forms.Form):
    name = forms.CharField(max_length=80, label=gettext_lazy("Name"))
    first_session = forms.IntegerField(
        min_value=1, max_value=MAX_SESSION_NUMBER, label=gettext_lazy("First session")
    )
    last_session = forms.IntegerField(
        min_value=1, max_value=MAX_SESSION_NUMBER, label=gettext_lazy("Last session")
    )
    entrants = forms.ChoiceField(
        choices=Stage.Entrants.choices, label=gettext_lazy("Who enters"), widget=forms.RadioSelect
    )
    top = forms.IntegerField(
        min_value=1,
        max_value=ROSTER_LIMIT,
        required=False,
        label=gettext_lazy("How many go through (top)"),
        help_text=gettext_lazy(
            "Players for the top of the previous stage, teams for the top teams."
        ),
    )
    carry = forms.ChoiceField(
        choices=Stage.Carry.choices, label=gettext_lazy("What they carry"), widget=forms.RadioSelect
    )
    carry_factor = forms.DecimalField(
        required=False,
        min_value=Decimal("0.01"),
        max_value=Decimal(10),
        max_digits=4,
        decimal_places=2,
        label=gettext_lazy("Factor (e.g. 0.5 for half)"),
    )
    carry_rounding = forms.ChoiceField(
        choices=Stage.Rounding.choices, label=gettext_lazy("Rounding of a part")
    )
    carry_table = forms.CharField(
        required=False,
        max_length=600,
        label=gettext_lazy("Points by seed, or starting points by bracket"),
        help_text=gettext_lazy("Separated by slashes: 40/30/20/10/0, or 29000/21000."),
    )
    bye_points = forms.DecimalField(
        required=False,
        max_digits=5,
        decimal_places=1,
        min_value=Decimal(-1000),
        max_value=Decimal(1000),
        label=gettext_lazy("Match points for a bye"),
    )
    tie_breaks = TieBreaksField(
        label=gettext_lazy("Tie-breaks, in order"),
        help_text=gettext_lazy(
            "The first decides a tie, the next one a tie left after it. None chosen: the "
            "total, the rank in the previous stage, the best single game, first places, then "
            "a shared place."
        ),
    )
    rules_preset = forms.ChoiceField(
        required=False,
        choices=[("", gettext_lazy("The event's rules"))] + [(n, n) for n in scoring.PRESETS],
        label=gettext_lazy("Rules preset"),
    )
    seating_method = forms.ChoiceField(
        required=False,
        choices=[("", gettext_lazy("Chosen when seating"))] + METHOD_CHOICES,
        label=gettext_lazy("Seating method"),
    )
    hidden = forms.BooleanField(
        required=False, label=gettext_lazy("Hide this stage's totals from players")
    )
    team_best = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=TEAM_MEMBERS_LIMIT,
        label=gettext_lazy("Members counted"),
        help_text=gettext_lazy(
            "A team event: team totals of this stage count the best this many members; "
            "empty: as the event says."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def clean_carry_table(self) -> tuple:
        text = self.cleaned_data.get("carry_table", "").strip()
        if not text:
            return ()
        parts = [p.strip().replace(",", "") for p in text.split("/")]
        if len(parts) > max(MAX_SEED_TABLE, MAX_BRACKETS):
            raise forms.ValidationError(
                lazy_format(gettext_lazy("At most %(most)s values."), most=MAX_SEED_TABLE)
            )
        try:
            return tuple(Decimal(p) for p in parts)
        except InvalidOperation:
            raise forms.ValidationError(
                gettext_lazy("Write numbers separated by slashes, e.g. 40/30/20/10/0.")
            ) from None

    def clean_tie_breaks(self) -> tuple:
        names = self.cleaned_data.get("tie_breaks") or ()
        if len(set(names)) != len(names):
            raise forms.ValidationError(gettext_lazy("Each tie-break may be chosen once."))
        return names

    def clean(self):
        data = super().clean()
        carry = data.get("carry")
        if carry == Stage.Carry.BRACKETS:
            table = data.get("carry_table") or ()
            if any(v != v.to_integral_value() for v in table):
                self.add_error(
                    "carry_table", gettext_lazy("Starting points are whole points, e.g. 29000.")
                )
        return data

    def plan(self) -> StagePlan:
        data = self.cleaned_data
        table = data["carry_table"]
        if data["carry"] == Stage.Carry.BRACKETS:
            table = tuple(int(v) for v in table)
        return StagePlan(
            name=data["name"],
            first_session=data["first_session"],
            last_session=data["last_session"],
            entrants=data["entrants"],
            top=data.get("top"),
            carry=data["carry"],
            carry_factor=data.get("carry_factor"),
            carry_rounding=data["carry_rounding"],
            carry_table=table,
            rules_preset=data.get("rules_preset") or "",
            seating_method=data.get("seating_method") or "",
            bye_points=data.get("bye_points") or Decimal(0),
            tie_breaks=data["tie_breaks"],
            hidden=data.get("hidden", False),
            team_best=data.get("team_best"),
        )

    @staticmethod
    def initial_of(stage: Stage) -> dict:
        return {
            "name": stage.name,
            "first_session": stage.first_session,
            "last_session": stage.last_session,
            "entrants": stage.entrants,
            "top": stage.top,
            "carry": stage.carry,
            "carry_factor": stage.carry_factor,
            "carry_rounding": stage.carry_rounding,
            "carry_table": "/".join(str(v) for v in stage.carry_table),
            "bye_points": stage.bye_points,
            "tie_breaks": tuple(stage.tie_breaks),
            "rules_preset": stage.rules_preset,
            "seating_method": stage.seating_method,
            "hidden": stage.hidden,
            "team_best": stage.team_best,
        }


class CutNamesForm(TenbouFormMixin, forms.Form):
    """The players of a seeded or listed cut, one name a line (seed 1 first)."""

    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=PASTE_LIMIT * 64,
        label=gettext_lazy("Players, one a line"),
    )

    def clean_names(self) -> list[str]:
        names = [n.strip() for n in self.cleaned_data["names"].splitlines() if n.strip()]
        if len(names) > PASTE_LIMIT:
            raise forms.ValidationError(
                lazy_format(gettext_lazy("At most %(most)s names."), most=PASTE_LIMIT)
            )
        return names

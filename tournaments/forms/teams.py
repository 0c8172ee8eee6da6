"""Forms of a team event: its team settings, a new team, a member, the captain, a
session's line-up deadline and a captain's line-up."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from ..limits import TEAM_MEMBERS_LIMIT
from ..services.teams import TEAM_NAME_LENGTH
from .common import TenbouFormMixin


class TeamSettingsForm(TenbouFormMixin, forms.Form):
    team_event = forms.BooleanField(required=False, label=gettext_lazy("Team event"))
    team_best = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=TEAM_MEMBERS_LIMIT,
        label=gettext_lazy("Members counted"),
        help_text=gettext_lazy("A team's total counts its best this many members; empty: all."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class TeamCreateForm(TenbouFormMixin, forms.Form):
    name = forms.CharField(max_length=TEAM_NAME_LENGTH, label=gettext_lazy("Team name"))


class MemberForm(TenbouFormMixin, forms.Form):
    player = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Player"))
    reserve = forms.BooleanField(required=False, label=gettext_lazy("Reserve"))

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—")] + [(p.pk, p.display_name) for p in players]


class CaptainForm(TenbouFormMixin, forms.Form):
    captain = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Captain")
    )

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["captain"].choices = [("", gettext_lazy("No captain"))] + [
            (p.pk, p.display_name) for p in members
        ]


class DeadlineForm(TenbouFormMixin, forms.Form):
    deadline = forms.DateTimeField(
        required=False,
        label=gettext_lazy("Line-up deadline"),
        help_text=gettext_lazy("Empty: line-ups closed."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


class LineUpForm(TenbouFormMixin, forms.Form):
    players = forms.TypedMultipleChoiceField(
        coerce=int,
        label=gettext_lazy("Who plays"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Choose at least one member to play.")},
    )

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = [(p.pk, p.display_name) for p in members]

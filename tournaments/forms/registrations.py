"""Registration before the day: a player asking for a place, and the organisers' settings."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..limits import EVENT_REGISTRATION_LIMIT
from ..models import Event
from ..player_names import clean_player_name
from .common import NAME_LENGTH, TenbouFormMixin


class RegisterForm(TenbouFormMixin, forms.Form):
    """Asking for a place. An account not linked to a player gives the name it plays
    under; a new player is made with it (never an existing one)."""

    display_name = forms.CharField(
        label=gettext_lazy("The name you play under"),
        required=False,
        help_text=gettext_lazy("Shown in standings and on score sheets."),
    )

    def __init__(self, *args, needs_name: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.needs_name = needs_name
        if not needs_name:
            del self.fields["display_name"]

    def clean_display_name(self) -> str:
        name = clean_player_name(self.cleaned_data.get("display_name", ""))
        if not name:
            raise ValidationError(
                _("Give the name you play under, as it should read in the standings.")
            )
        if len(name) > NAME_LENGTH:
            raise ValidationError(
                _("A name has at most %(most)s characters; this one has %(count)s.")
                % {"most": NAME_LENGTH, "count": len(name)}
            )
        return name


class RegistrationSettingsForm(TenbouFormMixin, forms.ModelForm):
    """The organisers open or close registration, with places and a closing time."""

    class Meta:
        model = Event
        fields = ["registration_open", "registration_places", "registration_closes_at"]
        widgets = {
            "registration_places": forms.NumberInput(attrs={"inputmode": "numeric", "min": 1}),
            "registration_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    def clean_registration_places(self) -> int | None:
        places = self.cleaned_data["registration_places"]
        if places is None:
            return None
        if places < 1:
            raise ValidationError(
                _("Give at least 1 place, or leave the number empty for no limit of your own.")
            )
        if places > EVENT_REGISTRATION_LIMIT:
            raise ValidationError(
                _("An event takes at most %(most)s registrations; give %(most)s places or fewer.")
                % {"most": EVENT_REGISTRATION_LIMIT}
            )
        return places

"""Players and the roster: one player, picked, pasted or withdrawn."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import access, player_names
from ..countries import COUNTRIES
from ..limits import PASTE_LIMIT
from ..models import Event, Player, validate_ema_number
from ..player_names import clean_player_name, normalised, refused_character
from .common import NAME_LENGTH, TenbouFormMixin, lazy_format


class PlayerForm(TenbouFormMixin, forms.ModelForm):
    country = forms.CharField(
        label=gettext_lazy("Country"),
        required=False,
        max_length=2,
        help_text=gettext_lazy(
            "Two letters of ISO 3166-1, e.g. DE, FR or JP: for the EMA results file and "
            "the MERS weight."
        ),
        widget=forms.TextInput(
            attrs={"size": 3, "autocapitalize": "characters", "autocomplete": "off"}
        ),
    )

    class Meta:
        model = Player
        fields = [
            "display_name",
            "real_name",
            "real_name_shown",
            "last_name",
            "first_name",
            "ema_number",
            "country",
        ]
        help_texts = {
            "display_name": gettext_lazy(
                "The name shown in standings and on score sheets. It must be "
                "different from every other player's."
            ),
            "ema_number": gettext_lazy("Eight digits, if the player has one."),
        }

    def __init__(self, *args, known=None, privacy: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        # Who sees the real name is the player's own choice: only their login is asked.
        if not privacy:
            del self.fields["real_name_shown"]
        else:
            self.fields["real_name_shown"].label = gettext_lazy("Show my real name")
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

    def clean_country(self) -> str:
        code = self.cleaned_data["country"].strip().upper()
        if code and code not in COUNTRIES:
            raise ValidationError(
                _("“%(code)s” is not a country code: give the two letters of ISO 3166-1, e.g. DE.")
                % {"code": code}
            )
        return code

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
            gettext_lazy(
                "One display name a line, at most %(limit)s names. Pasted from a spreadsheet, "
                "a line may carry the EMA number and the country code in the next two "
                "columns; they fill in what a player does not have yet."
            ),
            limit=PASTE_LIMIT,
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
        # Display name -> the EMA number and country its line gives (spreadsheet columns).
        self.details: dict[str, dict[str, str]] = {}
        too_long = []
        refused: list[str] = []
        for number, line in enumerate(lines, start=1):
            # A spreadsheet's columns come pasted as tabs: name, EMA number, country.
            name, *columns = line.split("\t")
            name = normalised(name)
            if not name:
                self.blank_lines += 1
                continue
            details, problems = _line_details(columns)
            refused.extend(
                _("line %(line)s: %(refusal)s") % {"line": number, "refusal": problem}
                for problem in problems
            )
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
            if details:
                self.details[name] = details
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


def _line_details(columns: list[str]) -> tuple[dict[str, str], list[str]]:
    """The EMA number and country code of a pasted line's further columns (either may be
    blank), checked as the player form checks them; and what is wrong with them."""
    values = [" ".join(column.split()) for column in columns]
    problems: list[str] = []
    if any(values[2:]):
        problems.append(_("a line has at most three columns: name, EMA number, country."))
    details: dict[str, str] = {}
    number = "".join(values[0].split()) if values else ""
    if number:
        try:
            validate_ema_number(number)
        except ValidationError as err:
            problems.extend(err.messages)
        else:
            details["ema_number"] = number
    code = values[1].upper() if len(values) > 1 else ""
    if code:
        if code in COUNTRIES:
            details["country"] = code
        else:
            problems.append(
                _("“%(code)s” is not a country code: give the two letters of ISO 3166-1, e.g. DE.")
                % {"code": code}
            )
    return details, problems


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

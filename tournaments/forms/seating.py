"""Forms for seating a session: the method, and for a fixed plan the tables as typed."""

from __future__ import annotations

import csv
import io
import json

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import seating

from ..limits import SEATING_TABLE_LIMIT, UPLOAD_LIMIT
from ..models import Game, Player
from ..wording.refusals import say
from .common import TenbouFormMixin, lazy_format

METHOD_CHOICES = [
    (
        "balanced",
        gettext_lazy("Balanced: as few repeated meetings as possible over the whole event"),
    ),
    ("swiss", gettext_lazy("Swiss: by the standings, 1st to 4th at table 1, and so on")),
    ("random", gettext_lazy("Random")),
    ("fixed", gettext_lazy("Fixed: I type or upload the tables")),
]

THREE_PLAYER_SWISS = gettext_lazy("Swiss: by the standings, 1st to 3rd at table 1, and so on")


class SeatingForm(TenbouFormMixin, forms.Form):
    field_order = ["method", "entry_mode", "fill", "rounds", "tables", "upload"]

    method = forms.ChoiceField(
        choices=METHOD_CHOICES,
        initial="balanced",
        widget=forms.RadioSelect,
        error_messages={"required": gettext_lazy("Choose how to seat the players.")},
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds in the event"),
        min_value=1,
        max_value=seating.MAX_ROUNDS,
        help_text=gettext_lazy(
            "Balanced plans keep the later rounds in mind, so that they can avoid repeats too."
        ),
        error_messages={
            "required": gettext_lazy("Give the number of rounds the event has, e.g. 8."),
            "min_value": gettext_lazy("An event has at least one round."),
            "max_value": lazy_format(
                gettext_lazy("A plan can have at most %(limit)s rounds; give fewer."),
                limit=seating.MAX_ROUNDS,
            ),
        },
    )
    tables = forms.CharField(
        label=gettext_lazy("Tables"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text=gettext_lazy(
            "For a fixed plan: one table a line, four names in seat order East, South, "
            "West, North, separated by commas."
        ),
    )
    upload = forms.FileField(
        label=gettext_lazy("Or upload the tables"),
        required=False,
        help_text=gettext_lazy("A CSV file, one table a row of four names (at most 64 KB)."),
    )
    fill = forms.BooleanField(
        label=gettext_lazy("Fill short tables with substitutes"),
        required=False,
        help_text=gettext_lazy(
            "When the players present do not fill the last table, substitutes of the "
            "event's pool take the empty seats; the games count for the others."
        ),
    )
    entry_mode = forms.ChoiceField(
        label=gettext_lazy("The games are entered"),
        choices=Game.EntryMode.choices,
        initial=Game.EntryMode.HANDS,
        required=False,
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose hand by hand or final scores only."),
            "invalid_choice": gettext_lazy("Choose hand by hand or final scores only."),
        },
    )

    def __init__(self, *args, players: list[Player], table_size: int = 4, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.table_size = table_size
        if table_size == 3:
            self.fields["method"].choices = [
                (key, THREE_PLAYER_SWISS if key == "swiss" else label)
                for key, label in METHOD_CHOICES
            ]
            self.fields["tables"].help_text = _(
                "For a fixed plan: one table a line, three names in seat order East, South, "
                "West, separated by commas."
            )
            self.fields["upload"].help_text = _(
                "A CSV file, one table a row of three names (at most 64 KB)."
            )

    def clean_entry_mode(self) -> str:
        return self.cleaned_data["entry_mode"] or Game.EntryMode.HANDS

    def clean_upload(self):
        upload = self.cleaned_data.get("upload")
        if upload is None:
            return None
        if upload.size > UPLOAD_LIMIT:
            raise ValidationError(_("The file is larger than 64 KB; upload the tables only."))
        try:
            return upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError(_("The file is not text (UTF-8); save it as CSV.")) from None

    def clean(self):
        data = super().clean()
        if data.get("method") != "fixed":
            return data
        text = data.get("upload") or data.get("tables") or ""
        rows = [row for row in csv.reader(io.StringIO(text)) if any(c.strip() for c in row)]
        size = self.table_size
        if not rows:
            raise ValidationError(
                _(
                    "A fixed plan needs its tables: type one table a line, four names "
                    "separated by commas, or upload a CSV file."
                )
                if size == 4
                else _(
                    "A fixed plan needs its tables: type one table a line, three names "
                    "separated by commas, or upload a CSV file."
                )
            )
        if len(rows) > SEATING_TABLE_LIMIT:
            raise ValidationError(
                _("A session has at most %(limit)s tables.") % {"limit": SEATING_TABLE_LIMIT}
            )
        known = {p.display_name.casefold(): p for p in self.players}
        tables = []
        for number, row in enumerate(rows, start=1):
            names = [" ".join(cell.split()) for cell in row if cell.strip()]
            if len(names) != size:
                raise ValidationError(
                    (
                        _(
                            "Line %(line)s names %(count)s players; a table needs exactly "
                            "four, separated by commas."
                        )
                        if size == 4
                        else _(
                            "Line %(line)s names %(count)s players; a table of this "
                            "three-player event needs exactly three, separated by commas."
                        )
                    )
                    % {"line": number, "count": len(names)}
                )
            unknown = [name for name in names if name.casefold() not in known]
            if unknown:
                raise ValidationError(
                    _(
                        "Line %(line)s: %(names)s is not taking part in this session. "
                        "Check the spelling, or add them to the roster first."
                    )
                    % {"line": number, "names": ", ".join(unknown)}
                )
            tables.append([known[name.casefold()] for name in names])
        # The planner refuses this too, but in English only: say it in the page's language.
        seated: dict[int, int] = {}
        for number, table in enumerate(tables, start=1):
            for player in table:
                if player.pk in seated:
                    raise ValidationError(
                        _(
                            "%(player)s is at table %(first)s and at table %(second)s; seat "
                            "every player at one table only."
                        )
                        % {"player": player, "first": seated[player.pk], "second": number}
                    )
                seated[player.pk] = number
        try:
            seating.check_round(self.players, tables, table_size=size)
        except seating.SeatingError as err:
            raise ValidationError(say(err)) from None
        data["fixed"] = tables
        return data


class SeatingConfirmForm(forms.Form):
    """The previewed plan, sent back to be stored as shown."""

    plan = forms.CharField(widget=forms.HiddenInput)
    entry_mode = forms.ChoiceField(
        choices=Game.EntryMode.choices,
        required=False,
        widget=forms.HiddenInput,
        error_messages={
            "required": gettext_lazy("Choose hand by hand or final scores only."),
            "invalid_choice": gettext_lazy("Choose hand by hand or final scores only."),
        },
    )
    fill = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, player_ids: list[int], table_size: int = 4, **kwargs):
        super().__init__(*args, **kwargs)
        self.player_ids = player_ids
        self.table_size = table_size

    def clean_entry_mode(self) -> str:
        return self.cleaned_data["entry_mode"] or Game.EntryMode.HANDS

    def clean_plan(self) -> list[list[int]]:
        stale = _("The roster changed since the preview, or the plan was damaged: plan again.")
        raw = self.cleaned_data["plan"]
        try:
            tables = json.loads(raw) if len(raw) < 20_000 else None
        except ValueError:
            tables = None
        if not isinstance(tables, list) or not all(
            isinstance(t, list) and all(type(p) is int for p in t) for t in tables
        ):
            raise ValidationError(stale)
        try:
            seating.check_round(self.player_ids, tables, table_size=self.table_size)
        except seating.SeatingError:
            raise ValidationError(stale) from None
        return tables

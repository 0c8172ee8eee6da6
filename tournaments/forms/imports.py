"""Forms of the log import: the upload (files and session) and the name choices."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..limits import MAX_FILES, MAX_LOG_BYTES


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def clean(self, data, initial=None):
        single = super().clean
        if not data:
            return single(None, initial)  # "This field is required."
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class UploadForm(forms.Form):
    files = MultipleFileField(
        label=gettext_lazy("Game logs"),
        help_text=gettext_lazy(
            "One or many, from Tenhou or Mahjong Soul: tenhou.net/6 JSON (as Tenhou "
            "and the Mahjong Soul converters write it) or Tenhou's mjlog XML, gzip-compressed "
            "or not."
        ),
    )
    session = forms.TypedChoiceField(
        label=gettext_lazy("Into session"),
        coerce=int,
        help_text=gettext_lazy("Or create a new session below."),
    )
    new_session_date = forms.DateField(
        required=False,
        label=gettext_lazy("New session's date"),
        widget=forms.DateInput(attrs={"type": "date"}),
        initial=timezone.localdate,
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        sessions = list(event.sessions.order_by("-number"))
        next_number = event.sessions.next_number()
        self.new_number = next_number
        choices = [
            (s.number, str(s.number) + (f": {s.title}" if s.title else "")) for s in sessions
        ]
        new = _("New session %(number)s") % {"number": next_number}
        self.fields["session"].choices = [(0, new), *choices]
        self.fields["session"].initial = sessions[0].number if sessions else 0

    def clean_files(self):
        files = self.cleaned_data["files"]
        if len(files) > MAX_FILES:
            raise forms.ValidationError(
                _("Upload at most %(limit)s logs at a time.") % {"limit": MAX_FILES}
            )
        for upload in files:
            if upload.size > MAX_LOG_BYTES:
                raise forms.ValidationError(
                    _("%(file)s is too large to be a game log.") % {"file": upload.name}
                )
        return files

    def clean_session(self):
        number = self.cleaned_data["session"]
        if number and not self.event.sessions.filter(number=number).exists():
            raise forms.ValidationError(_("Choose one of this event's sessions."))
        return number

    def session_spec(self) -> dict:
        """The chosen session, kept until the import is confirmed."""
        number = self.cleaned_data["session"] or self.new_number
        day = self.cleaned_data.get("new_session_date") or timezone.localdate()
        return {"number": number, "date": day.isoformat()}

"""Forms of the log import: the upload (files and session) and the name choices."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from .imports import MAX_LOG_BYTES

MAX_FILES = 60


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
        label="Game logs",
        help_text="One or many, from Tenhou or Mahjong Soul: tenhou.net/6 JSON (as Tenhou "
        "and the Mahjong Soul converters write it) or Tenhou's mjlog XML, gzip-compressed "
        "or not.",
    )
    session = forms.TypedChoiceField(
        label="Into session", coerce=int, help_text="Or create a new session below."
    )
    new_session_date = forms.DateField(
        required=False,
        label="New session's date",
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
        self.fields["session"].choices = [(0, f"New session {next_number}"), *choices]
        self.fields["session"].initial = sessions[0].number if sessions else 0

    def clean_files(self):
        files = self.cleaned_data["files"]
        if len(files) > MAX_FILES:
            raise forms.ValidationError(f"Upload at most {MAX_FILES} logs at a time.")
        for upload in files:
            if upload.size > MAX_LOG_BYTES:
                raise forms.ValidationError(f"{upload.name} is too large to be a game log.")
        return files

    def clean_session(self):
        number = self.cleaned_data["session"]
        if number and not self.event.sessions.filter(number=number).exists():
            raise forms.ValidationError("Choose one of this event's sessions.")
        return number

    def session_spec(self) -> dict:
        """The chosen session, kept until the import is confirmed."""
        number = self.cleaned_data["session"] or self.new_number
        day = self.cleaned_data.get("new_session_date") or timezone.localdate()
        return {"number": number, "date": day.isoformat()}

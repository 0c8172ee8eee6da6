"""Events and sessions."""

from __future__ import annotations

import datetime

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from ..limits import MAX_SESSION_NUMBER, MAX_SESSIONS_AT_CREATION
from ..models import Event, Session, SubstituteRule
from ..wording.rules import preset_choices
from .common import RESERVED_SLUGS, TenbouFormMixin, _date_input, free_slug, lazy_format


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
            "substitute_rule",
            "ema_qualification",
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Left out of a post (an older form, a script): today's rule, as before.
        self.fields["substitute_rule"].required = False

    def clean_substitute_rule(self) -> str:
        return self.cleaned_data.get("substitute_rule") or SubstituteRule.UNRANKED

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

    session_count = forms.IntegerField(
        label=gettext_lazy("Sessions to create"),
        min_value=0,
        max_value=MAX_SESSIONS_AT_CREATION,
        required=False,
        initial=0,
        help_text=gettext_lazy(
            "The rounds of a tournament or the nights of a league, numbered 1, 2, 3 …; "
            "more can be added later."
        ),
        error_messages={
            "max_value": lazy_format(
                gettext_lazy("At most %(limit)s sessions can be created at once."),
                limit=MAX_SESSIONS_AT_CREATION,
            )
        },
    )
    session_spacing = forms.ChoiceField(
        label=gettext_lazy("Their dates"),
        choices=[
            ("0", gettext_lazy("All on the start date")),
            ("1", gettext_lazy("One a day from the start date")),
            ("7", gettext_lazy("One a week from the start date")),
        ],
        initial="0",
        required=False,
    )

    class Meta(EventForm.Meta):
        fields = [*EventForm.Meta.fields, "rules_preset"]

    def clean(self):
        cleaned = super().clean()
        starts_on, ends_on = cleaned.get("starts_on"), cleaned.get("ends_on")
        count = cleaned.get("session_count") or 0
        if count and starts_on:
            last = self.session_dates(starts_on, count)[-1]
            if ends_on and last > ends_on:
                self.add_error(
                    "session_spacing",
                    _(
                        "The last of these sessions would be on %(last)s, after the event "
                        "ends. Choose fewer sessions, closer dates or a later end."
                    )
                    % {"last": date_format(last)},
                )
        return cleaned

    def session_dates(self, starts_on, count: int) -> list:
        step = int(self.cleaned_data.get("session_spacing") or 0)
        return [starts_on + datetime.timedelta(days=step * index) for index in range(count)]

    def save_sessions(self, event: Event) -> list[Session]:
        """The sessions asked for, numbered from 1 (the event is new, so it has none)."""
        count = self.cleaned_data.get("session_count") or 0
        dates = self.session_dates(event.starts_on, count)
        return Session.objects.bulk_create(
            Session(event=event, number=number, date=date)
            for number, date in enumerate(dates, start=1)
        )


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

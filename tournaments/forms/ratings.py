"""The form of a rating: its name, formula, reckoning date, events and who reads it."""

from __future__ import annotations

import datetime

from django import forms
from django.utils.translation import gettext_lazy

import ratings as formulas

from ..limits import MAX_RATING_EVENT_CHOICES, MAX_RATING_EVENTS
from ..models import Event, Rating
from .common import TenbouFormMixin, _date_input, lazy_format

# Reckoning dates outside these are typing mistakes, not seasons.
FIRST_DAY = datetime.date(1990, 1, 1)
LAST_DAY = datetime.date(2100, 12, 31)


class EventChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, event: Event) -> str:
        return f"{event.name} ({event.starts_on:%Y-%m-%d})"


class RatingForm(TenbouFormMixin, forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    formula = forms.ChoiceField(
        choices=Rating.Formula.choices, label=gettext_lazy("Formula"), widget=forms.RadioSelect
    )
    best_of = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=formulas.MAX_BEST_OF,
        label=gettext_lazy("Results counted (best results only)"),
        help_text=gettext_lazy("How many events of each player count, the best ones."),
    )
    reckoning_date = forms.DateField(
        label=gettext_lazy("Reckoning date"),
        widget=_date_input(),
        help_text=gettext_lazy("Results are counted as they stood on this day."),
    )
    events = EventChoice(
        queryset=Event.objects.none(),
        label=gettext_lazy("Events"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": gettext_lazy("Choose at least one event."),
            "invalid_choice": gettext_lazy(
                "An event you chose is not one you may rate: choose among those listed."
            ),
        },
    )
    is_public = forms.BooleanField(
        required=False,
        label=gettext_lazy("Public"),
        help_text=gettext_lazy("Anyone may read a public rating while all its events are public."),
    )

    def __init__(self, *args, events=None, **kwargs):
        super().__init__(*args, **kwargs)
        # The events this user may rate: those they may read, the newest first, bounded.
        ids = list(
            events.order_by("-starts_on", "pk").values_list("pk", flat=True)[
                :MAX_RATING_EVENT_CHOICES
            ]
        )
        self.fields["events"].queryset = Event.objects.filter(pk__in=ids).order_by(
            "-starts_on", "name"
        )

    def clean_reckoning_date(self):
        day = self.cleaned_data["reckoning_date"]
        if not FIRST_DAY <= day <= LAST_DAY:
            raise forms.ValidationError(
                lazy_format(
                    gettext_lazy("Choose a reckoning date from %(first)s to %(last)s."),
                    first=FIRST_DAY.isoformat(),
                    last=LAST_DAY.isoformat(),
                )
            )
        return day

    def clean_events(self):
        events = self.cleaned_data["events"]
        if len(events) > MAX_RATING_EVENTS:
            raise forms.ValidationError(
                lazy_format(
                    gettext_lazy("A rating reads at most %(most)s events: you chose %(count)s."),
                    most=MAX_RATING_EVENTS,
                    count=len(events),
                )
            )
        return events

    def clean(self):
        data = super().clean()
        if data.get("formula") == Rating.Formula.BEST_N and not data.get("best_of"):
            if "best_of" not in self.errors:
                self.add_error(
                    "best_of",
                    gettext_lazy("Say how many results of each player count."),
                )
        elif data.get("formula") and data.get("formula") != Rating.Formula.BEST_N:
            data["best_of"] = None
        events = data.get("events")
        if data.get("is_public") and events is not None:
            private = [event.name for event in events if not event.is_public]
            if private:
                self.add_error(
                    "is_public",
                    lazy_format(
                        gettext_lazy(
                            "A public rating reads public events only; these are private: "
                            "%(events)s. Make the rating private or leave them out."
                        ),
                        events=", ".join(private),
                    ),
                )
        return data

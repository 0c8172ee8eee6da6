"""What every form of the app shares: the field markup, slugs and the limits of numbers."""

from __future__ import annotations

import secrets

from django import forms
from django.forms.boundfield import BoundField
from django.utils.functional import lazy

from ..models import Event, Player

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

"""Logins named by username or email: organisers and a player's login."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy

from .common import TenbouFormMixin


def find_login(who: str):
    """The one active account whose username is exactly `who`, or the one whose email is
    `who` (in any case); None otherwise. Callers answer the same either way, so that no
    form tells which usernames and emails exist."""
    users = get_user_model().objects.filter(is_active=True)
    user = users.filter(username=who).first()
    if user is None and "@" in who:
        matches = list(users.filter(email__iexact=who)[:2])
        user = matches[0] if len(matches) == 1 else None
    return user


class LoginNameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("label", gettext_lazy("Username or email"))
        kwargs.setdefault("max_length", 254)
        kwargs.setdefault(
            "help_text",
            gettext_lazy("Exactly as they log in, or the email address of their account."),
        )
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"})
        )
        super().__init__(**kwargs)


class OrganiserAddForm(TenbouFormMixin, forms.Form):
    """A co-organiser named exactly, by username or email: nobody browses a list of every
    account. The account gets an invitation to accept; the answer is the same whether an
    account has that name or not."""

    who = LoginNameField()

    def clean_who(self) -> str:
        return self.cleaned_data["who"].strip()


class PlayerLinkForm(TenbouFormMixin, forms.Form):
    """The login of a player, by username or email; the account accepts the link (unless
    it is the organiser's own), and the answer is the same whether it exists or not."""

    who = LoginNameField(
        label=gettext_lazy("Their username or email"),
        help_text=gettext_lazy(
            "The login of this player. They accept the link on their invitations page; "
            "“My games” then shows their games."
        ),
    )

    def clean_who(self) -> str:
        return self.cleaned_data["who"].strip()

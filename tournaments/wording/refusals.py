"""Refusals in the active language: the engine's, the log converter's, the hand judge's,
the seating planner's and the app's own.

Every refusal carries a marked English template and its parameters (`scoring.errors`).
Here the template is translated and filled in; a parameter that is a phrase is translated
the same way, and a term (a yaku, why a game ended) is named in the app's own words. No
sentence is recognised by its English.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.errors import Phrase, TemplateError, Term, fill, gettext_noop


def say(refusal: TemplateError | Phrase | Term | Any) -> str:
    """A refusal (or a phrase or term of one) in the active language; anything else as
    text."""
    return str(_words(refusal))


def _words(value: Any) -> Any:
    if isinstance(value, TemplateError):
        value = value.phrase
    if isinstance(value, Phrase):
        params = {name: _words(param) for name, param in value.params.items()}
        return fill(gettext(value.template), params)
    if isinstance(value, Term):
        return _term(value)
    return value


def _term(term: Term) -> str:
    from .. import wording  # wording reads the models, which word their refusals here

    if term.kind == "yaku":
        return wording.yaku_name(term.key)
    if term.kind == "end":
        return wording.ended_by(term.key)
    return term.english


def sentence(refusal: TemplateError | Phrase) -> str:
    """`say(refusal)` starting with a capital and without its closing full stop (English or
    Japanese), to be put into a sentence of the app's ("Hand 3: ...")."""
    text = say(refusal).strip().rstrip(".。")
    return text[:1].upper() + text[1:]


def one_after_another(*phrases: Phrase) -> Phrase:
    """Sentences told one after another (a space between them in English, none in
    Japanese)."""
    joined = phrases[0]
    for phrase in phrases[1:]:
        joined = Phrase(gettext_noop("%(first)s %(second)s"), first=joined, second=phrase)
    return joined


class Refusal(TemplateError):
    """A change the app refuses, with a marked template and its parameters.

    Unlike the engine's refusals, `str()` is the message in the active language, so a page
    that shows `str(err)` speaks the page's language."""

    def __str__(self) -> str:
        return say(self)

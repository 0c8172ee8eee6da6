"""The one exception type of the scoring engine, and the marker for message templates.

Pure packages (scoring/, tenhou/, handvalue/, seating/) word their refusals as English
templates with named parameters. `str(err)` is the English sentence; the web app
translates the template and fills in the same parameters, so no sentence is ever
recognised by pattern.

A parameter is a number or a code (shown as it is), a `Phrase` (words of their own: a
marked template and its parameters, translated the same way) or a `Term` (a yaku or another
thing named by its code, which the app names in its own words).
"""

from __future__ import annotations

from typing import Any


def gettext_noop(template: str) -> str:
    """Mark a template for `makemessages` without translating it here.

    The name is the one xgettext already looks for, so the app's catalogue collects every
    template of the pure packages.

    >>> gettext_noop("%(han)s han is not a win")
    '%(han)s han is not a win'
    """
    return template


HAND_PREFIX = gettext_noop("hand %(number)s: %(problem)s")


class Phrase(str):
    """Words with a marked template and named parameters. A phrase is its English text (a
    `str`), so code that only needs the English reads it as any text.

    >>> phrase = Phrase(gettext_noop("%(yaku)s is won only by a %(way)s"), yaku="Haitei",
    ...                 way=Phrase(gettext_noop("tsumo")))
    >>> phrase, phrase.template
    ('Haitei is won only by a tsumo', '%(yaku)s is won only by a %(way)s')
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Phrase:
        phrase = super().__new__(cls, fill(template, params))
        phrase.template = template
        phrase.params = params
        return phrase

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:
        return (self.template,), self.params


class Term:
    """A thing named in a refusal by its code, which the app names in its own words: a yaku
    (kind "yaku", the key of scoring/yaku.py) or why a game ended (kind "end", an
    `EndReason`). `str()` is the English the engine writes.

    >>> str(Term("yaku", "pinfu", "Pinfu"))
    'Pinfu'
    """

    __slots__ = ("kind", "key", "english")

    def __init__(self, kind: str, key: str, english: str) -> None:
        self.kind = kind
        self.key = key
        self.english = english

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"Term({self.kind!r}, {self.key!r}, {self.english!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Term):
            return NotImplemented
        return (self.kind, self.key, self.english) == (other.kind, other.key, other.english)

    def __hash__(self) -> int:
        return hash((self.kind, self.key))


def fill(template: str, params: dict[str, Any]) -> str:
    """The template with its parameters, or as written when it takes none."""
    return template % params if params else template


def as_phrase(words: str | Phrase | TemplateError, params: dict[str, Any]) -> Phrase:
    """The words of a refusal: a template with `params`, or a phrase or refusal taken over."""
    if isinstance(words, TemplateError):
        return words.phrase
    if isinstance(words, Phrase):
        return words
    return Phrase(words, **params)


class TemplateError(ValueError):
    """A refusal that carries its template and parameters.

    The first argument is a marked template (with `params`), or a `Phrase` or another
    refusal whose words this one passes on.

    >>> err = TemplateError(gettext_noop("%(seat)s is not a seat"), seat=5)
    >>> str(err), err.template, err.params
    ('5 is not a seat', '%(seat)s is not a seat', {'seat': 5})
    """

    def __init__(self, words: str | Phrase | TemplateError, /, **params: Any) -> None:
        self.phrase = as_phrase(words, params)
        super().__init__(str(self.phrase))

    @property
    def template(self) -> str:
        return self.phrase.template

    @property
    def params(self) -> dict[str, Any]:
        return self.phrase.params

    @property
    def message(self) -> str:
        return str(self.phrase)


class ScoringError(TemplateError):
    """A record, a rule option or a log that the engine cannot settle.

    The message is written for an organiser: it says what is wrong and, when the
    problem lies in a hand, which hand (counted from 1). `problem` is the message without
    the hand.

    >>> str(ScoringError(gettext_noop("%(han)s han 20 fu is not a possible ron"), han=1, hand=7))
    'hand 7: 1 han 20 fu is not a possible ron'
    """

    def __init__(
        self, words: str | Phrase | TemplateError, /, *, hand: int | None = None, **params: Any
    ) -> None:
        self.hand = hand
        self.problem = as_phrase(words, params)
        if hand is None:
            super().__init__(self.problem)
        else:
            super().__init__(Phrase(HAND_PREFIX, number=hand, problem=self.problem))

    @property
    def message(self) -> str:
        return str(self.problem)

    def in_hand(self, hand: int) -> ScoringError:
        """The same problem, attributed to a hand (keeps an attribution already made)."""
        if self.hand is not None:
            return self
        return ScoringError(self.problem, hand=hand)


def way_of_winning(tsumo: bool) -> Phrase:
    """ "tsumo" or "ron", as words of a refusal.

    >>> str(way_of_winning(True))
    'tsumo'
    """
    return Phrase(gettext_noop("tsumo")) if tsumo else Phrase(gettext_noop("ron"))

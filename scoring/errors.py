"""The one exception type of the scoring engine, and the marker for message templates.

Pure packages (scoring/, tenhou/, handvalue/, seating/) word their refusals as English
templates with named parameters. `str(err)` is the English sentence; the web app
translates the template and fills in the same parameters, so no sentence is ever
recognised by pattern.
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


HAND_PREFIX = gettext_noop("hand %(hand)s: %(message)s")


class TemplateError(ValueError):
    """A refusal that carries its template and parameters.

    >>> err = TemplateError(gettext_noop("%(seat)s is not a seat"), seat=5)
    >>> str(err), err.template, err.params
    ('5 is not a seat', '%(seat)s is not a seat', {'seat': 5})
    """

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(fill(template, params))

    @property
    def message(self) -> str:
        return fill(self.template, self.params)


def fill(template: str, params: dict[str, Any]) -> str:
    """The template with its parameters, or as written when it takes none."""
    return template % params if params else template


class ScoringError(TemplateError):
    """A record, a rule option or a log that the engine cannot settle.

    The message is written for an organiser: it says what is wrong and, when the
    problem lies in a hand, which hand (counted from 1).

    >>> str(ScoringError(gettext_noop("%(han)s han 20 fu is not a possible ron"), han=1, hand=7))
    'hand 7: 1 han 20 fu is not a possible ron'
    """

    def __init__(self, template: str, /, *, hand: int | None = None, **params: Any) -> None:
        self.hand = hand
        super().__init__(template, **params)
        if hand is not None:
            self.args = (fill(HAND_PREFIX, {"hand": hand, "message": self.message}),)

    def in_hand(self, hand: int) -> ScoringError:
        """The same problem, attributed to a hand (keeps an attribution already made)."""
        if self.hand is not None:
            return self
        return ScoringError(self.template, hand=hand, **self.params)

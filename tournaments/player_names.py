"""What a player's display name may hold: the one check every path that stores a name goes
through (the forms, the roster paste, the log and event imports, restore, the admin and,
as the last guard, `Player.save`).

Standings, pickers and command output show names as they are. Control characters,
ANSI escapes, bidirectional overrides and zero-width characters would let a name look
like another player's, hide text, or reorder what follows it, so they are refused, with
the character named. Zero-width joiners (U+200C, U+200D) are refused too: they join
letters in Persian and Indic scripts and build emoji sequences, but no name in Japanese,
Chinese, Korean or a European language needs them, and they make two names look alike.
Names are normalised to NFC (Unicode Standard Annex #15), so that a name typed with
combining accents and one typed precomposed are the same name.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Unicode general categories refused anywhere in a name (Unicode Standard, chapter 4.5):
# Cc control (NUL, ESC of ANSI escapes, DEL, C1 controls), Cf format (bidirectional
# overrides and isolates, zero-width space and joiners, soft hyphen, BOM), Cs surrogates,
# Co private use (characters whose look depends on the font).
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co"}


def refused_character(name: str) -> str | None:
    """The first character of `name` that a display name may not hold, or None.

    >>> refused_character("Ann\\u202eboB")
    '\\u202e'
    >>> refused_character("Åsa 和了") is None
    True
    """
    return next((c for c in name if unicodedata.category(c) in REFUSED_CATEGORIES), None)


def describe(character: str) -> str:
    """A character as a reader can look it up: "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    code = f"U+{ord(character):04X}"
    name = unicodedata.name(character, "")
    if name:
        return f"{code} {name}"
    if unicodedata.category(character) == "Cc":
        return _("%(code)s (a control character)") % {"code": code}
    return code


def refusal(character: str) -> str:
    return _("%(character)s is not allowed in a name.") % {"character": describe(character)}


def normalised(name: str) -> str:
    """Whitespace runs as one space, no space at either end, in NFC.

    >>> normalised("  Jose\\u0301   Luis ")
    'José Luis'
    """
    return " ".join(unicodedata.normalize("NFC", name).split())


def clean_player_name(name: str) -> str:
    """`name` normalised, or a `ValidationError` naming the first refused character.
    Tabs and line breaks are whitespace like a space, and become one."""
    name = normalised(name)
    character = refused_character(name)
    if character is not None:
        raise ValidationError(refusal(character), code="character")
    return name

"""Finds user-facing text that a template shows outside Django's translation tags.

A template is read with Django's own lexer. Text inside {% translate %}, {% blocktranslate
%} ... {% endblocktranslate %} and comments counts as handled; every other tag and variable
becomes a neutral placeholder, so that the remaining HTML still parses as one document.
Then every text node with a letter, and every attribute a person reads (title, aria-label,
placeholder, alt, and data-label, which the phone layout shows as a column's name) with a
letter, is a finding. String literals with letters given to a filter in a variable
({{ n|pluralize:"is,are" }}, {{ d|date:"j F Y" }}) are findings too, unless marked with
_("...") or naming one of Django's localised formats (DATE_FORMAT ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from django.template.base import Lexer, TokenType

# Names that stay as they are in every language, and why:
ALLOWED_WORDS = (
    "Tenbou",  # the app's name
    "Tenhou",  # the online mahjong site, a proper noun
    "Mahjong Soul",  # the online mahjong game, a proper noun
    "QR",  # "QR" is written in Latin letters in Japanese too (QRコード)
)
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "data-label"}
# Stands for a tag or a variable: no letter, so it never makes a finding by itself.
PLACEHOLDER = "\u2063"
LOCALISED_FORMATS = {
    "DATE_FORMAT",
    "DATETIME_FORMAT",
    "SHORT_DATE_FORMAT",
    "SHORT_DATETIME_FORMAT",
    "MONTH_DAY_FORMAT",
    "YEAR_MONTH_FORMAT",
    "TIME_FORMAT",
}
# Filters whose literal argument ends up on the page as words (or as a date's words).
TEXT_FILTERS = {"date", "time", "pluralize", "yesno", "join", "default", "default_if_none"}
FILTER_LITERAL = re.compile(r"""\|\s*(\w+)\s*:\s*(_\()?("[^"]*"|'[^']*')""")


@dataclass(frozen=True)
class Finding:
    line: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text.replace(PLACEHOLDER, '…')}"


def has_words(text: str) -> bool:
    for word in ALLOWED_WORDS:
        text = text.replace(word, "")
    return any(ch.isalpha() for ch in text)


class _Reader(HTMLParser):
    def __init__(self, lines: list[int]):
        super().__init__(convert_charrefs=True)
        self.lines = lines  # the template line of each line of the rebuilt document
        self.findings: list[Finding] = []
        self.skip = 0  # inside <script> or <style>

    def _line(self) -> int:
        row = self.getpos()[0]
        return self.lines[min(row, len(self.lines)) - 1]

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and has_words(value):
                self.findings.append(Finding(self._line(), f'{name}="{value}"'))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and has_words(data):
            self.findings.append(Finding(self._line(), " ".join(data.split())))


def _tag_name(contents: str) -> str:
    return contents.split(maxsplit=1)[0] if contents.strip() else ""


def _filter_literals(token) -> list[Finding]:
    """Literals with letters given to filters in a variable or a tag ({% blocktranslate
    with day=d|date:"j F Y" %}), unless marked _("...") or naming a localised format."""
    found = []
    for match in FILTER_LITERAL.finditer(token.contents):
        name, marked, literal = match.group(1), match.group(2), match.group(3)[1:-1]
        if marked or literal in LOCALISED_FORMATS or name not in TEXT_FILTERS:
            continue
        if name.startswith("default") and re.fullmatch(r"[a-z0-9_-]+", literal):
            continue  # an id or a class name, not words
        if name in ("date", "time") and not re.search(r"[aAbDEFlMNPS\\]", literal):
            continue  # only digits come out ("c", "Y-m-d", "H:i"): the same in every language
        if any(ch.isalpha() for ch in literal):
            brackets = ("{{ ", " }}") if token.token_type == TokenType.VAR else ("{% ", " %}")
            found.append(Finding(token.lineno, brackets[0] + token.contents + brackets[1]))
    return found


def untranslated_text(source: str) -> list[Finding]:
    """The user-facing text of one template that no translation tag covers."""
    findings: list[Finding] = []
    pieces: list[str] = []
    lines: list[int] = []  # template line of each rebuilt line
    skipping_until: str | None = None  # inside blocktranslate or comment

    def add(text: str, lineno: int) -> None:
        # Keep the line structure, so findings carry the template's line numbers.
        newlines = text.count("\n")
        if not pieces:
            lines.append(lineno)
        lines.extend(range(lineno + 1, lineno + 1 + newlines))
        pieces.append(text)

    for token in Lexer(source).tokenize():
        if skipping_until:
            if token.token_type == TokenType.BLOCK and _tag_name(token.contents) == skipping_until:
                skipping_until = None
            add(PLACEHOLDER + "\n" * token.contents.count("\n"), token.lineno)
            continue
        if token.token_type == TokenType.TEXT:
            add(token.contents, token.lineno)
        elif token.token_type == TokenType.BLOCK:
            name = _tag_name(token.contents)
            if name in ("blocktranslate", "blocktrans"):
                skipping_until = (
                    "endblocktranslate" if name == "blocktranslate" else "endblocktrans"
                )
            elif name == "comment":
                skipping_until = "endcomment"
            findings += _filter_literals(token)
            add(PLACEHOLDER, token.lineno)
        elif token.token_type == TokenType.VAR:
            findings += _filter_literals(token)
            add(PLACEHOLDER, token.lineno)
        # Comments ({# #}) leave nothing.
    reader = _Reader(lines)
    reader.feed("".join(pieces))
    reader.close()
    return sorted(findings + reader.findings, key=lambda f: f.line)

"""How every number looks, in one place: points, payments, match points, placements,
averages and a value that is not there.

Decided once for every page, print and chart:

- A negative number has a true minus sign (U+2212 "−"), never a hyphen.
- Payments and match points carry their sign ("+8,000", "+4.9"); zero has none ("0",
  "0.0"). Scores carry no plus sign ("25,000").
- A value that is not there (a game still going, a session not played) is an en dash "–".
- A penalty of zero is no penalty, so it reads "–" too.
- Average placements have two decimals and average scores none, halves rounded up.
- The printed sheets copy the seed's paper scoresheet: match points there have no plus
  sign, places are digits (`sheet_match_points`, `sheet_placement`), and a cell with
  nothing in it (no payment, no penalty, no game) is left blank for a pen.

Exports (CSV, XLSX, JSON) carry the numbers themselves, not these strings: a match point
is a number with one decimal and an ASCII minus, a missing value an empty cell.

Templates use the same functions as filters: `{% load numbers %}` then
`{{ seat.score|points }}` (see `tournaments/templatetags/numbers.py`).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.utils.translation import pgettext_lazy

MINUS = "\u2212"
MISSING = "\u2013"
TENTH = Decimal("0.1")
HUNDREDTH = Decimal("0.01")
# Places at the table in words, in the active language ("1st" is "1着" in Japanese).
ORDINALS = {
    1: pgettext_lazy("placement", "1st"),
    2: pgettext_lazy("placement", "2nd"),
    3: pgettext_lazy("placement", "3rd"),
    4: pgettext_lazy("placement", "4th"),
}


def _minus(text: str) -> str:
    return text.replace("-", MINUS)


def _is_missing(value) -> bool:
    return value is None or value == ""


def points(value: int | None) -> str:
    """A score: thousands separators, no plus sign.

    >>> points(25000), points(-1500), points(0), points(None)
    ('25,000', '−1,500', '0', '–')
    """
    if _is_missing(value):
        return MISSING
    return _minus(f"{int(value):,}")


def delta(value: int | None) -> str:
    """A payment or any change of points: signed, zero bare.

    >>> delta(8000), delta(-2600), delta(0), delta(None)
    ('+8,000', '−2,600', '0', '–')
    """
    if _is_missing(value):
        return MISSING
    value = int(value)
    return "0" if value == 0 else _minus(f"{value:+,}")


def match_points(value: Decimal | int | str | None) -> str:
    """Match points in tenths, signed, zero bare.

    >>> match_points(Decimal("61.3")), match_points(Decimal("-48")), match_points(0)
    ('+61.3', '−48.0', '0.0')
    >>> match_points(Decimal("-0.0")), match_points(None)
    ('0.0', '–')
    """
    if _is_missing(value):
        return MISSING
    value = _decimal(value).quantize(TENTH, ROUND_HALF_UP)
    if value == 0:
        return "0.0"
    return _minus(f"{value:+,.1f}")


def penalty(value: Decimal | int | None) -> str:
    """A penalty in match points; none (zero or missing) is a dash.

    >>> penalty(Decimal("-20")), penalty(Decimal(0)), penalty(None)
    ('−20.0', '–', '–')
    """
    if _is_missing(value) or _decimal(value) == 0:
        return MISSING
    return match_points(value)


def placement(value: int | None) -> str:
    """A place at the table.

    >>> placement(1), placement(4), placement(None)
    ('1st', '4th', '–')
    """
    if _is_missing(value):
        return MISSING
    return str(ORDINALS.get(int(value), value))


def sheet_match_points(value: Decimal | int | None) -> str:
    """Match points as the seed's paper scoresheet writes them: no plus sign.

    >>> sheet_match_points(Decimal("61.3")), sheet_match_points(Decimal("-18.2"))
    ('61.3', '−18.2')
    >>> sheet_match_points(0), sheet_match_points(None)
    ('0.0', '–')
    """
    return match_points(value).removeprefix("+")


def sheet_placement(value: int | None) -> str:
    """A place as the paper scoresheet writes it: a digit.

    >>> sheet_placement(1), sheet_placement(None)
    ('1', '–')
    """
    return MISSING if _is_missing(value) else str(int(value))


def average(total: int | Decimal, count: int, places: int = 2) -> Decimal | None:
    """`total / count` rounded half up to `places` decimals; None without a count.

    The one rounding of every average Tenbou shows: 13 over 8 games is 1.63, not 1.62.

    >>> average(13, 8), average(202700, 8, 0), average(5, 0)
    (Decimal('1.63'), Decimal('25338'), None)
    """
    if not count:
        return None
    if type(total) is int and count > 0:
        # Whole numbers in whole-number arithmetic: the standings work out two averages
        # for each of hundreds of players.
        scaled = abs(total) * 10**places
        quotient, remainder = divmod(scaled, count)
        quotient += 2 * remainder >= count
        if quotient:
            return Decimal(-quotient if total < 0 else quotient).scaleb(-places)
    step = Decimal(1).scaleb(-places)
    return (Decimal(total) / count).quantize(step, ROUND_HALF_UP)


def average_placement(value: Decimal | None) -> str:
    """An average placement with two decimals.

    >>> average_placement(Decimal("1.625")), average_placement(2), average_placement(None)
    ('1.63', '2.00', '–')
    """
    if _is_missing(value):
        return MISSING
    return str(_decimal(value).quantize(HUNDREDTH, ROUND_HALF_UP))


def _decimal(value) -> Decimal:
    """A decimal of `value` (taken as written: 0.1 is one tenth, not the float's value)."""
    return value if type(value) is Decimal else Decimal(str(value))


def rule_number(value: Decimal | int | None) -> str:
    """An uma, oka or penalty as rules write them: signed, no needless decimals.

    >>> rule_number(30), rule_number(Decimal("-10.0")), rule_number(Decimal("2.5")), rule_number(0)
    ('+30', '−10', '+2.5', '0')
    """
    if _is_missing(value):
        return MISSING
    value = Decimal(str(value))
    if value == 0:
        return "0"
    text = f"{abs(value).normalize():,f}"
    return ("+" if value > 0 else MINUS) + text

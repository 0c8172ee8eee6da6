"""Template filters for numbers: `{% load numbers %}`, then `{{ value|points }}`.

Each filter is the function of the same name in `tournaments.formatting`, where the look
of every number is decided and tested.
"""

from django import template

from ..wording import formatting

register = template.Library()

for _name in (
    "points",
    "delta",
    "match_points",
    "penalty",
    "placement",
    "average_placement",
    "rule_number",
):
    register.filter(_name, getattr(formatting, _name), is_safe=True)

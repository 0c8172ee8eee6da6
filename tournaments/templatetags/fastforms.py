"""Radio buttons and checkboxes drawn without a template per option.

The hand form has about two hundred options (winds, han, fu, the yaku checklist of each
winner); drawing each through Django's widget templates was most of the form's cost.
`input_tag` writes the same <input> element as the option's `tag()` does, straight
from the option's data.
"""

from __future__ import annotations

from django import template
from django.forms.boundfield import BoundWidget
from django.template.loader import get_template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()


@register.filter
def input_tag(option: BoundWidget) -> SafeString:
    """`{{ option.tag }}` of a radio or checkbox option, without rendering a template."""
    data = option.data
    parts = [
        f'<input type="{conditional_escape(data["type"])}"'
        f' name="{conditional_escape(data["name"])}"'
    ]
    if data["value"] is not None:
        parts.append(f' value="{conditional_escape(str(data["value"]))}"')
    for name, value in data["attrs"].items():
        if value is False:
            continue
        parts.append(f" {conditional_escape(name)}")
        if value is not True:
            parts.append(f'="{conditional_escape(str(value))}"')
    parts.append(">")
    return mark_safe("".join(parts))


# A blank winner's "count it for me" section (the yaku checklist, tile picker and counters,
# half the hand form) is the same for every game: drawn once per template, language and
# winner. The template is part of the key: Django's template cache gives the same one until
# a template file changes (the development server then loads them anew).
_BLANK_COUNT_HELP: dict[tuple, SafeString] = {}
COUNT_HELP = "tournaments/partials/hand_count_help.html"


@register.simple_tag(takes_context=True)
def blank_count_help(context, win) -> SafeString:
    """The included `hand_count_help.html` of a winner whose fields hold nothing yet."""
    applies = context.get("applies")
    drawn = get_template(COUNT_HELP)
    key = (drawn.template, win["index"], get_language(), str(applies or ""))
    html = _BLANK_COUNT_HELP.get(key)
    if html is None:
        html = mark_safe(drawn.render({"win": win, "applies": applies}))
        if len(_BLANK_COUNT_HELP) >= 64:  # templates that are not cached: keep it bounded
            _BLANK_COUNT_HELP.clear()
        _BLANK_COUNT_HELP[key] = html
    return html

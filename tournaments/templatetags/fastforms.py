"""Radio buttons and checkboxes drawn without a template per option.

The hand form has about two hundred options (winds, han, fu, the yaku checklist of each
winner); drawing each through Django's widget templates was most of the form's cost.
`input_tag` writes the same <input> element as the option's `tag()` does, straight
from the option's data.
"""

from __future__ import annotations

from django import template
from django.forms.boundfield import BoundWidget
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

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

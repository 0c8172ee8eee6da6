"""What a page needs for the browser's scoring engine: `{% load engine %}{% engine_rules %}`.

The tag writes the rule options' kinds and every preset's values (from
`scoring.rules.engine_rules`) into a JSON data element, id `tenbou-engine-rules`, which
static/js/engine.js reads when it loads, so the browser never holds a preset table of its
own. A data element is not run as a script: the Content-Security-Policy allows it.
"""

from django import template
from django.utils.html import json_script

from scoring.rules import engine_rules as rules_for_the_engine

register = template.Library()

ELEMENT_ID = "tenbou-engine-rules"


@register.simple_tag
def engine_rules() -> str:
    return json_script(rules_for_the_engine(), ELEMENT_ID)

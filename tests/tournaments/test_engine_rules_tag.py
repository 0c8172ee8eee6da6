"""The engine_rules tag hands the browser's engine the presets the server scores with."""

import json
import re

from django.template import Context, Template

from scoring.rules import PRESETS, engine_rules


def test_the_engine_rules_tag_writes_every_preset_into_a_json_data_element():
    html = Template("{% load engine %}{% engine_rules %}").render(Context())

    match = re.fullmatch(
        r'<script id="tenbou-engine-rules" type="application/json">(.*)</script>', html, re.S
    )
    assert match is not None, html
    data = json.loads(match.group(1))
    assert data == json.loads(json.dumps(engine_rules()))
    assert set(data["presets"]) == set(PRESETS)
    assert data["presets"]["wrc"]["chombo_penalty"] == -30

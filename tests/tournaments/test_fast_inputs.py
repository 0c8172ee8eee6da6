"""The hand form's options are drawn without a template each: exactly as Django draws them."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.forms.boundfield import BoundWidget
from django.urls import reverse

from scoring.rules import Rules
from tournaments.hand_forms import HandForm, seat_labels
from tournaments.templatetags import fastforms
from tournaments.templatetags.fastforms import input_tag

NAMES = ["Aki", "Ben", "Chie", "Dan"]


def options(form):
    for field in form:
        for option in getattr(field, "subwidgets", []):
            if isinstance(option, BoundWidget) and option.data.get("type") in {"radio", "checkbox"}:
                yield option
    for win in form.win_groups():
        for group in win["yaku_groups"] if isinstance(win, dict) else win.yaku_groups:
            for item in group["items"] if isinstance(group, dict) else group.items:
                option = item["option"] if isinstance(item, dict) else item.option
                yield option


def assert_same(form):
    seen = 0
    for option in options(form):
        assert str(input_tag(option)) == option.tag().strip()
        seen += 1
    return seen


def test_an_empty_hand_form_draws_every_option_as_django_does():
    form = HandForm(seats=seat_labels(NAMES, 1), rules=Rules())
    assert assert_same(form) > 150


def test_a_filled_hand_form_with_errors_draws_checked_options_as_django_does():
    data = {
        "result": "ron",
        "riichi": ["1", "2"],
        "w1_winner": "1",
        "w1_hand": "closed",
        "w1_yaku": ["riichi", "pinfu"],
        "w1_han": "2",
        "loser": "1",  # the winner dealt in: refused
        "w2_winner": "<script>",
    }
    form = HandForm(data, seats=seat_labels(NAMES, 0), rules=Rules())
    assert not form.is_valid()
    checked = [option for option in options(form) if option.data["selected"]]
    assert len(checked) >= 4
    assert assert_same(form) > 150


def test_values_and_attributes_are_escaped():
    option = BoundWidget(
        None,
        {
            "type": "checkbox",
            "name": 'x"y',
            "value": '<b>"&',
            "attrs": {"id": "a<b", "checked": True, "disabled": False, "data-x": "1"},
            "template_name": "django/forms/widgets/checkbox_option.html",
            "label": "",
            "selected": True,
            "index": "0",
            "wrap_label": False,
        },
        None,
    )
    assert str(input_tag(option)) == (
        '<input type="checkbox" name="x&quot;y" value="&lt;b&gt;&quot;&amp;"'
        ' id="a&lt;b" checked data-x="1">'
    )


def _page(client, address) -> str:
    html = client.get(address).content.decode()
    return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', "", html)


@pytest.mark.django_db
def test_a_blank_winners_checklist_kept_from_an_earlier_form_is_the_one_drawn_anew(
    organiser_client, game
):
    address = reverse("tournaments:hand_new", args=[game.pk])

    def page(language):
        organiser_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        return _page(organiser_client, address)

    fresh = {}
    for language in ("en", "ja"):
        fastforms._BLANK_COUNT_HELP.clear()
        fresh[language] = page(language)
    assert fastforms._BLANK_COUNT_HELP  # the Japanese ones
    assert page("en") == fresh["en"]
    assert page("ja") == fresh["ja"] != fresh["en"]
    assert fresh["en"].count('class="count-help"') == 2


@pytest.mark.django_db
def test_a_winner_with_ticked_yaku_is_drawn_with_them(organiser_client, game):
    address = reverse("tournaments:hand_new", args=[game.pk])
    _page(organiser_client, address)  # keeps the blank checklists
    data = {"number": "1", "result": "ron", "w1_yaku": ["riichi"], "action": "preview"}
    response = organiser_client.post(address, data)  # no winner: the form comes back
    assert response.status_code == 200
    page = response.content.decode()
    assert '<details class="count-help" data-count="1" open>' in page
    assert re.search(r'value="riichi" id="id_w1_yaku_\d+" checked', page)

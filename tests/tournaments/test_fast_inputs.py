"""The hand form's options: every winner's checklist in the page's language, ticked yaku
drawn ticked."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _page(client, address) -> str:
    html = client.get(address).content.decode()
    return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', "", html)


def test_each_winners_checklist_is_drawn_in_the_pages_language(organiser_client, game):
    address = reverse("tournaments:hand_new", args=[game.pk])

    def page(language):
        organiser_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        return _page(organiser_client, address)

    english, japanese = page("en"), page("ja")
    assert english.count('class="count-help"') == japanese.count('class="count-help"') == 2
    assert "Count it for me" in english and "Count it for me" not in japanese
    assert page("en") == english


def test_a_winner_with_ticked_yaku_is_drawn_with_them(organiser_client, game):
    address = reverse("tournaments:hand_new", args=[game.pk])
    data = {"number": "1", "result": "ron", "w1_yaku": ["riichi"], "action": "preview"}
    response = organiser_client.post(address, data)  # no winner: the form comes back
    assert response.status_code == 200
    page = response.content.decode()
    assert '<details class="count-help" data-count="1" open>' in page
    assert re.search(r'value="riichi" id="id_w1_yaku_\d+" checked', page)
    assert '<details class="count-help" data-count="2">' in page

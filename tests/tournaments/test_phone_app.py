"""The table link as a web app: the manifest and the service worker of one game, and the
phone's outbox and offline form on the pages of the link's holder only."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Game, Player, TableLink
from tournaments.templatetags.phone import OUTBOX_MOST

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def at_table(link: TableLink) -> Client:
    client = Client()
    address, code = link.get_absolute_url().split("#")
    client.post(address, {"code": code})
    return client


@pytest.fixture
def link(game):
    return services.renew_table_link(game.pk)


def phone_config(page: str) -> dict:
    start = page.index('<script id="tenbou-phone" type="application/json">')
    body = page[start:].split(">", 1)[1].split("</script>", 1)[0]
    return json.loads(body)


def test_the_service_worker_of_a_game_keeps_that_games_pages_and_files(game, link):
    phone = at_table(link)
    response = phone.get(url("game_service_worker", game.pk))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    scope = f"/games/{game.pk}/"
    assert response["Service-Worker-Allowed"] == scope
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    config = json.loads(body.split("var CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["scope"] == scope
    assert config["pages"] == [scope, f"/games/{game.pk}/hands/new/"]
    assert config["cache"] == f"tenbou-game-{game.pk}-"
    assert "/static/js/engine.js" in config["files"]
    assert "/static/js/offline-entry.js" in config["files"]
    assert 'self.addEventListener("fetch"' in body


def test_a_new_list_of_files_makes_a_new_worker_version(game, link, settings):
    phone = at_table(link)
    first = phone.get(url("game_service_worker", game.pk)).content.decode()
    settings.STATIC_URL = "/assets/"
    second = phone.get(url("game_service_worker", game.pk)).content.decode()

    def version(body: str) -> str:
        return json.loads(body.split("var CONFIG = ", 1)[1].split(";\n", 1)[0])["version"]

    assert version(first) != version(second)


def test_the_manifest_installs_the_games_page_in_the_games_scope(game, link):
    phone = at_table(link)
    response = phone.get(url("game_manifest", game.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == manifest["scope"] == f"/games/{game.pk}/"
    assert manifest["name"] == f"Table {game.table_number} · Tenbou"
    assert manifest["display"] == "standalone"
    assert manifest["icons"][0]["src"].endswith("img/tenbou-icon.svg")


def test_the_manifest_speaks_japanese_to_a_japanese_phone(game, link):
    phone = at_table(link)
    response = phone.get(url("game_manifest", game.pk), HTTP_ACCEPT_LANGUAGE="ja")
    assert json.loads(response.content)["short_name"] == f"{game.table_number}番卓"


def test_the_table_links_pages_carry_the_phone_app_and_its_words(game, link):
    phone = at_table(link)
    page = phone.get(url("game", game.pk)).content.decode()
    assert f'<link rel="manifest" href="/games/{game.pk}/app.webmanifest">' in page
    config = phone_config(page)
    assert config["game"] == game.pk
    assert config["worker"] == f"/games/{game.pk}/sw.js"
    assert config["record"] == url("hand_record", game.pk)
    assert config["sync"] == url("hand_sync", game.pk)
    assert config["most"] == OUTBOX_MOST
    assert config["words"]["saved_here"] == "Hand %(number)s is saved on this phone."
    assert config["rounds"]["S3"] == "S3"
    assert config["ends"]["bust"] == "a player went below zero"
    assert "js/phone-outbox.js" in page

    form = phone.get(url("hand_new", game.pk)).content.decode()
    assert "data-offline-preview" in form
    assert "js/offline-entry.js" in form
    assert phone_config(form)["form"] == url("hand_new", game.pk)


def test_the_phones_words_are_japanese_on_a_japanese_page(game, link):
    phone = at_table(link)
    page = phone.get(url("hand_new", game.pk), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    config = phone_config(page)
    assert config["words"]["saved_here"] == "第%(number)s局をこの端末に保存しました。"
    assert config["rounds"]["E1"] == "東1局"
    assert config["winds"]["E"] == "東"


def test_an_organisers_pages_have_no_outbox(game, organiser):
    client = Client()
    client.force_login(organiser)
    for page in (url("game", game.pk), url("hand_new", game.pk)):
        text = client.get(page).content.decode()
        assert "tenbou-phone" not in text
        assert "data-offline-preview" not in text
        assert "phone-outbox.js" not in text


def test_a_reader_without_the_link_gets_no_outbox(game):
    page = Client().get(url("game", game.pk)).content.decode()
    assert "tenbou-phone" not in page
    assert 'rel="manifest"' not in page


def test_a_game_of_final_scores_only_has_no_phone_app(game, link):
    Game.objects.filter(pk=game.pk).update(entry_mode=Game.EntryMode.FINAL_SCORES)
    page = at_table(link).get(url("game", game.pk)).content.decode()
    assert "tenbou-phone" not in page


def test_the_worker_of_another_game_is_not_there_for_this_tables_phone(game, link, session):
    players = [Player.objects.create(display_name=f"O{i}") for i in range(4)]
    other = services.create_game(session, players, table_number=2)
    phone = at_table(link)
    private = session.event
    private.is_public = False
    private.save(update_fields=["is_public"])
    assert phone.get(url("game_service_worker", other.pk)).status_code == 404
    assert phone.get(url("game_service_worker", game.pk)).status_code == 200


def test_the_engines_refusals_reach_a_japanese_phone_in_japanese(game, link):
    phone = at_table(link)
    english = phone_config(phone.get(url("hand_new", game.pk)).content.decode())
    assert english["words"]["engine"] == {}
    page = phone.get(url("hand_new", game.pk), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    engine = phone_config(page)["words"]["engine"]
    assert engine["hand %(number)s: %(problem)s"] == "第%(number)s局：%(problem)s"
    # Every refusal the engine marks, the riichi below the rules' minimum among them.
    assert any("riichi" in template for template in engine)
    assert len(engine) > 100

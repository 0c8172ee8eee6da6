"""The table link as a web app on the players' phone: its manifest and its service worker.

Both are served per game, under the game's own address (`/games/<pk>/...`), so that the
worker's scope is that one game: it keeps the game page, the hand form and the static
files they use in the phone's cache, and a reload without network still opens the form.
What the phone enters offline waits in its outbox (static/js/phone-outbox.js) and is sent
to `hand_sync` when the network is back; the worker never stores or sends a hand itself.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import access
from ..models import Game

# The worker's code, beside this file; the view puts the game's CONFIG in front of it.
WORKER = Path(__file__).with_name("service_worker.js").read_text(encoding="utf-8")

# The files the game page and the hand form load, kept for a reload without network.
# (base.html, game_detail.html and hand_form.html load them.)
APP_FILES = (
    "css/tenbou.css",
    "django_htmx/htmx-2.min.js",
    "django_htmx/django-htmx.js",
    "js/round-clock.js",
    "js/hand-entry.js",
    "js/hand-count.js",
    "js/hand-picker.js",
    "js/engine.js",
    "js/phone-outbox.js",
    "js/offline-entry.js",
    "img/tenbou-icon.svg",
)


def app_pages(game: Game) -> list[str]:
    """The game's pages the worker keeps: the game page and the form for its next hand."""
    return [game.get_absolute_url(), reverse("tournaments:hand_new", args=[game.pk])]


def _static_urls() -> list[str]:
    urls = []
    for name in APP_FILES:
        try:
            urls.append(static(name))
        except ValueError:
            # A manifest storage without this file (not collected): the page does not
            # load it either, so there is nothing to keep.
            continue
    return urls


@access.readable_game
def game_manifest(request: HttpRequest, game: Game) -> JsonResponse:
    """The web app manifest: installing it opens this game's page, full screen."""
    scope = game.get_absolute_url()
    name = _("Table %(table)s · Tenbou") % {"table": game.table_number}
    manifest = {
        "name": name,
        "short_name": _("Table %(table)s") % {"table": game.table_number},
        "id": scope,
        "start_url": scope,
        "scope": scope,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f5f4a",
        "icons": [{"src": static("img/tenbou-icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@access.readable_game
def game_service_worker(request: HttpRequest, game: Game) -> HttpResponse:
    """The service worker of one game: its scope is `/games/<pk>/` (the folder of its
    own address), which holds the game page and the hand form."""
    scope = game.get_absolute_url()
    files = _static_urls()
    pages = app_pages(game)
    # A new list of files (a new hashed name after a deploy) makes a new worker.
    version = hashlib.sha256(json.dumps([files, pages]).encode()).hexdigest()[:12]
    config = {"cache": f"tenbou-game-{game.pk}-", "version": version, "scope": scope,
              "pages": pages, "files": files, "static": static("")}  # fmt: skip
    body = '"use strict";\nvar CONFIG = ' + json.dumps(config, ensure_ascii=True) + ";\n" + WORKER
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = scope
    # Browsers check for a new worker at most daily anyway; this one is never kept stale.
    response["Cache-Control"] = "no-cache"
    return response

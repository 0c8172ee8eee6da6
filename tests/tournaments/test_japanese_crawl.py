"""Every page of the demo renders in Japanese: a crawl that follows the links of the
demo's pages, as the demo organiser and as a visitor, with a browser that asks for
Japanese. Each page answers without error, says it is Japanese (<html lang="ja">) and has
Japanese words in its main part."""

from __future__ import annotations

import io
import re
from collections import Counter, deque
from html import unescape

import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db

JA = {"accept-language": "ja,en;q=0.3"}
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
LINK = re.compile(r'href="(/[^"#]*)"')
# Not pages: the admin (Django's own), logging out, the language switch (a POST).
SKIP = re.compile(r"^/(admin/|accounts/logout/|i18n/|static/)")
# Files rather than pages: they must answer, but have no <html>.
FILES = re.compile(r"\.(csv|zip|json|xlsx|pdf|svg|png)$|/qr/")
PER_SHAPE = 2  # pages per URL shape (/games/N/ ...): enough to meet every template
MAX_PAGES = 400


def shape(path: str) -> str:
    return re.sub(r"\d+", "N", path)


def main_text(html: str) -> str:
    found = re.search(r"<main[^>]*>(.*)</main>", html, re.S)
    body = found.group(1) if found else html
    return unescape(re.sub(r"<[^>]+>", " ", body))


def starts() -> list[str]:
    """The home page, and a game still being played (whose links lead to the hand forms)."""
    from tournaments.models import Game

    playing = Game.objects.filter(status=Game.Status.IN_PROGRESS, entry_mode="hands")
    return ["/", *(game.get_absolute_url() for game in playing[:1])]


def crawl(client: Client) -> tuple[dict[str, str], list[str]]:
    """Pages visited (path -> what was checked) and the problems found."""
    seen: set[str] = set()
    shapes: Counter[str] = Counter()
    queue = deque(starts())
    visited: dict[str, str] = {}
    problems: list[str] = []
    while queue and len(visited) < MAX_PAGES:
        path = queue.popleft()
        bare = path.split("?")[0]
        if path in seen or SKIP.match(path) or shapes[shape(bare)] >= PER_SHAPE:
            continue
        seen.add(path)
        shapes[shape(bare)] += 1
        response = client.get(path, headers=JA)
        if response.status_code in (301, 302):
            queue.append(response["Location"])
            visited[path] = "redirect"
            continue
        if response.status_code != 200:
            problems.append(f"{path}: status {response.status_code}")
            continue
        if FILES.search(bare) or not response["Content-Type"].startswith("text/html"):
            visited[path] = "file"
            continue
        html = response.content.decode()
        if "<html" in html:
            if '<html lang="ja">' not in html:
                problems.append(f"{path}: not marked as Japanese")
            if not JAPANESE.search(main_text(html)):
                problems.append(f"{path}: no Japanese in the page's main part")
        visited[path] = "page"
        for link in LINK.findall(html):
            link = unescape(link)
            if "?" in link and not link.split("?")[0] == bare:
                link = link.split("?")[0]  # other pages' filters and sorting: the page itself
            if link not in seen:
                queue.append(link)
    return visited, problems


@pytest.fixture
def demo(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("demo", "--force", stdout=io.StringIO())


@pytest.mark.slow
def test_every_page_of_the_demo_renders_in_japanese_for_its_organiser(demo):
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username="organiser"))
    visited, problems = crawl(client)
    pages = [p for p, kind in visited.items() if kind == "page"]
    assert len(pages) > 40, sorted(visited)
    for needed in ("/games/N/", "/games/N/hands/new/", "/events/demo-club-league/standings/"):
        assert any(shape(p.split("?")[0]) == needed for p in pages), needed
    assert problems == [], "\n".join(problems)


@pytest.mark.slow
def test_every_public_page_of_the_demo_renders_in_japanese_for_a_visitor(demo):
    visited, problems = crawl(Client())
    assert len([p for p, kind in visited.items() if kind == "page"]) > 15
    assert problems == [], "\n".join(problems)

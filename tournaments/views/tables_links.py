"""Table links: the address (and its QR code) that lets the players at one table enter
their game's hands from a phone without an account, and the slips that carry it.

The code follows `#` in the address, so the browser never sends it in a request line
(access logs, proxies) and the opening page posts it. Opening a link remembers it in the
visitor's session and goes to the game page, so the code does not stay in the address
bar or in the addresses of later pages. Only
organisers see a code; they lock a game, revoke its link or make a new one.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from .. import access, services
from ..models import Game, GameSeat, Session, TableLink
from ..trail import Actor
from .actions import change_game


def qr_svg(url: str, *, scale: int = 4) -> str:
    """The QR code of `url` as inline SVG, drawn here (no outside service sees the code)."""
    return mark_safe(segno.make(url, error="m").svg_inline(scale=scale, border=2, omitsize=False))  # noqa: S308


def link_context(request: HttpRequest, link: TableLink | None, *, scale: int = 4) -> dict | None:
    if link is None:
        return None
    url = request.build_absolute_uri(link.get_absolute_url())
    return {"link": link, "url": url, "qr": qr_svg(url, scale=scale)}


@require_http_methods(["GET", "POST"])
@access.anyone
def table_link_open(request: HttpRequest, link_id: int) -> HttpResponse:
    """The address on the slip, `/t/<id>/#<code>`. The browser requests `/t/<id>/` alone
    (a fragment is never sent), so no access log holds the code; this page's script posts
    the code from the fragment, and without a script the code is typed from the slip."""
    if request.method == "GET":
        return render(request, "tournaments/table_link_open.html", {"link_id": link_id})
    return _open(request, link_id, request.POST.get("code", "").strip())


@access.anyone
def table_link_open_in_path(request: HttpRequest, link_id: int, code: str) -> HttpResponse:
    """Slips printed before the code moved behind `#` still open their game."""
    return _open(request, link_id, code)


def _open(request: HttpRequest, link_id: int, code: str) -> HttpResponse:
    """Checks the code and lets this browser enter the game."""
    link = TableLink.objects.select_related("game__session__event").filter(pk=link_id).first()
    # Compared in constant time; an unknown id costs the same answer as a wrong code.
    if link is None or not link.matches(code) or not link.is_live:
        return render(request, "tournaments/table_link_gone.html", status=404)
    access.remember_table_link(request, link)
    game = link.game
    if game.locked:
        messages.warning(
            request, _("The organisers have locked this game: hands cannot be changed.")
        )
    elif game.is_finished:
        messages.info(request, _("This game is finished."))
    else:
        messages.success(
            request,
            _("Table %(table)s: you can enter this game's hands.") % {"table": game.table_number},
        )
    return redirect(game)


@require_POST
@access.organiser_game
def table_link_renew(request: HttpRequest, game: Game) -> HttpResponse:
    had = game.table_links.live().exists()
    services.renew_table_link(game.pk, actor=Actor.of(request.user))
    messages.success(
        request,
        _("A new table link is made; the old one no longer works.")
        if had
        else _("The table link is made: print the slip for the table."),
    )
    return redirect(game)


@require_POST
@access.organiser_game
def table_link_revoke(request: HttpRequest, game: Game) -> HttpResponse:
    return change_game(
        request,
        game,
        services.revoke_table_link,
        gettext_lazy("The table link no longer works."),
    )


@require_POST
@access.organiser_game
def game_lock(request: HttpRequest, game: Game) -> HttpResponse:
    lock = request.POST.get("locked") == "1"
    services.lock_game(game.pk, lock, actor=Actor.of(request.user))
    messages.success(
        request,
        _("The game is locked: its table link changes nothing.")
        if lock
        else _("The game is unlocked: the table can enter hands again."),
    )
    return redirect(game)


@require_POST
@access.organiser_session
def session_links_make(request: HttpRequest, session: Session) -> HttpResponse:
    made = services.make_table_links(session.pk, actor=Actor.of(request.user))
    if made:
        messages.success(
            request,
            ngettext("%(count)s table link made.", "%(count)s table links made.", made)
            % {"count": made},
        )
    else:
        messages.info(request, _("Every game in progress has its table link already."))
    return redirect("tournaments:session_slips", session.event.slug, session.number)


def _slip(request: HttpRequest, game: Game, link: TableLink | None) -> dict:
    return {
        "game": game,
        "seats": game.ordered_seats(),
        "table_link": link_context(request, link, scale=6),
    }


@access.organiser_game
def game_slip(request: HttpRequest, game: Game) -> HttpResponse:
    link = game.table_links.live().first()
    context = {
        "event": game.event,
        "session": game.session,
        "slips": [_slip(request, game, link)],
        "single": game,
    }
    return render(request, "tournaments/table_slips.html", context)


@access.organiser_session
def session_slips(request: HttpRequest, session: Session) -> HttpResponse:
    games = session.games.prefetch_related(
        Prefetch("seats", queryset=GameSeat.objects.select_related("player")),
        Prefetch("table_links", queryset=TableLink.objects.live(), to_attr="live_links"),
    ).order_by("table_number", "pk")
    slips = [
        _slip(request, game, game.live_links[0] if game.live_links else None) for game in games
    ]
    context = {"event": session.event, "session": session, "slips": slips, "single": None}
    return render(request, "tournaments/table_slips.html", context)

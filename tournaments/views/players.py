"""Merging two players who are the same person: find the other one, preview what moves,
then merge (`services.merge_players`)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .. import access, services
from ..models import Player
from ..wording.refusals import say

# The players a search offers to merge: a name is typed until the one meant is among them.
MERGE_CANDIDATES = 20


def players_named(user, query: str):
    """The players `user` may know of whose display name or an alias holds `query`."""
    matching = Q(display_name__icontains=query) | Q(aliases__name__icontains=query)
    return access.visible_players(user).filter(matching).distinct().order_by("display_name")


def _other(request: HttpRequest, raw: str | None) -> tuple[Player | None, str | None]:
    """The player named by `raw` (an id) and, if they cannot be chosen, why."""
    if not raw:
        return None, None
    try:
        pk = int(raw)
    except ValueError:
        return None, _("Choose the player from the list of matches.")
    other = Player.objects.filter(pk=pk).first()
    if other is None or not access.may_know(request.user, other):
        return None, _("This player is not there any more: search again.")
    if not access.may_link_login(request.user, other):
        return other, _(
            "Only an organiser of an event both players played in can merge them: you "
            "organise no event %(player)s played in."
        ) % {"player": other}
    return other, None


@access.player_merger
def player_merge(request: HttpRequest, player: Player) -> HttpResponse:
    """The page of `player` merges another player into them: the other's games, roster
    places and login move here, and the other's name becomes an alias of this one."""
    query = " ".join(request.GET.get("q", "").split())[:60]
    source = request.POST if request.method == "POST" else request.GET
    other, problem = _other(request, source.get("other"))
    if request.method == "POST":
        if other is None and problem is None:
            problem = _("Choose the player to merge into this one.")
        if problem is None:
            try:
                services.merge_players(player.pk, other.pk)
            except services.MergeRefused as err:
                problem = str(err)
            else:
                messages.success(
                    request,
                    _("%(merged)s is merged into %(kept)s; “%(merged)s” stays as an alias.")
                    % {"merged": other.display_name, "kept": player.display_name},
                )
                return redirect("tournaments:player", player.pk)
    preview = None
    if other is not None and problem is None:
        preview = services.merge_preview(player, other)
    matches = []
    if query:
        matches = list(
            players_named(request.user, query).exclude(pk=player.pk)[: MERGE_CANDIDATES + 1]
        )
    context = {
        "player": player,
        "query": query,
        "matches": matches[:MERGE_CANDIDATES],
        "more_matches": len(matches) > MERGE_CANDIDATES,
        "other": other,
        "problem": problem,
        "preview": preview,
        "refusals": [say(r) for r in preview.refusals] if preview else [],
        # The names of the details filled in, not their values: a real name stays private.
        "details": [str(Player._meta.get_field(name).verbose_name) for name in preview.details]
        if preview
        else [],
    }
    return render(request, "tournaments/player_merge.html", context)

"""An event's roster: who takes part, and from which session on someone is withdrawn.

Anyone who may read the event sees the roster; its organisers add players (ticked from a
search, one new player, or a pasted list of names), withdraw them and take them off.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from .. import access, services
from ..forms import PlayerForm, RosterPasteForm, RosterPickForm, WithdrawForm
from ..limits import PICK_LIMIT
from ..models import Event, GameSeat, Player
from ..trail import Actor


def _names(players, limit: int = 8) -> str:
    names = [str(p) for p in players]
    if len(names) > limit:
        return _("%(names)s and %(count)s more") % {
            "names": ", ".join(names[:limit]),
            "count": len(names) - limit,
        }
    return ", ".join(names)


def _next_session(event: Event) -> int:
    """The first session no game has been played in: where a withdrawal usually starts."""
    played = GameSeat.objects.filter(game__session__event=event).aggregate(
        last=Max("game__session__number")
    )["last"]
    return (played or 0) + 1


def _roster_page(request: HttpRequest, event: Event, *, status: int = 200, **forms) -> HttpResponse:
    is_organiser = access.organises(request, event.pk)
    entries = list(event.roster.select_related("player").order_by("player__display_name"))
    games = dict(
        GameSeat.objects.filter(game__session__event=event)
        .values_list("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    for entry in entries:
        entry.games = games.get(entry.player_id, 0)
    context = {
        "event": event,
        "is_organiser": is_organiser,
        "entries": entries,
        "taking_part": sum(entry.withdrawn_from is None for entry in entries),
    }
    if is_organiser:
        query = " ".join(request.GET.get("q", "").split())[:60]
        offered = access.pickable_players(request.user, event).exclude(entries__event=event)
        if query:
            # A merged player's old name (an alias) finds the player they became.
            offered = offered.filter(
                pk__in=Player.objects.filter(
                    Q(display_name__icontains=query) | Q(aliases__name__icontains=query)
                ).values("pk")
            )
        offered_count = offered.count()
        matches = offered.order_by("display_name")[:PICK_LIMIT]
        context |= {
            "query": query,
            "offered_count": offered_count,
            "pick_limit": PICK_LIMIT,
            "pick_form": forms.get("pick_form")
            or RosterPickForm(event=event, user=request.user, matches=matches),
            "new_form": forms.get("new_form") or PlayerForm(prefix="new"),
            "paste_form": forms.get("paste_form") or RosterPasteForm(),
            "withdraw_error": forms.get("withdraw_error"),
            "next_session": _next_session(event),
        }
    return render(request, "tournaments/roster.html", context, status=status)


@access.readable_event
def roster(request: HttpRequest, event: Event) -> HttpResponse:
    return _roster_page(request, event)


@require_POST
@access.organiser_event
def roster_pick(request: HttpRequest, event: Event) -> HttpResponse:
    form = RosterPickForm(request.POST, event=event, user=request.user)
    if not form.is_valid():
        return _roster_page(request, event, pick_form=form, status=400)
    try:
        change = services.add_to_roster(event.pk, list(form.cleaned_data["players"]))
    except services.GameChangeRefused as err:
        form.add_error(None, str(err))
        return _roster_page(request, event, pick_form=form, status=400)
    messages.success(
        request, _("Added to the roster: %(names)s.") % {"names": _names(change.added)}
    )
    return redirect("tournaments:roster", event.slug)


@require_POST
@access.organiser_event
def roster_new(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlayerForm(request.POST, prefix="new", known=access.visible_players(request.user))
    if not form.is_valid():
        return _roster_page(request, event, new_form=form, status=400)
    try:
        with transaction.atomic():
            player = form.save(commit=False)
            player.display_name = services.free_name(player.display_name)
            player.save()
            services.add_to_roster(event.pk, [player])
    except services.GameChangeRefused as err:
        form.add_error(None, str(err))
        return _roster_page(request, event, new_form=form, status=400)
    except IntegrityError:
        form.add_error("display_name", _("Someone else just added a player with this name."))
        return _roster_page(request, event, new_form=form, status=400)
    messages.success(
        request, _("%(player)s is a new player and on the roster.") % {"player": player}
    )
    return redirect("tournaments:roster", event.slug)


@require_POST
@access.organiser_event
def roster_paste(request: HttpRequest, event: Event) -> HttpResponse:
    form = RosterPasteForm(request.POST)
    if not form.is_valid():
        return _roster_page(request, event, paste_form=form, status=400)
    try:
        change = services.add_names_to_roster(
            event.pk,
            form.cleaned_data["names"],
            create=form.cleaned_data["create"],
            # A name reaches only players this organiser may know of.
            known=access.visible_players(request.user),
            details=form.details,
        )
    except services.GameChangeRefused as err:
        form.add_error("names", _("Nobody was added. %(reason)s") % {"reason": err})
        return _roster_page(request, event, paste_form=form, status=400)
    added = len(change.added)
    if change.created:
        text = ngettext(
            "Added %(count)s player to the roster; %(new)s of them new to Tenbou (%(names)s).",
            "Added %(count)s players to the roster; %(new)s of them new to Tenbou (%(names)s).",
            added,
        ) % {"count": added, "new": len(change.created), "names": _names(change.created)}
    else:
        text = ngettext(
            "Added %(count)s player to the roster.", "Added %(count)s players to the roster.", added
        ) % {"count": added}
    # Each a sentence of its own, after the first.
    if change.already:
        text += " " + _("Already on the roster: %(names)s.") % {"names": _names(change.already)}
    if form.repeats:
        text += " " + _("Named twice, added once: %(names)s.") % {"names": _names(form.repeats)}
    if form.blank_lines:
        text += " " + ngettext(
            "%(count)s blank line left out.", "%(count)s blank lines left out.", form.blank_lines
        ) % {"count": form.blank_lines}
    messages.success(request, text)
    return redirect("tournaments:roster", event.slug)


@require_POST
@access.organiser_event
def roster_withdraw(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        error = " ".join(form.errors["from_session"])
        return _roster_page(request, event, withdraw_error=(player_id, error), status=400)
    try:
        entry = services.withdraw_from_roster(
            event.pk, player_id, form.cleaned_data["from_session"], actor=Actor.of(request.user)
        )
    except services.GameChangeRefused as err:
        return _roster_page(request, event, withdraw_error=(player_id, str(err)), status=400)
    messages.success(
        request,
        _("%(player)s is withdrawn from session %(session)s on; their games so far still count.")
        % {"player": entry.player, "session": entry.withdrawn_from},
    )
    return redirect("tournaments:roster", event.slug)


@require_POST
@access.organiser_event
def roster_return(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    try:
        entry = services.return_to_roster(event.pk, player_id, actor=Actor.of(request.user))
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(request, _("%(player)s takes part again.") % {"player": entry.player})
    return redirect("tournaments:roster", event.slug)


@require_POST
@access.organiser_event
def roster_remove(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    try:
        player = services.remove_from_roster(event.pk, player_id)
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(request, _("%(player)s is off the roster.") % {"player": player})
    return redirect("tournaments:roster", event.slug)


@require_POST
@access.organiser_event
def roster_substitute(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    """Move a roster player into the substitute pool (`substitute=1`) or back out of it."""
    into_pool = request.POST.get("substitute") == "1"
    try:
        entry = services.set_substitute(event.pk, player_id, into_pool)
    except services.GameChangeRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request,
            (
                _("%(player)s is in the substitute pool.")
                if into_pool
                else _("%(player)s plays as a regular player again.")
            )
            % {"player": entry.player},
        )
    return redirect("tournaments:roster", event.slug)

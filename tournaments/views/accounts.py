"""Organisers and accounts without the admin: an event's co-organisers, linking a player to
a login, "my games", and sign-up when the site allows it.

Password change and reset are Django's own views (config/urls.py) with our templates.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access
from ..forms import OrganiserAddForm, PlayerLinkForm
from ..models import Event, Player


@access.organiser_event
def event_organisers(request: HttpRequest, event: Event) -> HttpResponse:
    form = OrganiserAddForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        user = form.cleaned_data["who"]
        event.organisers.add(user)
        messages.success(
            request,
            _("%(user)s is now an organiser of %(event)s.")
            % {"user": user.get_username(), "event": event},
        )
        return redirect("tournaments:event_organisers", event.slug)
    context = {
        "event": event,
        "form": form,
        "organisers": event.organisers.order_by("username"),
    }
    return render(request, "tournaments/event_organisers.html", context)


@require_POST
@access.organiser_event
def organiser_remove(request: HttpRequest, event: Event, user_id: int) -> HttpResponse:
    with transaction.atomic():
        # Locked so that two organisers removing each other cannot leave the event with none.
        locked = Event.objects.select_for_update().get(pk=event.pk)
        user = get_object_or_404(locked.organisers, pk=user_id)
        if locked.organisers.count() == 1:
            messages.error(
                request,
                _(
                    "%(user)s is the only organiser of %(event)s. Add another organiser "
                    "first, then remove this one."
                )
                % {"user": user.get_username(), "event": event},
            )
            return redirect("tournaments:event_organisers", event.slug)
        locked.organisers.remove(user)
    messages.success(
        request,
        _("%(user)s is no longer an organiser of %(event)s.")
        % {"user": user.get_username(), "event": event},
    )
    if user == request.user and not event.is_organiser(request.user):
        if event.is_public:
            return redirect(event)
        return redirect("tournaments:home")
    return redirect("tournaments:event_organisers", event.slug)


@access.organiser_of_player
def player_link(request: HttpRequest, player: Player) -> HttpResponse:
    form = PlayerLinkForm(request.POST or None, player=player)
    if request.method == "POST":
        if "unlink" in request.POST:
            player.user = None
            player.save(update_fields=["user"])
            messages.success(
                request, _("%(player)s is no longer linked to a login.") % {"player": player}
            )
            return redirect(player)
        if form.is_valid():
            player.user = form.cleaned_data["who"]
            player.save(update_fields=["user"])
            messages.success(
                request,
                _(
                    "%(player)s is linked to the login %(user)s: “My games” shows their "
                    "games when they log in."
                )
                % {"player": player, "user": player.user.get_username()},
            )
            return redirect(player)
    return render(request, "tournaments/player_link.html", {"player": player, "form": form})


@access.signed_in
def my_games(request: HttpRequest) -> HttpResponse:
    player = Player.objects.filter(user=request.user).first()
    if player is None:
        return render(request, "tournaments/my_games_none.html")
    return redirect(player)


@access.anyone
def signup(request: HttpRequest) -> HttpResponse:
    if not settings.OPEN_SIGNUP:
        raise Http404(_("Sign-up is closed on this site."))
    if request.user.is_authenticated:
        return redirect("tournaments:home")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(user)s. You can now create events.") % {"user": user.get_username()},
        )
        return redirect("tournaments:home")
    return render(request, "registration/signup.html", {"form": form})

"""Organisers and accounts without the admin: an event's co-organisers, linking a player to
a login, invitations to accept, "my games", and sign-up when the site allows it.

Password change and reset are Django's own views (config/urls.py) with our templates.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import access, invitations
from ..forms import OrganiserAddForm, PlayerLinkForm
from ..models import Event, Invitation, Player


@access.organiser_event
def event_organisers(request: HttpRequest, event: Event) -> HttpResponse:
    form = OrganiserAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        who = form.cleaned_data["who"]
        invitations.invite_organiser(request, event, who)
        # The same answer whether or not an account has that name.
        messages.success(
            request,
            _(
                "If an account has the username or email “%(who)s”, it is invited to organise "
                "%(event)s: they become an organiser when they accept on their invitations page."
            )
            % {"who": who, "event": event},
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
    may_link = access.may_link_login(request.user, player)
    may_unlink = access.may_unlink_login(request.user, player)
    form = PlayerLinkForm(request.POST or None) if may_link else None
    if request.method == "POST":
        if "unlink" in request.POST:
            if not may_unlink:
                raise PermissionDenied(
                    _("Only the linked login itself can unlink it, or the site's administrator.")
                )
            Player.objects.filter(pk=player.pk, user=player.user_id).update(user=None)
            messages.success(
                request, _("%(player)s is no longer linked to a login.") % {"player": player}
            )
            return redirect(player)
        if form is not None and form.is_valid():
            who = form.cleaned_data["who"]
            try:
                linked = invitations.link_login(request, player, who)
            except invitations.InvitationRefused as err:
                form.add_error("who", str(err))
            else:
                if linked:
                    text = _(
                        "%(player)s is linked to your login: “My games” shows their games."
                    ) % {"player": player}
                else:
                    # The same answer whether or not an account has that name.
                    text = _(
                        "If an account has the username or email “%(who)s”, it is asked to "
                        "accept the link to %(player)s on its invitations page."
                    ) % {"who": who, "player": player}
                messages.success(request, text)
                return redirect(player)
    context = {"player": player, "form": form, "may_unlink": may_unlink}
    return render(request, "tournaments/player_link.html", context)


@access.signed_in
def invitation_list(request: HttpRequest) -> HttpResponse:
    pending = Invitation.objects.pending_for(request.user)
    return render(request, "tournaments/invitations.html", {"invitations": pending})


@require_POST
@access.signed_in
def invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    if "accept" in request.POST:
        try:
            invitation = invitations.accept(pk, request.user)
        except invitations.InvitationRefused as err:
            messages.error(request, str(err))
            return redirect("invitations")
        if invitation.kind == Invitation.Kind.ORGANISE:
            messages.success(
                request, _("You now organise %(event)s.") % {"event": invitation.event}
            )
            return redirect(invitation.event)
        messages.success(
            request,
            _("Your login is linked to %(player)s: “My games” shows their games.")
            % {"player": invitation.player},
        )
        return redirect(invitation.player)
    invitations.decline(pk, request.user)
    messages.success(request, _("Invitation declined."))
    return redirect("invitations")


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

"""Invitations: nobody becomes an organiser of an event, or is linked to a player, without
accepting it on their invitations page.

The forms that name an account (by username or email) answer the same whether it exists or
not; only the invited account learns of the invitation (on its page, and by mail when it
has an address).
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from . import access
from .forms import find_login
from .models import Event, Invitation, Player


class InvitationRefused(Exception):
    """The invitation cannot be accepted now; the message says why."""


def _tell(user, subject: str, text: str, request) -> None:
    if not user.email:
        return
    link = request.build_absolute_uri(reverse("invitations"))
    # A failing mail server must not answer differently for an account that exists.
    send_mail(
        subject,
        f"{text}\n\n{link}\n",
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
        fail_silently=True,
    )


def _invite(request, user, **fields) -> Invitation | None:
    """A new invitation for `user`, or None when they have that one already."""
    try:
        with transaction.atomic():
            invitation, created = Invitation.objects.get_or_create(
                user=user, **fields, defaults={"invited_by": request.user}
            )
    except IntegrityError:
        # Sent twice at once: the other one stands.
        return None
    return invitation if created else None


def invite_organiser(request, event: Event, who: str) -> None:
    """Invite the account `who` names to organise `event`; nothing when there is no such
    account or it organises the event already."""
    user = find_login(who)
    if user is None or event.organisers.filter(pk=user.pk).exists():
        return
    invitation = _invite(request, user, kind=Invitation.Kind.ORGANISE, event=event)
    if invitation is not None:
        _tell(
            user,
            _("Invitation to organise %(event)s") % {"event": event},
            _("%(user)s invites you to organise %(event)s on Tenbou. Accept or decline here:")
            % {"user": request.user.get_username(), "event": event},
            request,
        )


def link_login(request, player: Player, who: str) -> bool:
    """Link `player` to the account `who` names: at once when it is the requester's own,
    not linked to another player, and the player played only in events the requester
    organises (True); otherwise by an invitation that account accepts (False, also when
    there is no such account)."""
    user = find_login(who)
    if user is not None and user == request.user:
        if (
            not user.is_superuser
            and player.seats.exclude(game__session__event__organisers=user).exists()
        ):
            # Anyone may seat a player they can see in a game of their own event: that does
            # not make the player theirs to claim.
            raise InvitationRefused(
                _(
                    "%(player)s played in events you do not organise: ask an organiser of one "
                    "of them to link your login, or the site's administrator."
                )
                % {"player": player}
            )
        with transaction.atomic():
            locked = Player.objects.select_for_update().get(pk=player.pk)
            if Player.objects.filter(user=user).exclude(pk=player.pk).exists():
                raise InvitationRefused(
                    _("Your login is linked to another player: unlink it there first.")
                )
            locked.user = user
            locked.save(update_fields=["user"])
        return True
    if user is None or player.user_id == user.pk:
        return False
    invitation = _invite(request, user, kind=Invitation.Kind.LINK, player=player)
    if invitation is not None:
        _tell(
            user,
            _("Is %(player)s you?") % {"player": player},
            _(
                "%(user)s asks to link your login to the player %(player)s on Tenbou, so that "
                "“My games” shows their games. Accept or decline here:"
            )
            % {"user": request.user.get_username(), "player": player},
            request,
        )
    return False


def accept(invitation_id: int, user) -> Invitation:
    """Accept one of `user`'s invitations: they organise the event, or the player is linked
    to their login. Raises `InvitationRefused` when it no longer can be; an invitation whose
    sender may no longer send it lapses."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update(of=("self",))
            .select_related("event", "player", "invited_by")
            .filter(pk=invitation_id, user=user)
            .first()
        )
        if invitation is None:
            raise InvitationRefused(_("This invitation is no longer there."))
        if not _still_allowed(invitation):
            invitation.delete()
            invitation = None
        elif invitation.kind == Invitation.Kind.ORGANISE:
            invitation.event.organisers.add(user)
            invitation.delete()
        else:
            _link(invitation.player_id, user)
            invitation.delete()
    if invitation is None:
        raise InvitationRefused(_("This invitation is no longer there."))
    return invitation


def _still_allowed(invitation: Invitation) -> bool:
    inviter = invitation.invited_by
    if inviter is None:
        return False
    if invitation.kind == Invitation.Kind.ORGANISE:
        return inviter.is_superuser or invitation.event.organisers.filter(pk=inviter.pk).exists()
    return access.may_link_login(inviter, invitation.player)


def _link(player_id: int, user) -> None:
    player = Player.objects.select_for_update().get(pk=player_id)
    if player.user_id is not None and player.user_id != user.pk:
        raise InvitationRefused(
            _("%(player)s is linked to another login now: ask the organiser.") % {"player": player}
        )
    if Player.objects.filter(user=user).exclude(pk=player.pk).exists():
        raise InvitationRefused(_("Your login is linked to another player: unlink it there first."))
    player.user = user
    player.save(update_fields=["user"])


def decline(invitation_id: int, user) -> bool:
    deleted, _rows = Invitation.objects.filter(pk=invitation_id, user=user).delete()
    return bool(deleted)

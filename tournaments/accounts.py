"""Logins: how a refused login is shown, which address a try is counted against, and how
often a password reset may be asked for.

django-axes counts failed logins per pair of account and address (settings.AXES_*); the
first two hooks are named there.
"""

from __future__ import annotations

import ipaddress
import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import PasswordResetRequest


def lockout_minutes() -> int:
    return max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def lockout_message() -> str:
    minutes = lockout_minutes()
    return ngettext(
        "Too many failed logins for this account from this address. Try again in "
        "%(minutes)s minute, or ask the site's administrator to unlock it.",
        "Too many failed logins for this account from this address. Try again in "
        "%(minutes)s minutes, or ask the site's administrator to unlock it.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(request, original_response=None, credentials=None):
    """The login page again, with the reason and the wait, and status 429."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username})
    return render(
        request,
        "registration/login.html",
        {"form": form, "locked_out": lockout_message(), "next": request.POST.get("next", "")},
        status=429,
    )


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or behind LOGIN_PROXY_COUNT proxies the entry of
    X-Forwarded-For that the outermost trusted proxy added (earlier entries can be forged)."""
    count = settings.LOGIN_PROXY_COUNT
    remote = request.META.get("REMOTE_ADDR", "")
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) >= count:
        return forwarded[-count]
    return remote


def site(request) -> dict:
    """What every template may need to know about the site's settings."""
    return {"open_signup": settings.OPEN_SIGNUP}


# Password resets: each request is counted per address and per email typed (whether or not
# an account uses it, so that the answer tells nothing), over the last hour.
RESET_WINDOW = timedelta(hours=1)
RESET_KEPT = timedelta(days=1)


def password_reset_allowed(request, email: str) -> bool:
    """Whether another reset mail may be sent for `email` from this request's address;
    counts the request when it may."""
    try:
        address = str(ipaddress.ip_address(client_ip(request)))
    except ValueError:
        address = None
    email = email.strip().lower()
    now = timezone.now()
    with transaction.atomic():
        PasswordResetRequest.objects.filter(requested_at__lt=now - RESET_KEPT).delete()
        recent = PasswordResetRequest.objects.filter(requested_at__gte=now - RESET_WINDOW)
        if (
            recent.filter(ip_address=address).count() >= settings.PASSWORD_RESETS_PER_ADDRESS
            or recent.filter(email=email).count() >= settings.PASSWORD_RESETS_PER_EMAIL
        ):
            return False
        PasswordResetRequest.objects.create(ip_address=address, email=email, requested_at=now)
    return True


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with the requests per address and per email bounded."""

    def form_valid(self, form):
        if not password_reset_allowed(self.request, form.cleaned_data["email"]):
            form.add_error(
                None,
                ValidationError(
                    _(
                        "Too many password resets were asked for from this address or for "
                        "this email in the last hour. Wait an hour, then ask again."
                    ),
                    code="throttled",
                ),
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)

"""Logins: how a refused login is shown and which address a try is counted against.

django-axes counts failed logins per account and per address (settings.AXES_*); these two
hooks are named there.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.utils.translation import ngettext


def lockout_minutes() -> int:
    return max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def lockout_message() -> str:
    minutes = lockout_minutes()
    return ngettext(
        "Too many failed logins for this account or from this address. Try again in "
        "%(minutes)s minute, or ask the site's administrator to unlock it.",
        "Too many failed logins for this account or from this address. Try again in "
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

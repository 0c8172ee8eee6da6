"""Web sessions that read the signed-in user with the session, in one query.

Django's database sessions take two queries for every signed-in request: the session,
then its user. Here the session row also holds the id of the user it signs in (the
documented way of extending the session model), so that loading a session joins its user
row. `AuthenticationMiddleware` then hands that user to Django's own `auth.get_user`,
which checks it exactly as it checks a user read by itself (the backend in the session,
an active account, the password hash); a user read with the session is as fresh as one
read right after it.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

from django.contrib import auth
from django.contrib.auth import SESSION_KEY
from django.contrib.auth import backends as auth_backends
from django.contrib.auth import middleware as auth_middleware
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone
from django.utils.functional import SimpleLazyObject


class SessionStore(DatabaseStore):
    """Database sessions kept in `WebSession`, each loaded with its user."""

    # The user row read with the session (None: no session, or nobody signed in).
    loaded_user = None

    @classmethod
    def get_model_class(cls):
        from .models import WebSession

        return WebSession

    def _get_session_from_db(self):
        try:
            return self.model.objects.select_related("user").get(
                session_key=self.session_key, expire_date__gt=timezone.now()
            )
        except (self.model.DoesNotExist, SuspiciousOperation) as err:
            if isinstance(err, SuspiciousOperation):
                logger = logging.getLogger(f"django.security.{type(err).__name__}")
                logger.warning(str(err))
            self._session_key = None

    def load(self):
        row = self._get_session_from_db()
        self.loaded_user = row.user if row is not None else None
        return self.decode(row.session_data) if row is not None else {}

    def create_model_instance(self, data):
        row = super().create_model_instance(data)
        row.user_id = _user_id(data.get(SESSION_KEY))
        return row


def _user_id(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# The session whose user `ModelBackend.get_user` may take: set only while
# `AuthenticationMiddleware` asks Django for the request's user.
_reading: ContextVar[SessionStore | None] = ContextVar("reading_session", default=None)


class ModelBackend(auth_backends.ModelBackend):
    """Django's model backend, taking the user read with the session when it is the one
    asked for."""

    def get_user(self, user_id):
        session = _reading.get()
        user = getattr(session, "loaded_user", None)
        if user is not None and _user_id(user_id) == user.pk:
            return user if self.user_can_authenticate(user) else None
        return super().get_user(user_id)


def _get_user(request):
    if not hasattr(request, "_cached_user"):
        token = _reading.set(getattr(request, "session", None))
        try:
            request._cached_user = auth.get_user(request)
        finally:
            _reading.reset(token)
    return request._cached_user


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, with `request.user` read through the session's own query."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _get_user(request))

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

from contextvars import ContextVar

from django.contrib import auth
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth import backends as auth_backends
from django.contrib.auth import middleware as auth_middleware
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.db import connections, router
from django.utils import timezone
from django.utils.functional import SimpleLazyObject


class SessionStore(DatabaseStore):
    """Database sessions kept in `WebSession`, each loaded with its user and the ids of
    the events that user organises."""

    # The user row read with the session (None: no session, or nobody signed in), and the
    # ids of the events they organise (None until a session with a user is loaded).
    loaded_user = None
    loaded_organised: frozenset[int] | None = None

    @classmethod
    def get_model_class(cls):
        from .models import WebSession

        return WebSession

    def load(self):
        if not self.session_key:
            self._session_key = None
            return {}
        connection = connections[router.db_for_read(self.model)]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        rows = list(
            get_user_model()
            .objects.db_manager(connection.alias)
            .raw(_session_query(connection), [self.session_key, now])
        )
        if not rows:
            self._session_key = None
            return {}
        row = rows[0]
        if row.tenbou_session_user is not None and row.pk is not None:
            self.loaded_user = row
            organised = row.tenbou_organised or ""
            self.loaded_organised = frozenset(int(i) for i in str(organised).split(",") if i)
        return self.decode(row.tenbou_session_data)

    def create_model_instance(self, data):
        row = super().create_model_instance(data)
        row.user_id = _user_id(data.get(SESSION_KEY))
        return row


# The session query of each kind of database, written once.
_SESSION_QUERIES: dict[str, str] = {}


def _session_query(connection) -> str:
    """One query for a session, its user and the ids of the events the user organises,
    written once for each kind of database: the ORM would compile the same joins and
    subquery for every request. The user's columns are the model's own, so that Django
    converts them as it does any row (`QuerySet.raw`)."""
    query = _SESSION_QUERIES.get(connection.vendor)
    if query is None:
        query = _SESSION_QUERIES[connection.vendor] = _write_session_query(connection)
    return query


def _write_session_query(connection) -> str:
    from .models import Event, WebSession

    q = connection.ops.quote_name
    users = get_user_model()._meta
    sessions = WebSession._meta
    organisers = Event.organisers.through._meta
    organiser_user = q(organisers.get_field("user").column)
    organiser_event = q(organisers.get_field("event").column)
    if connection.vendor == "postgresql":
        ids = f"string_agg(o.{organiser_event}::text, ',')"
    else:
        ids = f"group_concat(o.{organiser_event})"
    user_columns = ", ".join(f"u.{q(f.column)}" for f in users.concrete_fields)
    session_user = q(sessions.get_field("user").column)
    return (
        f"SELECT s.{q('session_data')} AS tenbou_session_data, "
        f"s.{session_user} AS tenbou_session_user, "
        f"(SELECT {ids} FROM {q(organisers.db_table)} o "
        f"WHERE o.{organiser_user} = s.{session_user}) AS tenbou_organised, "
        f"{user_columns} "
        f"FROM {q(sessions.db_table)} s "
        f"LEFT JOIN {q(users.db_table)} u ON u.{q(users.pk.column)} = s.{session_user} "
        f"WHERE s.{q('session_key')} = %s AND s.{q('expire_date')} > %s"
    )


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

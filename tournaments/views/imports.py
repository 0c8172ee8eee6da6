"""The import page: upload Tenhou and Mahjong Soul logs, check them, confirm names, import."""

from __future__ import annotations

import datetime
import secrets

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tenhou.limits import Budget

from .. import access, imports, services
from ..forms.imports import UploadForm
from ..models import WINDS, Event, PendingImport

# Logs wait this long for the confirmation, then they are thrown away.
PENDING_IMPORT_HOURS = 2
# At most this many bytes of uploads wait for one user (a long log is under 100 kB).
PENDING_IMPORT_QUOTA = 12 * 1024 * 1024


@require_http_methods(["GET", "POST"])
@access.organiser_event
def import_upload(request: HttpRequest, event: Event) -> HttpResponse:
    form = UploadForm(request.POST or None, request.FILES or None, event=event)
    if request.method == "POST" and form.is_valid():
        files = form.cleaned_data["files"]
        size = sum(upload.size for upload in files)
        if size > PENDING_IMPORT_QUOTA:
            form.add_error(
                "files",
                _("These files come to %(size)s MB; upload at most %(limit)s MB of logs at a time.")
                % {
                    "size": f"{size / 1024 / 1024:.1f}",
                    "limit": PENDING_IMPORT_QUOTA // 1024 // 1024,
                },
            )
        else:
            pending = _store_pending(request, event, form, files, size)
            return redirect("tournaments:import_preview", slug=event.slug, token=pending.token)
    context = {"event": event, "form": form, "accepted": imports.accepted_games(event)}
    return render(request, "tournaments/import_upload.html", context)


def _store_pending(request: HttpRequest, event, form: UploadForm, files, size: int):
    """Convert the uploads once and keep the results until the organiser confirms; every
    check against the event is made again then, so nothing from the browser is trusted.
    A user has one pending import: this one replaces any other."""
    budget = Budget()  # what all the files together may inflate
    rules = imports.conversion_rules(event)
    logs = [
        imports.convert_upload(upload.name, upload.read(), budget=budget, rules=rules)
        for upload in files
    ]
    spec = form.session_spec()
    now = timezone.now()
    with transaction.atomic():
        PendingImport.objects.filter(expires_at__lte=now).delete()
        PendingImport.objects.filter(user=request.user).delete()
        return PendingImport.objects.create(
            token=secrets.token_urlsafe(16),
            user=request.user,
            event=event,
            session_number=spec["number"],
            session_date=datetime.date.fromisoformat(spec["date"]),
            logs=logs,
            uploaded_bytes=size,
            expires_at=now + datetime.timedelta(hours=PENDING_IMPORT_HOURS),
        )


def _pending(request: HttpRequest, event, token: str) -> PendingImport:
    pending = PendingImport.objects.filter(
        token=token, user=request.user, event=event, expires_at__gt=timezone.now()
    ).first()
    if pending is None:
        raise Http404(_("This import has expired; upload the logs again."))
    return pending


def _checks(request: HttpRequest, event, pending: PendingImport) -> list[imports.LogCheck]:
    return imports.check_entries(event, pending.logs, user=request.user)


@require_http_methods(["GET", "POST"])
@access.organiser_event
def import_preview(request: HttpRequest, event: Event, token: str) -> HttpResponse:
    pending = _pending(request, event, token)
    checks = _checks(request, event, pending)
    errors: dict[int, str] = {}
    if request.method == "POST":
        session = None
        created = False
        done = []
        offered = access.pickable_players(request.user, event)
        for index, check in enumerate(checks):
            if not check.importable or request.POST.get(f"import-{index}") != "on":
                continue
            choices = {
                seat: request.POST.get(f"player-{index}-{seat}", "")
                for seat in range(len(check.names))
            }
            try:
                seated = imports.resolve_players(
                    check, choices, create_unknown=False, offered=offered
                )
                if session is None:
                    session, created = services.session_for_import(
                        event, pending.session_number, pending.session_date
                    )
                game = imports.import_game(
                    session,
                    check,
                    seated,
                    table_number=session.games.next_table_number(),
                    user=request.user,
                )
            except services.GameChangeRefused as err:
                errors[index] = str(err)
                continue
            done.append(game)
        if created and not done and services.drop_empty_session(session):
            # Every chosen log was refused: the new session goes again.
            session = None
        if done:
            messages.success(
                request,
                ngettext(
                    "Imported %(count)s game into %(session)s.",
                    "Imported %(count)s games into %(session)s.",
                    len(done),
                )
                % {"count": len(done), "session": session},
            )
        if not errors:
            pending.delete()
            if session is not None:
                return redirect(session.get_absolute_url())
            messages.info(request, _("Nothing was imported."))
            return redirect(event.get_absolute_url())
        checks = _checks(request, event, pending)  # imported games now show as imported
    players = list(access.pickable_players(request.user, event).order_by("display_name"))
    rows = [
        {
            "index": i,
            "check": check,
            "error": errors.get(i),
            "played_under": imports.played_under(check.game) if check.game else "",
            "seats": list(zip(WINDS, check.names, check.final_scores, strict=False)),
        }
        for i, check in enumerate(checks)
    ]
    return render(
        request,
        "tournaments/import_preview.html",
        {
            "event": event,
            "rows": rows,
            "players": players,
            "session_number": pending.session_number,
            "importable": sum(1 for c in checks if c.importable),
        },
    )

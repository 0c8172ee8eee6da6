"""The import page: upload Tenhou logs, check them, confirm names, import."""

from __future__ import annotations

import base64
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .. import imports, services
from ..access import get_event_for_organiser
from ..import_forms import UploadForm, session_for_import
from ..models import WINDS, Player

SESSION_KEY = "tenhou_imports"


@login_required
@require_http_methods(["GET", "POST"])
def import_upload(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_event_for_organiser(request, slug)
    form = UploadForm(request.POST or None, request.FILES or None, event=event)
    if request.method == "POST" and form.is_valid():
        # The files wait in the web session until the organiser confirms; every check is
        # made again then, so nothing sent back by the browser is trusted.
        token = secrets.token_urlsafe(12)
        pending = request.session.get(SESSION_KEY, {})
        pending[token] = {
            "event": event.pk,
            "session": form.session_spec(),
            "files": [
                (upload.name, base64.b64encode(upload.read()).decode("ascii"))
                for upload in form.cleaned_data["files"]
            ],
        }
        request.session[SESSION_KEY] = pending
        return redirect("tournaments:import_preview", slug=event.slug, token=token)
    return render(request, "tournaments/import_upload.html", {"event": event, "form": form})


def _pending(request: HttpRequest, event, token: str) -> dict:
    pending = request.session.get(SESSION_KEY, {}).get(token)
    if pending is None or pending["event"] != event.pk:
        raise Http404("This import has expired; upload the logs again.")
    return pending


def _checks(event, pending: dict) -> list[imports.LogCheck]:
    return imports.check_logs(
        event, [(name, base64.b64decode(data)) for name, data in pending["files"]]
    )


@login_required
@require_http_methods(["GET", "POST"])
def import_preview(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = get_event_for_organiser(request, slug)
    pending = _pending(request, event, token)
    checks = _checks(event, pending)
    errors: dict[int, str] = {}
    if request.method == "POST":
        session = None
        done = []
        for index, check in enumerate(checks):
            if not check.importable or request.POST.get(f"import-{index}") != "on":
                continue
            choices = {seat: request.POST.get(f"player-{index}-{seat}", "") for seat in range(4)}
            try:
                seated = imports.resolve_players(check, choices, create_unknown=False)
                session = session or session_for_import(event, pending["session"])
                game = imports.import_game(
                    session,
                    check,
                    seated,
                    table_number=imports.next_table_number(session),
                    user=request.user,
                )
            except services.GameChangeRefused as err:
                errors[index] = str(err)
                continue
            done.append(game)
        if done:
            messages.success(request, f"Imported {len(done)} game(s) into {session}.")
        if not errors:
            request.session[SESSION_KEY].pop(token, None)
            request.session.modified = True
            if session is not None:
                return redirect(session.get_absolute_url())
            messages.info(request, "Nothing was imported.")
            return redirect(event.get_absolute_url())
        checks = _checks(event, pending)  # imported games now show as already imported
    players = list(Player.objects.filter(active=True).order_by("display_name"))
    rows = [
        {
            "index": i,
            "check": check,
            "error": errors.get(i),
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
            "session_number": pending["session"]["number"],
            "importable": sum(1 for c in checks if c.importable),
        },
    )

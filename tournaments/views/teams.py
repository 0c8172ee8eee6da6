"""A team event's pages: its teams (and the organisers' team settings), one team with its
members and captain, the team table of every stage, and a session's line-ups (a captain
submits theirs before the deadline; others see them once it has passed)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import gettext_noop

from .. import access, exports, services
from ..forms.teams import (
    CaptainForm,
    DeadlineForm,
    LineUpForm,
    MemberForm,
    TeamCreateForm,
    TeamSettingsForm,
)
from ..models import Event, LineUp, Player, Team, TeamMember
from ..reading.teams import captain_team, lineup_visible, lineups_open, team_tables
from ..tables import TeamStandingsTable, team_standings_records
from .stages import totals_hidden

EXPORT_FORMATS = ("csv", "xlsx", "json")


def _form_errors(form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


@access.readable_event(organiser_posts=True)
def teams(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's teams; the organisers make it a team event and add teams here."""
    is_organiser = access.organises(request, event.pk)
    settings_form = TeamSettingsForm(
        initial={"team_event": event.team_event, "team_best": event.team_best}
    )
    create_form = TeamCreateForm()
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "settings":
            settings_form = TeamSettingsForm(request.POST)
            if settings_form.is_valid():
                data = settings_form.cleaned_data
                try:
                    services.set_team_settings(
                        event.pk, team_event=data["team_event"], team_best=data["team_best"]
                    )
                except services.TeamRefused as err:
                    settings_form.add_error(None, str(err))
                else:
                    messages.success(request, _("Team settings saved."))
                    return redirect("tournaments:teams", event.slug)
        elif action == "create":
            create_form = TeamCreateForm(request.POST)
            if create_form.is_valid():
                try:
                    team = services.create_team(event.pk, create_form.cleaned_data["name"])
                except services.TeamRefused as err:
                    create_form.add_error("name", str(err))
                else:
                    messages.success(request, _("Team %(name)s added.") % {"name": team.name})
                    return redirect("tournaments:team", event.slug, team.pk)
        else:
            messages.error(request, _("Choose what to change."))
    members: dict[int, list[TeamMember]] = {}
    for member in TeamMember.objects.filter(event=event).select_related("player"):
        members.setdefault(member.team_id, []).append(member)
    team_list = list(Team.objects.filter(event=event).select_related("captain"))
    for team in team_list:
        team.member_list = members.get(team.pk, [])
    context = {
        "event": event,
        "teams": team_list,
        "is_organiser": is_organiser,
        "settings_form": settings_form,
        "create_form": create_form,
        "sessions": list(event.sessions.order_by("number")) if event.team_event else [],
    }
    return render(request, "tournaments/teams.html", context)


def _team(event: Event, pk: int) -> Team:
    team = get_object_or_404(Team.objects.select_related("captain"), event=event, pk=pk)
    team.event = event
    return team


@access.readable_event(organiser_posts=True)
def team_detail(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    """One team: its members and captain; the organisers add and remove members, name the
    captain or remove the team."""
    team = _team(event, pk)
    members = list(team.members.select_related("player"))
    member_players = [m.player for m in members]
    taken = TeamMember.objects.filter(event=event).values("player_id")
    free = list(event.roster_players().exclude(pk__in=taken))
    member_form = MemberForm(players=free)
    captain_form = CaptainForm(members=member_players, initial={"captain": team.captain_id})
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "add":
                member_form = MemberForm(request.POST, players=free)
                if member_form.is_valid():
                    data = member_form.cleaned_data
                    services.add_member(team.pk, data["player"], reserve=data["reserve"])
                    messages.success(request, _("Member added."))
                    return redirect("tournaments:team", event.slug, team.pk)
                messages.error(request, _form_errors(member_form))
            elif action == "remove":
                player_id = _int(request.POST.get("player"))
                services.remove_member(team.pk, player_id)
                messages.success(request, _("Member removed."))
                return redirect("tournaments:team", event.slug, team.pk)
            elif action == "captain":
                captain_form = CaptainForm(request.POST, members=member_players)
                if captain_form.is_valid():
                    services.set_captain(team.pk, captain_form.cleaned_data["captain"])
                    messages.success(request, _("Captain saved."))
                    return redirect("tournaments:team", event.slug, team.pk)
                messages.error(request, _form_errors(captain_form))
            elif action == "delete":
                services.delete_team(team.pk)
                messages.success(request, _("Team %(name)s removed.") % {"name": team.name})
                return redirect("tournaments:teams", event.slug)
            else:
                messages.error(request, _("Choose what to change."))
        except services.TeamRefused as err:
            messages.error(request, str(err))
    context = {
        "event": event,
        "team": team,
        "members": members,
        "member_form": member_form,
        "captain_form": captain_form,
        "is_organiser": access.organises(request, event.pk),
    }
    return render(request, "tournaments/team_detail.html", context)


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise services.TeamRefused(gettext_noop("Choose a member of the team.")) from None


@access.readable_event
def team_standings(request: HttpRequest, event: Event) -> HttpResponse:
    """The team table of each stage (one for an event without stages), with its members'
    lines; exports as CSV, XLSX and JSON (`?_export=csv`)."""
    hidden = totals_hidden(request, event)
    export_format = request.GET.get("_export")
    if export_format is not None:
        if hidden:
            raise Http404(_("The organisers hide the totals for now."))
        if export_format not in EXPORT_FORMATS:
            export_format = "csv"
        table = TeamStandingsTable(team_standings_records(team_tables(event)))
        return exports.export_response(
            request,
            event,
            table,
            export_format=export_format,
            name=f"{event.slug}-teams",
            title=_("Team standings"),
        )
    context = {
        "event": event,
        "tables": [] if hidden else team_tables(event),
        "hidden": hidden,
        "export_links": [
            (f.upper(), f"{request.path}?_export={f}") for f in EXPORT_FORMATS if not hidden
        ],
    }
    return render(request, "tournaments/team_standings.html", context)


@access.readable_event(signed_in_posts=True)
def lineups(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """A session's line-ups: a captain submits their team's before the deadline; the
    organisers set the deadline. Each line-up shows to the organisers and its own captain
    at once, to everyone else once the deadline has passed."""
    session = get_object_or_404(event.sessions, number=number)
    session.event = event
    is_organiser = access.organises(request, event.pk)
    own = captain_team(request.user, event) if event.team_event else None
    now = timezone.now()
    members = (
        list(Player.objects.filter(pk__in=own.members.values("player_id")).order_by("display_name"))
        if own
        else []
    )
    current = LineUp.objects.filter(team=own, session=session).first() if own else None
    lineup_form = LineUpForm(
        members=members,
        initial={"players": list(current.players.values_list("pk", flat=True)) if current else []},
    )
    deadline_form = DeadlineForm(initial={"deadline": session.lineup_deadline})
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "deadline" and is_organiser:
            deadline_form = DeadlineForm(request.POST)
            if deadline_form.is_valid():
                try:
                    services.set_lineup_deadline(session.pk, deadline_form.cleaned_data["deadline"])
                except services.TeamRefused as err:
                    deadline_form.add_error(None, str(err))
                else:
                    messages.success(request, _("Line-up deadline saved."))
                    return redirect("tournaments:lineups", event.slug, number)
        elif action == "submit" and own is not None:
            lineup_form = LineUpForm(request.POST, members=members)
            if lineup_form.is_valid():
                try:
                    services.submit_lineup(
                        own.pk,
                        session.pk,
                        lineup_form.cleaned_data["players"],
                        user=request.user,
                        now=now,
                    )
                except services.TeamRefused as err:
                    lineup_form.add_error(None, str(err))
                else:
                    messages.success(request, _("Your line-up is saved."))
                    return redirect("tournaments:lineups", event.slug, number)
        elif not is_organiser and own is None:
            raise PermissionDenied("Only a team's captain or the organisers change line-ups.")
        else:
            messages.error(request, _("Choose what to change."))
    shown = []
    seated = session.games.exists()
    for lineup in (
        LineUp.objects.filter(session=session).select_related("team").prefetch_related("players")
    ):
        lineup.session = session
        visible = lineup_visible(
            lineup, organiser=is_organiser, own_team=own, now=now, seated=seated
        )
        shown.append(
            {
                "team": lineup.team,
                "visible": visible,
                "players": sorted(p.display_name for p in lineup.players.all()) if visible else [],
            }
        )
    context = {
        "event": event,
        "session": session,
        "is_organiser": is_organiser,
        "own": own,
        "open": lineups_open(session, now),
        "lineup_form": lineup_form,
        "deadline_form": deadline_form,
        "lineups": shown,
    }
    return render(request, "tournaments/lineups.html", context)

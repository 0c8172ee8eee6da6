"""Teams of a team event: the event's team settings, teams and their members, the
captain, a session's line-up deadline and a captain's line-up. Each write is one
transaction; a refusal stores nothing."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scoring.errors import gettext_noop

from .. import versions
from ..limits import TEAM_MEMBERS_LIMIT, TEAMS_LIMIT
from ..models import Event, LineUp, Session, Team, TeamMember
from ..wording.refusals import Refusal

TEAM_NAME_LENGTH = 60


class TeamRefused(Refusal):
    """A change to teams or line-ups the event does not allow; the message says why."""


def set_team_settings(event_id: int, *, team_event: bool, team_best: int | None) -> Event:
    """Make the event a team event (or not) and say how many members a team total counts."""
    if team_best is not None and not (1 <= team_best <= TEAM_MEMBERS_LIMIT):
        raise TeamRefused(
            gettext_noop(
                "A team total counts its best 1 to %(most)s members, or all of them (leave "
                "it empty)."
            ),
            most=TEAM_MEMBERS_LIMIT,
        )
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        event.team_event = team_event
        event.team_best = team_best
        event.save(update_fields=["team_event", "team_best"])
        versions.changed(event_id, results=True)
        return event


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name or len(name) > TEAM_NAME_LENGTH:
        raise TeamRefused(
            gettext_noop("Give the team a name of 1 to %(most)s characters."),
            most=TEAM_NAME_LENGTH,
        )
    return name


def create_team(event_id: int, name: str) -> Team:
    name = _clean_name(name)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        if not event.team_event:
            raise TeamRefused(
                gettext_noop("This is not a team event: make it one in the team settings first.")
            )
        if Team.objects.filter(event=event).count() >= TEAMS_LIMIT:
            raise TeamRefused(
                gettext_noop("An event has at most %(most)s teams."), most=TEAMS_LIMIT
            )
        if Team.objects.filter(event=event, name__iexact=name).exists():
            raise TeamRefused(
                gettext_noop("The event has a team called %(name)s already."), name=name
            )
        team = Team.objects.create(event=event, name=name)
        versions.changed(event_id, results=True)
        return team


def _locked_team(team_id: int) -> Team:
    team = Team.objects.select_related("event").get(pk=team_id)
    # The event's row is the lock: members and line-ups of its teams change one at a time.
    Event.objects.select_for_update().get(pk=team.event_id)
    return team


def add_member(team_id: int, player_id: int, *, reserve: bool = False) -> TeamMember:
    """Put a player of the event's roster in the team (as a reserve, or not)."""
    with transaction.atomic():
        team = _locked_team(team_id)
        event = team.event
        if not event.roster.filter(player_id=player_id).exists():
            raise TeamRefused(
                gettext_noop("Only players on the event's roster join a team: add them there.")
            )
        other = (
            TeamMember.objects.filter(event=event, player_id=player_id)
            .select_related("team")
            .first()
        )
        if other is not None:
            raise TeamRefused(
                gettext_noop("This player is in team %(team)s already; a player has one team."),
                team=other.team.name,
            )
        if team.members.count() >= TEAM_MEMBERS_LIMIT:
            raise TeamRefused(
                gettext_noop("A team has at most %(most)s members, reserves included."),
                most=TEAM_MEMBERS_LIMIT,
            )
        member = TeamMember.objects.create(
            team=team, event=event, player_id=player_id, reserve=reserve
        )
        versions.changed(event.pk, results=True)
        return member


def remove_member(team_id: int, player_id: int) -> None:
    with transaction.atomic():
        team = _locked_team(team_id)
        deleted, _kinds = TeamMember.objects.filter(team=team, player_id=player_id).delete()
        if not deleted:
            raise TeamRefused(gettext_noop("This player is not in the team."))
        if team.captain_id == player_id:
            team.captain = None
            team.save(update_fields=["captain"])
        for lineup in LineUp.objects.filter(team=team):
            lineup.players.remove(player_id)
        versions.changed(team.event_id, results=True)


def set_captain(team_id: int, player_id: int | None) -> Team:
    """Name a member the captain (None: no captain)."""
    with transaction.atomic():
        team = _locked_team(team_id)
        if player_id is not None and not team.members.filter(player_id=player_id).exists():
            raise TeamRefused(gettext_noop("The captain must be a member of the team."))
        team.captain_id = player_id
        team.save(update_fields=["captain"])
        versions.changed(team.event_id)
        return team


def delete_team(team_id: int) -> None:
    with transaction.atomic():
        team = _locked_team(team_id)
        team.delete()
        versions.changed(team.event_id, results=True)


def set_lineup_deadline(session_id: int, deadline: datetime.datetime | None) -> Session:
    """Captains submit their line-ups for the session until `deadline` (None: line-ups are
    closed). A session seated already takes no new deadline."""
    with transaction.atomic():
        session = Session.objects.select_for_update().select_related("event").get(pk=session_id)
        if not session.event.team_event:
            raise TeamRefused(
                gettext_noop("This is not a team event: make it one in the team settings first.")
            )
        if session.games.exists():
            raise TeamRefused(
                gettext_noop("Session %(number)s is seated already: its line-ups are closed."),
                number=session.number,
            )
        session.lineup_deadline = deadline
        session.save(update_fields=["lineup_deadline"])
        versions.changed(session.event_id)
        return session


def submit_lineup(
    team_id: int,
    session_id: int,
    player_ids: Sequence[int],
    *,
    user=None,
    now: datetime.datetime | None = None,
) -> LineUp:
    """Store the members a team sends to a session, replacing an earlier line-up; before
    the session's deadline and before it is seated only."""
    now = now or timezone.now()
    ids = list(dict.fromkeys(player_ids))
    with transaction.atomic():
        team = _locked_team(team_id)
        session = Session.objects.get(pk=session_id, event_id=team.event_id)
        if session.lineup_deadline is None:
            raise TeamRefused(
                gettext_noop(
                    "The organisers have not opened line-ups for session %(number)s: there is "
                    "no deadline yet."
                ),
                number=session.number,
            )
        if now >= session.lineup_deadline:
            raise TeamRefused(
                gettext_noop("The deadline for session %(number)s's line-ups has passed."),
                number=session.number,
            )
        if session.games.exists():
            raise TeamRefused(
                gettext_noop("Session %(number)s is seated already: its line-ups are closed."),
                number=session.number,
            )
        members = set(team.members.values_list("player_id", flat=True))
        if not ids:
            raise TeamRefused(gettext_noop("Choose at least one member to play."))
        if len(ids) > TEAM_MEMBERS_LIMIT or not set(ids) <= members:
            raise TeamRefused(gettext_noop("A line-up names members of the team only."))
        lineup, _created = LineUp.objects.update_or_create(
            team=team,
            session=session,
            defaults={"submitted_by": user, "submitted_at": now},
        )
        lineup.players.set(ids)
        versions.changed(team.event_id)
        return lineup

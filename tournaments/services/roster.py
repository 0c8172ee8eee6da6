"""Who takes part in an event, and the one rule for turning a typed name into a player."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import (
    Q,
)
from django.db.models.functions import Lower

from scoring.errors import gettext_noop

from .. import trail, versions
from ..limits import PASTE_LIMIT, ROSTER_LIMIT
from ..models import Event, GameSeat, Player, RosterEntry
from ..trail import Actor, Kind
from .errors import GameChangeRefused

# The longest display name (a suffixed new name is cut to fit).
NAME_LENGTH = Player._meta.get_field("display_name").max_length


def free_name(name: str) -> str:
    """`name`, or `name 2`, `name 3`... when another player holds the name (in any case).
    Display names are unique across the site, so a name held by a player the organiser may
    not know of gives a new player a numbered name rather than that player."""
    candidate, number = name, 1
    while Player.objects.filter(display_name__iexact=candidate).exists():
        number += 1
        tail = f" {number}"
        candidate = name[: NAME_LENGTH - len(tail)].rstrip() + tail
    return candidate


def new_player(name: str) -> Player:
    """A new player called `name`, or by a numbered name when it is taken (`free_name`)."""
    return Player.objects.create(display_name=free_name(name))


# The player fields an event file carries besides the name (`exchange`).
PLAYER_DETAILS = ("last_name", "first_name", "ema_number", "country")


def _shown_in_their_events(player_ids: Sequence[int]) -> None:
    """Every event that shows these players (on its roster or at a table) shows their new
    names and details at once: its results version is replaced after commit."""
    if not player_ids:
        return
    on_roster = RosterEntry.objects.filter(player_id__in=player_ids).values_list(
        "event_id", flat=True
    )
    seated = GameSeat.objects.filter(player_id__in=player_ids).values_list(
        "game__session__event_id", flat=True
    )
    versions.changed(set(on_roster) | set(seated), results=True)


def save_player(player: Player) -> Player:
    """Store a player's names, EMA number and country as edited; the caller checked them.
    A name or number taken meanwhile raises IntegrityError and stores nothing."""
    with transaction.atomic():
        player.save()
        _shown_in_their_events([player.pk])
    return player


def fill_player_details(details: Sequence[tuple[Player, dict]]) -> int:
    """Give each player the details (`PLAYER_DETAILS`, checked by the caller) they do not
    have yet: a field already set is kept, and an EMA number another player holds is left
    out. How many players changed. Within the caller's transaction."""
    changed = 0
    for player, values in details:
        fields = []
        for field in PLAYER_DETAILS:
            value = values.get(field, "")
            if not value or getattr(player, field):
                continue
            if field == "ema_number" and Player.objects.filter(ema_number=value).exists():
                continue
            setattr(player, field, value)
            fields.append(field)
        if fields:
            player.save(update_fields=fields)
            changed += 1
    _shown_in_their_events([player.pk for player, _values in details])
    return changed


def player_named(name: str, known=None) -> Player:
    """The player among `known` (every player if None) called exactly `name`, or a new one:
    the one rule for a typed or uploaded name. Nobody outside `known` is ever matched, and
    what happens does not tell a hidden player's name from a free one."""
    pool = Player.objects.all() if known is None else known
    player = pool.filter(display_name=name).first()
    return player if player is not None else new_player(name)


def players_by_name(names: Sequence[str], *, create: bool = False) -> list[Player]:
    """The players with these display names, in order; unknown names are created if asked,
    and otherwise refused by name."""
    found = {p.display_name: p for p in Player.objects.filter(display_name__in=names)}
    missing = [name for name in names if name not in found]
    if missing and not create:
        raise GameChangeRefused(
            gettext_noop("Unknown player(s): %(names)s."), names=", ".join(missing)
        )
    for name in missing:
        found[name] = Player.objects.create(display_name=name)
    return [found[name] for name in names]


@dataclass(frozen=True)
class RosterChange:
    added: list[Player]  # put on the roster, in the order given
    created: list[Player]  # of those, the players that were new to Tenbou
    already: list[Player]  # on the roster before: left as they were


def _room_on_roster(event: Event, adding: int) -> None:
    present = event.roster.count()
    if present + adding > ROSTER_LIMIT:
        raise GameChangeRefused(
            gettext_noop(
                "A roster holds at most %(most)s players; this one has %(present)s, so "
                "%(adding)s more do not fit. Add fewer, or take off players who never came."
            ),
            most=ROSTER_LIMIT,
            present=present,
            adding=adding,
        )


def add_to_roster(event_id: int, players: Sequence[Player]) -> RosterChange:
    """Put `players` on the event's roster; those already on it stay as they are (a
    withdrawn player on it is not brought back: see `return_to_roster`)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        on_roster = set(event.roster.values_list("player_id", flat=True))
        new = [p for p in dict.fromkeys(players) if p.pk not in on_roster]
        _room_on_roster(event, len(new))
        RosterEntry.objects.bulk_create([RosterEntry(event=event, player=p) for p in new])
        if new:
            # Who sits out of a session follows the roster.
            versions.changed(event_id)
        already = [p for p in dict.fromkeys(players) if p.pk in on_roster]
        return RosterChange(added=new, created=[], already=already)


def add_names_to_roster(
    event_id: int,
    names: Sequence[str],
    *,
    create: bool,
    known=None,
    details: dict[str, dict[str, str]] | None = None,
) -> RosterChange:
    """Put the players with these display names on the roster, matching names without
    regard to case among the `known` players (those the organiser may know of; every player
    if None); other names are created if `create` (see `new_player`), and otherwise refused
    by name, the same way whether or not a player hidden from the organiser has the name.
    `names` are already cleaned: no blanks, no repeats. `details` (name -> checked
    `PLAYER_DETAILS`) fill in what those players do not have yet (`fill_player_details`).
    All or nothing."""
    if len(names) > PASTE_LIMIT:
        raise GameChangeRefused(
            gettext_noop("Paste at most %(most)s names at a time; this list has %(count)s."),
            most=PASTE_LIMIT,
            count=len(names),
        )
    with transaction.atomic():
        found: dict[str, Player] = {}
        folded = [name.casefold() for name in names]
        # Exact names, and names equal but for case (SQLite's lower() folds ASCII only).
        pool = Player.objects.all() if known is None else known
        candidates = pool.annotate(lowered=Lower("display_name")).filter(
            Q(display_name__in=names) | Q(lowered__in=[name.lower() for name in names])
        )
        for player in sorted(candidates, key=lambda p: p.display_name not in names):
            found.setdefault(player.display_name.casefold(), player)
        missing = [name for name, key in zip(names, folded, strict=True) if key not in found]
        if missing and not create:
            raise GameChangeRefused(
                gettext_noop(
                    "No player is called %(names)s. Tick “Create players for new names” to add "
                    "them, or correct the spelling."
                ),
                names=", ".join(missing),
            )
        created = []
        for name in missing:
            player = new_player(name)
            found[name.casefold()] = player
            created.append(player)
        change = add_to_roster(event_id, [found[key] for key in folded])
        if details:
            fill_player_details(
                [(found[name.casefold()], values) for name, values in details.items()]
            )
        return RosterChange(added=change.added, created=created, already=change.already)


def withdraw_from_roster(
    event_id: int, player_id: int, session_number: int, *, actor: Actor | None = None
) -> RosterEntry:
    """Mark a player withdrawn from session (round) `session_number` on. Games already
    played stay and count. The trail keeps who and from when."""
    if session_number < 1:
        raise GameChangeRefused(
            gettext_noop("Sessions are numbered from 1: give the first session missed.")
        )
    return _set_withdrawn_from(event_id, player_id, session_number, actor=actor)


def return_to_roster(event_id: int, player_id: int, *, actor: Actor | None = None) -> RosterEntry:
    """Take back a withdrawal: the player takes part again."""
    return _set_withdrawn_from(event_id, player_id, None, actor=actor)


def _locked_entry(event_id: int, player_id: int) -> RosterEntry:
    """The player's roster entry, locked for a change; refused when they are not on it."""
    entry = (
        RosterEntry.objects.select_for_update()
        .select_related("player")
        .filter(event_id=event_id, player_id=player_id)
        .first()
    )
    if entry is None:
        raise GameChangeRefused(gettext_noop("This player is not on the roster."))
    return entry


def _set_withdrawn_from(
    event_id: int, player_id: int, session_number: int | None, *, actor: Actor | None
) -> RosterEntry:
    with transaction.atomic():
        entry = _locked_entry(event_id, player_id)
        before = entry.withdrawn_from
        entry.withdrawn_from = session_number
        entry.save(update_fields=["withdrawn_from"])
        if before != session_number:
            name = entry.player.display_name
            trail.write(
                Kind.PLAYER_RETURNED if session_number is None else Kind.PLAYER_WITHDRAWN,
                actor=actor,
                event=entry.event,
                before={"player": name, "withdrawn_from": before} if before else None,
                after={"player": name, "withdrawn_from": session_number}
                if session_number
                else {"player": name, "takes_part": True},
            )
        versions.changed(event_id)
        return entry


def set_substitute(event_id: int, player_id: int, is_substitute: bool) -> RosterEntry:
    """Move a roster player into the substitute pool, or back among the regular players."""
    with transaction.atomic():
        entry = _locked_entry(event_id, player_id)
        entry.is_substitute = is_substitute
        entry.save(update_fields=["is_substitute"])
        versions.changed(event_id)
        return entry


def remove_from_roster(event_id: int, player_id: int) -> Player:
    """Take a player off the roster who has not played in the event; one who has is
    withdrawn instead, so that their games keep their name."""
    with transaction.atomic():
        entry = _locked_entry(event_id, player_id)
        if GameSeat.objects.filter(game__session__event_id=event_id, player_id=player_id).exists():
            raise GameChangeRefused(
                gettext_noop("%(player)s has played in this event: mark them withdrawn instead."),
                player=str(entry.player),
            )
        entry.delete()
        versions.changed(event_id)
        return entry.player

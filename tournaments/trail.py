"""The trail of changes: who changed which result, when, and from what to what.

Each writer in `services` adds its entry in the same transaction as the change, so the
trail holds exactly the changes that were stored. The author is a user or a game's table
link (`Actor`); the author's name is kept as text too, so the trail still reads the same
after a user or a link is gone.

Row-history libraries (django-simple-history, django-auditlog) record rows of one model:
here one change spans several tables (a hand and its wins are replaced, later hands are
renumbered after a delete) and its author may be a table link rather than a user, so the
trail records each change once, in the words of the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import ScoringError

from .models import Event, Game, RefereeCall, TableLink, TrailEntry
from .wording import formatting

Kind = TrailEntry.Kind


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a logged-in user, or the players through a table link."""

    user: Any = None
    table_link: TableLink | None = None

    @classmethod
    def of(cls, user=None, table_link: TableLink | None = None) -> Actor:
        if user is not None and not getattr(user, "is_authenticated", False):
            user = None
        return cls(user=user, table_link=table_link)

    @property
    def label(self) -> str:
        # Stored with the entry as it is written (`TrailEntry.author`), so in one language
        # for everyone who reads the trail later: not translated.
        if self.table_link is not None:
            link = self.table_link
            return f"Table {link.game.table_number} link #{link.pk}"
        if self.user is not None:
            full = self.user.get_full_name()
            name = self.user.get_username()
            return f"{full} ({name})" if full else name
        return "Tenbou"


NOBODY = Actor()


def write(
    kind: str,
    *,
    actor: Actor | None,
    event: Event | None = None,
    game: Game | None = None,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> TrailEntry:
    actor = actor or NOBODY
    if event is None:
        event = game.session.event
    return TrailEntry.objects.create(
        event=event,
        game=game,
        session_number=game.session.number if game else None,
        table_number=game.table_number if game else None,
        hand_number=hand_number,
        kind=kind,
        user=actor.user,
        table_link=actor.table_link,
        author=actor.label[:160],
        before=before,
        after=after,
    )


# Reading the trail


def _names(game: Game | None) -> list[str]:
    if game is None:
        return []
    return [seat.player.display_name for seat in game.ordered_seats()]


def _scores(scores: list, names: list[str]) -> str:
    seats = [_("seat %(number)s") % {"number": i + 1} for i in range(4)]
    pairs = zip(names or seats, scores, strict=False)
    return ", ".join(f"{name} {formatting.points(score)}" for name, score in pairs)


def describe(value: Any, names: list[str], rules=None) -> str:
    """A trail entry's `before` or `after` in words (a hand under the event's `rules`, if
    given); empty for nothing."""
    from .wording import describe_hand, ended_by

    if not value:
        return ""
    parts = []
    if "hand" in value:
        try:
            parts.append(describe_hand(value["hand"], names, rules=rules))
        except (KeyError, IndexError, TypeError):
            parts.append(json.dumps(value["hand"], ensure_ascii=False))
    if "final_scores" in value:
        text = _scores(value["final_scores"], names)
        if value.get("leftover_sticks"):
            sticks = value["leftover_sticks"]
            text += "; " + ngettext(
                "%(count)s stick left over", "%(count)s sticks left over", sticks
            ) % {"count": sticks}
        parts.append(text)
    if "game_ended" in value:
        reason = ended_by(value["game_ended"])
        parts.append(_("game over: %(reason)s") % {"reason": reason})
    if "match_points" in value and "reason" in value:
        points = formatting.match_points(value["match_points"])
        parts.append(
            _("%(player)s %(points)s: %(reason)s")
            % {
                "player": value.get("player", _("seat")),
                "points": points,
                "reason": value["reason"],
            }
        )
    if "preset" in value:
        text = value["preset"]
        if value.get("overrides"):
            overrides = json.dumps(value["overrides"], ensure_ascii=False)
            text = _("%(preset)s with %(overrides)s") % {"preset": text, "overrides": overrides}
        parts.append(text)
        if "games_rescored" in value:
            parts.append(
                _("%(rescored)s games re-scored, %(changed)s changed, %(reopened)s reopened")
                % {
                    "rescored": value["games_rescored"],
                    "changed": value["games_changed"],
                    "reopened": value["games_reopened"],
                }
            )
    if "seats" in value:
        parts.append(
            _("table %(table)s: %(seats)s")
            % {"table": value.get("table"), "seats": ", ".join(value["seats"])}
        )
    if "locked" in value:
        parts.append(_("locked") if value["locked"] else _("unlocked"))
    if "link" in value:
        parts.append(_("link %(link)s") % {"link": value["link"]})
    if "registrant" in value:
        parts.append(value["registrant"])
    if value.get("withdrawn_from"):
        parts.append(
            _("%(player)s withdrawn from session %(session)s on")
            % {"player": value.get("player"), "session": value["withdrawn_from"]}
        )
    if value.get("takes_part"):
        parts.append(_("%(player)s takes part") % {"player": value.get("player")})
    if "call" in value:
        reasons = dict(RefereeCall.Reason.choices)
        text = str(reasons.get(value["call"], value["call"]))
        if value.get("note"):
            text = _("%(reason)s: %(note)s") % {"reason": text, "note": value["note"]}
        parts.append(text)
    if "later_hands_moved_up" in value:
        moved = value["later_hands_moved_up"]
        parts.append(
            ngettext("%(count)s later hand moved up", "%(count)s later hands moved up", moved)
            % {"count": moved}
        )
    return "; ".join(parts) if parts else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class TrailRow:
    entry: TrailEntry
    what: str
    before: str
    after: str


def trail_rows(entries, *, game: Game | None = None) -> list[TrailRow]:
    """Entries with their changes in words: all of `game`, or of several games, then
    with `game__seats__player` prefetched."""
    rows = []
    fixed = _names(game) if game is not None else None
    rules_of: dict[int, Any] = {}
    for entry in entries:
        names = fixed if fixed is not None else _names(entry.game)
        what = str(entry.get_kind_display())
        if entry.hand_number:
            what = _("%(change)s %(hand)s") % {"change": what, "hand": entry.hand_number}
        rules = _rules(entry.event_id, rules_of) if entry.hand_number else None
        before, after = describe(entry.before, names, rules), describe(entry.after, names, rules)
        rows.append(TrailRow(entry, what, before, after))
    return rows


def _rules(event_id: int, known: dict[int, Any]):
    """The rules of an event, read once per list of entries (a hand's words follow them:
    head bump, a chombo's penalty); None if they no longer resolve."""
    if event_id not in known:
        try:
            known[event_id] = Event.objects.get(pk=event_id).rules()
        except ScoringError:  # the words fall back to the plain ones
            known[event_id] = None
    return known[event_id]

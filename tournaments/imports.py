"""Importing online games from Tenhou and Mahjong Soul logs into an event.

Each log is converted by `tenhou`, which says where and how long it was played and by how
many players; a log whose platform, length or number of players is not the event's (an
East-only game in a South-game event, a Mahjong Soul game under Tenhou's rules, a
three-player game in a four-player event) is refused with the preset that would take it.
The rest, and logs that name no platform, are replayed under the event's rules: every
hand's payments and the final scores must equal what the log itself says, or the game is
not imported. Each game is stored in its
own transaction, so one bad file never touches the others.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring
import tenhou
import tenhou.limits
from scoring.errors import gettext_noop
from tenhou import TenhouGame, convert, platforms

from . import access, services
from .limits import MAX_LOG_BYTES
from .models import Event, Game, Player, Session
from .player_names import normalised, refusal, refused_character
from .wording.refusals import say

# The words of `tenhou.platforms` (which knows no Django) in the page's language:
# describe_games, describe_game and describe, by platform and length.
ACCEPTED_GAMES = {
    (platforms.TENHOU, platforms.HANCHAN): gettext_lazy("Tenhou South games"),
    (platforms.TENHOU, platforms.TONPUUSEN): gettext_lazy("Tenhou East-only games"),
    (platforms.MAHJONGSOUL, platforms.HANCHAN): gettext_lazy("Mahjong Soul South games"),
    (platforms.MAHJONGSOUL, platforms.TONPUUSEN): gettext_lazy("Mahjong Soul East-only games"),
}
ONE_GAME = {
    (platforms.TENHOU, platforms.HANCHAN): gettext_lazy("Tenhou South game"),
    (platforms.TENHOU, platforms.TONPUUSEN): gettext_lazy("Tenhou East-only game"),
    (platforms.MAHJONGSOUL, platforms.HANCHAN): gettext_lazy("Mahjong Soul South game"),
    (platforms.MAHJONGSOUL, platforms.TONPUUSEN): gettext_lazy("Mahjong Soul East-only game"),
}
PLAYED_ON = {
    (platforms.TENHOU, platforms.HANCHAN): gettext_lazy("Tenhou, South game"),
    (platforms.TENHOU, platforms.TONPUUSEN): gettext_lazy("Tenhou, East-only game"),
    (platforms.MAHJONGSOUL, platforms.HANCHAN): gettext_lazy("Mahjong Soul, South game"),
    (platforms.MAHJONGSOUL, platforms.TONPUUSEN): gettext_lazy("Mahjong Soul, East-only game"),
}
# The same for three-player (sanma) games.
SANMA_ACCEPTED_GAMES = {
    (platforms.TENHOU, platforms.HANCHAN): gettext_lazy("Tenhou three-player South games"),
    (platforms.TENHOU, platforms.TONPUUSEN): gettext_lazy("Tenhou three-player East-only games"),
    (platforms.MAHJONGSOUL, platforms.HANCHAN): gettext_lazy(
        "Mahjong Soul three-player South games"
    ),
    (platforms.MAHJONGSOUL, platforms.TONPUUSEN): gettext_lazy(
        "Mahjong Soul three-player East-only games"
    ),
}
SANMA_ONE_GAME = {
    (platforms.TENHOU, platforms.HANCHAN): gettext_lazy("Tenhou three-player South game"),
    (platforms.TENHOU, platforms.TONPUUSEN): gettext_lazy("Tenhou three-player East-only game"),
    (platforms.MAHJONGSOUL, platforms.HANCHAN): gettext_lazy(
        "Mahjong Soul three-player South game"
    ),
    (platforms.MAHJONGSOUL, platforms.TONPUUSEN): gettext_lazy(
        "Mahjong Soul three-player East-only game"
    ),
}
SANMA_PLAYED_ON = {
    (platforms.TENHOU, platforms.HANCHAN): gettext_lazy("Tenhou, three-player South game"),
    (platforms.TENHOU, platforms.TONPUUSEN): gettext_lazy("Tenhou, three-player East-only game"),
    (platforms.MAHJONGSOUL, platforms.HANCHAN): gettext_lazy(
        "Mahjong Soul, three-player South game"
    ),
    (platforms.MAHJONGSOUL, platforms.TONPUUSEN): gettext_lazy(
        "Mahjong Soul, three-player East-only game"
    ),
}


def _words(game: TenhouGame, four, three):
    return (three if game.seats == 3 else four).get((game.platform, game.length))


def played_under(game: TenhouGame) -> str:
    """`game.played_under` in the page's language: "Tenhou, South game, 鳳南喰赤"."""
    words = _words(game, PLAYED_ON, SANMA_PLAYED_ON)
    if words is None:
        return game.played_under
    if not game.ruleset:
        return str(words)
    return _("%(played_on)s, %(ruleset)s") % {"played_on": words, "ruleset": game.ruleset}


@dataclass
class NameMatch:
    """How a name in a log maps to a player: exact, a suggestion to confirm, or new."""

    name: str
    player: Player | None = None  # the exact match, if any
    suggestions: list[Player] = field(default_factory=list)
    # The log gave this name to more than one seat (a lobby's placeholder, "TPlayer1"): it
    # says nothing of who sat there, so it matches nobody and the organiser chooses.
    shared: bool = False

    @property
    def exact(self) -> bool:
        return self.player is not None


@dataclass
class LogCheck:
    """One uploaded log after conversion and checking; `problems` stop its import."""

    file_name: str
    game: TenhouGame | None = None
    problems: list[str] = field(default_factory=list)
    names: list[NameMatch] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=list)
    hand_count: int = 0
    notes: list[str] = field(default_factory=list)  # for the reader; they stop nothing
    # The preset of the log's platform and length, when the event's rules are another.
    wanted_preset: str | None = None

    @property
    def importable(self) -> bool:
        return self.game is not None and not self.problems

    @property
    def log_id(self) -> str:
        return (self.game.log_id if self.game else None) or ""


_REPEAT = re.compile(r"(.+) \((\d+)\)")


def shared_names(names: Sequence[str]) -> set[str]:
    """The names a log gave to more than one seat, as the converter made them distinct
    ("TPlayer1", "TPlayer1 (2)"): shared_names(["A", "A (2)", "B"]) == {"A", "A (2)"}."""
    shared = set()
    for name in names:
        found = _REPEAT.fullmatch(name)
        if found and found.group(1) in names:
            shared |= {name, found.group(1)}
    return shared


def match_names(names: Sequence[str], offered=None, known=None) -> list[NameMatch]:
    """Exact display-name matches among the `known` players (every player if None) first;
    otherwise close names, among the `offered` players (every active player if None), for
    the organiser to confirm. A player outside `known` is never matched, and neither is a
    name the log gave to more than one seat."""
    pool = Player.objects.all() if known is None else known
    shared = shared_names(names)
    exact = {p.display_name: p for p in pool.filter(display_name__in=names)}
    matches = []
    candidates: dict[str, Player] | None = None
    for name in names:
        if name in exact and name not in shared:
            matches.append(NameMatch(name, exact[name]))
            continue
        if candidates is None:
            pool = Player.objects.filter(active=True) if offered is None else offered
            candidates = {p.display_name: p for p in pool}
        lowered = {n.casefold(): n for n in candidates}
        close = difflib.get_close_matches(name.casefold(), list(lowered), n=3, cutoff=0.6)
        suggestions = [candidates[lowered[c]] for c in close]
        matches.append(NameMatch(name, None, suggestions, shared=name in shared))
    return matches


def convert_upload(
    file_name: str,
    data: bytes,
    *,
    budget: tenhou.limits.Budget | None = None,
    rules: Any = None,
) -> dict[str, Any]:
    """Convert one uploaded file into what waits for the confirmation: the converted game
    as plain JSON values, or the reason it could not be converted. `budget` is shared by
    the files of one upload: together they may inflate only so much. `rules` are the
    event's: a log that names no platform is converted under them."""
    entry: dict[str, Any] = {"file_name": file_name, "game": None, "problem": ""}
    if len(data) > MAX_LOG_BYTES:
        entry["problem"] = _("the file is too large to be a game log")
        return entry
    try:
        entry["game"] = convert(data, name=file_name, budget=budget, rules=rules).to_dict()
    except scoring.ScoringError as err:
        entry["problem"] = say(err)
    return entry


def check_converted(event: Event, entry: Mapping[str, Any], *, user=None) -> LogCheck:
    """Check one converted log against `event`: its names, whether this event has it
    already, and every hand under the event's rules. Nothing is stored.

    The log may be in other events too (a log id is unique within an event only); those
    are named in `notes` when `user` may read them, and otherwise not at all.
    """
    check = LogCheck(entry["file_name"])
    if entry.get("problem") or not entry.get("game"):
        check.problems.append(entry.get("problem") or _("the file could not be read"))
        return check
    game = TenhouGame.from_dict(entry["game"])
    check.game = game
    check.final_scores = list(game.final_scores)
    check.hand_count = len(game.hand_deltas)
    offered = access.pickable_players(user, event) if user is not None else None
    known = access.visible_players(user) if user is not None else None
    check.names = match_names(game.players, offered, known)
    if game.log_id:
        same = Game.objects.filter(source_id=game.log_id).select_related("session__event")
        here = same.filter(source_event=event).first()
        if here is not None:
            check.problems.append(
                _("already imported into this event as %(game)s") % {"game": here}
            )
        readable = Event.objects.visible_to(user) if user is not None else Event.objects.none()
        for other in same.exclude(source_event=event).filter(session__event__in=readable)[:3]:
            check.notes.append(_("Also imported into %(event)s.") % {"event": other.session.event})
    refusal = rules_refusal(event, game)
    if refusal:
        # Other rules would pay other amounts: a replay would only list the consequences.
        check.problems.append(refusal)
        check.wanted_preset = wanted_preset(game)
    else:
        check.problems.extend(say(d) for d in tenhou.differences(game, event.rules_spec()))
    return check


def accepted_games(event: Event) -> str | None:
    """The games whose logs `event` takes, in words ("Mahjong Soul East-only games"), or
    None when its rules are no online platform's."""
    seats = event.player_count
    presets = platforms.PLATFORM_OF_SANMA_PRESET if seats == 3 else platforms.PLATFORM_OF_PRESET
    platform = presets.get(event.rules_preset)
    if platform is None:
        return None
    try:
        length = event.rules().length.value
    except scoring.ScoringError:
        return None
    words = (SANMA_ACCEPTED_GAMES if seats == 3 else ACCEPTED_GAMES).get((platform, length))
    if words is None:
        return platforms.describe_games(platform, length, seats)
    return str(words)


def conversion_rules(event: Event) -> Any:
    """The event's rules, under which a log that names no platform is converted; None when
    they settle no game (the check then says why)."""
    try:
        event.rules()
    except scoring.ScoringError:
        return None
    return event.rules_spec()


def wanted_preset(game: TenhouGame) -> str:
    """The preset of the platform, length and players the game was played with (Tenhou's,
    for a log that names no platform)."""
    return platforms.preset_for(game.platform or platforms.TENHOU, game.length, game.seats)


def rules_refusal(event: Event, game: TenhouGame) -> str | None:
    """Why `game` cannot count under `event`'s rules, or None when they are the rules of
    the platform and length it was played under."""
    try:
        length = event.rules().length.value
    except scoring.ScoringError as err:
        return _("This event's rules cannot settle any game: %(reason)s.") % {"reason": say(err)}
    return game_refusal(game, event.rules_preset, length, seats=event.player_count)


def game_refusal(game: TenhouGame, preset: str, length: str, *, seats: int = 4) -> str | None:
    """`game.refusal(preset, length)` in the page's language, for an event whose games
    have `seats` players: a log of another number of players is refused first, whatever
    platform it names (a three-player game cannot count in a four-player event)."""
    if game.seats != seats:
        values = {"preset": preset, "wanted": wanted_preset(game)}
        if game.seats == 3:
            return (
                _(
                    "This log is of a three-player game; this event plays four-player games "
                    "(rules preset %(preset)s). Import it into a three-player event, such as "
                    "one with the %(wanted)s preset."
                )
                % values
            )
        return (
            _(
                "This log is of a four-player game; this event plays three-player games "
                "(rules preset %(preset)s). Import it into a four-player event, such as one "
                "with the %(wanted)s preset."
            )
            % values
        )
    if game.platform is None:
        return None  # no platform to hold it to: the replay under the event's rules decides
    sanma = game.seats == 3
    expected = (platforms.PLATFORM_OF_SANMA_PRESET if sanma else platforms.PLATFORM_OF_PRESET).get(
        preset
    )
    if expected == game.platform and length == game.length:
        return None
    played = _words(game, ONE_GAME, SANMA_ONE_GAME)
    takes = (SANMA_ACCEPTED_GAMES if sanma else ACCEPTED_GAMES).get((expected, length))
    if played is None or (expected is not None and takes is None):
        return game.refusal(preset, length)
    if game.ruleset:
        played = _("%(game)s (%(ruleset)s)") % {"game": played, "ruleset": game.ruleset}
    values = {"game": played, "preset": preset, "wanted": game.preset, "games": takes}
    if expected is None and sanma:
        return (
            _(
                "This log is of a %(game)s; this event plays the %(preset)s rules, not an "
                "online platform's three-player game. Import it into an event with the "
                "%(wanted)s preset."
            )
            % values
        )
    if expected is None:
        return (
            _(
                "This log is of a %(game)s; this event plays the %(preset)s rules, not an "
                "online platform's. Import it into an event with the %(wanted)s preset."
            )
            % values
        )
    return (
        _(
            "This log is of a %(game)s; this event plays %(games)s (rules preset %(preset)s). "
            "Import it into an event with the %(wanted)s preset."
        )
        % values
    )


def check_log(event: Event, file_name: str, data: bytes, *, user=None) -> LogCheck:
    """Convert and check one uploaded log; nothing is stored."""
    entry = convert_upload(file_name, data, rules=conversion_rules(event))
    return check_converted(event, entry, user=user)


def check_entries(event: Event, entries: Sequence[Mapping[str, Any]], *, user=None):
    """Check a batch of converted logs; a game that appears twice is imported once."""
    checks = []
    seen: dict[str, str] = {}
    for entry in entries:
        check = check_converted(event, entry, user=user)
        if check.log_id and check.log_id in seen:
            check.problems.append(
                _("the same game as %(file)s in this upload") % {"file": seen[check.log_id]}
            )
        elif check.log_id:
            seen[check.log_id] = check.file_name
        checks.append(check)
    return checks


def check_logs(event: Event, files: Sequence[tuple[str, bytes]], *, user=None) -> list[LogCheck]:
    """Check a batch of uploads; a game that appears twice in the batch is imported once."""
    rules = conversion_rules(event)
    entries = [convert_upload(name, data, rules=rules) for name, data in files]
    return check_entries(event, entries, user=user)


def import_game(
    session: Session,
    check: LogCheck,
    players: Sequence[Player | str],
    *,
    table_number: int,
    user=None,
) -> Game:
    """Store one checked log as a finished game of `session`, in one transaction.

    `players` gives, seat by seat, an existing player or a display name: the player
    `user` may know of with that name, or else a new one (`services.player_named`).
    """
    if not check.importable or check.game is None:
        raise services.GameChangeRefused(
            gettext_noop("%(file)s: %(problems)s"),
            file=check.file_name,
            problems="; ".join(check.problems),
        )
    for seat, player in enumerate(players, start=1):
        character = None if isinstance(player, Player) else refused_character(normalised(player))
        if character is not None:
            # The seat says which name: the name itself is not repeated in the message.
            raise services.GameChangeRefused(
                gettext_noop("%(file)s, seat %(seat)s: %(refusal)s Choose a player for that seat."),
                file=check.file_name,
                seat=seat,
                refusal=refusal(character),
            )
    known = access.visible_players(user) if user is not None else None
    with transaction.atomic():
        seated = [
            p if isinstance(p, Player) else services.player_named(normalised(p), known)
            for p in players
        ]
        if len({p.pk for p in seated}) != len(seated):
            raise services.GameChangeRefused(
                gettext_noop("%(file)s: one player is chosen for two seats"), file=check.file_name
            )
        return services.create_game_from_record(
            session,
            check.game.record,
            seated,
            table_number=table_number,
            source_id=check.log_id,
            user=user,
        )


def resolve_players(
    check: LogCheck, choices: Mapping[int, str], *, create_unknown: bool, offered=None
) -> list[Player | str]:
    """Seat by seat: the exact match, the player the organiser chose (by pk, or "new"), or
    the log's name to create. Raises `GameChangeRefused` for a name with no decision.

    A chosen player must be one of the `offered` players (every active player if None):
    the organiser's list, never a player known only from someone else's private event."""
    pool = Player.objects.filter(active=True) if offered is None else offered
    seated: list[Player | str] = []
    for seat, match in enumerate(check.names):
        choice = choices.get(seat, "")
        if choice == "new":
            seated.append(match.name)
        elif choice:
            # The choice comes from the browser: anything but a player's number is refused.
            player = (
                pool.filter(pk=int(choice)).first()
                if choice.isascii() and choice.isdigit() and len(choice) < 10
                else None
            )
            if player is None:
                raise services.GameChangeRefused(
                    gettext_noop(
                        "%(file)s: the player chosen for %(name)s is not in the list; choose "
                        "a player from the list or a new one."
                    ),
                    file=check.file_name,
                    name=repr(match.name),
                )
            seated.append(player)
        elif match.exact:
            assert match.player is not None
            seated.append(match.player)
        elif match.shared and not create_unknown:
            raise services.GameChangeRefused(
                gettext_noop(
                    "%(file)s: the log gives the name %(name)s to more than one seat; choose "
                    "the player who sat in each of them"
                ),
                file=check.file_name,
                name=repr(match.name),
            )
        elif create_unknown:
            seated.append(match.name)
        else:
            raise services.GameChangeRefused(
                gettext_noop(
                    "%(file)s: no player is called %(name)s; choose a player or create a new one"
                ),
                file=check.file_name,
                name=repr(match.name),
            )
    return seated

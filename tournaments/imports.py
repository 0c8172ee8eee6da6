"""Importing online games from Tenhou logs into an event.

Each log is converted by `tenhou`, then replayed under the event's rules;
every hand's payments and the final scores must equal what the log itself says, or the
game is not imported. Each game is stored in its own transaction, so one bad file never
touches the others.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db import transaction

import scoring
import tenhou
from tenhou import TenhouGame, convert

from . import services
from .models import Event, Game, Player, Session

# Uploads larger than this are not game logs (a long Tenhou log is well under 100 kB).
MAX_LOG_BYTES = 2 * 1024 * 1024


@dataclass
class NameMatch:
    """How a name in a log maps to a player: exact, a suggestion to confirm, or new."""

    name: str
    player: Player | None = None  # the exact match, if any
    suggestions: list[Player] = field(default_factory=list)

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

    @property
    def importable(self) -> bool:
        return self.game is not None and not self.problems

    @property
    def log_id(self) -> str:
        return (self.game.log_id if self.game else None) or ""


def match_names(names: Sequence[str]) -> list[NameMatch]:
    """Exact display-name matches first; otherwise close names for the organiser to confirm."""
    exact = {p.display_name: p for p in Player.objects.filter(display_name__in=names)}
    matches = []
    candidates: dict[str, Player] | None = None
    for name in names:
        if name in exact:
            matches.append(NameMatch(name, exact[name]))
            continue
        if candidates is None:
            candidates = {p.display_name: p for p in Player.objects.filter(active=True)}
        lowered = {n.casefold(): n for n in candidates}
        close = difflib.get_close_matches(name.casefold(), list(lowered), n=3, cutoff=0.6)
        matches.append(NameMatch(name, None, [candidates[lowered[c]] for c in close]))
    return matches


def check_log(event: Event, file_name: str, data: bytes) -> LogCheck:
    """Convert and check one uploaded log; nothing is stored."""
    check = LogCheck(file_name)
    if len(data) > MAX_LOG_BYTES:
        check.problems.append("the file is too large to be a game log")
        return check
    try:
        game = convert(data, name=file_name)
    except scoring.ScoringError as err:
        check.problems.append(str(err))
        return check
    check.game = game
    check.final_scores = list(game.final_scores)
    check.hand_count = len(game.hand_deltas)
    check.names = match_names(game.players)
    if game.log_id and Game.objects.filter(source_id=game.log_id).exists():
        existing = Game.objects.select_related("session__event").get(source_id=game.log_id)
        check.problems.append(f"already imported as {existing}")
    check.problems.extend(tenhou.differences(game, event.rules_spec()))
    return check


def check_logs(event: Event, files: Sequence[tuple[str, bytes]]) -> list[LogCheck]:
    """Check a batch of uploads; a game that appears twice in the batch is imported once."""
    checks = []
    seen: dict[str, str] = {}
    for file_name, data in files:
        check = check_log(event, file_name, data)
        if check.log_id and check.log_id in seen:
            check.problems.append(f"the same game as {seen[check.log_id]} in this upload")
        elif check.log_id:
            seen[check.log_id] = file_name
        checks.append(check)
    return checks


def import_game(
    session: Session,
    check: LogCheck,
    players: Sequence[Player | str],
    *,
    table_number: int,
    user=None,
) -> Game:
    """Store one checked log as a finished game of `session`, in one transaction.

    `players` gives, seat by seat, an existing player or a new display name to create.
    """
    if not check.importable or check.game is None:
        raise services.GameChangeRefused(f"{check.file_name}: {'; '.join(check.problems)}")
    with transaction.atomic():
        seated = [
            p if isinstance(p, Player) else Player.objects.get_or_create(display_name=p)[0]
            for p in players
        ]
        if len({p.pk for p in seated}) != 4:
            raise services.GameChangeRefused(
                f"{check.file_name}: one player is chosen for two seats"
            )
        return services.create_game_from_record(
            session,
            check.game.record,
            seated,
            table_number=table_number,
            source_id=check.log_id,
            user=user,
        )


def next_table_number(session: Session) -> int:
    last = session.games.order_by("-table_number").values_list("table_number", flat=True).first()
    return (last or 0) + 1


def resolve_players(
    check: LogCheck, choices: Mapping[int, str], *, create_unknown: bool
) -> list[Player | str]:
    """Seat by seat: the exact match, the player the organiser chose (by pk, or "new"), or
    the log's name to create. Raises `GameChangeRefused` for a name with no decision."""
    seated: list[Player | str] = []
    for seat, match in enumerate(check.names):
        choice = choices.get(seat, "")
        if choice == "new":
            seated.append(match.name)
        elif choice:
            player = Player.objects.filter(pk=choice).first()
            if player is None:
                raise services.GameChangeRefused(f"{check.file_name}: unknown player chosen")
            seated.append(player)
        elif match.exact:
            assert match.player is not None
            seated.append(match.player)
        elif create_unknown:
            seated.append(match.name)
        else:
            raise services.GameChangeRefused(
                f"{check.file_name}: no player is called {match.name!r}; "
                "choose a player or create a new one"
            )
    return seated

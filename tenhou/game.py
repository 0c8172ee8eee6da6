"""What every log reader produces: the converted game and the pieces both formats share."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scoring.errors import ScoringError, gettext_noop
from scoring.rules import resolve_rules

from . import platforms

TENTH = Decimal("0.1")

LOG_ID = platforms.TENHOU_ID
LOG_IDS = (platforms.TENHOU_ID, platforms.MAHJONGSOUL_ID)


@dataclass(frozen=True)
class TenhouGame:
    """One converted game, from Tenhou or Mahjong Soul: the record, and the log's own
    figures to check it by.

    `hand_deltas` are the log's point changes per hand in the engine's convention (each
    seat's whole change, riichi sticks put out and collected included); `final_scores`
    and `match_points` are the log's final result, as the log wrote it (Mahjong Soul's
    are its own ranking points). `platform` ("tenhou" or "mahjongsoul") and `length`
    ("hanchan" or "tonpuusen") say where and how long the game was played; `ruleset` is
    the log's own rule name. `platform` is None for a log that names no platform (a game
    converted to the format from elsewhere, such as a league's): such a game counts under
    whatever rules it is imported under, and the replay alone decides.
    """

    record: dict[str, Any]
    log_id: str | None
    players: list[str]
    hand_deltas: list[list[int]]
    final_scores: list[int]
    match_points: list[Decimal]
    ruleset: str
    platform: str | None = platforms.TENHOU
    length: str = platforms.HANCHAN
    seats: int = 4  # 3 for a three-player game (sanma)

    @property
    def preset(self) -> str:
        """The rule preset of the platform and length the game was played under (for a
        log that names no platform, the preset its record was converted under)."""
        if self.platform is None:
            return _preset({"record": self.record})
        return platforms.preset_for(self.platform, self.length, self.seats)

    @property
    def played_under(self) -> str:
        """The platform and length in words, then the log's own rule name.

        >>> from tenhou import convert_file
        >>> convert_file("tests/data/tenhou/2019021004gm-00a9-0000-e2f6516d.xml").played_under
        'Tenhou, South game, 鳳南喰赤'
        """
        if self.platform is None:
            words = f"{platforms.UNNAMED}, {platforms.LENGTH_NAMES[self.length]}"
        else:
            words = platforms.describe(self.platform, self.length, self.seats)
        return f"{words}, {self.ruleset}" if self.ruleset else words

    def refusal(self, preset: str, length: str) -> str | None:
        """Why this game cannot be counted under rules built on `preset` that play
        `length` (an event's), or None when they are the rules it was played under.

        Only its own platform's preset (with any overrides) settles a game as it was
        played; a log of another platform or length is refused before any replay.

        >>> from tenhou import convert_file
        >>> game = convert_file("tests/data/tenhou/2019021004gm-00a9-0000-e2f6516d.json")
        >>> game.refusal("tenhou", "hanchan") is None
        True
        >>> game.refusal("mahjongsoul-east", "tonpuusen")
        'This log is of a Tenhou South game (鳳南喰赤); this event plays ... the tenhou preset.'
        """
        if self.platform is None:
            return None  # no platform to hold it to: the replay under `preset` decides
        if self.seats == 3:
            return self._sanma_refusal(preset, length)
        expected = platforms.PLATFORM_OF_PRESET.get(preset)
        if expected == self.platform and length == self.length:
            return None
        game = platforms.describe_game(self.platform, self.length)
        if self.ruleset:
            game += f" ({self.ruleset})"
        if expected is None:
            event = f"the {preset} rules, not an online platform's"
        else:
            event = f"{platforms.describe_games(expected, length)} (rules preset {preset})"
        return (
            f"This log is of a {game}; this event plays {event}. "
            f"Import it into an event with the {self.preset} preset."
        )

    def _sanma_refusal(self, preset: str, length: str) -> str | None:
        """`refusal` for a three-player game: only its platform's three-player preset."""
        expected = platforms.PLATFORM_OF_SANMA_PRESET.get(preset)
        if expected == self.platform and length == self.length:
            return None
        game = platforms.describe_game(self.platform, self.length, 3)
        if self.ruleset:
            game += f" ({self.ruleset})"
        if expected is None:
            event = f"the {preset} rules, not an online platform's three-player game"
        else:
            event = f"{platforms.describe_games(expected, length, 3)} (rules preset {preset})"
        return (
            f"This log is of a {game}; this event plays {event}. "
            f"Import it into an event with the {self.preset} preset."
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values, to keep a converted game (for example until an import is
        confirmed) without converting the log again; `from_dict` reads it back."""
        return {
            "record": self.record,
            "log_id": self.log_id,
            "players": self.players,
            "hand_deltas": self.hand_deltas,
            "final_scores": self.final_scores,
            "match_points": [str(p) for p in self.match_points],
            "ruleset": self.ruleset,
            "platform": self.platform,
            "length": self.length,
            "seats": self.seats,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TenhouGame:
        return cls(
            record=data["record"],
            log_id=data["log_id"],
            players=list(data["players"]),
            hand_deltas=[list(d) for d in data["hand_deltas"]],
            final_scores=list(data["final_scores"]),
            match_points=[Decimal(p) for p in data["match_points"]],
            ruleset=data["ruleset"],
            # Kept before platforms were told apart: the record's preset says them.
            platform=(
                data["platform"]
                if "platform" in data
                else platforms.PLATFORM_OF_PRESET[_preset(data)]
            ),
            length=data.get("length") or platforms.LENGTH_OF_PRESET[_preset(data)],
            seats=data.get("seats", 4),
        )


def _preset(data: dict[str, Any]) -> str:
    rules = data["record"]["rules"]
    preset = rules if isinstance(rules, str) else rules["preset"]
    if not isinstance(rules, str) and rules.get("overrides", {}).get("length") == "tonpuusen":
        return platforms.PRESETS[(platforms.PLATFORM_OF_PRESET[preset], platforms.TONPUUSEN)]
    return preset


def record_rules(
    platform: str | None,
    length: str,
    final_scores: list[int],
    match_points: list[Decimal],
    rules: Any = None,
    seats: int = 4,
) -> Any:
    """The record's `rules`: `rules` when given (a record's `rules` value: the event's, or
    the command line's `--rules`), else the preset of the platform and length, with what
    this log shows to differ.

    Older Tenhou logs wrote whole match points: scores were rounded to thousands before
    uma. Only a score off the thousands proves it (uma and oka are whole numbers). Mahjong
    Soul's figures are its ranking points, which prove nothing of the kind. A log that
    names no platform and comes without rules gets Tenhou's preset of its length, the
    format's own, as these logs had before platforms were told apart.
    """
    if rules is not None:
        resolve_rules(rules)  # refuse an unknown preset or option here, not at the replay
        return rules
    if platform is None:
        return platforms.preset_for(platforms.TENHOU, length, seats)
    preset = platforms.preset_for(platform, length, seats)
    if (
        platform == platforms.TENHOU
        and all(p == p.to_integral_value() for p in match_points)
        and any(s % 1000 for s in final_scores)
    ):
        return {"preset": preset, "overrides": {"rounding": "thousands"}}
    return preset


def distinct_names(names: list[str]) -> list[str]:
    """The players' names with each repeat made distinct, as a record needs them: a
    tournament lobby may seat two players under one placeholder name.

    >>> distinct_names(["TPlayer1", "TPlayer1", "Aki", "TPlayer1"])
    ['TPlayer1', 'TPlayer1 (2)', 'Aki', 'TPlayer1 (3)']
    """
    taken = set(names)
    seen: set[str] = set()
    out = []
    for name in names:
        if name in seen:
            number = 2
            while f"{name} ({number})" in taken:
                number += 1
            name = f"{name} ({number})"
            taken.add(name)
        seen.add(name)
        out.append(name)
    return out


def log_id_from_name(name: str) -> str | None:
    """The Tenhou or Mahjong Soul log id in a file name or URL, if there is one.

    >>> log_id_from_name("https://tenhou.net/0/?log=2019021004gm-00a9-0000-e2f6516d&tw=2")
    '2019021004gm-00a9-0000-e2f6516d'
    >>> log_id_from_name("?paipu=240612-6c1d9a4e-3b7f-4d21-8e5a-0f2c9b7d3e11_a12345678")
    '240612-6c1d9a4e-3b7f-4d21-8e5a-0f2c9b7d3e11'
    """
    for pattern in LOG_IDS:
        found = pattern.search(name or "")
        if found:
            return found.group(0)
    return None


def log_id_from_ref(ref: Any) -> str | None:
    """The JSON's `ref` when it is a well-formed log id (Tenhou's, or the game id of
    Mahjong Soul), else None (anything else in it is not trusted as an id).

    >>> log_id_from_ref("2019021004gm-00a9-0000-e2f6516d"), log_id_from_ref("mine")
    ('2019021004gm-00a9-0000-e2f6516d', None)
    >>> log_id_from_ref("240612-6c1d9a4e-3b7f-4d21-8e5a-0f2c9b7d3e11")
    '240612-6c1d9a4e-3b7f-4d21-8e5a-0f2c9b7d3e11'
    """
    if not isinstance(ref, str):
        return None
    return ref if any(pattern.fullmatch(ref) for pattern in LOG_IDS) else None


def match_points_of(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(TENTH)


def win_dict(
    winner: int,
    loser: int | None,
    *,
    han: int,
    fu: int | None,
    yakuman: int,
    pao: int | None,
    yaku: list[str],
    dora: int,
    is_open: bool,
) -> dict[str, Any]:
    win: dict[str, Any] = {"winner": winner}
    if loser is not None:
        win["loser"] = loser
    if yakuman:
        win["yakuman"] = yakuman
    else:
        win["han"] = han
        # From 5 han the fu no longer change the payment; the JSON does not even show them.
        if han <= 4:
            win["fu"] = fu
    if pao is not None:
        win["pao"] = pao
    win["yaku"] = yaku
    win["dora"] = dora
    win["open"] = is_open
    return win


def wins_hand(wins: list[dict[str, Any]], riichi: list[int], number: int) -> dict[str, Any]:
    tsumo = [w for w in wins if "loser" not in w]
    if tsumo and len(wins) > 1:
        raise ScoringError(
            gettext_noop("a tsumo cannot share the hand with other wins"), hand=number
        )
    if len({w.get("loser") for w in wins}) > 1:
        raise ScoringError(
            gettext_noop("the wins of one hand have different discarders"), hand=number
        )
    return {"result": "tsumo" if tsumo else "ron", "riichi": riichi, "wins": wins}


def seats_of(names: list[Any]) -> int:
    """3 when the log names three players (a fourth, empty name included), else 4.

    >>> seats_of(["A", "B", "C", ""]), seats_of(["A", "B", "C"]), seats_of(["A", "B", "C", "D"])
    (3, 3, 4)
    """
    if len(names) == 3 or (len(names) == 4 and names[3] == ""):
        return 3
    return 4

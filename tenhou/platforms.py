"""Where and how long a logged game was played: Tenhou or Mahjong Soul, South or East-only.

The tenhou.net/6 JSON says it in its rule name (`rule.disp`): Tenhou writes its short rule
name ("鳳南喰赤": room, length, open tanyao, red fives), the Mahjong Soul converters write the
room and then the length ("玉の間南喰赤", "友人戦東喰赤", "大会戦南喰赤"). An mjlog says the
length in the game-type bits of `<GO type>`. Each platform and length has its rule preset.

>>> from_rule_name("鳳東喰赤")
('tenhou', 'tonpuusen')
>>> from_rule_name("王座の間南喰赤")
('mahjongsoul', 'hanchan')
>>> preset_for("mahjongsoul", "tonpuusen")
'mahjongsoul-east'
>>> describe("tenhou", "hanchan")
'Tenhou, South game'
"""

from __future__ import annotations

import re

from scoring.errors import Phrase, ScoringError, gettext_noop

TENHOU = "tenhou"
MAHJONGSOUL = "mahjongsoul"
HANCHAN = "hanchan"
TONPUUSEN = "tonpuusen"

PLATFORM_NAMES = {TENHOU: "Tenhou", MAHJONGSOUL: "Mahjong Soul"}
LENGTH_NAMES = {HANCHAN: "South game", TONPUUSEN: "East-only game"}
# A log that names no platform (a game converted to the format from elsewhere).
UNNAMED = "Platform not named"

# The rule preset of each platform and length, and back.
PRESETS = {
    (TENHOU, HANCHAN): "tenhou",
    (TENHOU, TONPUUSEN): "tenhou-east",
    (MAHJONGSOUL, HANCHAN): "mahjongsoul",
    (MAHJONGSOUL, TONPUUSEN): "mahjongsoul-east",
}
PLATFORM_OF_PRESET = {preset: platform for (platform, _), preset in PRESETS.items()}
LENGTH_OF_PRESET = {preset: length for (_, length), preset in PRESETS.items()}
# The same for three-player games (sanma), which both platforms play in both lengths.
SANMA_PRESETS = {
    (TENHOU, HANCHAN): "tenhou-sanma",
    (TENHOU, TONPUUSEN): "tenhou-sanma-east",
    (MAHJONGSOUL, HANCHAN): "mahjongsoul-sanma",
    (MAHJONGSOUL, TONPUUSEN): "mahjongsoul-sanma-east",
}
PLATFORM_OF_SANMA_PRESET = {preset: platform for (platform, _), preset in SANMA_PRESETS.items()}

# Tenhou: an optional 三 (three players), the room (般 上 特 鳳), then 東 or 南.
_TENHOU_RULE = re.compile(r"三?([般上特鳳技若])([東南])")
# Mahjong Soul: a room, in Japanese (as the converters write it by default), Chinese or
# English, then the length.
_MAHJONGSOUL_ROOMS = (
    "の間", "之间", "友人戦", "大会戦", "友人场", "比赛场",
    "Room", "Friendly", "Tournament", "Casual",
)  # fmt: skip
_EAST = ("東", "东", "East")
_SOUTH = ("南", "South")

TENHOU_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}")
MAHJONGSOUL_ID = re.compile(r"\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def from_rule_name(disp: str, ref: str = "") -> tuple[str, str]:
    """(platform, length) from the JSON's rule name, with the log id to tell a rule name
    that names no room.

    >>> from_rule_name("友人戦東喰赤")
    ('mahjongsoul', 'tonpuusen')
    >>> from_rule_name("般南喰赤", "2019021004gm-00a9-0000-e2f6516d")
    ('tenhou', 'hanchan')
    """
    platform = platform_of(disp, ref)
    if platform is None:
        raise ScoringError(
            gettext_noop(
                "the log does not say where it was played: its rule name %(name)s is neither "
                "Tenhou's nor a Mahjong Soul room"
            ),
            name=repr(disp),
        )
    return platform, length_of(disp, platform)


def platform_of(disp: str, ref: str = "") -> str | None:
    """The platform a rule name (or, failing that, a log id) names; None when neither
    names one (a game converted to the format from elsewhere, such as a league's).

    >>> platform_of("玉の間南喰赤"), platform_of("Mリーグ 2023")
    ('mahjongsoul', None)
    """
    if any(room in disp for room in _MAHJONGSOUL_ROOMS):
        return MAHJONGSOUL
    if _TENHOU_RULE.match(disp) or TENHOU_ID.fullmatch(ref):
        return TENHOU
    if MAHJONGSOUL_ID.fullmatch(ref):
        return MAHJONGSOUL
    return None


def length_of(disp: str, platform: str | None) -> str:
    """East-only or South game, from the rule name.

    >>> length_of("三鳳東喰赤", TENHOU), length_of("玉の間三人南", MAHJONGSOUL)
    ('tonpuusen', 'hanchan')
    """
    found = _TENHOU_RULE.match(disp) if platform == TENHOU else None
    if found:
        return TONPUUSEN if found.group(2) == "東" else HANCHAN
    # The room names hold neither 東 nor 南, so the first of them is the length.
    east = min((disp.find(w) for w in _EAST if w in disp), default=-1)
    south = min((disp.find(w) for w in _SOUTH if w in disp), default=-1)
    if east < 0 and south < 0:
        what = (
            Phrase(gettext_noop("its rule name %(name)s names neither"), name=repr(disp))
            if disp
            else Phrase(gettext_noop("its rule name is empty"))
        )
        raise ScoringError(
            gettext_noop(
                "the log does not say whether it was an East-only or a South game: %(what)s"
            ),
            what=what,
        )
    if south < 0 or 0 <= east < south:
        return TONPUUSEN
    return HANCHAN


def from_game_type(flags: int) -> tuple[str, str]:
    """(platform, length) from an mjlog's `<GO type>` bits: bit 3 set is a South game.

    >>> from_game_type(169), from_game_type(161)
    (('tenhou', 'hanchan'), ('tenhou', 'tonpuusen'))
    """
    return TENHOU, HANCHAN if flags & 0x08 else TONPUUSEN


def seats_of_game_type(flags: int) -> int:
    """3 when an mjlog's `<GO type>` has the three-player bit (bit 4), else 4.

    >>> seats_of_game_type(169), seats_of_game_type(169 | 0x10)
    (4, 3)
    """
    return 3 if flags & 0x10 else 4


def preset_for(platform: str, length: str, seats: int = 4) -> str:
    return (SANMA_PRESETS if seats == 3 else PRESETS)[(platform, length)]


def _length_words(length: str, seats: int) -> str:
    return LENGTH_NAMES[length] if seats == 4 else f"three-player {LENGTH_NAMES[length]}"


def describe(platform: str, length: str, seats: int = 4) -> str:
    """A platform and length in words, for the line that says where a game was played.

    >>> describe("tenhou", "hanchan", 3)
    'Tenhou, three-player South game'
    """
    return f"{PLATFORM_NAMES[platform]}, {_length_words(length, seats)}"


def describe_game(platform: str, length: str, seats: int = 4) -> str:
    """A game of `platform` and `length` in words.

    >>> describe_game("mahjongsoul", "tonpuusen")
    'Mahjong Soul East-only game'
    """
    return f"{PLATFORM_NAMES[platform]} {_length_words(length, seats)}"


def describe_games(platform: str, length: str, seats: int = 4) -> str:
    return describe_game(platform, length, seats) + "s"

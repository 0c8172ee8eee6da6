"""Importing three-player (sanma) logs: into a three-player event of the log's platform and
length, every payment checked against the log; refused, with the reason, by a four-player
event (and a four-player log by a three-player event); a log that names no platform under
the event's own rules; two seats under one placeholder name, each chosen by the organiser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

import scoring
from tenhou import TenhouGame, convert_file, platforms
from tournaments import imports, services
from tournaments.models import Game, Player

from .test_online_imports import JADE, make_event, run_command, upload, words

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"
TENHOU_SANMA = DATA / "tenhou-sanma" / "2024070112gm-00b9-0000-3a5c7e11.json"
TENHOU_SANMA_XML = TENHOU_SANMA.with_suffix(".xml")
SOUL_SANMA = DATA / "mahjongsoul-sanma" / "240715-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d.json"


def import_checked(event, check, choices=None, *, create=True):
    players = imports.resolve_players(check, choices or {}, create_unknown=create)
    return imports.import_game(event.sessions.get(), check, players, table_number=1)


@pytest.mark.parametrize(
    "preset, path",
    [
        ("tenhou-sanma", TENHOU_SANMA),
        ("tenhou-sanma", TENHOU_SANMA_XML),
        ("mahjongsoul-sanma", SOUL_SANMA),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else v,
)
def test_each_three_player_log_imports_into_a_three_player_event_paying_as_the_log(
    organiser, preset, path
):
    event = make_event(organiser, "sanma", preset)
    check = imports.check_log(event, path.name, path.read_bytes())
    assert check.problems == [] and check.importable
    assert len(check.names) == 3
    game = import_checked(event, check)
    expected = convert_file(path)
    seats = game.ordered_seats()
    assert game.status == Game.Status.FINISHED
    assert [s.seat for s in seats] == [0, 1, 2]
    assert [s.score for s in seats] == expected.final_scores
    ranked = sorted(expected.final_scores, reverse=True)
    assert [s.placement for s in seats] == [ranked.index(s.score) + 1 for s in seats]
    assert [s.player.display_name for s in seats] == expected.players
    assert game.hands.count() == len(expected.hand_deltas)
    # What is stored replays, under the event's rules, to the log's every payment.
    result = scoring.replay(scoring.parse_record(game.to_record()))
    assert [list(hand.deltas) for hand in result.hands] == expected.hand_deltas


def test_a_three_player_log_with_an_altered_payment_is_refused_naming_the_hand(organiser):
    event = make_event(organiser, "sanma", "mahjongsoul-sanma")
    doc = json.loads(SOUL_SANMA.read_text(encoding="utf-8"))
    # Hand 2: seat 2 tsumos, 1,400 from seat 0. Claim 1,500 was paid instead.
    doc["log"][1][16][1] = [-1500, -2700, 4200, 0]
    doc["log"][2][1] = [33500, 32300, 39200, 0]
    check = imports.check_log(event, "altered.json", json.dumps(doc).encode())
    assert not check.importable
    assert any(p.startswith("hand 2: the engine pays") for p in check.problems)
    with pytest.raises(services.GameChangeRefused, match="hand 2"):
        imports.import_game(event.sessions.get(), check, ["A", "B", "C"], table_number=1)
    assert not Game.objects.exists() and not Player.objects.exists()


def test_a_three_player_log_is_refused_by_a_four_player_event_with_the_preset_it_needs(
    organiser,
):
    event = make_event(organiser, "four", "tenhou")
    check = imports.check_log(event, TENHOU_SANMA.name, TENHOU_SANMA.read_bytes())
    assert check.problems == [
        "This log is of a three-player game; this event plays four-player games (rules preset "
        "tenhou). Import it into a three-player event, such as one with the tenhou-sanma preset."
    ]
    assert check.wanted_preset == "tenhou-sanma"
    with pytest.raises(services.GameChangeRefused, match="three-player game"):
        imports.import_game(event.sessions.get(), check, ["A", "B", "C"], table_number=1)
    with translation.override("ja"):
        japanese = imports.check_log(event, TENHOU_SANMA.name, TENHOU_SANMA.read_bytes())
    assert japanese.problems[0].startswith("この牌譜は三人麻雀の対局です")
    assert not Game.objects.exists()


def test_a_four_player_log_is_refused_by_a_three_player_event(organiser):
    event = make_event(organiser, "three", "mahjongsoul-sanma")
    check = imports.check_log(event, JADE.name, JADE.read_bytes())
    assert check.problems == [
        "This log is of a four-player game; this event plays three-player games (rules preset "
        "mahjongsoul-sanma). Import it into a four-player event, such as one with the "
        "mahjongsoul preset."
    ]
    assert check.wanted_preset == "mahjongsoul"
    assert not Game.objects.exists()


def test_a_three_player_log_of_another_platform_or_length_is_refused_in_words(organiser):
    soul = make_event(organiser, "soul-three", "mahjongsoul-sanma")
    check = imports.check_log(soul, TENHOU_SANMA.name, TENHOU_SANMA.read_bytes())
    assert check.problems == [
        "This log is of a Tenhou three-player South game (三鳳南喰赤); this event plays Mahjong "
        "Soul three-player South games (rules preset mahjongsoul-sanma). Import it into an "
        "event with the tenhou-sanma preset."
    ]
    east = make_event(organiser, "east-three", "tenhou-sanma-east")
    check = imports.check_log(east, TENHOU_SANMA.name, TENHOU_SANMA.read_bytes())
    assert "this event plays Tenhou three-player East-only games" in check.problems[0]
    with translation.override("ja"):
        check = imports.check_log(east, TENHOU_SANMA.name, TENHOU_SANMA.read_bytes())
    assert "天鳳の三人麻雀東風戦" in check.problems[0]


def test_the_app_words_a_three_player_refusal_as_the_converter_does_in_english():
    for platform, length in platforms.SANMA_PRESETS:
        game = TenhouGame(
            {}, None, [], [], [], [], "三鳳南喰赤", platform=platform, length=length, seats=3
        )
        assert imports.played_under(game) == game.played_under
        for preset in platforms.SANMA_PRESETS.values():
            for event_length in (platforms.HANCHAN, platforms.TONPUUSEN):
                expected = game.refusal(preset, event_length)
                assert imports.game_refusal(game, preset, event_length, seats=3) == expected


def unnamed(path: Path) -> bytes:
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["rule"]["disp"] = "三麻リーグ 第3節"
    doc["ref"] = "league-3"
    return json.dumps(doc, ensure_ascii=False).encode()


def test_a_three_player_log_that_names_no_platform_imports_under_the_events_rules(organiser):
    event = make_event(organiser, "league", "mahjongsoul-sanma")
    check = imports.check_log(event, "league.json", unnamed(SOUL_SANMA))
    assert check.game.platform is None and check.game.seats == 3
    assert check.game.record["rules"] == "mahjongsoul-sanma"
    assert check.problems == []
    game = import_checked(event, check)
    assert [s.score for s in game.ordered_seats()] == check.game.final_scores
    # Under rules that pay otherwise, the replay refuses it hand by hand.
    other = make_event(organiser, "other", "mahjongsoul-sanma", noten_total=3000)
    refused = imports.check_log(other, "league.json", unnamed(SOUL_SANMA))
    assert refused.problems[0].startswith("hand 3: the engine pays")
    # And a four-player event refuses it for its three players.
    four = make_event(organiser, "four", "mahjongsoul")
    refused = imports.check_log(four, "league.json", unnamed(SOUL_SANMA))
    assert refused.problems[0].startswith("This log is of a three-player game")
    assert refused.wanted_preset == "tenhou-sanma"


def placeholder_log() -> bytes:
    doc = json.loads(SOUL_SANMA.read_text(encoding="utf-8"))
    doc["name"][:2] = ["TPlayer1", "TPlayer1"]
    return json.dumps(doc, ensure_ascii=False).encode()


def test_two_seats_under_one_placeholder_name_get_distinct_names_and_match_nobody(organiser):
    event = make_event(organiser, "cup", "mahjongsoul-sanma")
    earlier = Player.objects.create(display_name="TPlayer1")
    check = imports.check_log(event, "cup.json", placeholder_log())
    assert [m.name for m in check.names] == ["TPlayer1", "TPlayer1 (2)", "Sora"]
    assert [m.shared for m in check.names] == [True, True, False]
    assert check.names[0].player is None and earlier in check.names[0].suggestions
    with pytest.raises(services.GameChangeRefused, match="'TPlayer1' to more than one seat"):
        imports.resolve_players(check, {1: "new"}, create_unknown=False)
    aki, ben = (Player.objects.create(display_name=n) for n in ("Aki", "Ben"))
    chosen = {0: str(ben.pk), 1: str(aki.pk), 2: "new"}
    game = import_checked(event, check, chosen, create=False)
    assert [s.player for s in game.ordered_seats()][:2] == [ben, aki]


def test_the_preview_page_lets_the_organiser_choose_each_placeholder_seat(client, organiser):
    event = make_event(organiser, "cup", "mahjongsoul-sanma")
    client.force_login(organiser)
    Player.objects.create(display_name="TPlayer1")
    path = DATA / "cup.json"
    response = client.post(
        reverse("tournaments:import_upload", args=[event.slug]),
        {"files": [_named_upload(placeholder_log(), "cup.json")], "session": "1"},
    )
    assert response.status_code == 302, path
    preview = response["Location"]
    page = client.get(preview)
    html = words(page)
    assert "Mahjong Soul, three-player South game, 玉の間三人南喰赤" in html
    assert html.count("The log gives this name to more than one seat") == 2
    for seat in (0, 1):
        select = html.split(f'name="player-0-{seat}"')[1].split("</select>")[0]
        assert '<option value="">Choose…</option>' in select and " selected" not in select
    assert 'name="player-0-3"' not in html  # three seats, no fourth
    # Without a choice for the shared seats, nothing is imported and the reason is shown.
    refused = client.post(preview, {"import-0": "on", "player-0-2": "new"})
    assert refused.status_code == 200
    assert "the log gives the name &#x27;TPlayer1&#x27; to more than one seat" in words(refused)
    assert not Game.objects.exists()
    # With one, each seat gets the player chosen.
    aki, ben = (Player.objects.create(display_name=n) for n in ("Aki", "Ben"))
    event.roster.create(player=aki)
    event.roster.create(player=ben)
    done = client.post(
        preview,
        {
            "import-0": "on",
            "player-0-0": str(aki.pk),
            "player-0-1": str(ben.pk),
            "player-0-2": "new",
        },
    )
    assert done.status_code == 302
    game = Game.objects.get()
    assert [s.player.display_name for s in game.ordered_seats()] == ["Aki", "Ben", "Sora"]


def _named_upload(content: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="application/json")


def test_the_upload_page_says_a_three_player_event_takes_three_player_logs(client, organiser):
    client.force_login(organiser)
    event = make_event(organiser, "soul", "tenhou-sanma-east")
    html = words(client.get(reverse("tournaments:import_upload", args=[event.slug])))
    assert "This event takes logs of <strong>Tenhou three-player East-only games</strong>" in html
    club = make_event(organiser, "club", "ari-ari", players=3, uma=[20, 0, -20], honba_value=200)
    html = words(client.get(reverse("tournaments:import_upload", args=[club.slug])))
    assert "not an online platform's three-player rules" in html
    assert "Choose the tenhou-sanma, tenhou-sanma-east" in html
    # A three-player log that names no platform still counts under the club's own rules.
    check = imports.check_log(club, "league.json", unnamed(SOUL_SANMA))
    assert check.problems and "three-player" not in check.problems[0]


def test_the_import_page_imports_a_three_player_log_and_refuses_a_four_player_one(
    client, organiser
):
    event = make_event(organiser, "sanma", "mahjongsoul-sanma")
    client.force_login(organiser)
    page = upload(client, event, SOUL_SANMA, JADE)
    html = words(page)
    assert "1 of 2 logs can be imported" in html
    assert "This log is of a four-player game; this event plays three-player games" in html
    preview = page.request["PATH_INFO"]
    choices = {f"player-0-{seat}": "new" for seat in range(3)}
    response = client.post(preview, {"import-0": "on", "import-1": "on", **choices})
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s.score for s in game.ordered_seats()] == [84800, 30300, -10100]


def test_the_command_imports_a_three_player_log_and_refuses_it_in_a_four_player_event(
    organiser,
):
    make_event(organiser, "sanma", "tenhou-sanma")
    code, out = run_command("sanma", "1", str(TENHOU_SANMA_XML), "--create-players")
    assert code == 0, out
    assert out[-1] == "1 imported, 0 failed."
    make_event(organiser, "four", "tenhou")
    code, out = run_command("four", "1", str(TENHOU_SANMA), "--create-players")
    assert code == 1
    assert "This log is of a three-player game" in out[0]

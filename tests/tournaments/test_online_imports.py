"""Importing Mahjong Soul and East-only logs: the platform and length shown, and a log whose
rules differ from the event's refused with the reason, on the page and by the command."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournaments import imports, services
from tournaments.models import Event, Game, Hand, Player, Session, Win

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"
JADE = DATA / "mahjongsoul" / "240612-6c1d9a4e-3b7f-4d21-8e5a-0f2c9b7d3e11.json"
GOLD_EAST = DATA / "mahjongsoul" / "240613-2a9e5d71-84c0-4f3b-b6d2-7e1a0c5f9b42.json"
TENHOU_EAST = DATA / "tenhou-east" / "2024061221gm-0021-0000-5e1f0c3a.json"
TENHOU_EAST_XML = TENHOU_EAST.with_suffix(".xml")
TENHOU_SOUTH = DATA / "tenhou" / "2019123123gm-00a9-0000-f4386d0e.json"


def make_event(organiser, slug: str, preset: str, **overrides) -> Event:
    event = Event.objects.create(
        name=slug.replace("-", " ").title(),
        slug=slug,
        starts_on=datetime.date(2026, 1, 1),
        rules_preset=preset,
        rules_overrides=overrides,
    )
    event.organisers.add(organiser)
    Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 8))
    return event


def run_command(*args) -> tuple[int, list[str]]:
    from io import StringIO

    out = StringIO()
    try:
        call_command("import_logs", *args, stdout=out)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue().splitlines()


# --- the check ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset, path",
    [
        ("mahjongsoul", JADE),
        ("mahjongsoul-east", GOLD_EAST),
        ("tenhou-east", TENHOU_EAST),
        ("tenhou-east", TENHOU_EAST_XML),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else v,
)
def test_each_log_imports_into_an_event_of_its_own_preset(organiser, preset, path):
    event = make_event(organiser, "league", preset)
    check = imports.check_log(event, path.name, path.read_bytes())
    assert check.problems == []
    players = imports.resolve_players(check, {}, create_unknown=True)
    game = imports.import_game(event.sessions.get(), check, players, table_number=1)
    assert game.status == Game.Status.FINISHED
    assert [s.score for s in game.ordered_seats()] == check.game.final_scores
    assert game.hands.count() == len(check.game.hand_deltas)


@pytest.mark.parametrize(
    "preset, path, refusal",
    [
        (
            "tenhou",
            TENHOU_EAST,
            "This log is of a Tenhou East-only game (特東喰赤); this event plays Tenhou "
            "South games (rules preset tenhou). Import it into an event with the "
            "tenhou-east preset.",
        ),
        (
            "tenhou",
            JADE,
            "This log is of a Mahjong Soul South game (玉の間南喰赤); this event plays "
            "Tenhou South games (rules preset tenhou). Import it into an event with the "
            "mahjongsoul preset.",
        ),
        (
            "mahjongsoul",
            GOLD_EAST,
            "This log is of a Mahjong Soul East-only game (金の間東喰赤); this event plays "
            "Mahjong Soul South games (rules preset mahjongsoul). Import it into an event "
            "with the mahjongsoul-east preset.",
        ),
        (
            "mahjongsoul-east",
            TENHOU_SOUTH,
            "This log is of a Tenhou South game (鳳南喰赤); this event plays Mahjong Soul "
            "East-only games (rules preset mahjongsoul-east). Import it into an event with "
            "the tenhou preset.",
        ),
        (
            "ema",
            TENHOU_SOUTH,
            "This log is of a Tenhou South game (鳳南喰赤); this event plays the ema rules, "
            "not an online platform's. Import it into an event with the tenhou preset.",
        ),
    ],
    ids=["east-log-south-event", "mahjongsoul-log-tenhou-event", "east-mahjongsoul-log",
         "tenhou-log-mahjongsoul-event", "tenhou-log-ema-event"],
)  # fmt: skip
def test_a_log_whose_rules_differ_from_the_events_is_refused_with_the_reason(
    organiser, preset, path, refusal
):
    event = make_event(organiser, "league", preset)
    check = imports.check_log(event, path.name, path.read_bytes())
    assert check.problems == [refusal]
    assert not check.importable
    assert check.wanted_preset == check.game.preset


def test_an_imported_mahjong_soul_game_stores_its_yaku_as_the_tables_keys(organiser):
    event = make_event(organiser, "soul", "mahjongsoul")
    check = imports.check_log(event, JADE.name, JADE.read_bytes())
    players = imports.resolve_players(check, {}, create_unknown=True)
    game = imports.import_game(event.sessions.get(), check, players, table_number=1)
    wins = Win.objects.filter(hand__game=game).order_by("hand__number")
    assert [(w.yaku, w.yakuman, w.han) for w in wins] == [
        (["round_wind", "seat_wind"], None, 2),
        (["suuankou_tanki"], 2, None),
    ]


def test_a_length_set_by_an_override_counts_as_the_events_length(organiser):
    event = make_event(organiser, "league", "tenhou", length="tonpuusen")
    check = imports.check_log(event, TENHOU_EAST.name, TENHOU_EAST.read_bytes())
    assert check.problems == []
    event = make_event(organiser, "south", "tenhou-east", length="hanchan")
    check = imports.check_log(event, TENHOU_EAST.name, TENHOU_EAST.read_bytes())
    assert "this event plays Tenhou South games" in check.problems[0]


# --- the command -------------------------------------------------------------------------


def test_the_command_says_where_and_how_long_each_log_was_played(organiser):
    make_event(organiser, "soul", "mahjongsoul-east")
    code, out = run_command("soul", "1", str(GOLD_EAST), "--create-players")
    assert code == 0
    assert out[0] == (
        f"imported {GOLD_EAST} (Mahjong Soul, East-only game, 金の間東喰赤): table 1, "
        "Kaede 20,900, りん 31,900, Sora 29,100, Mizuki 18,100"
    )
    assert out[-1] == "1 imported, 0 failed."


def test_the_command_refuses_a_log_of_other_rules_and_stores_nothing_of_it(organiser):
    make_event(organiser, "south", "tenhou")
    code, out = run_command(
        "south", "1", str(TENHOU_EAST), str(JADE), str(TENHOU_SOUTH), "--create-players"
    )
    assert code == 1
    assert out[0] == (
        f"FAILED {TENHOU_EAST} (Tenhou, East-only game, 特東喰赤): This log is of a Tenhou "
        "East-only game (特東喰赤); this event plays Tenhou South games (rules preset "
        "tenhou). Import it into an event with the tenhou-east preset."
    )
    assert out[1].startswith(f"FAILED {JADE} (Mahjong Soul, South game, 玉の間南喰赤): ")
    assert "Import it into an event with the mahjongsoul preset." in out[1]
    assert out[2].startswith(f"imported {TENHOU_SOUTH} (Tenhou, South game, 鳳南喰赤)")
    assert out[3] == "1 imported, 2 failed."
    game = Game.objects.get()
    assert game.source_id == "2019123123gm-00a9-0000-f4386d0e"
    assert Hand.objects.filter(game=game).count() == Hand.objects.count()
    names = set(Player.objects.values_list("display_name", flat=True))
    assert not names & {"あおい", "Botan", "Kaede", "Mizuki"}


# --- the page ----------------------------------------------------------------------------


def words(response) -> str:
    """The page's HTML with every run of white space made one space."""
    return " ".join(response.content.decode().split())


def upload(client, event, *paths):
    files = [open(path, "rb") for path in paths]
    try:
        response = client.post(
            reverse("tournaments:import_upload", args=[event.slug]),
            {"files": files, "session": "1"},
        )
    finally:
        for fh in files:
            fh.close()
    assert response.status_code == 302, response.content.decode()[:2000]
    return client.get(response["Location"])


def test_the_import_page_shows_platform_and_length_and_refuses_other_rules(client, organiser):
    event = make_event(organiser, "soul", "mahjongsoul-east")
    client.force_login(organiser)
    page = upload(client, event, GOLD_EAST, JADE)
    html = words(page)
    assert page.status_code == 200
    assert "1 of 2 logs can be imported" in html
    assert "Mahjong Soul, East-only game, 金の間東喰赤 · 5 hands" in html
    assert "Mahjong Soul, South game, 玉の間南喰赤 · 4 hands" in html
    assert (
        "This log is of a Mahjong Soul South game (玉の間南喰赤); this event plays Mahjong "
        "Soul East-only games (rules preset mahjongsoul-east)."
    ) in html
    rules_url = reverse("tournaments:event_rules", args=[event.slug]) + "?preset=mahjongsoul"
    create_url = reverse("tournaments:event_create") + "?rules_preset=mahjongsoul"
    assert f'href="{rules_url}"' in html and f'href="{create_url}"' in html
    # Import what can be imported: the refused log offers no checkbox and stays out.
    preview = page.request["PATH_INFO"]
    choices = {f"player-{log}-{seat}": "new" for log in (0, 1) for seat in range(4)}
    response = client.post(preview, {"import-0": "on", "import-1": "on", **choices})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.source_id == "240613-2a9e5d71-84c0-4f3b-b6d2-7e1a0c5f9b42"
    assert [s.score for s in game.ordered_seats()] == [20900, 31900, 29100, 18100]


def test_the_upload_page_says_which_logs_the_event_takes(client, organiser):
    client.force_login(organiser)
    event = make_event(organiser, "soul", "mahjongsoul-east")
    html = words(client.get(reverse("tournaments:import_upload", args=[event.slug])))
    assert "This event takes logs of <strong>Mahjong Soul East-only games</strong>" in html
    event = make_event(organiser, "club", "ari-ari")
    html = words(client.get(reverse("tournaments:import_upload", args=[event.slug])))
    assert "are not an online platform's, so every log will be refused" in html


def test_the_event_forms_offer_the_preset_a_refused_log_needs(client, organiser):
    client.force_login(organiser)
    event = make_event(organiser, "south", "tenhou")
    html = client.get(reverse("tournaments:event_create") + "?rules_preset=tenhou-east")
    assert '<option value="tenhou-east" selected>' in html.content.decode()
    html = client.get(reverse("tournaments:event_rules", args=[event.slug]) + "?preset=tenhou-east")
    assert '<option value="tenhou-east" selected>' in html.content.decode()
    html = client.get(reverse("tournaments:event_create") + "?rules_preset=nonsense")
    assert '<option value="ari-ari" selected>' in html.content.decode()
    # Choosing it on the rules page lets the refused log in.
    response = client.post(
        reverse("tournaments:event_rules", args=[event.slug]), {"preset": "tenhou-east"}
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.rules_preset == "tenhou-east"
    check = imports.check_log(event, TENHOU_EAST.name, TENHOU_EAST.read_bytes())
    assert check.problems == []


def test_the_command_leaves_no_empty_session_when_every_log_is_refused(organiser):
    event = make_event(organiser, "south-only", "tenhou")
    code, out = run_command("south-only", "2", str(TENHOU_EAST), str(JADE), "--create-players")
    assert code == 1
    assert out[-1] == "0 imported, 2 failed."
    assert not any(line.startswith("Created session") for line in out)
    assert list(event.sessions.values_list("number", flat=True)) == [1]
    assert not Game.objects.exists() and not Player.objects.exists()


def test_the_command_removes_the_session_it_created_when_the_import_then_fails(
    organiser, monkeypatch
):
    event = make_event(organiser, "soul-two", "mahjongsoul-east")

    def refuse(*args, **kwargs):
        raise services.GameChangeRefused("someone imported it meanwhile")

    monkeypatch.setattr(imports, "import_game", refuse)
    code, out = run_command("soul-two", "2", str(GOLD_EAST), "--create-players")
    assert code == 1
    assert out == [
        f"FAILED {GOLD_EAST} (Mahjong Soul, East-only game, 金の間東喰赤): someone imported "
        "it meanwhile",
        "0 imported, 1 failed.",
    ]
    assert list(event.sessions.values_list("number", flat=True)) == [1]
    assert not Player.objects.exists()


def test_an_empty_session_is_removed_but_one_with_a_game_is_kept(organiser):
    event = make_event(organiser, "soul-three", "mahjongsoul-east")
    run_command("soul-three", "1", str(GOLD_EAST), "--create-players")
    kept = event.sessions.get(number=1)
    assert services.drop_empty_session(kept) is False
    empty = Session.objects.create(event=event, number=2, date=datetime.date(2026, 1, 15))
    assert services.drop_empty_session(empty) is True
    assert list(event.sessions.values_list("number", flat=True)) == [1]


# --- logs the converter used to refuse ---------------------------------------------------


def test_a_log_that_names_no_platform_imports_under_the_events_own_rules(organiser):
    import json

    doc = json.loads(JADE.read_text(encoding="utf-8"))
    doc["rule"]["disp"] = "Mリーグ 2024 第12節"
    doc["ref"] = "game-1"
    event = make_event(organiser, "league", "mahjongsoul")
    check = imports.check_log(event, "league.json", json.dumps(doc).encode())
    assert check.problems == []
    players = imports.resolve_players(check, {}, create_unknown=True)
    game = imports.import_game(event.sessions.get(), check, players, table_number=1)
    assert game.status == Game.Status.FINISHED
    assert [s.score for s in game.ordered_seats()] == check.game.final_scores


def test_a_log_whose_two_players_share_a_placeholder_name_imports_with_distinct_names(organiser):
    import json

    doc = json.loads(GOLD_EAST.read_text(encoding="utf-8"))
    doc["name"][:2] = ["TPlayer1", "TPlayer1"]
    event = make_event(organiser, "cup", "mahjongsoul-east")
    check = imports.check_log(event, "cup.json", json.dumps(doc).encode())
    assert check.problems == []
    assert [m.name for m in check.names][:2] == ["TPlayer1", "TPlayer1 (2)"]
    players = imports.resolve_players(check, {}, create_unknown=True)
    game = imports.import_game(event.sessions.get(), check, players, table_number=1)
    names = [s.player.display_name for s in game.ordered_seats()]
    assert names[:2] == ["TPlayer1", "TPlayer1 (2)"]
    assert Player.objects.filter(display_name__startswith="TPlayer1").count() == 2

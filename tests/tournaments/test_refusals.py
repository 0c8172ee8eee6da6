"""Refusals say what to do next, in a full sentence, in the page's language.

Every refusal of the engine, the log converter, the hand judge, the seating planner and the
services is a marked template with named parameters: the catalogue translates each template,
the pages show the translation, and `str(err)` of the pure packages stays the English that
the command line prints.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

import seating
from scoring import parse_record
from scoring.counting import count_yaku
from scoring.errors import ScoringError, TemplateError
from scoring.payouts import check_value
from tenhou import convert_file, differences
from tournaments import exchange, services
from tournaments.models import Game, Hand
from tournaments.views.games import refusal
from tournaments.wording.refusals import say

ROOT = settings.BASE_DIR
CATALOGUE = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
# Where refusals are worded: the pure packages and the app.
SOURCES = ("scoring", "tenhou", "handvalue", "seating", "tournaments")
# The exceptions that carry a template (the app's own are `Refusal`s).
REFUSALS = {
    "ScoringError", "SeatingError", "TemplateError", "GameChangeRefused", "HandAlreadyEntered",
    "RestoreRefused", "ImportRefused", "SheetRefused", "Phrase",
}  # fmt: skip
PLACEHOLDER = re.compile(r"%\(\w+\)s")
JA = {"accept-language": "ja"}
SAMPLE_LOG = ROOT / "tests" / "data" / "tenhou" / "2019123123gm-00a9-0000-f4386d0e.json"
DRAW_NOTEN = {"result": "draw", "riichi": [], "tenpai": []}
# Chie (seat 2) deals in a dealer yakuman: 48,000 takes her below zero, and the game ends.
BUST_FORM = {"result": "ron", "riichi": [], "w1_winner": "0", "loser": "2", "w1_han": "Y"}
BUST_FORM["w1_yakuman"] = "1"


def python_files(root: Path = ROOT, packages=SOURCES):
    for package in packages:
        yield from sorted((root / package).rglob("*.py"))


def calls(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            yield name, node


def templates(root: Path = ROOT, packages=SOURCES) -> dict[str, str]:
    """Every template marked with `gettext_noop` in the sources, with where it is."""
    found = {}
    for path in python_files(root, packages):
        for name, node in calls(path):
            if name == "gettext_noop":
                (argument,) = node.args
                assert isinstance(argument, ast.Constant), f"{path}:{node.lineno}"
                found.setdefault(argument.value, f"{path.relative_to(root)}:{node.lineno}")
    return found


def untranslated(found: dict[str, str]) -> list[str]:
    """The templates without Japanese, or whose Japanese changes their placeholders."""
    catalogue = {e.msgid: e.msgstr for e in polib.pofile(str(CATALOGUE)) if not e.msgctxt}
    problems = []
    with translation.override("ja"):
        for template, where in found.items():
            words = catalogue.get(template, "")
            if not words.strip():
                problems.append(f"{where}: no Japanese for {template!r}")
            elif sorted(PLACEHOLDER.findall(words)) != sorted(PLACEHOLDER.findall(template)):
                problems.append(f"{where}: other placeholders in {words!r}")
            elif translation.gettext(template) != words:
                problems.append(f"{where}: not compiled (make translations): {template!r}")
    return problems


def bare_sentences(root: Path = ROOT, packages=SOURCES) -> list[str]:
    """Refusals raised with an English sentence instead of a marked template."""
    bare = []
    for path in python_files(root, packages):
        for name, node in calls(path):
            if name in REFUSALS and node.args:
                argument = node.args[0]
                if isinstance(argument, ast.JoinedStr) or (
                    isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                ):
                    bare.append(f"{path.relative_to(root)}:{node.lineno}")
    return bare


def url(name, game, *args):
    return reverse(f"tournaments:{name}", args=[game.pk, *args])


def refused(call, *args, **kwargs) -> TemplateError:
    with pytest.raises(TemplateError) as err:
        call(*args, **kwargs)
    return err.value


# Every template, read from the sources


def test_every_refusal_template_has_japanese_with_the_same_placeholders():
    found = templates()
    assert len(found) > 300  # the walk reaches every package
    assert "%(han)s han is not a win: a hand needs at least 1 han" in found
    assert "This game is finished. Reopen it to change its hands." in found
    assert untranslated(found) == []


def test_no_refusal_is_written_as_a_bare_sentence():
    assert bare_sentences() == []


def test_a_reworded_or_bare_refusal_is_found(tmp_path):
    package = tmp_path / "scoring"
    package.mkdir()
    (package / "x.py").write_text(
        'raise ScoringError(f"{han} han is never a win")\n'
        'raise ScoringError(gettext_noop("%(han)s han is never a win"), han=han)\n'
        'raise ScoringError(gettext_noop("final scores are multiples of 100"))\n'
    )
    assert bare_sentences(tmp_path, ["scoring"]) == ["scoring/x.py:1"]
    assert untranslated(templates(tmp_path, ["scoring"])) == [
        "scoring/x.py:2: no Japanese for '%(han)s han is never a win'"
    ]


# The engine's English stays as it was


def test_the_engines_words_are_the_english_sentences_the_command_line_prints():
    with translation.override("en"):
        ron = refused(check_value, han=1, fu=20, yakuman=None, tsumo=False).in_hand(7)
        assert str(ron) == "hand 7: 1 han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo"
        assert say(ron) == str(ron)
        seven_pairs = refused(check_value, han=1, fu=25, yakuman=None, tsumo=True)
        assert str(seven_pairs) == (
            "1 han 25 fu is not a possible tsumo: seven pairs is at least 2 han"
        )
        clash = refused(count_yaku, ["tanyao", "chanta"], is_open=False)
        assert str(clash) == (
            "Tanyao and Chanta cannot be in one hand (tanyao has no honours or terminals, and "
            "the other needs them)."
        )
        assert say(clash) == str(clash)
        three = refused(count_yaku, ["tenhou", "chiihou", "renhou"], is_open=False)
        assert str(three).startswith("Tenhou and Chiihou and Renhou cannot both count")
        assert say(three) == str(three)
        plan = refused(seating.make_plan, range(3), 1)
        assert str(plan) == "A plan needs at least 4 players; there are 3."
        assert isinstance(plan, TemplateError) and say(plan) == str(plan)


# Real refusals, in Japanese


def test_words_inside_a_refusal_are_translated_too():
    with translation.override("ja"):
        clash = refused(count_yaku, ["tanyao", "chanta"], is_open=False)
        assert say(clash) == (
            "断幺九と混全帯幺九は1つの手で複合しません"
            "（断幺九には幺九牌がなく、もう一方の役には幺九牌が必要です）。"
        )
        three = refused(count_yaku, ["tenhou", "chiihou", "renhou"], is_open=False)
        assert (
            say(three) == "天和と地和と人和は複合しません。手にある方だけをチェックしてください。"
        )
        ron_only = refused(count_yaku, ["haitei", "tanyao"], is_open=False, tsumo=False)
        assert say(ron_only) == "海底摸月はツモでしか和了できません。チェックを外してください。"
        way = refused(check_value, han=1, fu=25, yakuman=None, tsumo=True)
        assert "ツモ" in say(way) and "tsumo" not in say(way)
        plan = refused(seating.make_plan, range(3), 1)
        assert say(plan) == "組み合わせには最低4人が必要です（現在3人）。"


def test_an_engine_record_error_reads_in_japanese():
    win = {"winner": 1, "loser": 2, "han": 3, "fu": 30}
    record = {"format": "tenbou-game/1", "rules": "ari-ari", "players": ["A", "B", "C", "D"],
              "hands": [{"result": "tsumo", "riichi": [], "wins": [win]}]}  # fmt: skip
    err = refused(services.replay_record, record)
    assert isinstance(refused(parse_record, {**record, "format": "x"}), ScoringError)
    assert str(err.args[0]) == "hand 1: a tsumo has no loser: remove 'loser' or record a ron"
    with translation.override("ja"):
        assert str(err) == (
            "第1局：ツモに放銃者はいません。「loser」を外すか、ロンとして記録してください"
        )
    with translation.override("en"):
        assert str(err) == "hand 1: a tsumo has no loser: remove 'loser' or record a ron"


def test_a_difference_from_a_log_reads_in_japanese():
    game = convert_file(SAMPLE_LOG)
    game.hand_deltas[0][0] += 100
    (first, *_rest) = differences(game)
    assert first.startswith("hand 1: the engine pays ")
    with translation.override("ja"):
        assert say(first).startswith("第1局：この大会のルールでは点の移動が")


@pytest.mark.django_db
def test_an_impossible_tick_is_refused_in_japanese_with_the_yakus_japanese_name(
    organiser_client, game
):
    data = {"number": "1", "result": "tsumo", "riichi": [], "w1_winner": "1", "w1_hand": "open",
            "w1_yaku": ["pinfu", "tanyao"], "action": "preview"}  # fmt: skip
    response = organiser_client.post(url("hand_new", game), data, headers=JA)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ben: 平和は門前限定です。チェックを外すか、門前を選んでください。" in html
    assert not game.hands.exists()


@pytest.mark.django_db
def test_an_edit_that_ends_the_game_early_is_explained_in_japanese(organiser_client, game):
    for number in range(1, 4):
        services.add_hand(game.pk, number, DRAW_NOTEN)
    edit = reverse("tournaments:hand_edit", args=[game.pk, 1])

    response = organiser_client.post(edit, {**BUST_FORM, "action": "preview"}, headers=JA)

    html = response.content.decode()
    assert (
        "この変更では第2局の前に対局が終了します（持ち点が0点未満のプレイヤーが出た（トビ））。"
        in html
    )
    assert [h.result for h in Hand.objects.filter(game=game)] == ["draw"] * 3


@pytest.mark.django_db
def test_a_service_refusal_reads_in_japanese_on_the_page(organiser_client, game):
    response = organiser_client.post(
        url("hand_undo", game), {"number": "1"}, headers=JA, follow=True
    )
    assert (
        "第1局はすでに取り消されています。ほかには何も取り消していません。局の一覧を確認してください。"
        in response.content.decode()
    )
    english = organiser_client.get(url("hand_undo", game), follow=True)
    assert "There is no hand to undo." in english.content.decode()


@pytest.mark.django_db
def test_a_finished_game_refuses_a_new_hand_in_japanese(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    err = refused(services.add_hand, game.pk, 1, DRAW_NOTEN)
    with translation.override("ja"):
        assert str(err) == "この対局は終了しています。局を変更するには対局を再開してください。"
    assert not game.hands.exists()


@pytest.mark.django_db
def test_the_tile_picker_refuses_a_tile_in_japanese(organiser_client, game):
    query = {"tiles": "234m456p678s22m58z", "win": "2m", "calls": "", "tsumo": "1",
             "seat_wind": "1", "round_wind": "0"}  # fmt: skip
    answer = organiser_client.get(url("hand_count", game), query, headers=JA).json()
    assert answer == {"ok": False, "error": "8zという牌はありません。字牌は1zから7zです。"}
    english = organiser_client.get(url("hand_count", game), query).json()
    assert english["error"] == "8z is not a tile: honours are 1z to 7z."


@pytest.mark.django_db
def test_an_unreadable_log_is_refused_in_japanese_on_the_import_page(client, organiser, event):
    client.force_login(organiser)
    response = client.post(
        f"/events/{event.slug}/import/",
        {"files": [SimpleUploadedFile("notes.txt", b"not a log")], "session": "0",
         "new_session_date": "2026-02-01"},
        headers=JA,
    )  # fmt: skip
    assert response.status_code == 302
    preview = client.get(response.url, headers=JA).content.decode()
    assert "天鳳の牌譜ではありません：JSONでもXMLでもありません" in preview
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_an_event_export_refusal_reads_in_japanese(event):
    err = refused(exchange.import_event, event, {"format": "tenbou-event/0"})
    with translation.override("ja"):
        assert str(err) == "Tenbouの大会エクスポートではありません（形式tenbou-event/1）。"


# Sentences that say what to do


@pytest.mark.django_db
def test_an_edit_that_ends_the_game_early_says_which_hands_to_delete(organiser_client, game):
    for number in range(1, 4):
        services.add_hand(game.pk, number, DRAW_NOTEN)
    edit = reverse("tournaments:hand_edit", args=[game.pk, 1])

    response = organiser_client.post(edit, {**BUST_FORM, "action": "preview"})

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "With this change the game would be over before hand 2 (a player went below zero). "
        "Delete hand 2 and the hands after it first (from the last one), then make this "
        "change again; or change it so that the game goes on."
    ) in html
    assert [h.result for h in Hand.objects.filter(game=game)] == ["draw"] * 3


def test_an_engine_refusal_starts_with_a_capital_and_says_what_to_do():
    err = services.GameChangeRefused(
        refused(check_value, han=1, fu=20, yakuman=None, tsumo=False).in_hand(7)
    )
    with translation.override("en"):
        text = refusal(err)

    assert text == (
        "Hand 7: 1 han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo. Correct it, "
        "then check it again."
    )

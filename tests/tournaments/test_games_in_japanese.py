"""The game pages, hand entry, final scores and table links in Japanese; the same pages read
as before in English. The engine's refusals (English, from pure Python) are shown in the
page's language from their templates (tournaments.refusals)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

import handvalue
from scoring.counting import count_yaku
from scoring.errors import ScoringError
from scoring.payouts import check_value
from scoring.rules import Rules
from tournaments import services
from tournaments.forms.hands import HandForm, seat_labels
from tournaments.views.games import refusal
from tournaments.wording.refusals import say

JA = {"accept-language": "ja"}
NAMES = ["Aki", "Ben", "Chie", "Dan"]
# Latin words of these pages that must not be left on a Japanese page (names and codes of
# the test game are not among them).
ENGLISH = re.compile(
    r">\s*(Enter hand|Hands|Result|Penalties|Table link|Changes|Undo hand|Save|Cancel|"
    r"What happened|Dealt in|Count it for me|Preview hand|Final scores|Back to the game)\b"
)


def url(name, game, *args):
    return reverse(f"tournaments:{name}", args=[game.pk, *args])


def japanese(text: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) is not None


def visible(html: str) -> str:
    """The page's text without scripts' and tags' insides, for looking for left-over English."""
    return re.sub(r"<[^>]+>", " ", html)


# The engine's words


def engine_refusals() -> list[ScoringError]:
    """Refusals the engine and the hand judge really raise, one of each kind the hand form
    and the tile picker meet."""
    found = []

    def refused(call, *args, **kwargs):
        with pytest.raises(ScoringError) as err:
            call(*args, **kwargs)
        found.append(err.value)

    refused(check_value, han=1, fu=20, yakuman=None, tsumo=False)
    refused(check_value, han=1, fu=20, yakuman=None, tsumo=True)
    refused(check_value, han=1, fu=25, yakuman=None, tsumo=False)
    refused(check_value, han=2, fu=25, yakuman=None, tsumo=True)
    refused(check_value, han=3, fu=None, yakuman=None, tsumo=False)
    refused(check_value, han=3, fu=35, yakuman=None, tsumo=False)
    refused(check_value, han=None, fu=None, yakuman=None, tsumo=False)
    refused(check_value, han=None, fu=None, yakuman=9, tsumo=False)
    refused(count_yaku, ["riichi", "pinfu"], is_open=True)
    refused(count_yaku, ["chiitoitsu", "toitoi"], is_open=False)
    refused(count_yaku, ["ippatsu", "tanyao"], is_open=False)
    refused(count_yaku, ["houtei", "tanyao"], is_open=False, tsumo=True)
    refused(count_yaku, ["tanyao"], is_open=False, tsumo=True)
    refused(count_yaku, [], is_open=False, dora=2)
    refused(count_yaku, ["tanyao"], is_open=False, ura=1)
    situation = handvalue.Situation(tsumo=True, seat_wind=1, round_wind=0)
    options = handvalue.Options()
    refused(handvalue.value_hand, "234m456p678s22m", "2m", [], situation, options)
    refused(handvalue.value_hand, "123m456p789s11z23z4z", "4z", [], situation, options)
    refused(handvalue.value_hand, "11112m456p789s11z2z", "2z", [], situation, options)
    return found


def test_the_engines_refusals_read_the_same_in_english():
    refusals = engine_refusals()
    assert len(refusals) == 18
    with translation.override("en"):
        for err in refusals:
            assert say(err) == str(err)
            assert say(err.in_hand(3)) == f"hand 3: {err}"


def test_every_refusal_the_hand_form_meets_has_japanese_words():
    with translation.override("ja"):
        for err in engine_refusals():
            words = say(err)
            assert japanese(words), str(err)
        # Yaku named in a refusal are named in Japanese; numbers and tiles are kept.
        with pytest.raises(ScoringError) as closed:
            count_yaku(["riichi", "pinfu"], is_open=True)
        assert say(closed.value) == "立直は門前限定です。チェックを外すか、門前を選んでください。"
        with pytest.raises(ScoringError) as pinfu:
            check_value(han=1, fu=20, yakuman=None, tsumo=True)
        assert say(pinfu.value.in_hand(4)) == (
            "第4局：1翻20符のツモはありえません。平和ツモは最低2翻です"
        )


def test_a_refusal_sentence_keeps_its_english_and_gets_japanese():
    with pytest.raises(ScoringError) as engine:
        check_value(han=3, fu=20, yakuman=None, tsumo=False)
    err = services.GameChangeRefused(engine.value.in_hand(2))
    with translation.override("en"):
        assert refusal(err) == (
            "Hand 2: 3 han 20 fu is not a possible ron: 20 fu is only a pinfu tsumo. "
            "Correct it, then check it again."
        )
    with translation.override("ja"):
        assert refusal(err) == (
            "第2局：3翻20符のロンはありえません。20符は平和ツモだけです。修正してから、もう一度確認してください。"
        )


# The hand form


def test_the_hand_forms_errors_are_in_japanese():
    with translation.override("ja"):
        form = HandForm(
            {"result": "ron", "riichi": [], "w1_winner": "1", "w1_han": "1", "w1_fu": "20"},
            seats=seat_labels(NAMES, 0),
            rules=Rules(),
        )
        assert not form.is_valid()
        assert form.errors["loser"] == [
            "放銃者（ロンされた牌を捨てたプレイヤー）を選んでください。"
        ]
        assert form.errors["w1_fu"] == ["Ben: 1翻20符のロンはありえません。20符は平和ツモだけです"]
        empty = HandForm({}, seats=seat_labels(NAMES, 0), rules=form.rules)
        assert not empty.is_valid()
        assert empty.errors["result"] == ["この局の結果を選んでください。"]


@pytest.mark.django_db
def test_the_hand_form_page_in_japanese(organiser_client, game):
    html = organiser_client.get(url("hand_new", game), headers=JA).content.decode()
    assert "第1局" in html and "局の結果" in html and "放銃者" in html and "自動で数える" in html
    assert "ロン" in html and "ツモ" in html and "立直" in html
    # Yaku in the checklist by their Japanese names; the tile picker's words for its script.
    assert "<b>平和</b>" in html and "<b>断幺九</b>" in html
    assert 'data-say-han="計算結果：{han}翻"' in html
    assert 'data-say-counted="計算結果：{text}。"' in html
    # The wind of each pick is a kanji on the page and a letter for the script.
    assert re.search(r'<small class="wind" data-wind="E" title="東">東 · 親</small>', html)
    assert not ENGLISH.search(html), ENGLISH.search(html)


@pytest.mark.django_db
def test_the_hand_form_page_reads_as_before_in_english(organiser_client, game):
    html = organiser_client.get(url("hand_new", game)).content.decode()
    assert "<h1>Hand 1</h1>" in html and "What happened" in html and "Dealt in" in html
    assert "<b>Pinfu</b>" in html and "0 sticks on the table" in html
    assert re.search(r'<small class="wind" data-wind="E" title="East">E · dealer</small>', html)
    assert 'data-say-han="Counted: {han} han"' in html


@pytest.mark.django_db
def test_a_refused_hand_is_explained_in_japanese_and_nothing_is_stored(organiser_client, game):
    data = {"number": "1", "result": "ron", "riichi": [], "loser": "0", "w1_winner": "1",
            "w1_han": "1", "w1_fu": "20", "action": "preview"}  # fmt: skip
    html = organiser_client.post(url("hand_new", game), data, headers=JA).content.decode()
    assert "Ben: 1翻20符のロンはありえません。20符は平和ツモだけです" in html
    assert not game.hands.exists()


@pytest.mark.django_db
def test_the_preview_and_the_game_page_in_japanese(organiser_client, game):
    data = {"number": "1", "result": "ron", "riichi": ["1"], "loser": "0", "w1_winner": "1",
            "w1_han": "3", "w1_fu": "30"}  # fmt: skip
    preview = organiser_client.post(
        url("hand_new", game), {**data, "action": "preview"}, headers=JA
    )
    html = preview.content.decode()
    assert "第1局を保存しますか？" in html and "立直：Ben。" in html and "確認して保存" in html
    assert "供託：局前 0本、局後 0本。" in html
    saved = organiser_client.post(
        url("hand_new", game), {**data, "action": "save"}, headers=JA, follow=True
    )
    page = saved.content.decode()
    assert "第1局を保存しました。" in page
    assert "第2局を入力" in page and "第1局を取り消す" in page and "卓リンク" in page
    assert '<span class="wind-badge" title="次局の風">東</span>' in page
    assert not ENGLISH.search(visible(page)), ENGLISH.search(visible(page))
    english = organiser_client.get(url("game", game)).content.decode()
    assert (
        "Enter hand 2" in english
        and '<span class="wind-badge" title="Wind in the next hand">E</span>' in english
    )


@pytest.mark.django_db
def test_the_tile_picker_answers_in_japanese(organiser_client, game):
    query = {"tiles": "234m406p678s22m567s", "win": "2m", "calls": "", "dora": "2m", "ura": "",
             "tsumo": "1", "riichi": "1", "seat_wind": "1", "round_wind": "0"}  # fmt: skip
    answer = organiser_client.get(url("hand_count", game), query, headers=JA).json()
    assert answer["text"] == "6翻：門前清自摸和、立直、平和、断幺九、ドラ2"
    refused = organiser_client.get(
        url("hand_count", game), {**query, "tiles": "234m456p678s22m"}, headers=JA
    ).json()
    assert refused == {"ok": False, "error": "副露を含めて手牌が11枚です。和了形は14枚です。"}


@pytest.mark.django_db
def test_deleting_a_game_with_hands_names_them_in_japanese(organiser_client, game):
    services.add_hand(game.pk, 1, {"result": "draw", "riichi": [], "tenpai": [0]})
    services.add_hand(
        game.pk, 2, {"result": "tsumo", "riichi": [], "wins": [{"winner": 1, "han": 1, "fu": 30}]}
    )
    html = organiser_client.get(url("game_delete", game), headers=JA).content.decode()
    assert "この対局には2局があります。" in html
    english = organiser_client.get(url("game_delete", game)).content.decode()
    assert (
        "This game has 2 hands. A game is deleted only once nothing of it is left to lose:"
        in english
    )


@pytest.mark.django_db
def test_final_scores_in_japanese(organiser_client, final_game):
    data = {"score_0": "350", "score_1": "250", "score_2": "240", "score_3": "150",
            "leftover_sticks": "1", "action": "preview"}  # fmt: skip
    html = organiser_client.post(url("final_scores", final_game), data, headers=JA).content.decode()
    assert "この最終持ち点を保存しますか？" in html
    assert "持ち点は百点単位として読み取りました" in html
    assert "供託1本（1,000点）は卓に残り、1着が受け取ります" in html
    wrong = {**data, "score_3": "100"}
    html = organiser_client.post(
        url("final_scores", final_game), wrong, headers=JA
    ).content.decode()
    assert (
        "最終持ち点の合計は" in html and "持ち点と供託を確認して、もう一度お試しください。" in html
    )
    english = organiser_client.post(url("final_scores", final_game), data).content.decode()
    assert "1 riichi stick (1,000 points) is left on the table and goes to first place" in english


@pytest.mark.django_db
def test_table_link_messages_in_japanese(organiser_client, game):
    response = organiser_client.post(url("table_link_renew", game), headers=JA, follow=True)
    assert "卓リンクを作成しました。卓票を印刷してください。" in response.content.decode()
    response = organiser_client.post(
        url("game_lock", game), {"locked": "1"}, headers=JA, follow=True
    )
    assert "対局をロックしました。" in response.content.decode()

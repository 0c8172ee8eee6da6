"""The table's phone without network: the table link installs as a web app (a service
worker keeps the game page and the hand form), hands are previewed with the engine in the
browser and kept in the phone's outbox, and they reach the server once, in order, when the
network is back; a game changed meanwhile is shown to the table, never overwritten."""

from __future__ import annotations

import copy
import json
import re
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.game import score
from tests.browser.test_sanma_entry import sanma_game
from tournaments import services
from tournaments.models import Game, Hand, PhoneContact, TrailEntry
from tournaments.views.games import round_name
from tournaments.wording import describe_hand
from tournaments.wording.formatting import delta, points

PHONE = {"width": 390, "height": 844}
# Screenshots at phone width, to look at: the offline form and the conflict screen.
SHOTS = Path(tempfile.gettempdir()) / "tenbou-phone-screens"

# Six hands of one game: a dealer's ron (the dealer repeats), a draw with a riichi and the
# dealer tenpai (the dealer repeats again), a tsumo that passes the deal and takes the
# stick, a dealer's tsumo with riichi, a ron, and a draw where nobody is tenpai.
SIX_HANDS = [
    {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 1, "han": 3, "fu": 40}]},
    {"result": "draw", "riichi": [2], "tenpai": [0, 2]},
    {"result": "tsumo", "riichi": [], "wins": [{"winner": 3, "han": 2, "fu": 30}]},
    {"result": "tsumo", "riichi": [1], "wins": [{"winner": 1, "han": 2, "fu": 40}]},
    {"result": "ron", "riichi": [], "wins": [{"winner": 2, "loser": 3, "han": 2, "fu": 40}]},
    {"result": "draw", "riichi": [], "tenpai": []},
]
RESULT_BUTTONS = {"ron": "Ron", "tsumo": "Tsumo", "draw": "Draw"}


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def tap_seat(page: Page, field: str, name: str) -> None:
    page.locator(f"#group-{field}").locator(
        "label.pick", has=page.locator("b", has_text=re.compile(rf"^{name}$"))
    ).click()


def tap(page: Page, field: str, value: str) -> None:
    page.locator(f'#group-{field} label.pick:has(input[value="{value}"])').click()


def fill_hand(page: Page, hand: dict, names: list[str]) -> None:
    page.locator("#group-result label.pick", has_text=RESULT_BUTTONS[hand["result"]]).click()
    for seat in hand["riichi"]:
        tap_seat(page, "riichi", names[seat])
    for win in hand.get("wins", []):
        tap_seat(page, "w1_winner", names[win["winner"]])
        if "loser" in win:
            tap_seat(page, "loser", names[win["loser"]])
        tap(page, "w1_han", str(win["han"]))
        tap(page, "w1_fu", str(win["fu"]))
    for seat in hand.get("tenpai", []):
        tap_seat(page, "tenpai", names[seat])


def round_honba(label: str, honba: int) -> str:
    return f"{round_name(label)}-{honba}"


def wait_for_waiting(game: Game, count: int) -> None:
    """The hands the phone last told the server it holds back (the director's pages)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        contact = PhoneContact.objects.filter(game=game).first()
        if contact is not None and contact.waiting == count:
            return
        time.sleep(0.2)
    raise AssertionError(f"the phone did not report {count} hands waiting")


def open_the_table_link(page: Page, live_server, game: Game):
    """The players open the slip's address on the phone, online, and the web app is kept:
    its worker controls the page and the phone holds the game's record."""
    link = services.renew_table_link(game.pk)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{link.get_absolute_url()}")
    expect(page.locator(".messages")).to_contain_text("you can enter this game's hands.")
    # Ready: the worker controls the page (its files are kept) and the record is on the phone.
    expect(page.locator("html")).to_have_attribute("data-phone-ready", "1", timeout=15_000)
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    return link


def with_hands(record: dict, hands: list[dict]) -> dict:
    record = copy.deepcopy(record)
    record["hands"] = record["hands"] + hands
    return record


def enter_offline(page: Page, before: dict, hands: list[dict]) -> None:
    """Enter `hands` on the phone after the hands of `before`, each checked against its
    preview: every seat's payment, the sticks and the next round, as Python's engine
    scores them."""
    names = before["players"]
    first = len(before["hands"]) + 1
    for offset, hand in enumerate(hands):
        number = first + offset
        expect(page.locator(".game-head h1")).to_have_text(f"Hand {number}")
        fill_hand(page, hand, names)
        page.get_by_role("button", name=f"Preview hand {number}").click()
        preview = page.locator("[data-offline-preview]")
        expect(preview).to_be_visible()
        expect(preview.locator("h2")).to_have_text(f"Save hand {number}?")

        record = with_hands(before, hands[: offset + 1])
        scored = score(record)
        report = scored["hands"][number - 1]
        expect(preview.locator("[data-preview-round]")).to_have_text(
            round_honba(report["round"], report["honba"])
        )
        for seat, name in enumerate(names):
            row = preview.locator("tbody tr", has=page.locator("th", has_text=name))
            expect(row.locator("td.delta")).to_have_text(delta(report["deltas"][seat]))
            expect(row.locator("td").last).to_have_text(points(report["scores_after"][seat]))
        expect(preview.locator("[data-preview-sticks]")).to_have_text(
            f"Riichi sticks on the table: {report['sticks_before']} before, "
            f"{report['sticks_after']} after."
        )
        state = services.replay_record(record).state
        expect(preview.locator("[data-preview-next]")).to_have_text(
            f"Next hand: {round_honba(state.round_label, state.honba)}, "
            f"{names[state.dealer]} deals."
        )
        fits_the_phone(page)
        if number == first:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / "phone-offline-preview.png"), full_page=True)
        page.get_by_role("button", name="Confirm and save").click()
        expect(page.locator("[data-offline-saved]")).to_have_text(
            f"Hand {number} is saved on this phone."
        )
        expect(page.locator(".game-head h1")).to_have_text(f"Hand {number + 1}")
        expect(page.locator(".game-head .table-line .round")).to_have_text(
            round_honba(state.round_label, state.honba)
        )


@pytest.mark.parametrize("drop_one_answer", [False, True], ids=["answers", "one-answer-lost"])
def test_a_table_enters_six_hands_offline_and_the_server_gets_exactly_those_in_order(
    live_server, page: Page, game, drop_one_answer
):
    base = game.to_record()
    link = open_the_table_link(page, live_server, game)
    sync_answers: list[str] = []
    if drop_one_answer:
        # The third hand reaches the server, but its answer never reaches the phone.
        def lose_the_third_answer(route):
            response = route.fetch()
            sync_answers.append(response.json()["status"])
            if len(sync_answers) == 3:
                route.abort("connectionreset")
            else:
                route.fulfill(response=response)

        page.route("**/hands/sync/", lose_the_third_answer)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator(".game-head h1")).to_have_text("Hand 1")

    page.context.set_offline(True)
    enter_offline(page, base, SIX_HANDS[:3])
    page.screenshot(path=str(SHOTS / "phone-offline-form.png"), full_page=True)

    # A reload without network: the worker serves the form, the phone its hands.
    page.reload()
    expect(page.locator(".game-head h1")).to_have_text("Hand 4")
    waiting = page.locator(".outbox-list li.outbox-waiting")
    expect(waiting).to_have_count(3)
    expect(waiting.first).to_contain_text("saved on this phone")
    enter_offline(page, with_hands(base, SIX_HANDS[:3]), SIX_HANDS[3:])
    assert Hand.objects.filter(game=game).count() == 0
    # The game page, still without network, lists what waits on the phone.
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator(".outbox-list li.outbox-waiting")).to_have_count(6)

    page.context.set_offline(False)
    expect(page.locator(".outbox-list li.outbox-sent")).to_have_count(6, timeout=30_000)
    expect(page.locator("[data-phone-status]")).to_have_text(
        "Every hand entered on this phone has reached the server."
    )
    # The board, read again at once: six hands on the game page.
    expect(page.locator("#hand-6")).to_contain_text("Draw · all noten", timeout=5_000)

    game.refresh_from_db()
    record = game.to_record()
    assert record["hands"] == SIX_HANDS
    numbers = game.hands.order_by("number").values_list("number", flat=True)
    assert list(numbers) == [1, 2, 3, 4, 5, 6]
    added = TrailEntry.objects.filter(table_link=link)
    assert added.count() == 6
    if drop_one_answer:
        # The lost answer's hand was sent again and answered as stored, not refused.
        assert sync_answers == ["saved", "saved", "saved", "already", "saved", "saved", "saved"]

    # The game page, fresh from the server, shows the replay of exactly those hands.
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    state = services.replay_record(record).state
    expect(page.locator(".game-head .table-line .round")).to_have_text(
        round_name(state.round_label)
    )
    for seat, name in enumerate(base["players"]):
        card = page.locator(".seat-card", has=page.locator(".name", has_text=name))
        expect(card.locator(".score")).to_have_text(points(state.scores[seat]))
    expect(page.locator("#hand-6")).to_contain_text("Draw · all noten")


def test_an_organisers_change_while_the_phone_is_offline_is_shown_and_not_overwritten(
    live_server, page: Page, game, organiser
):
    services.add_hand(game.pk, 1, SIX_HANDS[0])
    base = game.to_record()
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 2").click()
    expect(page.locator(".game-head h1")).to_have_text("Hand 2")

    page.context.set_offline(True)
    enter_offline(page, base, SIX_HANDS[1:3])

    # Meanwhile the organiser corrects hand 1 and enters hand 2 from the score sheet.
    changed_first = {
        "result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 1, "han": 4, "fu": 30}]
    }  # fmt: skip
    organisers_second = {"result": "draw", "riichi": [], "tenpai": [1]}
    services.replace_hand(game.pk, 1, changed_first)
    services.add_hand(game.pk, 2, organisers_second)

    page.context.set_offline(False)
    screen = page.locator("[data-phone-conflict]")
    expect(screen).to_be_visible(timeout=30_000)
    expect(screen.locator("h2")).to_have_text("The game changed while this phone was offline")
    server_side, phone_side = screen.locator(".conflict-side").all()
    expect(server_side.locator("li")).to_have_count(2)
    expect(server_side.locator("li").nth(0)).to_contain_text("Aki ron off Ben · 4 han 30 fu")
    expect(server_side.locator("li").nth(1)).to_contain_text("Draw · tenpai: Ben")
    expect(phone_side.locator("li.phone-only")).to_have_count(2)
    expect(phone_side.locator("li.phone-only").nth(0)).to_contain_text("Draw · tenpai: Aki, Chie")
    expect(page.locator(".outbox-list li.outbox-conflict")).to_have_count(1)
    expect(page.locator("[data-hand-form]")).to_be_hidden()
    fits_the_phone(page)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-conflict.png"), full_page=True)

    # Nothing of the phone's reached the game; the director sees two hands held back.
    game.refresh_from_db()
    assert game.to_record()["hands"] == [changed_first, organisers_second]
    wait_for_waiting(game, 2)

    # The table keeps them for the organiser, then (after showing them) discards them.
    screen.get_by_role("button", name="Keep them for the organiser").click()
    expect(page.locator(".outbox-list li.outbox-kept")).to_have_count(2)
    screen.get_by_role("button", name="Discard this phone's hands").click()
    sure = screen.locator("[data-conflict-sure]")
    expect(sure).to_contain_text("Discard the hands on this phone?")
    screen.get_by_role("button", name="Yes, discard them").click()
    expect(screen).to_be_hidden()
    expect(page.locator(".game-head h1")).to_have_text("Hand 3")
    expect(page.locator(".outbox-list li.outbox-kept")).to_have_count(0)
    game.refresh_from_db()
    assert game.to_record()["hands"] == [changed_first, organisers_second]
    wait_for_waiting(game, 0)


def test_a_hand_the_server_refuses_is_shown_with_its_reason_and_kept_on_the_phone(
    live_server, page: Page, game
):
    base = game.to_record()
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    page.context.set_offline(True)
    enter_offline(page, base, SIX_HANDS[:1])

    # A phone whose scores disagree with the server's engine (as a phone with an older
    # copy of the rules would send them): the server refuses the hand.
    def wrong_scores(route):
        body = json.loads(route.request.post_data)
        body["scores"] = [25000, 25000, 25000, 25000]
        route.continue_(post_data=json.dumps(body))

    page.route("**/hands/sync/", wrong_scores)
    page.context.set_offline(False)
    screen = page.locator("[data-phone-conflict]")
    expect(screen).to_be_visible(timeout=30_000)
    expect(screen.locator("h2")).to_have_text("The server refused hand 1")
    expect(screen.locator("[data-conflict-message]")).not_to_be_empty()
    expect(page.locator(".outbox-list li.outbox-refused")).to_have_count(1)
    assert Hand.objects.filter(game=game).count() == 0


def test_the_last_hand_waiting_can_be_taken_back_and_the_rest_outlives_a_closed_tab(
    live_server, page: Page, game
):
    base = game.to_record()
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    page.context.set_offline(True)
    enter_offline(page, base, SIX_HANDS[:2])

    # Hand 2 was a mistake: taken back, it is entered again as it really was.
    page.get_by_role("button", name="Take back hand 2").click()
    expect(page.locator(".outbox-list li")).to_have_count(1)
    expect(page.locator(".game-head h1")).to_have_text("Hand 2")
    expect(page.get_by_role("button", name="Take back hand 1")).to_be_visible()
    really = {"result": "draw", "riichi": [], "tenpai": [3]}
    enter_offline(page, with_hands(base, SIX_HANDS[:1]), [really])

    # The tab is closed and opened again, still without network: the hands are there.
    context = page.context
    page.close()
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator(".outbox-list li.outbox-waiting")).to_have_count(2)

    context.set_offline(False)
    expect(page.locator(".outbox-list li.outbox-sent")).to_have_count(2, timeout=30_000)
    expect(page.get_by_role("button", name=re.compile("^Take back"))).to_be_hidden()
    game.refresh_from_db()
    assert game.to_record()["hands"] == [SIX_HANDS[0], really]


def test_a_hand_confirmed_after_the_network_dropped_waits_on_the_phone_under_its_entry_id(
    live_server, page: Page, game
):
    base = game.to_record()
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    # Online: the server's preview, as without the phone's outbox.
    fill_hand(page, SIX_HANDS[0], base["players"])
    page.get_by_role("button", name="Preview hand 1").click()
    expect(page).to_have_title(re.compile(r"^Check hand 1 "))
    entry = page.locator('form.confirm-actions input[name="entry"]').input_value()

    page.context.set_offline(True)
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator(".game-head h1")).to_have_text("Hand 2")
    expect(page.locator(".outbox-list li.outbox-waiting")).to_have_count(1)

    page.context.set_offline(False)
    expect(page.locator(".outbox-list li.outbox-sent")).to_have_count(1, timeout=30_000)
    hand = Hand.objects.get(game=game)
    assert str(hand.entry) == entry
    game.refresh_from_db()
    assert game.to_record()["hands"] == SIX_HANDS[:1]


def test_the_phone_words_each_kind_of_hand_as_the_server_does(live_server, page: Page, game):
    names = game.to_record()["players"]
    hands = [
        *SIX_HANDS,
        {"result": "draw", "riichi": [], "tenpai": [0, 1, 2, 3]},
        {"result": "ron", "riichi": [], "wins": [
            {"winner": 1, "loser": 0, "han": 5},
            {"winner": 2, "loser": 0, "yakuman": 1},
        ]},
        {"result": "tsumo", "riichi": [], "wins": [{"winner": 3, "yakuman": 2}]},
        {"result": "nagashi", "riichi": [], "nagashi": [2], "tenpai": []},
        {"result": "abort", "riichi": [], "reason": "nine_terminals"},
        {"result": "chombo", "riichi": [], "offender": 1},
    ]  # fmt: skip
    open_the_table_link(page, live_server, game)
    said = page.evaluate(
        "([hands, names]) => hands.map((hand) => window.TenbouPhone.describe(hand, names))",
        [hands, names],
    )
    assert said == [describe_hand(hand, names) for hand in hands]


def test_a_hand_the_rules_refuse_is_refused_on_the_phone_with_the_engines_reason(
    live_server, page: Page, game
):
    # Ben is left with 900 points: too few to declare riichi under these rules.
    services.add_hand(
        game.pk,
        1,
        {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 1, "han": 6}]},  # fmt: skip
    )
    services.add_hand(
        game.pk,
        2,
        {
            "result": "ron",
            "riichi": [],
            "wins": [{"winner": 0, "loser": 1, "han": 3, "fu": 30}],
        },  # fmt: skip
    )
    assert services.replay_record(game.to_record()).state.scores[1] == 900
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 3").click()
    page.context.set_offline(True)
    page.locator("#group-result label.pick", has_text="Draw").click()
    tap_seat(page, "riichi", "Ben")
    page.get_by_role("button", name="Preview hand 3").click()
    refusal = page.locator("[data-offline-errors]")
    expect(refusal).to_contain_text("This hand cannot be entered: hand 3:")
    expect(refusal).to_contain_text("riichi")
    expect(page.locator("[data-offline-preview]")).to_be_hidden()
    expect(page.locator(".outbox-list li")).to_have_count(0)


def test_a_game_locked_while_the_phone_was_offline_stops_the_sending_and_says_so(
    live_server, page: Page, game
):
    base = game.to_record()
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    page.context.set_offline(True)
    enter_offline(page, base, SIX_HANDS[:1])
    services.lock_game(game.pk, True)

    page.context.set_offline(False)
    screen = page.locator("[data-phone-conflict]")
    expect(screen).to_be_visible(timeout=30_000)
    expect(screen.locator("[data-conflict-message]")).to_contain_text("locked")
    expect(page.locator(".outbox-list li.outbox-conflict")).to_have_count(1)
    assert Hand.objects.filter(game=game).count() == 0


def test_the_phone_shows_the_end_of_the_game_and_enters_nothing_after_it(
    live_server, page: Page, game
):
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    page.context.set_offline(True)
    # Aki, the dealer, rons Ben for a yakuman: Ben goes below zero and the game ends.
    page.locator("#group-result label.pick", has_text="Ron").click()
    tap_seat(page, "w1_winner", "Aki")
    tap_seat(page, "loser", "Ben")
    tap(page, "w1_han", "Y")
    page.get_by_role("button", name="Preview hand 1").click()
    preview = page.locator("[data-offline-preview]")
    expect(preview.locator("[data-preview-ends]")).to_contain_text(
        "The game ends: a player went below zero."
    )
    expect(preview.locator("[data-preview-ends]")).to_contain_text("Ben −23,000")
    expect(preview.locator("[data-preview-next]")).to_be_hidden()
    page.get_by_role("button", name="Confirm and save").click()
    expect(page.locator("[data-offline-over]")).to_have_text(
        "The game is over: a player went below zero."
    )
    expect(page.locator("[data-hand-form]")).to_be_hidden()
    # The heading names no next hand, after a reload too.
    expect(page.locator(".game-head h1")).to_have_text("Game over")
    expect(page.locator(".game-head .table-line")).to_be_hidden()
    page.reload()
    expect(page.locator(".game-head h1")).to_have_text("Game over")
    expect(page.locator("[data-offline-over]")).to_be_visible()

    page.context.set_offline(False)
    expect(page.locator(".outbox-list li.outbox-sent")).to_have_count(1, timeout=30_000)
    game.refresh_from_db()
    assert game.to_record()["hands"] == [
        {"result": "ron", "riichi": [], "wins": [{"winner": 0, "loser": 1, "yakuman": 1}]}
    ]


def test_a_phone_whose_session_ended_keeps_its_hands_until_the_link_is_opened_again(
    live_server, page: Page, game
):
    base = game.to_record()
    link = open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    page.context.set_offline(True)
    enter_offline(page, base, SIX_HANDS[:2])

    # Back online, the server no longer knows this phone (its session is gone).
    page.context.clear_cookies()
    page.context.set_offline(False)
    expect(page.locator("[data-phone-status]")).to_contain_text(
        "This phone no longer holds the table's link", timeout=30_000
    )
    expect(page.locator(".outbox-list li.outbox-waiting")).to_have_count(2)
    assert Hand.objects.filter(game=game).count() == 0

    # The slip's address, opened again: the hands go on their way.
    page.goto(f"{live_server.url}{link.get_absolute_url()}")
    expect(page.locator(".outbox-list li.outbox-sent")).to_have_count(2, timeout=30_000)
    game.refresh_from_db()
    assert game.to_record()["hands"] == SIX_HANDS[:2]


def test_a_three_player_table_enters_hands_offline_under_its_own_rules(
    live_server, page: Page, organiser
):
    game = sanma_game(organiser)
    base = game.to_record()
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("#group-w1_winner label.pick")).to_have_count(3)
    page.context.set_offline(True)
    # A tsumo (no North to pay), a dealer's ron, and a draw: under Tenhou's three-player
    # rules, each checked against the Python engine.
    hands = [
        {"result": "tsumo", "riichi": [1], "wins": [{"winner": 1, "han": 3, "fu": 30}]},
        {"result": "ron", "riichi": [], "wins": [{"winner": 2, "loser": 0, "han": 2, "fu": 40}]},
        {"result": "draw", "riichi": [], "tenpai": [0]},
    ]
    enter_offline(page, base, hands)
    page.context.set_offline(False)
    expect(page.locator(".outbox-list li.outbox-sent")).to_have_count(3, timeout=30_000)
    game.refresh_from_db()
    assert game.to_record()["hands"] == hands


def test_a_double_ron_with_riichi_sticks_is_settled_on_the_phone_as_on_the_server(
    live_server, page: Page, game
):
    base = game.to_record()
    open_the_table_link(page, live_server, game)
    page.get_by_role("link", name="Enter hand 1").click()
    page.context.set_offline(True)
    # Dan deals in to Ben and Chie; Chie and Aki had riichi sticks out.
    page.locator("#group-result label.pick", has_text="Ron").click()
    tap_seat(page, "riichi", "Chie")
    tap_seat(page, "riichi", "Aki")
    tap_seat(page, "w1_winner", "Ben")
    tap_seat(page, "loser", "Dan")
    tap(page, "w1_han", "2")
    tap(page, "w1_fu", "30")
    page.locator("details[data-win='2'] > summary").click()
    tap_seat(page, "w2_winner", "Chie")
    tap(page, "w2_han", "4")
    tap(page, "w2_fu", "30")
    page.get_by_role("button", name="Preview hand 1").click()
    hand = {
        "result": "ron",
        "riichi": [0, 2],
        "wins": [
            {"winner": 1, "loser": 3, "han": 2, "fu": 30},
            {"winner": 2, "loser": 3, "han": 4, "fu": 30},
        ],
    }
    report = score(with_hands(base, [hand]))["hands"][0]
    preview = page.locator("[data-offline-preview]")
    expect(preview.locator("[data-preview-summary]")).to_have_text(
        describe_hand(hand, base["players"])
    )
    for seat, name in enumerate(base["players"]):
        row = preview.locator("tbody tr", has=page.locator("th", has_text=name))
        expect(row.locator("td.delta")).to_have_text(delta(report["deltas"][seat]))
    page.get_by_role("button", name="Confirm and save").click()
    page.context.set_offline(False)
    expect(page.locator(".outbox-list li.outbox-sent")).to_have_count(1, timeout=30_000)
    game.refresh_from_db()
    assert game.to_record()["hands"] == [hand]

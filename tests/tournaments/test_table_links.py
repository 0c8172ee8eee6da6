"""Table links: the players at one table enter that game's hands with no account, and
nothing else. Each test checks the pages a link opens or refuses and the database after."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Hand, Player, TableLink, TrailEntry

pytestmark = pytest.mark.django_db

RON_FORM = {
    "result": "ron",
    "riichi": [],
    "w1_winner": "1",
    "loser": "0",
    "w1_han": "3",
    "w1_fu": "40",
}
DRAW = {"result": "draw", "riichi": [], "tenpai": []}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def at_table(link: TableLink) -> Client:
    """A phone with no login that opened the table's link."""
    client = Client()
    address, code = link.get_absolute_url().split("#")
    response = client.post(address, {"code": code})
    assert response.status_code == 302 and response["Location"] == link.game.get_absolute_url()
    return client


def save_hand(client: Client, game, number: int, form=RON_FORM):
    return client.post(url("hand_new", game.pk), {**form, "number": str(number), "action": "save"})


@pytest.fixture
def link(game):
    return services.renew_table_link(game.pk)


@pytest.fixture
def other_game(session):
    players = [Player.objects.create(display_name=f"O{i}") for i in range(4)]
    return services.create_game(session, players, table_number=2)


def test_a_table_link_lets_a_phone_with_no_login_enter_edit_and_undo_hands(game, link):
    phone = at_table(link)
    page = phone.get(url("game", game.pk)).content.decode()
    assert "Enter hand 1" in page
    assert save_hand(phone, game, 1).status_code == 302
    assert save_hand(phone, game, 2, {**DRAW_FORM}).status_code == 302
    edit = {**RON_FORM, "w1_han": "4", "action": "save"}
    assert phone.post(url("hand_edit", game.pk, 1), edit).status_code == 302
    undo = {"number": "2", "version": services.hand_version(game.to_record()["hands"][1])}
    assert phone.post(url("hand_undo", game.pk), undo).status_code == 302
    hands = list(Hand.objects.filter(game=game))
    assert len(hands) == 1 and hands[0].wins.get().han == 4
    kinds = list(TrailEntry.objects.order_by("at", "pk").values_list("kind", "table_link_id"))
    assert kinds[-4:] == [
        ("hand_added", link.pk),
        ("hand_added", link.pk),
        ("hand_edited", link.pk),
        ("hand_undone", link.pk),
    ]
    assert hands[0].created_by is None


DRAW_FORM = {"result": "draw", "riichi": [], "tenpai": []}


def test_a_table_link_shows_no_organiser_tools_and_no_code(game, link):
    page = at_table(link).get(url("game", game.pk)).content.decode()
    assert link.code not in page
    for tool in ("Add a penalty", "Call time", "Revoke the link", "Lock the game", "Changes"):
        assert tool not in page


def test_a_table_link_cannot_reach_another_game(game, link, other_game):
    phone = at_table(link)
    assert save_hand(phone, other_game, 1).status_code == 302  # to the login page
    assert phone.post(url("hand_undo", other_game.pk)).status_code == 302
    assert not Hand.objects.filter(game=other_game).exists()
    page = phone.get(url("game", other_game.pk)).content.decode()
    assert "Enter hand" not in page


def test_a_table_link_opens_no_organiser_page(game, link, session):
    phone = at_table(link)
    event = session.event
    for address in (
        url("event_edit", event.slug),
        url("game_edit", game.pk),
        url("penalty_new", game.pk),
        url("event_trail", event.slug),
        url("game_slip", game.pk),
        url("session_slips", event.slug, 1),
        "/admin/",
    ):
        response = phone.get(address)
        assert response.status_code == 302 and "login" in response["Location"], address
    # The rules page is for anyone who can read the event: read only, without the form.
    rules_page = phone.get(url("event_rules", event.slug)).content.decode()
    assert "Save rules" not in rules_page
    response = phone.post(url("event_rules", event.slug), {"preset": "ema"})
    assert response.status_code == 302 and "login" in response["Location"]
    for address in (
        url("game_call_time", game.pk),
        url("game_lock", game.pk),
        url("table_link_renew", game.pk),
        url("table_link_revoke", game.pk),
        url("game_finish", game.pk),
        url("roster_paste", event.slug),
    ):
        response = phone.post(address, {"locked": "1"})
        assert response.status_code == 302 and "login" in response["Location"], address
    assert TableLink.objects.live().get() == link
    assert not event.roster.exists()
    game.refresh_from_db()
    assert not game.locked and not game.is_finished


def test_a_table_link_of_a_private_event_opens_only_its_game(game, link, session, other_game):
    event = session.event
    event.is_public = False
    event.save()
    phone = at_table(link)
    assert phone.get(url("game", game.pk)).status_code == 200
    assert phone.get(url("game", other_game.pk)).status_code == 404
    assert phone.get(url("event", event.slug)).status_code == 404
    assert phone.get(url("standings", event.slug)).status_code == 404


# The tile picker of the hand form: a riichi tsumo pinfu tanyao, dora 2m (two dora).
PICKED = {
    "tiles": "234m406p678s22m567s", "win": "2m", "dora": "2m", "tsumo": "1", "riichi": "1",
    "seat_wind": "1", "round_wind": "0",
}  # fmt: skip


def test_the_tile_picker_answers_the_table_that_holds_the_games_link(
    game, link, other_game, stranger_client, anonymous
):
    phone = at_table(link)
    answer = phone.get(url("hand_count", game.pk), PICKED)
    assert answer.status_code == 200
    assert answer.json()["ok"] and (answer.json()["han"], answer.json()["fu"]) == (6, 20)
    assert answer.json()["yaku"] == ["menzen_tsumo", "riichi", "pinfu", "tanyao"]
    # Not another game's picker, nor anyone else's.
    assert phone.get(url("hand_count", other_game.pk), PICKED).status_code == 302
    assert stranger_client.get(url("hand_count", game.pk), PICKED).status_code == 403
    response = anonymous.get(url("hand_count", game.pk), PICKED)
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Hand.objects.exists()


def test_the_tile_picker_of_a_private_event_answers_its_table_and_no_stranger(
    game, link, session, stranger_client
):
    session.event.is_public = False
    session.event.save()
    assert at_table(link).get(url("hand_count", game.pk), PICKED).json()["han"] == 6
    assert stranger_client.get(url("hand_count", game.pk), PICKED).status_code == 404


def test_the_tile_picker_closes_to_the_table_with_the_hand_form(organiser_client, game, link):
    phone = at_table(link)
    assert phone.get(url("hand_new", game.pk)).status_code == 200
    organiser_client.post(url("game_lock", game.pk), {"locked": "1"})
    assert phone.get(url("hand_new", game.pk)).status_code == 403
    assert phone.get(url("hand_count", game.pk), PICKED).status_code == 403
    assert organiser_client.get(url("hand_count", game.pk), PICKED).json()["han"] == 6


def test_a_revoked_link_stops_working_at_once(organiser_client, game, link):
    phone = at_table(link)
    organiser_client.post(url("table_link_revoke", game.pk))
    assert save_hand(phone, game, 1).status_code == 302
    assert not Hand.objects.exists()
    address, code = link.get_absolute_url().split("#")
    assert Client().post(address, {"code": code}).status_code == 404


def test_a_renewed_link_replaces_the_old_one(organiser_client, game, link):
    phone = at_table(link)
    organiser_client.post(url("table_link_renew", game.pk))
    new = TableLink.objects.live().get()
    assert new != link and new.code != link.code
    assert save_hand(phone, game, 1).status_code == 302
    assert not Hand.objects.exists()
    assert save_hand(at_table(new), game, 1).status_code == 302
    assert Hand.objects.count() == 1


def test_a_locked_game_refuses_its_table_link(organiser_client, game, link):
    phone = at_table(link)
    organiser_client.post(url("game_lock", game.pk), {"locked": "1"})
    response = save_hand(phone, game, 1)
    assert response.status_code == 403
    assert not Hand.objects.exists()
    assert "locked" in phone.get(url("game", game.pk)).content.decode()
    organiser_client.post(url("game_lock", game.pk), {"locked": "0"})
    assert save_hand(phone, game, 1).status_code == 302


def test_a_finished_game_refuses_its_table_link(game, link):
    phone = at_table(link)
    for number in range(1, 9):
        services.add_hand(game.pk, number, DRAW)
    assert phone.post(url("hand_undo", game.pk)).status_code == 403
    assert Hand.objects.count() == 8


def test_the_service_checks_the_link_again_under_the_games_lock(game, link):
    services.revoke_table_link(game.pk)
    with pytest.raises(services.GameChangeRefused, match="no longer works"):
        services.add_hand(game.pk, 1, DRAW, table_link=link)
    services.lock_game(game.pk, True)
    new = services.renew_table_link(game.pk)
    with pytest.raises(services.GameChangeRefused, match="locked"):
        services.add_hand(game.pk, 1, DRAW, table_link=new)
    assert not Hand.objects.exists()


@pytest.mark.parametrize("code", ["", "x", "A" * 32])
def test_a_wrong_code_opens_nothing(game, link, code):
    address = f"/t/{link.pk}/{code}/" if code else f"/t/{link.pk}/-/"
    client = Client()
    assert client.get(address).status_code == 404
    assert save_hand(client, game, 1).status_code == 302
    assert not Hand.objects.exists()


def test_codes_are_long_random_and_compared_in_constant_time(game, link):
    assert len(link.code) >= 32
    second = services.renew_table_link(game.pk)
    assert second.code != link.code
    assert second.matches(second.code) and not second.matches(link.code)
    assert not second.matches(second.code[:-1])


def test_two_phones_entering_the_same_hand_store_it_once(game, link):
    first, second = at_table(link), at_table(link)
    assert save_hand(first, game, 1).status_code == 302
    response = save_hand(second, game, 1, DRAW_FORM)
    assert response.status_code == 409
    assert "Someone entered hand 1 already" in response.content.decode()
    assert Hand.objects.get().result == "ron"
    assert TrailEntry.objects.filter(kind="hand_added").count() == 1


def test_organisers_see_the_link_and_its_qr_code_on_the_game_page_and_the_slip(
    organiser_client, game, link
):
    page = organiser_client.get(url("game", game.pk)).content.decode()
    assert link.get_absolute_url() in page and "<svg" in page
    slip = organiser_client.get(url("game_slip", game.pk)).content.decode()
    assert link.get_absolute_url() in slip and "<svg" in slip and "Table 1" in slip


def test_organisers_make_links_for_every_game_of_a_session_and_print_the_slips(
    organiser_client, session, game, other_game
):
    response = organiser_client.post(url("session_links_make", session.event.slug, 1))
    assert response.status_code == 302
    assert TableLink.objects.live().count() == 2
    organiser_client.post(url("session_links_make", session.event.slug, 1))
    assert TableLink.objects.count() == 2
    slips = organiser_client.get(url("session_slips", session.event.slug, 1)).content.decode()
    assert slips.count("<svg") == 2
    for link in TableLink.objects.all():
        assert link.get_absolute_url() in slips


def test_others_cannot_see_or_change_table_links(stranger_client, anonymous, game, link):
    for client in (stranger_client, anonymous):
        page = client.get(url("game", game.pk)).content.decode()
        assert link.code not in page
        assert client.get(url("game_slip", game.pk)).status_code in (302, 403)
        client.post(url("table_link_renew", game.pk))
        client.post(url("game_lock", game.pk), {"locked": "1"})
    assert TableLink.objects.live().get() == link
    game.refresh_from_db()
    assert not game.locked


def test_the_seating_list_carries_table_links_for_organisers_only(
    organiser_client, anonymous, game, link, other_game
):
    address = url("seating_list", game.event.slug, 1)
    page = organiser_client.get(address).content.decode()
    assert link.get_absolute_url() in page and page.count("<svg") == 1
    public = anonymous.get(address).content.decode()
    assert "Table" in public and link.code not in public and "<svg" not in public


def test_the_game_page_shows_a_new_or_revoked_link_at_once(organiser_client, game, link):
    def shown():
        return organiser_client.get(url("game", game.pk)).content.decode()

    assert link.get_absolute_url() in shown()
    organiser_client.post(url("table_link_renew", game.pk))
    new = TableLink.objects.live().get()
    page = shown()
    assert new.get_absolute_url() in page and link.get_absolute_url() not in page
    organiser_client.post(url("table_link_revoke", game.pk))
    assert new.get_absolute_url() not in shown()
    organiser_client.post(url("session_links_make", game.session.event.slug, game.session.number))
    made = TableLink.objects.live().get()
    assert made.get_absolute_url() in shown()


def test_a_table_link_enters_the_final_scores_of_a_paper_first_game(final_game):
    final_link = services.renew_table_link(final_game.pk)
    phone = at_table(final_link)
    page = phone.get(url("game", final_game.pk)).content.decode()
    assert url("final_scores", final_game.pk) in page and "Check the scores" in page
    scores = {"score_0": "41300", "score_1": "24900", "score_2": "21800", "score_3": "12000"}
    preview = phone.post(url("final_scores", final_game.pk), {**scores, "leftover_sticks": "0"})
    assert preview.status_code == 200
    assert "Save these final scores?" in preview.content.decode()
    assert "+61.3" in preview.content.decode()
    saved = phone.post(
        url("final_scores", final_game.pk), {**scores, "leftover_sticks": "0", "action": "save"}
    )
    assert saved.status_code == 302
    final_game.refresh_from_db()
    assert final_game.is_finished
    assert [s.entered_score for s in final_game.seats.order_by("seat")] == [
        41300,
        24900,
        21800,
        12000,
    ]
    entry = TrailEntry.objects.get(kind=TrailEntry.Kind.FINAL_SCORES)
    assert entry.table_link_id == final_link.pk and entry.user is None
    # Finished: the link enters nothing more.
    assert phone.get(url("final_scores", final_game.pk)).status_code in (302, 403)


def test_a_revoked_link_cannot_enter_final_scores(final_game):
    final_link = services.renew_table_link(final_game.pk)
    phone = at_table(final_link)
    services.revoke_table_link(final_game.pk)
    scores = {"score_0": "41300", "score_1": "24900", "score_2": "21800", "score_3": "12000"}
    phone.post(
        url("final_scores", final_game.pk), {**scores, "leftover_sticks": "0", "action": "save"}
    )
    final_game.refresh_from_db()
    assert not final_game.is_finished
    with pytest.raises(services.GameChangeRefused, match="no longer works"):
        services.set_final_scores(
            final_game.pk, [41300, 24900, 21800, 12000], 0, table_link=final_link
        )
    assert not TrailEntry.objects.filter(kind=TrailEntry.Kind.FINAL_SCORES).exists()

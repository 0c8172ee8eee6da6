

@pytest.mark.django_db
def test_a_log_name_with_a_right_to_left_override_creates_no_player(organiser):
    event = Event.objects.create(
        name="Online", slug="online", starts_on=datetime.date(2026, 1, 1), rules_preset="tenhou"
    )
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 8))
    path = Path("tests/data/tenhou/2019123123gm-00a9-0000-f4386d0e.json")
    doc = json.loads(path.read_text())
    doc["name"][1] = "Ann\u202eboB"
    check = imports.check_log(event, path.name, json.dumps(doc).encode())
    players = imports.resolve_players(check, {}, create_unknown=True)

    with pytest.raises(services.GameChangeRefused) as refused:
        imports.import_game(session, check, players, table_number=1)

    assert str(refused.value) == (
        f"{path.name}, seat 2: U+202E RIGHT-TO-LEFT OVERRIDE is not allowed in a name. "
        "Choose a player for that seat."
    )
    assert not Player.objects.exists()
    assert not Game.objects.exists()

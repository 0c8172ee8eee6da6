import datetime, json, random, time, collections
import pytest
from tournaments import exchange, services
from tournaments.models import Event, Session, Game

pytestmark = pytest.mark.django_db

@pytest.mark.parametrize("n", [100, 400])
def test_measure(organiser, players, n):
    src = Event.objects.create(name="S", slug="s", starts_on=datetime.date(2026, 1, 1))
    one = Session.objects.create(event=src, number=1, date=datetime.date(2026, 1, 1))
    doc = {"format": "tenbou-game/1", "rules": "ari-ari", "players": [], "final_scores": [41300, 24900, 20800, 13000], "leftover_sticks": 0}
    services.create_game_from_record(one, doc, players, table_number=1)
    data = json.loads(json.dumps(exchange.export_event(src)))
    games = data["games"]
    data["games"] = [{**games[0], "table": 1 + i % 500, "source_id": ""} for i in range(n)]
    copy = Event.objects.create(name="C", slug="c", starts_on=datetime.date(2026, 1, 1))
    t = time.perf_counter()
    exchange.import_event(copy, data, user=organiser)
    print(f"\nMEASURE {n}: {time.perf_counter()-t:.2f}s")

"""The HTTP contract (DESIGN.md), through Flask's test client: good and bad requests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.config import Config
from referee.service import Service
from web import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    service = Service.build(Config.simulated(str(tmp_path)))
    service.start()
    yield create_app(service).test_client()
    service.stop()


def test_state_has_the_contract_fields(client: FlaskClient) -> None:
    state = client.get("/api/state").get_json()
    assert {"position", "status", "moves", "bumps"} <= set(state)
    assert state["position"]["players"] == 4 and state["position"]["turn"] == 0
    assert state["status"] == "synced" and state["moves"] == [] and state["bumps"] == []


def test_sim_events_drive_the_board(client: FlaskClient) -> None:
    reply = client.post("/api/sim/events", json={"events": ["lift S0:1", "place T0:8", "done"]})
    assert reply.status_code == 200
    assert reply.get_json()["moves"] == ["A S0-T0:8"]
    assert client.get("/api/state").get_json()["position"]["turn"] == 1
    record = client.get("/api/games/1/record")
    assert record.status_code == 200 and record.data.decode().splitlines()[0].startswith('{"event":"start"')
    assert client.get("/api/games").get_json()[0]["id"] == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"events": ["lift Q1"]}, "no hole 'Q1' on this board"),
        ({"events": ["jump S0:1"]}, "bad simulated event"),
        ({"events": ["lift T0:8"]}, "cannot lift from T0:8: it is empty"),
        ({"events": "lift S0:1"}, "must be a non-empty list"),
        ({"evnts": []}, 'send {"events": ['),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_sim_events_get_400_and_change_nothing(client: FlaskClient, body: object, message: str) -> None:
    before = client.get("/api/state").get_json()
    reply = client.post("/api/sim/events", json=body)
    assert reply.status_code == 400 and message in reply.get_json()["error"]
    assert client.get("/api/state").get_json()["occupied"] == before["occupied"]


def test_not_json_and_unknown_routes(client: FlaskClient) -> None:
    reply = client.post("/api/sim/events", data="lift S0:1", content_type="text/plain")
    assert reply.status_code == 400
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/sim/events").status_code == 405
    missing = client.get("/api/games/99/record")
    assert missing.status_code == 404 and "no game 99" in missing.get_json()["error"]


def test_sim_events_refused_without_a_simulated_board(tmp_path: Path) -> None:
    from hardware.layout import default_layout
    from hardware.leds import MemoryStrip
    from hardware.sensors import GpioSensors
    from referee.store import Store

    layout = default_layout(4)
    gpiozero = pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    sensors = GpioSensors({"T0:8": 17}, pin_factory=MockFactory())
    service = Service(Config(data_dir=str(tmp_path), sensors="gpio"), Store.open(tmp_path), layout, sensors,
                      MemoryStrip(layout.pixels))  # fmt: skip
    assert gpiozero
    reply = create_app(service).test_client().post("/api/sim/events", json={"events": ["done"]})
    assert reply.status_code == 403 and "only accepted with --simulate" in reply.get_json()["error"]

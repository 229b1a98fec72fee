"""The daemon in one process: simulated board, real SQLite file, real pty for the serial link."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.fake_device import FakeDevice
from hardware.layout import default_layout
from hardware.leds import MemoryStrip
from hardware.sensors import SerialSensors
from hardware.signals import RGB
from referee.game import GameError
from referee.protocol_types import NewGame
from referee.settings.config import Config, ConfigError
from referee.table.store import Store, StoreError
from referee.table.table import Table
from referee.table.view import State


def settle(service: Table, seconds: float = 1.5) -> State:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if service.state()["status"] in ("synced", "illegal"):
            break
        time.sleep(0.05)
    return service.state()


def test_a_move_on_the_simulated_board_is_accepted_and_stored(service: Table, tmp_path: Path) -> None:
    state = service.sim_events(["lift S0:1", "place T0:8"])
    assert state["status"] == "move" and state["move"] == "A S0-T0:8"
    assert state["guidance"] == {}
    state = settle(service)  # committed after the settle time, by the ticker
    assert state["moves"] == ["A S0-T0:8"] and state["turn"] == 1
    assert state["position"]["pegs"]["0"][0] == "T0:8" and state["position"]["turn"] == 1
    events = Store.open(tmp_path).events(state["game"])
    assert [e.kind for e in events if e.kind in ("play", "move")] == ["play", "move"]


def test_done_commits_and_a_bump_is_logged(service: Table) -> None:
    service.sim_events(["lift S0:1", "place T0:8", "done"])
    service.sim_events(["lift S1:1", "place T1:8", "done"])
    service.sim_events(["lift S2:1", "place T2:8", "done"])
    service.sim_events(["lift S3:1", "place T3:8", "done"])
    state = service.sim_events(["lift T1:8", "place S1:1", "lift T0:8", "place T1:8", "done"])  # a joker
    assert state["moves"][-1] == "JOKER T0:8-T1:8x"
    assert state["bumps"][-1] == {"event": "bump", "seat": 1, "by": 0, "from": "T1:8", "to": "S1"}


def test_bad_simulated_events_change_nothing(service: Table) -> None:
    before = service.state()
    for events in (["lift S0:1", "lift S0:1"], ["place Z9"], ["lift S0:1", "hop"], "lift S0:1", []):
        with pytest.raises(ValueError):  # noqa: PT011 - each list is refused for a reason of its own
            service.sim_events(events)
    after = service.state()
    assert after["occupied"] == before["occupied"] and after["version"] == before["version"]


def test_done_never_passes_a_turn_and_cant_move_does(service: Table) -> None:
    """The issue: "a seat that cannot move says so deliberately ... never by one habitual
    press". Done on an unchanged board says how; "Can't move" (the page, or Done held) passes."""
    state = service.press_done()
    assert state["turn"] == 0 and state["moves"] == []
    assert state["notice"] is not None and "Can't move" in state["notice"]
    state = service.cant_move()
    assert state["turn"] == 1 and state["moves"] == [] and state["notice"] == "Red could not move."


def test_done_after_a_settled_move_confirms_it(service: Table) -> None:
    """Defect 1: everyone presses Done after their move, settled or not; nobody loses a turn."""
    service.sim_events(["lift S0:1", "place T0:8"])
    assert settle(service)["moves"] == ["A S0-T0:8"]
    state = service.press_done()
    assert state["turn"] == 1 and state["history"] == [
        {"seat": 0, "move": "A S0-T0:8", "words": "Red comes out (an ace or a face card)"}
    ]
    assert state["notice"] == "Red's move stands."
    state = service.press_done()  # a second, habitual press
    assert state["turn"] == 1 and len(state["history"]) == 1


def test_undo_waits_for_the_pegs_to_go_back(service: Table) -> None:
    service.sim_events(["lift S0:1", "place T0:8", "done"])
    state = service.undo()
    assert state["moves"] == [] and state["turn"] == 0
    assert state["status"] == "illegal" and state["guidance"] == {"T0:8": "wrong", "S0:1": "put-back"}
    time.sleep(1.0)  # the board still shows the undone move: it must not be taken again
    assert service.state()["moves"] == []
    assert service.sim_events(["lift T0:8", "place S0:1"])["status"] == "synced"


def test_restart_resumes_the_game_and_the_board(tmp_path: Path) -> None:
    first = Table.build(Config.simulated(str(tmp_path)))
    first.start()
    first.sim_events(["lift S0:1", "place T0:8", "done"])
    first.sim_events(["lift S1:2", "place T1:8"])  # seat 1 moves, then the power goes
    first.stop()
    again = Table.build(Config.simulated(str(tmp_path)))
    again.start()
    try:
        state = again.state()
        assert state["moves"] == ["A S0-T0:8"]
        assert state["status"] == "move" and state["move"] == "A S1-T1:8"  # seen on the board at start-up
        assert settle(again)["moves"] == ["A S0-T0:8", "A S1-T1:8"]
    finally:
        again.stop()


def test_serial_unplug_during_a_move(tmp_path: Path) -> None:
    """The link is unplugged between the lift and the place: after the replug its snapshot
    shows the finished move, and the referee takes it."""
    layout = default_layout(4)
    idle = [True] * len(layout.channels)  # empty holes read high (hall sensors, active low)
    start = ["S0:1", "S0:2", "S0:3", "S0:4", "S0:5"] + [f"S{s}:{i}" for s in (1, 2, 3) for i in range(1, 6)]
    for hole in start:
        idle[layout.channel(hole)] = False
    with FakeDevice(len(idle), heartbeat=0.1, levels=idle) as device:
        sensors = SerialSensors.open(layout, port=device.path)
        config = Config.simulated(str(tmp_path), sensors="serial")
        service = Table(config, Store.open(tmp_path), layout, sensors, MemoryStrip(layout.pixels))
        assert sensors.wait_connected(5)
        service.start()
        try:
            device.set(layout.channel("S0:3"), True)  # lift
            _wait(lambda: service.state()["status"] == "moving")
            device.unplug()
            device.set(layout.channel("T0:8"), False, send=False)  # placed while unplugged
            time.sleep(0.3)
            device.replug()
            _wait(lambda: service.state()["moves"] == ["A S0-T0:8"], 8)
            assert sensors.health()["link"]["reconnects"] >= 1
        finally:
            service.stop()


def test_a_firmware_too_short_for_the_board_is_refused_until_reflashed(tmp_path: Path) -> None:
    """Issue 12: a 96-channel firmware under a 112-hole board. The daemon believes nothing it
    says (the holes past channel 95 would read empty for ever), says why on the page and in
    the health view, and plays on once the right firmware is flashed."""
    layout = default_layout(4)
    levels = [True] * len(layout.channels)
    for hole in [f"S{side}:{i}" for side in range(4) for i in range(1, 6)]:
        levels[layout.channel(hole)] = False
    with FakeDevice(96, heartbeat=0.1, levels=levels[:96]) as device:
        sensors = SerialSensors.open(layout, port=device.path)
        config = Config.simulated(str(tmp_path), sensors="serial")
        service = Table(config, Store.open(tmp_path), layout, sensors, MemoryStrip(layout.pixels))
        assert sensors.wait_connected(5)
        service.start()
        try:
            _wait(lambda: service.state()["sensor_error"] is not None)
            error = service.state()["sensor_error"]
            assert error is not None
            assert "reads 96 channels" in error and "uses 112" in error and "pegs firmware --sides 4" in error
            assert service.health()["sensors"]["fault"] == error
            before = service.state()["occupied"]
            device.set(layout.channel("S0:3"), True)  # a peg lifted: not believed
            time.sleep(0.3)
            assert service.state()["occupied"] == before and service.state()["moves"] == []
            device.reflash(levels)  # pegs firmware, copied; the Pico restarts with 112 channels
            _wait(lambda: service.state()["sensor_error"] is None)
            device.set(layout.channel("S0:3"), True)
            device.set(layout.channel("T0:8"), False)
            _wait(lambda: service.state()["moves"] == ["A S0-T0:8"], 8)
        finally:
            service.stop()


def _daemon_of(config_file: Path, board_line: str, device: FakeDevice) -> Table:
    """The daemon as ``pegs serve --config`` builds it: a 4-player config with ``board_line``
    under [board], the sensor board on ``device``'s pseudo-terminal, LEDs in memory."""
    config_file.write_text(
        f'[board]\nplayers = 4\n{board_line}\n[sensors]\nbackend = "serial"\n'
        f'port = {json.dumps(device.path)}\n[leds]\nbackend = "memory"\n[data]\ndir = "data"\n'
    )
    return Table.build(Config.from_toml(config_file))


def test_a_sensor_board_bigger_than_the_config_is_refused_with_both_fixes(tmp_path: Path) -> None:
    """Issue 23, items 3 and 7: the config says 4 players, the sensor board reads 168 channels (a
    6-sided board's firmware). The daemon built from that config believes nothing the board says,
    and its page and health view say so with both fixes: the config line, or the firmware made
    from the config's own layout file. Its health view says which config it runs."""
    layout = default_layout(4)
    (tmp_path / "layout.toml").write_text(layout.to_toml())
    config_file = tmp_path / "pegs.toml"
    with FakeDevice(168, heartbeat=0.1) as device:
        service = _daemon_of(config_file, 'layout = "layout.toml"', device)
        service.start()
        try:
            _wait(lambda: service.state()["sensor_error"] is not None)
            error = service.state()["sensor_error"]
            assert error is not None
            assert "reads 168 channels (21 chips)" in error and "uses 112" in error
            assert "set players = 6 under [board]" in error
            assert f"pegs firmware --layout {tmp_path / 'layout.toml'} --out" in error
            health = service.health()
            assert health["sensors"]["fault"] == error and health["config"] == str(config_file.resolve())
            board = {"sides": 4, "holes": 112, "channels": 112, "file": str(tmp_path / "layout.toml")}
            assert health["layout"] == board
            assert json.dumps(health)
        finally:
            service.stop()


def test_a_board_with_colour_markers_set_by_one_config_line(tmp_path: Path) -> None:
    """Issue 23, item 3: the board's shape is set in the config, not by a layout file only.
    ``markers = true`` under [board] is the standard layout with a colour hole per side (116
    holes on 15 chips: 120 channels, what ``pegs firmware --sides 4 --markers`` writes); a peg
    in a colour hole is no move, and the game plays on beside it."""
    layout = default_layout(4, colour_markers=True)
    levels = [True] * 120
    for hole in [f"S{side}:{i}" for side in range(4) for i in range(1, 6)] + ["C0", "C1", "C2", "C3"]:
        levels[layout.channel(hole)] = False
    config_file = tmp_path / "pegs.toml"
    with FakeDevice(120, heartbeat=0.1, levels=levels) as device:
        service = _daemon_of(config_file, "markers = true", device)
        service.start()
        try:
            _wait(lambda: service.health()["sensors"]["link"]["channels"] == 120)
            assert service.state()["sensor_error"] is None
            assert service.health()["layout"]["holes"] == 116
            device.set(layout.channel("C2"), True)  # a colour peg taken out and put back
            device.set(layout.channel("C2"), False)
            device.set(layout.channel("S0:3"), True)
            device.set(layout.channel("T0:8"), False)
            _wait(lambda: service.state()["moves"] == ["A S0-T0:8"], 8)
        finally:
            service.stop()
    for line, error in (("markers = 1", "board.markers must be true or false"),):
        config_file.write_text(f"[board]\n{line}\n")
        with pytest.raises(ConfigError, match=error):
            Config.from_toml(config_file)


def test_a_read_only_or_missing_data_dir_is_a_clear_error_at_start(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot create data dir"):
        Store.open(blocker / "data")
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "serve", "--simulate", "--data", str(blocker / "d")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.strip().startswith("pegs serve: cannot create data dir")


def test_full_and_read_only_filesystems(tmp_path: Path) -> None:
    """Real filesystems: a read-only mount and a nearly full one (tmpfs, when we may mount)."""
    readonly, tiny = tmp_path / "ro", tmp_path / "tiny"
    readonly.mkdir()
    tiny.mkdir()
    mounted = []
    try:
        for where, options in ((readonly, "ro,size=1m"), (tiny, "size=64k")):
            done = subprocess.run(
                ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True, check=False
            )
            if done.returncode != 0:
                pytest.skip("mounting a tmpfs is not allowed here")
            mounted.append(where)
        with pytest.raises(StoreError, match="is not writable: Read-only file system"):
            Store.open(readonly)
        with pytest.raises(StoreError, match="KiB free; the game store needs 5 MiB"):
            Store.open(tiny)
    finally:
        for where in mounted:
            subprocess.run(["umount", str(where)], check=False)


def test_config_file_errors_name_the_key(tmp_path: Path) -> None:
    path = tmp_path / "pegs.toml"
    path.write_text('[game]\nrules = "texas"\n')
    with pytest.raises(ConfigError, match="game.rules: unknown rule set 'texas'"):
        Config.from_toml(path)
    path.write_text("[leds]\nbrightnes = 0.5\n")
    with pytest.raises(ConfigError, match="unknown key leds.brightnes"):
        Config.from_toml(path)
    path.write_text('[sensors]\nbackend = "serial"\nport = "/dev/pegs-board"\n[data]\ndir = "games"\n')
    config = Config.from_toml(path)
    assert config.sensors == "serial" and config.data_dir == str(tmp_path / "games")
    path.write_text('[web]\nallowed_hosts = ["pegs.example", " 192.168.1.50 "]\n')
    assert Config.from_toml(path).allowed_hosts == ("pegs.example", "192.168.1.50")
    path.write_text('[web]\nallowed_hosts = "pegs.example"\n')
    with pytest.raises(ConfigError, match="web.allowed_hosts must be a list"):
        Config.from_toml(path)
    # Issue 23, item 7: through-hole NeoPixels are often RGB; the colour order is a config key.
    path.write_text("[leds]\n")
    assert Config.from_toml(path).pixel_order == "GRB"
    path.write_text('[leds]\npixel_order = "RGB"\n')
    assert Config.from_toml(path).pixel_order == "RGB"
    path.write_text('[leds]\npixel_order = "RGBW"\n')
    choices = "'GRB', 'RGB', 'RBG', 'GBR', 'BRG', 'BGR'"
    with pytest.raises(ConfigError, match=f"leds.pixel_order must be one of {choices}, not 'RGBW'"):
        Config.from_toml(path)


def _wiring(service: Table) -> dict[str, Any]:
    """The wiring check's part of the page's state: there once a check has been started."""
    wiring = service.state()["wiring"]
    assert wiring is not None
    return wiring


def _wait(condition: object, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_health_reports_the_parts(service: Table) -> None:
    service.sim_events(["lift S0:1", "place T0:8"])
    health = service.health()
    assert health["sensors"]["backend"] == "simulated" and health["leds"]["backend"] == "MemoryStrip"
    assert health["config"] is None  # a simulated daemon runs no config file (pegs doctor tells them apart)
    assert health["layout"] == {"sides": 4, "holes": 112, "channels": 112, "file": None}
    assert health["latency_ms"]["p99"] is not None and health["rss_mb"] > 0
    assert json.dumps(health)


def test_done_and_undo_buttons_through_gpiozero(service: Table) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hardware.controls import Controls

    factory = MockFactory(pin_class=MockPWMPin)
    service.attach_controls(Controls(5, 6, 13, pin_factory=factory, hold_time=0.3))
    service.sim_events(["lift S0:1", "place T0:8"])
    factory.pin(5).drive_low()  # "done"
    _wait(lambda: service.state()["moves"] == ["A S0-T0:8"])
    factory.pin(5).drive_high()
    factory.pin(6).drive_low()  # "undo"
    _wait(lambda: service.state()["moves"] == [])
    assert service.state()["status"] == "illegal"  # put the peg back first
    factory.pin(6).drive_high()
    service.sim_events(["lift T0:8", "place S0:1"])
    factory.pin(5).drive_low()  # Done held down: Red can't move
    _wait(lambda: service.state()["turn"] == 1)
    factory.pin(5).drive_high()
    assert service.state()["moves"] == []


def test_a_move_the_store_cannot_save_is_not_accepted(service: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_args: object) -> None:
        raise StoreError("the game store could not save: database or disk is full")

    monkeypatch.setattr(service.store, "append", full)
    service.sim_events(["lift S0:1", "place T0:8"])
    with pytest.raises(StoreError):
        service.press_done()
    assert service.state()["moves"] == [] and service.session.game.moves == []
    assert service.health()["store"]["ok"] is False and "disk is full" in service.health()["store"]["error"]
    store_error = service.state()["store_error"]
    assert store_error is not None and "disk is full" in store_error
    monkeypatch.undo()
    assert service.press_done()["moves"] == ["A S0-T0:8"]
    assert service.health()["store"] == {"path": str(service.store.path), "ok": True, "error": None, "recovered": None}


def test_a_refused_request_moves_no_simulated_peg(service: Table) -> None:
    """Defect 8: a request refused during a wiring check (409) changes nothing at all."""
    service.check_wiring(timeout=30)
    _wait(lambda: _wiring(service).get("action") == "empty")
    before = sorted(service.sensors.snapshot())
    with pytest.raises(GameError, match="wiring check is running"):
        service.sim_events(["lift S0:1", "place T0:8", "done"])
    assert sorted(service.sensors.snapshot()) == before
    service.stop_wiring_check()
    _wait(lambda: _wiring(service)["running"] is False)
    assert service.state()["moves"] == [] and service.state()["status"] == "synced"


def test_digital_cards_on_the_simulated_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Digital mode: the daemon deals and draws; a move must be one of the hand's cards."""
    seeds = iter(range(1000))
    monkeypatch.setattr("referee.table.session.random.randrange", lambda _n: next(seeds))
    service = Table.build(Config.simulated(str(tmp_path), mode="digital", players=2))
    service.start()
    try:
        while not {"A", "J", "Q", "K"} & set(service.hand(0)["hand"]):  # deal until seat 0 can come out
            service.new_game(NewGame(2, service.session.game.rules, mode="digital"))
        hand = service.hand(0)
        assert hand["your_turn"] and len(hand["hand"]) == 6  # basic: drawn to six before playing
        card = min({"A", "J", "Q", "K"} & set(hand["hand"]))
        wrong = service.sim_events(["lift S0:1", "place T0:9", "done"])
        assert wrong["status"] == "illegal" and wrong["moves"] == []
        service.sim_events(["lift T0:9", "place S0:1"])
        service.declare(0, card)
        state = service.sim_events(["lift S0:1", "place T0:8", "done"])
        assert state["moves"] == [f"{card} S0-T0:8"] and state["turn"] == 2 and state["last_card"] == card
        assert len(service.hand(0)["hand"]) == 5 and service.hand(2)["your_turn"]
        with pytest.raises(PermissionError):
            service.declare(0, card)  # not seat 0's turn any more
    finally:
        service.stop()


def test_wiring_check_from_the_page(service: Table) -> None:
    """Calibration on the page: the LEDs are walked, a peg goes into each asked hole, the
    game waits meanwhile, and afterwards the board is compared with the game again."""
    start = service.state()["occupied"]

    service.check_wiring(holes=["T0:8", "T1:4"], timeout=5)
    _wait(lambda: _wiring(service).get("action") == "empty")
    with pytest.raises(GameError, match="wiring check is running"):
        service.press_done()
    service.sim_events([f"lift {hole}" for hole in start])
    _wait(lambda: _wiring(service).get("hole") == "T0:8")
    assert service.strip.last is not None and service.strip.last[service.layout.pixel("T0:8")] != (0, 0, 0)
    service.sim_events(["place T0:8"])
    _wait(lambda: _wiring(service).get("hole") == "T1:4")
    service.sim_events(["lift T0:8", "place T2:4"])  # the wrong hole answers: swapped wires
    _wait(lambda: _wiring(service).get("action") == "remove")
    service.sim_events(["lift T2:4"])
    _wait(lambda: _wiring(service)["running"] is False)
    result = _wiring(service)
    assert result["ok"] is False and result["report"]["swapped"] == [{"asked": "T1:4", "seen": "T2:4"}]
    assert service.state()["moves"] == [] and service.state()["status"] in ("moving", "illegal")
    assert service.sim_events([f"place {hole}" for hole in start])["status"] == "synced"


def test_a_wiring_check_can_be_stopped(service: Table) -> None:
    service.check_wiring(timeout=30)
    _wait(lambda: _wiring(service).get("action") == "empty")
    service.stop_wiring_check()
    _wait(lambda: _wiring(service)["running"] is False)
    assert _wiring(service)["text"] == "the wiring check was stopped"
    assert service.state()["status"] == "synced"


def test_a_wrong_peg_blinks_on_the_leds_while_the_page_shows_it_steady(service: Table) -> None:
    """Issue 13, "Colour, for everyone": "wrong" must differ in more than hue, so its LED
    blinks (hardware/signals.py); the page's mirror shows the light at full, not a blink's
    dark half, and says the same thing once."""
    state = service.sim_events(["lift S0:1", "place T0:5"])  # no card moves a peg out to T0:5
    wrong = [hole for hole, role in state["guidance"].items() if role == "wrong"]
    assert wrong, state["guidance"]
    pixel = service.layout.pixel(wrong[0])
    strip = service.strip
    assert isinstance(strip, MemoryStrip)
    seen: set[RGB] = set()
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline and len(seen) < 2:
        seen.add(strip.frame[pixel])
        time.sleep(0.02)
    assert (0, 0, 0) in seen and len(seen) == 2  # on, off: a blink, not a steady red
    assert service.state()["leds"][wrong[0]] != "#000000"  # the page: always the lit phase

"""hardware.sensors: the simulated board, gpiozero pins (MockFactory) and the serial link (a fake)."""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.layout import default_layout
from hardware.sensors import (
    Change,
    GpioSensors,
    SensorBoard,
    SerialSensors,
    SimulatedSensors,
    channel_mismatch,
    parse_vid_pid,
)

LAYOUT = default_layout(4)


# -- simulated ----------------------------------------------------------------------------


def test_simulated_lift_and_place_emit_changes() -> None:
    ticks = iter(range(100))
    board = SimulatedSensors(LAYOUT, occupied=["S0:1", "S0:2"], clock=lambda: float(next(ticks)))
    seen: list[Change] = []
    board.subscribe(seen.append)
    board.lift("S0:1")
    board.place("T0:8")
    assert seen == [Change("S0:1", False, 0.0), Change("T0:8", True, 1.0)]
    assert board.snapshot() == frozenset({"S0:2", "T0:8"})
    assert isinstance(board, SensorBoard)


def test_simulated_set_emits_lifts_then_places_in_hole_order() -> None:
    board = SimulatedSensors(LAYOUT, occupied=["T0:5", "S0:1"])
    seen: list[Change] = []
    board.subscribe(seen.append)
    board.set(["S0:1", "T1:2", "T0:9"])
    assert [(c.hole, c.occupied) for c in seen] == [("T0:5", False), ("T0:9", True), ("T1:2", True)]
    assert board.set(["S0:1", "T1:2", "T0:9"]) == []  # nothing changes, nothing is emitted
    assert len(seen) == 3


def test_simulated_refuses_impossible_moves() -> None:
    board = SimulatedSensors(["A", "B"], occupied=["A"])
    with pytest.raises(ValueError, match="cannot lift from B: it holds no peg"):
        board.lift("B")
    with pytest.raises(ValueError, match="cannot place in A: it already holds a peg"):
        board.place("A")
    with pytest.raises(ValueError, match="unknown hole 'T9:9'"):
        board.place("T9:9")
    with pytest.raises(ValueError, match="unknown hole 'Z'"):
        SimulatedSensors(["A"], occupied=["Z"])
    with pytest.raises(ValueError, match="unknown hole 'Z'"):
        board.set(["Z"])


def test_unsubscribe_and_a_broken_subscriber() -> None:
    board = SimulatedSensors(LAYOUT)
    seen: list[Change] = []

    def broken(change: Change) -> None:
        raise RuntimeError("boom")

    board.subscribe(broken)
    unsubscribe = board.subscribe(seen.append)
    board.place("T0:0")  # the broken one is logged and counted, the other still gets it
    unsubscribe()
    board.lift("T0:0")
    assert [c.hole for c in seen] == ["T0:0"]
    health = board.health()
    assert health == {
        "backend": "simulated",
        "closed": False,
        "occupied": 0,
        "changes": 2,
        "callback_errors": 2,
        "fault": None,
        "holes": 112,
    }
    board.close()
    with pytest.raises(RuntimeError, match="closed"):
        board.place("T0:0")


# -- gpiozero pins ----------------------------------------------------------------------------


@pytest.fixture
def factory() -> Any:
    factory = MockFactory()
    yield factory
    factory.reset()


def test_gpio_active_low_hall_sensors(factory: Any) -> None:
    pins: dict[str, int | str] = {"T0:0": 17, "T0:1": "GPIO27", "T0:2": 22}
    with GpioSensors(pins, pin_factory=factory) as sensors:
        seen: list[Change] = []
        sensors.subscribe(seen.append)
        assert sensors.snapshot() == frozenset()  # the pull-up holds every line high: empty
        factory.pin(27).drive_low()  # a magnet comes near T0:1's A3144
        factory.pin(22).drive_low()
        factory.pin(27).drive_high()
        assert [(c.hole, c.occupied) for c in seen] == [("T0:1", True), ("T0:2", True), ("T0:1", False)]
        assert sensors.snapshot() == frozenset({"T0:2"})
        assert seen[0].at <= seen[1].at <= seen[2].at
        assert sensors.health()["pins"] == {"T0:0": "17", "T0:1": "GPIO27", "T0:2": "22"}
    # closed: the pins are free again
    GpioSensors({"T0:0": 17}, pin_factory=factory).close()


def test_gpio_active_high_and_starting_occupied(factory: Any) -> None:
    factory.pin(5)  # created before the Button: pulled down by it, then driven high by a sensor
    sensors = GpioSensors({"H0:1": 5, "H0:2": 6}, active_low=False, pin_factory=factory)
    factory.pin(5).drive_high()
    assert sensors.snapshot() == frozenset({"H0:1"})
    seen: list[Change] = []
    sensors.subscribe(seen.append)
    factory.pin(5).drive_low()
    assert seen and seen[0].hole == "H0:1" and not seen[0].occupied
    sensors.close()
    factory.pin(5).drive_high()  # after close: nothing is reported
    assert len(seen) == 1


def test_gpio_refuses_a_pin_in_use(factory: Any) -> None:
    from gpiozero.exc import GPIOPinInUse

    with pytest.raises(GPIOPinInUse):
        GpioSensors({"T0:0": 17, "T0:1": 17}, pin_factory=factory)
    GpioSensors({"T0:0": 17}, pin_factory=factory).close()  # the failed one released pin 17


def test_gpio_uses_the_global_pin_factory(factory: Any) -> None:
    from gpiozero import Device

    old = Device.pin_factory
    Device.pin_factory = factory
    try:
        with GpioSensors({"T0:0": 17}) as sensors:
            factory.pin(17).drive_low()
            assert sensors.snapshot() == frozenset({"T0:0"})
    finally:
        Device.pin_factory = old


# -- the serial link (a fake with SerialLink's API) ----------------------------------------------------


@dataclass
class FakeHealth:
    connected: bool = True
    port: str | None = "/dev/fake"
    firmware_version: str = "1.0"
    channels: int = 112
    frames: int = 0
    errors: int = 0
    resyncs: int = 0
    reconnects: int = 0
    last_heartbeat: float | None = None
    last_frame: float | None = None


class FakeLink:
    """firmware_bridge.link.SerialLink's API, driven by the test: ``change`` and ``send_snapshot``."""

    def __init__(
        self,
        port: str | None = None,
        *,
        vid_pid: Any = None,
        baudrate: int = 115200,
        on_change: Any = None,
        on_snapshot: Any = None,
        channels: int = 112,
    ) -> None:
        self.port, self.vid_pid, self.baudrate = port, vid_pid, baudrate
        self.on_change, self.on_snapshot = on_change, on_snapshot
        self._levels = [True] * channels  # active-low sensors idle high
        self.started = self.stopped = False
        self.snapshot_requests = 0
        self.health = FakeHealth(channels=channels)

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.stopped = True

    def request_snapshot(self) -> None:
        self.snapshot_requests += 1
        self.send_snapshot()

    def wait_connected(self, timeout: float | None = None) -> bool:
        return self.started

    @property
    def levels(self) -> tuple[bool, ...]:
        return tuple(self._levels)

    # the device's side
    def change(self, channel: int, level: bool, t: float = 1.0) -> None:
        self._levels[channel] = level
        self.on_change(channel, level, t)

    def send_snapshot(self, t: float = 2.0) -> None:
        self.on_snapshot(tuple(self._levels), t)


def test_serial_maps_channels_and_polarity() -> None:
    sensors = SerialSensors(LAYOUT, FakeLink)  # a factory: SerialSensors builds and starts it
    link: FakeLink = sensors.link  # type: ignore[assignment]
    assert link.started and link.on_change == sensors.on_change
    seen: list[Change] = []
    sensors.subscribe(seen.append)
    link.change(LAYOUT.channel("T0:8"), False, t=10.0)  # low = a peg (active_low)
    link.change(LAYOUT.channel("T0:8"), False, t=10.5)  # a repeat changes nothing
    link.change(LAYOUT.channel("S0:1"), False, t=11.0)
    link.change(LAYOUT.channel("T0:8"), True, t=12.0)
    assert seen == [Change("T0:8", True, 10.0), Change("S0:1", True, 11.0), Change("T0:8", False, 12.0)]
    assert sensors.snapshot() == frozenset({"S0:1"})
    sensors.close()
    assert link.stopped


def test_serial_snapshot_that_differs_is_reported_as_changes() -> None:
    sensors = SerialSensors(LAYOUT, functools.partial(FakeLink, "/dev/ttyACM0"))
    link: FakeLink = sensors.link  # type: ignore[assignment]
    assert link.port == "/dev/ttyACM0"
    link.change(LAYOUT.channel("T1:1"), False)
    seen: list[Change] = []
    sensors.subscribe(seen.append)
    # frames were lost: the device now sees T1:1 empty, H2:5 and T3:0 occupied
    link._levels[LAYOUT.channel("T1:1")] = True
    link._levels[LAYOUT.channel("H2:5")] = False
    link._levels[LAYOUT.channel("T3:0")] = False
    link.send_snapshot(t=20.0)
    assert seen == [Change("T1:1", False, 20.0), Change("H2:5", True, 20.0), Change("T3:0", True, 20.0)]
    assert sensors.snapshot() == frozenset({"H2:5", "T3:0"})
    link.send_snapshot(t=21.0)  # the same again: nothing new
    assert len(seen) == 3


def test_serial_unmapped_channels_and_short_snapshots() -> None:
    layout = default_layout(4, colour_markers=True, active_low=False)  # 116 holes on 15 chips: 120 channels
    sensors = SerialSensors(layout, functools.partial(FakeLink, channels=120))
    link: FakeLink = sensors.link  # type: ignore[assignment]
    link.change(117, True)  # a channel no hole uses
    assert sensors.snapshot() == frozenset()
    # A device with fewer channels than the layout wires is refused, not read as empty
    # holes (issue 12: "the daemon ... must refuse clearly when the device reports fewer
    # channels than the layout uses"); a full-length snapshot clears the fault.
    link.on_snapshot((False,) * 10 + (True,), 3.0)
    assert sensors.snapshot() == frozenset()
    assert sensors.fault is not None and "reads 11 channels" in sensors.fault
    assert "uses 116" in sensors.fault and "pegs firmware --sides 4 --markers" in sensors.fault
    # More channels than the firmware made for this layout reads is refused too: a 6-sided
    # board (21 chips) under a config that says 4 sides (issue 23, item 3).
    link.on_snapshot((False,) * 168, 3.5)
    assert sensors.fault is not None and "reads 168 channels (21 chips)" in sensors.fault
    assert "set players = 6 under [board]" in sensors.fault
    link.on_snapshot((False,) * 10 + (True,) + (False,) * 109, 4.0)
    assert sensors.fault is None
    assert sensors.snapshot() == frozenset({layout.hole(10)})
    health = sensors.health()
    assert health["unmapped_changes"] == 1
    assert health["snapshots"] == 3  # all were received; only the last was taken
    assert health["link"]["firmware_version"] == "1.0"
    assert health["backend"] == "serial"


def test_serial_with_a_built_link_reads_its_levels_first() -> None:
    sensors: SerialSensors

    link = FakeLink(on_change=lambda *a: sensors.on_change(*a), on_snapshot=lambda *a: sensors.on_snapshot(*a))
    link._levels[LAYOUT.channel("S1:1")] = False
    sensors = SerialSensors(LAYOUT, link)
    assert not link.started  # the caller starts a link it built
    assert sensors.snapshot() == frozenset({"S1:1"})
    link.start()
    assert sensors.wait_connected(0.1)
    sensors.request_snapshot()
    assert link.snapshot_requests == 1
    seen: list[Change] = []
    sensors.subscribe(seen.append)
    link.change(LAYOUT.channel("S1:1"), True)
    assert seen == [Change("S1:1", False, 1.0)]
    sensors.close()
    assert link.stopped
    link.change(LAYOUT.channel("S1:2"), False)  # after close: nothing is reported
    assert len(seen) == 1


def test_serial_callbacks_from_another_thread() -> None:
    sensors = SerialSensors(LAYOUT, FakeLink)
    link: FakeLink = sensors.link  # type: ignore[assignment]
    seen: list[Change] = []
    sensors.subscribe(seen.append)
    channels = [LAYOUT.channel(hole) for hole in LAYOUT.hole_names[:50]]

    def device() -> None:
        for channel in channels:
            link.change(channel, False)

    thread = threading.Thread(target=device)
    thread.start()
    thread.join(5)
    assert [c.hole for c in seen] == list(LAYOUT.hole_names[:50])


def test_serial_open_builds_the_real_link_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    module = types.ModuleType("firmware_bridge.link")
    module.SerialLink = FakeLink  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "firmware_bridge.link", module)
    sensors = SerialSensors.open(LAYOUT, port="/dev/ttyACM1", vid_pid="239a:80f4", baudrate=230400)
    link: FakeLink = sensors.link  # type: ignore[assignment]
    assert (link.port, link.vid_pid, link.baudrate, link.started) == ("/dev/ttyACM1", (0x239A, 0x80F4), 230400, True)
    sensors.close()


def test_serial_suspects_a_wrong_polarity() -> None:
    sensors = SerialSensors(LAYOUT, FakeLink)  # active_low, but the device reports "active" levels
    link: FakeLink = sensors.link  # type: ignore[assignment]
    link._levels = [False] * 112  # an empty board, read the other way round: every hole occupied
    link.send_snapshot()
    assert sensors.health()["polarity_suspect"] is True
    link._levels = [True] * 112
    link.send_snapshot()
    assert sensors.health()["polarity_suspect"] is False


def test_parse_vid_pid() -> None:
    assert parse_vid_pid("239a:80F4") == (0x239A, 0x80F4)
    with pytest.raises(ValueError, match="VID:PID in hex"):
        parse_vid_pid("239a")


def test_serial_through_the_real_link_and_fake_device() -> None:
    """The contract with firmware_bridge: SerialLink on a pty, a lost frame healed by a snapshot."""
    fake_device = pytest.importorskip("firmware_bridge.fake_device")
    layout = default_layout(4, active_low=False)  # the firmware reports "sensor active" as True
    arrived = threading.Condition()
    seen: list[Change] = []

    def record(change: Change) -> None:
        with arrived:
            seen.append(change)
            arrived.notify_all()

    with fake_device.FakeDevice(channels=112, levels=[False] * 112) as device:  # active high: low is empty
        device.set(layout.channel("S0:1"), True)
        sensors = SerialSensors.open(layout, port=device.path)
        try:
            assert sensors.wait_connected(5)
            assert sensors.snapshot() == frozenset({"S0:1"})
            sensors.subscribe(record)
            device.set(layout.channel("S0:1"), False)
            device.drop_next(1)  # T0:8's change frame is lost on the wire
            device.set(layout.channel("T0:8"), True)
            device.set(layout.channel("T0:9"), True)
            with arrived:
                assert arrived.wait_for(lambda: len(seen) == 3, timeout=5)
            assert {(c.hole, c.occupied) for c in seen} == {("S0:1", False), ("T0:8", True), ("T0:9", True)}
            assert sensors.snapshot() == frozenset({"T0:8", "T0:9"})
            assert sensors.health()["link"]["channels"] == 112
        finally:
            sensors.close()


def test_a_mismatch_names_the_config_line_for_colour_marker_holes() -> None:
    """Issue 23, item 3: the board's size and shape are set in the config. A sensor board made
    with --markers under a config without them (120 channels against 112) is told to set
    ``markers = true``; the other way round, to take it out."""
    plain, marked = default_layout(4), default_layout(4, colour_markers=True)
    more = channel_mismatch(120, plain)
    assert more is not None and "set markers = true under [board]" in more and "players =" not in more
    fewer = channel_mismatch(112, marked)
    assert fewer is not None and "take markers = true out of the config" in fewer and "--markers" in fewer
    # A calibrated layout's file says what the board has: no config line to suggest.
    assert "markers = true" not in (channel_mismatch(120, plain, "/etc/pegs/layout.toml") or "")
    assert channel_mismatch(120, marked) is None and channel_mismatch(112, plain) is None
    # The wiring tools take the board's shape from --markers, not a config: they say that option.
    told = channel_mismatch(120, plain, by_option=True)
    assert told is not None and "run this again with --markers" in told and "config" not in told

"""The serial link against the fake device on a real pseudo-terminal."""

from __future__ import annotations

import os
import queue
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge import link as link_module
from firmware_bridge import protocol
from firmware_bridge.fake_device import FakeDevice
from firmware_bridge.link import LinkHealth, SerialLink, find_port
from referee.bench.link import link_latency

CHANNELS = 24
BOARD = [channel % 3 == 0 for channel in range(CHANNELS)]


def eventually(predicate: Callable[[], bool], timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


class Recorder:
    """What the link told its consumer, and every transition the device really made."""

    def __init__(self, device: FakeDevice) -> None:
        self.lock = threading.Lock()
        self.changes: list[tuple[int, bool]] = []
        self.snapshots: list[tuple[bool, ...]] = []
        self.real = {(channel, level) for channel, level in enumerate(device.levels)}

    def on_change(self, channel: int, level: bool, t: float) -> None:
        assert isinstance(t, float) and abs(time.monotonic() - t) < 1.0
        with self.lock:
            self.changes.append((channel, level))

    def on_snapshot(self, levels: tuple[bool, ...], t: float) -> None:
        with self.lock:
            self.snapshots.append(levels)

    def set(self, device: FakeDevice, channel: int, level: bool) -> None:
        self.real.add((channel, level))
        device.set(channel, level)

    def assert_no_phantom(self) -> None:
        with self.lock:
            phantoms = [change for change in self.changes if change not in self.real]
        assert not phantoms, f"changes the device never made: {phantoms!r}"


@pytest.fixture
def device() -> Iterator[FakeDevice]:
    with FakeDevice(CHANNELS, heartbeat=0.1, snapshot_every=60.0, levels=BOARD, seed=7) as fake:
        yield fake


@pytest.fixture
def recorder(device: FakeDevice) -> Recorder:
    return Recorder(device)


@pytest.fixture
def link(device: FakeDevice, recorder: Recorder) -> Iterator[SerialLink]:
    serial_link = SerialLink(
        device.path, on_change=recorder.on_change, on_snapshot=recorder.on_snapshot, backoff=(0.01, 0.1)
    )
    with serial_link:
        assert serial_link.wait_connected(2.0)
        yield serial_link


def converged(link: SerialLink, device: FakeDevice) -> bool:
    return link.levels == device.levels


def test_connects_sees_hello_and_the_board(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    health = link.health
    assert isinstance(health, LinkHealth)
    assert health.connected and health.port == device.path
    assert health.firmware_version == "fake-1.0" and health.channels == CHANNELS
    assert health.errors == health.resyncs == health.reconnects == 0
    assert link.levels == tuple(BOARD)
    assert recorder.snapshots == [tuple(BOARD)] and recorder.changes == []
    assert eventually(lambda: link.health.last_heartbeat is not None)
    assert device.requests[protocol.HELLO] >= 1 and device.requests[protocol.SNAPSHOT] >= 1


def test_changes_arrive_in_order_and_only_when_real(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    moves = [(1, True), (2, True), (1, False), (0, False), (23, True)]
    for channel, level in moves:
        recorder.set(device, channel, level)
    device.set(2, True)  # no change, no frame
    assert eventually(lambda: len(recorder.changes) == len(moves))
    assert recorder.changes == moves
    assert converged(link, device)
    assert link.health.errors == 0 and link.health.resyncs == 0


def test_bursts_of_garbage(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    rng = random.Random(3)
    for _round in range(12):
        device.garbage(rng.randrange(1, 400))
        recorder.set(device, rng.randrange(CHANNELS), rng.random() < 0.5)
    assert eventually(lambda: converged(link, device) and not link._snapshot_pending)
    health = link.health
    assert health.errors > 0 and health.resyncs > 0 and health.connected
    recorder.assert_no_phantom()


def test_corrupted_frames_are_dropped_never_misread(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    for index, bits in enumerate((1, 2, 3, 8, 1, 2)):
        channel = index * 4 + 1
        device.corrupt_next(bits)
        recorder.set(device, channel, not device.levels[channel])
        assert eventually(lambda: converged(link, device))
    assert link.health.errors >= 6 and link.health.resyncs >= 1
    recorder.assert_no_phantom()


def test_dropped_frames_are_a_gap_and_a_resync(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    requested = device.requests[protocol.SNAPSHOT]
    device.drop_next(3)
    for channel in (4, 5, 7):
        recorder.set(device, channel, True)
    assert link.levels != device.levels  # nothing arrived, and nothing says so yet
    recorder.set(device, 8, True)  # the next frame shows the gap
    assert eventually(lambda: converged(link, device))
    health = link.health
    assert health.resyncs == 1 and health.errors == 0
    assert device.requests[protocol.SNAPSHOT] > requested
    assert recorder.snapshots[-1] == device.levels  # the lost changes came back as a snapshot
    recorder.assert_no_phantom()


def test_truncated_frame(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    device.truncate_next()
    recorder.set(device, 10, True)
    recorder.set(device, 11, True)  # glued to the cut-off frame, and still read
    assert eventually(lambda: converged(link, device))
    assert (11, True) in recorder.changes
    assert link.health.errors >= 1 and link.health.resyncs >= 1
    recorder.assert_no_phantom()


def test_sequence_numbers_wrap_without_a_resync(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    with device._lock:
        device._seq = protocol.SEQ_MOD - 2  # a gap once, then across the wrap
    recorder.set(device, 1, True)
    assert eventually(lambda: converged(link, device) and not link._snapshot_pending)
    resyncs = link.health.resyncs
    for channel in (2, 3, 4, 5):
        recorder.set(device, channel, True)
    assert eventually(lambda: converged(link, device))
    assert device._seq < 100 and link.health.resyncs == resyncs


def test_unplug_and_replug(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    device.unplug()
    assert eventually(lambda: not link.health.connected)
    assert link.levels == tuple(BOARD)  # the last known truth is kept
    device.set(0, False)  # moved while the cable was out: nobody hears it
    device.set(1, True)
    time.sleep(0.05)  # a few failed attempts to reopen
    device.replug()  # Linux may well hand out the same /dev/pts number again
    assert link.wait_connected(2.0)
    assert eventually(lambda: converged(link, device))
    health = link.health
    assert health.reconnects == 1 and health.connected
    assert recorder.snapshots[-1] == device.levels and recorder.changes == []
    recorder.set(device, 2, True)
    assert eventually(lambda: recorder.changes == [(2, True)])


def test_a_hostile_mix_converges(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    rng = random.Random(11)
    for _ in range(150):
        fault = rng.randrange(10)
        if fault == 0:
            device.garbage(rng.randrange(1, 100))
        elif fault == 1:
            device.corrupt_next(rng.randrange(1, 5))
        elif fault == 2:
            device.drop_next(rng.randrange(1, 4))
        elif fault == 3:
            device.truncate_next(rng.randrange(0, 20))
        recorder.set(device, rng.randrange(CHANNELS), rng.random() < 0.5)
    device.heartbeat()  # a last frame to show any gap at the end
    assert eventually(lambda: converged(link, device) and not link._snapshot_pending, timeout=3.0)
    recorder.assert_no_phantom()
    health = link.health
    assert health.errors > 0 and health.resyncs > 0 and health.frames > 30


def test_request_snapshot_recovers_a_silent_loss(link: SerialLink, device: FakeDevice, recorder: Recorder) -> None:
    device.set(5, True, send=False)  # lost without a trace: no gap to notice
    time.sleep(0.05)
    assert link.levels[5] is False
    link.request_snapshot()
    assert eventually(lambda: converged(link, device))
    assert recorder.snapshots[-1] == device.levels and recorder.changes == []


def test_periodic_snapshots_recover_a_silent_loss(device: FakeDevice, recorder: Recorder) -> None:
    device.snapshot_interval = 0.1
    with SerialLink(device.path, on_snapshot=recorder.on_snapshot, backoff=(0.01, 0.1)) as serial_link:
        assert serial_link.wait_connected(2.0)
        device.set(6, True, send=False)
        assert eventually(lambda: converged(serial_link, device))
        assert serial_link.health.resyncs == 0


def test_device_overflow_is_an_error_and_a_resync(link: SerialLink, device: FakeDevice) -> None:
    device.set(3, False, send=False)
    device.overflow()
    assert eventually(lambda: converged(link, device))
    assert link.health.errors == 1 and link.health.resyncs == 1


def test_a_failing_callback_does_not_stop_the_link(device: FakeDevice) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("consumer bug")

    with SerialLink(device.path, on_change=broken, on_snapshot=broken, backoff=(0.01, 0.1)) as serial_link:
        assert serial_link.wait_connected(2.0)
        device.set(1, True)
        device.set(2, True)
        assert eventually(lambda: converged(serial_link, device))


def test_waits_for_a_device_that_is_not_there_yet() -> None:
    with FakeDevice(4, heartbeat=0.1) as device:
        device.unplug()
        serial_link = SerialLink(device.path, backoff=(0.01, 0.05))
        with serial_link:
            assert not serial_link.wait_connected(0.15)
            device.replug()
            assert serial_link.wait_connected(2.0)
            assert serial_link.health.reconnects == 0  # the first connection is not a reconnect


def test_stop_is_prompt_and_start_again_works(device: FakeDevice) -> None:
    serial_link = SerialLink(device.path, backoff=(0.01, 0.1))
    serial_link.start()
    assert serial_link.wait_connected(2.0)
    began = time.monotonic()
    serial_link.stop()
    assert time.monotonic() - began < 0.5
    assert not serial_link.health.connected
    serial_link.start()
    assert serial_link.wait_connected(2.0)
    serial_link.stop()


def test_needs_a_port_or_a_usb_id() -> None:
    with pytest.raises(ValueError, match="give a port path or a USB vid_pid"):
        SerialLink()
    with pytest.raises(ValueError, match="backoff must be"):
        SerialLink("/dev/null", backoff=(0.0, 1.0))


# -- by USB VID:PID ---------------------------------------------------------------------------

VID_PID = (0x239A, 0x80F4)  # Adafruit, a Raspberry Pi Pico running CircuitPython


def _port(device: str, vid: int, pid: int, interface: str | None, location: str | None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.interface, info.location = vid, pid, interface, location
    return info


def test_find_port_picks_the_circuitpython_data_port(monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [
        _port("/dev/ttyUSB0", 0x0403, 0x6001, None, "1-1.1:1.0"),
        _port("/dev/ttyACM0", *VID_PID, "CircuitPython CDC control", "1-1.2:1.0"),
        _port("/dev/ttyACM1", *VID_PID, "CircuitPython CDC2 control", "1-1.2:1.2"),
    ]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda *args, **kwargs: ports)
    assert find_port(VID_PID) == "/dev/ttyACM1"
    assert find_port((0x1234, 0x5678)) is None
    for info in ports:
        info.interface = None  # no interface names: the later USB interface is the data port
    assert find_port(VID_PID) == "/dev/ttyACM1"
    assert find_port((0x0403, 0x6001)) == "/dev/ttyUSB0"


def test_opens_by_vid_pid_and_follows_the_device(device: FakeDevice, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a replug the device has a new path; the link looks it up again."""

    def comports(*args: object, **kwargs: object) -> list[ListPortInfo]:
        if not device.plugged:
            return []
        return [
            _port("/dev/nonexistent-console", *VID_PID, "CircuitPython CDC control", "1-1:1.0"),
            _port(str(device.slave_path), *VID_PID, "CircuitPython CDC2 control", "1-1:1.2"),
        ]

    monkeypatch.setattr(serial.tools.list_ports, "comports", comports)
    with SerialLink(vid_pid=VID_PID, backoff=(0.01, 0.1)) as serial_link:
        assert serial_link.wait_connected(2.0)
        assert serial_link.health.port == device.slave_path
        assert serial_link.levels == tuple(BOARD)
        device.unplug()
        assert eventually(lambda: not serial_link.health.connected)
        device.replug()
        assert serial_link.wait_connected(2.0)
        assert serial_link.health.port == device.slave_path and serial_link.health.reconnects == 1


def test_health_is_a_frozen_snapshot(link: SerialLink) -> None:
    health = link.health
    with pytest.raises(AttributeError):
        health.frames = 0  # type: ignore[misc]
    assert link_module.LinkHealth.__dataclass_params__.frozen  # type: ignore[attr-defined]


# -- less common paths --------------------------------------------------------------------------


def test_a_silent_device_is_poked(device: FakeDevice, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(link_module, "SILENCE", 0.1)
    device.heartbeat_interval = 3600.0
    with SerialLink(device.path, backoff=(0.01, 0.1)) as serial_link:
        assert serial_link.wait_connected(2.0)
        asked = device.requests[protocol.HELLO]
        assert eventually(lambda: device.requests[protocol.HELLO] >= asked + 2)


def test_another_protocol_version_is_ignored_until_a_good_hello(
    link: SerialLink, device: FakeDevice, recorder: Recorder
) -> None:
    device.garbage(data=protocol.encode(protocol.hello(0, CHANNELS, "future", proto=2)))
    assert eventually(lambda: link.health.firmware_version == "future")
    assert link.health.errors == 1
    device.set(1, True)
    time.sleep(0.05)
    assert recorder.changes == [] and link.levels[1] is False  # not understood, not believed
    device.hello()
    assert eventually(lambda: converged(link, device))  # it asks for the snapshot it missed
    assert link.health.firmware_version == "fake-1.0"


def test_the_program_prints_its_path_and_takes_commands(tmp_path: Path) -> None:
    stable = tmp_path / "ttyPEGS"
    program = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.fake_device", "--channels", "8", "--link", str(stable)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=Path(__file__).parent.parent,
    )
    assert program.stdin is not None and program.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    stdout = program.stdout

    def pump() -> None:  # readline with a timeout: a hung program must fail the test, not hang it
        for line in stdout:
            lines.put(line.strip())

    threading.Thread(target=pump, daemon=True).start()
    try:
        first = lines.get(timeout=5.0)
        assert first.startswith("/dev/pts/") and os.path.realpath(stable) == first
        with SerialLink(str(stable), backoff=(0.01, 0.05)) as serial_link:
            assert serial_link.wait_connected(2.0)
            program.stdin.write("set 3 0\ngarbage 50\ntoggle 5\nunplug 0.1\n")  # it starts empty: all high
            program.stdin.flush()
            assert lines.get(timeout=2.0).startswith("/dev/pts/")  # replugged
            expected = tuple(channel not in (3, 5) for channel in range(8))
            assert eventually(lambda: serial_link.health.reconnects == 1 and serial_link.levels == expected)
        program.stdin.write("quit\n")
        program.stdin.flush()
        assert program.wait(timeout=2.0) == 0
        assert not stable.exists()
    finally:
        program.kill()
        program.wait()


def test_bench_measures_latency() -> None:
    result = link_latency(frames=20)
    assert result["name"] == "serial link: frame written to change delivered" and result["runs"] == 20
    assert 0 < float(str(result["median_ms"])) <= float(str(result["p99_ms"])) < 1000

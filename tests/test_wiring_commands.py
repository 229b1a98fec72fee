"""``pegs watch`` against the fake sensor board on a real pseudo-terminal."""

from __future__ import annotations

import subprocess
import sys
import time

from firmware_bridge.fake_device import FakeDevice
from hardware.layout import default_layout

PEGS = [sys.executable, "-m", "referee.table.cli"]


def test_watch_shows_live_changes_with_hole_names() -> None:
    layout = default_layout(4)
    idle = [True] * len(layout.channels)  # hall sensors idle high: empty board
    with FakeDevice(len(idle), heartbeat=0.1, levels=idle) as device:
        watcher = subprocess.Popen([*PEGS, "watch", "--port", device.path, "--sides", "4", "--seconds", "3"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        assert watcher.stdout is not None
        assert watcher.stdout.readline().startswith("connected to")
        assert watcher.stdout.readline().strip() == "occupied now: nothing"
        time.sleep(0.2)
        device.set(layout.channel("T0:8"), False)  # a magnet pulls the line low: a peg
        out, err = watcher.communicate(timeout=10)
    assert watcher.returncode == 0, err
    assert f"channel {layout.channel('T0:8'):4d}  level 0    T0:8 peg" in out
    assert "frames " in out and "errors 0" in out


def test_watch_says_clearly_when_no_board_answers(tmp_path: object) -> None:
    done = subprocess.run([*PEGS, "watch", "--port", "/dev/nonexistent-pegs", "--seconds", "1"],
                          capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "pegs: no sensor board answered on /dev/nonexistent-pegs within 5 s"
    bad = subprocess.run([*PEGS, "calibrate", "--vid-pid", "nope"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "--vid-pid must look like 239a:80f4" in bad.stderr


def test_watch_refuses_a_firmware_with_too_few_channels() -> None:
    """Issue 12: the old firmware read 96 channels, the board has 112 holes; the holes past
    channel 95 would read empty for ever. ``pegs watch`` says so and how to fix it."""
    with FakeDevice(96, heartbeat=0.1, levels=[True] * 96) as device:
        done = subprocess.run([*PEGS, "watch", "--port", device.path, "--sides", "4", "--seconds", "1"],
                              capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and "reads 96 channels" in line and "uses 112" in line
    assert "pegs firmware --sides 4" in line


def test_wiring_tools_say_when_the_daemon_holds_the_port() -> None:
    """The daemon opens the sensor board exclusively; watch, selftest and calibrate say to
    stop the service instead of waiting 5 s for a board that never answers."""
    import serial

    with FakeDevice(112, heartbeat=0.1, levels=[True] * 112) as device:
        daemon = serial.Serial(device.path, exclusive=True)  # as the link opens it
        try:
            for command in (["watch", "--seconds", "1"], ["selftest"], ["calibrate", "--out", "/dev/null"]):
                started = time.monotonic()
                done = subprocess.run([*PEGS, *command, "--port", device.path], capture_output=True, text=True,
                                      timeout=30, check=False)  # fmt: skip
                assert done.returncode == 2, done.stderr
                assert done.stderr.strip() == (
                    f"pegs: {device.path} is in use by another program, most likely the referee service: stop it "
                    "with `sudo systemctl stop pegs`, run this again, then `sudo systemctl start pegs`"
                )
                assert time.monotonic() - started < 4  # said at once, not after the 5 s wait
        finally:
            daemon.close()

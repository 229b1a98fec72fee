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

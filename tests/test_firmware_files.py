"""``pegs firmware``: the scanner's files for each board size, run under the CircuitPython
stand-ins, report one channel per hole of the layout (issue 12: the parts list's board has
112 to 116 holes and a 96-channel firmware silently read the last ones as empty)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge import protocol
from firmware_bridge.firmware_files import firmware_files
from firmware_bridge.protocol import FrameReader
from hardware.layout import default_layout, layout_from_channels
from tests.circuitpython_standins import Clock, Keys, Port, run_firmware

PEGS = [sys.executable, "-m", "referee.cli"]
BOOT_OUT = "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"


def _circuitpy(folder: Path) -> Path:
    """A CIRCUITPY drive as CircuitPython leaves it: boot_out.txt at its root."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "boot_out.txt").write_text(BOOT_OUT)
    return folder


def _boot(directory: Path, pegs_on: set[int]) -> tuple[dict[str, Any], list[protocol.Frame]]:
    """Run DIR/code.py with DIR/protocol.py (the copies a builder puts on CIRCUITPY): the
    chain's configuration and the frames it sends."""
    spec_module: dict[str, Any] = {"__name__": "protocol"}
    exec(compile((directory / "protocol.py").read_text(), "protocol.py", "exec"), spec_module)  # noqa: S102
    copied_protocol = SimpleNamespace(**spec_module)
    clock, port = Clock(), Port()
    made: list[Keys] = []

    def make_keys(**config: Any) -> Keys:
        made.append(Keys(clock, port, [lambda k: None], **config))
        made[-1].pressed.update(pegs_on)
        return made[-1]

    run_firmware(
        directory / "code.py",
        {
            "board": SimpleNamespace(GP2="GP2", GP3="GP3", GP4="GP4"),
            "keypad": SimpleNamespace(ShiftRegisterKeys=make_keys),
            "supervisor": SimpleNamespace(ticks_ms=clock.ticks_ms, reload=lambda: pytest.fail("the firmware crashed")),
            "usb_cdc": SimpleNamespace(data=port),
            "time": SimpleNamespace(sleep=clock.sleep),
            "protocol": copied_protocol,
        },
    )
    reader = FrameReader()
    frames = reader.feed(port.written)
    assert reader.errors == 0
    return made[0].config, frames


@pytest.mark.parametrize(
    ("sides", "markers", "chips"),
    [(4, False, 14), (4, True, 15), (6, False, 21), (6, True, 22), (8, False, 28), (8, True, 29)],
)
def test_the_firmware_for_each_board_reads_every_hole(tmp_path: Path, sides: int, markers: bool, chips: int) -> None:
    layout = default_layout(sides, markers)
    _circuitpy(tmp_path / "CIRCUITPY")
    done = subprocess.run(
        [
            *PEGS,
            "firmware",
            "--sides",
            str(sides),
            *(["--markers"] if markers else []),
            "--out",
            str(tmp_path / "CIRCUITPY"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"{chips} 74HC165 chips" in done.stdout
    assert sorted(path.name for path in (tmp_path / "CIRCUITPY").iterdir()) == [
        "boot.py",
        "boot_out.txt",
        "code.py",
        "protocol.py",
    ]
    assert f"pegs watch --port /dev/pegs-board --sides {sides}" in done.stdout  # the next command names the board
    last = layout.channel(layout.hole_names[-1])  # the far end of the chain: T<n-1>:17
    config, frames = _boot(tmp_path / "CIRCUITPY", {0, last})
    assert sum(config["key_count"]) == chips * 8 >= len(layout.hole_names)
    assert config["max_events"] >= chips * 8
    hello = frames[0]
    assert hello.kind == protocol.HELLO and hello.channels == chips * 8
    snapshot = next(frame for frame in frames if frame.kind == protocol.SNAPSHOT)
    assert snapshot.levels is not None and len(snapshot.levels) == chips * 8
    assert [channel for channel, level in enumerate(snapshot.levels) if level] == [0, last]


def test_a_calibrated_layout_sets_the_chain_by_its_highest_channel(tmp_path: Path) -> None:
    """A board wired in its own order (pegs calibrate): the chain must reach the highest
    channel the layout uses, even with gaps below it."""
    holes = default_layout(4).hole_names
    layout = layout_from_channels(4, {hole: i + (8 if i >= 50 else 0) for i, hole in enumerate(holes)})
    (tmp_path / "layout.toml").write_text(layout.to_toml())
    done = subprocess.run(
        [*PEGS, "firmware", "--layout", str(tmp_path / "layout.toml"), "--out", str(_circuitpy(tmp_path / "fw"))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    config, _ = _boot(tmp_path / "fw", set())
    assert sum(config["key_count"]) == 120  # channels 0..119: 15 chips


def test_bad_requests_get_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    for argv, words in [
        (["--sides", "4", "--out", str(tmp_path / "file" / "x")], "is not a folder"),
        (["--layout", str(tmp_path / "missing.toml"), "--out", str(tmp_path)], "pegs: layout:"),
        (["--sides", "5", "--out", str(tmp_path)], "invalid choice"),
    ]:
        done = subprocess.run([*PEGS, "firmware", *argv], capture_output=True, text=True, check=False)
        assert done.returncode == 2 and words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    with pytest.raises(ValueError, match="1 to 1024"):
        firmware_files(0)


def test_the_firmware_goes_only_onto_a_circuitpy_drive(tmp_path: Path) -> None:
    """Issue 35, item 12: a mistyped --out must not leave the Pico on its old firmware while the
    builder believes it new. CircuitPython writes boot_out.txt at the drive's root at every start
    (CIRCUITPY_BOOT_OUTPUT_FILE "/boot_out.txt", py/circuitpy_mpconfig.h in adafruit/circuitpython):
    a folder without it is refused, unless --force; a missing folder is refused, as by the other tools."""
    plain = tmp_path / "plain"
    plain.mkdir()
    for out, words in [
        (plain, "is not a CIRCUITPY drive: it has no boot_out.txt"),
        (tmp_path / "missing", "is not a folder (is the Pico plugged in, as the CIRCUITPY drive? Linux /media"),
    ]:
        done = subprocess.run(
            [*PEGS, "firmware", "--sides", "6", "--out", str(out)], capture_output=True, text=True, check=False
        )
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert "macOS /Volumes/CIRCUITPY, Windows its drive letter" in done.stderr
    assert list(plain.iterdir()) == [] and not (tmp_path / "missing").exists()
    forced = subprocess.run(
        [*PEGS, "firmware", "--sides", "6", "--out", str(plain), "--force"], capture_output=True, text=True, check=False
    )
    assert forced.returncode == 0 and sorted(p.name for p in plain.iterdir()) == ["boot.py", "code.py", "protocol.py"]

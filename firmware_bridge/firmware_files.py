"""The files a builder copies onto the Pico's CIRCUITPY drive, made for one board.

    files = firmware_files(channels=120)          # a 4-sided board with colour holes: 15 chips
    write_firmware(files, Path("/media/pi/CIRCUITPY"))

The scanner (``firmware/code.py``) reads as many keys as ``KEY_COUNTS`` says. A chain
shorter than the board leaves the last holes reading empty for ever, so the count is
written into the file for each board rather than left for the builder to edit. The count is
rounded up to whole 74HC165 chips (8 inputs each): the spare inputs are read too, tied to
the "empty" level.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from firmware_bridge import protocol

FIRMWARE = Path(__file__).parent / "firmware"
PROTOCOL = Path(__file__).parent / "protocol.py"
INPUTS_PER_CHIP = 8
# protocol.py and boot.py first: CircuitPython restarts code.py as soon as it is written.
ORDER = ("protocol.py", "boot.py", "code.py")
_KEY_COUNTS = re.compile(r"^KEY_COUNTS = \(\d+,\)(.*)$", re.MULTILINE)


def chips_for(channels: int) -> int:
    """74HC165 chips needed to read ``channels`` sensors."""
    return -(-channels // INPUTS_PER_CHIP)


def firmware_files(channels: int, board: str = "") -> dict[str, str]:
    """``{file name: text}`` for a chain that reads ``channels`` sensors (rounded up to whole
    chips); ``board`` is a line saying which board it was made for."""
    if isinstance(channels, bool) or not isinstance(channels, int) or not 0 < channels <= protocol.MAX_CHANNELS:
        raise ValueError(f"a sensor chain reads 1 to {protocol.MAX_CHANNELS} channels, not {channels!r}")
    keys = chips_for(channels) * INPUTS_PER_CHIP
    code = (FIRMWARE / "code.py").read_text(encoding="utf-8")
    line = f"KEY_COUNTS = ({keys},)  # {chips_for(channels)} chips of 8: written by pegs firmware{board and ' for ' + board}"
    code, found = _KEY_COUNTS.subn(lambda _: line, code)
    if found != 1:
        raise RuntimeError("firmware/code.py has no single KEY_COUNTS line to set")
    return {
        "protocol.py": PROTOCOL.read_text(encoding="utf-8"),
        "boot.py": (FIRMWARE / "boot.py").read_text(encoding="utf-8"),
        "code.py": code,
    }


def write_firmware(files: dict[str, str], out: Path) -> list[Path]:
    """Write ``files`` into ``out`` (made if missing), each flushed to the drive before the
    next, code.py last. Returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ORDER:
        path = out / name
        with open(path, "w", encoding="utf-8", newline="\n") as file:
            file.write(files[name])
            file.flush()
            os.fsync(file.fileno())  # a Pico unplugged right after the copy keeps whole files
        written.append(path)
    return written

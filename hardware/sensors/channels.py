"""Whether a sensor device is the one made for the layout: the channels a layout uses, the
channels its firmware reads (whole 74HC165 chips), and what to say, with the fix, when a
device reads others. The serial backend refuses such a device; ``pegs doctor``, the wiring
tools, the parts list and the schematic count channels the same way."""

from __future__ import annotations

from firmware_bridge.firmware_files import chips_for
from hardware.chain import INPUTS_PER_CHIP
from hardware.layout import Layout, default_layout
from referee.holes import SIDES


def channels_needed(layout: Layout) -> int:
    """How many channels a device must read for every hole of ``layout``."""
    return max(layout.channels.values()) + 1


def channels_read(layout: Layout) -> int:
    """How many channels the firmware made for ``layout`` reads: whole 74HC165 chips."""
    return chips_for(channels_needed(layout)) * INPUTS_PER_CHIP


def firmware_fix(layout: Layout, layout_file: str | None = None) -> str:
    """The ``pegs firmware`` command that writes the scanner for ``layout`` onto the Pico."""
    if layout_file is not None:
        board = f"--layout {layout_file}"
    elif layout == default_layout(layout.sides, bool(layout.colour_markers), active_low=layout.active_low):
        board = f"--sides {layout.sides}" + (" --markers" if layout.colour_markers else "")
    else:
        board = "--layout YOUR-LAYOUT.toml"  # a calibrated board: the file this layout came from
    return f"pegs firmware {board} --out /media/$USER/CIRCUITPY"


def channel_mismatch(
    channels: int | None, layout: Layout, layout_file: str | None = None, *, by_option: bool = False
) -> str | None:
    """What is wrong, and the fix, when a device reading ``channels`` is not the one made for
    ``layout``: too few and a peg in a missing hole would look lifted for ever; more and the
    board is most likely bigger than the config says (a 6-sided board set up as 4 sides).
    ``by_option``: the layout came from a command's options (``--sides``, ``--markers``), not a
    config: the fix for a board of another size is then the option, never another firmware."""
    needed, made = channels_needed(layout), channels_read(layout)
    if channels is None or needed <= channels <= made:
        return None
    fix = firmware_fix(layout, layout_file)
    shape = _marker_hint(channels, layout, by_option) if layout_file is None else ""
    other = boards_reading(channels, but=layout.sides)
    if by_option and other and not shape and layout_file is None:
        return (  # a command's --sides (4 by default) against a Pico whose firmware is right for its board
            f"the sensor board reads {channels} channels, but a {layout.sides}-sided board's layout uses {needed}; "
            f"a {other[0]}-sided board reads {channels}: if yours has {other[0]} sides, run it again with "
            f"--sides {other[0]}. Only if it has {layout.sides} sides, copy the firmware made for it onto the "
            f"Pico ({fix})"
        )
    if channels < needed:
        return (
            f"the sensor board reads {channels} channels, but this {layout.sides}-sided board's layout uses "
            f"{needed}: copy the firmware made for it onto the Pico ({fix}){shape}"
        )
    size = shape or (
        f"; a {other[0]}-sided board reads {channels}: if yours has {other[0]} sides, set players = "
        f"{other[0]} under [board] in the config"
        if other
        else ""
    )
    return (
        f"the sensor board reads {channels} channels ({channels // INPUTS_PER_CHIP} chips), but this "
        f"{layout.sides}-sided board's layout uses {needed} ({made // INPUTS_PER_CHIP} chips): its firmware "
        f"was made for another board{size}. Else copy the firmware made for this board onto the Pico ({fix})"
    )


def _marker_hint(channels: int, layout: Layout, by_option: bool) -> str:
    """What to change when ``channels`` is what the same standard board reads with (or without)
    a colour-marker hole per side: the config's markers line, or the command's --markers."""
    has = bool(layout.colour_markers)
    if layout != default_layout(layout.sides, has, active_low=layout.active_low):
        return ""  # a calibrated layout: its file says what the board has
    if channels_read(default_layout(layout.sides, not has)) != channels:
        return ""
    if by_option:
        return "; if the board has " + (
            "no colour-marker holes, run this without --markers"
            if has
            else "a colour-marker hole per side, run this again with --markers"
        )
    if has:
        return "; if the board has no colour-marker holes, take markers = true out of the config"
    return "; if the board has a colour-marker hole per side, set markers = true under [board] in the config"


def boards_reading(channels: int, but: int) -> list[int]:
    """The sides of the standard boards (colour markers or not), other than ``but``, whose firmware
    reads exactly ``channels``: a device reading more than its layout's was likely made for one."""
    return sorted(
        {
            n
            for n in SIDES
            for markers in (False, True)
            if n != but and channels_read(default_layout(n, markers)) == channels
        }
    )

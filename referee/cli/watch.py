"""``pegs watch``: every sensor change, live, named as the board's hole.

    pegs watch --port /dev/pegs-board --sides 6             # the whole chain
    pegs watch --port /dev/pegs-board --sides 6 --side 2    # side 2's module alone, as the chain's start

With ``--side S`` the module of side S (its chips as the schematic's side sheet has them) is
plugged in on its own: its first chip's QH on the Pico's GP4, its last chip's SER tied to
3.3 V. The Pico's channel 0 is then that module's first input, and each channel is named as
the hole it reads on the whole board; the channels after the module read the SER tie.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from hardware.chain import INPUTS_PER_CHIP
from hardware.layout import Layout, LayoutError
from hardware.wiring import side_chips

Namer = Callable[[int, bool], str]


def add_side_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--side",
        type=int,
        help="watch one side's module on its own, plugged in as the start of the chain (its last chip's "
        "SER tied to 3.3 V): channel 0 is its first chip's input H, and holes are named as that side's",
    )


def namer(layout: Layout, side: int | None, error: type[Exception]) -> tuple[Namer, str | None]:
    """How a channel read from the Pico is named, and (for --side) the line that says the module."""
    if side is None:
        return (lambda channel, level: _hole(layout, channel, level)), None
    if not 0 <= side < layout.sides:
        raise error(f"pegs: --side {side}: this board's sides are 0 to {layout.sides - 1}")
    chips = side_chips(layout)[side]
    if not chips or chips != list(range(chips[0], chips[-1] + 1)):
        raise error(f"pegs: --side {side}: this layout has no chips of side {side} in one run; watch the whole chain")
    offset, inputs = (chips[0] - 1) * INPUTS_PER_CHIP, len(chips) * INPUTS_PER_CHIP

    def name(channel: int, level: bool) -> str:
        if channel >= inputs:
            sticky = " (a peg past the module: tie its last SER, pin 10, to 3.3 V)" if layout.occupied(level) else ""
            return f"{'-':>6} past U{chips[-1]}: the SER tie{sticky}"
        return _hole(layout, channel + offset, level)

    read = [layout.holes_by_channel[c] for c in range(offset, offset + inputs) if c in layout.holes_by_channel]
    words = (
        f"side {side}'s module alone: U{chips[0]} to U{chips[-1]}, channel 0 = U{chips[0]}.H; it reads "
        f"{len(read)} holes, {read[0]} to {read[-1]}; tie U{chips[-1]}'s SER (pin 10) to 3.3 V for this test"
    )
    return name, words


def _hole(layout: Layout, channel: int, level: bool) -> str:
    try:
        return f"{layout.hole(channel):>6} {'peg' if layout.occupied(level) else 'empty'}"
    except LayoutError:
        return f"{'?':>6} (channel not in the layout)"


def watch(link: Any, name: Namer, seconds: float | None, started: float) -> None:
    """Print what the board reads now, then wait (Ctrl-C ends it); the link's counts at the end."""
    try:
        health = link.health
        print(f"connected to {health.port}: firmware {health.firmware_version}, {health.channels} channels", flush=True)
        pegs = [name(c, level).split()[0] for c, level in enumerate(link.levels) if name(c, level).endswith(" peg")]
        print(f"occupied now: {' '.join(pegs) or 'nothing'}", flush=True)
        deadline = None if seconds is None else started + seconds
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
    finally:
        health = link.health
        link.stop()
        print(
            f"frames {health.frames}, errors {health.errors}, resyncs {health.resyncs}, reconnects {health.reconnects}"
        )


def warn(problem: str | None) -> None:
    if problem is not None:
        print(f"pegs: warning: {problem}", file=sys.stderr, flush=True)

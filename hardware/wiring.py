"""Checking and learning a board's wiring: ``selftest`` and ``calibrate``.

    from hardware.layout import default_layout
    from hardware.leds import MemoryStrip
    from hardware.sensors import SimulatedSensors
    from hardware.wiring import selftest

    layout = default_layout(4)
    sensors, strip = SimulatedSensors(layout), MemoryStrip(layout.pixels)

    def person(step):                        # a CLI prints step.text and perhaps waits for Enter
        if step.action == "place":
            sensors.set([step.hole])           # a perfect board: the asked hole answers
        elif step.action == "remove":
            sensors.set([])

    report = selftest(layout, sensors, strip, person, led_delay=0)
    report.ok, str(report)                   # True, 'all 112 holes answered'

``selftest`` first lights the pixels one by one in chain order (a person sees a gap or a
jump where the chain is mis-wired), then asks for an empty board (a hole still occupied
after ``timeout`` is *stuck*), then asks for a peg in each hole in turn, lighting that
hole, and moving one peg from hole to hole is enough: a hole that never answers is
*dead*, another hole answering is *swapped* (asked, seen). At the end it asks for the
peg to be taken out and a hole still occupied after ``timeout`` is stuck too (a latching
sensor).

``calibrate`` learns the sensor channels: it asks for a peg in each hole in the default
chain order and records which raw channel changed. It reads the ``levels`` of a link-like
object (``firmware_bridge.link.SerialLink`` or anything with a ``levels`` tuple), guesses
the polarity from the empty board (lines idle high: active low), and returns a Layout
whose pixels are the default chain's, ready for ``layout.to_toml()``.

``prompt``/``progress`` callbacks get a ``Step``; they may block until the person is ready
(the checks start waiting for the sensors when the callback returns). The colour-order
question and the magnet checks (``pegs selftest --magnets``) are in ``hardware.bench_checks``.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from hardware.layout import Layout, LayoutError, board_holes, default_layout, layout_from_channels
from hardware.leds import BLACK, RGB, PixelStrip
from hardware.sensors import Change, SensorBoard

Action = Literal["colour", "led", "empty", "place", "remove", "peg", "hole"]
LIT: RGB = (48, 48, 48)  # a dim white: visible on the board, far below any power budget


@dataclass(frozen=True)
class Step:
    """What the person should do now: ``text`` says it; ``hole`` and ``index``/``total`` for UIs."""

    action: Action
    text: str
    hole: str | None = None
    index: int = 0
    total: int = 0

    def __str__(self) -> str:
        return self.text


Prompt = Callable[[Step], Any]


class CalibrationError(RuntimeError):
    """Calibration could not finish; the message names the hole."""


# -- selftest -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SelftestReport:
    """What a self-test found: holes tested, dead sensors, swapped wires and stuck ones."""

    tested: int
    dead: tuple[str, ...] = ()
    swapped: tuple[tuple[str, str], ...] = ()  # (hole asked for, hole that answered)
    stuck: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not (self.dead or self.swapped or self.stuck)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "tested": self.tested,
            "dead": list(self.dead),
            "swapped": [{"asked": asked, "seen": seen} for asked, seen in self.swapped],
            "stuck": list(self.stuck),
        }

    def __str__(self) -> str:
        if self.ok:
            return f"all {self.tested} holes answered"
        lines = []
        if self.stuck:
            lines.append(f"stuck (occupied on an empty board): {', '.join(self.stuck)}")
        if self.dead:
            lines.append(f"dead (never saw the peg): {', '.join(self.dead)}")
        lines += [f"swapped: asked for {asked}, {seen} answered" for asked, seen in self.swapped]
        return "\n".join(lines)


def walk_leds(
    layout: Layout,
    strip: PixelStrip,
    prompt: Prompt | None = None,
    delay: float = 0.1,
    cancel: threading.Event | None = None,
) -> None:
    """Light each hole's pixel alone, in chain order, ``delay`` seconds each; then all off."""
    total = len(layout.wires)
    for index, wire in enumerate(layout.wires, 1):
        if cancel is not None and cancel.is_set():
            strip.clear()
            raise WiringCancelled("the wiring check was stopped")
        if prompt is not None:
            prompt(Step("led", f"LED {wire.pixel}: {wire.hole} should be lit", wire.hole, index, total))
        strip.show(only_lit(strip.n, wire.pixel))
        if delay:
            time.sleep(delay)
    strip.clear()


def selftest(
    layout: Layout,
    sensors: SensorBoard,
    strip: PixelStrip | None,
    prompt: Prompt,
    *,
    timeout: float = 30.0,
    led_delay: float = 0.1,
    holes: Sequence[str] | None = None,
    cancel: threading.Event | None = None,
) -> SelftestReport:
    """Walk the LEDs, then every hole's sensor; ``timeout`` seconds per hole before it counts as dead.
    Setting ``cancel`` stops the check within a fifth of a second (``WiringCancelled``)."""
    cancel = cancel or threading.Event()
    holes = tuple(holes) if holes is not None else layout.hole_names
    if strip is not None:
        walk_leds(layout, strip, prompt, led_delay, cancel)
    events: queue.Queue[Change] = queue.Queue()
    unsubscribe = sensors.subscribe(events.put)
    try:
        drain_changes(events)
        prompt(Step("empty", "Take every peg off the board"))
        stuck = _wait_empty(sensors, events, layout.hole_names, timeout, cancel=cancel)
        dead, swapped = _place_each(layout, strip, prompt, events, holes, stuck, timeout, cancel)
        if strip is not None:
            strip.clear()
        prompt(Step("remove", "Take the peg out: the board should be empty", None, len(holes), len(holes)))
        latched = [
            hole
            for hole in _wait_empty(sensors, events, layout.hole_names, timeout, stuck, cancel)
            if hole not in stuck
        ]
        return SelftestReport(len(holes), tuple(dead), tuple(swapped), tuple(stuck + latched))
    finally:
        unsubscribe()


def _place_each(
    layout: Layout,
    strip: PixelStrip | None,
    prompt: Prompt,
    events: queue.Queue[Change],
    holes: Sequence[str],
    stuck: list[str],
    timeout: float,
    cancel: threading.Event,
) -> tuple[list[str], list[tuple[str, str]]]:
    """A peg asked for in each hole in turn but the stuck ones, its pixel lit: the holes that
    never answered (dead), and each asked-for hole with the hole that answered instead (swapped)."""
    dead: list[str] = []
    swapped: list[tuple[str, str]] = []
    answered: set[str] = set()  # holes that passed: a peg put back there is ignored
    for index, hole in enumerate(holes, 1):
        if hole in stuck:
            continue
        if strip is not None:
            strip.show(only_lit(strip.n, layout.pixel(hole)))
        drain_changes(events)
        prompt(Step("place", f"Put a peg in {hole}", hole, index, len(holes)))
        seen = _next_place(events, timeout, answered | set(stuck), cancel)
        if seen is None:
            dead.append(hole)
        elif seen == hole:
            answered.add(hole)
        else:
            swapped.append((hole, seen))
    return dead, swapped


class WiringCancelled(RuntimeError):
    """Someone stopped the check before it was done."""


def next_change(events: queue.Queue[Change], deadline: float, cancel: threading.Event) -> Change | None:
    """The next change before ``deadline``; looks at ``cancel`` every fifth of a second."""
    while True:
        if cancel.is_set():
            raise WiringCancelled("the wiring check was stopped")
        left = deadline - time.monotonic()
        try:
            return events.get(timeout=min(0.2, left)) if left > 0 else events.get_nowait()
        except queue.Empty:
            if left <= 0.2:
                return None


def _next_place(events: queue.Queue[Change], timeout: float, ignore: set[str], cancel: threading.Event) -> str | None:
    deadline = time.monotonic() + timeout
    while True:
        change = next_change(events, deadline, cancel)
        if change is None:
            return None
        if change.occupied and change.hole not in ignore:
            return change.hole


def _wait_empty(
    sensors: SensorBoard,
    events: queue.Queue[Change],
    order: Sequence[str],
    timeout: float,
    known: Sequence[str] = (),
    cancel: threading.Event | None = None,
) -> list[str]:
    """The holes still occupied once the board is empty (but for ``known``) or ``timeout`` passed."""
    deadline = time.monotonic() + timeout
    while True:
        occupied = sensors.snapshot()
        if not occupied - set(known) or time.monotonic() >= deadline:
            return [hole for hole in order if hole in occupied]
        next_change(events, deadline, cancel or threading.Event())


def drain_changes(events: queue.Queue[Change]) -> None:
    while True:
        try:
            events.get_nowait()
        except queue.Empty:
            return


def only_lit(n: int, pixel: int, colour: RGB = LIT) -> tuple[RGB, ...]:
    frame = [BLACK] * n
    frame[pixel] = colour
    return tuple(frame)


# -- calibrate ------------------------------------------------------------------------------


class HasLevels(Protocol):
    """A link-like source of raw sensor levels, one per channel (SerialLink has ``levels``)."""

    @property
    def levels(self) -> tuple[bool, ...]: ...


def calibrate(
    source: HasLevels,
    sides: int,
    progress: Prompt,
    *,
    colour_markers: bool = False,
    active_low: bool | None = None,
    strip: PixelStrip | None = None,
    timeout: float = 60.0,
    poll: float = 0.02,
) -> Layout:
    """Learn each hole's sensor channel, in the default chain order; returns the Layout.

    ``active_low=None`` guesses the polarity from the empty board: most lines idle high
    means a peg pulls its line low. ``strip`` (if given) lights the asked hole's pixel in
    the default chain, so a mis-wired pixel chain shows at once.
    """
    order = board_holes(sides, colour_markers)
    chain = default_layout(sides, colour_markers)
    progress(Step("empty", "Take every peg off the board", None, 0, len(order)))
    rest = tuple(source.levels)
    if not rest:
        raise CalibrationError("the sensor link reports no channels: is it connected?")
    if len(rest) < len(order):
        raise CalibrationError(f"the sensor link reports {len(rest)} channels, fewer than the {len(order)} holes")
    if active_low is None:
        active_low = sum(map(bool, rest)) * 2 >= len(rest)
    idle = active_low  # the level of an empty hole: active low idles high
    stuck = {channel for channel, level in enumerate(rest) if bool(level) != idle}
    found: dict[str, int] = {}
    taken: set[int] = set(stuck)
    for index, hole in enumerate(order, 1):
        if strip is not None and chain.pixels <= strip.n:
            strip.show(only_lit(strip.n, chain.pixel(hole)))
        progress(Step("place", f"Put a peg in {hole}", hole, index, len(order)))
        channel = _wait_for_channel(source, idle, taken, timeout, poll)
        if channel is None:
            hint = f" ({len(stuck)} channels read occupied on the empty board)" if stuck else ""
            raise CalibrationError(f"no sensor answered for {hole} within {timeout:g} s{hint}")
        found[hole] = channel
        taken.add(channel)
    if strip is not None:
        strip.clear()
    progress(Step("remove", "Take the peg out: calibration is done", None, len(order), len(order)))
    try:
        return layout_from_channels(sides, found, active_low=active_low)
    except LayoutError as error:
        raise CalibrationError(str(error)) from None


def _wait_for_channel(source: HasLevels, idle: bool, taken: set[int], timeout: float, poll: float) -> int | None:
    """The lowest channel not yet taken whose line left its idle level."""
    deadline = time.monotonic() + timeout
    while True:
        levels = source.levels
        for channel, level in enumerate(levels):
            if bool(level) != idle and channel not in taken:
                return channel
        if time.monotonic() >= deadline:
            return None
        time.sleep(poll)


def side_chips(layout: Layout) -> dict[int, list[int]]:
    """side -> the chip numbers (1 = next to the Pico) of its module: a chip goes with the side of
    the first hole it reads (input H first), a chip reading no hole with the chip before it, as the
    schematic's side sheets have them. A side's first holes may sit on the last chip of the side
    before it (on 4 sides, U4 reads T0's last holes and T1:0 to T1:3)."""
    from hardware.chain import INPUTS_PER_CHIP
    from hardware.layout import parse_hole
    from hardware.sensors import channels_needed

    found: dict[int, list[int]] = {side: [] for side in range(layout.sides)}
    side = 0
    for chip in range(1, -(-channels_needed(layout) // INPUTS_PER_CHIP) + 1):
        holes = (layout.holes_by_channel.get((chip - 1) * INPUTS_PER_CHIP + i) for i in range(INPUTS_PER_CHIP))
        hole = next((name for name in holes if name is not None), None)
        if hole is not None:
            side = parse_hole(hole)[1]
        found[side].append(chip)
    return found

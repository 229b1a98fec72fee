"""Checks a builder runs at the bench: the LEDs' colour order, and every peg's magnet.

    from hardware.bench_checks import check_colour_order, check_pegs, check_holes

    colours = check_colour_order(layout, strip, ask)   # ask(step) -> "red" | "green" | "blue" | "nothing"
    str(colours)  # 'colour order: these LEDs take RGB, not GRB (...): put pixel_order = "RGB" under [leds] ...'

    pegs = check_pegs(sensors, "T0:0", prompt)         # prompt(step) returns False when no pegs are left
    holes = check_holes(layout, sensors, prompt)       # one good peg carried from hole to hole

**Colour order.** The NeoPixel libraries send each pixel's three bytes in
the order they are told (``pixel_order``, "GRB" by default); a pixel shows byte ``i`` as its
own colour ``i``. Some through-hole pixels are RGB. Pixel 0 is lit pure red, then pure green,
and the person names what they see: the two answers tell which of the six orders the pixels
take.

**Magnets.** A sensor is a switch: all the tool
sees of a magnet is whether, and how steadily, the switch closes. The A3144 is unipolar:
only a south pole facing its branded face switches it (its datasheet; docs/building.md,
section 2), so a magnet glued north-down is *not seen* at all, like a magnet too weak or too
far. A magnet near the switch point is seen but *flickers* (several changes while the peg
rests), is *seen late* or *drops out*. ``check_pegs`` tries each peg in one hole known to
work: a fault there is the peg's. ``check_holes`` carries one good peg through the holes: a
fault there is the hole's (too much wood over the sensor, or a sensor off-centre). Both
read only the sensor board's change stream, so a test drives them with scripted changes.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hardware.layout import Layout
from hardware.leds import RGB, PixelStrip
from hardware.sensors import Change, SensorBoard
from hardware.wiring import Prompt, Step, drain_changes, next_change, only_lit

Colour = Literal["red", "green", "blue", "nothing"]
AskColour = Callable[[Step], Colour]
PIXEL_ORDERS = ("GRB", "RGB", "RBG", "GBR", "BRG", "BGR")  # the byte orders the NeoPixel libraries send
SHOWN: dict[str, RGB] = {"R": (96, 0, 0), "G": (0, 96, 0)}  # pure, and bright enough to name in daylight
GRACE = 0.1  # seconds after Enter that still count as "before": the USB frame of a change just made


# -- the colour question ---------------------------------------------------------------------

_WORDS: dict[str, Colour] = {
    "r": "red",
    "red": "red",
    "g": "green",
    "green": "green",
    "b": "blue",
    "blue": "blue",
    "n": "nothing",
    "nothing": "nothing",
    "none": "nothing",
    "off": "nothing",
    "dark": "nothing",
}


def parse_colour(text: str) -> Colour | None:
    """A person's answer (``r``, ``Green``, ``nothing``...) as a colour, or None if it is not one."""
    return _WORDS.get(text.strip().lower())


@dataclass(frozen=True)
class ColourOrder:
    """What pixel 0 showed for red and for green, driven in ``in_use`` order."""

    in_use: str
    seen: tuple[Colour, ...]  # for red, then for green; it stops at "nothing"
    hole: str | None = None  # the hole beside pixel 0

    @property
    def order(self) -> str | None:
        """The pixels' own order (they show wire byte ``i`` as ``order[i]``), or None when the
        answers cannot tell it (a dark pixel, one colour twice)."""
        if len(self.seen) != 2 or "nothing" in self.seen or self.seen[0] == self.seen[1]:
            return None
        own = [""] * 3
        own[self.in_use.index("R")], own[self.in_use.index("G")] = (colour[0].upper() for colour in self.seen)
        own[self.in_use.index("B")] = ({"R", "G", "B"} - set(own)).pop()
        return "".join(own)

    @property
    def ok(self) -> bool:
        return self.order == self.in_use

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "in_use": self.in_use, "seen": list(self.seen), "order": self.order}

    def __str__(self) -> str:
        where = f"the LED beside {self.hole}" if self.hole else "the first LED"
        if "nothing" in self.seen:
            return (
                f"colour order: {where} stayed dark: check the LEDs' 5 V and GND, and the data line into "
                "the first pixel's DIN, then run this again"
            )
        if self.order is None:
            return f"colour order: red and green both looked {self.seen[0]}: watch {where} alone and run this again"
        if self.ok:
            return f"colour order: {self.in_use} is right (red looked red, green looked green)"
        return (
            f"colour order: these LEDs take {self.order}, not {self.in_use} (red looked {self.seen[0]}, green "
            f'looked {self.seen[1]}): put pixel_order = "{self.order}" under [leds] in /etc/pegs/pegs.toml, '
            f"and check with pegs selftest --pixel-order {self.order}"
        )


def check_colour_order(layout: Layout, strip: PixelStrip, ask: AskColour, in_use: str = "GRB") -> ColourOrder:
    """Light pixel 0 pure red, then pure green, asking each time what the person sees; ``strip``
    must be driving ``in_use``. Two answers name one of the six orders."""
    if in_use not in PIXEL_ORDERS:
        raise ValueError(f"pixel order {in_use!r} is not one of {', '.join(PIXEL_ORDERS)}")
    hole = next((wire.hole for wire in layout.wires if wire.pixel == 0), None)
    where = f"The LED beside {hole}" if hole else "The first LED"
    seen: list[Colour] = []
    try:
        for index, sent in enumerate("RG", 1):
            strip.show(only_lit(strip.n, 0, SHOWN[sent]))
            answer = ask(
                Step(
                    "colour",
                    f"{where} is lit in one colour: which do you see? red, green, blue or nothing",
                    hole,
                    index,
                    2,
                )
            )
            if answer not in ("red", "green", "blue", "nothing"):
                raise ValueError(f"a colour answer is red, green, blue or nothing, not {answer!r}")
            seen.append(answer)
            if answer == "nothing":
                break
    finally:
        strip.clear()
    return ColourOrder(in_use, tuple(seen), hole)


# -- magnets ------------------------------------------------------------------------------------

Verdict = Literal["steady", "not seen", "flickers", "drops out", "late", "not emptied"]
WEAK = "weak: a stronger magnet, or less wood between it and the sensor"
EDGE = "its sensor is at the edge: less wood over it (2 to 3 mm), or move it under the hole's centre"


@dataclass(frozen=True)
class MagnetResult:
    """How one peg (in the test hole) or one hole (with a good peg) answered."""

    name: str  # "peg 3" or a hole's name
    verdict: Verdict
    changes: int = 0  # changes while the peg rested
    late: float = 0.0  # seconds after Enter that a late peg was seen
    window: float = 1.5
    also: tuple[str, ...] = ()  # other holes that went occupied meanwhile
    hole: str = ""  # the hole it was in

    @property
    def ok(self) -> bool:
        return self.verdict == "steady"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "verdict": self.verdict,
            "changes": self.changes,
            "late": round(self.late, 3),
            "also": list(self.also),
            "ok": self.ok,
        }

    def __str__(self) -> str:
        peg = self.name.startswith("peg")
        text = {
            "steady": "seen, steady" if peg else "steady",
            "not seen": (
                "NOT SEEN: turn its magnet over (an A3144 needs the south pole down) or use a stronger one"
                if peg
                else "NOT SEEN: no sensor answer (pegs selftest tells dead from swapped)"
            ),
            "flickers": f"flickers {self.changes} times in {self.window:g} s: " + (WEAK if peg else EDGE),
            "drops out": "seen, then lost while it rested: " + (WEAK if peg else EDGE),
            "late": f"seen only {self.late:.1f} s after Enter: {WEAK} (or it went in after Enter: try it again)",
            "not emptied": (
                f"not checked: {self.hole} never emptied before it went in: take each peg out before "
                f"the next; if {self.hole} is empty, its sensor is stuck: test in another hole"
                if peg
                else "read a peg before it went in: take the other pegs off; if the hole is empty, its sensor is stuck"
            ),
        }[self.verdict]
        others = ", ".join(self.also)
        if not self.also:
            return f"{self.name}: {text}"
        if self.verdict == "not seen" and not peg:
            return (
                f"{self.name}: NOT SEEN; {others} answered instead: the two holes' sensor wires are swapped "
                "(pegs calibrate learns the real order), or the peg went there"
            )
        return f"{self.name}: {text} ({others} went occupied too: a peg there, or a magnet strong enough to reach it)"


@dataclass(frozen=True)
class MagnetReport:
    """All the pegs (``part="pegs"``, tried in ``hole``) or all the holes tried."""

    part: Literal["pegs", "holes"]
    results: tuple[MagnetResult, ...]
    hole: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.results) and all(result.ok for result in self.results)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "part": self.part, "results": [result.to_json() for result in self.results]}

    def __str__(self) -> str:
        bad = [result.name for result in self.results if not result.ok]
        if not self.results:
            return f"no {self.part} were tried"
        if not bad:
            tried = f"all {len(self.results)} {self.part}" if len(self.results) > 1 else f"the {self.part[:-1]}"
            return f"{tried} seen, steady"
        lines = [f"{len(bad)} of {len(self.results)} {self.part} need a fix: {', '.join(bad)}"]
        if self.part == "pegs" and all(result.verdict == "not seen" for result in self.results):
            lines.append(
                f"no peg was seen in {self.hole}: if their magnets are all the same way up, turn them all "
                "over; else that hole's sensor is dead: test in another hole (pegs watch shows which work)"
            )
        return "\n".join(lines)


def check_pegs(
    sensors: SensorBoard,
    hole: str,
    prompt: Prompt,
    *,
    window: float = 1.5,
    pegs: int | None = None,
    cancel: threading.Event | None = None,
    on_result: Callable[[MagnetResult], Any] | None = None,
) -> MagnetReport:
    """Each peg in turn in ``hole``: ``prompt`` returns when the peg is in (False: no pegs left);
    the hole is then watched for ``window`` seconds. Stops after ``pegs`` pegs if given."""
    cancel = cancel or threading.Event()
    events: queue.Queue[Change] = queue.Queue()
    unsubscribe = sensors.subscribe(events.put)
    results: list[MagnetResult] = []
    try:
        was_in = hole in sensors.snapshot()  # then followed change by change: a change is a level, not a toggle
        carry: list[Change] = []  # changes read after the last window: the next peg's
        for number in itertools.count(1) if pegs is None else range(1, pegs + 1):
            text = f"Put peg {number} in {hole}, then press Enter"
            if prompt(Step("peg", text, hole, number, pegs or 0)) is False:
                break
            start = time.monotonic()
            before, during, after, also = _watch(events, hole, start + GRACE, start + window, cancel)
            before = carry + before
            result = _judge_peg(f"peg {number}", hole, was_in, before, during, start, window, also)
            results.append(result)
            if on_result is not None:
                on_result(result)
            was_in = (before + during)[-1].occupied if before or during else was_in
            carry = after
    finally:
        unsubscribe()
    return MagnetReport("pegs", tuple(results), hole)


def check_holes(
    layout: Layout,
    sensors: SensorBoard,
    prompt: Prompt,
    holes: Sequence[str] | None = None,
    *,
    window: float = 1.5,
    timeout: float = 30.0,
    strip: PixelStrip | None = None,
    cancel: threading.Event | None = None,
    on_result: Callable[[MagnetResult], Any] | None = None,
) -> MagnetReport:
    """One good peg carried from hole to hole (lit, if ``strip``); each hole is watched for
    ``window`` seconds from the moment it saw the peg, ``timeout`` seconds to see it at all."""
    cancel = cancel or threading.Event()
    holes = tuple(holes) if holes is not None else layout.hole_names
    events: queue.Queue[Change] = queue.Queue()
    unsubscribe = sensors.subscribe(events.put)
    results: list[MagnetResult] = []
    try:
        for index, hole in enumerate(holes, 1):
            if strip is not None:
                strip.show(only_lit(strip.n, layout.pixel(hole)))
            drain_changes(events)
            was_in = hole in sensors.snapshot()
            prompt(
                Step(
                    "hole",
                    f"Put the peg in {hole} and leave it there until the next hole is named",
                    hole,
                    index,
                    len(holes),
                )
            )
            result = _judge_hole(hole, was_in, events, window, timeout, cancel)
            results.append(result)
            if on_result is not None:
                on_result(result)
    finally:
        unsubscribe()
        if strip is not None:
            strip.clear()
    return MagnetReport("holes", tuple(results))


def _watch(
    events: queue.Queue[Change], hole: str, split: float, end: float, cancel: threading.Event
) -> tuple[list[Change], list[Change], list[Change], tuple[str, ...]]:
    """The hole's changes before ``split``, from ``split`` to ``end``, and after ``end`` (read while
    emptying the queue); the other holes that went occupied meanwhile."""
    before: list[Change] = []
    during: list[Change] = []
    after: list[Change] = []
    also: list[str] = []
    while (change := next_change(events, end, cancel)) is not None:
        if change.hole != hole:
            if change.occupied and change.hole not in also:
                also.append(change.hole)
        else:
            (before if change.at < split else during if change.at <= end else after).append(change)
    return before, during, after, tuple(also)


def _judge_peg(
    name: str,
    hole: str,
    was_in: bool,
    before: list[Change],
    during: list[Change],
    start: float,
    window: float,
    also: tuple[str, ...],
) -> MagnetResult:
    """What the builder should hear of one peg: see the module's docs for the faults."""
    emptied = not was_in or any(not change.occupied for change in before)
    at_start = before[-1].occupied if before else was_in
    at_end = during[-1].occupied if during else at_start
    verdict: Verdict = "steady"
    if not emptied:
        verdict = "not emptied"
    elif not (at_start or any(change.occupied for change in before + during)):
        verdict = "not seen"
    elif len(during) >= 2:
        verdict = "flickers"
    elif not at_end:
        verdict = "drops out"
    elif during:
        verdict = "late"
    late = during[0].at - start if during else 0.0
    return MagnetResult(name, verdict, len(during), late, window, also, hole)


def _judge_hole(
    hole: str, was_in: bool, events: queue.Queue[Change], window: float, timeout: float, cancel: threading.Event
) -> MagnetResult:
    """Wait for the peg in ``hole``, then watch it rest."""
    if was_in:
        return MagnetResult(hole, "not emptied", window=window, hole=hole)
    deadline = time.monotonic() + timeout
    others: list[str] = []  # holes that answered instead: swapped wires, or the peg put elsewhere
    while (change := next_change(events, deadline, cancel)) is not None:
        if change.hole == hole and change.occupied:
            break
        if change.occupied and change.hole not in others:
            others.append(change.hole)
    else:
        return MagnetResult(hole, "not seen", window=window, also=tuple(others), hole=hole)
    _, during, _, _ = _watch(events, hole, change.at, change.at + window, cancel)
    verdict: Verdict = "flickers" if len(during) >= 2 else "drops out" if during else "steady"
    return MagnetResult(hole, verdict, len(during), 0.0, window, (), hole)

"""Which holes hold a peg: one interface, three backends (simulated, Pi pins, serial link).

    from hardware.layout import default_layout
    from hardware.sensors import SimulatedSensors

    board = SimulatedSensors(default_layout(4), occupied=["S0:1", "S0:2"])
    board.subscribe(print)           # Change(hole='S0:1', occupied=False, at=...)
    board.lift("S0:1")
    board.place("T0:8")
    board.snapshot()                 # frozenset({'S0:2', 'T0:8'})

Every backend is a ``SensorBoard``: ``snapshot()`` gives the occupied holes now,
``subscribe(callback)`` delivers each ``Change`` as it happens (returns a function that
unsubscribes), ``health()`` is a JSON-able dict for the web page and logs, ``close()``
releases the hardware. A sensor sees occupancy only, never colours.

- ``SimulatedSensors``: driven by code (tests, demos, the web page's simulated board).
- ``GpioSensors``: gpiozero input devices on Pi pins, for a one-side prototype.
- ``SerialSensors``: the sensor microcontroller through ``firmware_bridge.link``.

The config names a backend, and sets its keys, through ``hardware.registry``: the three
above are registered in ``hardware.builtin_backends``.

Callbacks run on the backend's thread (gpiozero's or the serial reader's) in the order
the changes happened; keep them short. An exception in one callback is logged and counted
in ``health()["callback_errors"]``; the others still get the change.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, Self, cast

from firmware_bridge.firmware_files import chips_for
from hardware.chain import INPUTS_PER_CHIP
from hardware.layout import Layout, default_layout
from referee.holes import SIDES

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """A hole became occupied or empty, at ``time.monotonic()`` seconds."""

    hole: str
    occupied: bool
    at: float


Callback = Callable[[Change], None]


class SensorBoard:
    """The common part of every backend: subscribers, counting, a lock, context manager."""

    backend = "none"

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._subscribers: list[Callback] = []
        self._changes = 0
        self._callback_errors = 0
        self._closed = False
        self._fault: str | None = None

    @property
    def fault(self) -> str | None:
        """Why the sensors cannot be believed now (one sentence naming the fix), or None.

        Read without the lock: the table reads it holding its own lock, while sensor
        threads call the table holding this one.
        """
        return self._fault

    def snapshot(self) -> frozenset[str]:
        """The occupied holes now."""
        raise NotImplementedError

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Call ``callback(change)`` for every change from now on; returns the unsubscriber."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._subscribers.clear()

    @property
    def closed(self) -> bool:
        return self._closed

    def health(self) -> dict[str, Any]:
        with self._lock:
            return {
                "backend": self.backend,
                "closed": self._closed,
                "occupied": len(self.snapshot()),
                "changes": self._changes,
                "callback_errors": self._callback_errors,
                "fault": self._fault,
            }

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _emit(self, changes: Iterable[Change]) -> None:
        """Deliver changes in order; called with the lock held so order is kept across threads."""
        for change in changes:
            self._changes += 1
            for callback in list(self._subscribers):
                try:
                    callback(change)
                except Exception:  # a broken subscriber must not stop the sensors
                    self._callback_errors += 1
                    log.exception("sensor callback %r failed on %s", callback, change)


# -- simulated -------------------------------------------------------------------------


class SimulatedSensors(SensorBoard):
    """A board driven by code: ``lift``, ``place`` and ``set`` emit the changes a real board would."""

    backend = "simulated"

    def __init__(
        self,
        layout_or_hole_names: Layout | Iterable[str],
        occupied: Iterable[str] = (),
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        names = (
            layout_or_hole_names.hole_names if isinstance(layout_or_hole_names, Layout) else tuple(layout_or_hole_names)
        )
        self.hole_names: tuple[str, ...] = names
        self._known = frozenset(names)
        self._clock = clock
        self._occupied: set[str] = set(self._check(occupied))

    def snapshot(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._occupied)

    def lift(self, hole: str) -> Change:
        """Take the peg out of ``hole``."""
        with self._lock:
            self._check([hole])
            if hole not in self._occupied:
                raise ValueError(f"cannot lift from {hole}: it holds no peg")
            return self._change(hole, False)

    def place(self, hole: str) -> Change:
        """Put a peg into ``hole``."""
        with self._lock:
            self._check([hole])
            if hole in self._occupied:
                raise ValueError(f"cannot place in {hole}: it already holds a peg")
            return self._change(hole, True)

    def set(self, occupied: Iterable[str]) -> list[Change]:
        """Make the board show exactly ``occupied``: lifts first, then places, in hole order."""
        with self._lock:
            wanted = set(self._check(occupied))
            lifts = [hole for hole in self.hole_names if hole in self._occupied and hole not in wanted]
            places = [hole for hole in self.hole_names if hole in wanted and hole not in self._occupied]
            return [self._change(hole, False) for hole in lifts] + [self._change(hole, True) for hole in places]

    def health(self) -> dict[str, Any]:
        return {**super().health(), "holes": len(self.hole_names)}

    def _change(self, hole: str, occupied: bool) -> Change:
        if self._closed:
            raise RuntimeError("the simulated board is closed")
        (self._occupied.add if occupied else self._occupied.discard)(hole)
        change = Change(hole, occupied, self._clock())
        self._emit([change])
        return change

    def _check(self, holes: Iterable[str]) -> list[str]:
        holes = list(holes)
        for hole in holes:
            if hole not in self._known:
                raise ValueError(f"unknown hole {hole!r}: not on this board")
        return holes


# -- Pi pins (gpiozero) -------------------------------------------------------------------


class GpioSensors(SensorBoard):
    """One gpiozero ``DigitalInputDevice`` per hole, for prototypes with a few sensors on Pi pins.

        from gpiozero.pins.mock import MockFactory
        sensors = GpioSensors({"T0:0": 17, "T0:1": "GPIO27"}, pin_factory=MockFactory())

    ``active_low=True`` suits A3144 hall sensors and reed switches to ground: the Pi's pull-up
    holds the line high and a peg's magnet pulls it low. ``active_low=False`` uses the
    pull-down, for sensors that drive the line high. ``bounce_time`` (seconds) is handed
    to gpiozero's pin driver: with lgpio (the default on Raspberry Pi OS, and the Pi 5's
    only choice) it is the kernel's debounce, a level must hold that long to be reported;
    reed switches chatter, hall sensors hardly do. (MockFactory pins ignore it.) A repeated
    edge in the same direction is never reported twice. Not gpiozero's ``Button``: every
    Button runs a thread that polls for "held", ten times a second.
    """

    backend = "gpio"

    def __init__(
        self,
        pins: Mapping[str, int | str],
        active_low: bool = True,
        bounce_time: float | None = 0.02,
        pin_factory: Any = None,
    ) -> None:
        super().__init__()
        from gpiozero import DigitalInputDevice  # only here: a Pi or a mock

        if not pins:
            raise ValueError("GpioSensors needs at least one hole -> pin")
        self.pins = dict(pins)
        self.active_low = active_low
        self._inputs: dict[str, Any] = {}
        self._state: dict[str, bool] = {}
        try:
            for hole, pin in self.pins.items():
                device = DigitalInputDevice(pin, pull_up=active_low, bounce_time=bounce_time, pin_factory=pin_factory)
                device.when_activated = lambda hole=hole: self._edge(hole, True)
                device.when_deactivated = lambda hole=hole: self._edge(hole, False)
                self._inputs[hole] = device
        except Exception:
            self.close()
            raise
        with self._lock:
            self._state = {hole: bool(device.is_active) for hole, device in self._inputs.items()}

    def snapshot(self) -> frozenset[str]:
        with self._lock:
            return frozenset(hole for hole, occupied in self._state.items() if occupied)

    def close(self) -> None:
        with self._lock:
            for device in self._inputs.values():
                device.close()
            self._inputs.clear()
        super().close()

    def health(self) -> dict[str, Any]:
        return {**super().health(), "pins": {hole: str(pin) for hole, pin in self.pins.items()}}

    def _edge(self, hole: str, occupied: bool) -> None:
        at = time.monotonic()
        with self._lock:
            if self._closed or self._state.get(hole) == occupied:
                return
            self._state[hole] = occupied
            self._emit([Change(hole, occupied, at)])


# -- the serial link to the sensor microcontroller ----------------------------------------------


class Link(Protocol):
    """What SerialSensors needs of ``firmware_bridge.link.SerialLink``."""

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def request_snapshot(self) -> None: ...
    def wait_connected(self, timeout: float) -> bool: ...
    @property
    def levels(self) -> tuple[bool, ...]: ...
    @property
    def health(self) -> Any: ...


LinkFactory = Callable[..., Link]


class SerialSensors(SensorBoard):
    """Sensor channels reported by the microcontroller, mapped to holes by the layout.

        sensors = SerialSensors.open(Layout.from_toml("board.toml"), port="/dev/ttyACM0")

    ``link`` is either a *factory*, called as ``link(on_change=..., on_snapshot=...)``, e.g.
    ``functools.partial(SerialLink, "/dev/ttyACM0")``; then SerialSensors builds and starts
    the link. Or it is a link already built whose callbacks forward to this object's
    ``on_change`` and ``on_snapshot``; then the caller starts it, after this constructor::

        link = SerialLink(port, on_change=lambda *a: sensors.on_change(*a),
                          on_snapshot=lambda *a: sensors.on_snapshot(*a))
        sensors = SerialSensors(layout, link)
        link.start()

    Either way ``close()`` stops the link. The firmware reports raw pin levels, and the
    layout's polarity turns them into occupied/empty: ``active_low = true`` for A3144-style
    hall sensors and reed switches to ground, ``false`` for sensors wired the other way.
    ``wiring.calibrate`` finds out by itself. More holes occupied than a game has pegs (6 a side, colour marker included)
    means the polarity is wrong: it is logged, and ``health()["polarity_suspect"]`` says so.

    A snapshot that differs from what the events said (a lost frame, a reconnect) is
    reported as the Change events that bring subscribers up to date: lifts first, then
    places, in chain order. The link's ``t`` is taken as the ``time.monotonic()`` at which
    the frame arrived.
    """

    backend = "serial"

    def __init__(self, layout: Layout, link: Link | LinkFactory, *, layout_file: str | None = None) -> None:
        """``layout_file``: the config's layout file, if any, for the fix a refused device shows."""
        super().__init__()
        self.layout = layout
        self.layout_file = layout_file
        self._hole_of = dict(layout.holes_by_channel)
        self._occupied: set[str] = set()
        self._unmapped = 0
        self._snapshots = 0
        self._polarity_suspect = False
        self._most_pegs = 6 * layout.sides  # five pegs and a colour marker per side
        if _is_built_link(link):
            self.link: Link = cast(Link, link)
            levels = tuple(self.link.levels)
            if levels and not self._refused(len(levels)):
                self._absorb(levels, time.monotonic(), emit=False)
        else:
            self.link = cast(LinkFactory, link)(on_change=self.on_change, on_snapshot=self.on_snapshot)
            self.link.start()

    @classmethod
    def open(
        cls,
        layout: Layout,
        port: str | None = None,
        vid_pid: tuple[int, int] | str | None = None,
        *,
        layout_file: str | None = None,
        **options: Any,
    ) -> SerialSensors:
        """The real serial link (``firmware_bridge.link.SerialLink``) to ``port`` or to the
        USB device ``vid_pid`` (``(0x239A, 0x80F4)`` or ``"239a:80f4"``); ``options`` go to
        SerialLink (e.g. ``baudrate``). Imported here: the link needs pyserial, the other
        backends do not."""
        from firmware_bridge.link import SerialLink

        ids = parse_vid_pid(vid_pid) if isinstance(vid_pid, str) else vid_pid

        def factory(**callbacks: Any) -> Link:
            return cast(Link, SerialLink(port, vid_pid=ids, **options, **callbacks))

        return cls(layout, factory, layout_file=layout_file)

    # -- the link's callbacks ------------------------------------------------------------

    def on_change(self, channel: int, raw_level: bool, t: float) -> None:
        """A channel's raw level changed (called on the link's thread)."""
        hole = self._hole_of.get(channel)
        with self._lock:
            if self._fault is not None:
                return  # a chain too short for the layout: nothing it says is believed
            if hole is None:
                self._unmapped += 1
                return
            occupied = self.layout.occupied(raw_level)
            if self._closed or (hole in self._occupied) == occupied:
                return
            (self._occupied.add if occupied else self._occupied.discard)(hole)
            self._emit([Change(hole, occupied, t)])

    def on_snapshot(self, levels: tuple[bool, ...], t: float) -> None:
        """Every channel's raw level (called on the link's thread): report what differs."""
        with self._lock:
            self._snapshots += 1
            if self._closed or self._refused(len(levels)):
                return
            self._absorb(tuple(levels), t, emit=True)

    # -- SensorBoard -------------------------------------------------------------------------

    def snapshot(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._occupied)

    def request_snapshot(self) -> None:
        self.link.request_snapshot()

    def wait_connected(self, timeout: float) -> bool:
        """Wait until the link is up and its first snapshot arrived (see SerialLink)."""
        return bool(self.link.wait_connected(timeout))

    def close(self) -> None:
        if not self._closed:
            try:
                self.link.stop()
            finally:
                super().close()

    def health(self) -> dict[str, Any]:
        link = self.link.health
        if dataclasses.is_dataclass(link) and not isinstance(link, type):
            link = dataclasses.asdict(link)
        elif not isinstance(link, Mapping):
            link = {"state": repr(link)}
        with self._lock:
            return {
                **super().health(),
                "holes": len(self._hole_of),
                "snapshots": self._snapshots,
                "unmapped_changes": self._unmapped,
                "polarity_suspect": self._polarity_suspect,
                "link": dict(link),
            }

    def _refused(self, channels: int) -> bool:
        """Refuse a device that is not the one made for the layout (``channel_mismatch``)."""
        fault = channel_mismatch(channels, self.layout, self.layout_file)
        if fault is not None and fault != self._fault:
            log.error("%s", fault)
        elif fault is None and self._fault is not None:
            log.info("the sensor board now reads %d channels: the ones the layout uses", channels)
        self._fault = fault
        return fault is not None

    def _absorb(self, levels: tuple[bool, ...], t: float, emit: bool) -> None:
        """Take a full set of levels as the truth (a device too short for the layout is refused before)."""
        occupied = {
            hole
            for channel, hole in self._hole_of.items()
            if channel < len(levels) and self.layout.occupied(levels[channel])
        }
        gone, new = self._occupied - occupied, occupied - self._occupied
        changes = [Change(hole, False, t) for hole in self.layout.hole_names if hole in gone]
        changes += [Change(hole, True, t) for hole in self.layout.hole_names if hole in new]
        self._occupied = occupied
        suspect = len(occupied) > self._most_pegs
        if suspect and not self._polarity_suspect:
            log.warning(
                "%d of %d holes read occupied, more than a game has pegs: is active_low right in the layout?",
                len(occupied),
                len(self._hole_of),
            )
        self._polarity_suspect = suspect
        if emit:
            self._emit(changes)


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


def parse_vid_pid(text: str) -> tuple[int, int]:
    """``"239a:80f4"`` -> ``(0x239A, 0x80F4)``: USB vendor and product ids in hex."""
    try:
        vid, pid = (int(part, 16) for part in text.split(":"))
    except ValueError:
        raise ValueError(f"a USB id is VID:PID in hex, e.g. 239a:80f4, not {text!r}") from None
    return vid, pid


def _is_built_link(link: Any) -> bool:
    """A link object (not a class or a factory): it has the link's methods itself."""
    return not isinstance(link, type) and callable(getattr(link, "request_snapshot", None))

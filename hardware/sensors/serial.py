"""The sensor microcontroller under the board, through the serial link
(``firmware_bridge.link``): its channels mapped to holes by the layout, and a device that is
not the one made for the layout refused (``hardware.sensors.channels``)."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol, cast

from hardware.layout import Layout
from hardware.sensors.board import Change, SensorBoard
from hardware.sensors.channels import channel_mismatch

log = logging.getLogger(__name__)


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

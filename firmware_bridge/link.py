"""The Pi's side of the sensor link: open, read, reconnect, resync.

``SerialLink`` owns one background thread that opens the port (by path or by USB
VID:PID), reads frames and keeps ``levels``, the converged truth of every channel.
Whatever goes wrong on the wire, the answer is the same: drop the bad bytes, ask for
a snapshot, carry on. A vanished port is reopened with exponential backoff, and every
new connection starts with a hello request and a snapshot request.

Callbacks run on the reader thread, outside the link's lock, so they may read
``levels`` or ``health``; they should return quickly (they delay the next frame).

- ``on_change(channel, level, t)``: one channel of the converged levels changed,
  reported by a change frame. ``t`` is ``time.monotonic()`` when the frame arrived.
- ``on_snapshot(levels, t)``: a snapshot replaced the levels and differed from them
  (always so for the first snapshot). The channels that differ do *not* also get
  ``on_change``: the snapshot is the event, so a consumer never sees a transition
  twice and never mistakes a resync for a move.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

import serial
import serial.tools.list_ports

from firmware_bridge import protocol
from firmware_bridge.protocol import Frame

log = logging.getLogger(__name__)

ChangeCallback = Callable[[int, bool, float], None]
SnapshotCallback = Callable[[tuple[bool, ...], float], None]

READ_TIMEOUT = 0.05  # seconds; bounds how late retries and stop() are noticed
WRITE_TIMEOUT = 0.5
RESYNC_RETRY = 0.25  # re-ask for a snapshot this long after an unanswered request
SILENCE = 3 * protocol.HEARTBEAT_S + 0.5  # no frame for this long: poke with a hello request


@dataclass(frozen=True)
class LinkHealth:
    """A consistent copy of the link's state and counters.

    ``connected``: the port is open and a snapshot has arrived on it (levels are live).
    ``port``: the port last opened. ``frames``: valid frames received. ``errors``:
    rejected lines and device-reported errors. ``resyncs``: snapshot requests caused by
    corruption or a sequence gap. ``reconnects``: successful reopenings after a lost
    connection. ``last_heartbeat``/``last_frame``: ``time.monotonic()`` or None.
    """

    connected: bool
    port: str | None
    firmware_version: str | None
    channels: int | None
    frames: int
    errors: int
    resyncs: int
    reconnects: int
    last_heartbeat: float | None
    last_frame: float | None


def find_port(vid_pid: tuple[int, int]) -> str | None:
    """The serial device of the USB device ``(vid, pid)``, or None if none is plugged in.

    CircuitPython shows two ports with the same VID:PID when the data port is enabled;
    its interface name says ``CDC2`` for the data port, and the console comes first.
    """
    vid, pid = vid_pid
    matches = [info for info in serial.tools.list_ports.comports() if info.vid == vid and info.pid == pid]
    if not matches:
        return None
    data = [info for info in matches if "CDC2" in (info.interface or "")]
    if data:
        return str(min(info.device for info in data))
    return str(max(matches, key=_interface_order).device)


def _interface_order(info: Any) -> tuple[int, str]:
    """USB interface number from a location like ``1-1.2:1.2`` (the part after the dot)."""
    location = info.location or ""
    try:
        number = int(location.rsplit(":", 1)[1].rsplit(".", 1)[1])
    except (IndexError, ValueError):
        number = -1
    return number, str(info.device)


class SerialLink:
    """Keeps the sensor levels of one microcontroller, across noise and unplugging."""

    def __init__(
        self,
        port: str | None = None,
        *,
        vid_pid: tuple[int, int] | None = None,
        baudrate: int = 115200,
        on_change: ChangeCallback | None = None,
        on_snapshot: SnapshotCallback | None = None,
        backoff: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        """``port`` (a path) wins over ``vid_pid``, which is looked up before every attempt."""
        if port is None and vid_pid is None:
            raise ValueError("give a port path or a USB vid_pid")
        if not 0 < backoff[0] <= backoff[1]:
            raise ValueError("backoff must be (first delay, maximum delay) with 0 < first <= maximum")
        self._port_path = port
        self._vid_pid = vid_pid
        self._baudrate = baudrate
        self._on_change = on_change
        self._on_snapshot = on_snapshot
        self._backoff = backoff

        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.Serial | None = None  # guarded by _write_lock
        self._tx_seq = 0  # guarded by _write_lock

        # Guarded by _lock.
        self._levels: tuple[bool, ...] = ()
        self._connected = False
        self._port: str | None = None
        self._firmware: str | None = None
        self._channels: int | None = None
        self._frames = 0
        self._errors = 0
        self._resyncs = 0
        self._reconnects = 0
        self._last_heartbeat: float | None = None
        self._last_frame: float | None = None
        self._sessions = 0
        self._session_frames = 0
        self._expected: int | None = None  # next sequence number, None right after opening
        self._compatible = True
        self._snapshot_pending = False
        self._last_request = 0.0
        self._quiet_since = 0.0
        self._last_poke = 0.0

    # -- public -------------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread; it connects, and reconnects, by itself."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="serial-link", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop reading and close the port. Safe to call twice, or from a callback."""
        self._stop.set()
        with self._write_lock:
            ser = self._serial
        if ser is not None:
            try:
                ser.cancel_read()
            except Exception as exc:  # noqa: BLE001 - the port may be closing under us; the read timeout ends it anyway
                log.debug("cancel_read: %s", exc)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def request_snapshot(self) -> None:
        """Ask the device for all levels now (again after RESYNC_RETRY if unanswered)."""
        with self._lock:
            self._snapshot_pending = True
            self._last_request = time.monotonic()
        self._send(protocol.SNAPSHOT)

    def wait_connected(self, timeout: float) -> bool:
        """Wait until the port is open and a snapshot has made ``levels`` live."""
        with self._cond:
            return self._cond.wait_for(lambda: self._connected, timeout)

    @property
    def levels(self) -> tuple[bool, ...]:
        """The raw level of every channel (True: the pin reads high; the layout's polarity
        says what that means); () before any snapshot.

        Kept, not cleared, while disconnected: it is the last known truth.
        """
        with self._lock:
            return self._levels

    @property
    def health(self) -> LinkHealth:
        with self._lock:
            return LinkHealth(
                connected=self._connected,
                port=self._port,
                firmware_version=self._firmware,
                channels=self._channels,
                frames=self._frames,
                errors=self._errors,
                resyncs=self._resyncs,
                reconnects=self._reconnects,
                last_heartbeat=self._last_heartbeat,
                last_frame=self._last_frame,
            )

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the reader thread --------------------------------------------------------------

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            port = self._port_path if self._port_path is not None else find_port(self._vid_pid or (0, 0))
            ser = self._open(port) if port is not None else None
            if ser is not None:
                try:
                    self._session(ser, str(port))
                except (serial.SerialException, OSError) as exc:
                    log.warning("serial link on %s lost: %s", port, exc)
                finally:
                    with self._write_lock:
                        self._serial = None
                        try:
                            ser.close()
                        except Exception as exc:  # noqa: BLE001 - a vanished device may fail to close; it is gone
                            log.debug("close %s: %s", port, exc)
                    with self._lock:
                        self._connected = False
                        talked = self._session_frames > 0
                if talked:  # it worked for a while: try again at once, then back off
                    delay = self._backoff[0]
                    continue
            self._stop.wait(delay)  # absent, or opens but says nothing useful: back off
            delay = min(delay * 2, self._backoff[1])

    def _open(self, port: str) -> serial.Serial | None:
        try:
            return serial.Serial(
                port, self._baudrate, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            log.debug("cannot open %s: %s", port, exc)
            return None

    def _session(self, ser: serial.Serial, port: str) -> None:
        reader = protocol.FrameReader()
        now = time.monotonic()
        with self._lock:
            if self._sessions:
                self._reconnects += 1
            self._sessions += 1
            self._session_frames = 0
            self._port = port
            self._expected = None
            self._compatible = True
            self._snapshot_pending = True
            self._last_request = now
            self._quiet_since = self._last_poke = now
        with self._write_lock:
            self._serial = ser
        log.info("serial link open on %s", port)
        self._send(protocol.HELLO)
        self._send(protocol.SNAPSHOT)
        while not self._stop.is_set():
            data = ser.read(ser.in_waiting or 1)
            now = time.monotonic()
            if data:
                before = reader.errors
                frames = reader.feed(data)
                self._handle(frames, reader.errors - before, now)
            self._housekeeping(now)

    def _handle(self, frames: list[Frame], errors: int, now: float) -> None:
        events: list[tuple[Any, ...]] = []  # (channel, level) or (levels,), in frame order
        with self._lock:
            resync = errors > 0
            self._errors += errors
            for frame in frames:
                resync = self._apply(frame, now, events) or resync
            send = resync and self._begin_resync(now)
        for event in events:
            if len(event) == 1:
                self._call(self._on_snapshot, event[0], now)
            else:
                self._call(self._on_change, event[0], event[1], now)
        if send:
            self._send(protocol.SNAPSHOT)

    def _apply(self, frame: Frame, now: float, events: list[tuple[Any, ...]]) -> bool:
        """Apply one valid frame (lock held); True when it shows that something was lost."""
        self._frames += 1
        self._session_frames += 1
        self._last_frame = self._quiet_since = now
        gap = self._expected is not None and frame.seq != self._expected
        self._expected = protocol.next_seq(frame.seq)
        kind = frame.kind
        if kind == protocol.HELLO:
            self._hello(frame, now)
            return False
        if not self._compatible:
            return False
        if kind == protocol.SNAPSHOT and frame.levels is not None:
            self._snapshot_pending = False
            self._channels = frame.channels
            if frame.levels != self._levels:
                self._levels = frame.levels
                events.append((frame.levels,))
            if not self._connected:
                self._connected = True
                self._cond.notify_all()
            return False  # a snapshot heals any gap before it
        if kind == protocol.HEARTBEAT:
            self._last_heartbeat = now
        elif kind == protocol.CHANGE and frame.channel is not None:
            channel, level = frame.channel, bool(frame.level)
            if not self._connected:
                pass  # the snapshot asked for on opening comes later and includes it
            elif channel >= len(self._levels):
                self._errors += 1
                return True
            elif self._levels[channel] != level:
                levels = list(self._levels)
                levels[channel] = level
                self._levels = tuple(levels)
                events.append((channel, level))
        elif kind == protocol.ERROR:
            self._errors += 1
            log.warning("device reports %s", frame.code)
            return True
        return gap

    def _hello(self, frame: Frame, now: float) -> None:
        """A new session of the device (maybe a restart): a snapshot must follow (lock held)."""
        self._firmware = frame.version
        self._channels = frame.channels
        self._compatible = frame.proto == protocol.PROTOCOL_VERSION
        if not self._compatible:
            self._errors += 1
            log.error("device speaks protocol %s, not %s: ignoring it", frame.proto, protocol.PROTOCOL_VERSION)
        elif not self._snapshot_pending:
            self._snapshot_pending = True
            self._last_request = now  # give the device's own snapshot a chance first

    def _begin_resync(self, now: float) -> bool:
        """Start a resync unless one is under way (lock held); True: send the request now."""
        if self._snapshot_pending:
            return False
        self._snapshot_pending = True
        self._resyncs += 1
        self._last_request = now
        return True

    def _housekeeping(self, now: float) -> None:
        with self._lock:
            retry = self._snapshot_pending and now - self._last_request >= RESYNC_RETRY
            if retry:
                self._last_request = now
            poke = now - self._quiet_since >= SILENCE and now - self._last_poke >= SILENCE
            if poke:
                self._last_poke = now
        if retry:
            self._send(protocol.SNAPSHOT)
        if poke:
            self._send(protocol.HELLO)

    def _send(self, what: str) -> None:
        """Write one request; a failure is left to the reader, which will reconnect."""
        with self._write_lock:
            if self._serial is None:
                return
            line = protocol.encode(protocol.request(self._tx_seq, what))
            self._tx_seq = protocol.next_seq(self._tx_seq)
            try:
                self._serial.write(line)
            except (serial.SerialException, OSError) as exc:
                log.debug("request %s not sent: %s", what, exc)

    @staticmethod
    def _call(callback: Callable[..., None] | None, *args: Any) -> None:
        if callback is None:
            return
        try:
            callback(*args)
        except Exception:  # a consumer's bug must not kill the link
            log.exception("serial link callback failed")

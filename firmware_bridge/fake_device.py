"""A sensor microcontroller on a pseudo-terminal, for tests and demos.

``FakeDevice`` speaks the protocol of ``firmware/code.py`` on a pty: hello and a
snapshot when plugged in, hello or snapshot on request, a change frame per level
change, heartbeats and periodic snapshots. It can misbehave on purpose: garbage bytes,
bit flips, dropped frames (a sequence gap), a truncated frame, an unplug and replug.

The pty's slave (``/dev/pts/N``) changes on every replug, like ``/dev/ttyACM0`` may
become ``/dev/ttyACM1``. So the device also keeps a symlink, ``path``, pointing at the
current slave: the link opens ``path``, which vanishes while unplugged and comes back
on replug, just as the udev rule's stable name ``/dev/pegs-board`` does.

Run as a program, it prints the slave path as the first line of stdout (and each new
one after a replug) and takes commands on stdin; ``help`` lists them.
"""

from __future__ import annotations

import argparse
import os
import random
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
import tty
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Self

from firmware_bridge import protocol

EMPTY = True  # a hall switch's open-collector output with its pull-up: high while no magnet is near


class FakeDevice:
    """An emulated scanner. Thread-safe; every method may be called from any thread.

    ``path`` is the stable symlink to open (it vanishes while unplugged); ``slave_path`` is
    the current ``/dev/pts/N``; ``levels`` the true sensor levels; ``requests`` counts the
    host's requests by kind; ``last_write`` is ``time.perf_counter()`` just before the last
    frame went out (for latency measurements).
    """

    def __init__(
        self,
        channels: int = 16,
        *,
        heartbeat: float = protocol.HEARTBEAT_S,
        snapshot_every: float = protocol.SNAPSHOT_S,
        path: str | None = None,
        version: str = "fake-1.0",
        levels: Sequence[bool] | None = None,
        seed: int = 0,
    ) -> None:
        """``path``: where to keep the symlink (default: in a fresh temporary directory); ``levels``:
        each sensor's raw level (default: all EMPTY, a board with no pegs)."""
        if not 0 < channels <= protocol.MAX_CHANNELS:
            raise ValueError(f"channels must be 1..{protocol.MAX_CHANNELS}")
        self.channels = channels
        self.heartbeat_interval = heartbeat
        self.snapshot_interval = snapshot_every
        self.version = version
        if path is not None and os.path.exists(path) and not os.path.islink(path):
            raise ValueError(f"{path} exists and is not a symlink: not replacing it")
        self._tmpdir = tempfile.mkdtemp(prefix="pegs-fake-") if path is None else None
        self.path = path if path is not None else os.path.join(self._tmpdir or "", "ttyPEGS")
        self.slave_path: str | None = None

        self._lock = threading.RLock()
        self._levels = [bool(level) for level in levels] if levels is not None else [EMPTY] * channels
        if len(self._levels) != channels:
            raise ValueError("levels must have one entry per channel")
        self._rng = random.Random(seed)
        self._start = time.monotonic()
        self._seq = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._reader = protocol.FrameReader()
        self._drop = 0
        self._corrupt_bits = 0
        self._truncate: int | None = None
        self._closed = False
        self._next_beat = self._next_snapshot = 0.0

        self.requests: Counter[str] = Counter()  # "S"/"H" -> requests received
        self.frames_sent = 0
        self.last_write: float | None = None  # time.perf_counter() just before the last frame was written
        self.last_frame: bytes | None = None  # the last frame as generated (before any fault)

        self._wake_r, self._wake_w = os.pipe()
        self.replug()
        self._thread = threading.Thread(target=self._serve, name="fake-device", daemon=True)
        self._thread.start()

    # -- the board ------------------------------------------------------------------------

    @property
    def levels(self) -> tuple[bool, ...]:
        """The true level of every channel."""
        with self._lock:
            return tuple(self._levels)

    @property
    def plugged(self) -> bool:
        with self._lock:
            return self._master is not None

    def set(self, channel: int, level: bool, *, send: bool = True) -> None:
        """Set one sensor; a real change sends a change frame (``send=False``: lose it unseen)."""
        with self._lock:
            level = bool(level)
            if self._levels[channel] == level:
                return
            self._levels[channel] = level
            if send:
                self._send(protocol.change(self._seq, channel, level, self._ms()))

    def toggle(self, channel: int) -> None:
        with self._lock:
            self.set(channel, not self._levels[channel])

    def load(self, levels: Iterable[bool]) -> None:
        """Set every channel, one change frame per channel that differs."""
        with self._lock:
            for channel, level in enumerate(levels):
                self.set(channel, level)

    # -- frames ---------------------------------------------------------------------------

    def hello(self) -> None:
        with self._lock:
            self._send(protocol.hello(self._seq, self.channels, self.version))

    def snapshot(self) -> None:
        with self._lock:
            self._send(protocol.snapshot(self._seq, self._levels))
            self._next_snapshot = time.monotonic() + self.snapshot_interval

    def heartbeat(self) -> None:
        with self._lock:
            self._send(protocol.heartbeat(self._seq, self._ms()))

    def overflow(self) -> None:
        """What the firmware does when its event queue overflowed: an error, then a snapshot."""
        with self._lock:
            self._send(protocol.error(self._seq, "overflow"))
            self.snapshot()

    # -- faults ---------------------------------------------------------------------------

    def garbage(self, n: int = 32, data: bytes | None = None) -> None:
        """Write ``data``, or ``n`` random bytes, straight onto the wire."""
        with self._lock:
            self._write(data if data is not None else self._rng.randbytes(n))

    def corrupt_next(self, bits: int = 1) -> None:
        """Flip ``bits`` random bits (never in the final newline) of the next frame."""
        with self._lock:
            self._corrupt_bits = bits

    def drop_next(self, n: int = 1) -> None:
        """Number the next ``n`` frames but never send them: the host sees a sequence gap."""
        with self._lock:
            self._drop = n

    def truncate_next(self, keep: int | None = None) -> None:
        """Send only the first ``keep`` bytes (default: half) of the next frame, no newline."""
        with self._lock:
            self._truncate = -1 if keep is None else keep

    def unplug(self) -> None:
        """Close the pty and remove the symlink, as pulling the USB cable would."""
        with self._lock:
            self._unplug()

    def replug(self) -> None:
        """A fresh pty and symlink; the device boots again: sequence 0, hello, snapshot."""
        with self._lock:
            self._unplug()
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no newline translation, before anyone opens it
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.slave_path = os.ttyname(slave)
            temporary = self.path + ".new"
            if os.path.lexists(temporary):
                os.remove(temporary)
            os.symlink(self.slave_path, temporary)
            os.replace(temporary, self.path)
            self._reader.reset()
            self._seq = 0
            self.hello()
            self.snapshot()
            self._next_beat = time.monotonic() + self.heartbeat_interval
        os.write(self._wake_w, b"x")

    def reflash(self, levels: Sequence[bool]) -> None:
        """New firmware with a chain of ``len(levels)`` channels: unplugged, flashed, replugged
        (as a builder does after ``pegs firmware``)."""
        if not 0 < len(levels) <= protocol.MAX_CHANNELS:
            raise ValueError(f"channels must be 1..{protocol.MAX_CHANNELS}")
        with self._lock:
            self._unplug()
            self.channels = len(levels)
            self._levels = [bool(level) for level in levels]
            self.replug()

    def close(self) -> None:
        """Stop serving, close the pty, remove the symlink (and its temporary directory)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._unplug()
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=2.0)
        os.close(self._wake_r)
        os.close(self._wake_w)
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals (lock held) ------------------------------------------------------------

    def _ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000) % protocol.MS_MOD

    def _send(self, frame: protocol.Frame) -> None:
        line = protocol.encode(frame)
        self._seq = protocol.next_seq(self._seq)
        self.last_frame = line
        if self._drop > 0:
            self._drop -= 1
            return
        if self._corrupt_bits:
            damaged = bytearray(line)
            for position in self._rng.sample(range((len(line) - 1) * 8), self._corrupt_bits):
                damaged[position // 8] ^= 1 << (position % 8)
            line = bytes(damaged)
            self._corrupt_bits = 0
        if self._truncate is not None:
            keep = len(line) // 2 if self._truncate < 0 else self._truncate
            line = line[: min(keep, len(line) - 1)]
            self._truncate = None
        self._write(line)
        if frame.kind == protocol.HEARTBEAT:
            self._next_beat = time.monotonic() + self.heartbeat_interval

    def _write(self, data: bytes) -> None:
        """Write like a USB device with a write timeout: what does not fit is lost."""
        if self._master is None:
            return
        self.last_write = time.perf_counter()
        view = memoryview(data)
        deadline = time.monotonic() + 0.05
        while view:
            try:
                view = view[os.write(self._master, view) :]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.001)
        self.frames_sent += 1

    def _unplug(self) -> None:
        if os.path.islink(self.path) and os.readlink(self.path) == self.slave_path:
            os.remove(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def _serve(self) -> None:
        """Answer requests; send heartbeats and periodic snapshots."""
        while True:
            with self._lock:
                if self._closed:
                    return
                master = self._master
            fds = [self._wake_r] if master is None else [self._wake_r, master]
            try:
                ready, _, _ = select.select(fds, [], [], 0.02)
            except OSError:  # unplugged (the fd closed) between taking it and selecting
                continue
            if self._wake_r in ready:
                os.read(self._wake_r, 1024)
            with self._lock:
                if self._closed:
                    return
                if master is not None and master in ready and master == self._master:
                    self._receive(master)
                now = time.monotonic()
                if self._master is not None and now >= self._next_beat:
                    self.heartbeat()
                if self._master is not None and now >= self._next_snapshot:
                    self.snapshot()

    def _receive(self, master: int) -> None:
        try:
            data = os.read(master, 4096)
        except OSError:  # EAGAIN, or EIO while nobody has the port open
            return
        errors = self._reader.errors
        for frame in self._reader.feed(data):
            if frame.kind != protocol.REQUEST:
                continue
            self.requests[frame.what or ""] += 1
            if frame.what == protocol.HELLO:
                self.hello()
            else:
                self.snapshot()
        if self._reader.errors > errors:
            self._send(protocol.error(self._seq, "badframe"))


# -- the program ----------------------------------------------------------------------------

HELP = """commands (one a line):
  set CH 0|1        set a sensor (a change frame follows)
  toggle CH         flip a sensor
  garbage [N]       N random bytes (default 32)
  corrupt [BITS]    flip BITS bits of the next frame (default 1)
  drop [N]          number but never send the next N frames (default 1)
  truncate [KEEP]   cut the next frame after KEEP bytes (default: half)
  unplug [SECONDS]  close the pty; replug after SECONDS if given
  replug            a new pty (its path is printed on stdout)
  hello | snapshot | heartbeat   send one now
  levels            print the levels as a snapshot bitmap (on stderr)
  quit"""


def _command(device: FakeDevice, words: list[str]) -> bool:
    """Run one stdin command; False to quit."""
    name, args = words[0], [float(word) for word in words[1:]]
    ints = [int(arg) for arg in args]
    if name == "quit":
        return False
    if name == "set":
        device.set(ints[0], bool(ints[1]))
    elif name == "toggle":
        device.toggle(ints[0])
    elif name == "garbage":
        device.garbage(ints[0] if ints else 32)
    elif name == "corrupt":
        device.corrupt_next(ints[0] if ints else 1)
    elif name == "drop":
        device.drop_next(ints[0] if ints else 1)
    elif name == "truncate":
        device.truncate_next(ints[0] if ints else None)
    elif name == "unplug":
        device.unplug()
        if args:
            threading.Timer(args[0], _replug, (device,)).start()
    elif name == "replug":
        _replug(device)
    elif name in ("hello", "snapshot", "heartbeat"):
        getattr(device, name)()
    elif name == "levels":
        print(protocol.bitmap(device.levels), file=sys.stderr, flush=True)
    else:
        print(HELP, file=sys.stderr, flush=True)
    return True


def _replug(device: FakeDevice) -> None:
    device.replug()
    print(device.slave_path, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.fake_device", description=__doc__.split("\n")[0])
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--heartbeat", type=float, default=protocol.HEARTBEAT_S, help="seconds between heartbeats")
    parser.add_argument("--snapshot-every", type=float, default=protocol.SNAPSHOT_S, help="seconds between snapshots")
    parser.add_argument("--link", help="keep a symlink here to the current pty (default: a temporary path)")
    parser.add_argument("--seed", type=int, default=0, help="seed for garbage and bit flips")
    options = parser.parse_args(argv)
    device = FakeDevice(
        options.channels,
        heartbeat=options.heartbeat,
        snapshot_every=options.snapshot_every,
        path=options.link,
        seed=options.seed,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        print(device.slave_path, flush=True)
        print(f"symlink: {device.path} (type 'help' for commands)", file=sys.stderr, flush=True)
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            try:
                if not _command(device, words):
                    return 0
            except (ValueError, IndexError, OverflowError) as exc:
                print(f"bad command {line.strip()!r}: {exc}", file=sys.stderr, flush=True)
        threading.Event().wait()  # stdin closed: keep serving until a signal
    except KeyboardInterrupt:
        pass
    finally:
        device.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

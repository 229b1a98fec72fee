"""One daemon per data directory: ``pegs serve`` holds ``DATA/serve.lock`` for its life.

Two daemons on one game store would both write it (two referees, each sure of its own
board). The lock is ``flock``: the kernel lets it go when the holder's process ends, however
it ends (a clean stop, ``kill -9``, a crash), so a restart by systemd never finds a stale
lock. Only ``pegs serve`` takes it: the tools that read a store (``pegs replay`` of an
export, the tests' tables) are not daemons and never wait for it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LOCK_NAME = "serve.lock"


class DataDirBusy(Exception):
    """Another ``pegs serve`` is using the data directory."""


def hold(data_dir: str | Path) -> int | None:
    """Take the data directory's lock, or raise DataDirBusy naming the directory and the
    daemon that holds it. The descriptor returned holds it until the process ends (it is not
    passed to child processes). None when the directory cannot be made or written: the
    store then says why, in its own words, and no store is opened."""
    folder = Path(data_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except PermissionError:  # made by another user (root, by hand): a lock held read-only is a lock all the same
        try:
            fd = os.open(folder / LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(fd)
        os.close(fd)
        running = f"another pegs serve (process {holder})" if holder else "another pegs serve"
        raise DataDirBusy(
            f"the data dir {str(folder)!r} is in use by {running}: only one daemon may keep a "
            "game store. Stop that one first (on the Pi: sudo systemctl stop pegs), or give "
            "this one another --data"
        ) from None
    except OSError:  # a file system without locks: nothing to hold, and nothing held
        os.close(fd)
        return None
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def release(fd: int | None) -> None:
    """Let the lock go (the process's end does the same)."""
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def _holder(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None

"""Stand-ins for the CircuitPython modules the scanner firmware uses (board, keypad,
supervisor, usb_cdc, time), so its code runs under CPython in the tests."""

from __future__ import annotations

import builtins
import contextlib
from collections import deque
from pathlib import Path
from types import SimpleNamespace
from typing import Any


class Done(BaseException):
    """Ends the firmware's endless loop (BaseException: its ``except Exception`` lets it pass)."""


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000

    def sleep(self, seconds: float) -> None:
        self.ms += max(1, int(seconds * 1000))

    def ticks_ms(self) -> int:
        return self.ms % (1 << 29)


class Port:
    """usb_cdc.data as the firmware sees it."""

    def __init__(self) -> None:
        self.connected = True
        self.timeout: float | None = None
        self.write_timeout: float | None = None
        self.inbox = b""
        self.written = b""

    @property
    def in_waiting(self) -> int:
        return len(self.inbox)

    def read(self, size: int) -> bytes:
        data, self.inbox = self.inbox[:size], self.inbox[size:]
        return data

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)


class Keys:
    """keypad.ShiftRegisterKeys: a script of steps, each run when the firmware asks for events."""

    def __init__(self, clock: Clock, port: Port, script: list[Any], /, **config: Any) -> None:
        self.config = config
        self.pressed: set[int] = set()
        self.queue: deque[Any] = deque()
        self.script = deque(script)
        self.clock, self.port = clock, port
        self.overflowed = False
        self.events = self

    def press(self, key: int, pressed: bool = True) -> None:
        (self.pressed.add if pressed else self.pressed.discard)(key)
        self.queue.append(SimpleNamespace(key_number=key, pressed=pressed, timestamp=self.clock.ticks_ms()))

    def reset(self) -> None:
        for key in sorted(self.pressed):
            self.queue.append(SimpleNamespace(key_number=key, pressed=True, timestamp=self.clock.ticks_ms()))

    def clear(self) -> None:
        self.queue.clear()
        self.overflowed = False

    def get(self) -> Any:
        if self.queue:
            return self.queue.popleft()
        if not self.script:
            raise Done
        self.script.popleft()(self)
        return None


def run_firmware(path: Path, modules: dict[str, Any]) -> None:
    """Run a firmware file with ``modules`` standing in for CircuitPython's, until its
    script of steps runs out."""
    real_import = builtins.__import__

    def fake_import(module: str, *args: Any, **kwargs: Any) -> Any:
        return modules[module] if module in modules else real_import(module, *args, **kwargs)

    namespace = {"__name__": "__main__", "__builtins__": {**vars(builtins), "__import__": fake_import}}
    source = path.read_text()
    with contextlib.suppress(Done):  # the stand-ins end the firmware's loop by raising Done
        exec(compile(source, str(path), "exec"), namespace)  # noqa: S102 - our own firmware, stubbed

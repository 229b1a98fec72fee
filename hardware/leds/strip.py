"""What every LED backend is: a ``PixelStrip`` that writes a frame (a colour per pixel of the
chain) only when it differs from the last. The backends are the package's other modules:
``memory``, ``neopixel_pin`` and ``spi``."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Self

RGB = tuple[int, int, int]
Frame = tuple[RGB, ...]
BLACK: RGB = (0, 0, 0)


class PixelStrip:
    """A chain of ``n`` pixels. Subclasses implement ``write``; ``show`` skips repeats."""

    def __init__(self, n: int) -> None:
        if n <= 0:
            raise ValueError(f"a strip needs at least one pixel, not {n}")
        self.n = n
        self._last: Frame | None = None
        self._lock = threading.Lock()  # the sensor thread and the web may both show frames
        self.writes = 0

    def show(self, frame: Sequence[RGB]) -> bool:
        """Write ``frame`` unless it equals the last frame written; True if written."""
        frame = frame if isinstance(frame, tuple) else tuple(frame)
        if len(frame) != self.n:
            raise ValueError(f"a frame for this strip has {self.n} pixels, not {len(frame)}")
        with self._lock:
            if frame == self._last:
                return False
            self.write(frame)
            self._last = frame
            self.writes += 1
            return True

    def write(self, colours: Sequence[RGB]) -> None:
        """Send every pixel's colour to the hardware now."""
        raise NotImplementedError

    def clear(self) -> bool:
        return self.show((BLACK,) * self.n)

    @property
    def last(self) -> Frame | None:
        """The last frame written by ``show``."""
        return self._last

    def close(self) -> None:
        """Turn the pixels off and release the hardware."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Pixels in memory: the simulated board, tests, and the web page's mirror of the LEDs."""

from __future__ import annotations

from collections.abc import Sequence

from hardware.leds.strip import BLACK, RGB, Frame, PixelStrip


class MemoryStrip(PixelStrip):
    """Pixels in memory: the simulated board, tests, and the web page's mirror of the LEDs."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.frame: Frame = (BLACK,) * n
        self.frames = 0  # frames written; the web page polls it to see that something changed

    def write(self, colours: Sequence[RGB]) -> None:
        self.frame = tuple(colours)
        self.frames += 1

    def hex(self) -> list[str]:
        """``["#00ff00", ...]``: the frame as the web page draws it."""
        return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in self.frame]

    def close(self) -> None:
        self.clear()

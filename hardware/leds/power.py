"""How much current a frame draws, and the frame scaled down to stay within a budget
(Adafruit's NeoPixel Uberguide, "Powering NeoPixels"; see the package's docs)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hardware.leds.strip import BLACK, RGB, Frame


@dataclass(frozen=True)
class PowerModel:
    """Current drawn by WS2812-type pixels: linear in each channel's value, plus idle logic."""

    ma_per_channel: float = 20.0  # one colour channel at 255 (Überguide: 60 mA per white pixel)
    idle_ma: float = 1.0  # per pixel, even when dark

    def amps(self, frame: Sequence[RGB]) -> float:
        lit = sum(r + g + b for r, g, b in frame)
        return (len(frame) * self.idle_ma + lit * self.ma_per_channel / 255) / 1000


WS2812 = PowerModel()  # the estimate for WS2812-type pixels, as the Uberguide gives it


def limit_current(frame: Sequence[RGB], max_amps: float, model: PowerModel = WS2812) -> Frame:
    """The frame scaled down, all pixels alike, so its estimated current is at most ``max_amps``."""
    frame = tuple(frame)
    lit = sum(r + g + b for r, g, b in frame)
    if lit == 0:
        return frame
    budget_ma = max_amps * 1000 - len(frame) * model.idle_ma
    lit_ma = lit * model.ma_per_channel / 255
    if lit_ma <= budget_ma:
        return frame
    if budget_ma <= 0:
        return (BLACK,) * len(frame)
    scale = budget_ma / lit_ma
    return tuple(BLACK if p == BLACK else (int(p[0] * scale), int(p[1] * scale), int(p[2] * scale)) for p in frame)

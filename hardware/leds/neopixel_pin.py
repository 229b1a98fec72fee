"""NeoPixels through Adafruit's PixelBuf: on one Pi pin (``backend = "neopixel"``:
rpi_ws281x on a Pi 4 and older, the Pi 5's PIO), and the PixelBuf wrapper the SPI backend
(``hardware.leds.spi``) shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hardware.leds.strip import BLACK, RGB, PixelStrip


class PixelBufStrip(PixelStrip):
    """Any adafruit_pixelbuf.PixelBuf (NeoPixel, NeoPixel_SPI) as a PixelStrip.

    The PixelBuf is made with ``brightness=1.0`` and ``auto_write=False``: brightness and the
    current cap are the renderer's business, and one ``show()`` sends the whole frame.
    """

    def __init__(self, pixels: Any) -> None:
        super().__init__(len(pixels))
        self.pixels = pixels

    def write(self, colours: Sequence[RGB]) -> None:
        self.pixels[:] = colours
        self.pixels.show()

    def close(self) -> None:
        deinit = getattr(self.pixels, "deinit", None)
        if deinit is not None:
            deinit()  # blanks the pixels and releases the pin
        else:
            self.pixels.fill(BLACK)
            self.pixels.show()


class NeoPixelStrip(PixelBufStrip):
    """NeoPixels on one Pi pin through adafruit-circuitpython-neopixel (see the module docs).

    ``pin`` is a ``board`` pin or its name (``"D18"``, ``"D10"``).
    """

    def __init__(self, n: int, pin: Any = "D18", *, pixel_order: str = "GRB") -> None:
        import board
        import neopixel

        if isinstance(pin, str):
            if not hasattr(board, pin):
                names = ", ".join(name for name in dir(board) if name[:1].isupper())
                raise ValueError(f"this board has no pin {pin!r}; it has {names or 'no pins'}")
            pin = getattr(board, pin)
        super().__init__(neopixel.NeoPixel(pin, n, brightness=1.0, auto_write=False, pixel_order=pixel_order))

"""The config's colour order reaches the wire (issue 23, item 7: some through-hole NeoPixels
are RGB, and a GRB frame shows them red for green)."""

from __future__ import annotations

from typing import Any

import pytest

from hardware.layout import default_layout
from referee.settings import backends
from referee.settings.config import Config

RESET = 64  # 80 us of low at 6.4 MHz before and after the pixels
sent: list[Wire] = []  # every bus the strip opened


class Wire:
    """Stands in for /dev/spidev0.0: keeps each SPI message as sent."""

    max_message = 65536

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.messages: list[bytes] = []
        self.baudrate = 6_400_000
        sent.append(self)

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, baudrate: int = 100_000, **kwargs: Any) -> None:
        self.baudrate = baudrate

    @property
    def frequency(self) -> int:
        return self.baudrate

    def write(self, buf: Any, start: int = 0, end: int | None = None) -> None:
        self.messages.append(bytes(buf[start:end]))

    def close(self) -> None:
        pass


def _first_pixel(message: bytes) -> bytes:
    """The first pixel's three bytes as they go out: each SPI byte is one NeoPixel bit."""
    bits = message[RESET : RESET + 24]
    return bytes(int("".join("1" if b == 0b11110000 else "0" for b in bits[i : i + 8]), 2) for i in range(0, 24, 8))


ORDERS = [("GRB", b"\x00\xff\x00"), ("RGB", b"\xff\x00\x00"), ("BGR", b"\x00\x00\xff")]  # red, as each sends it


@pytest.mark.parametrize(("order", "wire"), ORDERS)
def test_the_configs_pixel_order_is_the_order_on_the_wire(
    monkeypatch: pytest.MonkeyPatch, order: str, wire: bytes
) -> None:
    pytest.importorskip("neopixel_spi", reason="adafruit-circuitpython-neopixel-spi is not installed")
    monkeypatch.setattr("hardware.leds.spi.SpidevBus", Wire)
    sent.clear()
    layout = default_layout(4)
    config = Config.from_mapping({"leds": {"backend": "neopixel-spi", "pixel_order": order}})
    strip = backends.strip_for(config, layout)
    try:
        strip.show(((255, 0, 0),) + ((0, 0, 0),) * (layout.pixels - 1))  # the first pixel red
    finally:
        strip.close()
    assert _first_pixel(sent[0].messages[0]) == wire

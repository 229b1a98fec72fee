"""hardware.leds: strips, the renderer, the current cap; the NeoPixel backends through the real
libraries on Blinka's OS-agnostic board (BLINKA_OS_AGNOSTIC=1), intercepted at the wire."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from hardware.bench import render_frame
from hardware.layout import LayoutError, default_layout
from hardware.leds import (
    BLACK,
    ROLE_COLOURS,
    MemoryStrip,
    NeoPixelSpiStrip,
    NeoPixelStrip,
    PixelStrip,
    PowerModel,
    Renderer,
    limit_current,
)

LAYOUT = default_layout(4)


# -- strips ------------------------------------------------------------------------------


def test_memory_strip_writes_only_frames_that_changed() -> None:
    strip = MemoryStrip(3)
    frame = ((255, 0, 0), BLACK, (0, 0, 1))
    assert strip.show(frame) is True
    assert strip.show(list(frame)) is False  # equal, though a list: skipped
    assert strip.frames == 1 and strip.frame == frame and strip.last == frame
    assert strip.hex() == ["#ff0000", "#000000", "#000001"]
    assert strip.show((BLACK, BLACK, (0, 0, 1))) is True
    assert strip.frames == 2
    with pytest.raises(ValueError, match="has 3 pixels, not 2"):
        strip.show((BLACK, BLACK))
    strip.close()
    assert strip.frame == (BLACK,) * 3


def test_a_backend_only_implements_write() -> None:
    class Counting(PixelStrip):
        def __init__(self) -> None:
            super().__init__(2)
            self.written: list[Any] = []

        def write(self, colours: Any) -> None:
            self.written.append(tuple(colours))

    strip = Counting()
    for _ in range(3):
        strip.show(((1, 2, 3), BLACK))
    strip.clear()
    strip.clear()
    assert strip.written == [((1, 2, 3), BLACK), (BLACK, BLACK)]
    assert strip.writes == 2


# -- renderer ------------------------------------------------------------------------------


def test_roles_light_their_holes_in_the_design_colours() -> None:
    renderer = Renderer(LAYOUT, brightness=1.0, max_amps=100)
    guidance = {"T0:8": "selected", "T0:13": "destination", "S1:2": "bump", "T2:0": "wrong",
                "H0:5": "put-back", "T3:17": "hint"}  # fmt: skip
    frame = renderer.render(guidance)
    assert len(frame) == LAYOUT.pixels
    for hole, role in guidance.items():
        assert frame[LAYOUT.pixel(hole)] == ROLE_COLOURS[role]
    assert frame[LAYOUT.pixel("T0:13")] == (0, 255, 0)  # green destination
    assert frame[LAYOUT.pixel("T2:0")] == (255, 0, 0)  # red wrong
    assert frame[LAYOUT.pixel("H0:5")] == (255, 255, 255)  # white put back
    assert sum(1 for pixel in frame if pixel != BLACK) == len(guidance)


def test_the_turn_glows_dimly_on_the_come_out_hole() -> None:
    renderer = Renderer(LAYOUT, brightness=1.0, turn_level=0.2, seat_colours=[(255, 0, 0), (0, 0, 250)])
    frame = renderer.render({}, turn=1)
    assert frame[LAYOUT.pixel("T1:8")] == (0, 0, 50)
    assert sum(1 for pixel in frame if pixel != BLACK) == 1
    assert renderer.render({}, turn=3)[LAYOUT.pixel("T3:8")] == (0, 0, 50)  # colours repeat
    lit = renderer.render({"T1:8": "destination"}, turn=1)  # guidance wins over the glow
    assert lit[LAYOUT.pixel("T1:8")] == (0, 255, 0)
    with pytest.raises(LayoutError, match="T4:8"):
        renderer.render({}, turn=4)


def test_brightness_scales_every_colour() -> None:
    renderer = Renderer(LAYOUT, brightness=0.5, max_amps=100)
    assert renderer.render({"T0:0": "put-back"})[0] == (127, 127, 127)
    renderer.brightness = 0.1
    assert renderer.render({"T0:0": "put-back"})[0] == (25, 25, 25)
    renderer.brightness = 0.0
    assert renderer.render({"T0:0": "put-back"}) == (BLACK,) * LAYOUT.pixels
    with pytest.raises(ValueError, match="brightness runs 0..1"):
        renderer.brightness = 1.5


def test_bad_guidance_and_settings_are_refused() -> None:
    renderer = Renderer(LAYOUT)
    with pytest.raises(ValueError, match="unknown role 'glow'"):
        renderer.render({"T0:0": "glow"})
    with pytest.raises(LayoutError, match="'C0' is not in the layout"):
        renderer.render({"C0": "hint"})
    with pytest.raises(ValueError, match="unknown role 'shiny'"):
        Renderer(LAYOUT, colours={"shiny": (1, 1, 1)})
    with pytest.raises(ValueError, match="a colour is"):
        Renderer(LAYOUT, colours={"hint": (0, 0, 256)})
    custom = Renderer(LAYOUT, brightness=1.0, colours={"hint": (0, 255, 255)})
    assert custom.render({"T0:0": "hint"})[0] == (0, 255, 255)


# -- power ----------------------------------------------------------------------------------


def test_power_model_matches_the_neopixel_uberguide() -> None:
    model = PowerModel()
    white = ((255, 255, 255),) * 224
    assert model.amps(white) == pytest.approx(224 * 61 / 1000)  # 60 mA lit + 1 mA logic: 13.7 A
    assert model.amps((BLACK,) * 224) == pytest.approx(0.224)
    assert model.amps(((255, 0, 0),)) == pytest.approx(0.021)


@pytest.mark.parametrize("max_amps", [0.3, 1.0, 2.0, 5.0])
def test_the_cap_keeps_the_estimate_under_budget(max_amps: float) -> None:
    model = PowerModel()
    white = ((255, 255, 255),) * 224
    capped = limit_current(white, max_amps, model)
    assert model.amps(capped) <= max_amps
    assert model.amps(capped) > max_amps - 0.224 * 0.05 - 224 * 3 * 20 / 255 / 1000  # not far under
    assert len(set(capped)) == 1  # the whole frame scaled alike


def test_the_cap_leaves_a_frame_within_budget_alone_and_keeps_hues() -> None:
    frame = ((255, 0, 0), (0, 128, 64), BLACK)
    assert limit_current(frame, 2.0) == frame
    capped = limit_current(((200, 100, 0),) * 100, 0.5)
    r, g, b = capped[0]
    assert b == 0 and abs(r - 2 * g) <= 1
    assert limit_current(((255, 255, 255),) * 300, 0.2) == (BLACK,) * 300  # idle alone exceeds 0.2 A


def test_renderer_applies_the_cap_after_brightness() -> None:
    layout = default_layout(8)
    renderer = Renderer(layout, brightness=1.0, max_amps=0.5)
    guidance = {hole: "put-back" for hole in layout.hole_names[:100]}
    frame = renderer.render(guidance)
    assert renderer.amps(frame) <= 0.5
    assert frame[0] != BLACK and frame[0][0] == frame[0][1] == frame[0][2]


def test_render_benchmark_is_well_under_a_millisecond() -> None:
    result = render_frame(runs=200)
    assert result["name"] == "LEDs: render a 224-pixel frame"
    assert result["runs"] == 200
    assert set(result) == {"name", "runs", "median_ms", "p99_ms"}
    assert result["median_ms"] < 1.0


# -- the real NeoPixel libraries on Blinka's OS-agnostic board ----------------------------------

_BLINKA = ("board", "digitalio", "busio", "microcontroller", "neopixel", "neopixel_write", "neopixel_spi",
           "adafruit_blinka", "adafruit_platformdetect")  # fmt: skip


def _blinka_modules() -> dict[str, Any]:
    return {name: module for name, module in sys.modules.items() if name.split(".")[0] in _BLINKA}


@pytest.fixture
def agnostic_board(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``board`` as Blinka's OS-agnostic board. Blinka picks its board once, at import, so any
    earlier import is set aside for the test and put back after it."""
    saved = _blinka_modules()
    for name in saved:
        del sys.modules[name]
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    try:
        import board

        assert board.board_id == "OS_AGNOSTIC_BOARD"
        yield board
    finally:
        for name in _blinka_modules():
            del sys.modules[name]
        sys.modules.update(saved)


def _grb(buffer: bytes) -> list[tuple[int, int, int]]:
    return [(buffer[i + 1], buffer[i], buffer[i + 2]) for i in range(0, len(buffer), 3)]


def test_neopixel_strip_through_the_real_library(agnostic_board: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import digitalio
    from adafruit_blinka.microcontroller.generic_agnostic_board import neopixel as backend

    sent: list[tuple[Any, bytes]] = []
    monkeypatch.setattr(backend, "neopixel_write", lambda pin, buf: sent.append((pin, bytes(buf))))
    strip = NeoPixelStrip(4, "NEOPIXEL")  # the agnostic board has no D18; a Pi does
    frame = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (1, 2, 3))
    assert strip.show(frame)
    assert not strip.show(frame)  # unchanged: neopixel_write is not called again
    assert len(sent) == 1
    pin, buffer = sent[0]
    assert pin.direction == digitalio.Direction.OUTPUT
    assert _grb(buffer) == list(frame)  # GRB on the wire, exactly our colours: brightness 1.0
    strip.close()  # deinit blanks the pixels
    assert _grb(sent[-1][1]) == [BLACK] * 4


def test_neopixel_strip_names_the_pins_a_board_has(agnostic_board: Any) -> None:
    with pytest.raises(ValueError, match="no pin 'D18'.*NEOPIXEL"):
        NeoPixelStrip(4, "D18")
    strip = NeoPixelStrip(2, agnostic_board.NEOPIXEL, pixel_order="RGB")
    assert strip.n == 2


def test_neopixel_spi_strip_through_the_real_library(agnostic_board: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("neopixel_spi", reason="adafruit-circuitpython-neopixel-spi is not installed")
    import busio
    from adafruit_blinka.microcontroller.generic_agnostic_board import spi as backend

    sent: list[bytes] = []
    monkeypatch.setattr(backend.SPI, "write", lambda self, buf, start=0, end=None: sent.append(bytes(buf[start:end])))
    # board.SPI() asks for board.SCLK, which the agnostic board's SPI port does not list; SCK works
    spi = busio.SPI(agnostic_board.SCK, agnostic_board.MOSI, agnostic_board.MISO)
    strip = NeoPixelSpiStrip(3, spi)
    frame = ((255, 0, 0), (0, 0, 0), (0, 1, 128))
    strip.show(frame)
    strip.show(frame)
    assert len(sent) == 1
    reset = 64  # 80 us of low at 6.4 MHz
    bits = sent[0][reset:-reset]
    assert set(bits) <= {0b11000000, 0b11110000}  # every NeoPixel bit is one SPI byte
    data = bytes(int("".join("1" if b == 0b11110000 else "0" for b in bits[i : i + 8]), 2)
                 for i in range(0, len(bits), 8))  # fmt: skip
    assert _grb(data) == list(frame)

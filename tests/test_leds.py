"""hardware.leds: strips, the renderer, the current cap; the NeoPixel backends through the real
libraries on Blinka's OS-agnostic board (BLINKA_OS_AGNOSTIC=1), intercepted at the wire."""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from hardware.layout import LayoutError, default_layout
from hardware.leds import (
    BLACK,
    MemoryStrip,
    NeoPixelSpiStrip,
    NeoPixelStrip,
    PixelStrip,
    PowerModel,
    Renderer,
    limit_current,
)
from hardware.signals import ROLE_COLOURS
from referee.bench.leds import render_frame

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
    guidance = {
        "T0:8": "selected",
        "T0:13": "destination",
        "S1:2": "bump",
        "T2:0": "wrong",
        "H0:5": "put-back",
        "T3:17": "hint",
    }
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

_BLINKA = (
    "board",
    "digitalio",
    "busio",
    "microcontroller",
    "neopixel",
    "neopixel_write",
    "neopixel_spi",
    "adafruit_blinka",
    "adafruit_platformdetect",
)


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
    data = bytes(
        int("".join("1" if b == 0b11110000 else "0" for b in bits[i : i + 8]), 2) for i in range(0, len(bits), 8)
    )
    assert _grb(data) == list(frame)


# -- SPI: a whole frame is one SPI message ---------------------------------------------------
# The recorder below stands in for the kernel's spidev. It knows the ioctl numbers and the
# struct spi_ioc_transfer layout from <linux/spi/spidev.h> itself (not from hardware.leds), reads
# the bytes each message points at, and the expected bytes are built here from neopixel_spi's
# documented encoding: GRB, each bit MSB first as one SPI byte (1 -> 0b11110000, 0 -> 0b11000000),
# 80 us of zeros (64 bytes at 6.4 MHz) before and after.

SPI_IOC_MESSAGE_1 = 0x40206B00  # _IOW('k', 0, char[32]): one 32-byte struct spi_ioc_transfer
SPI_IOC_WR_MODE = 0x40016B01  # _IOW('k', 1, __u8)
SPI_IOC_WR_BITS_PER_WORD = 0x40016B03  # _IOW('k', 3, __u8)
SPI_IOC_WR_MAX_SPEED_HZ = 0x40046B04  # _IOW('k', 4, __u32)


class SpidevRecorder:
    """A fake spidev behind ``ioctl``: every SPI message's bytes and speed, and the settings asked for."""

    def __init__(self) -> None:
        self.messages: list[bytes] = []
        self.speeds: list[int] = []
        self.settings: dict[int, int] = {}

    def __call__(self, fd: int, request: int, arg: Any = 0, mutate: bool = True) -> int:
        if request == SPI_IOC_MESSAGE_1:
            tx_buf, rx_buf, length, speed_hz, *_ = struct.unpack("=QQIIHBBBBBB", bytes(arg))
            assert rx_buf == 0 and tx_buf != 0
            self.messages.append(ctypes.string_at(tx_buf, length))
            self.speeds.append(speed_hz)
        elif request in (SPI_IOC_WR_MODE, SPI_IOC_WR_BITS_PER_WORD):
            self.settings[request] = struct.unpack("=B", bytes(arg))[0]
        elif request == SPI_IOC_WR_MAX_SPEED_HZ:
            self.settings[request] = struct.unpack("=I", bytes(arg))[0]
        return 0


def neopixel_spi_bytes(frame: Sequence[tuple[int, int, int]], reset: int = 64) -> bytes:
    out = bytearray(reset)
    for r, g, b in frame:
        for byte in (g, r, b):
            out += bytes(0b11110000 if byte >> bit & 1 else 0b11000000 for bit in range(7, -1, -1))
    return bytes(out + bytearray(reset))


def rainbow(n: int) -> tuple[tuple[int, int, int], ...]:
    return tuple(((i * 37) % 256, (i * 101 + 3) % 256, 255 - i % 256) for i in range(n))


@pytest.fixture
def spidev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SpidevRecorder:
    """``/dev/spidev0.0`` and spidev's bufsiz as files in tmp_path, and ioctl recorded (65536 unless changed)."""
    import fcntl

    from hardware.leds import spi as leds

    (tmp_path / "spidev0.0").touch()
    (tmp_path / "bufsiz").write_text("65536\n")
    monkeypatch.setattr(leds, "SPIDEV", str(tmp_path / "spidev0.0"))
    monkeypatch.setattr(leds, "SPIDEV_BUFSIZ", str(tmp_path / "bufsiz"))
    recorder = SpidevRecorder()
    monkeypatch.setattr(fcntl, "ioctl", recorder)
    return recorder


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("pixels", [232, 290])  # 8 and 10 sides with colour markers
def test_a_whole_spi_frame_is_one_message_byte_for_byte(spidev: SpidevRecorder, pixels: int) -> None:
    pytest.importorskip("neopixel_spi", reason="adafruit-circuitpython-neopixel-spi is not installed")
    fds = _open_fds()
    strip = NeoPixelSpiStrip(pixels)
    frame = rainbow(pixels)
    assert strip.show(frame)
    assert len(spidev.messages) == 1  # one SPI_IOC_MESSAGE(1): the pixels get the frame in one go
    assert len(spidev.messages[0]) == 24 * pixels + 128 > 4096
    assert spidev.messages[0] == neopixel_spi_bytes(frame)
    assert spidev.speeds == [6_400_000]
    assert spidev.settings == {SPI_IOC_WR_MODE: 0, SPI_IOC_WR_BITS_PER_WORD: 8, SPI_IOC_WR_MAX_SPEED_HZ: 6_400_000}
    assert not strip.show(frame)  # unchanged: nothing sent
    assert strip.show(frame[1:] + frame[:1])
    assert len(spidev.messages) == 2 and spidev.messages[1] == neopixel_spi_bytes(frame[1:] + frame[:1])
    strip.close()  # blanks the pixels, in one message too, and closes the device
    assert spidev.messages[2] == neopixel_spi_bytes([BLACK] * pixels)
    assert len(spidev.messages) == 3 and _open_fds() == fds


def test_spi_strip_refuses_a_frame_the_kernel_would_not_take_whole(spidev: SpidevRecorder, tmp_path: Path) -> None:
    """spidev's default bufsiz (4096) takes 165 pixels (3,968 + 128 bytes); 166 must be refused, not cut."""
    pytest.importorskip("neopixel_spi", reason="adafruit-circuitpython-neopixel-spi is not installed")
    (tmp_path / "bufsiz").write_text("4096\n")
    fds = _open_fds()
    NeoPixelSpiStrip(165).close()
    for pixels in (166, 232):
        with pytest.raises(ValueError, match=r"add spidev\.bufsiz=65536 to /boot/firmware/cmdline\.txt and reboot"):
            NeoPixelSpiStrip(pixels)
    assert _open_fds() == fds  # the device is not left open
    with pytest.raises(ValueError, match="5696-byte SPI frame") as refused:
        NeoPixelSpiStrip(232)
    assert str(refused.value) == (
        "232 pixels make a 5696-byte SPI frame, over the kernel's spidev.bufsiz of 4096: "
        "add spidev.bufsiz=65536 to /boot/firmware/cmdline.txt and reboot"
    )
    assert len(str(refused.value)) < 160  # one line, all of it shown by backends.py's ConfigError
    (tmp_path / "bufsiz").unlink()  # spidev says nothing: the kernel's default is assumed
    with pytest.raises(ValueError, match="over the kernel's spidev.bufsiz of 4096"):
        NeoPixelSpiStrip(232)
    assert [len(message) for message in spidev.messages] == [4088]  # only the 165 pixels' blanking, whole


def test_spi_strip_says_how_to_turn_spi_on(spidev: SpidevRecorder, tmp_path: Path) -> None:
    pytest.importorskip("neopixel_spi", reason="adafruit-circuitpython-neopixel-spi is not installed")
    (tmp_path / "spidev0.0").unlink()
    with pytest.raises(ValueError, match="spidev0.0 is missing: SPI is off; add dtparam=spi=on"):
        NeoPixelSpiStrip(4)


def test_blinka_pureio_path_cuts_a_frame_and_the_strip_makes_it_one_message(
    agnostic_board: Any, spidev: SpidevRecorder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blinka's busio.SPI on Linux -> generic_linux.SPI -> Adafruit_PureIO's SPI.writebytes, which
    sends a write in chunk_size (4096) pieces; NeoPixelSpiStrip raises chunk_size to the frame."""
    pytest.importorskip("neopixel_spi", reason="adafruit-circuitpython-neopixel-spi is not installed")
    import busio
    from adafruit_blinka.microcontroller.generic_linux.spi import SPI as LinuxSPI
    from Adafruit_PureIO import spi as pureio

    monkeypatch.setattr(pureio, "ioctl", spidev)  # PureIO holds its own `from fcntl import ioctl`
    device = pureio.SPI(str(tmp_path / "spidev0.0"))
    assert device.chunk_size == 4096
    device.writebytes(bytes(5696))  # a 232-pixel frame, as PureIO sends it by itself:
    assert [len(message) for message in spidev.messages] == [4096, 1600]  # two messages
    spidev.messages.clear()

    linux = LinuxSPI.__new__(LinuxSPI)  # what busio.SPI(board.SCLK, board.MOSI) builds on a Pi
    linux._spi = device
    bus = busio.SPI.__new__(busio.SPI)
    bus._locked, bus._spi = False, linux
    strip = NeoPixelSpiStrip(232, bus)
    assert device.chunk_size == 5696
    frame = rainbow(232)
    strip.show(frame)
    assert spidev.messages == [neopixel_spi_bytes(frame)]
    (tmp_path / "bufsiz").write_text("4096\n")
    with pytest.raises(ValueError, match="add spidev.bufsiz=65536"):
        NeoPixelSpiStrip(232, bus)

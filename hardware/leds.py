"""The pixels beside the holes: frames, a renderer for the tracker's guidance, a current cap.

    from hardware.layout import default_layout
    from hardware.leds import MemoryStrip, Renderer

    layout = default_layout(4)
    strip = MemoryStrip(layout.pixels)            # on a Pi: NeoPixelSpiStrip(layout.pixels)
    lights = Renderer(layout, brightness=0.5, max_amps=2.0)
    strip.show(lights.render({"T0:8": "selected", "T0:13": "destination"}, turn=0))
    strip.frame[layout.pixel("T0:13")]            # (0, 127, 0): green, at half brightness
    strip.show(lights.render({"T0:8": "selected", "T0:13": "destination"}, turn=0))  # same: not written

A frame is a tuple of ``(r, g, b)`` tuples, one per pixel of the chain, each 0..255.
``PixelStrip.show(frame)`` writes a frame only when it differs from the last one written;
``write(colours)`` always writes (it is what a backend implements).

Backends
--------
``NeoPixelSpiStrip`` (``backend = "neopixel-spi"``, the one to use) drives the pixels' data
line from the SPI MOSI pin, GPIO10, on every Pi incl. the 5: each NeoPixel bit is one SPI byte
at 6.4 MHz (adafruit-circuitpython-neopixel-spi's encoding), so a pixel is 24 SPI bytes and a
frame has 64 zero bytes (80 us of reset) either side. It needs only ``/dev/spidev0.0``
(``dtparam=spi=on``, group ``spi``), no root. A whole frame goes out as ONE
SPI message (``SpidevBus``): sent in pieces, the pixels latch the head before the tail comes.
The kernel's spidev refuses a message longer than its ``bufsiz`` (4096 bytes unless the
kernel command line says ``spidev.bufsiz=65536``), so a frame over ~165 pixels needs that,
and the strip refuses at set-up, naming the fix, rather than cut frames. On a Pi 3 / Zero 2 W
(``core_freq=250``) and a Pi 4 (``core_freq=500``, ``core_freq_min=500``) the SPI clock is
divided from the core clock, which must be held steady; the Pi 5's SPI runs off RP1's own
200 MHz clock.

``NeoPixelStrip`` (``backend = "neopixel"``) uses adafruit-circuitpython-neopixel through Blinka:

- Pi 4 and older: rpi_ws281x on GPIO18 (``"D18"``, PWM and DMA): it needs root and the
  onboard audio off (``dtparam=audio=off``), so the unprivileged ``pegs`` service cannot use it.
- Pi 5: adafruit-blinka-raspberry-pi5-neopixel, the RP1's PIO through ``/dev/pio0`` (a udev
  rule gives it to group ``gpio``), on any GPIO; no root.

``MemoryStrip`` keeps the last frame and a frame counter, for tests, the simulated board
and the web page's mirror of the LEDs.

Power
-----
The estimate follows Adafruit's NeoPixel Überguide ("Powering NeoPixels"): a pixel draws
up to 60 mA at full white, i.e. about 20 mA per fully lit colour channel, scaling linearly
with the channel value; and "about 1 milliamp per NeoPixel" for the driver logic even when
dark ("Sipping Power with NeoPixels": under 1 mA). So 224 pixels at full white would
draw 224 x 61 mA = 13.7 A. ``Renderer`` applies ``brightness`` first, then scales the whole
frame down so the estimate stays within ``max_amps``.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import math
import os
import struct
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from hardware.layout import Layout
from hardware.signals import PATTERNS, ROLE_COLOURS, ROLES, SEAT_COLOURS, TURN_LEVEL, Pattern
from referee.holes import COME_OUT, track

RGB = tuple[int, int, int]
Frame = tuple[RGB, ...]
BLACK: RGB = (0, 0, 0)

# -- power ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerModel:
    """Current drawn by WS2812-type pixels: linear in each channel's value, plus idle logic."""

    ma_per_channel: float = 20.0  # one colour channel at 255 (Überguide: 60 mA per white pixel)
    idle_ma: float = 1.0  # per pixel, even when dark

    def amps(self, frame: Sequence[RGB]) -> float:
        lit = sum(r + g + b for r, g, b in frame)
        return (len(frame) * self.idle_ma + lit * self.ma_per_channel / 255) / 1000


def limit_current(frame: Sequence[RGB], max_amps: float, model: PowerModel = PowerModel()) -> Frame:
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


# -- strips --------------------------------------------------------------------------------


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


class NeoPixelSpiStrip(PixelBufStrip):
    """NeoPixels on the SPI MOSI pin (GPIO10) through adafruit-circuitpython-neopixel-spi.

    ``spi`` defaults to a ``SpidevBus`` on ``/dev/spidev0.0``, which sends each frame as one SPI
    message; any busio.SPI-like bus also works (Blinka's on Linux is made to send one message
    too). ``frequency`` 6.4 MHz suits 800 kHz pixels. Refuses, with the fix, a frame the kernel's
    spidev would not take in one message.
    """

    def __init__(self, n: int, spi: Any = None, *, pixel_order: str = "GRB", frequency: int = 6_400_000) -> None:
        import neopixel_spi

        frame = spi_frame_bytes(n, bpp=len(pixel_order), frequency=frequency)
        own = spi is None
        self.bus: Any = SpidevBus() if spi is None else spi
        try:
            _fit_one_message(self.bus, frame, n)
            pixels = neopixel_spi.NeoPixel_SPI(
                self.bus, n, brightness=1.0, auto_write=False, pixel_order=pixel_order, frequency=frequency
            )
        except BaseException:
            if own:
                self.bus.close()
            raise
        self._own_bus = own
        super().__init__(pixels)

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self._own_bus:
                self.bus.close()


# -- SPI: one frame, one message ----------------------------------------------------------

SPIDEV = "/dev/spidev0.0"  # SPI0, CE0: its MOSI is GPIO10 on every Pi, the 5 included
SPIDEV_BUFSIZ = "/sys/module/spidev/parameters/bufsiz"  # the largest message spidev takes now
SPIDEV_DEFAULT_BUFSIZ = 4096  # drivers/spi/spidev.c: "static unsigned bufsiz = 4096;"
BUFSIZ_FIX = "spidev.bufsiz=65536"  # what deploy/install.sh puts on the kernel command line
DMA_ALIGN = 128  # spidev counts a transfer rounded up to ARCH_DMA_MINALIGN (128 on arm64, less on arm)

# <linux/spi/spidev.h>: struct spi_ioc_transfer is 32 bytes on 32- and 64-bit userspace alike.
SPI_TRANSFER = struct.Struct("=QQIIHBBBBBB")  # tx_buf rx_buf len speed_hz delay_usecs bits cs nbits.. pad


def _iow(number: int, size: int) -> int:
    """``_IOW('k', number, size)`` as <asm-generic/ioctl.h> builds it (arm and arm64 use it)."""
    return (1 << 30) | (size << 16) | (ord("k") << 8) | number


SPI_IOC_MESSAGE_1 = _iow(0, SPI_TRANSFER.size)  # one transfer: the frame is one message
SPI_IOC_WR_MODE = _iow(1, 1)
SPI_IOC_WR_BITS_PER_WORD = _iow(3, 1)
SPI_IOC_WR_MAX_SPEED_HZ = _iow(4, 4)


def spi_frame_bytes(pixels: int, *, bpp: int = 3, frequency: int = 6_400_000, reset_time: float = 80e-6) -> int:
    """Bytes of one frame as neopixel_spi sends it: a byte per bit, and the reset low either side."""
    return 8 * pixels * bpp + 2 * round(frequency * reset_time / 8)


def kernel_spi_bufsiz(path: str | None = None) -> int:
    """The largest SPI message spidev takes now (its ``bufsiz``; the kernel's 4096 if it says nothing)."""
    try:
        with open(path or SPIDEV_BUFSIZ, encoding="ascii") as file:
            return int(file.read().strip())
    except (OSError, ValueError):
        return SPIDEV_DEFAULT_BUFSIZ


def _kernel_counts(length: int) -> int:
    """A message's length as spidev checks it against bufsiz (rounded up for DMA alignment)."""
    return -(-length // DMA_ALIGN) * DMA_ALIGN


def _too_long(pixels: int, frame: int, bufsiz: int) -> ValueError:
    where = f"{pixels} pixels make a {frame}-byte SPI frame" if pixels else f"a {frame}-byte SPI message"
    return ValueError(
        f"{where}, over the kernel's spidev.bufsiz of {bufsiz}: "
        f"add {BUFSIZ_FIX} to /boot/firmware/cmdline.txt and reboot"
    )


def _fit_one_message(spi: Any, frame: int, pixels: int) -> None:
    """Make ``spi`` send a frame as one message, or refuse: a frame in pieces shows its tail late.

    A ``SpidevBus`` knows the kernel's limit. Blinka's busio.SPI on Linux writes through
    Adafruit_PureIO, which cuts a write into ``chunk_size`` pieces (4096, or $SPI_BUFSIZE): raised
    here to the frame, once the kernel is known to take it. Other buses are taken as they are.
    """
    bufsiz = getattr(spi, "max_message", None)
    pureio = _pureio_of(spi)
    if pureio is not None:
        bufsiz = kernel_spi_bufsiz()
    if isinstance(bufsiz, int) and _kernel_counts(frame) > bufsiz:
        raise _too_long(pixels, frame, bufsiz)
    if pureio is not None and pureio.chunk_size < frame:
        pureio.chunk_size = frame


def _pureio_of(spi: Any) -> Any:
    """The Adafruit_PureIO SPI under a Blinka busio.SPI on Linux (``busio.SPI._spi._spi``), or None."""
    inner = getattr(getattr(spi, "_spi", None), "_spi", None)
    if isinstance(getattr(inner, "chunk_size", None), int) and callable(getattr(inner, "writebytes", None)):
        return inner
    return None


class SpidevBus:
    """``/dev/spidevB.C`` as the bus neopixel_spi writes to: every write is ONE SPI message.

    It has the calls adafruit_bus_device's SPIDevice makes on a busio.SPI (``try_lock``,
    ``configure``, ``frequency``, ``write``, ``unlock``). A write is one ``SPI_IOC_MESSAGE(1)``
    ioctl, or an error naming the fix; never pieces. ``max_message`` is the kernel's bufsiz.
    """

    def __init__(self, path: str | None = None, *, bufsiz_path: str | None = None) -> None:
        self.path = path or SPIDEV
        self.max_message = kernel_spi_bufsiz(bufsiz_path)
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR)
        except FileNotFoundError:
            raise ValueError(
                f"{self.path} is missing: SPI is off; add dtparam=spi=on to /boot/firmware/config.txt and reboot"
            ) from None
        except PermissionError:
            raise ValueError(f"{self.path}: permission denied: the user needs the spi group") from None
        self._lock = threading.Lock()
        self.baudrate = 100_000
        self.bits = 8
        self._settings: tuple[int, int, int] | None = None
        self.messages = 0  # SPI messages sent

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def configure(self, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        """Mode, word size and speed, told to spidev only when they change (neopixel_spi asks every frame)."""
        settings = (baudrate, (polarity and 2) | (phase and 1), bits)  # SPI_CPOL = 2, SPI_CPHA = 1
        if settings != self._settings:
            fd = self._open_fd()
            fcntl.ioctl(fd, SPI_IOC_WR_MODE, struct.pack("=B", settings[1]))
            fcntl.ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, struct.pack("=B", bits))
            fcntl.ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, struct.pack("=I", baudrate))
            self._settings = settings
        self.baudrate, self.bits = baudrate, bits

    @property
    def frequency(self) -> int:
        return self.baudrate

    def write(self, buf: Any, start: int = 0, end: int | None = None) -> None:
        """Send ``buf[start:end]`` as one SPI message."""
        data = bytes(buf[start:end])
        if not data:
            return
        if _kernel_counts(len(data)) > self.max_message:
            raise _too_long(0, len(data), self.max_message)
        tx = ctypes.create_string_buffer(data, len(data))
        transfer = SPI_TRANSFER.pack(ctypes.addressof(tx), 0, len(data), self.baudrate, 0, self.bits, 0, 0, 0, 0, 0)
        try:
            fcntl.ioctl(self._open_fd(), SPI_IOC_MESSAGE_1, transfer)
        except OSError as error:
            if error.errno == errno.EMSGSIZE:
                raise _too_long(0, len(data), self.max_message) from None
            raise
        self.messages += 1

    def _open_fd(self) -> int:
        if self._fd is None:
            raise ValueError(f"{self.path} is closed")
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    deinit = close


# -- guidance -> frame --------------------------------------------------------------------


class Renderer:
    """Turns the tracker's guidance (hole -> role) and the seat to play into a frame.

    Roles: "selected", "destination", "bump", "wrong", "put-back", "hint", "lift", each with a
    colour (``ROLE_COLOURS``) and a rhythm (``PATTERNS``: a wrong peg blinks, a peg's way back
    pulses, a bot's peg to lift flashes; see hardware/signals.py), both overridable. ``render(guidance, turn, at)`` gives the frame
    ``at`` seconds after the guidance appeared (``at=None``: every light at its full level);
    ``animated(guidance)`` says whether frames change with time, so the caller knows to redraw.
    The seat to play glows dimly (``turn_level`` of its seat colour) on its come-out hole
    ``T<s>:8`` unless guidance lights that hole. ``brightness`` (0..1) scales everything; then
    the frame is scaled to stay within ``max_amps``.
    """

    def __init__(
        self,
        layout: Layout,
        *,
        brightness: float = 0.5,
        max_amps: float = 2.0,
        turn_level: float = TURN_LEVEL,
        colours: Mapping[str, RGB] | None = None,
        patterns: Mapping[str, Pattern] | None = None,
        seat_colours: Sequence[RGB] = SEAT_COLOURS,
        power: PowerModel = PowerModel(),
    ) -> None:
        self.layout = layout
        self.n = layout.pixels
        self.max_amps = max_amps
        self.turn_level = turn_level
        self.power = power
        unknown = [role for role in [*(colours or {}), *(patterns or {})] if role not in ROLES]
        if unknown:
            raise ValueError(f"unknown role {unknown[0]!r}: roles are {', '.join(ROLES)}")
        self.colours = {**ROLE_COLOURS, **(colours or {})}
        self.patterns = {**PATTERNS, **(patterns or {})}
        if not seat_colours:
            raise ValueError("seat_colours needs at least one colour")
        self.seat_colours = tuple(seat_colours)
        for colour in [*self.colours.values(), *self.seat_colours]:
            _check_colour(colour)
        self._blank: list[RGB] = [BLACK] * self.n
        self.brightness = brightness

    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"brightness runs 0..1, not {value!r}")
        self._brightness = value
        self._role = {role: _scale(colour, value) for role, colour in self.colours.items()}
        self._seat = tuple(_scale(colour, value * self.turn_level) for colour in self.seat_colours)

    def set_seat_colours(self, colours: Sequence[RGB]) -> None:
        """The seats' colours as the table chose them for this game."""
        for colour in colours:
            _check_colour(colour)
        self.seat_colours = tuple(colours)
        self.brightness = self._brightness

    def animated(self, guidance: Mapping[str, str] | None) -> bool:
        """Whether the frame for ``guidance`` changes with time (a role that blinks or pulses)."""
        return any(not self.patterns[role].steady for role in (guidance or {}).values() if role in self.patterns)

    def render(
        self,
        guidance: Mapping[str, str] | None = None,
        turn: int | None = None,
        at: float | None = None,
    ) -> Frame:
        pixels = self._blank.copy()
        pixel_of = self.layout.pixel_of
        if turn is not None:
            pixels[self.layout.pixel(track(turn, COME_OUT))] = self._seat[turn % len(self._seat)]
        for hole, role in (guidance or {}).items():
            index = pixel_of.get(hole)
            if index is None:
                self.layout.pixel(hole)  # raises, naming the hole
            colour = self._role.get(role)
            if colour is None:
                raise ValueError(f"hole {hole}: unknown role {role!r}: roles are {', '.join(ROLES)}")
            if at is not None and not self.patterns[role].steady:
                colour = _scale(colour, self.patterns[role].level(at))
            pixels[index] = colour  # type: ignore[index]
        return limit_current(pixels, self.max_amps, self.power)

    def amps(self, frame: Sequence[RGB]) -> float:
        """The estimated current of a frame (see ``PowerModel``)."""
        return self.power.amps(frame)


def _scale(colour: RGB, factor: float) -> RGB:
    return (
        math.floor(colour[0] * factor + 1e-9),
        math.floor(colour[1] * factor + 1e-9),
        math.floor(colour[2] * factor + 1e-9),
    )


def _check_colour(colour: Any) -> None:
    if not (
        isinstance(colour, tuple) and len(colour) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in colour)
    ):
        raise ValueError(f"a colour is (r, g, b) with each 0..255, not {colour!r}")

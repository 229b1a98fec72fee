"""NeoPixels on the SPI MOSI pin, GPIO10 (``backend = "neopixel-spi"``, the one to use): each
NeoPixel bit is one SPI byte, and a whole frame goes out as ONE SPI message (``SpidevBus``),
or the strip refuses at set-up, naming the fix (the package's docs say why)."""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import struct
import threading
from typing import Any

from hardware.leds.neopixel_pin import PixelBufStrip

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

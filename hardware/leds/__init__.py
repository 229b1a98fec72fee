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
One module each: ``spi``, ``neopixel_pin`` and ``memory`` (a ``PixelStrip`` from ``strip``);
``power`` is the current model and ``renderer`` the frames.

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

from hardware.leds.memory import MemoryStrip
from hardware.leds.neopixel_pin import NeoPixelStrip, PixelBufStrip
from hardware.leds.power import PowerModel, limit_current
from hardware.leds.renderer import Renderer
from hardware.leds.spi import DMA_ALIGN, NeoPixelSpiStrip, SpidevBus, kernel_spi_bufsiz, spi_frame_bytes
from hardware.leds.strip import BLACK, RGB, Frame, PixelStrip
from hardware.signals import ROLE_COLOURS

__all__ = [
    "BLACK",
    "DMA_ALIGN",
    "RGB",
    "ROLE_COLOURS",
    "Frame",
    "MemoryStrip",
    "NeoPixelSpiStrip",
    "NeoPixelStrip",
    "PixelBufStrip",
    "PixelStrip",
    "PowerModel",
    "Renderer",
    "SpidevBus",
    "kernel_spi_bufsiz",
    "limit_current",
    "spi_frame_bytes",
]

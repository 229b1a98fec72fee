"""The backends that come with pegs, and their config keys (see ``hardware.registry``).

Sensors: "simulated" (driven by code and the web page), "serial" (the sensor
microcontroller), "gpio" (sensors on Pi pins). LEDs: "memory" and "none" (no strip),
"neopixel" (rpi_ws281x or the Pi 5's PIO on a pin), "neopixel-spi" (GPIO10, SPI MOSI).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hardware.leds import MemoryStrip, NeoPixelSpiStrip, NeoPixelStrip
from hardware.registry import LEDS, SENSORS, Backend, Options, Setting, SettingError, Setup, flag, one_of, text
from hardware.sensors import GpioSensors, SerialSensors, SimulatedSensors


def hole_pins(where: str, value: object) -> dict[str, int]:
    if not isinstance(value, Mapping) or not all(isinstance(pin, int) for pin in value.values()):
        raise SettingError(f"{where} must map hole names to pin numbers")
    return dict(value)


PORT: Setting[str | None] = Setting("port", 'the sensor board\'s serial port, e.g. "/dev/pegs-board"', text, None)
VID_PID: Setting[str | None] = Setting("vid_pid", 'else the sensor board\'s USB id, e.g. "239a:80f4"', text, None)
PINS: Setting[dict[str, int]] = Setting("pins", 'the Pi pin of each hole, e.g. { "T0:0" = 17 }', hole_pins, {})
ACTIVE_LOW: Setting[bool] = Setting(
    "active_low", "a peg pulls the pin low (A3144 sensors, reed switches to ground)", flag, True
)
LED_PIN: Setting[str] = Setting("pin", 'the NeoPixels\' data pin, e.g. "D18"', text, "D18")
PIXEL_ORDER: Setting[str] = Setting(
    "pixel_order",
    'the NeoPixels\' colour order: "GRB" (most) or "RGB", ...',
    one_of("GRB", "RGB", "RBG", "GBR", "BRG", "BGR"),
    "GRB",
)
# through-hole NeoPixels are often RGB


def _gpio_sensors(setup: Setup) -> GpioSensors:
    pins: dict[str, int] = setup[PINS]
    return GpioSensors(pins, active_low=setup[ACTIVE_LOW])


def _serial_words(options: Options) -> str:
    return "serial" + (f" on {options[PORT]}" if options[PORT] else "")


def _pixel_words(name: str) -> Callable[[Options], str]:
    return lambda options: f"{name}, colour order {options[PIXEL_ORDER]}"


SENSORS.register(Backend("simulated", lambda setup: SimulatedSensors(setup.layout)))
SENSORS.register(
    Backend(
        "serial",
        lambda setup: SerialSensors.open(
            setup.layout, port=setup[PORT], vid_pid=setup[VID_PID], layout_file=setup.layout_file
        ),
        settings=(PORT, VID_PID),
        words=_serial_words,
    )
)
SENSORS.register(
    Backend(
        "gpio",
        _gpio_sensors,
        settings=(PINS, ACTIVE_LOW),
        needs=lambda options: None if options[PINS] else 'sensors.pins = { "T0:0" = 17, ... }',
        on_pi=True,
    )
)

LEDS.register(Backend("memory", lambda setup: MemoryStrip(setup.layout.pixels)))
LEDS.register(
    Backend(
        "neopixel",
        lambda setup: NeoPixelStrip(setup.layout.pixels, setup[LED_PIN], pixel_order=setup[PIXEL_ORDER]),
        settings=(LED_PIN, PIXEL_ORDER),
        words=_pixel_words("neopixel"),
        on_pi=True,
    )
)
LEDS.register(
    Backend(
        "neopixel-spi",
        lambda setup: NeoPixelSpiStrip(setup.layout.pixels, pixel_order=setup[PIXEL_ORDER]),
        settings=(PIXEL_ORDER,),
        words=_pixel_words("neopixel-spi"),
        on_pi=True,
    )
)
LEDS.register(Backend("none", lambda setup: MemoryStrip(setup.layout.pixels)))

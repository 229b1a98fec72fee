"""The hardware a configuration names: layout, sensors, LED strip, buttons and buzzer.

A part that cannot be opened here (a library missing, a machine that is not a Pi, SPI
off, a pin taken) is a ``ConfigError`` that names the config key, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from hardware.controls import Controls
from hardware.layout import Layout, default_layout
from hardware.leds import MemoryStrip, NeoPixelSpiStrip, NeoPixelStrip, PixelStrip
from hardware.sensors import GpioSensors, SensorBoard, SerialSensors, SimulatedSensors
from referee.table.config import Config, ConfigError


def layout_for(config: Config) -> Layout:
    sides = 4 if config.players == 2 else config.players
    layout = Layout.from_toml(config.layout) if config.layout else default_layout(sides, config.markers)
    if layout.sides != sides:
        raise ConfigError(f"the layout is for {layout.sides} sides, the game for {config.players} players")
    return layout


def sensors_for(config: Config, layout: Layout) -> SensorBoard:
    if config.sensors == "serial":
        return SerialSensors.open(layout, port=config.port, vid_pid=config.vid_pid, layout_file=config.layout)
    if config.sensors == "gpio":
        return _opening(f"sensors.backend = {config.sensors!r}",
                        lambda: GpioSensors(config.pins, active_low=config.active_low))  # fmt: skip
    return SimulatedSensors(layout)


def strip_for(config: Config, layout: Layout) -> PixelStrip:
    where = f"leds.backend = {config.leds!r}"
    if config.leds == "neopixel":
        return _opening(where, lambda: NeoPixelStrip(layout.pixels, config.led_pin, pixel_order=config.pixel_order))
    if config.leds == "neopixel-spi":
        return _opening(where, lambda: NeoPixelSpiStrip(layout.pixels, pixel_order=config.pixel_order))
    return MemoryStrip(layout.pixels)


def controls_for(config: Config) -> Controls | None:
    if all(pin is None for pin in (config.done_pin, config.undo_pin, config.buzzer_pin)):
        return None
    return _opening("controls", lambda: Controls(config.done_pin, config.undo_pin, config.buzzer_pin))


T = TypeVar("T")


def _opening(where: str, open_part: Callable[[], T]) -> T:
    try:
        return open_part()
    except (ImportError, AttributeError, OSError, RuntimeError, NotImplementedError, ValueError) as error:
        message = " ".join(str(error).split())[:160] or type(error).__name__
        raise ConfigError(f"{where}: cannot be opened on this machine ({message}); "
                          "on a machine that is not a Pi, use pegs serve --simulate") from None

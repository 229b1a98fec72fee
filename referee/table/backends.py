"""The hardware a configuration names: layout, sensors, LED strip, buttons and buzzer."""

from __future__ import annotations

from hardware.controls import Controls
from hardware.layout import Layout, default_layout
from hardware.leds import MemoryStrip, NeoPixelSpiStrip, NeoPixelStrip, PixelStrip
from hardware.sensors import GpioSensors, SensorBoard, SerialSensors, SimulatedSensors
from referee.table.config import Config, ConfigError


def layout_for(config: Config) -> Layout:
    sides = 4 if config.players == 2 else config.players
    layout = Layout.from_toml(config.layout) if config.layout else default_layout(sides)
    if layout.sides != sides:
        raise ConfigError(f"the layout is for {layout.sides} sides, the game for {config.players} players")
    return layout


def sensors_for(config: Config, layout: Layout) -> SensorBoard:
    if config.sensors == "serial":
        return SerialSensors.open(layout, port=config.port, vid_pid=config.vid_pid)
    if config.sensors == "gpio":
        return GpioSensors(config.pins, active_low=config.active_low)
    return SimulatedSensors(layout)


def strip_for(config: Config, layout: Layout) -> PixelStrip:
    if config.leds == "neopixel":
        return NeoPixelStrip(layout.pixels, config.led_pin)
    if config.leds == "neopixel-spi":
        return NeoPixelSpiStrip(layout.pixels)
    return MemoryStrip(layout.pixels)


def controls_for(config: Config) -> Controls | None:
    if all(pin is None for pin in (config.done_pin, config.undo_pin, config.buzzer_pin)):
        return None
    return Controls(config.done_pin, config.undo_pin, config.buzzer_pin)

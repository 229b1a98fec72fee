"""The hardware a configuration names: layout, sensors, LED strip, buttons and buzzer.

The sensors and the LEDs are the backends the config names, from ``hardware.registry``.
A part that cannot be opened here (a library missing, a machine that is not a Pi, SPI
off, a pin taken) is a ``ConfigError`` that names the config key, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from hardware.controls import Controls
from hardware.layout import Layout, default_layout
from hardware.leds import PixelStrip
from hardware.registry import LEDS, SENSORS, Options, Registry, SettingError, Setup
from hardware.sensors import SensorBoard
from referee.board import seating
from referee.settings.config import Config, ConfigError

T = TypeVar("T")
P = TypeVar("P")


def layout_for(config: Config) -> Layout:
    sides, _seats = seating(config.players)
    layout = Layout.from_toml(config.layout) if config.layout else default_layout(sides, config.markers)
    if layout.sides != sides:
        raise ConfigError(f"the layout is for {layout.sides} sides, the game for {config.players} players")
    return layout


def sensors_for(config: Config, layout: Layout) -> SensorBoard:
    """The sensors ``sensors.backend`` names (``hardware.registry``), built from its keys."""
    return _build(SENSORS, config.sensors, Setup(layout, Options(config.sensor_options), config.layout))


def strip_for(config: Config, layout: Layout) -> PixelStrip:
    """The LED strip ``leds.backend`` names (``hardware.registry``), built from its keys."""
    return _build(LEDS, config.leds, Setup(layout, Options(config.led_options), config.layout))


def _build(registry: Registry[P], name: str, setup: Setup) -> P:
    try:
        backend = registry.get(name)
    except SettingError as error:
        raise ConfigError(str(error)) from None
    if not backend.on_pi:
        return backend.build(setup)
    return _opening(f"{registry.section}.backend = {name!r}", lambda: backend.build(setup))


def controls_for(config: Config) -> Controls | None:
    if all(pin is None for pin in (config.done_pin, config.undo_pin, config.buzzer_pin)):
        return None
    return _opening("controls", lambda: Controls(config.done_pin, config.undo_pin, config.buzzer_pin))


def _opening(where: str, open_part: Callable[[], T]) -> T:
    try:
        return open_part()
    except (ImportError, AttributeError, OSError, RuntimeError, NotImplementedError, ValueError) as error:
        message = " ".join(str(error).split())[:160] or type(error).__name__
        raise ConfigError(
            f"{where}: cannot be opened on this machine ({message}); "
            "on a machine that is not a Pi, use pegs serve --simulate"
        ) from None

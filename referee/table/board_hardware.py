"""The board's parts at the table: its layout, its sensors, its LED strip and the renderer
that lights it. They change together: a simulated board takes the size of each game, so the
table and its collaborators hold this one object and read the parts from it, never a part
kept from before a new game.

    hardware = BoardHardware(layout, sensors, strip, config)
    hardware.fit(6)              # a simulated board: six sides now; a wooden one: ValueError
    hardware.sensed()            # the holes holding pegs, without the colour-marker holes
"""

from __future__ import annotations

from hardware.layout import Layout, default_layout
from hardware.leds import MemoryStrip, PixelStrip, Renderer
from hardware.sensors import SensorBoard, SimulatedSensors
from referee.settings.config import Config


class BoardHardware:
    """The board's layout, sensors, LED strip and renderer, held as one so they change together."""

    def __init__(self, layout: Layout, sensors: SensorBoard, strip: PixelStrip, config: Config) -> None:
        self.config = config
        self.layout = layout
        self.sensors = sensors
        self.strip = strip
        self.renderer = Renderer(layout, brightness=config.brightness, max_amps=config.max_amps)

    @property
    def simulated(self) -> bool:
        return isinstance(self.sensors, SimulatedSensors)

    def fit(self, sides: int) -> None:
        """A simulated board takes the size of the game; a wooden one must have it."""
        if sides == self.layout.sides:
            return
        if not self.simulated:
            raise ValueError(f"this board has {self.layout.sides} sides: the game needs {sides}")
        self.layout = default_layout(sides)
        self.sensors = SimulatedSensors(self.layout)
        self.strip = MemoryStrip(self.layout.pixels)
        self.renderer = Renderer(self.layout, brightness=self.config.brightness, max_amps=self.config.max_amps)

    def sensed(self) -> list[str]:
        """The holes the sensors find filled, but the colour-marker holes (the rules ignore them)."""
        return [hole for hole in self.sensors.snapshot() if not hole.startswith("C")]

    def on_board(self, lights: dict[str, str]) -> dict[str, str]:
        """Of ``lights``, the holes this board has LEDs for."""
        return {hole: role for hole, role in lights.items() if hole in self.layout.pixel_of}

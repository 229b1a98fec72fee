"""The Pi side of the wires: board layout, sensors, LEDs and buttons.

- ``layout``: hole <-> sensor channel <-> pixel index, from a TOML file.
- ``sensors``: ``SensorBoard`` backends: simulated, gpiozero pins, the serial link.
- ``leds``: ``PixelStrip`` backends (NeoPixel, NeoPixel over SPI, in memory), the guidance
  renderer and the current cap.
- ``controls``: the Done and Undo buttons and the buzzer.
- ``wiring``: ``selftest`` and ``calibrate``.
- ``bench``: ``render_frame``, the LED side of the latency budget.

Hardware libraries are imported only by the backends that need them, so the simulated
board runs anywhere.
"""

"""Which holes hold a peg: one interface, three backends (simulated, Pi pins, serial link).

    from hardware.layout import default_layout
    from hardware.sensors import SimulatedSensors

    board = SimulatedSensors(default_layout(4), occupied=["S0:1", "S0:2"])
    board.subscribe(print)           # Change(hole='S0:1', occupied=False, at=...)
    board.lift("S0:1")
    board.place("T0:8")
    board.snapshot()                 # frozenset({'S0:2', 'T0:8'})

Every backend is a ``SensorBoard``: ``snapshot()`` gives the occupied holes now,
``subscribe(callback)`` delivers each ``Change`` as it happens (returns a function that
unsubscribes), ``health()`` is a JSON-able dict for the web page and logs, ``close()``
releases the hardware. A sensor sees occupancy only, never colours.

- ``SimulatedSensors``: driven by code (tests, demos, the web page's simulated board).
- ``GpioSensors``: gpiozero input devices on Pi pins, for a one-side prototype.
- ``SerialSensors``: the sensor microcontroller through ``firmware_bridge.link``.

The config names a backend, and sets its keys, through ``hardware.registry``: the three
above are registered in ``hardware.builtin_backends``.

Callbacks run on the backend's thread (gpiozero's or the serial reader's) in the order
the changes happened; keep them short. An exception in one callback is logged and counted
in ``health()["callback_errors"]``; the others still get the change.

The package holds one module per backend (``simulated``, ``gpio``, ``serial``), what they
share (``board``: ``SensorBoard`` and ``Change``) and the device checks (``channels``); the
names below are the ones the rest of the program imports.
"""

from hardware.sensors.board import Callback, Change, SensorBoard
from hardware.sensors.channels import boards_reading, channel_mismatch, channels_needed, channels_read, firmware_fix
from hardware.sensors.gpio import GpioSensors
from hardware.sensors.serial import Link, LinkFactory, SerialSensors, parse_vid_pid
from hardware.sensors.simulated import SimulatedSensors

__all__ = [
    "Callback",
    "Change",
    "GpioSensors",
    "Link",
    "LinkFactory",
    "SensorBoard",
    "SerialSensors",
    "SimulatedSensors",
    "boards_reading",
    "channel_mismatch",
    "channels_needed",
    "channels_read",
    "firmware_fix",
    "parse_vid_pid",
]

"""Runs once at power-up, before USB is set up: ask for a second USB serial port.

The console port keeps the REPL and error messages; the data port carries only
frames (see PROTOCOL.md), so nothing CircuitPython prints can corrupt them.
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)

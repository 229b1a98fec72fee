"""Pegs and Jokers sensor scanner: an RP2040 running CircuitPython 9.

``pegs firmware --sides N --out DIR`` writes boot.py, this code.py (with KEY_COUNTS set for
that board) and ../protocol.py (the very file the Pi uses) for the root of the CIRCUITPY
drive. The sensors sit on 74HC165 chains that keypad.ShiftRegisterKeys
scans (and debounces) in the background; this loop turns its events into frames on
the USB data port (usb_cdc.data) and answers the Pi's requests. See PROTOCOL.md.
"""

import time

import board
import keypad
import protocol
import supervisor
import usb_cdc

# ---- configuration: match the wiring ----------------------------------------------------
CLOCK = board.GP2  # CLK (pin 2) of every 74HC165
LATCH = board.GP3  # SH/LD (pin 1) of every 74HC165
DATA = (board.GP4,)  # QH (pin 9) of chip 1, the chip next to the Pico: key 0 is its input H
KEY_COUNTS = (120,)  # 15 chips of 8: a 4-sided board with colour holes (pegs firmware sets this)
# Report raw pin levels (1 = high). Which level means "a peg is here" is the board's
# layout on the Pi (hardware/layout.py, active_low), so this file never changes per board.
VALUE_WHEN_PRESSED = True
SCAN_INTERVAL = 0.010  # seconds between scans; keypad debounces over it
FIRMWARE_VERSION = "1.0.0"
HEARTBEAT_MS = int(protocol.HEARTBEAT_S * 1000)
SNAPSHOT_MS = int(protocol.SNAPSHOT_S * 1000)
# -------------------------------------------------------------------------------------------

CHANNELS = sum(KEY_COUNTS)
TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms() wraps here


def ticks_since(then):
    return (supervisor.ticks_ms() - then) % TICKS_PERIOD


class Scanner:
    """Levels as the scanner reported them, and the frames that tell the Pi."""

    def __init__(self, port, keys):
        self.port = port
        self.keys = keys
        self.levels = bytearray(CHANNELS)  # 1: the pin reads high
        self.seq = 0
        self.reader = protocol.FrameReader()
        self.was_connected = False
        self.last_beat = self.last_snapshot = supervisor.ticks_ms()

    def send(self, frame):
        # Numbered even when unsent, so a host that missed it sees a gap.
        self.seq = protocol.next_seq(self.seq)
        if self.port.connected:  # DTR: a host has the port open
            self.port.write(protocol.encode(frame))  # write_timeout: a stalled host cannot stall us

    def send_hello(self):
        self.send(protocol.hello(self.seq, CHANNELS, FIRMWARE_VERSION))

    def send_snapshot(self):
        self.send(protocol.snapshot(self.seq, self.levels))
        self.last_snapshot = supervisor.ticks_ms()

    def drain(self, report=True):
        event = self.keys.events.get()
        while event is not None:
            level = 1 if event.pressed else 0
            if self.levels[event.key_number] != level:
                self.levels[event.key_number] = level
                if report:
                    self.send(protocol.change(self.seq, event.key_number, level, event.timestamp))
            event = self.keys.events.get()

    def resync(self):
        """Relearn every level: after reset() the scanner reports each active key again."""
        self.keys.events.clear()
        self.keys.reset()
        for channel in range(CHANNELS):
            self.levels[channel] = 0
        time.sleep(4 * SCAN_INTERVAL)
        self.drain(report=False)
        self.send_snapshot()

    def serve_requests(self):
        waiting = self.port.in_waiting
        if not waiting:
            return
        errors = self.reader.errors
        for frame in self.reader.feed(self.port.read(waiting)):
            if frame.kind == protocol.REQUEST and frame.what == protocol.HELLO:
                self.send_hello()
            elif frame.kind == protocol.REQUEST:
                self.send_snapshot()
        if self.reader.errors != errors:
            self.send(protocol.error(self.seq, "badframe"))

    def step(self):
        self.drain()
        if self.keys.events.overflowed:  # events were lost: say so, then start from the truth
            self.send(protocol.error(self.seq, "overflow"))
            self.resync()
        connected = self.port.connected
        if connected and not self.was_connected:  # someone just opened the port
            self.send_hello()
            self.send_snapshot()
        self.was_connected = connected
        self.serve_requests()
        if ticks_since(self.last_beat) >= HEARTBEAT_MS:
            self.last_beat = supervisor.ticks_ms()
            self.send(protocol.heartbeat(self.seq, self.last_beat))
        if ticks_since(self.last_snapshot) >= SNAPSHOT_MS:
            self.send_snapshot()


def main():
    port = usb_cdc.data
    if port is None:
        raise RuntimeError("no usb_cdc.data: boot.py must call usb_cdc.enable(console=True, data=True)")
    port.timeout = 0  # reads never block
    port.write_timeout = 0.1
    keys = keypad.ShiftRegisterKeys(
        clock=CLOCK,
        data=DATA,
        latch=LATCH,
        value_to_latch=True,  # the 74HC165 latches when SH/LD goes high
        key_count=KEY_COUNTS,
        value_when_pressed=VALUE_WHEN_PRESSED,
        interval=SCAN_INTERVAL,
        max_events=CHANNELS + 16,  # room for a whole board's replay after reset()
    )
    scanner = Scanner(port, keys)
    scanner.send_hello()
    scanner.resync()
    while True:
        scanner.step()
        time.sleep(0.001)


try:
    main()
except Exception as exc:  # noqa: BLE001 - show it on the console, then start over
    print("scanner stopped:", repr(exc))
    time.sleep(5)
    supervisor.reload()

"""``pegs watch``, ``pegs selftest`` and ``pegs calibrate``: checking a board's wiring.

    pegs watch --port /dev/pegs-board --sides 4         # every sensor change, live
    pegs selftest --port /dev/pegs-board --leds neopixel-spi
    pegs calibrate --vid-pid 239a:80f4 --sides 6 --out layout.toml

The daemon holds the sensor board's port for itself (opened exclusively), so these tools
say to stop the service first rather than waiting for a board that never answers.
"""

from __future__ import annotations

import argparse
import errno
import time
from pathlib import Path
from typing import Any

from hardware.layout import Layout, LayoutError, default_layout
from hardware.leds import NeoPixelSpiStrip, NeoPixelStrip, PixelStrip
from hardware.sensors import channel_mismatch


class WiringError(RuntimeError):
    """The board could not be reached or checked; exit status 2, one line."""


def add_commands(commands: Any) -> None:
    watch = commands.add_parser("watch", help="show every sensor change live, for wiring checks")
    _link_options(watch)
    watch.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    watch.set_defaults(func=watch_command)

    selftest = commands.add_parser("selftest", help="walk the LEDs, then ask for a peg in every hole")
    _link_options(selftest)
    selftest.add_argument("--leds", choices=("none", "neopixel", "neopixel-spi"), default="none")
    selftest.add_argument("--led-pin", default="D10",
                          help="data pin for --leds neopixel (needs root on a Pi 4: rpi_ws281x; any pin on a Pi 5)")
    selftest.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each hole")
    selftest.set_defaults(func=selftest_command)

    calibrate = commands.add_parser("calibrate", help="learn the sensor channels hole by hole; writes a layout")
    _link_options(calibrate)
    calibrate.add_argument("--out", default="layout.toml", help="where to write the layout (TOML)")
    calibrate.add_argument("--colour-markers", action="store_true", help="the board has a colour hole per side")
    calibrate.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for each hole")
    calibrate.set_defaults(func=calibrate_command)


def _link_options(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="serial port of the sensor board, e.g. /dev/ttyACM1 or /dev/pegs-board")
    where.add_argument("--vid-pid", help="USB id of the sensor board, e.g. 239a:80f4")
    parser.add_argument("--sides", type=int, default=4, choices=(4, 6, 8, 10))
    parser.add_argument("--layout", help="layout TOML (default: the standard layout for --sides)")


def _layout(args: argparse.Namespace) -> Layout:
    try:
        return Layout.from_toml(args.layout) if args.layout else default_layout(args.sides)
    except (OSError, LayoutError) as error:
        raise WiringError(f"pegs: layout: {error}") from None


def _vid_pid(args: argparse.Namespace) -> tuple[int, int] | None:
    if not args.vid_pid:
        return None
    try:
        vid, pid = (int(part, 16) for part in args.vid_pid.split(":"))
    except ValueError:
        raise WiringError(f"pegs: --vid-pid must look like 239a:80f4, not {args.vid_pid!r}") from None
    return vid, pid


def _link(args: argparse.Namespace, layout: Layout | None = None, **callbacks: Any) -> Any:
    from firmware_bridge.link import SerialLink

    vid_pid = _vid_pid(args)
    _check_free(args.port, vid_pid)
    link = SerialLink(args.port, vid_pid=vid_pid, **callbacks)
    link.start()
    if not link.wait_connected(5.0):
        link.stop()
        raise WiringError(f"pegs: no sensor board answered on {args.port or args.vid_pid} within 5 s")
    if layout is not None:
        _check_channels(link.health.channels, layout, link.stop)
    return link


def _check_free(port: str | None, vid_pid: tuple[int, int] | None) -> None:
    """Say so when another program (the daemon, as a rule) holds the port."""
    import serial

    from firmware_bridge.link import find_port

    path = port if port is not None else find_port(vid_pid or (0, 0))
    if path is None:
        return  # not there (yet): the link waits for it and says so after 5 s
    try:
        serial.Serial(path, exclusive=True).close()
    except (serial.SerialException, OSError) as error:
        if "lock" in str(error).lower() or getattr(error, "errno", None) == errno.EBUSY:
            raise WiringError(
                f"pegs: {path} is in use by another program, most likely the referee service: "
                "stop it with `sudo systemctl stop pegs`, run this again, then `sudo systemctl start pegs`"
            ) from None


def _check_channels(channels: int | None, layout: Layout, stop: Any) -> None:
    problem = channel_mismatch(channels, layout)
    if problem is not None:
        stop()
        raise WiringError(f"pegs: {problem}")


def watch_command(args: argparse.Namespace) -> int:
    layout = _layout(args)
    started = time.monotonic()

    def show(channel: int, level: bool, at: float) -> None:
        try:
            hole, occupied = layout.hole(channel), layout.occupied(level)
            what = f"{hole:>6} {'peg' if occupied else 'empty'}"
        except LayoutError:
            what = f"{'?':>6} (channel not in the layout)"
        print(f"{at - started:9.3f}  channel {channel:4d}  level {int(level)}  {what}", flush=True)

    link = _link(args, layout, on_change=show)
    try:
        health = link.health
        print(f"connected to {health.port}: firmware {health.firmware_version}, {health.channels} channels", flush=True)
        occupied = [layout.hole(c) for c, level in enumerate(link.levels) if c in layout.holes_by_channel and layout.occupied(level)]
        print(f"occupied now: {' '.join(occupied) or 'nothing'}", flush=True)
        deadline = None if args.seconds is None else started + args.seconds
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
    finally:
        health = link.health
        link.stop()
        print(f"frames {health.frames}, errors {health.errors}, resyncs {health.resyncs}, reconnects {health.reconnects}")
    return 0


def selftest_command(args: argparse.Namespace) -> int:
    from hardware.sensors import SerialSensors
    from hardware.wiring import selftest

    layout = _layout(args)
    _check_free(args.port, _vid_pid(args))
    sensors = SerialSensors.open(layout, port=args.port, vid_pid=args.vid_pid)
    strip = _strip(args.leds, args.led_pin, layout)
    try:
        if not sensors.wait_connected(5.0):
            raise WiringError(f"pegs: no sensor board answered on {args.port or args.vid_pid} within 5 s")
        _check_channels(sensors.link.health.channels, layout, lambda: None)
        report = selftest(layout, sensors, strip, lambda step: print(step, flush=True), timeout=args.timeout)
    finally:
        sensors.close()
        if strip is not None:
            strip.close()
    print(report)
    return 0 if report.ok else 1


def calibrate_command(args: argparse.Namespace) -> int:
    from hardware.wiring import CalibrationError, calibrate

    link = _link(args)
    try:
        layout = calibrate(link, args.sides, lambda step: print(step, flush=True),
                           colour_markers=args.colour_markers, timeout=args.timeout)  # fmt: skip
    except CalibrationError as error:
        raise WiringError(f"pegs: calibration stopped: {error}") from None
    finally:
        link.stop()
    Path(args.out).write_text(layout.to_toml(), encoding="utf-8")
    print(f"wrote {args.out}: {len(layout.hole_names)} holes, active_low = {str(layout.active_low).lower()}")
    return 0


def _strip(kind: str, pin: str, layout: Layout) -> PixelStrip | None:
    if kind == "none":
        return None
    try:
        return NeoPixelStrip(layout.pixels, pin) if kind == "neopixel" else NeoPixelSpiStrip(layout.pixels)
    except (ImportError, NotImplementedError, RuntimeError, ValueError, OSError, AttributeError) as error:
        raise WiringError(f"pegs: cannot drive {kind} LEDs here: {error}") from None


"""``pegs watch``, ``pegs selftest`` and ``pegs calibrate``: checking a board's wiring.

    pegs watch --port /dev/pegs-board --sides 4         # every sensor change, live
    pegs selftest --port /dev/pegs-board --leds neopixel-spi     # colour order, LEDs, every hole
    pegs selftest --port /dev/pegs-board --magnets      # each peg in T0:0: its magnet's way up, its strength
    pegs selftest --port /dev/pegs-board --magnets holes --holes T0:0,T0:1   # one good peg, hole by hole
    pegs calibrate --vid-pid 239a:80f4 --sides 6 --out layout.toml

``selftest`` with ``--leds`` first asks what colour the LED beside the first hole shows (the
answers come from stdin: r, g, b or nothing) and says the ``pixel_order`` the config needs.

The daemon holds the sensor board's port for itself (opened exclusively), so these tools
say to stop the service first rather than waiting for a board that never answers.
"""

from __future__ import annotations

import argparse
import errno
import functools
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hardware.bench_checks import (
    PIXEL_ORDERS,
    Colour,
    MagnetReport,
    check_colour_order,
    check_holes,
    check_pegs,
    parse_colour,
)
from hardware.layout import Layout
from hardware.leds import BLACK, NeoPixelSpiStrip, NeoPixelStrip, PixelStrip
from hardware.sensors import SensorBoard, channel_mismatch
from hardware.wiring import LIT, Step
from referee.cli.board import Board, add_board_options, board_from, board_words
from referee.cli.watch import add_side_option

MAGNETS_HELP = (
    "check magnets instead. 'pegs' (the default): put each peg in turn in --test-hole and press Enter (q and "
    "Enter when done); each is watched for --window seconds: NOT SEEN = its magnet is upside down (an A3144 "
    "needs the south pole down) or too weak; flickers, late or lost = too weak. 'holes': carry one good peg "
    "through every hole (or --holes), each lit in turn: flags the holes that flicker or lose it"
)


class WiringError(RuntimeError):
    """The board could not be reached or checked; exit status 2, one line."""


def add_commands(commands: Any) -> None:
    watch = commands.add_parser("watch", help="show every sensor change live, for wiring checks")
    _link_options(watch)
    watch.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    add_side_option(watch)
    watch.set_defaults(func=watch_command)  # Ctrl-C is how a watch ends: it prints the link's counts

    selftest = commands.add_parser(
        "selftest",
        help="ask the LEDs' colour order, walk the LEDs, then ask for a peg "
        "in every hole; --magnets checks the pegs' magnets",
    )
    _link_options(selftest)
    selftest.add_argument(
        "--leds",
        choices=("none", "neopixel", "neopixel-spi"),
        default="none",
        help="drive the LEDs too: the first step asks what colour the first LED shows "
        "(answer r, g, b or nothing) and says the pixel_order the config needs",
    )
    selftest.add_argument(
        "--led-pin",
        default="D10",
        help="data pin for --leds neopixel (needs root on a Pi 4: rpi_ws281x; any pin on a Pi 5)",
    )
    selftest.add_argument(
        "--pixel-order",
        choices=PIXEL_ORDERS,
        default="GRB",
        help="the colour order to drive the LEDs in (default GRB); the first question checks it",
    )
    selftest.add_argument("--timeout", type=_seconds, default=30.0, help="seconds to wait for each hole")
    selftest.add_argument(
        "--led-delay", type=_seconds_or_zero, default=0.1, help="seconds each LED is lit in the walk (default 0.1)"
    )
    selftest.add_argument("--holes", help="only these holes, comma-separated (e.g. T0:0,T0:1,H0:1)")
    selftest.add_argument("--magnets", nargs="?", const="pegs", choices=("pegs", "holes"), help=MAGNETS_HELP)
    selftest.add_argument("--test-hole", default="T0:0", help="a hole known to work, for --magnets pegs (T0:0)")
    selftest.add_argument(
        "--window", type=_seconds, default=1.5, help="seconds each resting peg is watched for --magnets (default 1.5)"
    )
    selftest.set_defaults(func=_stoppable(selftest_command))

    calibrate = commands.add_parser("calibrate", help="learn the sensor channels hole by hole; writes a layout")
    _link_options(calibrate)
    calibrate.add_argument("--out", default="layout.toml", help="where to write the layout (TOML)")
    calibrate.add_argument("--colour-markers", dest="markers", action="store_true", help=argparse.SUPPRESS)
    calibrate.add_argument("--timeout", type=_seconds, default=60.0, help="seconds to wait for each hole")
    calibrate.set_defaults(func=_stoppable(calibrate_command))


def _stoppable(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Ctrl-C stops a wiring tool with one line, never a traceback; exit 130, as a shell counts it."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except KeyboardInterrupt:
            print(f"\npegs: {args.command} stopped (Ctrl-C)", file=sys.stderr)
            return 130

    return run


def _link_options(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="serial port of the sensor board, e.g. /dev/ttyACM1 or /dev/pegs-board")
    where.add_argument("--vid-pid", help="USB id of the sensor board, e.g. 239a:80f4")
    add_board_options(parser, layout_help="layout TOML (default: the standard layout for --sides)")


def _seconds(text: str) -> float:
    """A positive number of seconds, for argparse: anything else is one line and exit 2."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"needs a number of seconds above 0, not {text!r}")
    return value


def _seconds_or_zero(text: str) -> float:
    """Zero (no wait) or a positive number of seconds, for argparse."""
    try:
        return 0.0 if float(text) == 0 else _seconds(text)
    except (ValueError, argparse.ArgumentTypeError):
        raise argparse.ArgumentTypeError(f"needs 0 or a number of seconds above 0, not {text!r}") from None


def _board(args: argparse.Namespace) -> Board:
    """The board the options name, else the config's; a board read from the config is said first."""
    board = board_from(args, WiringError)
    if board.config is not None:
        print(board_words(board), flush=True)
    return board


def _vid_pid(args: argparse.Namespace) -> tuple[int, int] | None:
    if not args.vid_pid:
        return None
    try:
        vid, pid = (int(part, 16) for part in args.vid_pid.split(":"))
    except ValueError:
        raise WiringError(f"pegs: --vid-pid must look like 239a:80f4, not {args.vid_pid!r}") from None
    return vid, pid


def _link(args: argparse.Namespace, board: Board | None = None, **callbacks: Any) -> Any:
    from firmware_bridge.link import SerialLink

    vid_pid = _vid_pid(args)
    _check_free(args.port, vid_pid)
    link = SerialLink(args.port, vid_pid=vid_pid, **callbacks)
    link.start()
    if not link.wait_connected(5.0):
        link.stop()
        raise WiringError(f"pegs: no sensor board answered on {args.port or args.vid_pid} within 5 s")
    if board is not None:
        _check_channels(link.health.channels, board, link.stop)
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


def _check_channels(channels: int | None, board: Board, stop: Any) -> None:
    problem = _mismatch(channels, board)
    if problem is not None:
        stop()
        raise WiringError(f"pegs: {problem}")


def _mismatch(channels: int | None, board: Board) -> str | None:
    """A board from the command's options is fixed with an option; one from the config, in the config."""
    return channel_mismatch(channels, board.layout, board.layout_file, by_option=board.config is None)


def watch_command(args: argparse.Namespace) -> int:
    from referee.cli.watch import namer, warn, watch

    board = _board(args)
    name, module = namer(board.layout, args.side, WiringError)
    started = time.monotonic()

    def show(channel: int, level: bool, at: float) -> None:
        print(f"{at - started:9.3f}  channel {channel:4d}  level {int(level)}  {name(channel, level)}", flush=True)

    if module is not None:
        print(module, flush=True)
    link = _link(args, on_change=show)  # a board that is not the layout's is watched all the same: with a warning
    warn(_mismatch(link.health.channels, board))
    watch(link, name, args.seconds, started)
    return 0


def selftest_command(args: argparse.Namespace) -> int:
    board = _board(args)
    layout = board.layout
    holes = _holes(args.holes, layout, "--holes") if args.holes else None
    if args.magnets == "pegs":
        _holes(args.test_hole, layout, "--test-hole")
    sensors = _sensors(args, board)
    strip: PixelStrip | None = None
    try:
        strip = _strip(args.leds, args.led_pin, layout, args.pixel_order)
        if args.magnets:
            return _magnets(args, layout, sensors, strip, holes)
        return _selftest(args, layout, sensors, strip, holes)
    finally:
        sensors.close()
        if strip is not None:
            strip.close()


def _sensors(args: argparse.Namespace, board: Board) -> SensorBoard:
    """The sensor board through a link whose channels were checked first: a board that is not the
    layout's is refused in one line, before SerialSensors would log the same fault."""
    from hardware.sensors import SerialSensors

    built: list[SerialSensors] = []

    def on_change(channel: int, level: bool, at: float) -> None:
        if built:
            built[0].on_change(channel, level, at)

    def on_snapshot(levels: tuple[bool, ...], at: float) -> None:
        if built:
            built[0].on_snapshot(levels, at)

    link = _link(args, board, on_change=on_change, on_snapshot=on_snapshot)
    built.append(SerialSensors(board.layout, link))  # takes the link's levels as they are now
    return built[0]


def _selftest(
    args: argparse.Namespace,
    layout: Layout,
    sensors: SensorBoard,
    strip: PixelStrip | None,
    holes: Sequence[str] | None,
) -> int:
    """The colour question (with LEDs), the LED walk, then every hole: exit 1 if anything needs a fix."""
    from hardware.wiring import selftest

    colours = None
    if strip is not None:
        colours = check_colour_order(layout, strip, _ask_colour, args.pixel_order)
        print(colours, flush=True)
    report = selftest(layout, sensors, strip, _say, timeout=args.timeout, led_delay=args.led_delay, holes=holes)
    if colours is not None and not colours.ok:
        print(colours)  # again at the end, where the builder looks for what to fix
    print(report)
    return 0 if report.ok and (colours is None or colours.ok) else 1


def _magnets(
    args: argparse.Namespace,
    layout: Layout,
    sensors: SensorBoard,
    strip: PixelStrip | None,
    holes: Sequence[str] | None,
) -> int:
    """Issue 23, item 7: each peg in one hole that works, or one good peg through the holes."""
    report: MagnetReport
    if args.magnets == "pegs":
        if strip is not None:
            strip.show(tuple(LIT if pixel == layout.pixel(args.test_hole) else BLACK for pixel in range(strip.n)))
        print(
            f"Testing magnets in {args.test_hole}: one peg at a time, taking each out before the next; "
            f"each is watched for {args.window:g} s after Enter",
            flush=True,
        )
        report = check_pegs(sensors, args.test_hole, _peg_in, window=args.window, on_result=_say)
    else:
        print(
            f"Testing holes with one good peg: move it when the next hole is named ({args.window:g} s each)", flush=True
        )
        report = check_holes(
            layout, sensors, _say, holes, window=args.window, timeout=args.timeout, strip=strip, on_result=_say
        )
    print(report)
    return 0 if report.ok else 1


def _say(step: object) -> None:
    print(step, flush=True)


def _peg_in(step: Step) -> bool:
    """Enter: the peg is in; q (or the end of the input): no pegs left."""
    print(f"{step} (q and Enter when no pegs are left)", flush=True)
    line = sys.stdin.readline()
    if not line:
        print("(the input ended: no more pegs)", flush=True)
    return bool(line) and line.strip().lower() not in ("q", "quit", "done", "stop")


def _ask_colour(step: Step) -> Colour:
    """A colour from stdin: a wrong word is asked again, twice; the end of the input stops the test."""
    print(step, flush=True)
    for _ in range(3):
        line = sys.stdin.readline()
        if not line:
            raise WiringError(
                "pegs: selftest stopped: no answer to the colour question (the input ended); answer r, g, b or nothing"
            )
        colour = parse_colour(line)
        if colour is not None:
            return colour
        print(f"answer r, g, b or nothing (the colour that LED shows), not {line.strip()!r}", flush=True)
    raise WiringError("pegs: selftest stopped: three answers that were not r, g, b or nothing")


def _holes(text: str, layout: Layout, option: str) -> list[str]:
    """Comma-separated hole names, each checked against the layout."""
    holes = [name.strip() for name in text.split(",") if name.strip()]
    for hole in holes or [text]:
        if hole not in layout.hole_names:
            raise WiringError(
                f"pegs: {option}: {hole!r} is not a hole of this board (its holes are named like "
                f"{', '.join(layout.hole_names[:3])}, ...)"
            )
    return holes


def calibrate_command(args: argparse.Namespace) -> int:
    from hardware.wiring import CalibrationError, calibrate

    board = _board(args)
    link = _link(args)
    try:
        layout = calibrate(
            link, board.layout.sides, _say, colour_markers=bool(board.layout.colour_markers), timeout=args.timeout
        )
    except CalibrationError as error:
        raise WiringError(f"pegs: calibration stopped: {error}") from None
    finally:
        link.stop()
    Path(args.out).write_text(layout.to_toml(), encoding="utf-8")
    print(f"wrote {args.out}: {len(layout.hole_names)} holes, active_low = {str(layout.active_low).lower()}")
    return 0


def _strip(kind: str, pin: str, layout: Layout, order: str = "GRB") -> PixelStrip | None:
    if kind == "none":
        return None
    try:
        if kind == "neopixel":
            return NeoPixelStrip(layout.pixels, pin, pixel_order=order)
        return NeoPixelSpiStrip(layout.pixels, pixel_order=order)
    except (ImportError, NotImplementedError, RuntimeError, ValueError, OSError, AttributeError) as error:
        raise WiringError(f"pegs: cannot drive {kind} LEDs here: {error}") from None

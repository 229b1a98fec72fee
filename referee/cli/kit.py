"""``pegs firmware``, ``template``, ``schematic``, ``parts`` and ``doctor``: the builder's kit.

    pegs firmware --sides 6 --out /media/$USER/CIRCUITPY    # the scanner for a 6-sided board
    pegs template --sides 4 --out board.svg                  # a 1:1 drilling template
    pegs schematic --sides 4 --out circuit.svg               # circuit-hookup.svg, circuit-side-0.svg, ...
    pegs parts --sides 8 --out parts.csv                     # the bill of materials
    pegs doctor                                              # is this Pi ready for the config?
    pegs carrier --out carrier.stl                           # the printed sensor carrier, one per hole

Each is made from the same layout the daemon uses, so a board built from them needs no
calibration.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from firmware_bridge.firmware_files import chips_for, firmware_files, write_firmware
from hardware.layout import Layout
from hardware.sensors import channels_needed
from referee.cli.board import add_board_options, board_from, board_words
from referee.kit import carrier
from referee.kit.mounting import FLANGE


class KitError(RuntimeError):
    """A builder's command could not do its job; exit status 2, one line."""


def add_commands(commands: Any) -> None:
    firmware = commands.add_parser("firmware", help="write the sensor scanner's files for a board, for CIRCUITPY")
    _board_options(firmware)
    firmware.add_argument(
        "--out",
        required=True,
        help="the Pico's CIRCUITPY drive, where boot.py, code.py and protocol.py go (Linux /media/$USER/CIRCUITPY, "
        "macOS /Volumes/CIRCUITPY, Windows its drive letter such as E:\\)",
    )
    firmware.add_argument(
        "--force",
        action="store_true",
        help="write into a folder that is not a CIRCUITPY drive (it has no boot_out.txt), to copy from later",
    )
    firmware.set_defaults(func=firmware_command)

    _template_parser(commands)

    schematic = commands.add_parser("schematic", help="write the board's circuit as A4 sheets (SVG)")
    _board_options(schematic)
    schematic.add_argument(
        "--out", required=True, help="FILE.svg: writes FILE-hookup.svg and FILE-side-N.svg beside it"
    )
    schematic.set_defaults(func=schematic_command)

    parts = commands.add_parser("parts", help="write the board's bill of materials (CSV), counted from its layout")
    _board_options(parts)
    parts.add_argument("--out", help="the CSV to write (default: print it)")
    parts.set_defaults(func=parts_command)

    doctor = commands.add_parser("doctor", help="check this Pi for everything the config needs, and say the fixes")
    doctor.add_argument("--config", default="/etc/pegs/pegs.toml", help="the daemon's config (default: %(default)s)")
    doctor.add_argument("--root", default="/", help="check a Pi's system mounted here (e.g. an SD card)")
    doctor.add_argument("--json", action="store_true", help="print JSON instead of lines")
    doctor.set_defaults(func=doctor_command)
    printed = commands.add_parser("carrier", help="write the printed sensor carrier (ASCII STL, mm)")
    printed.add_argument("--out", required=True, help="the STL to write")
    printed.set_defaults(func=carrier_command)


def _template_parser(commands: Any) -> None:
    template = commands.add_parser("template", help="write a 1:1 drilling and wiring template (SVG, in mm)")
    _board_options(template)
    template.add_argument("--out", required=True, help="the SVG to write; its printable sheets go beside it")
    template.add_argument("--pitch", type=float, default=25.0, help="mm between neighbouring track holes (default 25)")
    template.add_argument("--hole", type=float, default=10.0, help="hole diameter in mm (default 10)")
    template.add_argument(
        "--paper",
        choices=("a4", "letter", "none"),
        default="a4",
        help="also cut it into sheets of this paper (default a4)",
    )
    template.add_argument(
        "--dxf",
        help="also write the holes as DXF for a CNC router or laser (mm; a layer per kind of hole, named with "
        "its diameter); needs ezdxf: pip install '.[kit]'",
    )
    template.set_defaults(func=template_command)


def _board_options(parser: argparse.ArgumentParser) -> None:
    add_board_options(parser)


def board_layout(args: argparse.Namespace) -> Layout:
    """The layout named by ``--layout`` (its own sides win), else the standard one for ``--sides``,
    else the config's board (said on stderr, which a CSV on stdout leaves alone), else 4 sides."""
    board = board_from(args, KitError)
    if board.config is not None:
        print(f"pegs: {board_words(board)}", file=sys.stderr, flush=True)
    return board.layout


def firmware_command(args: argparse.Namespace) -> int:
    layout = board_layout(args)
    channels = channels_needed(layout)
    chips = chips_for(channels)
    files = firmware_files(channels, f"a board of {layout.sides} sides ({len(layout.hole_names)} holes)")
    out = Path(args.out)
    _check_circuitpy(out, args.force)
    try:
        written = write_firmware(files, out)
    except OSError as error:
        raise KitError(f"pegs: cannot write the firmware into {out}: {error.strerror or error}") from None
    print(
        f"wrote {', '.join(path.name for path in written)} into {out}: {len(layout.hole_names)} holes, "
        f"{chips} 74HC165 chips ({chips * 8} channels, key 0 = input H of the chip next to GP4)."
    )
    print(
        "On a new Pico, unplug it and plug it in again once, so that boot.py opens the data port; "
        f"then `pegs watch --port /dev/pegs-board {board_option(layout, args.layout)}` should say "
        f"{chips * 8} channels."
    )
    return 0


def _check_circuitpy(out: Path, force: bool) -> None:
    """A CIRCUITPY drive has boot_out.txt at its root (CircuitPython writes it at every start:
    CIRCUITPY_BOOT_OUTPUT_FILE "/boot_out.txt" in py/circuitpy_mpconfig.h); anything else is most
    likely a mistyped path, and the Pico would go on running its old firmware."""
    if not out.is_dir():
        raise KitError(
            f"pegs: cannot write the firmware: {out} is not a folder (is the Pico plugged in, as the CIRCUITPY "
            "drive? Linux /media/$USER/CIRCUITPY, macOS /Volumes/CIRCUITPY, Windows its drive letter such as E:\\)"
        )
    if not force and not (out / "boot_out.txt").is_file():
        raise KitError(
            f"pegs: {out} is not a CIRCUITPY drive: it has no boot_out.txt, which CircuitPython writes at the "
            "drive's root (no CircuitPython on the Pico yet, section 4 of docs/building.md; or another folder). "
            "--force writes into it anyway, to copy from later"
        )


def board_option(layout: Layout, layout_file: str | None) -> str:
    """The options that name this board to the other commands: --sides N [--markers], or --layout FILE."""
    if layout_file:
        return f"--layout {layout_file}"
    return f"--sides {layout.sides}" + (" --markers" if layout.colour_markers else "")


def template_command(args: argparse.Namespace) -> int:
    from referee.kit.template import PAPERS, Template

    layout = board_layout(args)
    try:
        drawing = Template(layout, pitch=args.pitch, hole=args.hole)
    except ValueError as error:
        raise KitError(f"pegs: template: {error}") from None
    out = Path(args.out)
    dxf = _dxf(drawing, args.dxf) if args.dxf else None
    sheets = list(drawing.sheets(PAPERS[args.paper])) if args.paper != "none" else []
    try:
        out.write_text(drawing.svg(), encoding="utf-8")
        for name, text in sheets:
            out.with_name(f"{out.stem}-{name}{out.suffix or '.svg'}").write_text(text, encoding="utf-8")
        if sheets:
            index = drawing.index(PAPERS[args.paper])
            out.with_name(f"{out.stem}-index{out.suffix or '.svg'}").write_text(index, encoding="utf-8")
    except OSError as error:
        raise KitError(f"pegs: cannot write the template {out}: {error.strerror or error}") from None
    width, height = drawing.size
    said = ""
    if sheets:
        grid = drawing.sheet_grid(PAPERS[args.paper])
        suffix = out.suffix or ".svg"
        empty = grid.rows * grid.columns - len(grid.used)
        left_out = f"the other {empty} hold no hole and are not written" if empty else "each holds holes"
        said = (
            f", {len(grid.used)} {PAPERS[args.paper].name} sheets {out.stem}-sheet-R-C{suffix} (of "
            f"{grid.rows} x {grid.columns}: {left_out}), and {out.stem}-index{suffix}, the map of the sheets"
        )
    print(f"wrote {out}: {len(drawing.places)} holes on {width:.0f} x {height:.0f} mm{said}.")
    if dxf is not None:
        try:
            dxf.saveas(args.dxf)
        except OSError as error:
            raise KitError(f"pegs: cannot write the DXF {args.dxf}: {error.strerror or error}") from None
        print(
            f"wrote {args.dxf}: the holes for CAM, in mm, seen from the top; layers {', '.join(_dxf_layers(drawing))}."
        )
    print("Print at 100 % (actual size, no fit to page) and check the 100 mm bar before you drill.")
    return 0


def _dxf(drawing: Any, path: str) -> Any:
    """The DXF document, made before anything is written: a missing ezdxf is one line, no traceback."""
    from referee.kit.dxf import DxfUnavailable, board_dxf

    if Path(path).suffix.lower() != ".dxf":
        raise KitError(f"pegs: template: --dxf {path} is not a .dxf file name")
    try:
        return board_dxf(drawing)
    except DxfUnavailable as error:
        raise KitError(f"pegs: template --dxf: {error}") from None


def _dxf_layers(drawing: Any) -> list[str]:
    from referee.kit.dxf import layers

    return list(layers(drawing))


def schematic_command(args: argparse.Namespace) -> int:
    from referee.kit.schematic import schematic_sheets

    layout = board_layout(args)
    out = Path(args.out)
    if out.suffix.lower() not in ("", ".svg"):
        raise KitError(f"pegs: schematic: --out {out} is not an .svg file name")
    if not out.parent.is_dir():
        raise KitError(f"pegs: cannot write the schematic: {out.parent} is not a directory")
    written = []
    try:
        for name, text in schematic_sheets(layout):
            path = out.with_name(f"{out.stem}-{name}.svg")
            path.write_text(text, encoding="utf-8")
            written.append(path.name)
    except OSError as error:
        raise KitError(f"pegs: cannot write the schematic {out}: {error.strerror or error}") from None
    print(f"wrote {len(written)} A4 sheets for {len(layout.hole_names)} holes: {', '.join(written)}.")
    print("Print at 100 % on A4 (landscape).")
    return 0


def parts_command(args: argparse.Namespace) -> int:
    from referee.kit.parts import parts_list, to_csv

    layout = board_layout(args)
    text = to_csv(parts_list(layout))
    if args.out is None:
        print(text, end="")
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as error:
        raise KitError(f"pegs: cannot write the parts list {args.out}: {error.strerror or error}") from None
    print(f"wrote {args.out}: {text.count(chr(10)) - 1} lines of parts for a board of {layout.sides} sides.")
    return 0


def doctor_command(args: argparse.Namespace) -> int:
    """Exit 0 when nothing needs fixing, 1 when something does."""
    from referee.kit.doctor import examine
    from referee.kit.doctor_machine import Machine

    root = Path(args.root)
    if not root.is_dir():
        raise KitError(f"pegs: --root {root} is not a directory")
    findings = examine(Machine(root), args.config)
    if args.json:
        print(json.dumps({"findings": [asdict(finding) for finding in findings]}, indent=2))
    else:
        print("\n".join(str(finding) for finding in findings))
        broken = sum(finding.ok is False for finding in findings)
        print(f"{broken} thing(s) to fix" if broken else "nothing to fix")
    return 1 if any(finding.ok is False for finding in findings) else 0


def carrier_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    try:
        out.write_text(carrier.carrier_stl(), encoding="ascii")
    except OSError as error:
        raise KitError(f"pegs: cannot write the carrier {out}: {error.strerror or error}") from None
    print(
        f"wrote {out}: one sensor carrier, {FLANGE:g} x {FLANGE:g} x {carrier.HEIGHT:g} mm. "
        "Print one per hole, flange down, no supports; the sensor lies in its bed branded face up."
    )
    return 0

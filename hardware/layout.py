"""Which sensor channel and which pixel each hole of the board is wired to.

    from hardware.layout import Layout, default_layout

    layout = default_layout(4)                 # 112 holes, one chain, channels = pixels
    layout.channel("T0:8"), layout.pixel("H0:1"), layout.hole(9)   # 13, 4, 'T0:4'
    Path("board.toml").write_text(layout.to_toml())
    layout = Layout.from_toml("board.toml")    # refuses a wrong file with a message naming the hole

A layout file is TOML: board-wide settings, then one line per hole.

    sides = 4              # 4, 6, 8 or 10 (a two-player game uses a 4-sided board)
    active_low = true      # a sensor pulls its line low when a peg is in (A3144 hall sensor)
    pixels = 112           # pixels in the chain; may exceed the holes (spare pixels stay dark)

    [holes]
    "T0:0" = { channel = 0, pixel = 0 }
    "T0:1" = { channel = 1, pixel = 1 }
    ...

Hole names are the referee's physical names: track ``T<s>:0..17``, home ``H<s>:1..5``,
start ``S<s>:1..5``, plus an optional colour-marker hole ``C<s>`` per side (the Ukrainian
translation: a sixth peg shows the player's colour; the rules ignore it). Every T, H and S
hole of every side must be wired; colour markers may be left out.

The default chain (``default_layout``) snakes along the board clockwise, one side after
the other, and dips into the side's home and start rows where they branch off::

    T<s>:0 .. T<s>:3   along the edge, corner to in-spot
    H<s>:1 .. H<s>:5   into the home row from the in-spot, deepest last
    T<s>:4 .. T<s>:8   (a return wire back to the track) on to the come-out hole
    S<s>:1 .. S<s>:5   the start holes beside the come-out hole
    C<s>               the colour-marker hole, if the board has them
    T<s>:9 .. T<s>:17  (a return wire) on to the next corner, where side s+1 begins

So a side is 28 pixels (29 with a colour marker), in the order a person names the holes
walking round the board, and the data line never crosses the board. Sensor channels
follow the same order, so the shift-register chains can run beside the pixels.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

# The hole grammar is referee/holes.py's, the one module of the engine the hardware may import
# (docs/design.md, "Layers"); a layout file names physical holes only: no start area, no bare S.
from referee.holes import COME_OUT, HOME_SIZE, IN_SPOT, SIDE_LENGTH, SIDES, START_SIZE, numbers, split

_SETTINGS = ("sides", "active_low", "pixels", "holes")


class LayoutError(ValueError):
    """A layout that does not describe a board: the message names the key or hole."""


def side_holes(side: int, colour_marker: bool = False) -> tuple[str, ...]:
    """One side's holes in the default chain order (see the module docstring)."""
    track = [f"T{side}:{k}" for k in range(SIDE_LENGTH)]
    home = [f"H{side}:{d}" for d in range(1, HOME_SIZE + 1)]
    start = [f"S{side}:{i}" for i in range(1, START_SIZE + 1)]
    marker = [f"C{side}"] if colour_marker else []
    return (*track[: IN_SPOT + 1], *home, *track[IN_SPOT + 1 : COME_OUT + 1], *start, *marker, *track[COME_OUT + 1 :])


def board_holes(sides: int, colour_markers: bool = False) -> tuple[str, ...]:
    """Every hole of an n-sided board in the default chain order."""
    _check_sides(sides)
    return tuple(hole for side in range(sides) for hole in side_holes(side, colour_markers))


def parse_hole(name: str, sides: int | None = None) -> tuple[str, int, int]:
    """``("T", 2, 5)`` for ``T2:5``; ``("C", 1, 0)`` for ``C1``. Checks ranges, and the side
    against ``sides`` when given."""
    parts = split(name)
    if parts is None or parts.side is None or (parts.kind != "C") == (parts.number is None):
        raise LayoutError(f"unknown hole name {name!r}: expected T<s>:<0-17>, H<s>:<1-5>, S<s>:<1-5> or C<s>")
    kind, side = parts.kind, parts.side
    number = 0 if parts.number is None else parts.number
    allowed = numbers(kind)
    if kind != "C" and number not in allowed:
        low, high = allowed[0], allowed[-1]
        raise LayoutError(f"unknown hole name {name!r}: {kind} holes run {kind}<s>:{low} .. {kind}<s>:{high}")
    if sides is not None and not 0 <= side < sides:
        raise LayoutError(f"hole {name!r}: a {sides}-sided board has sides 0..{sides - 1}")
    return kind, side, number


@dataclass(frozen=True)
class Wire:
    """One hole's connections: the sensor channel it is read on and its pixel in the chain."""

    hole: str
    channel: int
    pixel: int


@dataclass(frozen=True)
class Layout:
    """A board's wiring, checked on construction. ``wires`` are kept in pixel order."""

    sides: int
    wires: tuple[Wire, ...]
    active_low: bool = True
    pixels: int = field(default=0)  # 0: as many as the highest pixel index needs

    def __post_init__(self) -> None:
        _check_sides(self.sides)
        if not isinstance(self.active_low, bool):
            raise LayoutError(f"active_low must be true or false, not {self.active_low!r}")
        if not self.wires:
            raise LayoutError("the layout wires no holes")
        for wire in self.wires:
            for key in ("channel", "pixel"):
                value = getattr(wire, key)
                if not _is_int(value) or value < 0:
                    raise LayoutError(f"hole {wire.hole!r}: {key} must be a whole number >= 0, not {value!r}")
        wires = tuple(sorted(self.wires, key=lambda wire: wire.pixel))
        object.__setattr__(self, "wires", wires)
        if not _is_int(self.pixels) or self.pixels < 0:
            raise LayoutError(f"pixels must be a whole number of pixels, not {self.pixels!r}")
        if self.pixels == 0:
            object.__setattr__(self, "pixels", max(wire.pixel for wire in wires) + 1)
        self._check(wires)

    # -- lookups -----------------------------------------------------------------------

    @cached_property
    def hole_names(self) -> tuple[str, ...]:
        """The wired holes in chain (pixel) order."""
        return tuple(wire.hole for wire in self.wires)

    @cached_property
    def channels(self) -> Mapping[str, int]:
        """hole -> sensor channel."""
        return {wire.hole: wire.channel for wire in self.wires}

    @cached_property
    def holes_by_channel(self) -> Mapping[int, str]:
        """sensor channel -> hole."""
        return {wire.channel: wire.hole for wire in self.wires}

    @cached_property
    def pixel_of(self) -> Mapping[str, int]:
        """hole -> pixel index."""
        return {wire.hole: wire.pixel for wire in self.wires}

    @cached_property
    def colour_markers(self) -> tuple[str, ...]:
        return tuple(hole for hole in self.hole_names if hole.startswith("C"))

    def channel(self, hole: str) -> int:
        try:
            return self.channels[hole]
        except KeyError:
            raise LayoutError(f"hole {hole!r} is not in the layout") from None

    def hole(self, channel: int) -> str:
        try:
            return self.holes_by_channel[channel]
        except KeyError:
            raise LayoutError(f"sensor channel {channel!r} is not wired to a hole") from None

    def pixel(self, hole: str) -> int:
        try:
            return self.pixel_of[hole]
        except KeyError:
            raise LayoutError(f"hole {hole!r} is not in the layout") from None

    def occupied(self, raw_level: bool) -> bool:
        """Whether a sensor line at ``raw_level`` means a peg is in the hole."""
        return bool(raw_level) != self.active_low

    # -- files ------------------------------------------------------------------------

    @classmethod
    def from_toml(cls, path: str | Path) -> Layout:
        path = Path(path)
        try:
            data = path.read_bytes()
            # As editors save it: UTF-8 with or without a byte-order mark, or UTF-16 with one.
            text = data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data.decode("utf-8-sig")
        except OSError as error:
            raise LayoutError(f"{path}: {error.strerror or error}") from None
        except UnicodeDecodeError as error:
            raise LayoutError(f"{path}: not UTF-8 text (byte {error.start}): save it as UTF-8") from None
        return cls.parse(text, source=str(path))

    @classmethod
    def parse(cls, text: str, source: str = "layout") -> Layout:
        """A layout from TOML text; errors start with ``source``."""
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError, RecursionError) as error:  # also 4,300-digit numbers, deep nesting
            raise LayoutError(f"{source}: not valid TOML: {' '.join(str(error).split())[:120]}") from None
        try:
            return cls.from_dict(data)
        except LayoutError as error:
            raise LayoutError(f"{source}: {error}") from None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Layout:
        unknown = [key for key in data if key not in _SETTINGS]
        if unknown:
            raise LayoutError(f"unknown key {unknown[0]!r}: a layout has {', '.join(_SETTINGS)}")
        if "sides" not in data:
            raise LayoutError("missing key 'sides' (4, 6, 8 or 10)")
        holes = data.get("holes")
        if not isinstance(holes, Mapping) or not holes:
            raise LayoutError('missing [holes]: one line per hole, e.g. "T0:0" = { channel = 0, pixel = 0 }')
        wires = []
        for hole, entry in holes.items():
            if not isinstance(entry, Mapping):
                raise LayoutError(f"hole {hole!r}: expected {{ channel = N, pixel = N }}, not {entry!r}")
            extra = [key for key in entry if key not in ("channel", "pixel")]
            if extra:
                raise LayoutError(f"hole {hole!r}: unknown key {extra[0]!r} (a hole has channel and pixel)")
            for key in ("channel", "pixel"):
                if key not in entry:
                    raise LayoutError(f"hole {hole!r}: missing {key}")
                if not _is_int(entry[key]) or entry[key] < 0:
                    raise LayoutError(f"hole {hole!r}: {key} must be a whole number >= 0, not {entry[key]!r}")
            wires.append(Wire(hole, entry["channel"], entry["pixel"]))
        pixels = data.get("pixels", 0)
        if "pixels" in data and (not _is_int(pixels) or pixels <= 0):
            raise LayoutError(f"pixels must be a whole number above 0, not {pixels!r}")
        return cls(sides=data["sides"], wires=tuple(wires), active_low=data.get("active_low", True), pixels=pixels)

    def to_toml(self) -> str:
        """The layout as a TOML file that ``from_toml`` reads back equal."""
        lines = [
            "# Pegs and Jokers board wiring: each hole's sensor channel and pixel index.",
            "# Holes are listed in chain (pixel) order. See hardware/layout.py.",
            f"sides = {self.sides}",
            f"active_low = {'true' if self.active_low else 'false'}   # sensor line low = peg in the hole",
            f"pixels = {self.pixels}",
            "",
            "[holes]",
        ]
        lines += [f'"{wire.hole}" = {{ channel = {wire.channel}, pixel = {wire.pixel} }}' for wire in self.wires]
        return "\n".join(lines) + "\n"

    # -- checks -----------------------------------------------------------------------

    def _check(self, wires: tuple[Wire, ...]) -> None:
        seen_hole: set[str] = set()
        by_channel: dict[int, str] = {}
        by_pixel: dict[int, str] = {}
        for wire in wires:
            parse_hole(wire.hole, self.sides)
            if wire.hole in seen_hole:
                raise LayoutError(f"hole {wire.hole!r} is wired twice")
            seen_hole.add(wire.hole)
            if wire.channel in by_channel:
                raise LayoutError(f"channel {wire.channel} is used by both {by_channel[wire.channel]} and {wire.hole}")
            by_channel[wire.channel] = wire.hole
            if wire.pixel in by_pixel:
                raise LayoutError(f"pixel {wire.pixel} is used by both {by_pixel[wire.pixel]} and {wire.hole}")
            by_pixel[wire.pixel] = wire.hole
            if wire.pixel >= self.pixels:
                raise LayoutError(
                    f"hole {wire.hole!r}: pixel {wire.pixel} is out of range 0..{self.pixels - 1} (pixels = {self.pixels})"
                )
        missing = [hole for hole in board_holes(self.sides) if hole not in seen_hole]
        if missing:
            more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
            raise LayoutError(f"missing holes on a {self.sides}-sided board: {', '.join(missing[:5])}{more}")


def default_layout(sides: int, colour_markers: bool = False, *, active_low: bool = True) -> Layout:
    """The documented chain for an n-sided board: pixel i and channel i are the i-th hole."""
    holes = board_holes(sides, colour_markers)
    return Layout(sides, tuple(Wire(hole, i, i) for i, hole in enumerate(holes)), active_low, len(holes))


def layout_from_channels(
    sides: int, channels: Mapping[str, int] | Iterable[tuple[str, int]], *, active_low: bool = True
) -> Layout:
    """A layout with measured sensor channels and the default chain's pixels (calibration)."""
    found = dict(channels)
    for hole in found:
        parse_hole(hole, sides)
    order = board_holes(sides, colour_markers=any(hole.startswith("C") for hole in found))
    wires = tuple(Wire(hole, found[hole], i) for i, hole in enumerate(order) if hole in found)
    return Layout(sides, wires, active_low, len(order))


def _check_sides(sides: Any) -> None:
    if not _is_int(sides) or sides not in SIDES:
        raise LayoutError(f"sides must be 4, 6, 8 or 10, not {sides!r}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

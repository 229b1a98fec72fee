"""The tracker's guidance (hole -> role) and the seat to play, turned into a frame: each
role's colour and rhythm, the brightness, then the current cap."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from hardware.layout import Layout
from hardware.leds.power import WS2812, PowerModel, limit_current
from hardware.leds.strip import BLACK, RGB, Frame
from hardware.signals import PATTERNS, ROLE_COLOURS, ROLES, SEAT_COLOURS, TURN_LEVEL, Pattern
from referee.holes import COME_OUT, track


class Renderer:
    """Turns the tracker's guidance (hole -> role) and the seat to play into a frame.

    Roles: "selected", "destination", "bump", "wrong", "put-back", "hint", "lift", each with a
    colour (``ROLE_COLOURS``) and a rhythm (``PATTERNS``: a wrong peg blinks, a peg's way back
    pulses, a bot's peg to lift flashes; see hardware/signals.py), both overridable. ``render(guidance, turn, at)`` gives the frame
    ``at`` seconds after the guidance appeared (``at=None``: every light at its full level);
    ``animated(guidance)`` says whether frames change with time, so the caller knows to redraw.
    The seat to play glows dimly (``turn_level`` of its seat colour) on its come-out hole
    ``T<s>:8`` unless guidance lights that hole. ``brightness`` (0..1) scales everything; then
    the frame is scaled to stay within ``max_amps``.
    """

    def __init__(
        self,
        layout: Layout,
        *,
        brightness: float = 0.5,
        max_amps: float = 2.0,
        turn_level: float = TURN_LEVEL,
        colours: Mapping[str, RGB] | None = None,
        patterns: Mapping[str, Pattern] | None = None,
        seat_colours: Sequence[RGB] = SEAT_COLOURS,
        power: PowerModel = WS2812,
    ) -> None:
        self.layout = layout
        self.n = layout.pixels
        self.max_amps = max_amps
        self.turn_level = turn_level
        self.power = power
        unknown = [role for role in [*(colours or {}), *(patterns or {})] if role not in ROLES]
        if unknown:
            raise ValueError(f"unknown role {unknown[0]!r}: roles are {', '.join(ROLES)}")
        self.colours = {**ROLE_COLOURS, **(colours or {})}
        self.patterns = {**PATTERNS, **(patterns or {})}
        if not seat_colours:
            raise ValueError("seat_colours needs at least one colour")
        self.seat_colours = tuple(seat_colours)
        for colour in [*self.colours.values(), *self.seat_colours]:
            _check_colour(colour)
        self._blank: list[RGB] = [BLACK] * self.n
        self.brightness = brightness

    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"brightness runs 0..1, not {value!r}")
        self._brightness = value
        self._role = {role: _scale(colour, value) for role, colour in self.colours.items()}
        self._seat = tuple(_scale(colour, value * self.turn_level) for colour in self.seat_colours)

    def set_seat_colours(self, colours: Sequence[RGB]) -> None:
        """The seats' colours as the table chose them for this game."""
        for colour in colours:
            _check_colour(colour)
        self.seat_colours = tuple(colours)
        self.brightness = self._brightness

    def animated(self, guidance: Mapping[str, str] | None) -> bool:
        """Whether the frame for ``guidance`` changes with time (a role that blinks or pulses)."""
        return any(not self.patterns[role].steady for role in (guidance or {}).values() if role in self.patterns)

    def render(
        self,
        guidance: Mapping[str, str] | None = None,
        turn: int | None = None,
        at: float | None = None,
    ) -> Frame:
        pixels = self._blank.copy()
        pixel_of = self.layout.pixel_of
        if turn is not None:
            pixels[self.layout.pixel(track(turn, COME_OUT))] = self._seat[turn % len(self._seat)]
        for hole, role in (guidance or {}).items():
            index = pixel_of.get(hole)
            if index is None:
                self.layout.pixel(hole)  # raises, naming the hole
            colour = self._role.get(role)
            if colour is None:
                raise ValueError(f"hole {hole}: unknown role {role!r}: roles are {', '.join(ROLES)}")
            if at is not None and not self.patterns[role].steady:
                colour = _scale(colour, self.patterns[role].level(at))
            pixels[index] = colour  # type: ignore[index]
        return limit_current(pixels, self.max_amps, self.power)

    def amps(self, frame: Sequence[RGB]) -> float:
        """The estimated current of a frame (see ``PowerModel``)."""
        return self.power.amps(frame)


def _scale(colour: RGB, factor: float) -> RGB:
    return (
        math.floor(colour[0] * factor + 1e-9),
        math.floor(colour[1] * factor + 1e-9),
        math.floor(colour[2] * factor + 1e-9),
    )


def _check_colour(colour: Any) -> None:
    if not (
        isinstance(colour, tuple) and len(colour) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in colour)
    ):
        raise ValueError(f"a colour is (r, g, b) with each 0..255, not {colour!r}")

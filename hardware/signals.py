"""What the LEDs say: a colour and a rhythm per role, and the seats' colours.

    level = PATTERNS["wrong"].level(0.3)    # 0.0: a wrong peg's light is off 0.25 s into its blink
    SEAT_NAMES[2], SEAT_COLOURS[2]          # ('Yellow', (240, 228, 66))

An LED cannot show a symbol, and one player in twelve cannot tell red from green, so every
role that asks for action differs from the others in more than its hue: a wrong peg blinks
fast, a bumped peg's way back and a peg to put back pulse slowly, the peg to lift for a bot's
move (or a hint lit on request) flashes twice and rests, and what may be done (a lifted peg's
hole, its legal destinations, where a hint's or a bot's peg goes) is steady. The peg to lift
has a role of its own, not its seat's colour: a sky-blue light beside a sky-blue peg is lost. The seat to play glows on its
come-out hole at a fraction of the roles' brightness, steady, so a seat colour is never read
as a role (the page and the README carry the same legend).

Seat colours: the defaults were chosen so that, seen through Machado, Oliveira and
Fernandes' (2009) protanopia and deuteranopia simulations, every two seats of a 4-player game
and every two partners (alternating seats) of a 6-, 8- or 10-player game stay well apart
(tests/test_signals.py measures it in OKLab). With 8 or 10 seats some opponents' colours come
close; partners never do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

RGB = tuple[int, int, int]
FLASH_ON = 0.12  # of a flash's period, each of its two flashes (app.css draws the same)


@dataclass(frozen=True)
class Pattern:
    """A light's rhythm: ``level(t)`` runs from ``low`` to 1 over ``period`` seconds, starting at
    full, either as a square wave ("blink") or smoothly ("pulse"); period 0 is steady."""

    name: str
    period: float = 0.0
    low: float = 1.0

    def level(self, seconds: float) -> float:
        if self.period <= 0:
            return 1.0
        phase = (seconds % self.period) / self.period
        if self.name == "blink":
            return 1.0 if phase < 0.5 else self.low
        if self.name == "flash":  # two short flashes, then a rest: like no other light on the board
            return 1.0 if phase < FLASH_ON or 2 * FLASH_ON <= phase < 3 * FLASH_ON else self.low
        return self.low + (1.0 - self.low) * (1.0 + math.cos(2 * math.pi * phase)) / 2

    @property
    def steady(self) -> bool:
        return self.period <= 0


STEADY = Pattern("steady")
BLINK = Pattern("blink", period=0.5, low=0.0)  # 2 flashes a second: "not there"
PULSE = Pattern("pulse", period=1.6, low=0.35)  # a slow breath: "a peg goes here"
FLASH = Pattern("flash", period=1.4, low=0.35)  # flash, flash, rest: "lift this peg" (never dark: it is found)

ROLES = ("selected", "destination", "bump", "wrong", "put-back", "hint", "lift")
ROLE_COLOURS: Mapping[str, RGB] = {
    "selected": (0, 255, 255),  # cyan: the hole a peg was lifted from (violet was a protanope's blue)
    "destination": (0, 255, 0),  # green: a legal destination
    "bump": (255, 110, 0),  # amber: where a bumped peg must go
    "wrong": (255, 0, 0),  # red: a peg that should not be there
    "put-back": (255, 255, 255),  # white: where a peg must go back
    "hint": (0, 60, 255),  # blue: where a hint's or a bot's peg goes
    "lift": (255, 80, 180),  # pink: the peg to lift for a bot's move or a hint (apart from every role)
}
PATTERNS: Mapping[str, Pattern] = {
    "selected": STEADY,
    "destination": STEADY,
    "bump": PULSE,
    "wrong": BLINK,
    "put-back": PULSE,
    "hint": STEADY,
    "lift": FLASH,
}
TURN_LEVEL = 0.15  # the seat to play, on its come-out hole: steady and dim, never a role's brightness

# (name, colour) per seat, in seat order; teams alternate (seats 0, 2, 4... against 1, 3, 5...).
SEATS: tuple[tuple[str, RGB], ...] = (
    ("Red", (230, 40, 0)),
    ("Sky blue", (86, 180, 233)),
    ("Yellow", (240, 228, 66)),
    ("Blue", (0, 40, 255)),
    ("White", (255, 255, 255)),
    ("Orange", (255, 150, 0)),
    ("Pink", (255, 60, 170)),
    ("Green", (0, 158, 115)),
    ("Purple", (150, 0, 255)),
    ("Lime", (150, 255, 0)),
)
SEAT_NAMES: tuple[str, ...] = tuple(name for name, _ in SEATS)
SEAT_COLOURS: tuple[RGB, ...] = tuple(colour for _, colour in SEATS)

# The legend, in the order a newcomer meets the lights (the page shows these lines).
LEGEND: tuple[tuple[str, str], ...] = (
    ("selected", "steady cyan: the hole you lifted a peg from"),
    ("destination", "steady green: where that peg may go"),
    ("wrong", "red, blinking fast: a peg that should not be there; lift it"),
    ("put-back", "white, pulsing slowly: put a peg back here"),
    ("bump", "amber, pulsing slowly: where a bumped peg goes (any start hole, or its in-spot)"),
    ("lift", "pink, flashing twice and resting: lift this peg, for the move a bot chose or a hint"),
    ("hint", "steady blue: where that peg goes"),
    ("turn", "a dim glow in a seat's colour on its come-out hole: that seat plays next"),
)

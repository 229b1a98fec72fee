"""The LEDs' language for everyone (issue 13, "Colour, for everyone"): seat colours that
colour-blind players tell apart, and roles that differ in more than hue.

The colour check is an independent simulation: Machado, Oliveira and Fernandes (2009),
severity 1.0, applied in linear sRGB (the matrices Chrome's and Firefox's DevTools use),
then distances in OKLab (Ottosson 2020). "Partners" are alternating seats (docs/design.md,
"Seats, holes and teams": "Default teams: two teams of alternating seats").
"""

from __future__ import annotations

import itertools
import math
from html import unescape
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from hardware.layout import default_layout
from hardware.leds import Renderer
from hardware.signals import LEGEND, PATTERNS, ROLE_COLOURS, ROLES, SEAT_COLOURS, SEAT_NAMES, TURN_LEVEL

MACHADO = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _oklab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    l_ = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m_ = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s_ = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def _seen(colour: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    linear = [_linear(c) for c in colour]
    m = MACHADO[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * linear[j] for j in range(3)))) for i in range(3))
    return _oklab((r, g, b))


def apart(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """How far apart two colours look to the eye that confuses them most (OKLab x 100)."""
    return 100 * min(math.dist(_seen(a, vision), _seen(b, vision)) for vision in MACHADO)


def test_every_two_seats_of_a_four_player_game_are_told_apart_by_colour_blind_eyes() -> None:
    for a, b in itertools.combinations(range(4), 2):
        assert apart(SEAT_COLOURS[a], SEAT_COLOURS[b]) > 20, (SEAT_NAMES[a], SEAT_NAMES[b])
    for a, b in itertools.combinations(range(6), 2):  # six players: still apart, if less
        assert apart(SEAT_COLOURS[a], SEAT_COLOURS[b]) > 10, (SEAT_NAMES[a], SEAT_NAMES[b])


@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_partners_never_share_a_confusable_pair(players: int) -> None:
    for team in (range(0, players, 2), range(1, players, 2)):
        for a, b in itertools.combinations(team, 2):
            assert apart(SEAT_COLOURS[a], SEAT_COLOURS[b]) > 10, (players, SEAT_NAMES[a], SEAT_NAMES[b])


def test_the_classic_trap_is_caught_by_the_simulation() -> None:
    """The check can fail: red and an olive green of like lightness look alike to a protanope
    or a deuteranope, though anyone else tells them apart at once."""
    assert apart((255, 0, 0), (60, 160, 0)) < 10
    assert 100 * math.dist(_seen((255, 0, 0), "normal"), _seen((60, 160, 0), "normal")) > 25


def test_roles_that_ask_for_action_differ_in_rhythm_not_only_hue() -> None:
    """ "wrong" and "put back" must not be told by hue alone; nor red "wrong" from green "destination"."""
    assert PATTERNS["wrong"] != PATTERNS["destination"] and not PATTERNS["wrong"].steady
    assert not PATTERNS["put-back"].steady and PATTERNS["put-back"] != PATTERNS["wrong"]
    assert not PATTERNS["bump"].steady  # amber vs green is a deuteranope's pair too
    for role, pattern in PATTERNS.items():
        if pattern.steady:  # steady roles stay apart from each other for colour-blind eyes
            for other, its in PATTERNS.items():
                if its.steady and other != role:
                    assert apart(ROLE_COLOURS[role], ROLE_COLOURS[other]) > 10, (role, other)
    assert {role for role, _ in LEGEND} == {*ROLES, "turn"}


def test_roles_that_share_a_rhythm_differ_in_colour_for_colour_blind_eyes() -> None:
    """Any two roles are told apart by their rhythm, or else by a colour that stays apart."""
    for role, other in itertools.combinations(ROLES, 2):
        if PATTERNS[role] == PATTERNS[other]:
            assert apart(ROLE_COLOURS[role], ROLE_COLOURS[other]) > 10, (role, other)


def test_a_bots_peg_to_lift_has_a_rhythm_of_its_own() -> None:
    """Issue 20: a bot's peg to lift was lit in the peg's own colour, lost on a sky-blue peg.
    Its role flashes twice and rests, a rhythm no other light has, never dark (it must be
    found), and its colour stays apart from where the peg goes (blue), shown beside it."""
    lift = PATTERNS["lift"]
    assert all(lift != PATTERNS[role] for role in ROLES if role != "lift") and not lift.steady
    levels = [lift.level(t * lift.period / 100) for t in range(100)]
    flashes = sum(1 for before, now in itertools.pairwise(levels) if now > before)
    assert levels[0] == 1.0 and flashes == 1 and min(levels) > 0  # on, off, on again (one rise), then rest
    assert levels.count(1.0) < len(levels) / 2  # mostly resting: unlike a blink's even halves
    assert apart(ROLE_COLOURS["lift"], ROLE_COLOURS["hint"]) > 10


@given(st.sampled_from(ROLES), st.floats(0, 60), st.sampled_from(range(4)))
def test_a_seat_glow_is_never_as_bright_as_a_role(role: str, at: float, turn: int) -> None:
    """A seat colour must never be read as a role: the glow stays under a role's brightness at
    any moment, except in a blink's dark half (when the role shows nothing at all)."""
    layout = default_layout(4)
    renderer = Renderer(layout, brightness=1.0, max_amps=100.0)
    hole = "T0:0"
    frame = renderer.render({hole: role}, turn=turn, at=at)
    lit, glow = frame[layout.pixel(hole)], frame[layout.pixel(f"T{turn}:8")]
    assert max(glow) <= math.ceil(255 * TURN_LEVEL)
    if lit != (0, 0, 0):
        assert max(lit) > 2 * max(glow)


def test_blinks_and_pulses_start_at_full_and_move_with_time() -> None:
    layout = default_layout(4)
    renderer = Renderer(layout, brightness=1.0, max_amps=100.0)
    pixel = layout.pixel("T0:5")
    wrong = [renderer.render({"T0:5": "wrong"}, at=t / 10)[pixel] for t in range(10)]
    assert wrong[0] == ROLE_COLOURS["wrong"] and (0, 0, 0) in wrong  # on at once, then off
    put_back = {renderer.render({"T0:5": "put-back"}, at=t / 10)[pixel] for t in range(16)}
    assert len(put_back) > 4 and min(max(c) for c in put_back) > 0  # pulses, never dark
    assert renderer.render({"T0:5": "wrong"})[pixel] == ROLE_COLOURS["wrong"]  # at=None: full
    assert renderer.animated({"T0:5": "wrong"}) and not renderer.animated({"T0:5": "destination"})


def test_the_page_carries_the_same_legend(client: FlaskClient) -> None:
    """Issue 13: "Write the LED legend in the README and on the page"; the page's swatches
    blink and pulse as the LEDs do."""
    html = client.get("/").get_data(as_text=True)
    for role, words in LEGEND:
        assert words in unescape(html), role
    assert 'class="swatch blink"' in html and html.count('class="swatch pulse"') == 2
    assert html.count('class="swatch flash"') == 1  # the bot's peg to lift
    css = client.get("/static/app.css").get_data(as_text=True)
    assert ".swatch.flash" in css and "@keyframes led-flash" in css
    reduced = css[css.index("prefers-reduced-motion") :]
    assert ".swatch.flash" in reduced[: reduced.index("}\n}")] and ".mark.lift" in reduced
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    for _, words in LEGEND:
        assert words in readme

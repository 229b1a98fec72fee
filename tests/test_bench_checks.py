"""hardware.bench_checks: the colour question and the magnet checks, with a simulated builder."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import pytest

from hardware.bench_checks import (
    EDGE,
    PIXEL_ORDERS,
    Colour,
    ColourOrder,
    MagnetResult,
    check_colour_order,
    check_holes,
    check_pegs,
    parse_colour,
)
from hardware.layout import default_layout
from hardware.leds import BLACK, MemoryStrip
from hardware.sensors import SimulatedSensors
from hardware.wiring import Step

LAYOUT = default_layout(4)
NAMES: dict[str, Colour] = {"R": "red", "G": "green", "B": "blue"}


class Pixels(MemoryStrip):
    """A chain whose pixels take their bytes in ``own`` order while the library sends ``sent``:
    the library puts colour ``sent[i]`` in byte ``i``, the pixel shows byte ``i`` as ``own[i]``."""

    def __init__(self, n: int, sent: str, own: str) -> None:
        super().__init__(n)
        self.sent, self.own = sent, own

    def looks(self, pixel: int = 0) -> Colour:
        value = dict(zip("RGB", self.frame[pixel], strict=True))
        shown = {own: value[sent] for sent, own in zip(self.sent, self.own, strict=True)}
        lit = [colour for colour in "RGB" if shown[colour]]
        return NAMES[lit[0]] if len(lit) == 1 else "nothing"


def test_two_answers_name_every_order_of_the_six() -> None:
    """Issue 23, item 7: some through-hole NeoPixels are RGB where the code drives GRB."""
    for sent in PIXEL_ORDERS:
        for own in PIXEL_ORDERS:
            strip = Pixels(LAYOUT.pixels, sent, own)
            asked: list[Step] = []

            def builder(step: Step, strip: Pixels = strip, asked: list[Step] = asked) -> Colour:
                asked.append(step)
                return strip.looks()

            found = check_colour_order(LAYOUT, strip, builder, sent)
            assert (found.order, found.ok) == (own, own == sent), (sent, own)
            assert [step.action for step in asked] == ["colour", "colour"]
            assert strip.frame == (BLACK,) * LAYOUT.pixels  # dark again afterwards


def test_the_builder_reads_the_line_for_the_config() -> None:
    strip = Pixels(LAYOUT.pixels, "GRB", "RGB")
    asked: list[str] = []

    def builder(step: Step) -> Colour:
        asked.append(step.text)
        return strip.looks()

    found = check_colour_order(LAYOUT, strip, builder)
    assert asked[0] == "The LED beside T0:0 is lit in one colour: which do you see? red, green, blue or nothing"
    assert str(found) == (
        'colour order: these LEDs take RGB, not GRB (red looked green, green looked red): put pixel_order = "RGB" '
        "under [leds] in /etc/pegs/pegs.toml, and check with pegs selftest --pixel-order RGB"
    )
    again = check_colour_order(
        LAYOUT, Pixels(LAYOUT.pixels, "RGB", "RGB"), lambda step: "red" if step.index == 1 else "green", "RGB"
    )
    assert again.ok and str(again) == "colour order: RGB is right (red looked red, green looked green)"


def test_a_dark_pixel_and_muddled_answers_say_what_to_do() -> None:
    strip = MemoryStrip(LAYOUT.pixels)
    asked: list[Step] = []

    def dark(step: Step) -> Colour:
        asked.append(step)
        return "nothing"

    found = check_colour_order(LAYOUT, strip, dark)
    assert len(asked) == 1 and found.order is None and not found.ok  # no second question after "nothing"
    assert "stayed dark" in str(found) and "DIN" in str(found)
    twice = ColourOrder("GRB", ("blue", "blue"), "H0:0")
    assert twice.order is None and str(twice) == (
        "colour order: red and green both looked blue: watch the LED beside H0:0 alone and run this again"
    )
    with pytest.raises(ValueError, match="not 'purple'"):
        check_colour_order(LAYOUT, strip, lambda step: "purple")  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match="pixel order 'RGBW'"):
        check_colour_order(LAYOUT, strip, dark, "RGBW")


def test_answers_are_letters_or_words() -> None:
    assert [parse_colour(text) for text in ("r\n", " Green ", "B", "nothing", "none", "")] == [
        "red",
        "green",
        "blue",
        "nothing",
        "nothing",
        None,
    ]
    assert parse_colour("yellow") is None


# -- magnets ----------------------------------------------------------------------------------

HOLE = "T0:0"


def later(steps: Sequence[tuple[float, Callable[[], object]]]) -> None:
    """Do each thing ``seconds`` after now, on a timer thread: the peg resting in the hole."""
    for seconds, action in steps:
        threading.Timer(seconds, action).start()


class Pegs:
    """A builder at the bench with a box of pegs; ``faults`` says what each peg's magnet does."""

    def __init__(self, sensors: SimulatedSensors, faults: Sequence[str]) -> None:
        self.sensors, self.faults = sensors, list(faults)
        self.steps: list[Step] = []

    def __call__(self, step: Step) -> bool:
        self.steps.append(step)
        if step.index > len(self.faults):
            return False  # "q": no pegs left
        fault, board = self.faults[step.index - 1], self.sensors
        if fault != "left in":
            board.set([])  # the last peg out
        if fault in ("good", "chatters", "drops"):
            board.set([HOLE])
        if fault == "chatters":  # at the switch point: on and off while it rests
            later(
                [
                    (0.15, lambda: board.set([])),
                    (0.2, lambda: board.set([HOLE])),
                    (0.3, lambda: board.set([])),
                    (0.35, lambda: board.set([HOLE])),
                ]
            )
        elif fault == "drops":
            later([(0.3, lambda: board.set([]))])
        elif fault == "late":
            later([(0.3, lambda: board.set([HOLE]))])
        return True


def test_each_peg_is_judged_in_a_hole_that_works() -> None:
    """Issue 23, item 7: which pegs' magnets are the wrong way round or too weak. An A3144 is
    unipolar (datasheet): a magnet north-down is not seen at all."""
    sensors = SimulatedSensors(LAYOUT)
    builder = Pegs(sensors, ["good", "north down", "chatters", "late", "drops", "good"])
    heard: list[str] = []
    report = check_pegs(sensors, HOLE, builder, window=0.6, on_result=lambda result: heard.append(str(result)))
    assert builder.steps[0].text == "Put peg 1 in T0:0, then press Enter"
    assert heard[0] == "peg 1: seen, steady"
    assert heard[1] == (
        "peg 2: NOT SEEN: turn its magnet over (an A3144 needs the south pole down) or use a stronger one"
    )
    assert heard[2] == (
        "peg 3: flickers 4 times in 0.6 s: weak: a stronger magnet, or less wood between it and the sensor"
    )
    assert heard[3].startswith("peg 4: seen only 0.3 s after Enter: weak")
    assert heard[4].startswith("peg 5: seen, then lost while it rested: weak")
    assert heard[5] == "peg 6: seen, steady"
    assert len(heard) == 6 and not report.ok
    assert str(report) == "4 of 6 pegs need a fix: peg 2, peg 3, peg 4, peg 5"


def test_a_peg_never_taken_out_is_not_judged() -> None:
    sensors = SimulatedSensors(LAYOUT)
    report = check_pegs(sensors, HOLE, Pegs(sensors, ["good", "left in"]), window=0.3)
    assert [result.verdict for result in report.results] == ["steady", "not emptied"]
    assert str(report.results[1]).startswith("peg 2: not checked: T0:0 never emptied before it went in")


def test_no_peg_seen_at_all_points_at_the_hole_or_all_the_magnets() -> None:
    sensors = SimulatedSensors(LAYOUT)
    report = check_pegs(sensors, HOLE, Pegs(sensors, ["north down"] * 3), window=0.2, pegs=2)
    assert len(report.results) == 2  # pegs=2 stops after two
    assert str(report).splitlines()[1].startswith("no peg was seen in T0:0: if their magnets are all the same way")
    all_good = check_pegs(sensors, HOLE, Pegs(sensors, ["good"]), window=0.2)
    assert all_good.ok and str(all_good) == "the peg seen, steady"
    none = check_pegs(sensors, HOLE, Pegs(sensors, []), window=0.2)
    assert not none.ok and str(none) == "no pegs were tried"


def test_a_neighbour_that_sees_the_peg_is_named() -> None:
    sensors = SimulatedSensors(LAYOUT)

    def strong(step: Step) -> bool:
        sensors.set([HOLE, "T0:1"])  # the magnet reaches the next hole's sensor too
        return step.index == 1

    report = check_pegs(sensors, HOLE, strong, window=0.2)
    assert report.results[0].also == ("T0:1",)
    assert "T0:1 went occupied too" in str(report.results[0])


def test_each_hole_is_judged_with_a_good_peg() -> None:
    """Issue 23, item 7, part 2: holes whose sensor sees a good peg weakly."""
    sensors = SimulatedSensors(LAYOUT, occupied=["S0:1"])
    holes = ["T0:0", "T0:1", "T0:2", "T0:3", "S0:1"]
    strip = MemoryStrip(LAYOUT.pixels)
    lit: list[int] = []

    def builder(step: Step) -> None:
        lit.append(strip.frame.index((48, 48, 48)))
        hole, stray = step.hole or "", "S0:1"  # a peg left on the board in S0:1
        if hole == "T0:1":  # flickers under a good peg
            later(
                [
                    (0.05, lambda: sensors.set([hole, stray])),
                    (0.1, lambda: sensors.set([stray])),
                    (0.15, lambda: sensors.set([hole, stray])),
                ]
            )
        elif hole == "T0:2":  # drops out
            later([(0.05, lambda: sensors.set([hole, stray])), (0.2, lambda: sensors.set([stray]))])
        elif hole == "T0:3":  # its wire swapped with T1:3's
            later([(0.05, lambda: sensors.set(["T1:3", stray]))])
        else:
            later([(0.05, lambda: sensors.set([hole, stray]))])

    report = check_holes(LAYOUT, sensors, builder, holes, window=0.4, timeout=0.5, strip=strip)
    assert lit == [LAYOUT.pixel(hole) for hole in holes]  # each asked hole was lit
    assert EDGE == "its sensor is at the edge: less wood over it (2 to 3 mm), or move it under the hole's centre"
    assert [str(result) for result in report.results] == [
        "T0:0: steady",
        f"T0:1: flickers 2 times in 0.4 s: {EDGE}",
        f"T0:2: seen, then lost while it rested: {EDGE}",
        (
            "T0:3: NOT SEEN; T1:3 answered instead: the two holes' sensor wires are swapped (pegs calibrate learns "
            "the real order), or the peg went there"
        ),
        "S0:1: read a peg before it went in: take the other pegs off; if the hole is empty, its sensor is stuck",
    ]
    assert str(report) == "4 of 5 holes need a fix: T0:1, T0:2, T0:3, S0:1"
    dead = check_holes(LAYOUT, sensors, lambda step: None, ["T2:0"], timeout=0.2)
    assert str(dead.results[0]) == "T2:0: NOT SEEN: no sensor answer (pegs selftest tells dead from swapped)"
    assert strip.frame == (BLACK,) * LAYOUT.pixels


def test_results_go_to_json() -> None:
    result = MagnetResult("peg 2", "late", 0, 0.31, 1.5, (), HOLE)
    assert result.to_json() == {"name": "peg 2", "verdict": "late", "changes": 0, "late": 0.31, "also": [], "ok": False}

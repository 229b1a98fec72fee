"""hardware.wiring: selftest and calibrate, headless, with a simulated person at the board."""

from __future__ import annotations

import threading

import pytest

from hardware.layout import Layout, board_holes, default_layout
from hardware.leds import BLACK, MemoryStrip
from hardware.sensors import SimulatedSensors
from hardware.wiring import LIT, CalibrationError, SelftestReport, Step, calibrate, selftest, walk_leds

LAYOUT = default_layout(4)


class Person:
    """Moves one peg from hole to hole as asked; the board's faults decide which hole answers."""

    def __init__(
        self,
        sensors: SimulatedSensors,
        answers: dict[str, str | None] | None = None,
        stuck: tuple[str, ...] = (),
        latched: tuple[str, ...] = (),
    ) -> None:
        self.sensors, self.answers, self.stuck, self.latched = sensors, answers or {}, stuck, latched
        self.steps: list[Step] = []

    def __call__(self, step: Step) -> None:
        self.steps.append(step)
        if step.action == "empty":
            self.sensors.set(self.stuck)
        elif step.action == "place":
            seen = self.answers.get(step.hole, step.hole)  # type: ignore[arg-type]
            self.sensors.set([*self.stuck, *([seen] if seen else [])])
        elif step.action == "remove":
            self.sensors.set([*self.stuck, *self.latched])


class Recording(MemoryStrip):
    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.history: list[tuple[tuple[int, int, int], ...]] = []

    def write(self, colours: object) -> None:
        super().write(colours)  # type: ignore[arg-type]
        self.history.append(self.frame)


def test_a_good_board_passes() -> None:
    sensors = SimulatedSensors(LAYOUT)
    strip = Recording(LAYOUT.pixels)
    person = Person(sensors)
    report = selftest(LAYOUT, sensors, strip, person, led_delay=0, timeout=1.0)
    assert report == SelftestReport(tested=112)
    assert report.ok and str(report) == "all 112 holes answered"
    actions = [step.action for step in person.steps]
    assert actions == ["led"] * 112 + ["empty"] + ["place"] * 112 + ["remove"]
    places = [step for step in person.steps if step.action == "place"]
    assert [step.hole for step in places] == list(LAYOUT.hole_names)
    assert places[8].text == "Put a peg in H0:5" and (places[8].index, places[8].total) == (9, 112)
    # the walk lit each pixel alone, in chain order; each asked hole was lit too
    walk = strip.history[:112]
    assert all(frame.index(LIT) == i and frame.count(BLACK) == 111 for i, frame in enumerate(walk))
    assert strip.history[-1] == (BLACK,) * 112


def test_dead_swapped_and_stuck_channels_are_reported() -> None:
    sensors = SimulatedSensors(LAYOUT)
    person = Person(
        sensors,
        answers={"T0:5": None, "H1:2": "H1:3", "H1:3": "H1:2", "S2:4": None},
        stuck=("T3:3",),
        latched=("S0:5",),
    )
    report = selftest(LAYOUT, sensors, None, person, led_delay=0, timeout=0.01)
    assert report.dead == ("T0:5", "S2:4")
    assert report.swapped == (("H1:2", "H1:3"), ("H1:3", "H1:2"))
    assert report.stuck == ("T3:3", "S0:5")  # stuck on the empty board, then latched after use
    assert not report.ok
    assert str(report).splitlines() == [
        "stuck (occupied on an empty board): T3:3, S0:5",
        "dead (never saw the peg): T0:5, S2:4",
        "swapped: asked for H1:2, H1:3 answered",
        "swapped: asked for H1:3, H1:2 answered",
    ]
    assert report.to_json()["swapped"][0] == {"asked": "H1:2", "seen": "H1:3"}
    assert "T3:3" not in [step.hole for step in person.steps if step.action == "place"]  # not asked


def test_a_peg_put_back_in_a_hole_that_passed_is_ignored() -> None:
    sensors = SimulatedSensors(LAYOUT)
    holes = ["T0:0", "T0:1", "T0:2"]

    def clumsy(step: Step) -> None:
        if step.action == "place" and step.hole == "T0:1":
            sensors.set(["T0:0"])  # back into the previous hole first
            sensors.set(["T0:1"])
        elif step.action == "place":
            sensors.set([step.hole])  # type: ignore[list-item]
        elif step.action == "remove":
            sensors.set([])

    report = selftest(LAYOUT, sensors, None, clumsy, timeout=0.5, holes=holes)
    assert report == SelftestReport(tested=3)


def test_a_prompt_that_returns_at_once_gets_time_to_act() -> None:
    """A CLI that only prints: the person acts a little later, on their own thread."""
    sensors = SimulatedSensors(LAYOUT, occupied=["S0:1", "S0:2"])

    def later(holes: list[str]) -> None:
        threading.Timer(0.02, sensors.set, [holes]).start()

    def printing(step: Step) -> None:
        if step.action in ("empty", "remove"):
            later([])
        elif step.action == "place":
            later([step.hole])  # type: ignore[list-item]

    report = selftest(LAYOUT, sensors, None, printing, timeout=2.0, holes=["T0:0", "T0:1"])
    assert report == SelftestReport(tested=2)


def test_walk_leds_alone() -> None:
    strip = Recording(LAYOUT.pixels)
    walk_leds(LAYOUT, strip, delay=0)
    assert len(strip.history) == 113


# -- calibrate ----------------------------------------------------------------------------------


class FakeDevice:
    """A link-like object: raw levels per channel; pegs pull an active-low line low."""

    def __init__(self, channels: int, idle: bool = True) -> None:
        self.idle = idle
        self._levels = [idle] * channels

    @property
    def levels(self) -> tuple[bool, ...]:
        return tuple(self._levels)

    def peg(self, channel: int | None) -> None:
        self._levels = [self.idle] * len(self._levels)
        if channel is not None:
            self._levels[channel] = not self.idle


def test_calibrate_learns_a_scrambled_chain() -> None:
    holes = board_holes(4, colour_markers=True)
    wiring = {hole: (37 * i + 5) % 120 for i, hole in enumerate(holes)}  # how the installer soldered it
    device = FakeDevice(channels=120)
    strip = Recording(len(holes))
    steps: list[Step] = []

    def person(step: Step) -> None:
        steps.append(step)
        device.peg(wiring[step.hole] if step.action == "place" else None)  # type: ignore[index]

    layout = calibrate(device, 4, person, colour_markers=True, strip=strip, poll=0.001, timeout=1.0)
    assert layout.active_low is True  # the lines idled high
    assert all(layout.channel(hole) == channel for hole, channel in wiring.items())
    assert layout.pixel("C3") == default_layout(4, colour_markers=True).pixel("C3")
    assert Layout.parse(layout.to_toml()) == layout
    assert [s.action for s in steps] == ["empty"] + ["place"] * len(holes) + ["remove"]
    assert strip.history[0][0] == LIT and strip.history[-1] == (BLACK,) * len(holes)


def test_calibrate_guesses_active_high_and_skips_stuck_channels() -> None:
    device = FakeDevice(channels=113, idle=False)
    device._levels[112] = True  # stuck: reads occupied on the empty board

    def person(step: Step) -> None:
        if step.action == "place":
            device._levels = [False] * 112 + [True]
            device._levels[board_holes(4).index(step.hole)] = True

    layout = calibrate(device, 4, person, poll=0.001, timeout=1.0)
    assert layout.active_low is False
    assert layout == default_layout(4, active_low=False)


def test_calibrate_names_the_hole_that_never_answered() -> None:
    device = FakeDevice(channels=112)
    holes = board_holes(4)

    def person(step: Step) -> None:
        if step.action == "place" and step.hole != "H0:3":
            device.peg(holes.index(step.hole))

    with pytest.raises(CalibrationError, match="no sensor answered for H0:3"):
        calibrate(device, 4, person, poll=0.001, timeout=0.02)


def test_calibrate_needs_enough_channels() -> None:
    with pytest.raises(CalibrationError, match="no channels"):
        calibrate(FakeDevice(channels=0), 4, lambda step: None)
    with pytest.raises(CalibrationError, match="100 channels, fewer than the 112 holes"):
        calibrate(FakeDevice(channels=100), 4, lambda step: None)

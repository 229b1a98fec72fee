"""hardware.controls: Done/Undo buttons and the buzzer, on gpiozero's MockFactory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.controls import BEEPS, Controls

DONE, UNDO, BUZZER = 5, 6, 13


@pytest.fixture
def factory() -> Iterator[Any]:
    factory = MockFactory()
    yield factory
    factory.reset()


def test_buttons_call_back_once_per_press(factory: Any) -> None:
    pressed: list[str] = []
    with Controls(
        DONE,
        UNDO,
        BUZZER,
        pin_factory=factory,
        on_done=lambda: pressed.append("done"),
        on_undo=lambda: pressed.append("undo"),
    ):
        done, undo = factory.pin(DONE), factory.pin(UNDO)
        assert done.state == 1  # pulled up: a button to ground
        done.drive_low()
        done.drive_high()
        undo.drive_low()
        undo.drive_high()
        done.drive_low()
        assert pressed == ["done", "undo", "done"]


def test_callbacks_can_be_set_later_and_pins_left_out(factory: Any) -> None:
    controls = Controls(done_pin=DONE, pin_factory=factory)
    factory.pin(DONE).drive_low()  # no callback yet: nothing happens
    factory.pin(DONE).drive_high()
    seen: list[int] = []
    controls.on_done = lambda: seen.append(1)
    factory.pin(DONE).drive_low()
    assert seen == [1]
    controls.beep("accepted")  # no buzzer: silent
    assert controls.undo_button is None and controls.buzzer is None
    controls.close()


def _pulses(pin: Any) -> list[bool]:
    return [state.state for state in pin.states]


def test_beep_patterns(factory: Any) -> None:
    quick = {"accepted": (0.005, 0.005, 1), "illegal": (0.005, 0.005, 3)}
    with Controls(buzzer_pin=BUZZER, pin_factory=factory, beeps=quick) as controls:
        buzzer = factory.pin(BUZZER)
        controls.beep("accepted", wait=True)
        assert _pulses(buzzer) == [False, True, False]
        buzzer.clear_states()
        controls.beep("illegal", wait=True)
        assert _pulses(buzzer) == [False, True, False, True, False, True, False]
        with pytest.raises(ValueError, match="unknown beep 'hooray'"):
            controls.beep("hooray")


def test_default_patterns_tell_accepted_from_illegal() -> None:
    on, _, count = BEEPS["accepted"]
    long_on, _, long_count = BEEPS["illegal"]
    assert count == 1 and long_count == 3 and long_on > on
    assert all(on * n + off * n < 1.0 for on, off, n in BEEPS.values())  # never a long drone


def test_close_frees_the_pins(factory: Any) -> None:
    Controls(DONE, UNDO, BUZZER, pin_factory=factory).close()
    Controls(DONE, UNDO, BUZZER, pin_factory=factory).close()


def test_a_pin_clash_releases_what_was_taken(factory: Any) -> None:
    from gpiozero.exc import GPIOPinInUse

    with pytest.raises(GPIOPinInUse):
        Controls(DONE, DONE, BUZZER, pin_factory=factory)
    Controls(DONE, UNDO, BUZZER, pin_factory=factory).close()

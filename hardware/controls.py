"""The "Done" and "Undo" buttons and the buzzer, through gpiozero.

    from gpiozero.pins.mock import MockFactory
    from hardware.controls import Controls

    controls = Controls(done_pin=5, undo_pin=6, buzzer_pin=13, pin_factory=MockFactory(),
                        on_done=lambda: print("done"), on_undo=lambda: print("undo"))
    controls.beep("accepted")     # one short chirp; "illegal" is three longer beeps
    controls.close()

Buttons are wired from the pin to ground and use the Pi's pull-up (press = low), the
usual arcade-button wiring. ``bounce_time`` goes to gpiozero. The buzzer is an *active*
buzzer (it sounds when its pin is high, through a transistor for anything over ~15 mA);
a pattern is ``(on_seconds, off_seconds, count)`` played in the background by gpiozero's
``Buzzer.beep``. Any pin may be ``None``: a board without an undo button still works.
Holding Done for ``hold_time`` seconds calls ``on_hold`` (the seat to play can't move: a
deliberate act, never one habitual press). The callbacks run on gpiozero's thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Self

Pattern = tuple[float, float, int]
BEEPS: Mapping[str, Pattern] = {
    "accepted": (0.06, 0.05, 1),  # a move was committed
    "illegal": (0.18, 0.12, 3),  # the board shows something no legal move explains
    "undo": (0.04, 0.06, 2),  # a turn was taken back
}


class Controls:
    """Done/Undo buttons and a buzzer; a small device class with gpiozero's pin-factory seam."""

    def __init__(
        self,
        done_pin: int | str | None = None,
        undo_pin: int | str | None = None,
        buzzer_pin: int | str | None = None,
        *,
        pin_factory: Any = None,
        on_done: Callable[[], None] | None = None,
        on_undo: Callable[[], None] | None = None,
        on_hold: Callable[[], None] | None = None,
        hold_time: float = 2.0,
        bounce_time: float | None = 0.05,
        beeps: Mapping[str, Pattern] | None = None,
    ) -> None:
        from gpiozero import Button, Buzzer

        self.on_done = on_done
        self.on_undo = on_undo
        self.on_hold = on_hold
        self.beeps = {**BEEPS, **(beeps or {})}
        self.done_button: Any = None
        self.undo_button: Any = None
        self.buzzer: Any = None
        try:
            if done_pin is not None:
                self.done_button = Button(
                    done_pin, bounce_time=bounce_time, hold_time=hold_time, pin_factory=pin_factory
                )
                self.done_button.when_pressed = self._done
                self.done_button.when_held = self._held
            if undo_pin is not None:
                self.undo_button = Button(undo_pin, bounce_time=bounce_time, pin_factory=pin_factory)
                self.undo_button.when_pressed = self._undo
            if buzzer_pin is not None:
                self.buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def beep(self, kind: str, *, wait: bool = False) -> None:
        """Play a pattern from ``beeps`` ("accepted", "illegal", "undo"); silent without a buzzer.

        ``wait=True`` returns only when the pattern has finished (tests, shutdown)."""
        try:
            on, off, count = self.beeps[kind]
        except KeyError:
            raise ValueError(f"unknown beep {kind!r}: one of {', '.join(self.beeps)}") from None
        if self.buzzer is not None:
            self.buzzer.beep(on_time=on, off_time=off, n=count, background=not wait)

    def close(self) -> None:
        for device in (self.done_button, self.undo_button, self.buzzer):
            if device is not None:
                device.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _done(self) -> None:
        if self.on_done is not None:
            self.on_done()

    def _held(self) -> None:
        if self.on_hold is not None:
            self.on_hold()

    def _undo(self) -> None:
        if self.on_undo is not None:
            self.on_undo()

"""The simulated board: driven by code (tests, demos, the web page's simulated board)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from hardware.layout import Layout
from hardware.sensors.board import Change, SensorBoard


class SimulatedSensors(SensorBoard):
    """A board driven by code: ``lift``, ``place`` and ``set`` emit the changes a real board would."""

    backend = "simulated"

    def __init__(
        self,
        layout_or_hole_names: Layout | Iterable[str],
        occupied: Iterable[str] = (),
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        names = (
            layout_or_hole_names.hole_names if isinstance(layout_or_hole_names, Layout) else tuple(layout_or_hole_names)
        )
        self.hole_names: tuple[str, ...] = names
        self._known = frozenset(names)
        self._clock = clock
        self._occupied: set[str] = set(self._check(occupied))

    def snapshot(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._occupied)

    def lift(self, hole: str) -> Change:
        """Take the peg out of ``hole``."""
        with self._lock:
            self._check([hole])
            if hole not in self._occupied:
                raise ValueError(f"cannot lift from {hole}: it holds no peg")
            return self._change(hole, False)

    def place(self, hole: str) -> Change:
        """Put a peg into ``hole``."""
        with self._lock:
            self._check([hole])
            if hole in self._occupied:
                raise ValueError(f"cannot place in {hole}: it already holds a peg")
            return self._change(hole, True)

    def set(self, occupied: Iterable[str]) -> list[Change]:
        """Make the board show exactly ``occupied``: lifts first, then places, in hole order."""
        with self._lock:
            wanted = set(self._check(occupied))
            lifts = [hole for hole in self.hole_names if hole in self._occupied and hole not in wanted]
            places = [hole for hole in self.hole_names if hole in wanted and hole not in self._occupied]
            return [self._change(hole, False) for hole in lifts] + [self._change(hole, True) for hole in places]

    def health(self) -> dict[str, Any]:
        return {**super().health(), "holes": len(self.hole_names)}

    def _change(self, hole: str, occupied: bool) -> Change:
        if self._closed:
            raise RuntimeError("the simulated board is closed")
        (self._occupied.add if occupied else self._occupied.discard)(hole)
        change = Change(hole, occupied, self._clock())
        self._emit([change])
        return change

    def _check(self, holes: Iterable[str]) -> list[str]:
        holes = list(holes)
        for hole in holes:
            if hole not in self._known:
                raise ValueError(f"unknown hole {hole!r}: not on this board")
        return holes

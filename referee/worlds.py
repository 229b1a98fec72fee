"""Which colour is where: every assignment of colours to moved pegs that the lifts and
places allow. The sensors see occupancy only; a lift puts the hole's colour "in hand",
a place takes any colour from the hand, so the order of events tells colours apart.
"""

from __future__ import annotations

from typing import Any

MAX_WORLDS = 256
World = tuple[dict[int, int | None], tuple[int, ...]]  # colour overrides by hole (None = emptied), colours in hand


class Worlds:
    """Every assignment of colours to moved pegs that the lifts and places allow."""

    def __init__(self, worlds: list[World] | None = None) -> None:
        self.worlds: list[World] | None = [({}, ())] if worlds is None else worlds

    def untouched(self) -> bool:
        """No peg lifted or placed since the turn began."""
        return self.worlds == [({}, ())]

    def lift(self, hole: int, base_colour: int | None) -> None:
        if self.worlds is None:
            return
        lifted = []
        for overrides, hand in self.worlds:
            colour = overrides.get(hole, base_colour)
            if colour is None:
                continue
            lifted.append(({**overrides, hole: None}, tuple(sorted((*hand, colour)))))
        self._keep(lifted)

    def place(self, hole: int) -> None:
        if self.worlds is None:
            return
        placed = []
        for overrides, hand in self.worlds:
            for index, colour in enumerate(hand):
                if index and hand[index - 1] == colour:
                    continue
                placed.append(({**overrides, hole: colour}, hand[:index] + hand[index + 1 :]))
        self._keep(placed)

    def _keep(self, worlds: list[World]) -> None:
        unique = {(tuple(sorted(o.items(), key=lambda item: item[0])), h): (o, h) for o, h in worlds}
        self.worlds = list(unique.values()) if len(unique) <= MAX_WORLDS else None
        if self.worlds == []:  # the events contradict every assignment: stop guessing colours
            self.worlds = None

    def to_json(self) -> list[Any] | None:
        if self.worlds is None:
            return None
        return [[sorted([hole, colour] for hole, colour in o.items()), list(h)] for o, h in self.worlds]

    @classmethod
    def from_json(cls, data: list[Any] | None) -> Worlds:
        worlds = cls()
        worlds.worlds = None if data is None else [({int(h): c for h, c in o}, tuple(hand)) for o, hand in data]
        return worlds

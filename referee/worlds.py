"""Which colour is where: every assignment of colours to moved pegs that the lifts and
places allow. The sensors see occupancy only; a lift puts the hole's colour "in hand",
a place takes any colour from the hand, so the order of events tells colours apart.

Some readings are less likely than others: a peg put into another seat's start area, or
a peg of another colour than the one the lights asked for while the board is being put
right. Each reading counts such surprises; the likely readings are those with fewest.
"""

from __future__ import annotations

from typing import Any

MAX_WORLDS = 256
World = tuple[dict[int, int | None], tuple[int, ...], int, int]
"""Colour overrides by hole (None = emptied), the colours in hand, and the surprises so far:
pegs put into another seat's start area, and pegs of another colour than the lights asked for."""


class Worlds:
    """Every assignment of colours to moved pegs that the lifts and places allow."""

    def __init__(self, worlds: list[World] | None = None) -> None:
        self.worlds: list[World] | None = [({}, (), 0, 0)] if worlds is None else worlds

    def untouched(self) -> bool:
        """No peg lifted or placed since the turn began."""
        return self.worlds == [({}, (), 0, 0)]

    def lift(self, hole: int, base_colour: int | None) -> None:
        if self.worlds is None:
            return
        lifted = []
        for overrides, hand, strays, unasked in self.worlds:
            colour = overrides.get(hole, base_colour)
            if colour is None:
                continue
            lifted.append(({**overrides, hole: None}, tuple(sorted((*hand, colour))), strays, unasked))
        self._keep(lifted)

    def place(self, hole: int, owner: int | None = None, asked: int | None = None) -> None:
        """A peg placed in ``hole``: a start hole of ``owner``'s, or where the lights asked
        for ``asked``'s colour."""
        if self.worlds is None:
            return
        placed = []
        for overrides, hand, strays, unasked in self.worlds:
            for index, colour in enumerate(hand):
                if index and hand[index - 1] == colour:
                    continue
                placed.append(
                    (
                        {**overrides, hole: colour},
                        hand[:index] + hand[index + 1 :],
                        strays + int(owner is not None and colour != owner),
                        unasked + int(asked is not None and colour != asked),
                    )
                )
        self._keep(placed)

    def likely(self, trust_lights: bool) -> list[World] | None:
        """The readings with the fewest surprises (counting the lights' only if people have
        been following them)."""
        if not self.worlds:
            return self.worlds
        score = [world[2] + (world[3] if trust_lights else 0) for world in self.worlds]
        fewest = min(score)
        return [world for world, value in zip(self.worlds, score, strict=False) if value == fewest]

    def _keep(self, worlds: list[World]) -> None:
        unique: dict[object, World] = {}
        for world in worlds:  # the same reading reached two ways: keep its likelier way
            key = (tuple(sorted(world[0].items(), key=lambda item: item[0])), world[1])
            if key not in unique or world[2:] < unique[key][2:]:
                unique[key] = world
        self.worlds = list(unique.values()) if len(unique) <= MAX_WORLDS else None
        if self.worlds == []:  # the events contradict every assignment: stop guessing colours
            self.worlds = None

    def to_json(self) -> list[Any] | None:
        if self.worlds is None:
            return None
        return [[sorted([hole, colour] for hole, colour in o.items()), list(h), n, m] for o, h, n, m in self.worlds]

    @classmethod
    def from_json(cls, data: list[Any] | None) -> Worlds:
        worlds = cls()
        worlds.worlds = None if data is None else [_world(item) for item in data]
        return worlds


def _world(item: list[Any]) -> World:
    counts = [int(n) for n in item[2:4]] + [0, 0]
    return {int(h): c for h, c in item[0]}, tuple(item[1]), counts[0], counts[1]

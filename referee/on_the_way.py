"""The legal results a board could still become, and the lights that show the way to them.

A lift asks for the results that change its hole (``Pool``, made lazily by ``referee.turns``);
every later event of the move asks for the same results, narrowed to those that fill every
new peg's hole and change every emptied one. Kept apart from ``referee.tracker`` because it
is the guidance side of the tracker: which holes light as destinations, bumps or the peg
selected, and which steps of a half-made split are down; the tracker judges, this shows.
"""

from __future__ import annotations

from referee.fixes import Role
from referee.movegen import Focus
from referee.moves import Step
from referee.seen import Seen
from referee.turns import IndexedResult, Pool, Reach, Turn
from referee.worlds import Worlds


class OnTheWay:
    """The results on their way for one followed board (``Seen``), and their lights."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        self._landed: dict[int, tuple[list[IndexedResult], int]] = {}  # a pool's landings, by id

    def forget(self) -> None:
        """A new turn: the landings kept with the last turn's pools no longer count."""
        self._landed = {}

    def pool(self, turn: Turn, worlds: Worlds, board: int, starts: tuple[int, ...]) -> Pool:
        """The results that could explain this board or be on their way to it: those that
        change its first emptied hole (or else its first new one: a result that explains
        the board changes every hole it differs in), or else a start area whose count
        changed, or else, the board looking as the turn began, a hole a peg was lifted
        from or put in. The lift and the place of one move ask for the same results."""
        physical = self.seen.physical
        emptied, new = turn.mask & ~board, board & ~turn.mask
        if emptied or new:
            return turn.changing([physical.holes(emptied or new)[0]])
        sides = [side for side, (now, before) in enumerate(zip(starts, turn.starts, strict=False)) if now != before]
        if sides:
            return turn.changing(starts=sides[:1])
        if worlds.worlds is None:
            return turn.every()  # colours lost track of: any result that keeps this board
        handled = {hole for world in worlds.worlds for hole in world[0]}
        sides = [seat for seat in map(physical.seat_of_start, handled) if seat is not None]
        return turn.changing([hole for hole in handled if hole < self.seen.physical.board.board_holes], sides)

    def on_the_way(self, turn: Turn, pool: Pool, board: int, starts: tuple[int, ...]) -> list[IndexedResult]:
        """Results this board could still become: every new peg is where the result has one,
        every emptied hole is one the move changes, start counts between before and after."""
        new, emptied = self.seen.physical.holes(board & ~turn.mask), self.seen.physical.holes(turn.mask & ~board)
        if not (new or emptied or starts != turn.starts):
            return []
        if starts == turn.starts:
            if not new and pool.focus == Focus.of(emptied):
                return pool  # one peg lifted: every result that changes its hole
            return [c for c in pool if c.fills(new) and c.changes(emptied)]
        return [
            c
            for c in pool
            if c.fills(new)
            and c.changes(emptied)
            and all(min(a, b) <= s <= max(a, b) for s, a, b in zip(starts, turn.starts, c.starts, strict=False))
        ]

    def guide(
        self, turn: Turn, worlds: Worlds, candidates: list[IndexedResult], board: int, starts: tuple[int, ...]
    ) -> dict[str, Role]:
        physical = self.seen.physical
        guidance: dict[str, Role] = {}
        reach = candidates.reach if isinstance(candidates, Pool) else Reach.of(candidates, turn.before.ones)
        needed, bumps = reach.fills & ~board, reach.bumps & ~board
        for hole in physical.holes(self.seen.turn_start & ~self.seen.occupied):
            guidance[physical.name(hole)] = "selected"
        for hole in physical.holes(needed & ~bumps | self._landings(turn, worlds, candidates, board)):
            guidance[physical.name(hole)] = "destination"
        for hole in physical.holes(needed & bumps):
            guidance[physical.name(hole)] = "bump"
        for seat, now in enumerate(starts):
            if reach.starts_up >> seat & 1 if starts == turn.starts else any(c.starts[seat] > now for c in candidates):
                for hole in physical.start_holes(seat):
                    if not self.seen.occupied & (1 << (8 * hole)):
                        guidance[physical.name(hole)] = "bump"
        return guidance

    def _landings(self, turn: Turn, worlds: Worlds, candidates: list[IndexedResult], board: int) -> int:
        """Holes still holding the peg they held when the turn began that a result lands on,
        bumping it or swapping with it: legal destinations too (a 5 onto an opponent's peg,
        the joker's targets), though no empty hole. The landings of a lift's pool are kept
        with it for the rest of the turn."""
        if worlds.worlds is None:
            return 0  # colours lost track of: which peg stands where is not known
        cached = self._landed.get(id(candidates))
        if cached is not None and cached[0] is candidates:
            lands = cached[1]
        else:
            lands = _landing_mask(candidates, turn.before.size)
            if isinstance(candidates, Pool):
                self._landed[id(candidates)] = (candidates, lands)
        colour = turn.position.colour_at
        handled = {
            h for world in worlds.worlds for h, seat in world[0].items() if h >= turn.before.size or seat != colour(h)
        }
        handled_mask = sum(1 << (8 * hole) for hole in handled)  # holes whose peg may have changed
        return lands & board & turn.mask & ~handled_mask

    def step_down(self, turn: Turn, step: Step, board: int, starts: tuple[int, ...], placed: set[int]) -> bool:
        """Whether the board shows ``step`` made: its peg gone from where it stood, one in its
        target (a hole that held a peg then must have been filled again this turn)."""
        size = turn.before.size
        if step.source >= size:
            gone = starts[step.source - size] < turn.starts[step.source - size]
        else:
            gone = not board >> (8 * step.source) & 1
        if step.target >= size or not board >> (8 * step.target) & 1:
            return False
        return gone and (not turn.mask >> (8 * step.target) & 1 or step.target in placed)


def _landing_mask(results: list[IndexedResult], size: int) -> int:
    """The board holes some result's step lands on while a peg stands there (a bump, a swap)."""
    lands = 0
    for result in results:
        for step in result.steps:
            if (step.bumps or step.swap) and step.target < size:
                lands |= 1 << (8 * step.target)
    return lands

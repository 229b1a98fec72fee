"""Legal move generation.

``legal_moves(position, card, rules)`` lazily yields one :class:`Move` per distinct
resulting position. Every option of the card's :class:`CardPower` is tried: come out,
each forward and backward count, splits, swaps and jokers.

Splits are the expensive part: a North Carolina ten on a crowded eight-sided board
has tens of thousands of ordered part pairs. Each possible part is evaluated once on
the starting position, recording which holes it *reads* (its path, landing and any
in-spots a bump chain looks at) and which it *writes*. Two parts that do not touch
each other's reads commute, and their result is the starting position plus both
changes: a single integer addition, because a position's occupancy is one integer.
Only the few pairs that interact (the second part starts from, passes or lands where
the first changed something, or moves a peg the first bumped) are replayed.

A caller that needs only part of the list says which holes and start areas it cares
about (a :class:`Focus`): a lifted peg needs only the moves that touch its hole. Parts
that touch nothing in focus are then paired only with parts that do, so the work
follows the answer's size, not the whole list's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from referee.board import Board, HomeMode, Path
from referee.cards import parse_card
from referee.moves import Bump, Move, NotationError, Step, parse_notation
from referee.position import Position
from referee.rulesets import Ruleset, Split

Result = tuple[int, tuple[Step, ...]]  # (occupancy key of the result, steps)
_Group = tuple[bool, int]  # the split parts made alike: (forward, amount)


@dataclass(frozen=True, slots=True)
class Focus:
    """The holes (a bit per board hole) and start areas (a bit per side) a caller cares
    about. A move *touches* a hole when one of its steps empties it, lands on it or sends
    a bumped peg there, and a start area when a step takes a peg out of it or sends one
    back. Every move that changes a hole touches it; a move may touch a hole and leave it
    as it was (a split's second part landing where the first left)."""

    holes: int = 0
    starts: int = 0

    @classmethod
    def of(cls, holes: Iterable[int] = (), starts: Iterable[int] = ()) -> Focus:
        return cls(sum(1 << hole for hole in set(holes)), sum(1 << side for side in set(starts)))


def legal_moves(position: Position, card: str, rules: Ruleset, touching: Focus | None = None) -> Iterator[Move]:
    """Every legal move of the seat to play with ``card``, one per distinct result; with
    ``touching``, only the moves that touch it (every one of those that changes it; a
    result reached in two ways may be named by the other way)."""
    card = parse_card(card)
    seen: set[int] = set()
    for key, steps in _Generator(position, rules, touching).results(card, both_orders=False):
        if key not in seen:
            seen.add(key)
            yield Move(card, steps, position, key)


def results_touching(
    position: Position, card: str, rules: Ruleset, touching: Focus | None, free: bool = False
) -> Iterator[Result]:
    """``legal_moves`` (or with ``free``, ``free_come_outs``) as bare (result key, steps)
    pairs, possibly repeating a result: for callers that build moves only when needed."""
    generator = _Generator(position, rules, touching)
    if free:
        return generator._come_outs() if generator.movers else iter(())
    return generator.results(parse_card(card), both_orders=False)


def parse_move(position: Position, text: str, rules: Ruleset) -> Move:
    """The legal move that ``text`` names, steps in the order written. Only moves that
    touch its first step's hole are generated: parsing is cheap even for a crowded ten."""
    card, wanted = parse_notation(text, position.board)
    board = position.board
    source = wanted[0][0]
    focus = Focus.of(starts=[source - board.board_holes]) if source >= board.board_holes else Focus.of([source])
    for key, steps in _Generator(position, rules, focus).results(card, both_orders=True):
        if tuple((step.source, step.target, step.swap) for step in steps) == wanted:
            return Move(card, steps, position, key)
    raise NotationError(f"{text!r} is not a legal move for seat {position.turn} under {rules.name} rules")


def free_come_outs(position: Position, card: str, rules: Ruleset, touching: Focus | None = None) -> Iterator[Move]:
    """Counting (NC rule 9): "after discarding any card you must move one of your pegs to
    your 'come out' hole for free". ``card`` is the card discarded for it."""
    generator = _Generator(position, rules, touching)
    if generator.movers:
        for key, steps in generator._come_outs():
            yield Move(parse_card(card), steps, position, key)


def mover_seats(position: Position, rules: Ruleset) -> tuple[int, ...]:
    """Whose pegs the seat to play moves: its own until all are home, then the next partner
    clockwise who still has pegs out (the rules page, "Endgame"), or the whole team (Arizona Rules, rule 2)."""
    board = position.board
    team = board.partners_clockwise(position.turn)
    if rules.movers == "team":
        return team
    for seat in team:
        if not position.all_home(seat):
            return (seat,)
    return ()


@dataclass(slots=True)
class _State:
    """A position being generated from: occupancy, its integer key, and a hole mask per colour."""

    occupancy: bytes
    key: int
    masks: list[int]

    @classmethod
    def of(cls, position: Position) -> _State:
        return cls(position.occupancy, position.key, list(position.colour_masks))

    def after(self, effect: _Effect) -> _State:
        occupancy = bytearray(self.occupancy)
        masks = list(self.masks)
        for hole, new in effect.changes:
            old = occupancy[hole]
            if old:
                masks[old - 1] &= ~(1 << hole)
            if new:
                masks[new - 1] |= 1 << hole
            occupancy[hole] = new
        return _State(bytes(occupancy), self.key + effect.delta, masks)


@dataclass(slots=True)
class _Effect:
    """A legal step on some state, and exactly what it changes there."""

    step: Step
    delta: int
    changes: tuple[tuple[int, int], ...]  # (hole, new colour byte)
    writes: int
    starts: int  # sides whose start area the step takes a peg from or sends one to
    relocated: tuple[int, ...]  # in-spots where bumped team pegs now sit (movable by a second part)


@dataclass(slots=True)
class _Attempt:
    """One way one peg could use one part of a split, evaluated on the starting position."""

    index: int
    source: int
    colour: int
    path: Path
    reads: int
    effect: _Effect | None


class _Generator:
    def __init__(self, position: Position, rules: Ruleset, focus: Focus | None = None) -> None:
        self.position = position
        self.rules = rules
        self.board: Board = position.board
        self.team = frozenset(self.board.team_of[position.turn])
        self.movers = mover_seats(position, rules)
        self.home_mode: HomeMode = rules.home_entry
        self.base = _State.of(position)
        self.board_holes = self.board.board_holes
        self.focus = focus

    def _touches(self, effect: _Effect) -> bool:
        focus = self.focus
        return focus is None or bool(effect.writes & focus.holes or effect.starts & focus.starts)

    @cached_property
    def _chain_colours(self) -> frozenset[int]:
        """The colour bytes a step may land on and so touch the focus further along its
        bump chain: an opponent whose start area is in focus, and a team colour whose
        in-spot is in focus or holds a peg the chain would bump on."""
        board, occupancy, focus = self.board, self.base.occupancy, self.focus
        opponents = {seat + 1 for seat in board.seats if seat not in self.team and focus and focus.starts >> seat & 1}
        if focus is None or not (opponents or any(focus.holes >> board.in_spot(seat) & 1 for seat in self.team)):
            return frozenset()  # a chain writes only in-spots and start areas
        team = {
            seat + 1 for seat in self.team if focus.holes >> board.in_spot(seat) & 1 or occupancy[board.in_spot(seat)]
        }
        return frozenset(opponents | team)

    def _may_touch(self, source: int, landing: int) -> bool:
        """Whether a step from ``source`` landing on ``landing`` can touch the focus at all
        (a cheap test before evaluating it on the starting position)."""
        focus = self.focus
        if focus is None or (1 << source | 1 << landing) & focus.holes:
            return True
        if source >= self.board_holes and focus.starts >> (source - self.board_holes) & 1:
            return True
        return self.base.occupancy[landing] in self._chain_colours

    # -- the card's options -------------------------------------------------------

    def results(self, card: str, both_orders: bool) -> Iterator[Result]:
        if not self.movers:
            return
        power = self.rules.power(card)
        if power.come_out:
            yield from self._come_outs()
        for amount in power.forward:
            yield from self._singles(True, amount)
        for amount in power.backward:
            yield from self._singles(False, amount)
        if power.split:
            yield from self._splits(power.split, both_orders)
        if power.swap:
            yield from self._swaps()
        if power.joker:
            yield from self._jokers()

    def _come_outs(self) -> Iterator[Result]:
        base, board = self.base, self.board
        for seat in self.movers:
            if self.position.in_start(seat):
                path = Path.of(board.come_out(seat), ())
                effect, _ = self._evaluate(base, board.start(seat), seat, path)
                if effect and self._touches(effect):
                    yield base.key + effect.delta, (effect.step,)

    def _singles(self, forward: bool, amount: int) -> Iterator[Result]:
        base = self.base
        for source, colour, may_home in self._pegs(base, self.movers, any_peg=False):
            for path in self._paths(source, colour, may_home, forward, amount):
                if not self._may_touch(source, path.landing):
                    continue
                effect, _ = self._evaluate(base, source, colour, path)
                if effect and self._touches(effect):
                    yield base.key + effect.delta, (effect.step,)

    def _swaps(self) -> Iterator[Result]:
        """North Carolina rule 5: "exchange the positions of any two different coloured
        marbles/pegs that are on the main track"."""
        occupancy, key = self.base.occupancy, self.base.key
        on_track = [(hole, occupancy[hole]) for hole in range(self.board.track_length) if occupancy[hole]]
        holes = self.focus.holes if self.focus is not None else -1
        for (a, colour_a), (b, colour_b) in combinations(on_track, 2):
            if colour_a != colour_b and (holes >> a | holes >> b) & 1:
                delta = ((colour_b - colour_a) << (8 * a)) + ((colour_a - colour_b) << (8 * b))
                yield key + delta, (Step(a, b, swap=True),)

    def _jokers(self) -> Iterator[Result]:
        """Any peg of yours (Arizona: from start first) onto another colour's peg on the
        main track (the rules page, "When you play a joker ..."; Arizona Rules, rule 6)."""
        base, board, position = self.base, self.board, self.position
        if self.rules.joker_from == "team-start-first":
            seats = tuple(board.partners_clockwise(position.turn))
            starters = [seat for seat in seats if position.in_start(seat)]
            sources = [(board.start(seat), seat) for seat in starters]
            if not starters:
                sources = [(hole, seat) for seat in seats for hole in position.on_board(seat) if board.is_track(hole)]
        else:
            sources = [(board.start(seat), seat) for seat in self.movers if position.in_start(seat)]
            sources += [
                (hole, seat) for seat in self.movers for hole in position.on_board(seat) if board.is_track(hole)
            ]
        targets = [(hole, base.occupancy[hole] - 1) for hole in range(board.track_length) if base.occupancy[hole]]
        for source, colour in sources:
            for target, target_colour in targets:
                if target_colour != colour and self._may_touch(source, target):
                    effect, _ = self._evaluate(base, source, colour, Path.of(target, ()))
                    if effect and self._touches(effect):
                        yield base.key + effect.delta, (effect.step,)

    # -- splits ---------------------------------------------------------------------

    def _splits(self, split: Split, both_orders: bool) -> Iterator[Result]:
        """Two parts on two different pegs, one after the other, in either order."""
        groups = split.parts()
        attempts = {group: self._attempts(split, *group) for group in {g for pair in groups for g in pair}}
        chains = sum(1 << self.board.in_spot(seat) for seat in self.team)
        indexes = {
            group: _Index(found, self.focus, self._touches, chains, self._chain_colours, self.base.occupancy)
            for group, found in attempts.items()
        }
        pairs = self._focused_pairs if self.focus is not None else self._pairs
        # (independent, once): the first pass yields the independent pairs too, a group with
        # itself each once; the reversed pass only the interacting ones, unless both orders.
        for first, second in groups:
            same = first == second
            yield from pairs(split, attempts[first], second, indexes[second], True, same and not both_orders)
            if not same:
                yield from pairs(split, attempts[second], first, indexes[first], both_orders, False)

    def _attempts(self, split: Split, forward: bool, amount: int) -> list[_Attempt]:
        base, found = self.base, list[_Attempt]()
        for source, colour, may_home in self._pegs(base, self.movers, split.any_peg):
            for path in self._paths(source, colour, may_home, forward, amount):
                effect, reads = self._evaluate(base, source, colour, path)
                found.append(_Attempt(len(found), source, colour, path, reads, effect))
        return found

    def _pairs(
        self, split: Split, firsts: list[_Attempt], second_group: _Group, seconds: _Index, independent: bool, once: bool
    ) -> Iterator[Result]:
        """Every result of a part from ``firsts`` followed by a part from ``second_group``: those
        that interact always (their results depend on the order), the independent ones (whose
        changes just add up) only if ``independent`` (a group's first pass, or both orders asked
        for); ``once``: a group paired with itself yields each independent pair once."""
        base = self.base
        for first in firsts:
            effect = first.effect
            if effect is None:
                continue
            if self._movers_change(split, effect):
                yield from self._after_last_home(split, effect, second_group, True)
                continue
            after: _State | None = None
            replays, adds, commuting = seconds.pairing(first, effect, independent, once)
            # The second part reads a hole the first changed: replay it after the first.
            for second in replays:
                after = after or base.after(effect)
                replayed, _ = self._evaluate(after, second.source, second.colour, second.path)
                if replayed:
                    yield after.key + replayed.delta, (effect.step, replayed.step)
            # The second changes what the first read: in this order both changes still add up.
            for second in adds:
                assert second.effect is not None
                yield base.key + effect.delta + second.effect.delta, (effect.step, second.effect.step)
            yield from self._relocated(split, effect, second_group, True)
            # Independent parts commute: their changes add up.
            delta = base.key + effect.delta
            for second in commuting:
                yield delta + second.effect.delta, (effect.step, second.effect.step)  # type: ignore[union-attr]

    def _focused_pairs(
        self, split: Split, firsts: list[_Attempt], second_group: _Group, seconds: _Index, independent: bool, once: bool
    ) -> Iterator[Result]:
        """``_pairs`` for a focus: the pairs where either part touches it (as made, after
        the first). A first part that does not is paired only with the few seconds that
        may; each second is classified as the indexed path would (replay, add, independent).
        This loop runs once per part of the board, so it is written for speed."""
        assert self.focus is not None
        base, base_key, holes, starts = self.base, self.base.key, self.focus.holes, self.focus.starts
        movers_may_change = self._movers_may_change(split)
        maybe, chained = seconds.maybe, bool(seconds.by_landing)
        maybe_reads, maybe_writes = seconds.maybe_reads, seconds.maybe_writes
        for first in firsts:
            effect = first.effect
            if effect is None:
                continue
            writes = effect.writes
            hit = bool(writes & holes or effect.starts & starts)
            if movers_may_change and self._movers_change(split, effect):
                yield from self._after_last_home(split, effect, second_group, hit)
                continue
            if effect.relocated:
                yield from self._relocated(split, effect, second_group, hit)
            if hit:
                candidates = seconds.attempts
            elif not (independent or maybe_reads & writes or maybe_writes & first.reads or chained):
                continue  # in this order only interacting pairs count, and none may touch the focus
            else:
                candidates = seconds.candidates(effect) if chained else maybe
            skip_below = first.index if once else -1
            after_first: _State | None = None
            for second in candidates:
                if second.reads & writes:  # replay it after the first
                    if (1 << second.source) & writes:
                        continue  # that peg was moved or bumped by the first part
                    after_first = after_first or base.after(effect)
                    replayed, _ = self._evaluate(after_first, second.source, second.colour, second.path)
                    if replayed and (hit or replayed.writes & holes or replayed.starts & starts):
                        yield after_first.key + replayed.delta, (effect.step, replayed.step)
                    continue
                alone = second.effect
                if alone is None or second.source == first.source:
                    continue
                if not (hit or alone.writes & holes or alone.starts & starts):
                    continue
                if alone.writes & first.reads or independent and second.index >= skip_below:
                    yield base_key + effect.delta + alone.delta, (effect.step, alone.step)

    def _after_last_home(self, split: Split, effect: _Effect, second_group: _Group, hit: bool) -> Iterator[Result]:
        """The second parts after a first that took the seat's last peg home: they move the
        partner's pegs now (``_movers_change``), so they are made on the state after it."""
        after = self.base.after(effect)
        movers = mover_seats(self.position._derived(after.occupancy), self.rules)
        for second in self._attempts_on(after, split, movers, second_group, effect.step.target, None):
            if hit or self._touches(second):
                yield after.key + second.delta, (effect.step, second.step)

    def _relocated(self, split: Split, effect: _Effect, second_group: _Group, hit: bool) -> Iterator[Result]:
        """A team peg the first part sent to its in-spot may make the second part."""
        if effect.relocated:
            after = self.base.after(effect)
            colours = self._movable_colours(split)
            for second in self._attempts_on(after, split, colours, second_group, None, effect.relocated):
                if hit or self._touches(second):
                    yield after.key + second.delta, (effect.step, second.step)

    def _movers_may_change(self, split: Split) -> bool:
        """North Carolina rule 2: a split that takes your last peg home goes on with the partner's."""
        if split.any_peg or not self.rules.split_into_partner or self.rules.movers == "team":
            return False
        (seat,) = self.movers
        return self.position.in_home(seat) == 4

    def _movers_change(self, split: Split, effect: _Effect) -> bool:
        """This first part takes the last peg home (``_movers_may_change``)."""
        step, board = effect.step, self.board
        return self._movers_may_change(split) and board.is_home(step.target) and not board.is_home(step.source)

    def _movable_colours(self, split: Split) -> tuple[int, ...]:
        return tuple(self.board.seats) if split.any_peg else self.movers

    def _attempts_on(
        self,
        state: _State,
        split: Split,
        seats: Iterable[int],
        group: _Group,
        exclude: int | None,
        only: tuple[int, ...] | None,
    ) -> Iterator[_Effect]:
        """Second parts evaluated on a state after the first part (the slow path). ``only``:
        the in-spots where bumped team pegs now sit (team pegs may always go home)."""
        forward, amount = group
        pegs: Iterable[tuple[int, int, bool]]
        if only is None:
            pegs = self._pegs(state, seats, split.any_peg)
        else:  # in the order _pegs would give them
            order = list(seats)
            pegs = sorted(
                ((hole, state.occupancy[hole] - 1, True) for hole in only if state.occupancy[hole] - 1 in order),
                key=lambda peg: (order.index(peg[1]), peg[0]),
            )
        for source, colour, may_home in pegs:
            if source == exclude:
                continue
            for path in self._paths(source, colour, may_home, forward, amount):
                effect, _ = self._evaluate(state, source, colour, path)
                if effect:
                    yield effect

    # -- one peg ------------------------------------------------------------------

    def _pegs(self, state: _State, seats: Iterable[int], any_peg: bool) -> Iterator[tuple[int, int, bool]]:
        """(hole, colour, may enter home) for each peg on the board a part may move.

        With ``any_peg`` (the North Carolina ten) that is every peg on the board except
        opponents' pegs in their home, and opponents' pegs stay on the main track.
        """
        board = self.board
        holes = self._holes_by_seat(state)
        if any_peg:
            track = board.track_length
            for seat in board.seats:
                own_team = seat in self.team
                for hole in holes[seat]:
                    if own_team or hole < track:
                        yield hole, seat, own_team
            return
        for seat in seats:
            for hole in holes[seat]:
                yield hole, seat, True

    def _holes_by_seat(self, state: _State) -> dict[int, tuple[int, ...]]:
        if state is self.base:
            return self.position.holes_by_seat
        return self.position._derived(state.occupancy).holes_by_seat

    def _paths(self, source: int, colour: int, may_home: bool, forward: bool, amount: int) -> tuple[Path, ...]:
        board = self.board
        if not forward:
            path = board.backward(source, amount)
            return (path,) if path else ()
        paths = board.forward(source, amount, colour, self.home_mode)
        if not may_home:
            paths = tuple(path for path in paths if board.is_track(path.landing))
        return paths

    def _evaluate(self, state: _State, source: int, colour: int, path: Path) -> tuple[_Effect | None, int]:
        """Move one peg along ``path`` on ``state``: its effect (None if illegal) and the holes read.

        No landing on or passing a peg of the same colour (the rules page, "Movement of pegs -
        general rules": "You may never land on or pass over a hole occupied by one of your own
        pegs"). A peg landed on goes to start if it is an opponent's, or to its in-spot if it
        is the team's, which is illegal when a peg of its colour is already there (the rules
        page: "It is illegal to land on your partner's peg if that partner already has a peg on
        his or her own in-spot"); another colour there is bumped in turn (the "chain reaction"
        of the rules page's Notes on Strategy, note 3). Team and opponent are the player's
        (North Carolina Rules, rule 8).
        """
        reads = path.mask | (1 << source)
        if path.mask & state.masks[colour]:
            return None, reads
        occupancy = state.occupancy
        landing = path.landing
        changes = {landing: colour + 1}
        if source < self.board_holes:
            changes[source] = 0
        bumps: list[Bump] = []
        relocated: list[int] = []
        if occupancy[landing]:  # a chain only when the landing is taken: most are empty
            legal, chain_reads = self._bump_chain(occupancy, colour, landing, changes, bumps, relocated)
            reads |= chain_reads
            if not legal:
                return None, reads
        delta = writes = 0
        for changed, new in changes.items():
            delta += (new - occupancy[changed]) << (8 * changed)
            writes |= 1 << changed
        starts = 1 << colour if source >= self.board_holes else 0
        if bumps and bumps[-1].target >= self.board_holes:
            starts |= 1 << bumps[-1].seat
        step = Step(source, landing, tuple(bumps))
        return _Effect(step, delta, tuple(changes.items()), writes, starts, tuple(relocated)), reads

    def _bump_chain(
        self,
        occupancy: bytes,
        colour: int,
        landing: int,
        changes: dict[int, int],
        bumps: list[Bump],
        relocated: list[int],
    ) -> tuple[bool, int]:
        """Bump the peg on ``landing`` and every peg the chain lands on after it, adding to
        ``changes``, ``bumps`` and ``relocated``: whether the chain is legal, and the
        in-spots it read (``_evaluate``'s docstring gives the rules)."""
        board, team = self.board, self.team
        reads = 0
        mover_at = landing
        hole, occupant = landing, occupancy[landing]
        while occupant:
            seat = occupant - 1
            if seat not in team:
                bumps.append(Bump(seat, hole, board.start(seat)))
                break
            moving_mover = bool(bumps) and hole == mover_at and occupant == colour + 1
            target = board.in_spot(seat)
            reads |= 1 << target
            current = changes.get(target, occupancy[target])
            if target == hole or current == occupant:
                return False, reads
            bumps.append(Bump(seat, hole, target))
            changes[target] = occupant
            if moving_mover:
                mover_at = target
            else:
                relocated.append(target)
            hole, occupant = target, current
        return True, reads


class _Index:
    """The parts of one split group, and how a first part pairs with them.

    The whole list indexes the parts by the holes they read and write, so a first part
    finds the few it interacts with at once. A focused list keeps instead the few parts
    that may touch the focus: those that do on the starting position, those starting or
    landing in it, and (when it holds a team in-spot, where a bump chain may send a team
    peg) those landing where a peg's chain may lead there: a peg the first part put there,
    or one the part could not reach at first. (A part that could, landing where the first
    changed nothing, bumps there as it did at first.) A first part that touches nothing in
    focus is paired only with those.
    """

    def __init__(
        self,
        attempts: list[_Attempt],
        focus: Focus | None,
        touches: Callable[[_Effect], bool],
        chains: int,
        chain_colours: frozenset[int],
        occupancy: bytes,
    ) -> None:
        """``chains``: the team's in-spots; ``chain_colours``: the colour bytes a part may
        land on and so touch the focus further along its bump chain."""
        self.attempts = attempts
        self.legal = [attempt for attempt in attempts if attempt.effect]
        self.focused = focus is not None
        self.readers: dict[int, list[_Attempt]] = {}
        self.writers: dict[int, list[_Attempt]] = {}
        self.by_landing: dict[int, list[_Attempt]] = {}
        self.chains, self.chain_colours = chains, chain_colours
        if focus is not None:
            self.maybe = [
                attempt
                for attempt in attempts
                if (1 << attempt.source | 1 << attempt.path.landing) & focus.holes
                or attempt.effect is not None
                and touches(attempt.effect)
                or attempt.effect is None
                and occupancy[attempt.path.landing] in chain_colours
            ]
            if chain_colours:
                for attempt in attempts:
                    self.by_landing.setdefault(attempt.path.landing, []).append(attempt)
            self.maybe_indexes = {attempt.index for attempt in self.maybe}
            self.maybe_reads = self.maybe_writes = 0
            for attempt in self.maybe:
                self.maybe_reads |= attempt.reads
                self.maybe_writes |= attempt.effect.writes if attempt.effect else 0
            return
        for attempt in attempts:
            for hole in _holes(attempt.reads):
                self.readers.setdefault(hole, []).append(attempt)
            if attempt.effect:
                for hole in _holes(attempt.effect.writes):
                    self.writers.setdefault(hole, []).append(attempt)

    def candidates(self, effect: _Effect) -> list[_Attempt]:
        """Focused: the seconds that may touch the focus after a first part with ``effect``
        that does not: ``maybe``, and those landing where it put a peg whose chain may lead
        there (all of them if it changed a team in-spot)."""
        if not self.by_landing:
            return self.maybe
        if effect.writes & self.chains:
            return self.attempts
        more = [
            attempt
            for hole, new in effect.changes
            if new in self.chain_colours
            for attempt in self.by_landing.get(hole, ())
            if attempt.index not in self.maybe_indexes
        ]
        return self.maybe + more if more else self.maybe

    def pairing(
        self, first: _Attempt, effect: _Effect, independent: bool, once: bool
    ) -> tuple[list[_Attempt], list[_Attempt], Iterable[_Attempt]]:
        """The second parts for ``first`` (whose effect is ``effect``): those to replay after
        it, those whose change adds to it, and (if ``independent``) the independent ones
        (``once``: only those after it in the group, a group paired with itself)."""
        handled: set[int] = set()
        replays, adds = [], []
        for hole in _holes(effect.writes):
            for second in self.readers.get(hole, ()):
                if second.index not in handled:
                    handled.add(second.index)
                    if not (1 << second.source) & effect.writes:  # else that peg was moved or bumped by the first
                        replays.append(second)
        for hole in _holes(first.reads):
            for second in self.writers.get(hole, ()):
                if second.index not in handled and second.source != first.source:
                    handled.add(second.index)
                    adds.append(second)
        if not independent:
            return replays, adds, ()
        skip_below = first.index if once else -1
        commuting = (
            second
            for second in self.legal
            if second.index not in handled and second.source != first.source and second.index >= skip_below
        )
        return replays, adds, commuting


def _holes(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low

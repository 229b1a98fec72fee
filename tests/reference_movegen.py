"""A slow, literal reference move generator, to check ``referee/movegen.py`` against.

Deliberately naive: every peg has an identity, every move is walked hole by hole, and
a split literally plays part 1 on a copy of the pegs and then part 2 on the result.
It only borrows the board's *geometry* (in-spot, come-out, home holes, teams); the
paths are walked here, not taken from ``Board.forward`` / ``Board.backward``.

Rule texts quoted below (docs/rules.md lists them): the rules page, and the rules page,
numbered version.
"""

from __future__ import annotations

from collections.abc import Collection

from referee.board import Board
from referee.card_powers import Split
from referee.position import Position
from referee.rulesets import Ruleset

START = -1  # where a peg waiting in its start area "is"
FORWARD, BACKWARD = "forward", "backward"

Peg = tuple[int, int]  # (seat, number 0..4): a peg with an identity
Pegs = dict[Peg, int]  # peg -> hole index, or START


def reference_results(position: Position, card: str, rules: Ruleset) -> set[bytes]:
    """The distinct occupancies after every legal move of ``position.turn`` with ``card``."""
    board, player = position.board, position.turn
    team = set(board.team_of[player])
    pegs = _pegs_of(position)
    power = rules.power(card)
    results: list[Pegs] = []

    movers = _movers(board, player, rules, pegs)
    if not movers:  # own-then-partner and the whole team is home: nothing moves
        return set()

    # Come out (the rules page, numbered version, effects of individual cards):
    # "you must play a jack, queen, king, ace (to move it to its 'come out' hole)".
    if power.come_out:
        for seat in movers:
            waiting = [peg for peg in pegs if peg[0] == seat and pegs[peg] == START]
            if waiting:
                after = dict(pegs)
                if _land(board, team, after, waiting[0], board.come_out(seat)):
                    results.append(after)

    # Whole-card moves of one mover peg, forward or backward.
    for direction, amounts in ((FORWARD, power.forward), (BACKWARD, power.backward)):
        for steps in amounts:
            for peg in _on_board(pegs, movers):
                results += _part(board, team, rules, pegs, peg, steps, direction)

    if power.split:
        results += _splits(board, player, team, rules, pegs, power.split)

    # Swap (NC rule 5): "exchange the positions of any two different coloured marbles/pegs
    # that are on the main track (not in the start or home areas)".
    if power.swap:
        track = [peg for peg in pegs if board.is_track(pegs[peg])]
        for one in track:
            for other in track:
                if one[0] < other[0]:  # different colours, each unordered pair once
                    after = dict(pegs)
                    after[one], after[other] = pegs[other], pegs[one]
                    results.append(after)

    if power.joker:
        results += _jokers(board, team, rules, pegs, movers)

    return {_occupancy(board, after) for after in results}


# -- pegs -------------------------------------------------------------------------


def _pegs_of(position: Position) -> Pegs:
    """Read the occupancy bytes directly; the rest of each seat's five pegs wait in start."""
    board = position.board
    pegs: Pegs = {}
    for seat in board.seats:
        holes = [hole for hole, byte in enumerate(position.occupancy) if byte == seat + 1]
        holes += [START] * (5 - len(holes))
        for number, hole in enumerate(holes):
            pegs[(seat, number)] = hole
    return pegs


def _occupancy(board: Board, pegs: Pegs) -> bytes:
    occupancy = bytearray(board.board_holes)
    for (seat, _), hole in pegs.items():
        if hole != START:
            assert occupancy[hole] == 0, "two pegs in one hole"
            occupancy[hole] = seat + 1
    return bytes(occupancy)


def _at(pegs: Pegs, hole: int) -> Peg | None:
    """The peg sitting in ``hole``, if any."""
    for peg, where in pegs.items():
        if where == hole:
            return peg
    return None


def _on_board(pegs: Pegs, seats: Collection[int]) -> list[Peg]:
    return [peg for peg in pegs if peg[0] in seats and pegs[peg] != START]


def _all_home(board: Board, pegs: Pegs, seat: int) -> bool:
    return all(board.is_home(hole) for peg, hole in pegs.items() if peg[0] == seat)


def _movers(board: Board, player: int, rules: Ruleset, pegs: Pegs) -> tuple[int, ...]:
    """Whose pegs the player moves.

    Arizona rule 2: "you may move any of the pegs belonging to your team". Basic game (the rules page,
    Endgame):
    "When, and only when, all five of your pegs are in the home ... you use your turn to
    move the pegs of your left-hand partner ... If left partner's pegs are also all home,
    you move the pegs of the next partner around the table who still has playable pegs."
    """
    if rules.movers == "team":
        return tuple(board.team_of[player])
    for seat in board.partners_clockwise(player):  # the player first, then clockwise
        if not _all_home(board, pegs, seat):
            return (seat,)
    return ()


# -- walking ------------------------------------------------------------------------


def _walks(board: Board, hole: int, steps: int, colour: int, direction: str, home: str) -> list[list[int]]:
    """Every way to walk ``steps`` holes; each walk lists the holes entered, landing last.

    ``home``: "may" (the rules page, general rules: "On reaching its own 'in-spot' a peg may take the branch into its
    safe 'home' track"), "must" (Kilpatrick: "When moving forwards it must turn into its home
    track when it reaches the in-spot and if there is not enough clear space there ... that
    peg cannot be moved") or "never" (NC rule 8: opponents' pegs only on the main track).
    """
    track = board.track_length
    # The rules page, numbered version, effects of individual cards: "you move one of your own pegs
    # that is not in your start area"
    if hole == START:
        return []
    if direction == BACKWARD:
        # The rules page, Endgame: "pegs cannot turn into their home track while moving backwards. Also, pegs
        # that are already in their home areas are not allowed to move backwards."
        if not board.is_track(hole):
            return []
        walk, here = [], hole
        for _ in range(steps):
            here = (here - 1) % track
            walk.append(here)
        return [walk]

    walks: list[list[int]] = []

    def step(walk: list[int], here: int, left: int) -> None:
        if left == 0:
            walks.append(walk)
            return
        if board.is_home(here):  # deeper into home, never past H:5
            depth = board.depth(here)
            if depth < 5:
                step(walk + [board.home(colour, depth + 1)], board.home(colour, depth + 1), left - 1)
            return
        if here == board.in_spot(colour) and home != "never":
            step(walk + [board.home(colour, 1)], board.home(colour, 1), left - 1)
            if home == "must":
                return
        step(walk + [(here + 1) % track], (here + 1) % track, left - 1)

    step([], hole, steps)
    return walks


def _land(board: Board, team: set[int], pegs: Pegs, peg: Peg, hole: int) -> bool:
    """Put ``peg`` in ``hole`` and bump whatever sits there; False if that is illegal.

    The rules page, numbered version, general rules:
    "When a peg lands on an opponent's peg, the opponent's peg is immediately moved back
    to its start area. When a peg lands on a partner's peg, the partner's peg is immediately
    moved to its 'in-spot', provided the partner does not already have a peg there. It is
    illegal to land on your partner's peg if that partner already has a peg on his or her own
    in-spot." Partner/opponent is relative to the player (NC rule 8: "If you 'hit' one of
    your team's pegs it goes to its in spot, even if you hit it using an opponent's peg").
    A partner's peg sent to an in-spot holding another colour bumps that one in turn (the rules
    page, Notes on Strategy, note 3: "a longer 'chain reaction' in which a series of different colored pegs
    displace each other in a single move").
    """
    while True:
        victim = _at(pegs, hole)
        assert victim != peg, "a move never ends where it began"
        if victim is not None and victim[0] == peg[0]:  # own colour: never land on it
            return False
        pegs[peg] = hole
        if victim is None:
            return True
        if victim[0] not in team:
            pegs[victim] = START
            return True
        in_spot = board.in_spot(victim[0])
        if hole == in_spot:  # the partner's peg already sits on its own in-spot
            return False
        peg, hole = victim, in_spot  # ... and its own colour there is caught above


def _part(
    board: Board,
    team: set[int],
    rules: Ruleset,
    pegs: Pegs,
    peg: Peg,
    steps: int,
    direction: str,
    home: str | None = None,
) -> list[Pegs]:
    """Every legal way to move one peg ``steps`` holes; each result is a fresh copy."""
    colour = peg[0]
    home = rules.home_entry if home is None else home
    out = []
    for walk in _walks(board, pegs[peg], steps, colour, direction, home):
        # The rules page, numbered version, general rules:
        # "You may never land on or pass over a hole occupied by one of your own pegs".
        in_the_way = [_at(pegs, hole) for hole in walk]
        if any(other is not None and other[0] == colour for other in in_the_way):
            continue
        after = dict(pegs)
        if _land(board, team, after, peg, walk[-1]):
            out.append(after)
    return out


# -- splits and jokers ----------------------------------------------------------------


def _splits(board: Board, player: int, team: set[int], rules: Ruleset, pegs: Pegs, split: Split) -> list[Pegs]:
    """Two parts ``a + b = total`` on two different pegs, part 2 played after part 1.

    The rules page, effects of individual cards:
    "split the 7 between two of your pegs, moving them 1 and 6, 2 and 5 or 3 and 4
    holes forwards"; Arizona rule 4: "moving one forward and the other backward"; NC rule 8:
    "any two pegs on the board - your own, your partner's or your opponent's, except that
    opponents' pegs can only be moved on the main track ... both forwards, both backwards or
    one forwards and one backwards". NC rule 2: "You can use a split move to take your last
    peg home and move your left hand partner's peg with the remainder."
    """
    directions = {
        "forward": [(FORWARD, FORWARD)],
        "forward-backward": [(FORWARD, BACKWARD), (BACKWARD, FORWARD)],
        "any": [(d1, d2) for d1 in (FORWARD, BACKWARD) for d2 in (FORWARD, BACKWARD)],
    }[split.directions]

    def pool(now: Pegs, movers: tuple[int, ...]) -> list[Peg]:
        if split.any_peg:  # every peg on the board, but not an opponent's peg in its home
            return [p for p in now if now[p] != START and (p[0] in team or board.is_track(now[p]))]
        return _on_board(now, movers)

    def home_rule(peg: Peg) -> str:
        return "never" if split.any_peg and peg[0] not in team else rules.home_entry

    movers = _movers(board, player, rules, pegs)  # fixed at the start of the move ...
    out = []
    for first in range(1, split.total):
        second = split.total - first
        for d1, d2 in directions:
            for peg1 in pool(pegs, movers):
                for middle in _part(board, team, rules, pegs, peg1, first, d1, home_rule(peg1)):
                    # ... unless the remainder may pass to the partner (NC rule 2)
                    movers2 = _movers(board, player, rules, middle) if rules.split_into_partner else movers
                    for peg2 in pool(middle, movers2):
                        if peg2 != peg1:  # "two different pegs", by identity
                            out += _part(board, team, rules, middle, peg2, second, d2, home_rule(peg2))
    return out


def _jokers(board: Board, team: set[int], rules: Ruleset, pegs: Pegs, movers: tuple[int, ...]) -> list[Pegs]:
    """The rules page, numbered version, effects of individual cards:
    "you move any one of your pegs (for example one in the start area) into a hole on
    the main track that is occupied by another player's peg ... A joker cannot be used to move
    to an empty hole". Arizona rule 6: "if your team has any pegs in their start areas, you
    must move one of these pegs ... If your team's start areas are all empty (but only in
    that case), you can move one of your team's pegs from anywhere on the main track".
    """
    if rules.joker_from == "own":
        sources = [p for p in pegs if p[0] in movers and not board.is_home(pegs[p])]
    else:
        sources = [p for p in pegs if p[0] in team and pegs[p] == START]
        if not sources:
            sources = [p for p in pegs if p[0] in team and board.is_track(pegs[p])]
    out = []
    for source in sources:
        for target in pegs:
            if target[0] != source[0] and board.is_track(pegs[target]):
                after = dict(pegs)
                if _land(board, team, after, source, pegs[target]):
                    out.append(after)
    return out

"""Moves in plain words, without hole codes: "Red comes out", "Red moves 5 to Blue's come-out
hole and sends Blue back to start", "Green splits the 7: 3 from Green's corner into home, 4
from the 10th hole past Blue's corner", "Sky blue: Blue's peg moves 8 back" (a partner's peg).

    say(move, names)          # names: seat -> what the table calls it ("Red", "Grandma")
    say(move, names, cards)   # the card not named: the cards that make the move, "Red comes out (an ace or a face card)"
    cards_for(move, rules)    # every card that makes exactly this move in this rule set
    place(board, hole, names) # "Blue's come-out hole", "Red's home (2nd hole)", "the track"

Holes are named the way players name them (the rules page, "Players and Equipment": the
come-out hole, the in-spot, the corners, start and home); a plain track hole is "the track",
counted by the steps it took. The engine knows nothing of colours: the table's names come in as a mapping.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence

from referee import holes
from referee.board import Board
from referee.cards import CARDS, JOKER
from referee.holes import COME_OUT, CORNER, IN_SPOT
from referee.movegen import legal_moves
from referee.moves import Move, Step
from referee.position import Position
from referee.rulesets import Ruleset

Names = Mapping[int, str] | Callable[[int], str]
CARD_WORDS = {"A": "an ace", "J": "a jack", "Q": "a queen", "K": "a king", JOKER: "a joker", "8": "an 8"}
LANDMARKS = {CORNER: "corner", IN_SPOT: "in-spot", COME_OUT: "come-out hole"}  # the track holes players name


def name_of(names: Names, seat: int) -> str:
    if callable(names):
        return names(seat)
    return names.get(seat, f"Seat {seat + 1}")


def place(board: Board, hole: int, names: Names) -> str:
    """Where ``hole`` is, as a player would say it."""
    if board.is_start(hole):
        return f"{name_of(names, hole - board.board_holes)}'s start"
    if board.is_home(hole):
        owner = board.owner(hole)
        return f"{name_of(names, owner if owner is not None else 0)}'s home"
    side, number = holes.track_parts(hole)
    landmark = LANDMARKS.get(number)
    return f"{name_of(names, side)}'s {landmark}" if landmark else "the track"


def travelled(board: Board, step: Step) -> int:
    """Holes travelled by one step, forward (positive) or back (negative)."""
    source, target = step.source, step.target
    if board.is_start(source):
        return 0
    if board.is_home(target) and not board.is_home(source):
        owner = board.owner(target)
        seat = owner if owner is not None else 0
        return (board.in_spot(seat) - source) % board.track_length + board.depth(target)
    if board.is_home(source):
        return board.depth(target) - board.depth(source)
    forward = (target - source) % board.track_length
    return forward if forward <= board.track_length // 2 or step.swap else forward - board.track_length


def _peg_on(board: Board, hole: int, seat: int, names: Names) -> str:
    """A peg the move lands on or swaps with, and where: a joker or a swap may reach any peg,
    so "Green's peg" alone would not tell two of Green's pegs apart."""
    return f"{name_of(names, seat)}'s peg on {hole_words(board.hole_name(hole), names)}"


def _step_words(board: Board, step: Step, names: Names, before: Position) -> str:
    where = place(board, step.target, names)
    if step.swap:
        other = before.colour_at(step.target)
        return f"swaps places with {_peg_on(board, step.target, other if other is not None else 0, names)}"
    if board.is_start(step.source):
        seat = step.source - board.board_holes
        if step.target == board.come_out(seat):
            return "comes out"
        if step.bumps and where == "the track":
            where = _peg_on(board, step.target, step.bumps[0].seat, names)
        return f"comes out onto {where}"
    if step.bumps and where == "the track":
        where = f"{name_of(names, step.bumps[0].seat)}'s peg"
    distance = travelled(board, step)
    if board.is_home(step.target):
        return (
            f"moves {abs(distance)} into home"
            if not board.is_home(step.source)
            else f"moves {abs(distance)} deeper into home"
        )
    if distance < 0:
        return f"moves {-distance} back" + ("" if where == "the track" else f" to {where}")
    return f"moves {distance}" + ("" if where == "the track" else f" to {where}")


def _bump_words(board: Board, move: Move, names: Names) -> list[str]:
    said = []
    for bump in move.bumps:
        victim = name_of(names, bump.seat)
        if board.is_start(bump.target):
            said.append(f"sends {victim}'s peg back to start")
        elif bump.target == board.in_spot(bump.seat):
            said.append(f"sends {victim}'s peg on to its in-spot")
        else:
            said.append(f"sends {victim}'s peg to {place(board, bump.target, names)}")
    return said


def card_word(card: str) -> str:
    """A card as said: "an ace", "a 10", "an 8", "a joker"."""
    return CARD_WORDS.get(card, "a " + card)


FACE_CARDS = ("J", "Q", "K")


def split_words(board: Board, names: Names, seat: int, ways: Iterable[tuple[str, Sequence[Step]]]) -> str:
    """A split half made, as the table says it: "Red: 4 more of the 7"; several ways to
    finish it, each: "Red: 4 more of the 7 or 7 more of the 10". ``ways``: each way's card
    and the steps still to make (``referee.tracker.Tracker.unfinished``)."""
    ordered = sorted(ways, key=lambda way: (CARDS.index(way[0]) if way[0] in CARDS else len(CARDS), way[0]))
    said = dict.fromkeys(
        f"{sum(abs(travelled(board, step)) for step in steps)} more of the {card_word(card).split(' ', 1)[1]}"
        for card, steps in ordered
    )
    return f"{name_of(names, seat)}: {' or '.join(said)}"


def cards_words(cards: Iterable[str]) -> str:
    """Cards as said, the three face cards as one: "an ace or a face card", "a 10 or a face card"."""
    cards = [card for card in CARDS if card in set(cards)]
    if all(card in cards for card in FACE_CARDS):
        at = cards.index(FACE_CARDS[0])
        said = [card_word(card) for card in cards[:at]] + ["a face card"]
        said += [card_word(card) for card in cards if card not in FACE_CARDS and CARDS.index(card) > CARDS.index("K")]
    else:
        said = [card_word(card) for card in cards]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


@functools.lru_cache(maxsize=4096)
def cards_for(move: Move, rules: Ruleset) -> tuple[str, ...]:
    """Every card that makes exactly ``move`` (the same result) in ``rules``, in deck order:
    what a move says of its card when nobody named it. Worked out from the rule set's cards."""
    return tuple(
        card for card in CARDS if any(other.key == move.key for other in legal_moves(move.before, card, rules))
    )


def say(move: Move, names: Names, cards: tuple[str, ...] | None = None) -> str:
    """The whole move in one sentence, no hole codes. ``cards``: when nobody named the card
    (a real table), the cards that could have made the move (``cards_for``): one is named as
    if played, several are said after the move, "(an ace or a face card)"; None: ``move.card``
    was played."""
    named = move.card if cards is None else cards[0] if len(cards) == 1 else None
    board = move.before.board
    mover_seat = _mover(move)
    mover = name_of(names, mover_seat)
    player = name_of(names, move.before.turn)  # who played: a partner's pegs may be the ones moving
    steps = move.steps
    owners = _owners(move)
    if len(set(owners)) > 1 and not any(step.swap for step in steps):  # pegs of two colours (a team's, or any)
        parts = [
            f"{name_of(names, owner)}'s peg {_step_words(board, step, names, move.before)}"
            for owner, step in zip(owners, steps, strict=True)
        ]
        text = f"{player}: " + " and ".join(parts)
    elif len(steps) == 2 and not any(step.swap for step in steps) and named in ("7", "9"):
        whose = "" if mover_seat == move.before.turn else f" with {mover}'s pegs"
        text = f"{player} splits the {named}{whose}: {_split_parts(board, steps, names)}"
    elif mover_seat != move.before.turn:
        text = f"{player}: {mover}'s peg {' and '.join(_step_words(board, step, names, move.before) for step in steps)}"
        if board.is_start(steps[0].source) and named is not None:
            text += f" with {card_word(named)}"
    else:
        parts = [_step_words(board, step, names, move.before) for step in steps]
        if named == JOKER and len(steps) == 1 and not steps[0].swap and not board.is_start(steps[0].source):
            target = place(board, steps[0].target, names)
            if steps[0].bumps and target == "the track":
                target = _peg_on(board, steps[0].target, steps[0].bumps[0].seat, names)
            parts = [f"jumps onto {target}"]
        text = f"{mover} {' and '.join(parts)}"
        if board.is_start(steps[0].source) and named is not None:
            text += f" with {card_word(named)}"
    bumps = _bump_words(board, move, names)
    if bumps:
        text += " and " + " and ".join(bumps)
    if named is None and cards:
        text += f" ({cards_words(cards)})"
    return text


def _split_parts(board: Board, steps: Sequence[Step], names: Names) -> str:
    """Each part of a split and the peg it moved, by where it stood: "3 from Red's come-out
    hole, 4 from the 12th hole past Red's corner into home"."""
    parts = []
    for step in steps:
        distance = travelled(board, step)
        where = " into home" if board.is_home(step.target) and not board.is_home(step.source) else ""
        where = " deeper into home" if board.is_home(step.source) else " back" if distance < 0 else where
        parts.append(f"{abs(distance)} from {hole_words(board.hole_name(step.source), names)}{where}")
    return ", ".join(parts)


def _owners(move: Move) -> list[int]:
    """The colour of the peg each step moves (a later step may move the peg an earlier one moved)."""
    board, owners = move.before.board, list[int]()
    for n, step in enumerate(move.steps):
        earlier = [owners[k] for k in range(n) if move.steps[k].target == step.source]
        colour = (
            move.before.colour_at(step.source) if not board.is_start(step.source) else step.source - board.board_holes
        )
        owners.append(earlier[-1] if earlier else colour if colour is not None else move.before.turn)
    return owners


def _mover(move: Move) -> int:
    """The seat whose peg moves first (Arizona and North Carolina let a partner's peg move)."""
    board, source = move.before.board, move.steps[0].source
    if board.is_start(source):
        return source - board.board_holes
    colour = move.before.colour_at(source)
    return colour if colour is not None else move.before.turn


ORDINALS = ("", "1st", "2nd", "3rd", "4th", "5th")


def hole_words(name: str, names: Names) -> str:
    """A physical hole (``T1:8``, ``H0:2``, ``S2:4``, ``C3``) as a finger finds it: "Blue's
    come-out hole", "Red's home, 2nd hole", "the 5th hole past Blue's corner". Any other
    name (a start area, a bare ``S``, not a hole at all) comes back as it was given."""
    parts = holes.split(name)
    side = None if parts is None else parts.side
    if parts is None or side is None:
        return name
    kind, number = parts.kind, parts.number
    if kind == "C":
        return f"{name_of(names, side)}'s colour hole"
    if number is None:
        return name  # a start area, not one hole of it
    whose = name_of(names, side)
    if kind == "S":
        return f"{whose}'s start"
    if kind == "H":
        return f"{whose}'s home, {ORDINALS[number] if number < len(ORDINALS) else number} hole"
    landmark = LANDMARKS.get(number)
    if landmark:
        return f"{whose}'s {landmark}"
    return f"the {_ordinal(number)} hole past {whose}'s corner"


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def fix_words(action: str, hole: str, seat: int | None, names: Names, back: bool = True) -> str:
    """A correction in colours and places: "put Blue's peg back on Blue's come-out hole";
    ``back=False`` for a board being set up, where nothing was there before."""
    where = hole_words(hole, names)
    if action == "remove":
        whose = "the" if seat is None else f"{name_of(names, seat)}'s"
        return f"take {whose} peg off {where}"
    whose = "a" if seat is None else f"{name_of(names, seat)}'s"
    parts = holes.split(hole)
    into = "in" if parts is not None and parts.kind == "S" else "on"  # in a start area, on a hole
    return f"put {whose} peg{' back' if back else ''} {into} {where}"

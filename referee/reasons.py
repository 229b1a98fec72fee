"""Why a move on the board is not legal, in one sentence that cites the rule.

    why_not(position, rules, source, target, card=None)
    # "You can't pass your own peg (the rules page: "You may never land on or pass over a hole
    #  occupied by one of your own pegs")."

The tracker sees only that no legal move explains the board; this looks at the one peg that
moved (its hole before and after, as board indices) and names the first rule it breaks, in
the order a newcomer most often breaks them. Nothing here decides legality: the move
generator does. With several pegs moved, or nothing recognisable, it says None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from referee.board import Board
from referee.card_powers import CardPower
from referee.cards import JOKER
from referee.movegen import mover_seats
from referee.position import Position
from referee.rulesets import Ruleset


@dataclass(frozen=True)
class Attempt:
    """A move someone tried: a peg from ``source`` to ``target``, with the card if one was named."""

    position: Position
    rules: Ruleset
    source: int
    target: int
    card: str | None

    @property
    def board(self) -> Board:
        return self.position.board

    @property
    def seat(self) -> int:
        if self.board.is_start(self.source):
            return self.source - self.board.board_holes
        colour = self.position.colour_at(self.source)
        return colour if colour is not None else self.position.turn


def _someone_elses_peg(attempt: Attempt) -> bool:
    """A peg of a colour the seat to play may not move now (its own, or a partner's once its own are home)."""
    owner, movers = attempt.seat, mover_seats(attempt.position, attempt.rules)
    return owner not in movers and owner != attempt.position.turn


def _partner_too_soon(attempt: Attempt) -> bool:
    """A partner's peg moved while the seat to play still has pegs of its own out."""
    owner, turn = attempt.seat, attempt.position.turn
    return (
        owner != turn
        and owner in attempt.board.team_of.get(turn, (turn,))
        and owner not in mover_seats(attempt.position, attempt.rules)
    )


def _steps(attempt: Attempt) -> tuple[int, int]:
    """Holes forward and holes back from source to target along the main track."""
    track = attempt.board.track_length
    forward = (attempt.target - attempt.source) % track
    return forward, (track - forward) % track


def _out_of_start_elsewhere(attempt: Attempt) -> bool:
    board = attempt.board
    if not board.is_start(attempt.source) or attempt.card == JOKER:
        return False
    return attempt.target != board.come_out(attempt.seat)


def _someone_elses_home(attempt: Attempt) -> bool:
    board = attempt.board
    return board.is_home(attempt.target) and board.owner(attempt.target) != attempt.seat


def _backing_into_home(attempt: Attempt) -> bool:
    board = attempt.board
    if not (board.is_home(attempt.target) and board.is_track(attempt.source)):
        return False
    in_spot = board.in_spot(attempt.seat)
    return (attempt.source - in_spot) % board.track_length < board.track_length // 2 and attempt.source != in_spot


def _home_backwards(attempt: Attempt) -> bool:
    board = attempt.board
    return board.is_home(attempt.source) and (
        not board.is_home(attempt.target) or board.depth(attempt.target) < board.depth(attempt.source)
    )


def _passes_own_peg(attempt: Attempt) -> bool:
    board, position = attempt.board, attempt.position
    if attempt.card == JOKER or board.is_start(attempt.source):
        return False
    if board.is_home(attempt.source):  # deeper into home, over the holes between
        seat, depth = attempt.seat, board.depth(attempt.source)
        if not board.is_home(attempt.target) or board.depth(attempt.target) <= depth:
            return False
        return any(
            position.colour_at(board.home(seat, d)) == seat for d in range(depth + 1, board.depth(attempt.target))
        )
    track = board.track_length
    if board.is_home(attempt.target) and board.owner(attempt.target) == attempt.seat:  # along the track, then in
        seat = attempt.seat
        to_in_spot = (board.in_spot(seat) - attempt.source) % track
        passed = [(attempt.source + i) % track for i in range(1, to_in_spot + 1)]
        passed += [board.home(seat, depth) for depth in range(1, board.depth(attempt.target))]
        return any(position.colour_at(hole) == seat for hole in passed)
    if not board.is_track(attempt.target):
        return False
    forward, back = _steps(attempt)
    step, count = (1, forward) if forward <= back else (-1, back)
    return any(position.colour_at((attempt.source + step * i) % track) == attempt.seat for i in range(1, count))


def _no_card_goes_back(attempt: Attempt) -> bool:
    back = _back_holes(attempt)
    return back is not None and not any(back in power.backward for _, power in attempt.rules.cards)


def _back_holes(attempt: Attempt) -> int | None:
    """Holes back along the track, when that way is the shorter one."""
    if not (attempt.board.is_track(attempt.source) and attempt.board.is_track(attempt.target)):
        return None
    forward, back = _steps(attempt)
    return back if 0 < back < forward else None


def _wrong_count(attempt: Attempt) -> bool:
    forward, power = _forward_holes(attempt), _declared_power(attempt)
    return power is not None and forward is not None and forward not in power.forward


def _wrong_count_back(attempt: Attempt) -> bool:
    back, power = _back_holes(attempt), _declared_power(attempt)
    return power is not None and back is not None and back not in power.backward


def _declared_power(attempt: Attempt) -> CardPower | None:
    """What the card named for the move does (None: no card named, or a joker, which counts no holes)."""
    if attempt.card is None or attempt.card == JOKER:
        return None
    return dict(attempt.rules.cards).get(attempt.card)


def _joker_onto_empty(attempt: Attempt) -> bool:
    board = attempt.board
    return (
        attempt.card == JOKER
        and attempt.position.colour_at(attempt.target) is None
        and not (board.is_start(attempt.source) and attempt.target == board.come_out(attempt.seat))
    )


def _forward_holes(attempt: Attempt) -> int | None:
    """Holes forward from source to target, along the track and into the peg's own home
    (None for other kinds of move, or a way back shorter than the way forward)."""
    board = attempt.board
    if board.is_home(attempt.source) and board.is_home(attempt.target):
        deeper = board.depth(attempt.target) - board.depth(attempt.source)
        return deeper if deeper > 0 and board.owner(attempt.target) == board.owner(attempt.source) else None
    if not board.is_track(attempt.source):
        return None
    if board.is_track(attempt.target):
        forward, back = _steps(attempt)
        return forward if 0 < forward <= back else None
    if board.is_home(attempt.target) and board.owner(attempt.target) == attempt.seat:
        return (board.in_spot(attempt.seat) - attempt.source) % board.track_length + board.depth(attempt.target)
    return None


def _no_card_goes_that_far(attempt: Attempt) -> bool:
    """No card named, and none of the rule set's cards moves one peg this many holes forward
    (a joker lands only on a peg: this hole held none)."""
    forward = _forward_holes(attempt)
    if attempt.card is not None or forward is None or attempt.position.colour_at(attempt.target) is not None:
        return False
    return not any(forward in power.forward for _, power in attempt.rules.cards)


def _partner_on_in_spot(attempt: Attempt) -> bool:
    """Landing on a partner's peg while that partner has a peg on its own in-spot (where the
    landed-on peg would have to go)."""
    board, position = attempt.board, attempt.position
    if not board.is_track(attempt.target):
        return False
    colour = position.colour_at(attempt.target)
    team = board.team_of.get(attempt.seat, (attempt.seat,))
    return (
        colour is not None
        and colour != attempt.seat
        and colour in team
        and position.colour_at(board.in_spot(colour)) == colour
    )


@dataclass(frozen=True)
class Reason:
    """One rule a refused move may break: its test, and what it says when it does."""

    test: Callable[[Attempt], bool]
    says: str


REASONS: tuple[Reason, ...] = (
    Reason(
        _partner_too_soon,
        "{mover} can't move {owner}'s peg yet: a partner's pegs move only once all of yours are home "
        "(the rules page, Endgame)",
    ),
    Reason(
        _someone_elses_peg,
        "{mover} can't move {owner}'s peg: each player moves only her own pegs (the rules page, Movement "
        "of pegs - general rules)",
    ),
    Reason(
        _out_of_start_elsewhere,
        "A peg leaves start only onto its own come-out hole (the rules page, Basic Game: an ace "
        "or a face card moves a peg from start to its come-out hole)",
    ),
    Reason(
        _someone_elses_home,
        'A peg goes only into its own home (the rules page, Movement of pegs - general rules: "No peg '
        'may ever move into any start or home area other than its own")',
    ),
    Reason(
        _joker_onto_empty,
        "A joker moves a peg only onto another player's peg (the rules page, Basic Game: \"A joker cannot be "
        'used to move to an empty hole")',
    ),
    Reason(
        _home_backwards,
        "Pegs already in home can't move backwards (the rules page, Basic Game: \"pegs that are "
        'already in their home areas are not allowed to move backwards")',
    ),
    Reason(
        _backing_into_home,
        "You can't back into your home track (the rules page, Basic Game: \"'Backing in' to the "
        'home track is not allowed")',
    ),
    Reason(
        _partner_on_in_spot,
        "A partner already on her in-spot can't be landed on (the rules page, Basic Game: \"It is "
        "illegal to land on your partner's peg if that partner already has a peg on his or her "
        'own in-spot")',
    ),
    Reason(
        _passes_own_peg,
        "You can't pass your own peg (the rules page, Basic Game: \"You may never land on or pass "
        'over a hole occupied by one of your own pegs")',
    ),
    Reason(
        _no_card_goes_back,
        "No card moves a peg that far backwards: 8s move back 8 (the rules page, Basic Game: "
        '"When playing an 8, you must move one of your pegs backwards 8 holes")',
    ),
    Reason(
        _no_card_goes_that_far,
        'No card moves a peg {forward} holes forward (the rules page, Basic Game: "When playing a 2, 3, 4, 5, '
        '6, 9 or 10, you move one of your own pegs ... forward that number of holes"; a face card moves 10)',
    ),
    Reason(
        _wrong_count,
        'That card moves a different number of holes (the rules page, Basic Game: "you move one '
        'of your own pegs ... forward that number of holes")',
    ),
    Reason(
        _wrong_count_back,
        'That card does not move a peg {back} holes back (the rules page, Basic Game: "When playing an 8, '
        'you must move one of your pegs backwards 8 holes")',
    ),
)


def why_not(
    position: Position,
    rules: Ruleset,
    source: int,
    target: int,
    card: str | None = None,
    names: Mapping[int, str] | None = None,
) -> str | None:
    """The first rule the one-peg move ``source`` -> ``target`` breaks, as a sentence (``names``:
    the seats' names, for the reasons that name whose peg moved)."""
    attempt = Attempt(position, rules, source, target, card)
    for reason in REASONS:
        try:
            if reason.test(attempt):
                said = (names or {}).get
                mover, owner = attempt.position.turn, attempt.seat
                return (
                    reason.says.replace("{mover}", said(mover, "The player to move"))
                    .replace("{owner}", said(owner, "another player"))
                    .replace("{forward}", str(_forward_holes(attempt)))
                    .replace("{back}", str(_back_holes(attempt)))
                    + "."
                )
        except (IndexError, ValueError):
            continue
    return None

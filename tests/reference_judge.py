"""An independent judge of a seat's options: each one's chance to win, by Monte-Carlo play-outs.

The teaching in ``referee.coach`` ranks moves by notes and a race count; whether that ranks
them by the chance to win can only be measured against something written without it. This
module is that reference (issue 31). It imports nothing from ``referee.coach``: only the
engine (``referee.game``, ``referee.movegen``, ``referee.position``, ``referee.board``,
``referee.cards``, ``referee.rulesets``), which is trusted.

    estimates = reference(game, playouts=300, rng=random.Random(1))
    best = estimates[0]                               # best first
    real_mistake(best, estimates[3])                  # 2 points below the best, beyond noise

How one option is judged: the cards the seat has not seen (the other hands and the stock)
are dealt at random so that they agree with every card it has seen (the deck less its own
hand and the played cards since the last reshuffle), the option is made on a copy of the game
holding that deal, and the game is played to its end by a simple greedy policy for every
seat (``greedy_action``). The option's estimate is the share of play-outs the seat's team
wins, with its standard error. Every option is played out over the same deals and the same
play-out seeds (common random numbers), so the difference of two options is measured on
paired samples and its error is much smaller than either estimate's.

The engine API relied on: ``Game.from_events`` (a private copy of the game),
``Game.checkpoint`` / ``Game.rollback`` with a ``Checkpoint`` whose ``State`` has the sampled
hands and stock in place of the real ones (``referee.game_state``), ``Game.playable``,
``Game.free_come_outs``, ``Game.must_move``, ``Game.play``/``discard``/``draw``/``respond``/
``send_to_start``, and ``movegen.legal_moves`` for the policy's own look at a hand.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import islice

from referee.board import Board
from referee.cards import JOKER, build_deck
from referee.game import Checkpoint, Game
from referee.movegen import free_come_outs, legal_moves
from referee.moves import Move
from referee.rulesets import Ruleset

MAX_PER_CARD = 8  # distinct results judged per card: a North Carolina 10 may split thousands of ways
POLICY_MOVES_PER_CARD = 40  # moves the play-out policy weighs per card (the first ones the engine lists)
MAX_ACTIONS = 4000  # a play-out that long is a bug: it counts as half a win and is reported
START_VALUE = 8  # what the race counts a peg in start at: coming out is worth less than a step on
# (self-played, a policy counting start at 8 beat ones counting it at -8, 0, 4 and 12)
Z95 = 1.96  # two-sided 95%
DROP_Z = 3.5  # an option stops being played out once it is a real mistake by this many standard errors
BATCH = 50  # worlds played out between two looks at which options are still in the race
MISTAKE = 0.02  # a real mistake: two points of win chance below the best, beyond noise
JOKER_COST = 2  # what a joker is worth kept, in holes of the race
KEEP = ("JOKER", "A", "K", "Q", "J")  # the cards the policy lets go last


@dataclass(frozen=True)
class Option:
    """One thing the seat may do: play ``card`` and make ``move``, or (move None) discard
    ``card``; ``free``: the counting turn's free come-out, ``card`` being the card let go."""

    card: str
    move: Move | None
    free: bool = False

    @property
    def key(self) -> tuple[str, str, bool]:
        """Options with one card and one result are one option (pegs of a colour are alike)."""
        result = self.move.result.occupancy.hex() if self.move is not None else "discard"
        return self.card, result, self.free

    @property
    def text(self) -> str:
        if self.move is None:
            return f"discard {self.card}"
        return f"{self.move.text} (free, {self.card} let go)" if self.free else self.move.text


@dataclass(frozen=True)
class Estimate:
    """An option's chance that the seat's team wins: ``mean`` of ``n`` play-outs, ``se`` its
    standard error; ``outcomes`` each play-out's result (1 won, 0 lost), in sample order, so
    two estimates can be compared on the same samples."""

    card: str
    move: Move | None
    mean: float
    se: float
    n: int
    free: bool = False
    outcomes: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @property
    def option(self) -> Option:
        return Option(self.card, self.move, self.free)


@dataclass(frozen=True)
class World:
    """One way the hidden cards may lie (each other seat's hand, the stock with its top last)
    and the seed of the play-outs made in it."""

    hands: dict[int, tuple[str, ...]]
    stock: tuple[str, ...]
    seed: int


# -- what is hidden from the seat ---------------------------------------------------------


def unseen_cards(game: Game, seat: int) -> Counter[str]:
    """The deck less what ``seat`` has seen: its own hand and the played cards still on the
    pile (a reshuffle puts the pile back into the stock, out of sight)."""
    players = game.board.players
    deck = Counter(build_deck(game.rules.decks_for(players), game.rules.jokers_for(players)))
    seen = Counter(game.hand(seat)) + Counter(game.discards)
    if seen - deck:
        raise ValueError(f"seat {seat} has seen cards the deck has not: {dict(seen - deck)}")
    return deck - seen


def sample_world(game: Game, seat: int, rng: random.Random) -> World:
    """The unseen cards dealt at random into the other seats' hands (their real sizes) and
    the stock; the play-out seed drawn after them."""
    cards = sorted(unseen_cards(game, seat).elements())
    rng.shuffle(cards)
    others = [other for other in game.board.seats if other != seat]
    if len(cards) != sum(len(game.hand(other)) for other in others) + game.stock_size:
        raise ValueError("the unseen cards do not fill the other hands and the stock")
    hands: dict[int, tuple[str, ...]] = {}
    for other in others:
        size = len(game.hand(other))
        hands[other], cards = tuple(cards[:size]), cards[size:]
    return World(hands, tuple(cards), rng.getrandbits(64))


def sample_worlds(game: Game, playouts: int, rng: random.Random) -> list[World]:
    return [sample_world(game, game.turn, rng) for _ in range(playouts)]


def in_world(checkpoint: Checkpoint, world: World) -> Checkpoint:
    """The game at ``checkpoint`` with the world's hidden cards in place of the real ones."""
    hands = {**checkpoint.state.hands, **{seat: list(cards) for seat, cards in world.hands.items()}}
    state = replace(checkpoint.state, hands=hands, stock=list(world.stock))
    return replace(checkpoint, state=state)


# -- the seat's options ---------------------------------------------------------------------


def options_of(game: Game, rng: random.Random | None = None, per_card: int | None = MAX_PER_CARD) -> list[Option]:
    """Every distinct option of the seat to play: each card's moves (one per result; a card
    with more than ``per_card`` results has that many drawn with ``rng``), the counting
    turn's free come-outs, and discarding each card where the rules allow it (nothing but a
    joker moves: the rules page, Basic Game, "A player is never forced to play a joker")."""
    options: list[Option] = []
    for card, moves in sorted(game.playable().items()):
        distinct = list({Option(card, move).key: Option(card, move) for move in moves}.values())
        if per_card is not None and len(distinct) > per_card:
            distinct = (rng or random.Random(0)).sample(distinct, per_card)
        options += distinct
    hand = sorted(set(game.hand(game.turn)))
    for card in hand:
        options += list({o.key: o for o in (Option(card, m, True) for m in game.free_come_outs(card))}.values())
    if not game.must_move():
        options += [Option(card, None) for card in hand]
    return options


def make(game: Game, option: Option) -> None:
    if option.move is None:
        game.discard(option.card)
    else:
        game.play(option.card, option.move, free=option.free)


# -- the play-out policy --------------------------------------------------------------------


class Race:
    """The policy's measure of a move: how far it takes the team's pegs along their way home
    less how far it takes the others' (a bumped opponent loses its whole way)."""

    def __init__(self, board: Board, seat: int) -> None:
        team = set(board.team_of[seat])
        track = board.track_length
        self.values = [[0] * board.board_holes for _ in range(board.sides + 1)]  # [colour][hole]
        for other in board.seats:
            sign = 1 if other in team else -1
            for hole in range(board.board_holes):
                self.values[other + 1][hole] = sign * (self._progress(board, other, hole, track) - START_VALUE)

    @staticmethod
    def _progress(board: Board, seat: int, hole: int, track: int) -> int:
        if board.is_home(hole):
            return track + board.depth(hole)
        return track - (board.in_spot(seat) - hole) % track

    def gain(self, move: Move) -> int:
        """The change the move makes, read from the holes whose colour it changes."""
        before, after = move.before.key, move.key
        changed, total = before ^ after, 0
        while changed:
            hole = ((changed & -changed).bit_length() - 1) // 8
            old, new = (before >> (8 * hole)) & 0xFF, (after >> (8 * hole)) & 0xFF
            total += self.values[new][hole] - self.values[old][hole]
            changed &= ~(0xFF << (8 * hole))
        return total


@cache
def race_of(board: Board, seat: int) -> Race:
    return Race(board, seat)


def spare(hand: Sequence[str]) -> str:
    """The card to let go: one the policy keeps last only if nothing else is there."""
    return min(hand, key=lambda card: (KEEP.index(card) if card in KEEP else -1, card), default="")


def _scored(game: Game, race: Race, rules: Ruleset, rng: random.Random) -> list[tuple[int, float, Option]]:
    """Every option the policy weighs under ``rules``: (gain less a joker's worth, tie-break, option)."""
    position, hand = game.position, game.hand(game.turn)
    scored = [
        (race.gain(move) - (JOKER_COST if card == JOKER else 0), rng.random(), Option(card, move))
        for card in sorted(set(hand))
        for move in islice(legal_moves(position, card, rules), POLICY_MOVES_PER_CARD)
    ]
    if game.free_come_out_due() and hand:
        let_go = spare(hand)
        scored += [
            (race.gain(m), rng.random(), Option(let_go, m, True)) for m in free_come_outs(position, let_go, rules)
        ]
    return scored


def greedy_choice(game: Game, races: dict[int, Race], rng: random.Random) -> Option:
    """The move that gains the team most (a joker counted ``JOKER_COST`` holes less, so it
    is kept for a bump that pays); discard the spare card when nothing moves."""
    seat = game.turn
    race = races.get(seat) or races.setdefault(seat, race_of(game.board, seat))
    scored = _scored(game, race, game.rules, rng)
    if not scored:
        return Option(spare(game.hand(seat)), None)
    best = max(scored, key=lambda entry: entry[:2])
    if best[2].card == JOKER and best[0] < 0 and not game.must_move():
        return Option(spare(game.hand(seat)), None)  # a joker that gains nothing is worth more kept
    return best[2]


def greedy_action(game: Game, races: dict[int, Race], rng: random.Random) -> None:
    """One action of whichever seat the game waits on: draw, play or discard, never doubt."""
    if game.phase == "draw":
        game.draw()
    elif game.phase == "play":
        make(game, greedy_choice(game, races, rng))
    elif game.phase == "doubt":
        doubter = game.doubter_to_answer
        assert doubter is not None
        game.respond(doubter, False)
    elif game.phase == "penalty" and game.penalty is not None:
        chooser, victim = game.penalty
        board = game.board
        track = [hole for hole in game.position.on_board(victim) if board.is_track(hole)]
        game.send_to_start(chooser, board.hole_name(track[0]))
    else:
        raise ValueError(f"a play-out cannot go on from phase {game.phase!r}")


def play_out(game: Game, seat: int, rng: random.Random) -> float:
    """Play the game to its end: 1.0 if ``seat``'s team wins, 0.0 if not, 0.5 if it goes on
    past ``MAX_ACTIONS`` (a bug, not a game)."""
    races: dict[int, Race] = {}
    for _ in range(MAX_ACTIONS):
        if game.winner is not None:
            return 1.0 if seat in game.winner else 0.0
        greedy_action(game, races, rng)
    return 0.5


# -- estimates ------------------------------------------------------------------------------


def estimate(
    game: Game, options: Sequence[Option], worlds: Sequence[World], drop_z: float | None = DROP_Z
) -> list[Estimate]:
    """Each option played out in the worlds (the same worlds and seeds for all), best first.
    With ``drop_z``, play-outs go in batches of ``BATCH`` worlds and an option stops once it
    is a real mistake by a margin of ``drop_z`` standard errors (its estimate then rests on
    the worlds it was played in: the first ``n``)."""
    seat = game.turn
    copy = Game.from_events(game.events)
    real = copy.checkpoint()
    outcomes: list[list[float]] = [[] for _ in options]
    live = list(range(len(options)))
    try:
        for first in range(0, len(worlds), BATCH):
            for world in worlds[first : first + BATCH]:
                start = in_world(real, world)
                for index in live:
                    copy.rollback(start)
                    make(copy, options[index])
                    outcomes[index].append(play_out(copy, seat, random.Random(world.seed)))
            if drop_z is not None:
                live = _in_the_race(options, outcomes, live, drop_z)
    finally:
        copy.rollback(real)
    judged = [_estimate(option, results) for option, results in zip(options, outcomes, strict=True)]
    return sorted(judged, key=lambda e: -e.mean)


def _in_the_race(options: Sequence[Option], outcomes: list[list[float]], live: list[int], z: float) -> list[int]:
    """The options not yet shown to be real mistakes beyond ``z`` standard errors."""
    judged = {index: _estimate(options[index], outcomes[index]) for index in live}
    leader = max(judged.values(), key=lambda e: e.mean)
    return [index for index in live if not real_mistake(leader, judged[index], z=z)]


def _estimate(option: Option, outcomes: list[float]) -> Estimate:
    n = len(outcomes)
    mean = sum(outcomes) / n if n else 0.0
    se = statistics.stdev(outcomes) / math.sqrt(n) if n > 1 else 0.0
    return Estimate(option.card, option.move, mean, se, n, option.free, tuple(outcomes))


def reference(game: Game, playouts: int, rng: random.Random, per_card: int | None = MAX_PER_CARD) -> list[Estimate]:
    """Every distinct option of the seat to play (``options_of``), judged over ``playouts``
    sampled worlds, best first. The worlds are drawn from ``rng`` before anything else, so
    ``estimate(game, more, sample_worlds(game, playouts, same_seed_rng))`` judges more options
    on the very same samples."""
    if game.phase != "play" or game.mode != "digital":
        raise ValueError("the reference judges a digital game's seat to play")
    worlds = sample_worlds(game, playouts, rng)
    return estimate(game, options_of(game, random.Random(rng.getrandbits(64)), per_card), worlds)


# -- comparing estimates --------------------------------------------------------------------


def gap(best: Estimate, other: Estimate) -> tuple[float, float]:
    """How far ``other`` falls below ``best`` and that difference's standard error, from the
    paired play-outs (the first ``n`` both have)."""
    n = min(len(best.outcomes), len(other.outcomes))
    if n == 0:
        return best.mean - other.mean, math.hypot(best.se, other.se)
    diffs = [a - b for a, b in zip(best.outcomes[:n], other.outcomes[:n], strict=True)]
    se = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0.0
    return sum(diffs) / n, se


def within_noise(best: Estimate, other: Estimate) -> bool:
    """Not told apart from the best by a 95% two-sided test on the paired difference."""
    diff, se = gap(best, other)
    return abs(diff) <= Z95 * se


def real_mistake(best: Estimate, other: Estimate, margin: float = MISTAKE, z: float = Z95) -> bool:
    """At least ``margin`` of win chance below the best, and below it beyond noise."""
    diff, se = gap(best, other)
    return diff >= margin and diff > z * se

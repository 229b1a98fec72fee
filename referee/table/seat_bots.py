"""Bots in the seats of a real board: the bot chooses, a person moves the pegs for it, and the
tracker checks the move like any other.

    bots = SeatBots.of(session.game)        # from the game's table: {"bots": {"2": "greedy"}}
    plan = bots.act(session)                # does what needs no pegs; the move a person makes

In digital mode the bot holds a hand like anyone else: it draws (the session does that),
names its card, discards when nothing moves, answers a doubt and picks the peg a penalty sends
back. At a real table the referee does not hold the cards: someone turns up the bot's card and
enters it on the page (the same "declare" as Bluffing Joker), and the bot chooses its move for
that card. Either way the plan is shown on the LEDs and on the page (the peg to lift flashing
pink, blue where it goes, amber where a bumped peg goes back: marks any peg colour shows), and
a person carries it out.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.coach.bots import BOTS, RandomBot, Situation
from referee.coach.race import progress
from referee.game import Game, seat_number
from referee.moves import Move
from referee.table import phone_seats
from referee.table.session import Session
from referee.words import say

KINDS = tuple(BOTS)
log = logging.getLogger("pegs.table")


@dataclass(frozen=True)
class Plan:
    """The move a bot chose: a person makes it on the board."""

    seat: int
    card: str
    move: Move

    def lights(self, session: Session) -> dict[str, str]:
        """Each hole the move asks a person to act on, as the board names it, with its LED role:
        "lift" on the pegs to lift (a peg coming out: the first start hole of its seat holding
        one), "hint" where they go, and "bump" where a bumped peg goes back (every empty start
        hole of its seat, or its in-spot), as the tracker lights a bump (hardware/signals.py)."""
        board, physical = session.game.board, session.physical
        occupied = {physical.name(hole) for hole in physical.holes(session.tracker.occupied)}

        def start(seat: int) -> list[str]:
            return [physical.name(hole) for hole in physical.start_holes(seat)]

        def named(hole: int) -> str:
            if not board.is_start(hole):
                return board.hole_name(hole)
            seat = hole - board.board_holes
            return next((name for name in start(seat) if name in occupied), f"S{seat}:1")

        lit: dict[str, str] = {}
        for step in self.move.steps:
            lit.setdefault(named(step.source), "lift")
        for step in self.move.steps:
            lit.setdefault(named(step.target), "hint")
        for bump in (bump for step in self.move.steps for bump in step.bumps):
            way_back = start(bump.seat) if board.is_start(bump.target) else [board.hole_name(bump.target)]
            for hole in way_back:
                if hole not in occupied:
                    lit.setdefault(hole, "bump")
        return lit

    def as_json(self, kind: str, names: Mapping[int, str]) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": kind,
            "card": self.card,
            "move": self.move.text,
            "words": say(self.move, names),
        }


def chosen_plan(session: Session) -> Plan | None:
    """The move the seat to play chose on its phone (``referee.table.phone_seats``), lit and
    shown like a bot's, until it is made."""
    text, game, card = session.chosen, session.game, session.declared
    if text is None or card is None or game.phase != "play" or game.mode != "digital":
        return None
    if card not in game.hand(game.turn):
        return None
    move = phone_seats.chosen_move(game, len(game.events), card, text)
    return None if move is None else Plan(game.turn, card, move)


def plan_json(plan: Plan | None, names: Mapping[int, str]) -> dict[str, Any] | None:
    """The phone's chosen move as the page shows it: "Grandma plays a 7: ..." in words."""
    if plan is None:
        return None
    return {"seat": plan.seat, "card": plan.card, "move": plan.move.text, "words": say(plan.move, names)}


def bot_kinds(table: Mapping[str, Any], seats: tuple[int, ...]) -> dict[int, str]:
    """``{seat: kind}`` from a game's table settings; refuses unknown seats or kinds."""
    given = table.get("bots") or {}
    if not isinstance(given, Mapping):
        raise ValueError("'bots' maps a seat to a bot: beginner, family, strong or expert")  # noqa: TRY004 (a 400, like any bad request)
    kinds = {}
    for seat, kind in given.items():
        number = seat_number(seat)
        if number is None:
            raise ValueError(f"'bots': a seat is a number like \"1\" (ASCII digits, no leading zero), not {seat!r}")
        if number not in seats:
            raise ValueError(f"'bots': no seat {seat!r} in this game (seats {', '.join(map(str, seats))})")
        if kind not in KINDS:
            raise ValueError(f"'bots': seat {seat} is {kind!r}: a bot is one of {', '.join(KINDS)}")
        kinds[number] = str(kind)
    if len(kinds) == len(seats):
        raise ValueError("'bots': at least one seat must be a person, to move the pegs")
    return kinds


@dataclass(frozen=True)
class _Thought:
    """A choice a bot made on its own thread, for the state of the game it looked at."""

    seen: int  # the game's events when it looked
    options: list[tuple[str, Move]]
    card: str
    move: Move | None


class SeatBots:
    """The game's bot seats, each with its own bot, seeded by the game and the seat. A bot
    that judges its moves (``RandomBot.quick`` false) thinks on a thread of its own, from one
    look at the game, so that the table's lock is never held while it thinks; ``ready`` is
    called when it has chosen, and the next look at the game takes the choice."""

    def __init__(self, kinds: Mapping[int, str], seed: int | None, ready: Callable[[], None] = lambda: None) -> None:
        self.kinds = dict(kinds)
        self._bots: dict[int, RandomBot] = {
            seat: BOTS[kind](random.Random(f"{seed}:{seat}")) for seat, kind in kinds.items()
        }
        self._plan: tuple[int, Plan | None] = (-1, None)  # (events when chosen, plan)
        self._ready = ready
        self._thinking: int | None = None  # the game's events when a bot began to think
        self._thought: _Thought | None = None  # set by the thinking thread

    @classmethod
    def of(cls, game: Game, ready: Callable[[], None] = lambda: None) -> SeatBots:
        return cls(bot_kinds(game.table, tuple(game.board.seats)), game.seed, ready)

    @property
    def thinking(self) -> bool:
        """A bot is choosing its move on its own thread."""
        return self._thinking is not None

    def __bool__(self) -> bool:
        return bool(self._bots)

    def act(self, session: Session) -> Plan | None:
        """Do whatever a bot seat owes the game now that needs no pegs moved; return the move
        a person should make for it, if the seat to play is a bot's."""
        game = session.game
        if not self._bots or game.phase == "over":
            return None
        if game.phase == "doubt" and game.doubter_to_answer in self._bots:
            seat = game.doubter_to_answer
            session.doubt(seat, self._bots[seat].rng.random() < self._bots[seat].doubt_rate)
            return None
        penalty = game.penalty
        if game.phase == "penalty" and penalty is not None and penalty[0] in self._bots:
            chooser, victim = penalty
            session.send_to_start(chooser, _furthest(game, victim))
            return None
        if game.phase != "play" or game.turn not in self._bots:
            return None
        seen, plan = self._plan
        if seen == len(game.events) and plan is not None and plan.seat == game.turn:
            return plan
        bot = self._bots[game.turn]
        plan = self._choose(session, bot) if bot.quick else self._think(session, bot)
        self._plan = (len(game.events), plan)
        return plan

    def _choose(self, session: Session, bot: RandomBot) -> Plan | None:
        options = self._options(session, bot)
        if not options:
            return None
        card, move = bot.choose(session.game, options)
        return self._carry(session, options, card, move)

    def _think(self, session: Session, bot: RandomBot) -> Plan | None:
        """The choice a thinking thread made for this state of the game, else start one."""
        seen = len(session.game.events)
        thought = self._thought
        if thought is not None and thought.seen == seen:
            self._thought = None
            return self._carry(session, thought.options, thought.card, thought.move)
        if self._thinking == seen:
            return None
        options = self._options(session, bot)
        if not options:
            return None
        situation = Situation.of(session.game)
        self._thinking = seen
        threading.Thread(target=self._work, args=(bot, situation, options, seen), name="pegs-bot", daemon=True).start()
        return None

    def _work(self, bot: RandomBot, situation: Situation, options: list[tuple[str, Move]], seen: int) -> None:
        try:
            card, move = bot.pick(situation, options)
        except Exception:  # a bot must never stall the table: it plays the first legal choice
            log.exception("a bot could not choose; it plays its first legal move")
            card, move = options[0]
        self._thought = _Thought(seen, options, card, move)
        if self._thinking == seen:
            self._thinking = None
        self._ready()

    def _options(self, session: Session, bot: RandomBot) -> list[tuple[str, Move]] | None:
        """The seat's choices, or None when there are none (the bot has discarded, or waits for
        its card to be turned up at a real table)."""
        game, seat = session.game, session.game.turn
        if game.mode == "digital":
            options = [(card, move) for card, moves in sorted(game.playable().items()) for move in moves]
            if not options and game.free_come_out_due():
                hand = dict.fromkeys(game.hand(seat))
                options = [(card, move) for card in hand for move in game.free_come_outs(card)]
            if not options:
                session.discard(seat, bot.choose_discard(game, game.hand(seat)))
                return None
        else:
            card = session.declared
            if card is None:
                return None  # someone turns up the bot's card and enters it on the page
            options = [(card, move) for move in game.legal(card)]
            if not options:
                session.discard(seat, None)
                return None
        return options

    def _carry(self, session: Session, options: list[tuple[str, Move]], card: str, move: Move | None) -> Plan | None:
        """The chosen card and move made the seat's: a discard at once, or the plan a person carries out."""
        game, seat = session.game, session.game.turn
        if move is None and game.must_move():  # never a discard the game refuses (a card moves): a move then
            card, move = options[0]
        if move is None:  # the bot keeps its joker and lets this card go
            session.discard(seat, card)
            return None
        if game.mode == "digital" and session.declared != card:
            session.declare(seat, card)
        return Plan(seat, card, move)


def _furthest(game: Game, victim: int) -> str:
    """The victim's peg that has come furthest along the track (what a rival would choose)."""
    board = game.board
    holes = [hole for hole in game.position.on_board(victim) if board.is_track(hole)]
    return board.hole_name(max(holes, key=lambda hole: progress(board, victim, hole)))

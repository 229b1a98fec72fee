"""A whole game: cards, turns and the table procedures, kept as a record of events.

Every change to a game is an event (start, deal, turn, draw, play, move, bump, discard,
doubt, penalty, win, ...). Actions check what the player asks for, then *emit* events;
``_apply`` is the only code that changes state, so replaying a record rebuilds the game
exactly, and undo is "replay all but the last turn".

    game = Game(Ruleset.preset("basic"), players=4, seed=7)
    game.draw()                       # basic: draw first, then play one of six cards
    card, moves = next(iter(game.playable().items()))
    game.play(card, moves[0])

Two kinds of card knowledge: in ``digital`` mode the referee deals and knows every hand;
in ``table`` mode the cards are real, players say which card they played (or nothing:
any card that explains the move is accepted) and must-play cannot be checked.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

from referee.board import Board
from referee.cards import CARDS, JOKER, build_deck, deal, parse_card, shuffled
from referee.movegen import free_come_outs, legal_moves, parse_move
from referee.moves import Move, NotationError
from referee.position import Position, PositionError
from referee.rulesets import Ruleset, from_mapping

Mode = Literal["digital", "table"]
Phase = Literal["draw", "play", "doubt", "reveal", "penalty", "over"]
Event = dict[str, Any]
MODES = ("digital", "table")

# Events after which undo may not go back: they revealed something new to the table.
NEW_INFORMATION = {"deal", "reshuffle", "reveal"}


class GameError(ValueError):
    """An action the rules or the game's phase do not allow now."""


@dataclass
class _Bluff:
    """A face-down card waiting for the opponents' doubts (Bluffing Joker)."""

    seat: int
    declared: str
    card: str | None  # the real card; None at a real table until it is turned up
    text: str  # the move announced with it
    doubters: list[int]
    doubter: int | None = None


@dataclass
class _Penalty:
    """``chooser`` must send one of ``victim``'s pegs on the track back to start."""

    chooser: int
    victim: int


@dataclass
class _State:
    position: Position
    phase: Phase = "play"
    hands: dict[int, list[str]] = field(default_factory=dict)
    stock: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    extra_turns: dict[int, list[int]] = field(default_factory=dict)  # seat -> turn numbers won in
    turn_number: int = 0
    extra_turn: bool = False
    acted: bool = False
    bluff: _Bluff | None = None
    penalty: _Penalty | None = None
    winner: tuple[int, ...] | None = None
    bumps: list[Event] = field(default_factory=list)
    reshuffles: int = 0
    made: list[Move] = field(default_factory=list)  # the accepted moves, as history lists them

    def copy(self) -> _State:
        """A copy sharing nothing that ``_apply`` changes in place (positions, moves and
        events are never changed, only replaced)."""
        bluff = replace(self.bluff, doubters=list(self.bluff.doubters)) if self.bluff else None
        return replace(self, hands={seat: list(cards) for seat, cards in self.hands.items()}, stock=list(self.stock),
                       discards=list(self.discards), counts=dict(self.counts),
                       extra_turns={seat: list(won) for seat, won in self.extra_turns.items()}, bluff=bluff,
                       penalty=replace(self.penalty) if self.penalty else None, bumps=list(self.bumps),
                       made=list(self.made))  # fmt: skip


@dataclass(frozen=True)
class Checkpoint:
    """A game as it was (``Game.checkpoint``), to go back to exactly (``Game.rollback``)."""

    events: int
    effective: tuple[Event, ...]
    state: _State
    known_move: Move | None


_Action = TypeVar("_Action", bound=Callable[..., Any])


def _atomic(action: _Action) -> _Action:
    """An action is all or nothing: every action checks what it is asked before it emits
    anything, and should one still fail part way, the game is put back exactly as it was."""

    @functools.wraps(action)
    def all_or_nothing(self: Game, *args: Any, **kwargs: Any) -> Any:
        checkpoint = self.checkpoint()
        try:
            return action(self, *args, **kwargs)
        except BaseException:
            self.rollback(checkpoint)
            raise

    return all_or_nothing  # type: ignore[return-value]


class Game:
    """One game of Pegs and Jokers under one rule set."""

    def __init__(
        self,
        rules: Ruleset,
        players: int = 4,
        *,
        mode: Mode = "digital",
        seed: int = 0,
        teams: list[list[int]] | None = None,
        first: int | None = None,
        pegs: dict[str, list[str]] | None = None,
        table: dict[str, Any] | None = None,
        _replaying: bool = False,
    ) -> None:
        if mode not in MODES:
            raise GameError(f"card mode must be 'digital' or 'table', not {mode!r}")
        self.rules = rules
        self.mode: Mode = mode
        self.seed = seed
        self.board = Board.for_players(players, teams)
        self.first = self.board.seats[0] if first is None else first
        self.table = dict(table or {})  # how the table shows the game (seat names, colours): recorded, not ruled
        if self.first not in self.board.seats:
            raise GameError(f"first player {first} is not a seat in play")
        # A game may start from pegs already on the board (a game begun before the box was on).
        if isinstance(pegs, dict) and any(seat_number(key) is None for key in pegs):
            raise PositionError(f"'pegs' keys are seat numbers like \"1\" (no leading zero), not {sorted(map(str, pegs))}")
        self._start = Position.from_json({"players": players, "teams": teams, "turn": self.first,
                                         "pegs": {} if pegs is None else pegs})  # fmt: skip
        self.generations = 0  # legal-move generations asked of this game (for benchmarks)
        self._legal_cache: dict[tuple[bytes, int, str], list[Move]] = {}
        self._known_move: Move | None = None
        self.events: list[Event] = []  # everything that happened, undo included
        self._effective: list[Event] = []  # what the state is built from
        self._state = self._fresh_state()
        if _replaying:
            return
        self._emit(
            {
                "event": "start",
                "players": players,
                "teams": [list(team) for team in self.board.teams],
                "rules": rules.to_mapping(),
                "mode": mode,
                "seed": seed,
                "first": self.first,
                **({"pegs": self._start.pegs_json()} if pegs else {}),
                **({"table": self.table} if self.table else {}),
            }
        )
        if mode == "digital":
            stock = shuffled(build_deck(rules.decks_for(players), rules.jokers_for(players)), self._rng())
            hands = deal(stock, self.board.seats, rules.hand_size)
            self._emit({"event": "deal", "hands": {str(s): h for s, h in hands.items()}, "stock": stock})
        self._begin_turn(self.first, extra=False)

    # -- reading the game -------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._state.position

    @property
    def turn(self) -> int:
        return self._state.position.turn

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def winner(self) -> tuple[int, ...] | None:
        return self._state.winner

    @property
    def moves(self) -> list[str]:
        """Every accepted move so far, in notation."""
        return [text for _seat, text in self.history]

    @property
    def history(self) -> list[tuple[int, str]]:
        """(seat, move text) of every accepted move, undone ones left out."""
        return [(event["seat"], event["text"]) for event in self._effective if event["event"] == "move"]

    @property
    def made(self) -> tuple[Move, ...]:
        """The accepted moves themselves (with the position each was made from), as ``history``."""
        return tuple(self._state.made)

    @property
    def bumps(self) -> list[Event]:
        return list(self._state.bumps)

    @property
    def turn_number(self) -> int:
        return self._state.turn_number

    def hand(self, seat: int) -> list[str]:
        return list(self._state.hands.get(seat, []))

    @property
    def stock_size(self) -> int:
        return len(self._state.stock)

    @property
    def discards(self) -> list[str]:
        return list(self._state.discards)

    def count(self, seat: int) -> int:
        """Consecutive turns this seat has discarded without moving (NC "counting")."""
        return self._state.counts.get(seat, 0)

    @property
    def doubter_to_answer(self) -> int | None:
        bluff = self._state.bluff
        return bluff.doubters[0] if bluff and self.phase == "doubt" else None

    @property
    def penalty(self) -> tuple[int, int] | None:
        """(chooser, victim) while a peg must be chosen to go back to start."""
        penalty = self._state.penalty
        return (penalty.chooser, penalty.victim) if penalty else None

    def legal(self, card: str) -> list[Move]:
        """Legal moves of the seat to play with ``card``, whether or not it holds one."""
        key = (self.position.occupancy, self.turn, card)
        if key not in self._legal_cache:
            if len(self._legal_cache) > 32:
                self._legal_cache.clear()
            self.generations += 1
            self._legal_cache[key] = list(legal_moves(self.position, card, self.rules))
        return list(self._legal_cache[key])

    def playable(self) -> dict[str, list[Move]]:
        """Digital mode: each card in the player's hand that moves, with its moves."""
        self._need_phase("play")
        playable = {}
        for card in dict.fromkeys(self._state.hands.get(self.turn, [])):
            moves = self.legal(card)
            if moves:
                playable[card] = moves
        return playable

    def movable_cards(self) -> list[str]:
        """Digital mode: the cards in the player's hand that move a peg (found without
        listing their moves: the first legal move of each is enough)."""
        self._need_phase("play")
        return [card for card in dict.fromkeys(self._state.hands.get(self.turn, [])) if self._moves_at_all(card)]

    def _moves_at_all(self, card: str) -> bool:
        key = (self.position.occupancy, self.turn, card)
        if key in self._legal_cache:
            return bool(self._legal_cache[key])
        return next(legal_moves(self.position, card, self.rules), None) is not None

    def free_come_out_due(self) -> bool:
        """Counting: after ``rules.counting - 1`` turns without moving, this turn may bring a
        peg out for any card (NC rule 9; Becker "on the fourth turn")."""
        counting = self.rules.counting
        return counting is not None and self.count(self.turn) >= counting - 1

    def free_come_outs(self, card: str) -> list[Move]:
        if not self.free_come_out_due():
            return []
        return list(free_come_outs(self.position, card, self.rules))

    def must_move(self) -> bool:
        """Digital mode: whether a discard without moving is forbidden now. A joker is never
        forced (the rules page, Basic Game: "A player is never forced to play a joker")."""
        if self.mode == "table":
            return False
        hand = self._state.hands.get(self.turn, [])
        if any(self._moves_at_all(card) for card in set(hand) - {JOKER}):
            return True
        return bool(hand) and any(self.free_come_outs(card) for card in set(hand))

    def turn_so_far(self) -> list[str]:
        """The events of the turn being played, by name, since its ``turn`` event (undone
        ones left out): ``["draw"]`` when the referee's cards have only been drawn."""
        kinds = [event["event"] for event in self._effective]
        begun = len(kinds) - 1 - kinds[::-1].index("turn") if "turn" in kinds else -1
        return kinds[begun + 1 :]

    def checkpoint(self) -> Checkpoint:
        """The game as it is now, to go back to with ``rollback``."""
        return Checkpoint(len(self.events), tuple(self._effective), self._state.copy(), self._known_move)

    def rollback(self, checkpoint: Checkpoint) -> None:
        """Back exactly to a ``checkpoint`` of this game: its record, its hands, its phase;
        whatever was done since (a refused action half done, a move the store could not
        save) is forgotten."""
        del self.events[checkpoint.events :]
        self._effective = list(checkpoint.effective)
        self._state = checkpoint.state.copy()
        self._known_move = checkpoint.known_move

    def explain(self, result: Position, card: str | None = None) -> list[Move]:
        """Every legal move (of ``card``, or of any card) that leads to ``result``."""
        cards = [parse_card(card)] if card else list(CARDS)
        found = [move for c in cards for move in legal_moves(self.position, c, self.rules)
                 if move.result.occupancy == result.occupancy]  # fmt: skip
        found += [move for c in cards for move in self.free_come_outs(c) if move.result.occupancy == result.occupancy]
        return found

    # -- actions ----------------------------------------------------------------------

    @_atomic
    def draw(self) -> str:
        """Digital mode: draw the top card of the stock (before playing, or after, per rules)."""
        self._need_digital("draw")
        self._need_phase("draw")
        if not self._state.stock and not self._state.discards:
            raise GameError("no card to draw: the stock is empty and no card has been played to reshuffle")
        if not self._state.stock:
            self._reshuffle()
        card = self._state.stock[-1]
        self._emit({"event": "draw", "seat": self.turn, "card": card})
        if self.rules.draw == "after":
            self._end_turn()
        return card

    @_atomic
    def play(self, card: str | None, move: Move | str, *, declared: str | None = None, free: bool = False) -> None:
        """Play ``card`` and make ``move`` (a Move or its notation).

        ``free``: the counting turn's free come-out, ``card`` being any card discarded for it.
        ``declared``: Bluffing Joker, the card announced for the face-down ``card``.
        At a real table (``table`` mode) ``card`` may be None: any card that explains the
        move is accepted.
        """
        self._need_phase("play")
        seat = self.turn
        card = self._card_from_hand(card)
        if self.rules.bluffing and not free:
            declared = parse_card(declared) if declared else card
            if declared is None:
                raise GameError("Bluffing Joker: declare the card you play face down")
            chosen = self._resolve(declared, move, free=False)
            self._emit({"event": "play", "seat": seat, "card": card, "declared": declared, "text": chosen.text})
            return
        chosen = self._resolve(card, move, free)
        self._emit({"event": "play", "seat": seat, "card": card, **({"free": True} if free else {})})
        self._make_move(seat, chosen, free)
        self._after_action()

    @_atomic
    def discard(self, card: str | None = None) -> None:
        """Discard without moving: only when nothing (but a joker) moves (the rules page, Basic Game:
        "if you have no cards (except jokers) that enable you to move you may discard one card")."""
        self._need_phase("play")
        card = self._card_from_hand(card)
        if self.must_move():
            raise GameError(f"seat {self.turn} has a card that moves a peg and must play it")
        self._emit({"event": "discard", "seat": self.turn, "card": card})
        self._after_action()

    @_atomic
    def respond(self, seat: int, doubt: bool) -> None:
        """Bluffing Joker: the next opponent clockwise doubts the declaration or lets it pass."""
        if type(doubt) is not bool:
            raise GameError(f"a doubt is true (doubt it) or false (let it pass), not {doubt!r}")
        self._need_phase("doubt")
        if seat != self.doubter_to_answer:
            raise GameError(f"seat {self.doubter_to_answer} answers first, not seat {seat}")
        self._emit({"event": "doubt", "seat": seat, "doubt": doubt})
        self._after_doubt()

    @_atomic
    def reveal(self, card: str) -> None:
        """Bluffing Joker at a real table: the doubted card, turned face up."""
        self._need_phase("reveal")
        shown = parse_card(card)
        self._emit({"event": "reveal", "seat": self.turn, "card": shown})
        self._after_doubt()

    @_atomic
    def send_to_start(self, seat: int, hole: str) -> None:
        """Bluffing Joker: the chooser sends one of the victim's track pegs back to start."""
        self._need_phase("penalty")
        penalty = self._state.penalty
        assert penalty is not None
        if not isinstance(hole, str):
            raise GameError(f"a penalty names a track hole like T1:4, not {hole!r}")
        if seat != penalty.chooser:
            raise GameError(f"seat {penalty.chooser} chooses the peg, not seat {seat}")
        try:
            index = self.board.hole_index(hole)
        except ValueError as error:
            raise GameError(str(error)) from None
        if not self.board.is_track(index) or self.position.colour_at(index) != penalty.victim:
            raise GameError(f"{hole} does not hold a peg of seat {penalty.victim} on the track")
        self._emit({"event": "penalty", "seat": penalty.victim, "hole": hole, "by": seat})
        self._after_action()

    @_atomic
    def decline_extra_turn(self) -> None:
        """An extra turn won by a doubt is an option (Bluffing Joker); decline it before acting."""
        if not self._state.extra_turn or self._state.acted:
            raise GameError("there is no extra turn to decline now")
        self._emit({"event": "decline", "seat": self.turn})
        self._end_turn()

    @_atomic
    def undo(self) -> None:
        """Take back the last turn: back to before its draw, its cards returned in order.

        Undo never goes back past new information: a deal, a reshuffle or a revealed
        bluff card. A turn not begun yet is skipped over to the one before it.
        """
        markers = [i for i, event in enumerate(self._effective) if event["event"] == "turn"]
        target = markers[-1]
        if target == len(self._effective) - 1:
            if len(markers) < 2:
                raise GameError("nothing to undo")
            target = markers[-2]
        if any(event["event"] in NEW_INFORMATION or event.get("doubt") for event in self._effective[target + 1 :]):
            raise GameError("cannot undo past new information (a reshuffle or a revealed card)")
        self.events.append({"event": "undo"})
        self._rebuild(self._effective[: target + 1])

    # -- replay -----------------------------------------------------------------------

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Game:
        """Rebuild a game from its record, checking every event as it is applied."""
        events = list(events)
        if not events or events[0].get("event") != "start":
            raise GameError("a game record starts with a start event")
        start = events[0]
        try:
            rules = from_mapping(start["rules"])
            game = cls(rules, start["players"], mode=start["mode"], seed=start["seed"], teams=start["teams"],
                       first=start["first"], pegs=start.get("pegs"), table=start.get("table"),
                       _replaying=True)  # fmt: skip
        except (KeyError, TypeError, ValueError) as error:
            raise GameError(f"bad start event: {error}") from None
        for number, event in enumerate(events, 1):
            try:
                game.replay_event(event)
            except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
                raise GameError(f"event {number} ({event.get('event')}): {error}") from None
        return game

    def replay_event(self, event: Event) -> None:
        """Apply one recorded event, checking it as the live action would have."""
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise GameError("an event is an object with an 'event' name")
        if event["event"] == "undo":
            self.undo()
        else:
            self._emit(event)

    def _rebuild(self, effective: list[Event]) -> None:
        self._effective = []
        self._state = self._fresh_state()
        for event in effective:
            self._effective.append(event)
            self._apply(event)

    # -- turn flow ----------------------------------------------------------------------

    def _begin_turn(self, seat: int, extra: bool) -> None:
        self._emit({"event": "turn", "seat": seat, "number": self._state.turn_number + 1, "extra": extra})

    def _after_action(self) -> None:
        winner = self.position.winner()
        if winner:
            self._emit({"event": "win", "team": list(winner)})
        elif self.mode == "digital" and self.rules.draw == "after":
            self._state.phase = "draw"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        seat, state = self.turn, self._state
        if any(won < state.turn_number for won in state.extra_turns.get(seat, [])):
            self._begin_turn(seat, extra=True)
        else:
            self._begin_turn(self.board.next_seat(seat), extra=False)

    def _after_doubt(self) -> None:
        """Bluffing Joker: "If no doubts are raised, the peg is moved"; a doubt decides who
        loses a peg, and a caught bluff ends the turn with no move."""
        state = self._state
        bluff = state.bluff
        if bluff is None or state.phase in ("doubt", "reveal"):
            return  # more opponents to answer, or the card still to be turned up
        truthful = bluff.card == bluff.declared or self._explains(bluff.card, bluff.text)
        if bluff.doubter is None or truthful:
            self._make_move(bluff.seat, parse_move(self.position, bluff.text, self.rules), free=False)
        self._emit({"event": "settle", "seat": bluff.seat})
        if bluff.doubter is None or self.position.winner():
            self._after_action()
            return
        chooser, victim = (bluff.seat, bluff.doubter) if truthful else (bluff.doubter, bluff.seat)
        if any(self.board.is_track(hole) for hole in self.position.on_board(victim)):
            self._emit({"event": "penalty-due", "chooser": chooser, "victim": victim})
        else:  # "has no pegs out of start yet": the chooser may take an extra turn
            self._emit({"event": "extra", "seat": chooser})
            self._after_action()

    def _explains(self, card: str | None, text: str) -> bool:
        """The shown card could have made the announced move: then it was no bluff."""
        if card is None:
            return False
        try:
            return parse_move(self.position, f"{card} {text.split(' ', 1)[1]}", self.rules).key == parse_move(
                self.position, text, self.rules).key  # fmt: skip
        except (NotationError, IndexError):
            return False

    def _make_move(self, seat: int, move: Move, free: bool) -> None:
        self._known_move = move  # already checked: spare _apply parsing it again
        self._emit({"event": "move", "seat": seat, "text": move.text, **({"free": True} if free else {})})
        for bump in move.bumps:
            target = "S" + str(bump.seat) if self.board.is_start(bump.target) else self.board.hole_name(bump.target)
            self._emit({"event": "bump", "seat": bump.seat, "by": seat,
                        "from": self.board.hole_name(bump.source), "to": target})  # fmt: skip

    def _reshuffle(self) -> None:
        """The rules page does not say; every table reshuffles the played cards when the stock runs out."""
        stock = shuffled(self._state.discards, self._rng(self._state.reshuffles + 1))
        self._emit({"event": "reshuffle", "stock": stock})

    def _rng(self, reshuffles: int = 0) -> random.Random:
        return random.Random(f"{self.seed}:{reshuffles}")

    # -- checks -------------------------------------------------------------------------

    def _need_phase(self, phase: Phase) -> None:
        if self.phase == "over":
            raise GameError(f"the game is over: team {list(self.winner or ())} won")
        if self.phase != phase:
            raise GameError(f"cannot {_VERBS[phase]} now: waiting for {_WAITING[self.phase]}")

    def _need_digital(self, action: str) -> None:
        if self.mode != "digital":
            raise GameError(f"cannot {action} at a real table: the referee does not hold the cards")

    def _card_from_hand(self, card: str | None) -> str | None:
        if card is None:
            if self.mode == "digital":
                raise GameError("say which card is played")
            return None
        card = parse_card(card)
        if self.mode == "digital" and card not in self._state.hands.get(self.turn, []):
            raise GameError(f"seat {self.turn} does not hold {card}: hand {self.hand(self.turn)}")
        return card

    def _resolve(self, card: str | None, move: Move | str, free: bool) -> Move:
        """The legal move meant, for the card played (or for any card, undeclared)."""
        text = move if isinstance(move, str) else move.text
        if free:
            if card is None and self.mode == "digital":
                raise GameError("say which card is discarded for the free come-out")
            for candidate in self.free_come_outs(card or JOKER):
                if candidate.text.split()[1:] == text.split()[-1:]:
                    return candidate
            raise GameError(f"{text!r} is not a free come-out for seat {self.turn} now")
        if card is None:
            written = text.split()[0] if text.split() else ""
            if isinstance(move, Move):
                written = move.card
            card = parse_card(written)
        try:
            chosen = parse_move(self.position, text, self.rules)
        except NotationError as error:
            raise GameError(str(error)) from None
        if chosen.card != card:
            raise GameError(f"{text!r} is not a move of the card played ({card})")
        return chosen

    # -- the only code that changes state -------------------------------------------------

    def _emit(self, event: Event) -> None:
        self._apply(event)
        self._effective.append(event)
        self.events.append(event)

    def _fresh_state(self) -> _State:
        return _State(position=self._start)

    def _apply(self, event: Event) -> None:
        state, kind = self._state, event["event"]
        seat: Any = event.get("seat")
        if kind == "start":
            return
        if kind == "deal":
            state.hands = {int(s): list(cards) for s, cards in event["hands"].items()}
            state.stock = list(event["stock"])
        elif kind == "turn":
            if seat not in self.board.seats:
                raise GameError(f"no seat {seat}")
            if event["extra"]:
                won = [n for n in state.extra_turns.get(seat, []) if n < state.turn_number]
                if not won:
                    raise GameError(f"seat {seat} has no extra turn")
                state.extra_turns[seat].remove(won[0])
            state.position = state.position.with_turn(seat)
            state.turn_number = event["number"]
            state.extra_turn = event["extra"]
            state.acted = False
            state.phase = "draw" if self.mode == "digital" and self.rules.draw == "before" else "play"
        elif kind == "draw":
            self._check_turn(seat)
            if not state.stock or state.stock[-1] != event["card"]:
                raise GameError(f"the top of the stock is not {event['card']}")
            state.hands[seat].append(state.stock.pop())
            state.acted = True
            state.phase = "play" if self.rules.draw == "before" else state.phase
        elif kind == "reshuffle":
            if sorted(event["stock"]) != sorted(state.discards):
                raise GameError("a reshuffle must use exactly the played cards")
            state.stock, state.discards = list(event["stock"]), []
            state.reshuffles += 1
        elif kind in ("play", "discard"):
            self._check_turn(seat)
            self._take_card(seat, event.get("card"))
            state.acted = True
            if kind == "discard":
                state.counts[seat] = state.counts.get(seat, 0) + 1
            elif "declared" in event:
                self._apply_declaration(event)
        elif kind == "move":
            self._apply_move(event)
        elif kind == "bump":
            state.bumps.append(event)
        elif kind == "doubt":
            self._apply_doubt(event)
        elif kind == "reveal":
            if state.bluff is None or state.phase != "reveal":
                raise GameError("no doubted card to turn up")
            state.bluff.card = parse_card(event["card"])
            state.phase = "play"
        elif kind == "settle":
            state.bluff = None
            state.phase = "play"
        elif kind == "penalty-due":
            state.penalty = _Penalty(event["chooser"], event["victim"])
            state.phase = "penalty"
        elif kind == "penalty":
            self._apply_penalty(event)
        elif kind == "extra":
            state.extra_turns.setdefault(seat, []).append(state.turn_number)
        elif kind == "decline":
            state.acted = True
        elif kind == "win":
            state.winner = tuple(event["team"])
            state.phase = "over"
        else:
            raise GameError(f"unknown event {kind!r}")

    def _check_turn(self, seat: Any) -> None:
        if seat != self.turn:
            raise GameError(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def _take_card(self, seat: int, card: str | None) -> None:
        if self.mode == "digital":
            hand = self._state.hands[seat]
            if card not in hand:
                raise GameError(f"seat {seat} does not hold {card}")
            hand.remove(card)
        if card is not None:
            self._state.discards.append(card)

    def _apply_move(self, event: Event) -> None:
        state = self._state
        self._check_turn(event["seat"])
        if state.bluff is not None and state.bluff.doubter is None and state.bluff.doubters:
            raise GameError("the opponents have not answered the declaration yet")
        known, self._known_move = self._known_move, None
        if event.get("free"):
            card = event["text"].split()[0]
            matches = [m for m in self.free_come_outs(card) if m.text == event["text"]]
            if not matches:
                raise GameError(f"{event['text']!r} is not a free come-out now")
            move = matches[0]
        elif known is not None and known.text == event["text"] and known.before == state.position:
            move = known
        else:
            move = parse_move(state.position, event["text"], self.rules)
        state.position = move.result
        state.made.append(move)
        state.counts[event["seat"]] = 0
        state.phase = "play"

    def _apply_declaration(self, event: Event) -> None:
        seat, declared = event["seat"], parse_card(event["declared"])
        team = self.board.team_of[seat]
        order = [other for other in _clockwise(self.board, seat) if other not in team]
        self._state.bluff = _Bluff(seat, declared, event.get("card"), event["text"], order)
        self._state.phase = "doubt"

    def _apply_doubt(self, event: Event) -> None:
        state = self._state
        bluff = state.bluff
        if bluff is None or not bluff.doubters or bluff.doubters[0] != event["seat"]:
            raise GameError("no doubt is asked of that seat now")
        bluff.doubters.pop(0)
        if event["doubt"]:
            bluff.doubter = event["seat"]
            bluff.doubters.clear()
            state.phase = "reveal" if bluff.card is None else "play"
        elif not bluff.doubters:
            state.phase = "play"

    def _apply_penalty(self, event: Event) -> None:
        state = self._state
        penalty = state.penalty
        if penalty is None or event["seat"] != penalty.victim or event["by"] != penalty.chooser:
            raise GameError("no such penalty is due")
        hole = self.board.hole_index(event["hole"])
        if not self.board.is_track(hole) or state.position.colour_at(hole) != penalty.victim:
            raise GameError(f"{event['hole']} does not hold a peg of seat {penalty.victim} on the track")
        occupancy = bytearray(state.position.occupancy)
        occupancy[hole] = 0
        state.position = state.position.with_occupancy(bytes(occupancy))
        state.bumps.append({"event": "bump", "seat": penalty.victim, "by": penalty.chooser, "from": event["hole"],
                            "to": f"S{penalty.victim}", "penalty": True})  # fmt: skip
        state.penalty = None
        state.phase = "play"


def seat_number(key: object) -> int | None:
    """A seat number as a request or a stored game names it: an int, or its ASCII digits
    without a leading zero ("1", not "01", "+1", " 1" or an Arabic-Indic "١"); None otherwise."""
    if type(key) is int:
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit() and (key == "0" or not key.startswith("0")):
        return int(key)
    return None


def _clockwise(board: Board, seat: int) -> list[int]:
    """The other seats in play, clockwise from ``seat``."""
    order, current = [], board.next_seat(seat)
    while current != seat:
        order.append(current)
        current = board.next_seat(current)
    return order


_VERBS: dict[str, str] = {"draw": "draw", "play": "play or discard", "doubt": "doubt", "reveal": "turn up the card",
                          "penalty": "choose a peg", "over": "play"}  # fmt: skip
_WAITING: dict[str, str] = {
    "draw": "the player to draw a card",
    "play": "the player to play a card",
    "doubt": "the opponents to doubt or pass",
    "reveal": "the doubted card to be turned up",
    "penalty": "a peg to be chosen to go back to start",
    "over": "nothing: the game is over",
}

"""Whole games at a real table, through the session (the daemon's turn state machine).

An adversarial test: people (``table_hands``, written without ``referee.physical``) carry
out random legal moves in random human ways (pegs out of any start hole, bumped pegs into
any free one, knocks, pauses between the parts of a split, Done pressed, pressed late or
not at all), make mistakes at a known rate and put the board back, take turns back with
undo and follow the lights, and the session must:

- record every intended move exactly (seat and move; asked about when several fit);
- never accept a mistake, never discard because of Done, never skip a seat;
- let the game go on after every mistake and undo, and rebuild from its stored record.

The rule texts: the main Pegs and Jokers rules page (the basic game and its variants;
"Players and Equipment" for the board), the club rule sheet (2-player boards, Larry
Hatcher's Social Security). The behaviours are the issue's (quoted in each test).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import CARDS, PRESETS, Position, Ruleset, legal_moves, mover_seats
from referee.game import Game, GameError
from referee.moves import Move, parse_notation
from referee.table.session import Session
from referee.table.store import Store
from tests.strategies import crowded_position
from tests.table_hands import (
    Act,
    ExecutorError,
    Key,
    Table,
    after,
    carry_out,
    colour_swap,
    move_parts,
    opponent_peg,
    position_key,
    possible_boards,
    put_back,
    split_midway,
    start_seat,
    wrong_destination,
    wrong_start,
)

SETTLE = 700
RULES = sorted(set(PRESETS) - {"bluffing-joker"})  # Bluffing Joker needs doubts answered: not here
MISTAKE_RATE = 0.15
UNDO_RATE = 0.06
RESTART_RATE = 0.03


class Refusal(AssertionError):
    """The session did something the issue says it must not."""


class Sitting:
    """One game at one table: the session, the wooden board as it really is, and a log
    of everything done to the session (the reproduction, should something fail)."""

    def __init__(
        self,
        tmp_path: Path,
        rules: str,
        players: int,
        seed: int,
        *,
        pegs: dict[str, list[str]] | None = None,
        random_starts: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.store = Store.open(tmp_path)
        start = Position.from_json({"players": players, "pegs": pegs or {}})
        self.table = Table.from_position(start, self.rng if random_starts else None)
        self.session = Session.new(
            self.store,
            Ruleset.preset(rules),
            players=players,
            mode="table",
            seed=seed,
            settle_ms=SETTLE,
            pegs=pegs,
            sensed=self.table.occupied(),
        )
        self.log: list[str] = [
            f"Session.new(rules={rules!r}, players={players}, seed={seed}, pegs={pegs!r}, sensed={self.table.occupied()!r})"
        ]
        self.ms = 0
        self.base = self.table.copy()  # the board when this turn began
        self.acts: list[Act] = []  # what hands did since
        self.turns: list[tuple[int, str | None]] = []  # (seat, move text or None for a discard) as intended
        self.window: tuple[Position, str] | None = None  # the last move while it may still be amended
        self.counts = {
            "moves": 0,
            "discards": 0,
            "mistakes": 0,
            "undos": 0,
            "restarts": 0,
            "ambiguous": 0,
            "pauses": 0,
            "amended": 0,
        }
        self.expect(self.session.report.status == "synced", "the board at the start is not synced")

    # -- talking to the session ----------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    def expect(self, condition: bool, what: str) -> None:
        if not condition:
            tail = "\n".join(self.log[-60:])
            report = self.session.report
            raise Refusal(
                f"{what}\nstatus {report.status}, back {[str(f) for f in report.back]}, "
                f"history {self.game.history[-4:]}, turn {self.game.turn}\n--- last calls ---\n{tail}"
            )

    def act(self, act: Act) -> None:
        if act.kind == "pause":
            self.pause()
            return
        self.ms += self.rng.randint(40, 300)
        self.table.apply(act)
        self.acts.append(act)
        self.log.append(f"sense({self.ms}, {act.kind!r}, {act.hole!r})   # seat {act.colour}'s peg")
        self.session.sense(self.ms, act.kind, act.hole)
        self.session.save_turn()  # as the daemon does after each sensor event
        if self.rng.random() < 0.2:  # the daemon's ticker runs between events: too soon to commit
            self.tick()

    def run(self, acts: list[Act]) -> None:
        for act in acts:
            self.act(act)

    def tick(self) -> None:
        self.log.append(f"tick({self.ms})")
        self.session.tick(self.ms)

    def pause(self) -> None:
        """Longer than the settle time: a board that shows a move is committed."""
        self.ms += SETTLE + self.rng.randint(1, 1500)
        self.tick()

    def done(self) -> None:
        self.ms += self.rng.randint(30, 400)
        self.log.append(f"done({self.ms})")
        self.session.done(self.ms)
        self.window = None  # Done closes the amendment window

    def discards(self) -> int:
        return sum(1 for event in self.game.events if event.kind == "discard")

    def history(self) -> list[tuple[int, str]]:
        return list(self.game.history)

    # -- the board -----------------------------------------------------------------------

    def follow_back(self) -> None:
        """Put the board right by following ``report.back``, one fix at a time, checking
        that every colour it names is the colour really there (or needed there)."""
        for _ in range(60):
            report = self.session.report
            if report.status == "synced" or report.status == "ambiguous" and not report.back:
                return
            self.expect(bool(report.back), f"status {report.status} with nothing in 'back' to follow")
            fix = report.back[0]
            if fix.action == "remove":
                self.expect(fix.hole in self.table.pegs, f"back says {fix} but {fix.hole} is empty")
                colour = self.table.pegs[fix.hole]
                self.expect(
                    fix.seat is None or fix.seat == colour,
                    f"back says {fix} but the peg in {fix.hole} is seat {colour}'s",
                )
                self.act(Act("lift", fix.hole, colour))
            else:
                self.expect(fix.hole not in self.table.pegs, f"back says {fix} but {fix.hole} holds a peg")
                if fix.seat is not None:
                    self.expect(
                        fix.seat in self.table.hand,
                        f"back says {fix} but no peg of seat {fix.seat} is in hand ({self.table.hand})",
                    )
                    colour = fix.seat
                else:  # any peg: the one the game wants there, as the person knows
                    wanted = self.wanted_colour(fix.hole)
                    self.expect(
                        wanted in self.table.hand,
                        f"back says {fix}: seat {wanted}'s peg belongs there but the hand holds {self.table.hand}",
                    )
                    assert wanted is not None
                    colour = wanted
                self.act(Act("place", fix.hole, colour))
        self.expect(False, "following 'back' never brought the board back")

    def wanted_colour(self, hole: str) -> int | None:
        seat = start_seat(hole)
        if seat is not None:
            return seat
        return self.game.position.colour_at(self.game.board.hole_index(hole))

    def check_board(self, what: str) -> None:
        self.expect(
            self.table.shows(self.game.position),
            f"{what}: the table does not show the game: {self.table.differences(self.game.position)}",
        )

    # -- what counts as legal now ----------------------------------------------------------

    def legal_keys(self, position: Position, declared: str | None) -> set[Key]:
        cards = [declared] if declared else list(CARDS)
        keys = {position_key(m.result) for card in cards for m in self.game.legal(card)}
        keys |= {position_key(m.result) for card in cards for m in self.game.free_come_outs(card)}
        return keys

    def amendment_keys(self) -> set[Key]:
        """Results that finish the last seat's move, while its window may be open."""
        if self.window is None:
            return set()
        before, text = self.window
        board = before.board
        try:
            _, steps = parse_notation(text, board)
        except ValueError:
            return set()
        committed = {(source, target) for source, target, _ in steps}
        keys = set()
        for card in CARDS:
            for move in legal_moves(before, card, self.game.rules):
                if committed <= {(s.source, s.target) for s in move.steps}:
                    keys.add(position_key(move.result))
        return keys

    # -- a turn ------------------------------------------------------------------------------

    def turn(self) -> None:
        rng, game = self.rng, self.game
        if self.turns and rng.random() < UNDO_RATE:
            self.undo()
            return
        if rng.random() < RESTART_RATE:
            self.restart()
        seat, position = game.turn, game.position
        self.base, self.acts = self.table.copy(), []
        declared = None
        card = rng.choice(CARDS)
        moves = game.legal(card) + game.free_come_outs(card)
        if rng.random() < 0.3:
            self.log.append(f"declare({seat}, {card!r})")
            if moves:
                self.session.declare(seat, card)
                declared, self.window = card, None
            else:
                self.declare_unplayable(seat, card)
        if not moves:
            self.cannot_move(seat)
            return
        intended = rng.choice(moves)
        if rng.random() < MISTAKE_RATE:
            self.mistake(seat, position, declared, intended)
        self.make(seat, position, declared, intended)

    def declare_unplayable(self, seat: int, card: str) -> None:
        """The issue: "declare only what is played": a card with no move is refused, and the
        turn goes on as if it had never been tapped (an open window stays open)."""
        before = (self.history(), self.discards(), self.session.declared, self.session.tracker.to_json())
        with pytest.raises(GameError, match="can't move any peg"):
            self.session.declare(seat, card)
        after = (self.history(), self.discards(), self.session.declared, self.session.tracker.to_json())
        self.expect(after == before, f"a refused declaration of {card} changed the turn")

    def cannot_move(self, seat: int) -> None:
        """ "Saying 'I can't move' is a deliberate discard"; a habitual Done first is not one."""
        before, discards = self.history(), self.discards()
        if self.rng.random() < 0.5:
            self.done()
            self.expect(
                self.game.turn == seat and self.discards() == discards and self.history() == before,
                "Done on an untouched board discarded or passed the turn",
            )
        self.log.append(f"discard({seat}, None)")
        self.session.discard(seat, None)
        self.window = None
        self.turns.append((seat, None))
        self.counts["discards"] += 1
        self.expect(self.discards() == discards + 1 and self.history() == before, "the discard was not recorded")
        self.expect(self.game.turn == self.game.board.next_seat(seat), "the discard did not pass the turn")

    def mistake(self, seat: int, position: Position, declared: str | None, intended: Move) -> None:
        rng, table, game = self.rng, self.table, self.game
        kinds = ["destination", "opponent", "swap", "start"] + (["card"] * 2 if declared else [])
        kind = rng.choice(kinds)
        acts: list[Act] | None
        if kind == "destination":
            acts = wrong_destination(table, mover_seats(position, game.rules) or (seat,), rng)
        elif kind == "opponent":
            team = set(game.board.team_of[seat])
            acts = opponent_peg(table, [s for s in game.board.seats if s not in team], rng)
        elif kind == "swap":
            acts = colour_swap(table, rng)
        elif kind == "start":
            acts = wrong_start(table, intended, rng)
        else:
            assert declared is not None
            others = [m for c in CARDS if c != declared for m in game.legal(c)]
            acts = carry_out(table, rng.choice(others), rng) if others else None
        if not acts:
            return
        seen = possible_boards(table, acts)  # what the events could have done, colour by colour
        if seen is None or seen & (
            {position_key(position)} | self.legal_keys(position, declared) | self.amendment_keys()
        ):
            return  # not a mistake the sensors could tell: some reading of the events is legal
        strict = kind == "swap" and self.window is None
        self.counts["mistakes"] += 1
        history, discards, turn = self.history(), self.discards(), game.turn
        snapshot = dict(table.pegs)
        self.log.append(f"# mistake: {kind}")
        self.run(acts)
        if rng.random() < 0.5:
            self.pause()
        if rng.random() < 0.5:
            self.done()
        status = self.session.report.status
        self.expect(
            self.history() == history and self.discards() == discards and self.game.turn == turn,
            f"a mistake ({kind}) was accepted",
        )
        allowed = ("illegal",) if strict else ("illegal", "moving")
        self.expect(status in allowed, f"a mistake ({kind}) shows as {status!r}, not {' or '.join(allowed)}")
        if rng.random() < 0.5:
            self.follow_back()
        else:
            self.run(put_back(table, snapshot, rng))
        self.nothing_moved(position)
        self.expect(self.session.report.status == "synced", "the board put back after a mistake is not synced")
        self.check_board("after a mistake was put back")

    def nothing_moved(self, position: Position) -> None:
        """The board is back as the turn began; if the events could also mean a legal move
        (two pegs in hand at once, put down the other way round), the table is asked and
        says nothing moved."""
        report = self.session.report
        if report.status != "ambiguous":
            return
        seen = possible_boards(self.base, self.acts)
        self.expect(
            seen is None or position_key(position) in seen,
            "ambiguous after the board was put back, though no reading of the events is unchanged",
        )
        self.expect(
            seen is None or all(position_key(m.result) in seen for m in report.candidates),
            f"ambiguous with {[m.text for m in report.candidates]}, not all of which the events allow",
        )
        self.counts["ambiguous"] += 1
        self.log.append("resolve(None)   # nothing moved")
        self.session.resolve(None)

    def prefix_only(self, midway: Table, declared: str | None, intended: Move) -> bool:
        """Whether every legal move that leaves the board as it is after a split's first
        part is that first part (its steps among the intended move's). Otherwise the board
        after the pause *is* another complete move, which the settle time rightly commits
        (e.g. North Carolina's 10 split into a peg out and bumped straight back to its
        in-spot), and finishing the split cannot amend it: a person would not pause there."""
        steps = {(step.source, step.target) for step in intended.steps}
        cards = [declared] if declared else list(CARDS)
        key = midway.key()
        for card in cards:
            for move in self.game.legal(card) + self.game.free_come_outs(card):
                if position_key(move.result) == key and not {(t.source, t.target) for t in move.steps} <= steps:
                    return False
        return True

    def make(self, seat: int, position: Position, declared: str | None, intended: Move) -> None:
        rng, table = self.rng, self.table
        history, discards = self.history(), self.discards()
        parts = move_parts(table, intended, rng)
        pause = len(parts) == 2 and all(parts) and rng.random() < 0.5
        if pause:
            midway = split_midway(table, intended, parts)
            if midway is None or _wins(midway, position) or not self.prefix_only(midway, declared, intended):
                pause = False
        self.counts["pauses"] += pause
        self.log.append(f"# seat {seat} makes {intended.text}" + (f" (declared {declared})" if declared else ""))
        self.run(carry_out(table, intended, rng, pause=pause, hovers=0.04, parts=parts))
        finish = rng.random()
        confirmed = False
        if finish < 0.35:
            self.done()
            confirmed = True
        elif finish < 0.55:
            self.pause()
            self.done()  # pressed late: after the settle time committed the move
            confirmed = True
        elif finish < 0.85:
            self.pause()
        else:
            self.done()
            self.done()  # a habitual second press
            confirmed = True
        report = self.session.report
        if (
            report.status == "ambiguous"
            and len(self.history()) == len(history)
            or report.status == "ambiguous"
            and report.amendments
        ):
            self.counts["ambiguous"] += 1
            text = self.choose(seat, declared, intended, report.candidates, report.amendments)
            self.log.append(f"resolve({text!r})")
            self.session.resolve(text)
            confirmed = False
            if rng.random() < 0.5:
                self.done()
                confirmed = True
        now = self.history()
        self.expect(
            len(now) == len(history) + 1 and now[: len(history)] == history,
            f"seat {seat}'s {intended.text} was not recorded as one more move",
        )
        recorded_seat, recorded = now[-1]
        self.expect(recorded_seat == seat, f"{intended.text} recorded for seat {recorded_seat}, not seat {seat}")
        if declared:
            self.expect(recorded == intended.text, f"recorded {recorded!r}, intended {intended.text!r}")
        self.expect(
            self.game.position.occupancy == intended.result.occupancy,
            f"recorded {recorded!r}: not the board of the intended {intended.text!r}",
        )
        self.expect(self.discards() == discards, "a discard was recorded with a move")
        if self.game.phase != "over":
            self.expect(
                self.game.turn == self.game.board.next_seat(seat),
                f"after seat {seat}'s move the turn is seat {self.game.turn}'s",
            )
            self.expect(self.session.report.status == "synced", "the next seat's board is not synced")
        self.check_board("after a move")
        self.turns.append((seat, recorded))
        self.counts["moves"] += 1
        self.counts["amended"] += pause
        self.window = None if confirmed else (position, recorded)

    def choose(
        self,
        seat: int,
        declared: str | None,
        intended: Move,
        candidates: tuple[Move, ...],
        amendments: tuple[Move, ...],
    ) -> str:
        """The intended move among several that fit: its text when the card was declared;
        undeclared, this seat's candidate with the intended board (any card explains it)."""
        texts = [m.text for m in candidates]
        if declared or intended.text in texts:
            self.expect(intended.text in texts, f"ambiguous, but {intended.text!r} is not among {texts}")
            return intended.text
        mine = [m for m in candidates if m not in amendments and m.result.occupancy == intended.result.occupancy]
        self.expect(bool(mine), f"ambiguous, but no candidate gives the board of {intended.text!r}: {texts}")
        return mine[0].text

    def undo(self) -> None:
        """ "Undo leaves a board that can be fixed by following report.back (colour named),
        and the game goes on." """
        seat, _ = self.turns.pop()
        self.log.append("undo()")
        self.session.undo()
        self.window = None
        self.counts["undos"] += 1
        self.expect(self.game.turn == seat, f"after undo the turn is seat {self.game.turn}'s, not seat {seat}'s")
        self.expect(self.history() == [(s, t) for s, t in self.turns if t is not None], "undo took back the wrong turn")
        self.follow_back()
        self.check_board("after undo and following 'back'")

    def restart(self) -> None:
        """The daemon stops (saving the turn, as ``Table.stop`` does) and starts again between
        turns: the stored game, its turn and the sensed board resume."""
        history, turn = self.history(), self.game.turn
        self.log.append("save_turn(durable=True)   # the daemon stops")
        self.session.save_turn(durable=True)
        self.log.append(
            f"Session.resume(store, {self.session.game_id}, settle_ms={SETTLE}, sensed={self.table.occupied()!r})"
        )
        self.session = Session.resume(self.store, self.session.game_id, settle_ms=SETTLE, sensed=self.table.occupied())
        self.counts["restarts"] += 1
        self.expect(self.history() == history and self.game.turn == turn, "the resumed game differs")
        self.expect(self.session.report.status == "synced", "the resumed board is not synced")

    def finish(self) -> None:
        """The record on disk rebuilds the same game."""
        stored = self.store.events(self.session.game_id)
        self.expect(stored == self.game.events, "the store does not hold every event of the game")
        self.expect(Game.from_events(stored).history == self.game.history, "the stored record rebuilds another history")


def _wins(table: Table, position: Position) -> bool:
    """Whether the board wins the game for some team (every peg of its seats home)."""
    board = position.board
    for team in board.teams:
        if all(
            sum(1 for hole, colour in table.pegs.items() if hole.startswith(f"H{seat}:") and colour == seat) == 5
            for seat in team
        ):
            return True
    return False


def play(
    tmp_path: Path, rules: str, players: int, seed: int, turns: int, crowded: bool, random_starts: bool
) -> Sitting:
    pegs = None
    if crowded:
        start = crowded_position(players, random.Random(seed).randint(players, 3 * players), seed)
        if start.winner() is None:
            pegs = start.pegs_json()
    sitting = Sitting(tmp_path, rules, players, seed, pegs=pegs, random_starts=random_starts)
    for _ in range(turns):
        if sitting.game.phase == "over":
            break
        sitting.turn()
    sitting.finish()
    return sitting


# -- the property ------------------------------------------------------------------------------


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    seed=st.integers(0, 2**31 - 1),
    rules=st.sampled_from(RULES),
    players=st.sampled_from([2, 4, 6, 8, 10]),
    crowded=st.booleans(),
    random_starts=st.booleans(),
)
def test_whole_games_at_a_table(
    tmp_path_factory: pytest.TempPathFactory, seed: int, rules: str, players: int, crowded: bool, random_starts: bool
) -> None:
    """Up to 60 turns of random legal moves (the rules page: every card's moves under each variant;
    the club sheet: 2-player boards) carried out by hand with mistakes (15%), undos and restarts.
    The issue: "Done confirms the move just made"; "a habitual Done after every move never
    skips the next player or discards"; the amendment window is "only for the rest of the
    same seat's move"; "colours are checked wherever occupancy alone would accept a wrong
    board"; "undo leaves a board that can be fixed by following report.back"; "when several
    legal results fit, the session asks; resolving with the intended text records it"."""
    play(tmp_path_factory.mktemp("table"), rules, players, seed, turns=60, crowded=crowded, random_starts=random_starts)


# -- sharp scenarios -------------------------------------------------------------------------


def sitting(tmp_path: Path, rules: str = "basic", players: int = 4, **pegs: list[str]) -> Sitting:
    return Sitting(tmp_path, rules, players, seed=1, pegs={k[1:]: v for k, v in pegs.items()} or None)


def events(s: Sitting, *acts: str) -> None:
    """``"lift T0:8"`` / ``"place T0:10"`` / ``"pause"`` / ``"done"`` / ``"tick"``, colours from the table."""
    for text in acts:
        kind, _, hole = text.partition(" ")
        if kind == "done":
            s.done()
        elif kind == "pause":
            s.pause()
        elif kind == "tick":
            s.tick()
        elif kind == "lift":
            s.act(Act("lift", hole, s.table.pegs.get(hole)))
        else:
            s.act(Act("place", hole, s.table.hand[0] if len(set(s.table.hand)) == 1 else None))


def place(s: Sitting, hole: str, colour: int) -> None:
    s.act(Act("place", hole, colour))


def test_done_after_the_settle_time_confirms_and_never_discards(tmp_path: Path) -> None:
    """Defect 1. The issue: "Done confirms the move just made whether or not it already
    committed after the settle time; a habitual Done after every move never skips the next
    player or discards." (the rules page, "Movement of pegs": a peg comes out onto the come-out hole.)"""
    s = sitting(tmp_path)
    events(s, "lift S0:1", "place T0:8", "pause", "done")
    history = s.history()
    assert len(history) == 1 and history[0][0] == 0 and history[0][1].endswith(" S0-T0:8"), history
    assert s.discards() == 0 and s.game.turn == 1
    assert s.session.report.status == "synced"
    events(s, "done", "done")  # more habitual presses: still seat 1 to play, nothing discarded
    assert s.game.turn == 1 and s.discards() == 0 and s.history() == history


def test_cant_move_is_a_deliberate_discard(tmp_path: Path) -> None:
    """The issue: "Saying 'I can't move' is a deliberate discard"; Done on an untouched
    board is not one (the rules page, Basic Game: "if you have no cards ... that enable you to move you may
    discard one card")."""
    s = sitting(tmp_path)
    events(s, "done")
    assert s.game.turn == 0 and s.discards() == 0
    s.session.discard(0, None)
    assert s.game.turn == 1 and s.discards() == 1 and s.history() == []


@pytest.mark.parametrize("confirm", ["done", "settle"])
def test_the_next_seat_moving_the_last_peg_on_is_no_rewrite(tmp_path: Path, confirm: str) -> None:
    """Defect 3. The issue: "Any other change after a commit is the next seat's turn or a
    mistake, never a rewrite of a committed move." Seat 1 moving seat 0's peg on is an
    illegal move of seat 1 (the rules page: "You may only move your own pegs")."""
    s = sitting(tmp_path, s0=["T0:8", "S", "S", "S", "S"], s1=["T1:8", "S", "S", "S", "S"])
    events(s, "lift T0:8", "place T0:14", "done" if confirm == "done" else "pause")
    assert s.history() == [(0, "6 T0:8-T0:14")] and s.game.turn == 1
    events(s, "lift T0:14", "place T1:0", "pause", "done")
    assert s.history() == [(0, "6 T0:8-T0:14")], "seat 0's move was rewritten"
    assert s.game.turn == 1 and s.discards() == 0
    assert s.session.report.status == "illegal"
    s.follow_back()
    s.check_board("after putting seat 0's peg back")


def test_a_split_finished_after_a_pause_amends_the_committed_part(tmp_path: Path) -> None:
    """Defect 4. The issue: "The amendment window exists only for the rest of the same
    seat's move (the second part of a split after a pause longer than settle_ms, the
    bumped peg reaching its start)." The rules page: the seven may be split between two pegs; a peg
    landed on goes back to start."""
    s = sitting(tmp_path, s0=["T0:8", "T0:2", "S", "S", "S"], s1=["T0:6", "S", "S", "S", "S"])
    events(s, "lift T0:8", "place T0:11", "pause")
    events(s, "lift T0:6", "place S1:5", "lift T0:2", "place T0:6", "done")
    assert s.history() == [(0, "7 T0:8-T0:11 T0:2-T0:6x")] or s.history() == [(0, "7 T0:2-T0:6x T0:8-T0:11")], (
        s.history()
    )
    assert s.game.turn == 1 and s.discards() == 0
    assert s.session.report.status == "synced"
    s.check_board("after the amended split")


@pytest.mark.parametrize("closer", ["done", "declare", "next-move"])
def test_the_window_closes(tmp_path: Path, closer: str) -> None:
    """The issue: "The window closes at Done, when the next seat declares a card, or when
    the next seat's move is committed." After that, seat 0 finishing its seven is no
    amendment (and moving seat 0's peg is not seat 1's to do: the rules page)."""
    s = sitting(tmp_path, s0=["T0:8", "T0:2", "S", "S", "S"], s1=["T1:8", "S", "S", "S", "S"])
    events(s, "lift T0:8", "place T0:11", "pause")
    assert s.history() == [(0, "3 T0:8-T0:11")] and s.game.turn == 1
    if closer == "done":
        events(s, "done")
    elif closer == "declare":
        s.session.declare(1, "4")
    else:
        events(s, "lift T1:8", "place T1:12", "pause")
        assert s.history()[-1] == (1, "4 T1:8-T1:12")
    history = s.history()
    events(s, "lift T0:2", "place T0:6", "pause", "done")
    assert s.history() == history, "a closed window was amended"
    assert s.session.report.status == "illegal"
    s.follow_back()
    s.check_board("after putting seat 0's peg back")


def test_a_colour_swap_through_a_spare_hole_is_illegal(tmp_path: Path) -> None:
    """Defect 5. The issue: "Colours are checked wherever occupancy alone would accept a
    wrong board (e.g. a colour swap through a spare hole ... must be illegal, not synced)."
    (Basic has no swapping card: the rules page's two moves forward.)"""
    s = sitting(tmp_path, s0=["T0:8", "S", "S", "S", "S"], s1=["T1:8", "S", "S", "S", "S"])
    events(s, "lift T0:8", "place T0:10", "lift T1:8", "place T0:8", "lift T0:10", "place T1:8")
    assert s.session.report.status == "illegal"
    events(s, "pause", "done")
    assert s.history() == [] and s.game.turn == 0 and s.discards() == 0
    assert s.session.report.status == "illegal"
    fixes = {(f.action, f.hole, f.seat) for f in s.session.report.back}
    assert ("remove", "T0:8", 1) in fixes and ("remove", "T1:8", 0) in fixes, fixes
    s.follow_back()
    s.check_board("after the swap was put back")
    events(s, "lift T0:8", "place T0:13", "done")
    assert s.history() == [(0, "5 T0:8-T0:13")]


def test_undo_of_a_bump_is_put_back_by_following_the_lights(tmp_path: Path) -> None:
    """The issue: "Undo leaves a board that can be fixed by following report.back (colour
    named), and the game goes on." The rules page: a peg landed on goes back to start."""
    s = sitting(tmp_path, s0=["T0:8", "S", "S", "S", "S"], s1=["T0:13", "S", "S", "S", "S"])
    events(s, "lift T0:13", "place S1:5", "lift T0:8", "place T0:13", "done")
    assert s.history() == [(0, "5 T0:8-T0:13x")]
    s.session.undo()
    assert s.history() == [] and s.game.turn == 0
    assert s.session.report.status == "illegal"
    back = s.session.report.back
    assert all(fix.seat is not None for fix in back), [str(f) for f in back]
    s.follow_back()
    s.check_board("after undo")
    events(s, "lift T0:8", "place T0:12", "done")
    assert s.history() == [(0, "4 T0:8-T0:12")] and s.game.turn == 1


def test_a_two_swap_is_asked_about_and_recorded_as_resolved(tmp_path: Path) -> None:
    """The issue: "When several legal results fit (report 'ambiguous'), the session asks;
    resolving with the intended text records it." North Carolina's 2 swaps two pegs of
    different colours (the rules page, North Carolina Rules); lifting both and putting them down
    cannot show which went where."""
    s = Sitting(
        tmp_path, "north-carolina", 4, 1, pegs={"0": ["T0:5", "S", "S", "S", "S"], "1": ["T0:12", "S", "S", "S", "S"]}
    )
    s.act(Act("lift", "T0:5", 0))
    s.act(Act("lift", "T0:12", 1))
    place(s, "T0:5", 1)
    place(s, "T0:12", 0)
    s.pause()
    assert s.session.report.status == "ambiguous"
    texts = [m.text for m in s.session.report.candidates]
    assert "2 T0:5<>T0:12" in texts, texts
    assert s.history() == []
    s.session.resolve("2 T0:5<>T0:12")
    assert s.history() == [(0, "2 T0:5<>T0:12")] and s.game.turn == 1
    s.check_board("after the swap")


def test_a_bumped_peg_in_the_wrong_start_is_not_accepted(tmp_path: Path) -> None:
    """The issue: colours are checked where occupancy alone would accept a wrong board:
    the rules page: "it is sent back to its owner's start"; not any start."""
    s = sitting(
        tmp_path, s0=["T0:8", "S", "S", "S", "S"], s1=["T0:13", "S", "S", "S", "S"], s2=["T2:8", "S", "S", "S", "S"]
    )
    events(s, "lift T0:13", "place S2:5", "lift T0:8", "place T0:13", "pause", "done")
    assert s.history() == [] and s.discards() == 0 and s.game.turn == 0
    assert s.session.report.status in ("illegal", "moving")
    s.follow_back()
    s.check_board("after the wrong start was put back")


def test_a_move_the_declared_card_does_not_explain_is_not_accepted(tmp_path: Path) -> None:
    """The issue: a declared card "narrows the legal moves"; the rules page: a five moves five."""
    s = sitting(tmp_path, s0=["T0:8", "S", "S", "S", "S"])
    s.session.declare(0, "5")
    events(s, "lift T0:8", "place T0:12", "pause", "done")
    assert s.history() == [] and s.discards() == 0 and s.game.turn == 0
    assert s.session.report.status == "illegal"
    s.follow_back()
    events(s, "lift T0:8", "place T0:13", "done")
    assert s.history() == [(0, "5 T0:8-T0:13")]


@pytest.mark.parametrize("seed", range(3))
def test_executor_agrees_with_the_engine(seed: int) -> None:
    """The executor's own check: its replay of each move's steps leaves move.result, colour
    by colour (the rules page: the moves of every card; bumps to start or, for partners, the in-spot)."""
    rng = random.Random(seed)
    for _ in range(150):
        players = rng.choice([2, 4, 6, 8, 10])
        position = crowded_position(players, rng.randint(0, 5 * players), rng.randrange(10**6))
        rules = Ruleset.preset(rng.choice(sorted(PRESETS)))
        moves = list(legal_moves(position, rng.choice(CARDS), rules))
        if not moves:
            continue
        move = rng.choice(moves)
        table = Table.from_position(position, rng)
        try:
            end = after(table, carry_out(table, move, rng, pause=rng.random() < 0.5, hovers=0.1))
        except ExecutorError as error:
            pytest.fail(f"{rules.name} {move.text} from {position.to_json()}: {error}")
        assert end.shows(move.result), end.differences(move.result)


# -- what the whole games found (each reproduced on its own) -------------------------------


def test_back_never_names_a_colour_the_lifts_left_open(tmp_path: Path) -> None:
    """The issue: "Colours are checked wherever occupancy alone would accept a wrong board"
    and report.back is "what to fix, seat = the colour of the peg to take off / put there".
    Red and Blue are both in hand, then put down (Red on T0:13, Blue in seat 2's start:
    the rules page: a bumped peg goes to its *owner's* start). Following the lights must bring the
    board back colour by colour; it must never ask for a colour that is not in hand, nor
    end "synced" with Blue on T0:8 and Red on T0:13."""
    s = sitting(
        tmp_path, s0=["T0:8", "S", "S", "S", "S"], s1=["T0:13", "S", "S", "S", "S"], s2=["T2:8", "S", "S", "S", "S"]
    )
    s.act(Act("lift", "T0:8", 0))
    s.act(Act("lift", "T0:13", 1))
    place(s, "T0:13", 0)
    place(s, "S2:5", 1)
    assert s.session.report.status in ("illegal", "moving")
    s.follow_back()
    s.check_board("after following the lights")
    assert s.session.report.status == "synced" and s.history() == []  # type: ignore[comparison-overlap]  # mypy keeps the status narrowed by the assert above across the acts that change it


def test_a_declared_card_names_the_free_come_out(tmp_path: Path) -> None:
    """North Carolina counting (the rules page, North Carolina Rules, rule 9: "after discarding any card you
    must move one of your pegs to your 'come out' hole for free"): seat 0 declares its 7
    and comes out free. The issue: "session.declare(seat, card): the player says which card
    they play"; the record must say 7, the card played, not JOKER."""
    s = Sitting(tmp_path, "north-carolina", 4, 1)
    for _ in range(2):
        for seat in range(4):
            s.session.discard(seat, None)
    assert s.game.free_come_out_due()
    s.session.declare(0, "7")
    events(s, "lift S0:1", "place T0:8", "done")
    assert s.history() == [(0, "7 S0-T0:8")]


def test_an_invisible_second_part_after_a_pause_is_asked_about(tmp_path: Path) -> None:
    """The issue: the amendment window is for "the second part of a split after a pause
    longer than settle_ms". The rules page: a peg landing on a partner's peg sends it to its in-spot.
    Seat 0's seven: T0:8-T0:13, a pause, then T2:3-T2:5 sending partner seat 2's peg back
    to its in-spot T2:3: both pegs were in hand, so occupancy cannot tell it from nothing.
    Without the pause the session asks; after it, it must ask too, never keep the five
    silently with the colours of T2:3 and T2:5 swapped on the board."""
    s = sitting(tmp_path, s0=["T0:8", "T2:3", "S", "S", "S"], s2=["T2:5", "S", "S", "S", "S"])
    events(s, "lift T0:8", "place T0:13", "pause")
    assert s.history() == [(0, "5 T0:8-T0:13")]
    s.act(Act("lift", "T2:5", 2))
    s.act(Act("lift", "T2:3", 0))
    place(s, "T2:3", 2)
    place(s, "T2:5", 0)
    s.pause()
    report = s.session.report
    seven = [m.text for m in report.candidates if m.text.startswith("7 ")]
    assert report.status == "ambiguous" and seven, (report.status, [m.text for m in report.candidates])
    s.session.resolve(seven[0])
    assert s.history() == [(0, seven[0])] and s.game.turn == 1
    s.check_board("after the seven")


def test_done_on_a_question_answers_nothing(tmp_path: Path) -> None:
    """The session's own rule: "A board that both finishes the last move and is the next
    seat's move is asked about, never guessed"; the issue: Done "confirms the move just
    made" (here: none is). North Carolina's 10 splits over any peg (the rules page, North Carolina
    Rules): seat 0's 3 T0:9-T0:12 commits after a pause; then seat 2's peg moves 7 on: the rest of seat 0's
    ten, or seat 2's seven. Two habitual presses of Done must not pick one."""
    s = Sitting(
        tmp_path, "north-carolina", 2, 1, pegs={"0": ["T0:9", "S", "S", "S", "S"], "2": ["T0:14", "S", "S", "S", "S"]}
    )
    events(s, "lift T0:9", "place T0:12", "pause", "lift T0:14", "place T1:3")
    assert s.session.report.status == "ambiguous"
    events(s, "done", "done")
    assert s.history() == [(0, "3 T0:9-T0:12")], "Done guessed the answer to a question"
    assert s.session.report.status == "ambiguous"
    s.session.resolve("10 T0:9-T0:12 T0:14-T1:3")
    assert s.history() == [(0, "10 T0:9-T0:12 T0:14-T1:3")] and s.game.turn == 2


def test_the_next_seat_splitting_over_the_last_seats_peg_is_no_rewrite(tmp_path: Path) -> None:
    """The issue: "Any other change after a commit is the next seat's turn or a mistake,
    never a rewrite of a committed move." North Carolina (the rules page, North Carolina Rules: the 10 must be
    split, over any pegs, opponents' along the main track): seat 0 plays 2 T0:8-T0:10 (the
    settle time commits it); seat 1 plays a ten, 5 with seat 0's peg T0:2-T0:7, a pause,
    then 5 with its own T1:10-T1:15. Seat 0's two must stay a two (or the table be asked),
    and seat 1's ten be recorded as seat 1's."""
    s = Sitting(
        tmp_path,
        "north-carolina",
        4,
        1,
        pegs={"0": ["T0:8", "T0:2", "S", "S", "S"], "1": ["T1:10", "S", "S", "S", "S"]},
    )
    events(s, "lift T0:8", "place T0:10", "pause")
    assert s.history() == [(0, "2 T0:8-T0:10")] and s.game.turn == 1
    events(s, "lift T0:2", "place T0:7", "pause")
    assert s.history() == [(0, "2 T0:8-T0:10")], "seat 0's move was rewritten by seat 1's"
    events(s, "lift T1:10", "place T1:15", "done")
    history = s.history()
    assert history[0] == (0, "2 T0:8-T0:10") and len(history) == 2, history
    assert history[1][0] == 1 and history[1][1].startswith("10 "), history

"""What the board and the page say during a move, at a real table: people lift, pause, place,
press Done and put back on a wooden board (``table_hands``), and the daemon's session
referees it; what the page reads is ``referee.table.view.game_state`` and what the LEDs light
is the report's guidance.

The rule texts: the rules page, Basic Game (the seven split between two pegs, landing on a
peg sends it back, the joker lands on a peg, the counts each card moves, never passing your
own peg) and North Carolina Rules (the ten that must be split).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee import CARDS, Position, Ruleset, legal_moves
from referee.reasons import why_not
from referee.table.session import Session
from referee.table.store import Store
from referee.table.view import SessionState, game_state
from tests.strategies import positions
from tests.table_hands import Act, Table

NAMES = {"names": ["Red", "Sky blue", "Green", "Yellow"], "colours": ["#e53935", "#1e88e5", "#43a047", "#fdd835"]}
SETTLE = 700


class Hands:
    """A family at a real table: the wooden board as it is, and the daemon's session told of
    every peg lifted and placed, of time passing and of the Done button."""

    def __init__(self, path: Path, rules: str = "basic", first: int | None = None, **pegs: list[str]) -> None:
        start = {name[1:]: holes for name, holes in pegs.items()}
        self.board = Table.from_position(Position.from_json({"players": 4, "pegs": start}))
        self.session = Session.new(
            Store.open(path),
            Ruleset.preset(rules),
            4,
            pegs=start,
            seed=1,
            first=first,
            table=NAMES,
            settle_ms=SETTLE,
            sensed=self.board.occupied(),
        )
        self.ms = 0

    def lift(self, *holes: str) -> SessionState:
        for hole in holes:
            self.board.apply(Act("lift", hole))
            self.ms += 150
            self.session.sense(self.ms, "lift", hole)
        return self.page()

    def place(self, hole: str, colour: int | None = None) -> SessionState:
        colour = self.board.hand[-1] if colour is None else colour
        self.board.apply(Act("place", hole, colour))
        self.ms += 150
        self.session.sense(self.ms, "place", hole)
        return self.page()

    def pause(self, seconds: float = 2.0) -> SessionState:
        self.ms += int(seconds * 1000)
        self.session.tick(self.ms)
        return self.page()

    def done(self) -> SessionState:
        self.ms += 150
        self.session.done(self.ms)
        return self.page()

    def page(self) -> SessionState:
        return game_state(self.session)


def lit(state: SessionState, role: str) -> set[str]:
    return {hole for hole, said in state["guidance"].items() if said == role}


# -- 1. a pause in the middle of a split ----------------------------------------------------


def test_a_paused_split_says_how_much_is_left_and_lights_where_it_may_go(tmp_path: Path) -> None:
    """The rules page, Basic Game: "split the 7 between two of your pegs, moving them 1 and 6, 2
    and 5 or 3 and 4 holes forwards". Red moves 3, thinks for two seconds (the 3 is committed),
    then lifts her other peg: the page says what is left of the seven, the board lights the one
    hole the 4 reaches, and nothing says Sky blue is moving or that a bumped peg goes to start."""
    hands = Hands(tmp_path, s0=["T0:8", "T0:11", "S", "S", "S"])
    hands.lift("T0:11")
    hands.place("T0:14")
    state = hands.pause()
    assert state["status"] == "synced" and state["turn"] == 1 and state["finishing"] is None
    state = hands.lift("T0:8")
    assert state["status"] == "moving" and state["amending"]
    assert state["finishing"] == "Red: 4 more of the 7" and state["finishing_seat"] == 0
    assert state["guidance"] == {"T0:8": "selected", "T0:12": "destination"}
    assert state["why_not"] is None and not lit(state, "bump")
    state = hands.place("T0:12")
    assert state["status"] == "move" and state["amending"] and state["finishing"] is None
    assert "splits the 7" in (state["move_words"] or "")
    hands.pause()
    assert hands.session.game.history == [(0, "7 T0:11-T0:14 T0:8-T0:12")]


def test_a_peg_put_back_after_a_pause_leaves_the_first_part_standing(tmp_path: Path) -> None:
    """Red lifts her other peg after the pause and thinks better of it: the 3 stands, and
    Sky blue, coming out of her own start, is Sky blue's move, not the rest of Red's (the rules
    page, Basic Game: a peg comes out onto its come-out hole, or with a joker onto a peg)."""
    hands = Hands(tmp_path, s0=["T0:8", "T0:11", "S", "S", "S"])
    hands.lift("T0:11")
    hands.place("T0:14")
    hands.pause()
    hands.lift("T0:8")
    state = hands.place("T0:8")
    assert state["finishing"] is None and state["status"] == "synced"
    state = hands.lift("S1:1")
    assert not state["amending"] and state["finishing"] is None
    assert lit(state, "destination") == {"T1:8", "T0:8", "T0:14"}  # her come-out hole, Red's pegs (a joker)


def test_a_ten_split_after_a_pause_names_each_way_to_finish_it(tmp_path: Path) -> None:
    """North Carolina Rules: "Tens must be split between two different pegs". Red moves a peg 3
    and pauses: the rest may be the 4 of a seven, the 6 of a nine split forward and back, or the
    7 of a ten, and each is said."""
    hands = Hands(tmp_path, "north-carolina", s0=["T0:8", "T0:11", "S", "S", "S"])
    hands.lift("T0:11")
    hands.place("T0:14")
    hands.pause()
    state = hands.lift("T0:8")
    assert state["finishing"] == "Red: 4 more of the 7 or 6 more of the 9 or 7 more of the 10"
    assert lit(state, "destination") == {"T0:12", "T0:2", "T0:1"}  # 4 on, 6 back, 7 back (7 on passes T0:14)


# -- 2. a landing on another peg is a destination ----------------------------------------


def test_a_peg_that_would_be_bumped_is_lit_as_a_destination(tmp_path: Path) -> None:
    """The rules page, Basic Game: landing on a peg sends it "to its in-spot or start area"
    (a partner's or an opponent's). Red's lifted peg may go onto Sky blue's peg five holes on
    (a 5) and onto her partner Green's ten on (a 10 or a face card); Sky blue's start and
    Green's in-spot are lit for the bumped pegs."""
    hands = Hands(
        tmp_path, s0=["T0:8", "S", "S", "S", "S"], s1=["T0:13", "S", "S", "S", "S"], s2=["T1:0", "S", "S", "S", "S"]
    )
    state = hands.lift("T0:8")
    assert {"T0:13", "T1:0", "T0:9", "T0:12"} <= lit(state, "destination")
    assert lit(state, "bump") == {"S1:5", "T2:3"}
    state = hands.lift("T0:13")  # Sky blue's peg off first, as the lights say
    assert "T0:13" in lit(state, "destination")
    hands.place("S1:5", 1)
    state = hands.place("T0:13", 0)
    assert state["status"] == "move" and state["move"] == "5 T0:8-T0:13x"


def test_a_joker_lights_every_peg_it_may_land_on(tmp_path: Path) -> None:
    """The rules page, Basic Game: "When you play a joker, you move any one of your pegs (for
    example one in the start area) into a hole on the main track that is occupied by another
    player's peg". A peg lifted from Red's start lights every other colour's peg on the track."""
    hands = Hands(
        tmp_path,
        s0=["T0:2", "S", "S", "S", "S"],
        s1=["T1:4", "T2:9", "S", "S", "S"],
        s2=["T3:15", "S", "S", "S", "S"],
        s3=["H3:1", "S", "S", "S", "S"],
    )
    state = hands.lift("S0:1")
    assert lit(state, "destination") == {"T0:8", "T1:4", "T2:9", "T3:15"}  # the come-out hole and the pegs
    assert "T0:2" not in lit(state, "destination") and "H3:1" not in lit(state, "destination")


def _legal_destinations(position: Position, rules: Ruleset, hole: int) -> tuple[set[int], set[int]]:
    """The holes a legal move that moves the peg in ``hole`` puts a peg in, once that peg is
    lifted (an empty hole, or one whose peg it lands on, bumping it or swapping with it), and
    the sides whose start a bumped peg goes to."""
    board, holes, starts = position.board, set[int](), set[int]()
    empty = {h for h in range(board.board_holes) if not position.occupancy[h]} | {hole}
    for move in (m for card in CARDS for m in legal_moves(position, card, rules)):
        if move.result.occupancy[hole] == position.occupancy[hole]:
            continue  # it leaves this peg where it is
        for step in move.steps:
            if step.target in empty or (step.target < board.board_holes and (step.bumps or step.swap)):
                holes.add(step.target)
            if step.swap and step.source in empty:  # the other peg comes to the lifted one's hole
                holes.add(step.source)
            for bump in step.bumps:
                if bump.target >= board.board_holes:
                    starts.add(bump.seat)
                elif bump.target in empty:
                    holes.add(bump.target)
    return holes, starts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    position=positions(players=st.sampled_from([4])),
    rules=st.sampled_from(["basic", "north-carolina"]),
    pick=st.integers(0, 99),
)
def test_every_hole_lit_on_a_lift_is_a_legal_destination_and_every_one_is_lit(
    position: Position, rules: str, pick: int
) -> None:
    """The rules page, Basic Game (and North Carolina Rules for its cards): whatever peg of the
    seat to play is lifted, the board lights exactly the holes some legal move of it fills,
    holes holding a peg it would bump included, and the starts its bumped pegs go to."""
    ruleset = Ruleset.preset(rules)
    board = position.board
    mine = [h for h in range(board.board_holes) if position.occupancy[h] == position.turn + 1]
    assume(mine)
    hole = mine[pick % len(mine)]
    pegs = position.pegs_json()
    with tempfile.TemporaryDirectory() as data:
        store = Store.open(data)
        session = Session.new(store, ruleset, 4, pegs=pegs, seed=1, first=position.turn)
        free = session.game.free_come_out_due()
        name = session.physical.name(hole)
        session.sense(100, "lift", name)
        guidance = session.report.guidance
        store.close()
    assume(not free)
    shown = {board.hole_index(h) for h, role in guidance.items() if role in ("destination", "bump") and h[0] != "S"}
    sides = {int(h[1:].split(":")[0]) for h, role in guidance.items() if role == "bump" and h[0] == "S"}
    holes, starts = _legal_destinations(position, ruleset, hole)
    assert shown == holes, (name, sorted(board.hole_name(h) for h in shown ^ holes))
    assert sides == {seat for seat in starts if position.in_start(seat) < 5}


# -- 3. the first half of a legal split is not wrong ------------------------------------------


def test_the_first_half_of_a_split_is_not_called_illegal(tmp_path: Path) -> None:
    """The rules page, Basic Game: "You may never land on or pass over a hole occupied by one of
    your own pegs", but a seven may be split between two pegs. Red's 4 past her own peg is the
    first half of 3 and 4 once the other peg moves 3 first; until the move cannot be finished
    nothing is wrong: the page says what is left, the board lights where it goes, nothing to
    put back; a pause commits nothing; the second half makes it the seven."""
    hands = Hands(tmp_path, s0=["T0:12", "T0:14", "S", "S", "S"])
    hands.lift("T0:12")
    state = hands.place("T0:16")
    assert state["status"] == "moving" and state["why_not"] is None
    assert state["finishing"] == "Red: 3 more of the 7"
    assert lit(state, "destination") == {"T0:17"} and not lit(state, "wrong") and not lit(state, "put-back")
    state = hands.pause()
    assert state["finishing"] == "Red: 3 more of the 7" and hands.session.game.history == []
    hands.lift("T0:14")
    state = hands.place("T0:17")
    assert state["status"] == "move"
    hands.pause()
    assert hands.session.game.history == [(0, "7 T0:14-T0:17 T0:12-T0:16")]


def test_done_on_half_a_split_says_what_is_wrong_with_it(tmp_path: Path) -> None:
    """Done says the move is finished: now it cannot be finished, so it is not a legal move,
    and why (the rules page, Basic Game: "You may never ... pass over a hole occupied by one
    of your own pegs"), with the pegs to put back; finishing the split after all is still taken."""
    hands = Hands(tmp_path, s0=["T0:12", "T0:14", "S", "S", "S"])
    hands.lift("T0:12")
    hands.place("T0:16")
    state = hands.done()
    assert (state["why_not"] or "").startswith("You can't pass your own peg") and state["finishing"] is None
    assert "You can't pass your own peg" in (state["notice"] or "")
    assert {f["hole"]: f["action"] for f in state["fixes"]} == {"T0:16": "remove", "T0:12": "place"}
    hands.lift("T0:14")
    hands.place("T0:17")
    hands.pause()
    assert hands.session.game.history == [(0, "7 T0:14-T0:17 T0:12-T0:16")]


# -- 4. every refusal says why ------------------------------------------------------------


def test_a_peg_moved_further_than_any_card_says_so(tmp_path: Path) -> None:
    """The rules page, Basic Game: each card moves a peg "forward that number of holes", and no
    card moves 11. Sky blue, no card named, moves her peg from Red's corner eleven holes."""
    hands = Hands(tmp_path, first=1, s1=["T0:0", "S", "S", "S", "S"])
    hands.lift("T0:0")
    state = hands.place("T0:11")
    assert state["status"] == "illegal"
    assert (state["why_not"] or "").startswith("No card moves a peg 11 holes forward (the rules page, Basic Game")
    state = hands.done()
    assert "No card moves a peg 11 holes forward" in (state["notice"] or "")


@settings(max_examples=60, deadline=None)
@given(
    position=positions(players=st.sampled_from([4, 6])),
    rules=st.sampled_from(["basic", "north-carolina", "social-security", "arizona"]),
    card=st.sampled_from([None, *CARDS]),
    pick=st.integers(0, 10_000),
)
def test_every_one_peg_refusal_has_a_reason(position: Position, rules: str, card: str | None, pick: int) -> None:
    """The rules page, Basic Game, each rule a newcomer breaks: a peg of the seat to play moved
    from the track or home to any empty hole that no legal move (of the card named, or of any
    card) explains is refused with a reason, never a bare "Not a legal move"."""
    ruleset = Ruleset.preset(rules)
    board = position.board
    sources = [h for h in range(board.board_holes) if position.occupancy[h] == position.turn + 1]
    targets = [h for h in range(board.board_holes) if not position.occupancy[h]]
    assume(sources and targets)
    source, target = sources[pick % len(sources)], targets[pick // len(sources) % len(targets)]
    after = bytearray(position.occupancy)
    after[source], after[target] = 0, after[source]
    key = int.from_bytes(bytes(after), "little")
    legal = {m.key for c in ([card] if card else CARDS) for m in legal_moves(position, c, ruleset)}
    assume(key not in legal)
    assert why_not(position, ruleset, source, target, card) is not None, (
        board.hole_name(source),
        board.hole_name(target),
        position.to_json(),
    )

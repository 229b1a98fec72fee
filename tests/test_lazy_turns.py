"""The lazy answers agree with the whole list (issue "Fast on a Pi Zero", Tests).

A lift asks the move generator only for the moves that touch its hole, a board only for
those that change one hole it differs in (``Focus``). These tests hold the lazy answers
against the whole list of legal moves:

- the generator: the moves it gives for a focus that change a focus hole or start area are
  exactly those of the whole list (and every move it gives is in the whole list);
- a turn: ``Turn.changing`` is the whole list filtered by what each result changes;
- the tracker: after every sensor event of a move made by hand (with knocks, and with
  wrong moves), its report is the one it gives when every question is answered from the
  whole list: the same status, move, candidates, and the same holes lit.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee import CARDS, PRESETS, Position, Ruleset, legal_moves
from referee.movegen import Focus, parse_move
from referee.on_the_way import OnTheWay
from referee.physical import PhysicalBoard, SensorEvent, by_hand
from referee.rulesets import Split
from referee.tracker import Report, Tracker
from referee.turns import Candidates, Pool, Turn
from referee.worlds import Worlds
from tests.strategies import positions

SIZES = st.sampled_from([4, 6, 8])


def changes(position: Position, key: int, focus: Focus, starts_changed: int) -> bool:
    difference = position.key ^ key
    holes = [hole for hole in range(position.board.board_holes) if focus.holes >> hole & 1]
    return any(difference >> (8 * hole) & 0xFF for hole in holes) or bool(starts_changed & focus.starts)


def start_sides(position: Position, key: int) -> int:
    """Sides whose start count differs between ``position`` and the result ``key``."""
    board = position.board
    after = key.to_bytes(board.board_holes, "little")
    return sum(1 << seat for seat in board.seats if position.occupancy.count(seat + 1) != after.count(seat + 1))


@st.composite
def foci(draw: st.DrawFn, position: Position) -> Focus:
    """One to three holes (mostly occupied ones: a lift) and sometimes a start area."""
    board = position.board
    occupied = [hole for hole in range(board.board_holes) if position.occupancy[hole]]
    holes = draw(
        st.lists(st.one_of(st.sampled_from(occupied), st.integers(0, board.board_holes - 1)), min_size=0, max_size=3)
    )
    starts = draw(st.lists(st.sampled_from(list(board.seats)), max_size=2))
    assume(holes or starts)
    return Focus.of(holes, starts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), positions(players=SIZES), st.sampled_from(CARDS), st.sampled_from(sorted(PRESETS)))
def test_focused_generation_is_the_whole_list_filtered(
    data: st.DataObject, position: Position, card: str, rules_name: str
) -> None:
    rules = Ruleset.preset(rules_name)
    focus = data.draw(foci(position))
    whole = {move.key: move for move in legal_moves(position, card, rules)}
    focused = list(legal_moves(position, card, rules, focus))
    assert {move.key for move in focused} <= set(whole)
    wanted = {key for key in whole if changes(position, key, focus, start_sides(position, key))}
    got = {move.key for move in focused if changes(position, move.key, focus, start_sides(position, move.key))}
    assert got == wanted
    for move in focused:  # the notation of a focused move names a legal move with its result
        assert parse_move(position, move.text, rules).key == move.key


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), positions(players=SIZES), st.sampled_from(sorted(PRESETS)), st.booleans())
def test_turn_changing_is_every_result_filtered(
    data: st.DataObject, position: Position, rules_name: str, declared: bool
) -> None:
    rules = Ruleset.preset(rules_name)
    allowed = Candidates((data.draw(st.sampled_from(CARDS)),) if declared else None)
    focus = data.draw(foci(position))
    physical = PhysicalBoard(position.board)
    holes = [hole for hole in range(position.board.board_holes) if focus.holes >> hole & 1]
    sides = [side for side in position.board.seats if focus.starts >> side & 1]
    lazy = Turn(physical, position, rules, allowed).changing(holes, sides)
    whole = Turn(physical, position, rules, allowed).every()
    byte_holes = sum(1 << (8 * hole) for hole in holes)
    assert {r.key for r in lazy} == {r.key for r in whole if r.changed & byte_holes or r.start_sides & focus.starts}
    assert len(lazy) == len({r.key for r in lazy})  # one entry per result


class WholeList(OnTheWay):
    """Every question a lift or a place asks answered from the whole list of the turn's results."""

    asked = 0

    def pool(self, turn: Turn, worlds: Worlds, board: int, starts: tuple[int, ...]) -> Pool:
        WholeList.asked += 1
        return turn.every()


def whole_list_tracker(position: Position, rules: Ruleset, card: str | None) -> Tracker:
    """The tracker with its results on the way read from the whole list, not a focus."""
    tracker = Tracker(position, rules, card=card)
    tracker._ways = WholeList(tracker.seen)
    return tracker


def _look(report: Report) -> tuple[object, ...]:
    return (
        report.status,
        report.move.key if report.move else None,
        sorted(move.key for move in report.candidates),
        report.guidance,
        report.back,
        report.committed,
    )


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    positions(players=SIZES),
    st.sampled_from(sorted(PRESETS)),
    st.sampled_from([None, *CARDS]),
    st.sampled_from(["legal", "knocked", "wrong"]),
    st.randoms(use_true_random=False),
)
def test_tracker_judges_as_from_the_whole_list(
    position: Position, rules_name: str, card: str | None, how: str, rng: random.Random
) -> None:
    rules = Ruleset.preset(rules_name)
    moves = [move for c in ([card] if card else CARDS) for move in legal_moves(position, c, rules)]
    assume(moves)
    physical = PhysicalBoard(position.board)
    events = by_hand(position, rng.choice(moves), rng, bounces=2 if how != "legal" else 0)
    if how == "knocked":  # a peg knocked out of its hole and put down in the next one
        occupied = [h for h in range(position.board.track_length) if position.occupancy[h]]
        hole = rng.choice(occupied)
        beside = (hole + 1) % position.board.track_length
        events.insert(rng.randrange(len(events) + 1), SensorEvent(0, "lift", (hole,)))
        if not position.occupancy[beside]:
            events.append(SensorEvent(0, "place", (beside,)))
    elif how == "wrong":  # the last peg put one hole further than it should
        last = events[-1]
        if last.kind == "place" and last.holes[0] + 1 < position.board.board_holes:
            events[-1] = SensorEvent(last.ms, "place", (last.holes[0] + 1,))
    lazy, whole = Tracker(position, rules, card=card), whole_list_tracker(position, rules, card)
    asked, ms = WholeList.asked, 0
    for event in events:
        ms = max(ms, event.ms)
        assert _look(lazy.feed(event)) == _look(whole.feed(event)), physical.name(event.holes[0])
    assert _look(lazy.poll(ms + lazy.settle_ms)) == _look(whole.poll(ms + whole.settle_ms))
    assert WholeList.asked > asked or not events  # the whole list was asked: the two trackers differ


def test_a_part_landing_where_the_first_put_a_partner_sends_her_to_her_in_spot() -> None:
    """The rules page, North Carolina Rules, rule 8:
    "Tens must be split between two different pegs. These can be any
    two pegs on the board - your own, your partner's or your opponent's"; and "When a peg
    lands on a partner's peg, the partner's peg is immediately moved to its 'in-spot'". Moving the partner's peg 4 and then landing on it
    with the other 6 changes the partner's in-spot, though neither part alone does: a
    focus on that in-spot must still find the move."""
    position = Position.from_json(
        {"players": 4, "turn": 0, "pegs": {"0": ["T0:16", "S", "S", "S", "S"], "2": ["T1:0", "S", "S", "S", "S"]}}
    )
    rules = Ruleset.preset("north-carolina")
    in_spot = position.board.in_spot(2)
    focused = {move.text for move in legal_moves(position, "10", rules, Focus.of([in_spot]))}
    assert {"10 T1:0-T1:4 T0:16-T1:4x", "10 T1:0-T0:12 T0:16-T0:12x"} <= focused
    whole = {move.text for move in legal_moves(position, "10", rules) if move.result.occupancy[in_spot]}
    assert whole <= focused


def test_a_chain_reaction_sends_an_opponent_home_from_the_partners_in_spot() -> None:
    """The rules page, Notes on Strategy, note 3: "Occasionally it is even possible to set up a longer 'chain
    reaction' in which a series of different colored pegs displace each other in a single
    move." Red lands on her partner, who goes to her in-spot, where an opponent sits and so
    goes back to start: a focus on that opponent's start area must find the move, though
    the step only lands on a partner."""
    position = Position.from_json(
        {
            "players": 4,
            "turn": 0,
            "pegs": {
                "0": ["T0:10", "S", "S", "S", "S"],
                "1": ["T2:3", "S", "S", "S", "S"],
                "2": ["T0:15", "S", "S", "S", "S"],
            },
        }
    )
    rules = Ruleset.preset("basic")
    (move,) = legal_moves(position, "5", rules)
    assert [(bump.seat, position.board.hole_name(bump.target)) for bump in move.bumps] == [(2, "T2:3"), (1, "S1")]
    assert [m.text for m in legal_moves(position, "5", rules, Focus.of(starts=[1]))] == [move.text]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data(), positions(players=SIZES))
def test_focused_generation_holds_for_house_rules(data: st.DataObject, position: Position) -> None:
    """House rules are data (rulesets.py): an ace that splits any total in any direction,
    over any pegs or its own, swaps, jumps, comes out, with team play, partner splits and
    Kilpatrick's home entry, on any preset. The focused list still equals the whole."""
    base = Ruleset.preset(data.draw(st.sampled_from(sorted(PRESETS))))
    split = Split(
        data.draw(st.integers(2, 12)),
        data.draw(st.sampled_from(["forward", "forward-backward", "any"])),
        data.draw(st.booleans()),
        data.draw(st.booleans()),
    )
    rules = replace(
        base.with_card(
            "A",
            forward=(1,),
            backward=(2,),
            come_out=data.draw(st.booleans()),
            swap=data.draw(st.booleans()),
            joker=data.draw(st.booleans()),
            split=split,
        ),
        movers=data.draw(st.sampled_from(["own-then-partner", "team"])),
        split_into_partner=data.draw(st.booleans()),
        joker_from=data.draw(st.sampled_from(["own", "team-start-first"])),
        home_entry=data.draw(st.sampled_from(["may", "must"])),
    )
    focus = data.draw(foci(position))
    whole = {move.key for move in legal_moves(position, "A", rules)}
    focused = {move.key for move in legal_moves(position, "A", rules, focus)}
    assert focused <= whole
    assert {key for key in focused if changes(position, key, focus, start_sides(position, key))} == {
        key for key in whole if changes(position, key, focus, start_sides(position, key))
    }

"""The tracker, scripted: what people actually do at a table, event by event."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee import Position, Ruleset
from referee.physical import PhysicalBoard, SensorEvent
from referee.tracker import Report, Tracker, parse_events
from tests.positions import position

S = "S"
BASIC = Ruleset.preset("basic")


def play(tracker: Tracker, script: str) -> Report:
    """Feed ``script`` (the events-file format), then let the board settle."""
    report = tracker.report()
    events = parse_events(script, tracker.physical)
    for event in events:
        report = tracker.feed(event)
    return report


def settle(tracker: Tracker, ms: int = 10_000) -> Report:
    return tracker.poll(ms)


def pegs(report: Report, seat: int) -> list[str]:
    assert report.move is not None
    return report.move.result.pegs_json()[str(seat)]


def test_simple_move_commits_only_after_the_board_settles() -> None:
    """docs/design.md, "The tracker": "a move is committed only when the board is stable and equals a legal
    result, or when the player presses done"; the settle time defaults to 700 ms."""
    tracker = Tracker(position(s0=["T0:8", S, S, S, S]), BASIC, card="5")
    report = play(tracker, "100 lift T0:8")
    assert report.status == "moving"
    assert report.guidance == {"T0:8": "selected", "T0:13": "destination"}
    report = play(tracker, "400 place T0:13")
    assert report.status == "move" and not report.committed and pegs(report, 0)[0] == "T0:13"
    assert not tracker.poll(1000).committed  # 600 ms still: not yet
    assert tracker.poll(1100).committed
    assert not tracker.poll(1200).committed  # committed once


def test_done_commits_at_once() -> None:
    tracker = Tracker(position(s0=["T0:8", S, S, S, S]), BASIC, card="5")
    play(tracker, "0 lift T0:8\n50 place T0:13")
    assert tracker.feed(SensorEvent(60, "done")).committed


def test_come_out_from_any_start_hole() -> None:
    """The rules page, numbered version, effects of individual cards:
    a jack, queen, king or ace moves a peg "to its 'come out' hole"."""
    tracker = Tracker(position(), BASIC, card="K")
    report = play(tracker, "0 lift S0:4\n200 place T0:8")
    assert report.status == "move" and report.move is not None and report.move.text == "K S0-T0:8"


def test_bump_pending_then_completed() -> None:
    """The rules page, numbered version, general rules:
    "When a peg lands on an opponent's peg, the opponent's peg is immediately moved
    back to its start area." Half a bump is never committed; the start lights amber."""
    tracker = Tracker(position(s0=["T0:8", S, S, S, S], s1=["T0:13", S, S, S, S]), BASIC, card="5")
    report = play(tracker, "0 lift T0:13\n100 lift T0:8\n200 place T0:13")
    assert report.status == "moving"
    assert report.guidance["S1:5"] == "bump" and report.guidance["T0:8"] == "selected"
    assert not settle(tracker).committed
    report = play(tracker, "3000 place S1:5")  # the free start hole
    assert report.status == "move" and pegs(report, 1) == [S] * 5


def test_partner_sent_to_its_in_spot() -> None:
    """The rules page, numbered version, general rules:
    "When a peg lands on a partner's peg, the partner's peg is immediately moved to
    its 'in-spot'"."""
    tracker = Tracker(position(s0=["T1:10", S, S, S, S], s2=["T1:12", S, S, S, S]), BASIC, card="2")
    report = play(tracker, "0 lift T1:10\n10 lift T1:12\n20 place T1:12")
    assert report.guidance.get("T2:3") == "bump"
    report = play(tracker, "30 place T2:3")
    assert report.status == "move" and pegs(report, 2)[0] == "T2:3"


def test_joker_from_start() -> None:
    """The rules page, numbered version, effects of individual cards:
    "you move any one of your pegs (for example one in the start area) into a hole
    on the main track that is occupied by another player's peg"."""
    tracker = Tracker(position(s1=["T1:9", S, S, S, S]), BASIC)  # no card declared
    report = play(tracker, "0 lift T1:9\n10 place S1:5\n20 lift S0:3\n30 place T1:9")
    assert report.status == "move" and report.move is not None and report.move.card == "JOKER"


def test_seven_split_in_both_orders_is_never_committed_halfway() -> None:
    """The rules page, numbered version, effects of individual cards:
    "split the 7 between two of your pegs, moving them 1 and 6, 2 and 5 or 3 and 4"."""
    start = position(s0=["T0:8", "T1:0", S, S, S])
    for script in (
        "0 lift T0:8\n10 place T0:11\n2000 lift T1:0\n2010 place T1:4",
        "0 lift T1:0\n10 place T1:4\n2000 lift T0:8\n2010 place T0:11",
    ):
        tracker = Tracker(start, BASIC, card="7")
        first, second = script.split("\n2000")
        half = play(tracker, first)
        assert half.status == "moving" and not settle(tracker, 1900).committed
        report = play(tracker, "2000" + second)
        assert report.status == "move" and sorted(pegs(report, 0)[:2]) == ["T0:11", "T1:4"]


def test_a_bounce_changes_nothing_and_a_knock_recovers() -> None:
    """docs/design.md, "The tracker": "Knocks and bounces change nothing. A wrong board is never silently
    accepted: the LEDs show what to put back." """
    start = position(s0=["T0:8", S, S, S, S], s1=["T1:4", S, S, S, S], s2=["T2:5", S, S, S, S])
    tracker = Tracker(start, BASIC, card="5")
    assert play(tracker, "0 lift T2:5\n4 place T2:5").status == "synced"
    knocked = play(tracker, "100 lift T1:4\n101 lift T2:5\n102 lift S3:3")
    assert knocked.status == "illegal"
    assert {str(fix) for fix in knocked.back} == {
        "put seat 1's peg in T1:4",
        "put seat 2's peg in T2:5",
        "put seat 3's peg in S3:3",
    }  # colours known from the lifts
    assert knocked.guidance["T1:4"] == "put-back"
    assert not settle(tracker).committed
    assert play(tracker, "900 place T2:5\n950 place T1:4\n990 place S3:3").status == "synced"


def test_a_peg_put_in_the_wrong_start_area() -> None:
    """The rules page, general rules: "No peg may ever move into any start or home area other than its own." """
    start = position(s0=["T0:8", S, S, S, S], s1=["T0:13", S, S, S, S], s3=["T3:9", S, S, S, S])
    tracker = Tracker(start, BASIC, card="5")
    report = play(tracker, "0 lift T0:13\n10 lift T0:8\n20 place T0:13\n30 place S3:5")
    assert report.status == "illegal"
    assert [str(fix) for fix in report.forward] == ["take the peg off S3:5", "put a peg in S1:5"]
    assert report.guidance["S3:5"] == "wrong"


def test_an_opponent_moving_out_of_turn() -> None:
    tracker = Tracker(position(s0=["T0:8", S, S, S, S], s1=["T1:8", S, S, S, S]), BASIC)
    report = play(tracker, "0 lift T1:8\n10 place T1:12")
    assert report.status == "illegal"
    assert [str(fix) for fix in report.back] == ["take seat 1's peg off T1:12", "put seat 1's peg in T1:8"]


def test_a_move_that_does_not_match_the_declared_card() -> None:
    tracker = Tracker(position(s0=["T0:8", S, S, S, S]), BASIC, card="5")
    report = play(tracker, "0 lift T0:8\n10 place T0:14")
    assert report.status == "illegal"
    assert [str(fix) for fix in report.forward] == ["take the peg off T0:14", "put a peg in T0:13"]
    undeclared = Tracker(position(s0=["T0:8", S, S, S, S]), BASIC)
    assert play(undeclared, "0 lift T0:8\n10 place T0:14").status == "move"  # a 6 explains it


def test_a_swap_leaves_occupancy_unchanged_so_the_page_must_ask() -> None:
    """NC rule 5: the 2 may "exchange the positions of any two different coloured
    marbles/pegs that are on the main track". Sensors cannot see it happen."""
    start = position(s0=["T0:8", S, S, S, S], s1=["T1:8", S, S, S, S])
    tracker = Tracker(start, Ruleset.preset("north-carolina"), card="2")
    report = play(tracker, "0 lift T0:8\n10 lift T1:8\n20 place T0:8\n30 place T1:8")
    assert report.status == "ambiguous"
    assert [move.text for move in report.candidates] == ["2 T0:8<>T1:8"]
    assert (
        play(Tracker(start, Ruleset.preset("north-carolina"), card="2"), "0 lift T0:8\n5 place T0:8").status == "synced"
    )


def test_colours_told_apart_by_the_order_of_lifts() -> None:
    """Occupancy alone cannot tell which colour went where; the lifts and places can."""
    start = position(players=4, s0=["T0:10", S, S, S, S], s2=["T0:11", S, S, S, S])
    rules = Ruleset.preset("arizona")
    one_at_a_time = play(Tracker(start, rules, card="7"), "0 lift T0:10\n10 place T0:12\n20 lift T0:11\n30 place T0:16")
    assert one_at_a_time.status == "move"
    both_in_hand = play(Tracker(start, rules, card="7"), "0 lift T0:10\n10 lift T0:11\n20 place T0:12\n30 place T0:16")
    assert both_in_hand.status == "ambiguous" and len(both_in_hand.candidates) == 2


def test_a_committed_move_is_amended_into_a_split() -> None:
    """The issue: "If a later change in the same turn turns a committed single move into a
    legal split or bump, amend the commit, until the next seat begins." At a real table a
    3 is a legal move by itself until the 4 of the split follows."""
    start = position(s0=["T0:8", "T1:0", S, S, S])
    tracker = Tracker(start, BASIC)  # no card declared
    play(tracker, "0 lift T0:8\n10 place T0:11")
    first = settle(tracker, 1000)
    assert first.committed and first.move is not None and first.move.card == "3"
    tracker.next_turn(first.move.result.with_turn(1))
    report = play(tracker, "1500 lift T1:0\n1510 place T1:4")
    assert report.status == "move" and report.amend and report.move is not None and report.move.card == "7"
    amended = settle(tracker, 3000)
    assert amended.committed and amended.amend
    tracker.next_turn(amended.move.result.with_turn(1))  # type: ignore[union-attr]
    assert tracker.report().status == "synced"


def test_start_up_reconciles_a_stored_position_with_the_sensed_board() -> None:
    start = position(s0=["T0:8", S, S, S, S])
    physical = PhysicalBoard(start.board)
    sensed = [physical.index(name) for name in ("T0:8", "S0:2", "S0:3", "S0:4", "S0:5")]
    sensed += [physical.index(f"S{seat}:{i}") for seat in (1, 2, 3) for i in range(1, 6)]
    assert Tracker(start, BASIC, occupied=sensed).report().status == "synced"
    missing = Tracker(start, BASIC, occupied=sensed[1:])
    report = missing.report()  # maybe someone holds it, maybe it rolled away: either way, say so
    assert report.status == "moving" and [str(f) for f in report.back] == ["put seat 0's peg in T0:8"]
    moved = Tracker(start, BASIC, occupied=[physical.index("T0:13"), *sensed[1:]]).report()
    assert moved.status == "move" and moved.move is not None  # moved while the box was off


def test_track_command(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text(json.dumps({"players": 4, "turn": 0, "pegs": {"0": ["T0:8", S, S, S, S]}}))
    (tmp_path / "e.txt").write_text("0 lift T0:8\n250 place T0:13\n")
    cli = [
        sys.executable,
        "-m",
        "referee.cli",
        "track",
        str(tmp_path / "p.json"),
        "--events",
        str(tmp_path / "e.txt"),
    ]
    done = subprocess.run([*cli, "--card", "5"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "move" and data["result"]["0"][0] == "T0:13"
    (tmp_path / "e.txt").write_text("0 lift T0:8\nzap T0:13\n")
    bad = subprocess.run([*cli, "--card", "5"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "events line 2" in bad.stderr and bad.stdout == ""


def test_position_fill_puts_start_pegs_in_holes_from_one() -> None:
    start = Position.from_json({"players": 4, "pegs": {"0": ["T0:8", S, S, "H0:5", S]}})
    physical = PhysicalBoard(start.board)
    names = {physical.name(h) for h in physical.holes(physical.fill(start)) if physical.name(h).startswith("S0")}
    assert names == {"S0:1", "S0:2", "S0:3"}

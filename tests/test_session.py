"""The table session, turn by turn, as families play: one scenario per defect of the
table-session issue, each run on a real SQLite file and no threads."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from referee import Ruleset
from referee.events import Move, Start, Turn
from referee.table.session import Session, StoreFailure
from referee.table.store import Store, StoreError

S = "S"
SETTLE = 700


def table(tmp_path: Path, rules: str = "basic", players: int = 4, **pegs: list[str]) -> Session:
    """A new game at a real table from ``s0=[...]``-style pegs, seat 0 to play."""
    start = {name[1:]: holes for name, holes in pegs.items()}
    return Session.new(
        Store.open(tmp_path),
        Ruleset.preset(rules),
        players,
        pegs=start or None,
        seed=1,
        table={
            "names": ["Red", "Blue", "Green", "Yellow"][:players],
            "colours": ["#e53935", "#1e88e5", "#43a047", "#fdd835"][:players],
        },
    )


def act(session: Session, script: str, ms: int = 0) -> int:
    """``"lift T0:8, place T0:11, wait, done"``: wait = longer than the settle time."""
    for word in (part.strip() for part in script.split(",")):
        ms += 100
        if word == "wait":
            ms += SETTLE + 400
            session.tick(ms)
        elif word == "done":
            session.done(ms)
        else:
            kind, hole = word.split()
            session.sense(ms, kind, hole)
    return ms


def test_done_after_a_settled_move_never_skips_the_next_player(tmp_path: Path) -> None:
    """Defect 1: lift S0:1, place T0:8, wait, Done: the move is confirmed, Blue is to play,
    nothing is discarded, and a second habitual press changes nothing either."""
    session = table(tmp_path)
    act(session, "lift S0:1, place T0:8, wait, done, done")
    assert session.game.history == [(0, "A S0-T0:8")] and session.game.turn == 1
    assert not [event for event in session.game.events if event.kind == "discard"]


def test_undo_after_a_bump_names_the_colours_and_the_game_goes_on(tmp_path: Path) -> None:
    """Defect 2: Red plays 10 T1:0-T1:10x (the rules page: "landing on an opponent's peg sends it back
    to start"), then undo. The page says which colour goes where; after the board is put
    back the next move is refereed as usual."""
    session = table(tmp_path, s0=["T1:0", S, S, S, S], s1=["T1:10", S, S, S, S])
    act(session, "lift T1:10, place S1:5, lift T1:0, place T1:10, done")
    assert session.game.history == [(0, "10 T1:0-T1:10x")]
    session.undo()
    words = {fix.describe(lambda seat: ["Red", "Blue", "Green", "Yellow"][seat]) for fix in session.report.back}
    assert {"take Red's peg off T1:10", "put Red's peg in T1:0", "put Blue's peg in T1:10"} < words
    assert len(words) == 4 and any(w.startswith("take Blue's peg off S1:") for w in words)  # any of Blue's
    assert session.report.status == "illegal" and session.game.history == []
    act(session, "lift T1:10, place T1:0, lift S1:5, place T1:10")  # as the lights say
    assert session.report.status == "synced" and session.report.guidance == {}  # type: ignore[comparison-overlap]  # mypy keeps the status narrowed by the assert above across the acts that change it
    act(session, "lift T1:0, place T1:5, done")
    assert session.game.history == [(0, "5 T1:0-T1:5")] and session.game.turn == 1


def test_undo_refuses_the_wrong_colours(tmp_path: Path) -> None:
    """Defect 2, the trap: occupancy alone is restored by moving Blue from start to T1:0,
    leaving Red on Blue's hole. That board is not the game's and is not accepted."""
    session = table(tmp_path, s0=["T1:0", S, S, S, S], s1=["T1:10", S, S, S, S])
    act(session, "lift T1:10, place S1:5, lift T1:0, place T1:10, done")
    session.undo()
    act(session, "lift S1:5, place T1:0")
    assert session.report.status == "illegal"
    assert {(f.action, f.hole, f.seat) for f in session.report.back} >= {("remove", "T1:0", 1), ("place", "T1:0", 0)}


def test_the_next_seats_wrong_move_never_rewrites_the_last_move(tmp_path: Path) -> None:
    """Defect 3: Red plays 6 T0:8-T0:14 and presses Done; Blue then moves Red's peg to T1:0.
    That is no extension of Red's 6 (the rules page: a split divides one card between two pegs), so
    it is Blue's mistake, never "Red played a 10"."""
    session = table(tmp_path, s0=["T0:8", S, S, S, S], s1=["T1:8", S, S, S, S])
    act(session, "lift T0:8, place T0:14, done, lift T0:14, place T1:0, done")
    assert session.game.history == [(0, "6 T0:8-T0:14")] and session.report.status == "illegal"


def test_a_declared_card_closes_the_window(tmp_path: Path) -> None:
    """Defect 3: after Red's 3 settled, Blue declares a card: Red's move stands as it is."""
    session = table(tmp_path, s0=["T0:8", "T1:0", S, S, S], s1=["T1:8", S, S, S, S])
    act(session, "lift T0:8, place T0:11, wait")
    session.declare(1, "5")
    act(session, "lift T1:0, place T1:4, done")
    assert session.game.history == [(0, "3 T0:8-T0:11")] and session.report.status == "illegal"


def test_a_paused_split_keeps_its_second_half(tmp_path: Path) -> None:
    """Defect 4: the rules page, numbered version:
    "split the 7 between two of your pegs"; the pause after the 3 commits
    it, the 4 (bumping Blue, whose peg goes to start first) amends it into the seven."""
    session = table(tmp_path, s0=["T0:8", "T0:2", S, S, S], s1=["T0:6", S, S, S, S])
    act(session, "lift T0:8, place T0:11, wait, lift T0:6, place S1:5, lift T0:2, place T0:6, done")
    assert session.game.history == [(0, "7 T0:8-T0:11 T0:2-T0:6x")] and session.game.turn == 1
    assert session.game.bumps[-1].seat == 1


def test_a_paused_ten_split_into_an_opponents_peg_is_asked(tmp_path: Path) -> None:
    """Defect 4, North Carolina rule 8 (the ten splits over any pegs): after Red's 3 settles,
    Blue's peg moves 7. Red's ten or Blue's seven? Both are legal: the table is asked."""
    session = table(tmp_path, "north-carolina", s0=["T0:8", S, S, S, S], s1=["T1:8", S, S, S, S])
    act(session, "lift T0:8, place T0:11, wait, lift T1:8, place T1:15, done")
    assert session.report.status == "ambiguous"
    texts = {move.text for move in session.report.candidates}
    assert texts == {"7 T1:8-T1:15", "10 T0:8-T0:11 T1:8-T1:15"}
    session.resolve("10 T0:8-T0:11 T1:8-T1:15")
    assert session.game.history == [(0, "10 T0:8-T0:11 T1:8-T1:15")] and session.game.turn == 1


def test_a_colour_swap_through_a_spare_hole_is_not_accepted(tmp_path: Path) -> None:
    """Defect 5: the same holes, other colours (the rules page: a peg moves only as its card says)."""
    session = table(tmp_path, s0=["T0:8", S, S, S, S], s1=["T1:8", S, S, S, S])
    act(session, "lift T0:8, place T0:10, lift T1:8, place T0:8, lift T0:10, place T1:8")
    assert session.report.status == "illegal"
    assert {(f.action, f.hole, f.seat) for f in session.report.back} == {
        ("remove", "T0:8", 1),
        ("place", "T0:8", 0),
        ("remove", "T1:8", 0),
        ("place", "T1:8", 1),
    }
    act(session, "wait, done")
    assert session.game.history == [] and session.game.turn == 0


def test_bluffing_at_a_real_table_judges_the_shown_card_by_the_move(tmp_path: Path) -> None:
    """Defect 6, the rules page, Bluffing Joker: "The player may declare the face-down card to be
    whatever they desire." The move counts once declared; a shown king for a come-out the
    ace declared is no bluff, so the doubter pays."""
    session = table(tmp_path, "bluffing-joker", s1=["T1:8", S, S, S, S])
    act(session, "lift S0:1, place T0:8, wait, done")
    assert session.game.history == [] and "declare" in (session.notice or "")
    session.declare(0, "A")
    act(session, "done")
    assert session.game.phase == "doubt"
    session.doubt(1, True)
    session.reveal("K")
    assert session.game.history == [(0, "A S0-T0:8")] and session.game.penalty == (0, 1)


def test_the_turn_survives_a_restart_mid_bump(tmp_path: Path) -> None:
    """Defect 7: killed halfway through a bump (Red on T0:13, Blue in hand), the restarted
    session finishes it: Blue into any start hole, Done."""
    session = table(tmp_path, s0=["T0:8", S, S, S, S], s1=["T0:13", S, S, S, S])
    act(session, "lift T0:8, lift T0:13, place T0:13")
    session.save_turn()
    sensed = [session.physical.name(h) for h in session.physical.holes(session.tracker.occupied)]
    again = Session.resume(Store.open(tmp_path), session.game_id, sensed=sensed)
    assert again.report.status == "moving"
    act(again, "place S1:5, done")
    assert again.game.history == [(0, "5 T0:8-T0:13x")]


def test_an_ambiguous_board_is_asked_again_after_a_restart(tmp_path: Path) -> None:
    """Defect 7: North Carolina's 2 swaps any two pegs (the rules page, North Carolina Rules,
    rule 5); lifted together and put back, the board may show the swap or nothing: asked
    before and after the restart."""
    session = table(tmp_path, "north-carolina", s0=["T0:8", S, S, S, S], s1=["T1:8", S, S, S, S])
    act(session, "lift T0:8, lift T1:8, place T0:8, place T1:8, wait")
    assert session.report.status == "ambiguous" and session.game.history == []
    session.save_turn()
    sensed = [session.physical.name(h) for h in session.physical.holes(session.tracker.occupied)]
    again = Session.resume(Store.open(tmp_path), session.game_id, sensed=sensed)
    act(again, "wait")
    assert again.report.status == "ambiguous" and again.game.history == []
    again.resolve("2 T0:8<>T1:8")
    assert again.game.history == [(0, "2 T0:8<>T1:8")]


def test_a_full_disk_accepts_nothing_and_the_move_is_made_again(tmp_path: Path) -> None:
    """Defect 8: a real SQLite "database or disk is full" (the page limit of the file): the
    move is not shown, the game is as on disk, and once there is room the same board commits."""
    session = table(tmp_path)
    store = session.store
    assert isinstance(store, Store)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages + 2}")
    for size in (512, 64, 8, 1):  # fill what is left, in the events table itself
        with pytest.raises(sqlite3.OperationalError, match="full"):  # noqa: PT012 - filled row by row until full
            for seq in range(10**6):
                store._db.execute("INSERT INTO events VALUES (-1, ?, ?)", (seq + size * 10**6, "x" * size))
    act(session, "lift S0:1, place T0:8")
    with pytest.raises(StoreFailure):
        session.done(5000)
    assert session.game.history == [] and session.store_error and "full" in session.store_error
    assert Store.open(tmp_path).events(session.game_id) == session.game.events
    store._db.execute("PRAGMA max_page_count = 1073741823")
    session.done(6000)
    assert session.game.history == [(0, "A S0-T0:8")] and session.store_error is None


def test_a_rollback_that_fails_is_still_a_store_error(tmp_path: Path) -> None:
    """Defect 8: SQLite may roll back by itself; "no transaction is active" must not escape."""
    store = Store.open(tmp_path)
    game_id = store.create([Start(4, ((0, 2), (1, 3)), {"name": "basic"}, "table", 0, 0)])

    class Broken:
        def __init__(self, real: sqlite3.Connection) -> None:
            self.real = real

        def execute(self, sql: str, parameters: Sequence[object] = ()) -> sqlite3.Cursor:
            if sql == "COMMIT":
                self.real.execute("ROLLBACK")
                raise sqlite3.OperationalError("disk I/O error")
            return self.real.execute(sql, parameters)

        def executemany(self, sql: str, rows: object) -> object:
            return self.real.executemany(sql, rows)  # type: ignore[arg-type]

    store._db = Broken(store._db)  # type: ignore[assignment]
    with pytest.raises(StoreError, match="disk I/O error"):
        store.append(game_id, [Turn(0, 1, False)], 1)


def test_two_knocked_pegs_put_back_are_checked_by_the_table(tmp_path: Path) -> None:
    """docs/design.md, "The tracker": "Knocks and bounces change nothing. A wrong board is never silently
    accepted." Two pegs of different colours knocked out together go back into the holes
    they were lifted from (lit as such): read as put back. Juggled through a third hole,
    the sensors cannot tell whether they were swapped: the table is asked, and "every peg
    is in its place" (resolve None) carries on."""
    session = table(tmp_path, s0=["T0:8", S, S, S, S], s1=["T0:9", S, S, S, S])
    act(session, "lift T0:8, lift T0:9, place T0:8, place T0:9, wait")
    assert session.report.status == "synced" and session.game.history == []
    act(session, "lift T0:8, lift T0:9, place T0:10, place T0:9, lift T0:10, place T0:8, wait")
    assert session.report.status == "ambiguous" and session.report.candidates == ()  # type: ignore[comparison-overlap]  # mypy keeps the status narrowed by the assert above across the acts that change it
    assert session.game.history == []
    session.resolve(None)
    assert session.report.status == "synced"
    act(session, "lift T0:8, place T0:13, done")
    assert session.game.history == [(0, "5 T0:8-T0:13")]


def test_third_counting_turn_comes_out_free_with_the_card_declared(tmp_path: Path) -> None:
    """The rules page, North Carolina Rules, rule 9: "If this happens on three consecutive turns, then on the
    third turn, after discarding any card you must move one of your pegs to your 'come
    out' hole for free." At a real table Red says she discards a 5 and comes out: the move
    is stored as the free come-out for that 5 (a 5 never comes out on its own)."""
    session = table(tmp_path, "north-carolina")
    for _ in range(2):
        for seat in range(4):
            session.discard(seat, None)
    assert session.game.free_come_out_due()
    session.declare(0, "5")
    act(session, "lift S0:1, place T0:8, wait")
    assert session.game.history == [(0, "5 S0-T0:8")]
    assert [event for event in session.game.events if isinstance(event, Move)][-1].free is True


@pytest.mark.parametrize("finish", ["done", "wait"])
def test_a_bot_seats_move_is_taken_when_another_move_fits_the_board_too(tmp_path: Path, finish: str) -> None:
    """Bots that fill a seat: "the bot's move is shown on the LEDs ...; a person carries it
    out, the tracker checks it". Red's bot chose JOKER S0-T2:17x: Red onto Green's peg, Green
    on to its in-spot, Blue's peg there back to start. Two pegs lifted and two placed leave
    the board JOKER S0-T2:3x would leave too (the sensors see holes, not colours): the move
    the lights showed is the one made, so Done or the settle time takes it. Before either,
    nothing is taken; a person's own move of the same kind is still asked on the page."""
    s0, s1, s2 = [S] * 5, ["T2:3", S, S, S, S], ["T2:17", S, S, S, S]
    by_hand = "lift T2:3, place S1:5, lift S0:1, lift T2:17, place T2:17, place T2:3"
    person = table(tmp_path / "person", s0=s0, s1=s1, s2=s2)
    person.declare(0, "JOKER")
    act(person, f"{by_hand}, {finish}")
    assert person.report.status == "ambiguous" and person.game.history == []
    assert {move.text for move in person.report.candidates} == {"JOKER S0-T2:17x", "JOKER S0-T2:3x"}

    bot = table(tmp_path / "bot", s0=s0, s1=s1, s2=s2)
    bot.declare(0, "JOKER")
    bot.intended = (0, "JOKER S0-T2:17x")
    ms = act(bot, by_hand)
    assert bot.report.status == "ambiguous" and bot.game.history == []
    act(bot, finish, ms)
    assert bot.game.history == [(0, "JOKER S0-T2:17x")] and bot.game.turn == 1
    assert bot.report.status == "synced"  # type: ignore[comparison-overlap]  # mypy keeps the status narrowed by the assert above across the acts that change it

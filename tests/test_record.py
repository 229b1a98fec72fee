"""Game records: JSON lines in, the same game out; ``pegs replay`` and ``pegs selfplay``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee import Ruleset
from referee.coach.selfplay import play_one
from referee.events import Event, Move, Play, Reveal, Start, event_to_json
from referee.game import Game
from referee.record import RecordError, dumps, loads, narrate, read, redacted, replay, write

PEGS = [sys.executable, "-m", "referee.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PEGS, *args], capture_output=True, text=True, timeout=120, check=False)


def test_record_round_trips_through_a_file(tmp_path: Path) -> None:
    game, _ = play_one(Ruleset.preset("arizona"), 4, 11, "greedy")
    write(tmp_path / "g.jsonl", game.events)
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    assert [json.loads(line)["event"] for line in lines[:3]] == ["start", "deal", "turn"]
    again = replay(read(tmp_path / "g.jsonl"))
    assert again.position == game.position and again.winner == game.winner


def test_narration_shows_each_turn_and_the_board() -> None:
    game, _ = play_one(Ruleset.preset("basic"), 4, 5, "greedy")
    text = "\n".join(narrate(game.events))
    # Issue 13: seats are counted from 1 for people, and moves are said in words.
    winners = " & ".join(f"seat {seat + 1}" for seat in game.winner or ())
    assert f"-- turn 1: seat {game.history[0][0] + 1}" in text and f"== {winners} win" in text
    assert "comes out with" in text and "-- turn 1: seat 0" not in text
    assert text.count("side      ---^----*---------") == game.turn_number


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json\n", "line 1 is not valid JSON"),
        ('{"event": "turn"}\n', "starts with a start event"),
        ("[1, 2]\n", "an event is an object"),
    ],
)
def test_bad_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(loads(text))


def test_a_tampered_record_is_refused() -> None:
    game, _ = play_one(Ruleset.preset("basic"), 4, 5, "greedy")
    events = [event_to_json(event) for event in game.events]
    moves = [i for i, e in enumerate(game.events) if isinstance(e, Move)]
    events[moves[3]] = {**events[moves[3]], "text": "K S0-T0:9"}
    with pytest.raises(RecordError, match=r"event \d+ \(move\)"):
        replay(events)


def test_selfplay_and_replay_commands(tmp_path: Path) -> None:
    done = run(
        "selfplay",
        "--players",
        "4",
        "--rules",
        "basic",
        "--games",
        "2",
        "--seed",
        "3",
        "--bot",
        "random",
        "--json",
        "--record",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert stats["games"] == 2 and stats["games_per_s"] > 0 and stats["generations_per_s"] > 0
    assert set(stats["win_rate_by_team"]) <= {"0 2", "1 3"}
    shown = run("replay", str(tmp_path / "game-3.jsonl"))
    assert shown.returncode == 0 and re.search(r"^== seat \d & seat \d win$", shown.stdout, re.MULTILINE)
    missing = run("replay", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "cannot read record" in missing.stderr
    table = run("selfplay", "--games", "1", "--bot", "greedy")
    assert "games/s" in table.stdout and "legal-move generations/s" in table.stdout


def test_a_face_down_card_stays_hidden_from_the_others() -> None:
    """Bluffing Joker (the rules page): "all cards played are played face-down. The player may declare
    the face-down card to be whatever they desire." Until the game is over a record shows
    the card only to the seat that played it, or once turned up."""
    events: list[Event] = [
        Start(4, ((0, 2), (1, 3)), {"name": "bluffing-joker"}, "digital", 9, 0),
        Play(0, "5", "7", "7 T0:8-T0:15"),
        Reveal(0, "5"),
    ]
    for seat in (None, 1):
        shown = [event_to_json(event) for event in redacted(events, seat)]
        assert "card" not in shown[1] and shown[1]["declared"] == "7" and shown[2]["card"] == "5"
    assert event_to_json(redacted(events, 0)[1])["card"] == "5"
    with pytest.raises(RecordError, match="leaves out cards"):
        replay(redacted(events, 0))


def test_a_record_without_the_cards_tells_an_undone_draw_as_the_whole_record_does() -> None:
    """With the referee's cards a turn that has only drawn has not begun, so the table's Undo
    takes back the turn before as well (the daemon undoes twice). Told from a record that
    leaves out the cards, that turn's draw still counts: the board at the end is the board
    the whole record shows, not a turn further back."""
    game = Game(Ruleset.preset("basic"), 4, mode="digital", seed=3)
    while len(game.moves) < 5:
        if game.phase == "draw":
            game.draw()
        playable = game.playable()
        card = min(playable, default=None)
        game.play(card, playable[card][0]) if card else game.discard(game.hand(game.turn)[0])
    game.draw()
    assert game.turn_so_far() == ["draw"]
    game.undo()
    game.undo()
    whole = list(narrate(loads(dumps(game.events))))
    for seat in (None, 1):
        told = list(narrate(loads(dumps(redacted(game.events, seat)))))
        assert told[-1] == whole[-1]  # the board, and whose turn it is
    assert "> seat 1    ........1..." in whole[-1]  # the 3 T0:8-T0:11 taken back: seat 1 to play again

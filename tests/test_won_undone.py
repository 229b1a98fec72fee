"""A won game undone is not won (issue 34, "2. A won game undone is not won"): "after Win, Undo
and one more move, a restart comes back on an older game, `/games` lists the game as won with a
Review link, and the stored review (every hand, in a digital game) is served before anyone
checks that the game is still over." The rules page, "Winning": the game is won when a team's
pegs are all home; an undo takes that last move back, so the game goes on.
"""

from __future__ import annotations

import time
from pathlib import Path

from referee.coach import review
from referee.protocol_types import NewGame
from tests.simulated import BASIC, HOME, WIN, running


def test_a_win_undone_is_not_won(tmp_path: Path) -> None:
    with running(tmp_path) as (table, client):
        table.sim_events(["lift S0:1", "place T0:8", "done"])  # game 1: left unfinished
        table.new_game(NewGame(4, BASIC, pegs=HOME))  # game 2
        table.sim_events(WIN)
        assert table.store.won(2)
        deadline = time.monotonic() + 30
        while table.store.review(2, review.VERSION) is None:  # the review is made as the game ends
            assert time.monotonic() < deadline, "the review was not made"
            time.sleep(0.05)
        table.undo()
        assert not table.store.won(2)
        table.sim_events(["lift H0:1", "place T0:2", "lift T0:2", "place T0:3", "done"])  # an ace instead
        assert table.session.game.phase == "play" and len(table.session.game.moves) == 1
        html = client.get("/games").get_data(as_text=True)
        assert "/games/2/review" not in html and "still being played" in html
    with running(tmp_path) as (table, client):
        assert table.session.game_id == 2 and not table.store.won(2)  # not game 1
        table.new_game(NewGame(4, BASIC))  # game 3: game 2 is now left, unfinished
        answer = client.get("/api/games/2/review").get_json()
        assert answer["state"] == "working" or answer["review"]["game"]["over"] is False, answer
        listed = {game["id"]: game for game in client.get("/api/games").get_json()}
        assert listed[2]["winner"] is None and listed[2]["over"] is False

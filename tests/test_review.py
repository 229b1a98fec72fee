"""The game review (issue 20, "A game review"): each move against the best its cards allowed,
each seat's biggest slips with the note that applies, a summary per seat; ``pegs review``;
stored in the daemon's store and made in the background; the review page."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import record
from referee.board import Board
from referee.coach import review as reviewing
from referee.coach import review_moves, rollout
from referee.coach.explain import KEEP_JOKER, in_third_person
from referee.coach.hints import choices_for
from referee.coach.judge import Choice, Verdict, judge
from referee.coach.lookahead import Hidden, reply
from referee.coach.review import BLUNDER, INACCURACY, MISTAKE, review
from referee.coach.review_moves import Doubt, Known, Told, given_away, screen, settle
from referee.coach.rollout import BATCH, Budget, confirm, paired_gap, rollouts
from referee.coach.selfplay import play_one
from referee.events import Start, event_to_json
from referee.game import Game
from referee.movegen import legal_moves
from referee.position import Position
from referee.protocol_types import NewGame
from referee.rulesets import Ruleset
from referee.settings.config import Config
from referee.table.game_settings import new_table
from referee.table.reviews import Reviews
from referee.table.seating import default_table
from referee.table.store import Store
from referee.table.table import Table
from web import create_app

BASIC = Ruleset.preset("basic")
HOLE_CODE = re.compile(r"\b[TSH]\d+:\d+\b")


def dealt(hands: dict[int, list[str]], draws: list[str], pegs: dict[str, list[str]], mode: str = "digital") -> Game:
    """A 4-player basic game with the hands and the stock chosen: ``draws`` come off the stock in order."""
    start = Game(BASIC, 4, seed=1, pegs=pegs, mode=mode, table={"names": ["Red", "Sky blue", "Yellow", "Blue"]})  # type: ignore[arg-type]
    events = [event_to_json(event) for event in start.events]
    deal = next(event for event in events if event["event"] == "deal") if mode == "digital" else None
    if deal is not None:
        deal["hands"] = {str(seat): cards for seat, cards in hands.items()}
        deal["stock"] = ["2"] * 10 + list(reversed(draws))
    return Game.from_events(events)


def _home_game(walk_away: bool) -> Game:
    """Red waits on its in-spot holding a 5 (and draws a 9): the 5 takes the peg all the way
    home, or walks it off round the board again."""
    game = dealt(
        {
            0: ["5", "3", "6", "2", "4"],
            1: ["K", "2", "5", "6", "9"],
            2: ["A", "2", "3", "5", "6"],
            3: ["K", "2", "3", "5", "6"],
        },
        ["9", "4", "4", "4", "4"],
        {"0": ["T0:3", "T0:12", "S", "S", "S"]},
    )
    game.draw()
    game.play("5", "5 T0:3-T0:8" if walk_away else "5 T0:3-H0:5")
    for card, text in (("K", "K S1-T1:8"), ("A", "A S2-T2:8"), ("K", "K S3-T3:8")):  # everyone else comes out
        game.draw()
        game.play(card, text)
    return game


def test_the_exact_count_into_home_is_the_best_move_not_a_slip() -> None:
    """Common Errors: "It is best to wait until an exact count card can be played to move all
    the way into Home". The winners' exact-count moves home were once called "big slips": the
    review now calls them the best move with that hand."""
    data = review(_home_game(walk_away=False).events)
    first = data["moves"][0]
    assert first["judged"] and first["cards"] == ["5", "3", "6", "2", "4", "9"]
    assert first["lost"] == 0 and first["size"] is None and first["best"]["move"] == "5 T0:3-H0:5"
    assert first["said"].startswith("Red moves 5 into home (the peg on Red's in-spot): the best move with that hand")
    assert "No mistakes at all" in data["seats"][0]["summary"]


def test_walking_away_from_home_is_named_with_the_chances_it_gave_away() -> None:
    """The same hand, the waiting peg walked off round the board again: a mistake or worse
    (confirmed by the look-ahead beyond its noise), the better move named with its peg."""
    data = review(_home_game(walk_away=True).events)
    first = data["moves"][0]
    assert first["size"] in ("a mistake", "a blunder") and first["lost"] >= reviewing.MISTAKE
    assert first["best"]["move"] == "5 T0:3-H0:5"
    assert "chances to win given away" in first["said"] and "Better: Red moves 5 into home" in first["said"]
    red = data["seats"][0]
    assert red["biggest"][0]["number"] == 1 and red["mistakes"] + red["blunders"] == 1
    for entry in data["moves"]:  # words, never hole codes
        assert not HOLE_CODE.search(entry["said"])
    team = data["teams"][0]
    assert team["name"] == "Red & Yellow" and 1 in [point["number"] for point in team["turning_points"]]


def test_at_a_real_table_only_declared_cards_are_judged() -> None:
    """A move made with no card entered is said in words and not judged; a declared card's is."""
    game = dealt({}, [], {"0": ["T0:8", "S", "S", "S", "S"]}, mode="table")
    game.play(None, "3 T0:8-T0:11")
    game.play("K", "K S1-T1:8")
    data = review(game.events)
    unknown, declared = data["moves"]
    assert not unknown["judged"] and unknown["said"] == "Red moves 3 (the peg on Red's come-out hole)."
    assert unknown["best"] is None and unknown["lost"] is None
    assert declared["judged"] and declared["cards"] == ["K"] and declared["said"].startswith("Sky blue comes out")
    assert "with that card" in declared["said"]
    assert "did not know the cards" in data["seats"][0]["summary"]


def test_undone_moves_leave_the_review() -> None:
    game, _stats = play_one(BASIC, 4, seed=11, bot_name="greedy")
    events = game.events[: [i for i, e in enumerate(game.events) if e.kind == "move"][6] + 1]
    replayed = Game.from_events(events)
    replayed.undo()
    data = review(replayed.events)
    assert [entry["move"] for entry in data["moves"]] == replayed.moves


def test_a_two_player_boards_empty_sides_are_named_as_the_table_names_them() -> None:
    """The rules page, "Players and Equipment": the corners and come-out holes are each
    player's. On a 2-player game's 4-sided board two sides have no player: the live table
    calls them by their colours, and the review and the replay must too, never "Seat 4"."""
    table = new_table(NewGame(2, BASIC))
    assert table["sides"] == {"1": "Sky blue", "3": "Blue"}  # seats 0 and 2 play: Red and Yellow
    assert default_table(2)["sides"] == table["sides"]  # a game the config starts keeps them too
    game, _stats = play_one(BASIC, 2, seed=5, bot_name="greedy")
    start = game.events[0]
    assert isinstance(start, Start)
    events = [replace(start, table=table), *game.events[1:]]
    data = review(events)
    said = " ".join(entry["words"] + " " + entry["said"] for entry in data["moves"])
    told = said + " ".join(record.narrate(events))
    assert "Sky blue's" in said and "Blue's corner" in said  # pegs pass every side in a whole game
    assert not re.search(r"\bseat [24]\b", told, re.IGNORECASE), "a side named after a seat nobody plays"
    assert data["game"]["names"] == {"0": "Red", "2": "Yellow"}  # the players, not the empty sides
    taken = new_table(NewGame(2, BASIC, names=["Sky blue", "Mum"]))
    assert taken["sides"] == {"3": "Blue"}  # a side's colour a seat took as its name is not given twice


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    rules=st.sampled_from(["basic", "arizona", "north-carolina"]),
    bot=st.sampled_from(["greedy", "strong"]),
)
def test_one_entry_per_move_losses_never_negative_mistakes_biggest_first(seed: int, rules: str, bot: str) -> None:
    game, _stats = play_one(Ruleset.preset(rules), 4, seed, bot)
    seen: list[tuple[int, int]] = []
    data = review(game.events, progress=lambda done, total: seen.append((done, total)))
    assert [(entry["seat"], entry["move"]) for entry in data["moves"]] == game.history
    assert [entry["number"] for entry in data["moves"]] == list(range(1, len(game.history) + 1))
    assert seen[-1] == (len(game.history), len(game.history))
    for entry in data["moves"]:
        assert entry["judged"] and entry["lost"] >= 0  # digital: the referee dealt every hand
        assert entry["size"] is None or entry["lost"] >= reviewing.INACCURACY
        told = (
            [entry["said"], entry["best"]["words"], entry["best"]["why"], entry["played"]["why"]]
            if entry["best"]
            else [entry["said"]]
        )
        assert not any(re.search(r"\byour?\b", text, re.IGNORECASE) for text in told), told  # told to the table
        assert not any(re.match(r"(Keep|Discard|Play|Let) ", text) for text in told), told  # not advice to the seat
    sizes = ("an inaccuracy", "a mistake", "a blunder")
    for seat in data["seats"]:
        order = [(sizes.index(slip["size"]), slip["lost"]) for slip in seat["biggest"]]  # size first, then loss
        assert order == sorted(order, reverse=True) and len(order) <= 3
        assert "inaccuracys" not in seat["summary"]
        sized = seat["inaccuracies"] + seat["mistakes"] + seat["blunders"]
        assert seat["best"] + seat["near"] + sized == seat["judged"] == seat["moves"]
    assert sum(seat["moves"] for seat in data["seats"]) == len(game.history)
    for team in data["teams"]:
        judged = sum(1 for entry in data["moves"] if entry["seat"] in team["seats"])
        assert f"Added up over their {judged} move" in team["summary"], team["summary"]  # a sum, said as one
        numbers = [point["number"] for point in team["turning_points"]]
        assert numbers == sorted(numbers) and len(numbers) <= 3
        assert all(abs(point["swing"]) >= 0.01 for point in team["turning_points"])  # each turned something
        assert not any(re.search(r"\byour?\b", point["said"], re.IGNORECASE) for point in team["turning_points"])
    assert data["game"]["over"] and json.loads(json.dumps(data)) == data


def test_a_kept_joker_is_told_to_the_table_as_what_the_seat_could_have_done() -> None:
    """The rules page, Basic Game: "a player is never forced to play a joker". The hint tells
    the seat "Keep your joker and discard the 9"; the review tells the table what Red could have
    done, not an order to keep Red's joker."""
    hint = "Keep your joker and discard the 9"
    why = f"{KEEP_JOKER}."  # the hint's own words
    assert in_third_person(hint, "Red") == "Red keeps the joker and discards the 9"
    assert in_third_person(why, "Red") == (
        "Red keeps the joker for a double or triple play later: no other card can move, so Red lets a card go instead."
    )


# -- the play-outs that settle a doubtful loss ----------------------------------------------------


def _last_peg_home() -> tuple[Position, Hidden, Choice, Choice]:
    """Red's last peg waits on its in-spot and Yellow is home: an ace takes it in and wins the
    game (the rules page, Endgame), a 2 walks it on round the board."""
    board = Board.for_players(4)
    home = {0: ["H0:2", "H0:3", "H0:4", "H0:5", "T0:3"], 2: ["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"]}
    position = Position.from_pegs(board, 0, home)
    wins = next(m for m in legal_moves(position, "A", BASIC) if m.result.winner() is not None)
    walks = next(m for m in legal_moves(position, "2", BASIC) if m.result.winner() is None)
    return position, Hidden.of_hand(position, BASIC, ["A", "2", "7", "8", "9"]), Choice("A", wins), Choice("2", walks)


def test_a_play_out_of_a_winning_move_is_won_every_time() -> None:
    position, hidden, wins, walks = _last_peg_home()
    won, other = rollouts(position, BASIC, [wins, walks], hidden, random.Random(3), playouts=8)
    assert won.samples == (1.0,) * 8 and all(0.0 <= sample <= 1.0 for sample in other.samples)
    gap, error = paired_gap(won, other)
    assert gap > 0 and error >= 0


def test_one_choice_played_out_twice_gives_nothing_away() -> None:
    """Common random numbers: the same deals and seeds for both, so no noise between them."""
    position, hidden, _wins, walks = _last_peg_home()
    one, again = rollouts(position, BASIC, [walks, walks], hidden, random.Random(5), playouts=8)
    assert paired_gap(one, again) == (0.0, 0.0)


def test_a_play_out_fills_a_gap_in_home_with_a_split_seven() -> None:
    """The rules page, Basic Game: "split the 7 between two of your pegs, moving them 1 and 6".
    Red's peg on the third hole of home, the fourth empty, the fifth taken: only a 1 fills the
    gap. A play-out that never split a 7 waited for an ace, and judged a peg left short in home
    far too costly (the review named such moves mistakes that play-outs to the end did not find)."""
    board = Board.for_players(4)
    position = Position.from_pegs(board, 0, {0: ["H0:3", "H0:5", "T1:5", "S", "S"]})
    played_out = reply(position, ["7"], BASIC, jokers=True, splits=rollout.SPLITS)
    assert played_out.move is not None and played_out.move.text == "7 H0:3-H0:4 T1:5-T1:11"
    single = reply(position, ["7"], BASIC).move  # a hint's one-round look-ahead weighs no optional split
    assert single is not None and single.text == "7 T1:5-T1:12"


def test_the_budget_bounds_the_play_outs() -> None:
    """A review's play-outs stop where its budget does: none at all on an empty one, one batch
    of deals on a budget that holds one."""
    position, hidden, wins, walks = _last_peg_home()

    def never(gap: float, error: float) -> bool:
        return False

    assert confirm(position, BASIC, (wins, walks), hidden, random.Random(1), never, Budget(0)) is None
    batch = Budget(2 * BATCH * 4 * 4)
    found = confirm(position, BASIC, (wins, walks), hidden, random.Random(1), never, batch)
    assert found is not None and batch.turns == 0
    assert found == confirm(position, BASIC, (wins, walks), hidden, random.Random(1), lambda g, e: True)


def test_a_blunder_is_named_on_every_deal_not_on_the_first_batch() -> None:
    """Both teams are one peg from winning (the rules page, Endgame: a partner whose pegs are
    all home moves the partner's): Red's ace wins, Red's 2 walks on and leaves the game to
    Blue and Green. However clear the first batch of deals, a mistake is named only on all of
    them: a bar tested after every batch is cleared by luck far more often than once in 40
    (measured: a come-out named "a mistake", 11 points, on its first deals gave 2 on 64).
    And it is named only once fresh deals agree: on a budget for one set of deals, it is at
    most an inaccuracy."""
    board = Board.for_players(4)
    pegs = {
        0: ["H0:2", "H0:3", "H0:4", "H0:5", "T0:3"],
        1: ["H1:1", "H1:2", "H1:3", "H1:4", "H1:5"],
        2: ["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"],
        3: ["H3:2", "H3:3", "H3:4", "H3:5", "T3:3"],
    }
    position = Position.from_pegs(board, 0, pegs)
    wins = next(m for m in legal_moves(position, "A", BASIC) if m.result.winner() is not None)
    walks = next(m for m in legal_moves(position, "2", BASIC) if m.result.winner() is None)
    hidden = Hidden.of_hand(position, BASIC, ["A", "2", "7", "8", "9"])
    one_set = 2 * review_moves.SETTLE_DEALS * review_moves.SETTLE_ROUNDS * 4  # turns: both moves, every deal
    best, mine = Verdict(Choice("A", wins), 1.0), Verdict(Choice("2", walks), 0.0)
    doubt = Doubt(position, BASIC, best, mine, hidden, 1)
    budget = Budget(2 * one_set)
    settled = settle(doubt, budget)
    assert settled is not None and settled[3] == "a blunder"
    assert budget.turns == 0  # every batch was played, on the first deals and on fresh ones
    short = settle(doubt, Budget(one_set))
    assert short is not None and short.size == "an inaccuracy"
    parts = Told(BASIC, "Red moves 2", {}, True, "Red").parts(short)
    assert f"an inaccuracy (about 3 to {round(short.lost * 100)} in 100 chances" in parts["said"]  # not "about 64"


def test_the_words_give_the_loss_from_what_is_clear_of_the_noise_to_the_mean() -> None:
    """The issue: "the difference in words people feel". A loss is said from the part clear
    of the noise (what its size is named from) to the mean, so an inaccuracy never reads like
    a mistake ("an inaccuracy (about 7 in 100)" where a mistake is 4 or more); the low end is
    kept below the next size's bar."""
    assert given_away(0.021, 0.07) == "about 2 to 7 in 100 chances to win given away"
    assert given_away(0.068, 0.07) == "about 7 in 100 chances to win given away"
    assert given_away(None, 0.004) == "about 1 in 100 chances to win given away"
    for size, clear, low in (("an inaccuracy", 0.09, 0.03), ("a mistake", 0.2, 0.11), ("a blunder", 0.3, 0.3)):
        assert review_moves._shown_clear(size, clear) == low


def test_a_joker_played_where_it_could_be_kept_is_played_out_against_the_cards_that_keep_it() -> None:
    """The rules page, Basic Game: "a player is never forced to play a joker". The value reads
    no worth in a joker kept for later, so a joker bump it calls best is still doubted: played
    out against the best few moves of the other cards."""
    hands = {0: ["JOKER", "5", "3", "6", "2"], 1: ["K", "2", "5", "6", "9"], 2: ["A", "2", "3", "5", "6"]}
    game = dealt(
        {**hands, 3: ["K", "2", "3", "4", "6"]},
        ["9"],
        {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T0:2", "S", "S", "S", "S"]},
    )
    game.draw()
    hand = tuple(game.hand(0))
    choices = choices_for(game.position, BASIC, hand)
    bump = judge(game.position, BASIC, choices)[0]
    assert bump.card == "JOKER" and bump.move is not None and bump.move.text.endswith("x")
    outcome, doubt = screen(game, choices, bump.choice, Known(hand, "JOKER", Hidden.of(game, 0)), 1)
    assert outcome[2] == 0 and outcome[3] is None and doubt is not None and doubt.mine.choice == bump.choice
    assert "JOKER" not in {doubt.best.card, *(rival.card for rival in doubt.rivals)} and len(doubt.rivals) >= 2
    settled = settle(doubt, None)
    assert settled is not None and settled[2] >= 0


# -- pegs review ------------------------------------------------------------------------------


def pegs(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "referee.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_pegs_review_prints_the_review_as_json(tmp_path: Path) -> None:
    game, _stats = play_one(BASIC, 4, seed=5, bot_name="greedy")
    path = tmp_path / "game.jsonl"
    record.write(path, game.events)
    done = pegs("review", str(path), "--limit", "1")
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert data == review(game.events, limit=1) and all(len(seat["biggest"]) <= 1 for seat in data["seats"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read record"),
        ("not json at all\n", "is not valid JSON"),
        ('{"event": "move", "seat": 0, "text": "K S0-T0:8"}\n', "a game record starts with a start event"),
        ("[1, 2]\n", "an event is an object"),
    ],
)
def test_pegs_review_bad_input_is_one_line_and_exit_2(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "game.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = pegs("review", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


# -- stored, made in the background ------------------------------------------------------------


def wait_done(ask: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        status: dict[str, Any] = ask()
        if status["state"] != "working":
            return status
        assert time.monotonic() < deadline, "the review was not made in time"
        time.sleep(0.05)


def test_a_review_is_made_in_the_background_stored_and_read_again(tmp_path: Path) -> None:
    finished, _stats = play_one(BASIC, 4, seed=3, bot_name="greedy")
    store = Store.open(tmp_path)
    game_id = store.create(finished.events)
    reviews = Reviews(store)
    first = reviews.status(game_id)
    assert first["state"] in ("working", "done")
    done = wait_done(lambda: reviews.status(game_id))
    assert done["state"] == "done" and done["review"] == review(finished.events)
    store.close()
    again = Store.open(tmp_path)  # a new daemon: the stored review, at once
    began = time.perf_counter()
    assert Reviews(again).status(game_id) == done
    assert time.perf_counter() - began < 0.5
    assert again.review(game_id, reviewing.VERSION + 1) is None  # another version: made again


def test_a_game_left_unfinished_is_reviewed_without_the_cards(tmp_path: Path) -> None:
    """A game that stopped is reviewed up to where it stopped; it may yet go on, so nobody's
    hand and no better move a hand allowed is shown."""
    finished, _stats = play_one(BASIC, 4, seed=3, bot_name="greedy")
    events = finished.events[: [i for i, e in enumerate(finished.events) if e.kind == "move"][20] + 1]
    store = Store.open(tmp_path)
    game_id = store.create(events)
    reviews = Reviews(store)  # one worker, as the table keeps one (a new one per asking starts a review each time)
    done = wait_done(lambda: reviews.status(game_id))
    data = done["review"]
    assert not data["game"]["over"] and data["cards_shown"] is False and len(data["moves"]) == 21
    assert all(entry["cards"] is None and entry["best"] is None for entry in data["moves"])
    assert (
        "Better" not in json.dumps(data)
        and "held" not in json.dumps(data)
        and "draws were worth" not in json.dumps(data)
    )
    assert all(entry["luck"] is None for entry in data["moves"]) and all(team["luck"] is None for team in data["teams"])


def test_an_old_store_gains_the_reviews_table(tmp_path: Path) -> None:
    """A store made before reviews existed opens with its games and a reviews table added."""
    finished, _stats = play_one(BASIC, 4, seed=3, bot_name="greedy")
    with sqlite3.connect(tmp_path / "pegs.sqlite3") as db:
        db.executescript("""
            CREATE TABLE games (id INTEGER PRIMARY KEY, created REAL NOT NULL, rules TEXT NOT NULL,
                                players INTEGER NOT NULL, mode TEXT NOT NULL, winner TEXT);
            CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                                 event TEXT NOT NULL, PRIMARY KEY (game_id, seq));
            CREATE TABLE turns (game_id INTEGER PRIMARY KEY REFERENCES games(id), state TEXT NOT NULL);
        """)
        db.execute("INSERT INTO games VALUES (1, 0, 'basic', 4, 'digital', '[0, 2]')")
        rows = [(n, json.dumps(event_to_json(event))) for n, event in enumerate(finished.events)]
        db.executemany("INSERT INTO events VALUES (1, ?, ?)", rows)
    store = Store.open(tmp_path)
    assert store.recovered is None and store.events(1) == finished.events
    store.save_review(1, reviewing.VERSION, '{"moves": []}')
    assert store.review(1, reviewing.VERSION) == '{"moves": []}'


# -- the page ---------------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    service = Table.build(Config.simulated(str(tmp_path), pin="2468"))
    service.start()
    yield create_app(service)
    service.stop()


def test_the_review_page_and_its_json(app: Flask) -> None:
    client: FlaskClient = app.test_client()
    finished, _stats = play_one(BASIC, 4, seed=3, bot_name="greedy")
    over = app.config["TABLE"].store.create(finished.events)
    running = client.get("/api/state").get_json()["game"]
    status = wait_done(lambda: client.get(f"/api/games/{over}/review").get_json())
    assert status["state"] == "done" and len(status["review"]["moves"]) == len(finished.moves)
    page = client.get(f"/games/{over}/review")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Turning points" in html and status["review"]["seats"][0]["summary"] in html
    sizes = {"an inaccuracy": INACCURACY, "a mistake": MISTAKE, "a blunder": BLUNDER}
    assert status["review"]["sizes"] == sizes
    for size, bar in sizes.items():
        assert f"{size} ({round(bar * 100)} in 100 or more)" in html  # the page says the review's own bars
    assert f'href="/games/{over}/review"' in client.get("/games").get_data(as_text=True)
    assert f'href="/games/{over}/review"' in client.get(f"/games/{over}").get_data(as_text=True)
    # The game being played: its hands are still hidden.
    refused = client.get(f"/api/games/{running}/review")
    assert refused.status_code == 409 and "being played" in refused.get_json()["error"]
    page = client.get(f"/games/{running}/review")
    assert page.status_code == 409 and "once the game is won" in page.get_data(as_text=True)
    assert client.get("/games/999/review").status_code == 404
    assert client.get("/api/games/999/review").get_json()["error"] == "there is no game 999 here"


def test_the_page_shows_progress_while_the_review_is_made(app: Flask) -> None:
    client = app.test_client()
    finished, _stats = play_one(Ruleset.preset("north-carolina"), 4, seed=4, bot_name="greedy")
    over = app.config["TABLE"].store.create(finished.events)
    html = client.get(f"/games/{over}/review").get_data(as_text=True)
    assert 'id="progress"' in html or "Turning points" in html  # done already on a fast machine
    wait_done(lambda: client.get(f"/api/games/{over}/review").get_json())

"""The command line, where it misleads (issue "The page tells the truth in every corner").

"- `pegs serve --simulate --port 99999` says it serves on :99999 and listens on another
port: refuse a port outside 1-65535.
- A second `pegs serve` on the same data directory opens the store under a running daemon:
refuse with a clear message (a lock on the directory), never two writers.
- `pegs selfplay --players 2 --bot greedy --vs strategic` reports a greedy-vs-strategic
result when only greedy played (a 2-player game has one seat per team): refuse or explain.
- `pegs doctor` lists a fix and then says "nothing to fix" with exit status 0.
- `pegs replay` refuses a table game's record downloaded without the PIN ("leaves out
cards"): replay what is there, with hidden cards shown as hidden."
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from referee.events import Event, Move, event_to_json
from tests.real_daemon import Daemon

PEGS = [sys.executable, "-m", "referee.cli"]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PEGS, *args], capture_output=True, text=True, timeout=120, check=False, cwd=cwd)


# -- serve: the port ---------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["99999", "0", "-1", "65536"])
def test_serve_refuses_a_port_it_cannot_serve_on(tmp_path: Path, port: str) -> None:
    done = run("serve", "--simulate", "--data", str(tmp_path / "data"), "--port", port)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"pegs serve: --port must be a whole number from 1 to 65535, not {port}"
    assert "the board's page is at" not in done.stderr  # never a page said to be where it is not


def test_the_config_files_port_is_checked_too(tmp_path: Path) -> None:
    config = tmp_path / "pegs.toml"
    config.write_text(
        f'[sensors]\nbackend = "simulated"\n[leds]\nbackend = "memory"\n[data]\ndir = "{tmp_path / "d"}"\n'
        "[web]\nport = 99999\n"
    )
    done = run("serve", "--config", str(config))
    assert done.returncode == 2 and "web.port must be a whole number from 1 to 65535" in done.stderr


# -- serve: one daemon per data dir ----------------------------------------------------------


def test_a_second_serve_on_the_same_data_dir_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Daemon(data)
    first.start()
    try:
        before = first.get("/api/state")
        second = Daemon(data)
        done = run("serve", "--simulate", "--data", str(data), "--port", str(second.port))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        last = done.stderr.strip().splitlines()[-1]
        assert first.process is not None
        assert last.startswith(
            f"pegs serve: the data dir {str(data)!r} is in use by another pegs serve (process {first.process.pid})"
        )
        assert "only one daemon" in last and "--data" in last
        assert "the table PIN is" not in done.stderr  # it opened nothing
        assert first.get("/api/state") == before  # and the first goes on undisturbed
        elsewhere = Daemon(tmp_path / "other")
        elsewhere.start()  # another data dir is another table
        elsewhere.stop()
    finally:
        first.stop()


def test_a_port_taken_is_said_before_any_address(tmp_path: Path) -> None:
    """`make run` while another program has port 8080: one line saying so and how to choose
    another, and no "the board's page is at" first (issue 33 #16); the data dir is let go."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("serve", "--simulate", "--data", str(tmp_path), "--port", str(port), "--host", "127.0.0.1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "page is at" not in done.stderr and "PIN" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"pegs serve: cannot listen on 127.0.0.1:{port}") and "--port" in last
    again = Daemon(tmp_path)  # the lock went with it
    again.start()
    again.stop()


def test_the_lock_goes_with_its_daemon_even_after_kill_9(tmp_path: Path) -> None:
    """systemd restarts a daemon that died: the lock must not outlive it."""
    first = Daemon(tmp_path)
    first.start()
    first.kill()
    again = Daemon(tmp_path)
    again.start()
    again.stop()
    third = Daemon(tmp_path)  # and after a clean stop
    third.start()
    third.stop()


# -- doctor: the summary agrees with the fixes listed -----------------------------------------


def _doctor_agrees(stdout: str, returncode: int) -> int:
    """The lines say FIX as often as the summary counts, each fix follows a FIX, and the exit
    status says whether there was one. The count of things to fix."""
    lines = stdout.splitlines()
    marked = [line for line in lines if line.startswith("FIX")]
    for index, line in enumerate(lines):
        if line.strip().startswith("fix:"):
            owner = next(earlier for earlier in reversed(lines[:index]) if not earlier.startswith(" " * 7))
            assert owner.startswith("FIX"), f"a fix listed under a finding that is not to fix: {owner!r}"
    assert lines[-1] == (f"{len(marked)} thing(s) to fix" if marked else "nothing to fix")
    assert returncode == (1 if marked else 0)
    return len(marked)


def test_doctor_off_a_pi_without_a_config_lists_no_fix_and_says_nothing_to_fix(tmp_path: Path) -> None:
    done = run("doctor", "--root", str(tmp_path))
    assert done.stderr == "" and "fix:" not in done.stdout
    assert "/etc/pegs/pegs.toml is missing" in done.stdout
    assert "on the Pi, deploy/install.sh puts it there" in done.stdout
    assert _doctor_agrees(done.stdout, done.returncode) == 0


def test_doctor_on_a_pi_without_a_config_counts_its_fix(tmp_path: Path) -> None:
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_text("Raspberry Pi 4 Model B Rev 1.4\0")
    done = run("doctor", "--root", str(tmp_path))
    assert "FIX  config: /etc/pegs/pegs.toml is missing" in done.stdout
    assert _doctor_agrees(done.stdout, done.returncode) >= 1


def test_every_finding_with_a_fix_is_one_to_fix(tmp_path: Path) -> None:
    from referee.kit.doctor import examine
    from referee.kit.doctor_machine import Machine

    def systemd(state: str, starts: str):  # type: ignore[no-untyped-def]
        return lambda argv: (0, state if argv[1] == "is-active" else starts) if argv[0] == "systemctl" else None

    config = (Path(__file__).parent.parent / "deploy" / "pegs.toml").read_text()
    for number, model in enumerate(("", "Raspberry Pi 4 Model B Rev 1.4\0", "Raspberry Pi 2 Model B Rev 1.1\0")):
        for with_config in (False, True):
            root = tmp_path / f"{number}-{with_config}"
            (root / "etc/pegs").mkdir(parents=True)
            if model:
                (root / "proc/device-tree").mkdir(parents=True)
                (root / "proc/device-tree/model").write_text(model)
            if with_config:
                (root / "etc/pegs/pegs.toml").write_text(config)
            for state, starts in (("inactive", "not-found"), ("failed", "enabled"), ("active", "enabled")):
                machine = Machine(root, run=systemd(state, starts), web_port=1, device_channels=lambda port: None)
                for finding in examine(machine):
                    assert not finding.fix or finding.ok is False, finding


# -- selfplay: two players are one against one ---------------------------------------------


def test_selfplay_two_players_against_each_other_is_one_against_one() -> None:
    """Two players sit at seats 0 and 2, each a team of one: both bots play, one seat each."""
    from referee.coach.selfplay import play_one, sides
    from referee.rulesets import Ruleset

    assert sides(2) == ((0,), (2,)) and sides(4) == ((0, 2), (1, 3)) and sides(10) == ((0, 2, 4, 6, 8), (1, 3, 5, 7, 9))
    done = run("selfplay", "--players", "2", "--bot", "greedy", "--vs", "strategic", "--games", "12", "--seed", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "12 games, 2 players, basic rules, greedy bots against strategic"
    found = re.fullmatch(
        r"greedy \(seat 0\) against strategic \(seat 2\), one against one: greedy won (\d+) of 12 "
        r"games, [\d.]+% \(95% CI [\d.]+% to [\d.]+%\)",
        lines[-1],
    )
    assert found, lines[-1]
    basic = Ruleset.preset("basic")
    wins = sum(1 for seed in range(3, 15) if play_one(basic, 2, seed, "greedy", "strategic")[1].winner == (0,))
    assert int(found[1]) == wins  # seat 0's wins, not every game (before: "won 12 of 12", seat 2 being even)
    data = json.loads(
        run("selfplay", "--players", "2", "--bot", "greedy", "--vs", "strategic", "--games", "4", "--json").stdout
    )
    assert data["match"]["bot_seats"] == [0] and data["match"]["vs_seats"] == [2]


def test_both_bots_really_play_a_two_player_game() -> None:
    from referee.coach import selfplay
    from referee.coach.bots import BOTS
    from referee.rulesets import Ruleset

    made: list[tuple[str, int]] = []
    real = dict(BOTS)

    def spy(name: str):  # type: ignore[no-untyped-def]
        class Spy(real[name]):  # type: ignore[misc, valid-type]
            def act(self, game):  # type: ignore[no-untyped-def]
                made.append((name, selfplay._waiting_on(game)))
                return super().act(game)

        return Spy

    try:
        BOTS.update({name: spy(name) for name in ("greedy", "strategic")})  # the dict selfplay reads
        selfplay.play_one(Ruleset.preset("basic"), 2, 1, "greedy", "strategic")
    finally:
        BOTS.update(real)
    assert {seat for name, seat in made if name == "greedy"} == {0}
    assert {seat for name, seat in made if name == "strategic"} == {2}


# -- replay: a record downloaded without the PIN ------------------------------------------------


def _table_game(turns: int, seed: int = 4) -> list[Event]:
    """A real-table Bluffing Joker game under way: cards face down, unknown to the referee,
    some doubted and turned up, some pegs sent back as penalties."""
    import random

    from referee.cards import CARDS
    from referee.game import Game
    from referee.rulesets import Ruleset

    rng = random.Random(seed)
    names = {"names": ["Ann", "Bo", "Cy", "Di"]}
    game = Game(Ruleset.preset("bluffing-joker"), 4, mode="table", seed=seed, table=names)
    while game.turn_number <= turns and game.phase != "over":
        if game.phase == "play":
            options = [(card, moves[0]) for card in rng.sample(CARDS, len(CARDS)) if (moves := game.legal(card))]
            if options:
                game.play(None, options[0][1], declared=options[0][0])
            else:
                game.discard(None)
        elif game.phase == "doubt":
            game.respond(game.doubter_to_answer, rng.random() < 0.3)  # type: ignore[arg-type]
        elif game.phase == "reveal":
            game.reveal(rng.choice(CARDS))
        elif game.phase == "penalty":
            chooser, victim = game.penalty  # type: ignore[misc]
            track = [game.board.hole_name(h) for h in game.position.on_board(victim) if game.board.is_track(h)]
            game.send_to_start(chooser, track[0])
    return game.events


def _replayed(tmp_path: Path, events: list[Event], name: str) -> list[str]:
    from referee import record

    path = tmp_path / name
    record.write(path, events)
    done = run("replay", str(path))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split("\n")


def test_replay_tells_a_table_game_downloaded_without_the_pin(tmp_path: Path) -> None:
    from referee import record

    events = _table_game(40)
    assert any(event.kind == "reveal" for event in events) and any(event.kind == "penalty" for event in events)
    hidden = record.redacted(events, None)  # what the page gives anyone without the PIN while the game is on
    assert event_to_json(hidden[0])["redacted"] is True and "seed" not in event_to_json(hidden[0])
    with pytest.raises(record.RecordError, match="leaves out cards"):
        record.replay(hidden)  # a game cannot be rebuilt from it (the review, the history) ...
    told = _replayed(tmp_path, hidden, "hidden.jsonl")  # ... but it can be told
    assert told[0] == (
        "(this record was saved before the game was over and leaves out the cards the others could "
        "not see: each is shown as a hidden card)"
    )
    whole = _replayed(tmp_path, events, "whole.jsonl")
    assert told[2:] == whole  # at a real table the referee holds no card: the same game, told the same
    assert "-- turn 40: " in "\n".join(told) and "the card is " in "\n".join(told)


def test_replay_tells_a_digital_game_downloaded_without_the_pin_with_hidden_cards_as_hidden(tmp_path: Path) -> None:
    from referee import record
    from referee.coach.selfplay import play_one
    from referee.rulesets import Ruleset

    game, _ = play_one(Ruleset.preset("basic"), 4, seed=5, bot_name="random")
    events = game.events[: len(game.events) // 2]  # the game still on
    whole = _replayed(tmp_path, events, "whole.jsonl")
    stranger = _replayed(tmp_path, record.redacted(events, None), "stranger.jsonl")
    draws = [line for line in stranger if " draws " in line]
    assert draws and all(line.endswith(" draws a hidden card") for line in draws)
    assert [line for line in stranger[2:] if " draws " not in line] == [line for line in whole if " draws " not in line]
    blue = _replayed(tmp_path, record.redacted(events, 1), "blue.jsonl")  # a seat sees its own cards
    own = [line for line in blue if line.startswith("   seat 2 draws ")]
    assert own and not any(line.endswith("a hidden card") for line in own)
    assert all(line.endswith("a hidden card") for line in blue if " draws " in line and "seat 2" not in line)


def test_a_broken_record_that_leaves_out_cards_is_still_one_line(tmp_path: Path) -> None:
    from referee import record

    events = _table_game(6)
    hidden = record.redacted(events, None)
    moved, move = next((index, event) for index, event in enumerate(hidden) if isinstance(event, Move))
    hidden[moved] = Move(move.seat, "5 T0:60-T0:65")
    path = tmp_path / "broken.jsonl"
    record.write(path, hidden)
    done = run("replay", str(path))
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1

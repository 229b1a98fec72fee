"""``pegs train``: fit the value's weights to self-played games and write ``value.json``.

    pegs train --seed 1 --out referee/coach/data/value.json      # what ships (a few minutes)
    pegs train --seed 2 --games 200 --players 4 --out /tmp/v.json  # a quick look

The same seed, games and players write the same file. For each number of players the games
rotate through the presets; one game in five is held out, and the file says how well the
weights predict those games against a value that knows nothing.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

from referee.coach.features import NAMES
from referee.coach.training import Sample, chance_log_loss, collect, fit, log_loss
from referee.rulesets import PRESETS, Ruleset

PLAYERS = (2, 4, 6, 8, 10)
GAMES = {2: 1000, 4: 2400, 6: 1600, 8: 1000, 10: 700}  # games per player count by default
HELD_OUT = 5  # one game in five is kept for the check


def add_commands(commands: Any) -> None:
    train = commands.add_parser("train", help="fit the value that judges moves to self-played games (minutes)")
    train.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    train.add_argument("--games", type=_games, help="games per number of players (default: 700 to 2,400 by size)")
    train.add_argument("--players", type=int, nargs="+", choices=PLAYERS, default=list(PLAYERS))
    train.add_argument("--out", required=True, help="the value.json to write")
    train.add_argument("--processes", type=_games, default=2, help="games played side by side (default 2)")
    train.set_defaults(func=train_command)


def _games(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {number}")
    return number


def train_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if not out.parent.is_dir():  # said before minutes of self-play, not after
        raise ValueError(f"cannot write {out}: there is no folder {out.parent}")
    began = time.perf_counter()
    models = {}
    for players in args.players:
        games = args.games or GAMES[players]
        models[str(players)] = _model(players, games, args.seed, args.processes)
        print(f"pegs train: {players} players, {games} games: {models[str(players)]['check']}", file=sys.stderr)
    data = {
        "features": list(NAMES),
        "made_by": f"pegs train --seed {args.seed}" + (f" --games {args.games}" if args.games else ""),
        "self_play": "greedy bots on every seat, the presets in turn, a position in three after each move",
        "models": models,
    }
    try:
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot write {out}: {error.strerror}") from None
    print(f"pegs train: {args.out} written in {time.perf_counter() - began:.0f} s", file=sys.stderr)
    return 0


def _model(players: int, games: int, seed: int, processes: int) -> dict[str, Any]:
    seeds = list(range(seed, seed + games))
    jobs = [(players, seeds[i::processes]) for i in range(processes)]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        parts = pool.map(_collect, jobs)
    train = [sample for part in parts for key, sample in part if key % HELD_OUT]
    held = [sample for part in parts for key, sample in part if not key % HELD_OUT]
    weights = fit(train)
    return {
        "weights": [round(w, 6) for w in weights],
        "games": games,
        "samples": len(train),
        "check": {
            "held_out_samples": len(held),
            "log_loss": round(log_loss(weights, held), 4),
            "log_loss_knowing_nothing": round(chance_log_loss(held), 4),
        },
    }


def _collect(job: tuple[int, list[int]]) -> list[tuple[int, Sample]]:
    players, seeds = job
    presets = sorted(PRESETS)
    found = []
    for seed in seeds:
        rules = Ruleset.preset(presets[seed % len(presets)])
        found += [(seed, sample) for sample in collect(rules, players, [seed])]
    return found

"""``pegs train``: fit the value's weights to self-played games and write ``value.json``.

    pegs train --seed 1 --out referee/coach/data/value.json      # what ships (a few minutes)
    pegs train --seed 2 --games 200 --players 4 --out /tmp/v.json  # a quick look

The same seed, games and players write the same file. For each number of players the games
rotate through the presets; one game in five is held out, and the file says how well the
weights predict those games against a value that knows nothing. Then each size's fit is tried
in play (``referee.coach.trial``): the strong bot judging by it against the race, and by every
other size's fit; a size keeps its own unless another's plays clearly better there, and the
file says what each won.
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
from referee.coach.trial import chosen, plays
from referee.rulesets import PRESETS, Ruleset

PLAYERS = (2, 4, 6, 8, 10)
GAMES = {2: 1000, 4: 2400, 6: 1600, 8: 1000, 10: 700}  # games per player count by default
HELD_OUT = 5  # one game in five is kept for the check
IN_PLAY = 200  # games each fit plays at each size (``referee.coach.trial``)
TRIAL_SEEDS = 1_000_000  # added to --seed: the trial's games are not the games fitted


def add_commands(commands: Any) -> None:
    train = commands.add_parser("train", help="fit the value that judges moves to self-played games (minutes)")
    train.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    train.add_argument("--games", type=_games, help="games per number of players (default: 700 to 2,400 by size)")
    train.add_argument("--players", type=int, nargs="+", choices=PLAYERS, default=list(PLAYERS))
    train.add_argument("--out", required=True, help="the value.json to write")
    train.add_argument("--processes", type=_games, default=2, help="games played side by side (default 2)")
    train.add_argument(
        "--in-play",
        type=_trial_games,
        help=f"games each fit plays at each size before a size's fit is chosen (default {IN_PLAY}; 0: no trial)",
    )
    train.set_defaults(func=train_command)


def _games(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {number}")
    return number


def _trial_games(text: str) -> int:
    if text.strip() == "0":
        return 0
    try:
        return _games(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"0 or a whole number of games, not {text!r}") from None


def train_command(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if not out.parent.is_dir():  # said before minutes of self-play, not after
        raise ValueError(f"cannot write {out}: there is no folder {out.parent}")
    began = time.perf_counter()
    fits = {players: _fit(players, args.games or GAMES[players], args.seed, args.processes) for players in args.players}
    models = {}
    trial = args.in_play if args.in_play is not None else IN_PLAY
    weights_of = {size: fit[0] for size, fit in fits.items()}
    for players in args.players:
        rates = _tried(players, weights_of, trial, args.seed, args.processes)
        used = chosen(players, rates, trial) if rates else players
        weights, _held, samples = fits[used]
        games = args.games or GAMES[used]
        models[str(players)] = _model(weights, used, fits[players][1], games, samples, rates, trial)
        print(f"pegs train: {players} players: {models[str(players)]['check']}, fitted at {used}", file=sys.stderr)
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


def _fit(players: int, games: int, seed: int, processes: int) -> tuple[tuple[float, ...], list[Sample], int]:
    """The weights fitted to ``games`` self-played games, the held-out samples, and how many
    samples the fit saw."""
    seeds = list(range(seed, seed + games))
    jobs = [(players, seeds[i::processes]) for i in range(processes)]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        parts = pool.map(_collect, jobs)
    train = [sample for part in parts for key, sample in part if key % HELD_OUT]
    held = [sample for part in parts for key, sample in part if not key % HELD_OUT]
    return tuple(round(w, 6) for w in fit(train)), held, len(train)


def _tried(players: int, fits: dict[int, tuple[float, ...]], games: int, seed: int, processes: int) -> dict[int, float]:
    """Every fit's strong bot against the race at ``players`` (none with ``--in-play 0``)."""
    if not games:
        return {}
    rates = {size: plays(players, weights, games, seed + TRIAL_SEEDS, processes) for size, weights in fits.items()}
    print(f"pegs train: at {players} players, the fits of each size won {rates}", file=sys.stderr)
    return rates


def _model(
    weights: tuple[float, ...],
    fitted_at: int,
    held: list[Sample],
    games: int,
    samples: int,
    rates: dict[int, float],
    trial: int,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "weights": list(weights),
        "fitted_at": fitted_at,  # the size whose games the weights were fitted to: its games and samples
        "games": games,
        "samples": samples,
        "check": {  # on this size's held-out games
            "held_out_samples": len(held),
            "log_loss": round(log_loss(weights, held), 4),
            "log_loss_knowing_nothing": round(chance_log_loss(held), 4),
        },
    }
    if rates:
        entry["in_play"] = {"games": trial, "strong_bot_beat_the_race": {str(k): v for k, v in rates.items()}}
    return entry


def _collect(job: tuple[int, list[int]]) -> list[tuple[int, Sample]]:
    players, seeds = job
    presets = sorted(PRESETS)
    found = []
    for seed in seeds:
        rules = Ruleset.preset(presets[seed % len(presets)])
        found += [(seed, sample) for sample in collect(rules, players, [seed])]
    return found

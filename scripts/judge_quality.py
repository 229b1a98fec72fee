"""Measure a ranker (a hint's top choice) and a game review against the independent reference
(tests/reference_judge.py: Monte-Carlo play-outs over sampled hidden cards), as issue 31 asks.

    .venv/bin/python scripts/judge_quality.py --positions 48 --playouts 80 --seed 1 --players 4 6 \\
        --ranker scripts.judge_adapters:top_hint --review scripts.judge_adapters:review_label

A ranker is ``function(game) -> (card, move or None)``, its top choice for the seat to play;
a review is ``function(game, card, move or None) -> "best" | "good" | "inaccuracy" |
"mistake" | "blunder"``, its label for the move played there. The figures, each with its 95%
Wilson interval: the top choice is the reference's best; within noise of it; a real mistake
(2 points of win chance below the best, beyond noise); of the played moves the review calls a
mistake or a blunder, the share that are real mistakes (precision); of the played moves that
are real mistakes, the share it calls so (recall). Reference results are cached by position
(``--cache``), so a second ranker is measured on the same samples without playing them again.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]  # run as a script: the repository's packages, tests included

from referee.game import Game  # noqa: E402
from referee.moves import Move  # noqa: E402
from tests.judge_positions import Spot, contested_spots, option_of  # noqa: E402
from tests.reference_judge import (  # noqa: E402
    Estimate,
    Option,
    estimate,
    gap,
    real_mistake,
    reference,
    sample_worlds,
    within_noise,
)

Choice = tuple[str, Move | None]
FLAGGED = ("mistake", "blunder")
OUTCOME = {1.0: "1", 0.0: "0", 0.5: "h"}


# -- the reference, cached by position -------------------------------------------------------


def load(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


def _encode(estimates: list[Estimate]) -> list[dict[str, Any]]:
    return [
        {
            "card": e.card,
            "move": e.move.text if e.move else None,
            "free": e.free,
            "mean": e.mean,
            "se": e.se,
            "n": e.n,
            "outcomes": "".join(OUTCOME[o] for o in e.outcomes),
        }
        for e in estimates
    ]


def _decode(game: Game, rows: list[dict[str, Any]]) -> list[Estimate]:
    back = {code: value for value, code in OUTCOME.items()}
    judged = []
    for row in rows:
        option = option_of(game, (row["card"], row["move"], row["free"]))
        outcomes = tuple(back[c] for c in row["outcomes"])
        judged.append(Estimate(option.card, option.move, row["mean"], row["se"], row["n"], option.free, outcomes))
    return judged


def _find(game: Game, judged: list[Estimate], option: Option, playouts: int, seed: int) -> Estimate:
    """The option's estimate; one the reference did not sample (a big split) is played out now
    on the very same worlds and added to ``judged``."""
    for candidate in judged:
        if candidate.option.key == option.key:
            return candidate
    worlds = sample_worlds(game, playouts, random.Random(seed))
    added = estimate(game, [option], worlds, drop_z=None)[0]
    judged.append(added)
    return added


# -- one position ----------------------------------------------------------------------------


def judge_spot(job: tuple[Spot, dict[str, Any] | None, int, str, str | None, int]) -> dict[str, Any]:
    """One position: the reference (from the cache, or played out), the ranker's choice and
    the review's label of the move played, each placed against the reference's best. With
    ``confirm`` (the job's last item), the best, the ranker's choice and the move played are
    played out again on that many fresh deals and judged there: the best is the highest of
    a dozen noisy estimates (it wins partly by luck) and an option dropped early rests on its
    first deals, so verdicts read off the same deals that chose the best lean towards
    "mistake"; fresh deals remove both."""
    spot, cached, playouts, ranker_path, review_path, confirm = job
    started = time.perf_counter()
    game, seed = spot.game(), int(spot.key[:12], 16)
    if cached is not None and cached["playouts"] == playouts:
        judged = _decode(game, cached["estimates"])
    else:
        judged = reference(game, playouts, random.Random(seed))
    card, move = load(ranker_path)(game)
    top = _find(game, judged, _as_option(game, card, move), playouts, seed)
    played = _find(game, judged, option_of(game, spot.played), playouts, seed)
    label = load(review_path)(game, played.card, played.move) if review_path else None
    best = max(judged, key=lambda e: e.mean)
    if confirm:
        best, top, played = _confirmed(game, [best, top, played], confirm, seed)
    return {
        "key": spot.key,
        "kind": f"{spot.rules} {spot.players}p",
        "options": len(judged),
        "top_is_best": top.option.key == best.option.key,
        "top_within_noise": top.option.key == best.option.key or within_noise(best, top),
        "top_mistake": real_mistake(best, top),
        "played_mistake": real_mistake(best, played),
        "review": label,
        "played": played.option.text,
        "best": best.option.text,
        "played_gap": [round(value, 4) for value in gap(best, played)],
        "seconds": round(time.perf_counter() - started, 2),
        "cache": {"playouts": playouts, "estimates": _encode(sorted(judged, key=lambda e: -e.mean))},
    }


def _confirmed(game: Game, chosen: list[Estimate], deals: int, seed: int) -> list[Estimate]:
    """``chosen`` played out again, on ``deals`` fresh worlds (another seed), all to the end."""
    options = list({e.option.key: e.option for e in chosen}.values())
    worlds = sample_worlds(game, deals, random.Random(seed + 1))
    fresh = {e.option.key: e for e in estimate(game, options, worlds, drop_z=None)}
    return [fresh[e.option.key] for e in chosen]


def _as_option(game: Game, card: str, move: Move | None) -> Option:
    """A ranker's choice as an option: a free come-out when it is no move of the card's own."""
    if move is None:
        return Option(card, None)
    own = {m.result.occupancy for m in game.playable().get(card, [])}
    return Option(card, move, free=move.result.occupancy not in own)


# -- the figures -----------------------------------------------------------------------------


def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound at small counts and near 0 or 1)."""
    if total == 0:
        return 0.0, 1.0
    rate = hits / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def figure(hits: int, total: int) -> dict[str, Any]:
    low, high = wilson(hits, total)
    return {"hits": hits, "of": total, "rate": round(hits / total, 4) if total else None, "ci95": [low, high]}


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    flagged = [row for row in rows if row["review"] in FLAGGED]
    real = [row for row in rows if row["played_mistake"]]
    return {
        "positions": len(rows),
        "top_is_best": figure(sum(row["top_is_best"] for row in rows), len(rows)),
        "top_within_noise": figure(sum(row["top_within_noise"] for row in rows), len(rows)),
        "top_real_mistake": figure(sum(row["top_mistake"] for row in rows), len(rows)),
        "review_precision": figure(sum(row["played_mistake"] for row in flagged), len(flagged)),
        "review_recall": figure(sum(row["review"] in FLAGGED for row in real), len(real)),
        "targets": {
            "top_within_noise": ">= 0.90",
            "top_real_mistake": "<= 0.03",
            "precision": ">= 0.80",
            "recall": ">= 0.70",
        },
    }


def table(data: dict[str, Any]) -> str:
    lines = [f"{data['positions']} contested positions"]
    for name in ("top_is_best", "top_within_noise", "top_real_mistake", "review_precision", "review_recall"):
        f = data[name]
        rate = "  n/a" if f["rate"] is None else f"{f['rate']:5.1%}"
        lines.append(f"{name:18} {rate}  ({f['hits']}/{f['of']}, 95% CI {f['ci95'][0]:.1%} to {f['ci95'][1]:.1%})")
    return "\n".join(lines)


# -- the command -----------------------------------------------------------------------------


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=48)
    parser.add_argument("--playouts", type=int, default=80, help="play-outs per option (80: ~30 min for 48 on 2 cores)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--rules", nargs="+", default=["basic", "north-carolina"])
    parser.add_argument("--ranker", default="scripts.judge_adapters:top_hint")
    parser.add_argument("--review", default="scripts.judge_adapters:review_label", help="'none' to leave it out")
    parser.add_argument("--cache", default="judge-cache.json", help="the reference's results, kept between runs")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rows", help="write each position's verdicts (JSON) to this file, to look at them one by one")
    parser.add_argument(
        "--confirm",
        type=int,
        default=0,
        help="play the best, the ranker's choice and the move played out again on this many fresh deals, "
        "and judge them there (0: judge on the reference's own deals)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    started = time.perf_counter()
    cache_path = Path(args.cache)
    cache: dict[str, Any] = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    spots = contested_spots(args.positions, tuple(args.players), tuple(args.rules), args.seed)
    print(f"{len(spots)} positions found in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    review = None if args.review == "none" else args.review
    jobs = [(spot, cache.get(spot.key), args.playouts, args.ranker, review, args.confirm) for spot in spots]
    rows: list[dict[str, Any]] = []
    with multiprocessing.Pool(args.processes) as pool:
        for row in pool.imap_unordered(judge_spot, jobs):
            rows.append(row)
            cache[row["key"]] = row.pop("cache")
            print(f"{len(rows)}/{len(jobs)} {row['kind']} {row['seconds']} s", file=sys.stderr, flush=True)
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    cache_path.write_text(json.dumps(cache))
    if args.rows:
        Path(args.rows).write_text(json.dumps(rows, indent=1))
    data = {**figures(rows), "seconds": round(time.perf_counter() - started, 1), "playouts": args.playouts}
    data["confirm"] = args.confirm
    data["ranker"], data["review"] = args.ranker, review
    print(json.dumps(data, indent=2))
    print(table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())

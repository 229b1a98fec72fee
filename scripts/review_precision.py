"""How often a move the game review calls a mistake in a whole game is a real one, by the
independent reference (issue 31: "of the moves the review calls a mistake or worse, at least
80 % real mistakes by the reference").

    .venv/bin/python scripts/review_precision.py --games 6 --seed 500 --players 4 \\
        --rules basic north-carolina --bots family beginner --vs strong --deals 400

Bots play whole games (each of ``--bots`` against ``--vs``), the review reads each record as
``pegs review`` does, and every move it calls a mistake or a blunder is played out by the
reference (``tests/reference_judge.py``): from the position the seat saw, the move made and the
review's better move, over ``--deals`` fresh deals to the end of the game. Real: the move made
2 points of win chance below the better one, beyond noise. Prints each named move with the
reference's verdict, then the share that are real with its 95% Wilson interval. The
judge_quality script measures positions drawn from contested games; this one measures what a
family reads after a whole game, where the review names most of its mistakes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]  # run as a script: the repository's packages, tests included

from referee.coach.review import review  # noqa: E402
from referee.coach.review_moves import MISTAKE_WORDS  # noqa: E402
from referee.coach.selfplay import play_one  # noqa: E402
from referee.events import Event, Move, Play  # noqa: E402
from referee.game import Game  # noqa: E402
from referee.rulesets import Ruleset  # noqa: E402
from scripts.judge_quality import wilson  # noqa: E402
from tests.judge_positions import option_of  # noqa: E402
from tests.reference_judge import estimate, gap, real_mistake, sample_worlds  # noqa: E402

Named = dict[str, Any]


def named_in_game(rules: str, players: int, seed: int, bot: str, vs: str) -> tuple[list[Event], list[Named]]:
    """One self-played game and the moves its review calls a mistake or a blunder."""
    game, _stats = play_one(Ruleset.preset(rules), players, seed, bot, vs)
    data = review(game.events)
    named = [
        {
            "game": f"{rules} {players}p {bot} v {vs} #{seed}",
            "number": m["number"],
            "played": m["move"],
            "better": m["best"]["move"],
            "lost": m["lost"],
            "size": m["size"],
        }
        for m in data["moves"]
        if m["size"] in MISTAKE_WORDS and m["best"] and m["best"]["move"]
    ]
    return game.events, named


def seen_before(events: list[Event], number: int) -> Game:
    """The game as the seat saw it before it played its ``number``-th move (cards in hand)."""
    moves = [i for i, event in enumerate(events) if isinstance(event, Move)]
    cut = moves[number - 1]
    while not isinstance(events[cut], Play):
        cut -= 1
    return Game.from_events(events[:cut])


def checked(job: tuple[list[Event], Named, int]) -> Named:
    """The reference's verdict on one named move: what the move made gave away against the
    better move, its standard error, and whether that is a real mistake."""
    events, named, deals = job
    game = seen_before(events, named["number"])
    made, better = (option_of(game, (text.split()[0], text, False)) for text in (named["played"], named["better"]))
    worlds = sample_worlds(game, deals, random.Random(named["number"]))
    by_text = {e.move.text: e for e in estimate(game, [made, better], worlds, drop_z=None) if e.move is not None}
    mine, best = by_text[named["played"]], by_text[named["better"]]
    lost, error = gap(best, mine)
    return {
        **named,
        "reference_lost": round(lost, 4),
        "reference_se": round(error, 4),
        "real": real_mistake(best, mine),
    }


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=6, help="games per preset, player count and bot")
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--rules", nargs="+", default=["basic", "north-carolina"])
    parser.add_argument("--bots", nargs="+", default=["family", "beginner"])
    parser.add_argument("--vs", default="strong")
    parser.add_argument("--deals", type=int, default=400, help="the reference's deals per named move (~20 s each)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rows", help="write every named move with its verdict (JSON) to this file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    jobs: list[tuple[list[Event], Named, int]] = []
    for rules in args.rules:
        for players in args.players:
            for bot in args.bots:
                for seed in range(args.seed, args.seed + args.games):
                    events, named = named_in_game(rules, players, seed, bot, args.vs)
                    jobs += [(events, entry, args.deals) for entry in named]
    print(f"{len(jobs)} moves named a mistake or a blunder", file=sys.stderr)
    with multiprocessing.Pool(args.processes) as pool:
        rows = []
        for row in pool.imap_unordered(checked, jobs):
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    real = sum(row["real"] for row in rows)
    low, high = wilson(real, len(rows))
    if args.rows:
        Path(args.rows).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(f"named mistakes that are real: {real} of {len(rows)} ({100 * low:.1f}% to {100 * high:.1f}%, 95% Wilson)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

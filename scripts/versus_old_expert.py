"""Today's levels against the expert bot of an earlier commit (the notes-weighted one), on the
engine of this one: the old coach's modules are taken from git into a package of their own,
so both bots play the same games in one process.

    .venv/bin/python scripts/versus_old_expert.py --games 400 --rules basic north-carolina
    .venv/bin/python scripts/versus_old_expert.py --bot strong --old 33a91ce --games 40

The new bot takes the even seats (one team), the old expert the odd ones; half the games swap
them, so neither team always plays first. Prints each preset's win rate with its 95% Wilson
interval, as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OLD_MODULES = ("bots", "hints", "expert", "strategic", "lookahead", "notes", "race")


def extract(commit: str, into: Path) -> None:
    """The old coach as the package ``old_coach`` under ``into``, importing this engine."""
    package = into / "old_coach"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name in OLD_MODULES:
        source = subprocess.run(
            ["git", "show", f"{commit}:referee/coach/{name}.py"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        source = re.sub(r"\breferee\.coach\.", "old_coach.", source)
        (package / f"{name}.py").write_text(source, encoding="utf-8")


def _games(job: tuple[str, str, str, list[int], str]) -> list[tuple[int, bool]]:
    """Play the seeds of one job; (seed, new bot's team won) for each."""
    old_dir, rules_name, bot, seeds, _ = job
    sys.path.insert(0, old_dir)
    import old_coach.bots as old_bots  # type: ignore[import-not-found]  # written above, at run time

    from referee.coach.bots import BOTS
    from referee.coach.selfplay import play_one
    from referee.rulesets import Ruleset

    BOTS["old-expert"] = old_bots.ExpertBot
    rules = Ruleset.preset(rules_name)
    found = []
    for seed in seeds:
        first, second = (bot, "old-expert") if seed % 2 == 0 else ("old-expert", bot)
        _game, stats = play_one(rules, 4, seed, first, second)
        new_even = seed % 2 == 0
        even_won = bool(stats.winner) and stats.winner[0] % 2 == 0
        found.append((seed, even_won == new_even))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="33a91ce", help="the commit whose expert is the yardstick")
    parser.add_argument("--bot", default="expert", help="today's bot (a level)")
    parser.add_argument("--games", type=int, default=400, help="games per preset")
    parser.add_argument("--rules", nargs="+", default=["basic", "north-carolina"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    from referee.coach.selfplay import wilson

    with tempfile.TemporaryDirectory() as old_dir:
        extract(args.old, Path(old_dir))
        for rules in args.rules:
            seeds = list(range(args.seed, args.seed + args.games))
            jobs = [(old_dir, rules, args.bot, seeds[i :: args.processes], "") for i in range(args.processes)]
            with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
                results = [won for part in pool.map(_games, jobs) for _, won in part]
            wins = sum(results)
            low, high = wilson(wins, len(results))
            print(
                json.dumps(
                    {
                        "bot": args.bot,
                        "vs": f"expert of {args.old}",
                        "rules": rules,
                        "players": 4,
                        "games": len(results),
                        "wins": wins,
                        "win_rate": round(wins / len(results), 4),
                        "ci95": [round(low, 4), round(high, 4)],
                    }
                ),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

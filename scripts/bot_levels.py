"""Each bot level against the level below it, per preset and board size, with 95% intervals:
the figures the README's "Bots" table quotes.

    .venv/bin/python scripts/bot_levels.py --out levels.jsonl            # every cell (hours)
    .venv/bin/python scripts/bot_levels.py --table levels.jsonl          # the Markdown table of a run

A match seats the higher level on one team and the lower on the other, swapping teams every
other game; a line of JSON per cell is written as soon as it is played, so a run cut short
keeps what it finished.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from pathlib import Path
from typing import TypedDict, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LADDER = (("family", "beginner"), ("strong", "family"), ("expert", "strong"))
GAMES = {"family": 60, "strong": 60, "expert": 30}  # games per cell, by the higher level (the expert is slow)


def _games(job: tuple[str, str, str, int, list[int]]) -> list[bool]:
    from referee.coach.selfplay import won_with_sides_swapped
    from referee.rulesets import Ruleset

    higher, lower, rules_name, players, seeds = job
    rules = Ruleset.preset(rules_name)
    return [won_with_sides_swapped(rules, players, seed, higher, lower) for seed in seeds]


def cells(presets: list[str], sizes: list[int]) -> list[tuple[str, str, str, int]]:
    found = []
    for higher, lower in LADDER:
        for players in sizes:
            for rules in presets:
                if higher == "expert" and players > 4 and rules not in ("basic", "north-carolina"):
                    continue  # the expert's bigger boards: the two presets the README names
                found.append((higher, lower, rules, players))
    return found


def run(out: Path, presets: list[str], sizes: list[int], processes: int, seed: int) -> None:
    from referee.coach.selfplay import wilson

    done = {(r["bot"], r["vs"], r["rules"], r["players"]) for r in _read(out)} if out.exists() else set()
    with multiprocessing.get_context("spawn").Pool(processes) as pool, out.open("a", encoding="utf-8") as sink:
        for higher, lower, rules, players in cells(presets, sizes):
            if (higher, lower, rules, players) in done:
                continue
            seeds = list(range(seed, seed + GAMES[higher]))
            jobs = [(higher, lower, rules, players, seeds[i::processes]) for i in range(processes)]
            results = [won for part in pool.map(_games, jobs) for won in part]
            low, high = wilson(sum(results), len(results))
            row = {"bot": higher, "vs": lower, "rules": rules, "players": players, "games": len(results)}
            row |= {"wins": sum(results), "ci95": [round(low, 3), round(high, 3)]}
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(json.dumps(row), file=sys.stderr, flush=True)


class Row(TypedDict):
    """One match of a run, as a line of its JSON lines file."""

    bot: str
    vs: str
    rules: str
    players: int
    games: int
    wins: int
    ci95: list[float]


def _read(path: Path) -> list[Row]:
    return [cast(Row, json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def table(path: Path) -> str:
    rows = _read(path)
    lines = ["| match | players | preset | games | win rate (95% CI) |", "|---|---|---|---|---|"]
    for r in rows:
        games, wins = r["games"], r["wins"]
        low, high = r["ci95"]
        lines.append(
            f"| {r['bot']} vs {r['vs']} | {r['players']} | {r['rules']} | {games} | "
            f"{wins / games:.0%} ({low:.0%} to {high:.0%}) |"
        )
    return "\n".join(lines)


def main() -> int:
    from referee.rulesets import PRESETS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="the JSON lines to write (a run goes on where one stopped)")
    parser.add_argument("--table", type=Path, help="print the Markdown table of a run instead")
    parser.add_argument("--presets", nargs="+", default=sorted(PRESETS))
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6, 8])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.table:
        print(table(args.table))
        return 0
    if not args.out:
        parser.error("--out or --table")
    run(args.out, args.presets, args.players, args.processes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

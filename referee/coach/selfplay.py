"""``pegs selfplay``: bots play whole games; statistics and throughput.

    pegs selfplay --players 4 --rules basic --games 100 --seed 1 --bot greedy
    pegs selfplay --players 4 --rules basic --games 500 --seed 1 --bot strategic --vs greedy

With ``--vs``, the first bot takes the even seats (one team, as teams alternate) and the
second the odd seats; the last line is the first bot's team win rate with its 95% Wilson
interval, so "better" means the interval lies above 50%. Two players sit at seats 0 and 2,
each a team of one: the first bot plays seat 0 and the second seat 2, and the line says so.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from referee import events as ev
from referee.board import Board
from referee.cards import JOKER
from referee.coach.bots import BOTS
from referee.game import Game
from referee.rulesets import Ruleset

MAX_ACTIONS = 200_000  # a game that long is a bug, not a slow game


@dataclass
class GameStats:
    seed: int
    turns: int
    moves: int
    bumps: int
    jokers: int
    generations: int
    seconds: float
    winner: tuple[int, ...]
    finisher: int


@dataclass
class Summary:
    players: int
    rules: str
    bot: str
    games: list[GameStats] = field(default_factory=list)
    vs: str | None = None

    def match(self) -> dict[str, Any]:
        """The first bot's team against the second's: wins, rate, 95% interval, and the
        seats each bot played."""
        first, second = sides(self.players)
        wins = sum(1 for game in self.games if game.winner and game.winner[0] in first)
        low, high = wilson(wins, len(self.games))
        return {
            "bot": self.bot,
            "vs": self.vs,
            "games": len(self.games),
            "wins": wins,
            "win_rate": round(wins / len(self.games), 4) if self.games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "bot_seats": list(first),
            "vs_seats": list(second),
        }

    def as_dict(self) -> dict[str, Any]:
        games, seconds = self.games, sum(g.seconds for g in self.games)
        teams = Counter(" ".join(map(str, g.winner)) for g in games)
        seats = Counter(g.finisher for g in games)
        return {
            "players": self.players,
            "rules": self.rules,
            "bot": self.bot,
            "games": len(games),
            "turns_per_game": _spread([g.turns for g in games]),
            "bumps_per_game": _spread([g.bumps for g in games]),
            "jokers_per_game": _spread([g.jokers for g in games]),
            "win_rate_by_team": {team: round(n / len(games), 3) for team, n in sorted(teams.items())},
            "win_rate_by_seat": {str(seat): round(n / len(games), 3) for seat, n in sorted(seats.items())},
            "median_game_ms": round(statistics.median(g.seconds for g in games) * 1000, 2),
            "games_per_s": round(len(games) / seconds, 2),
            "moves_per_s": round(sum(g.moves for g in games) / seconds, 1),
            "generations_per_s": round(sum(g.generations for g in games) / seconds, 1),
        }


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win rate (sound at small counts and near 0 or 1)."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def sides(players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats of the first bot's team and of the second's, as the board seats teams:
    even seats against odd ones, and with two players seat 0 against seat 2."""
    first, *others = Board.for_players(players).teams
    return first, tuple(sorted(seat for team in others for seat in team))


def won_with_sides_swapped(rules: Ruleset, players: int, seed: int, bot_name: str, vs: str) -> bool:
    """One game of ``bot_name`` against ``vs``, the teams swapped on odd seeds (so neither bot
    keeps the seats that play first): whether ``bot_name``'s team won."""
    swap = seed % 2 == 1
    _game, stats = play_one(rules, players, seed, vs if swap else bot_name, bot_name if swap else vs)
    first_won = bool(stats.winner) and stats.winner[0] in sides(players)[0]
    return first_won != swap


def play_one(rules: Ruleset, players: int, seed: int, bot_name: str, vs: str | None = None) -> tuple[Game, GameStats]:
    """One digital game: every seat the same kind of bot, or ``bot_name`` on the first
    team's seats (``sides``) and ``vs`` on the other's."""
    rng = random.Random(seed)
    second = sides(players)[1] if vs is not None else ()
    bots = {seat: BOTS[vs if vs is not None and seat in second else bot_name](rng) for seat in range(10)}
    start = time.perf_counter()
    game = Game(rules, players, seed=seed)
    for _ in range(MAX_ACTIONS):
        if game.phase == "over":
            break
        bots[_waiting_on(game)].act(game)
    else:
        raise RuntimeError(f"seed {seed}: no winner after {MAX_ACTIONS} actions")
    seconds = time.perf_counter() - start
    moves = [event for event in game.events if isinstance(event, ev.Move)]
    stats = GameStats(
        seed=seed,
        turns=game.turn_number,
        moves=len(moves),
        bumps=sum(1 for event in game.events if isinstance(event, ev.Bump)),
        jokers=sum(1 for move in moves if move.text.startswith(JOKER)),
        generations=game.generations,
        seconds=seconds,
        winner=game.winner or (),
        finisher=moves[-1].seat if moves else -1,
    )
    return game, stats


def run(players: int, rules: Ruleset, games: int, seed: int, bot: str) -> Summary:
    summary = Summary(players, rules.name, bot)
    for index in range(games):
        summary.games.append(play_one(rules, players, seed + index, bot)[1])
    return summary


def _waiting_on(game: Game) -> int:
    """The seat whose bot must act now."""
    if game.phase == "doubt" and game.doubter_to_answer is not None:
        return game.doubter_to_answer
    if game.phase == "penalty" and game.penalty is not None:
        return game.penalty[0]
    return game.turn


def match_line(match: dict[str, Any]) -> str:
    low, high = match["ci95"]
    if len(match.get("bot_seats", ())) == 1:  # two players: one seat each, no team
        bot_seat, vs_seat = match["bot_seats"][0], match["vs_seats"][0]
        return (
            f"{match['bot']} (seat {bot_seat}) against {match['vs']} (seat {vs_seat}), one against one: "
            f"{match['bot']} won {match['wins']} of {match['games']} games, {match['win_rate']:.1%} "
            f"(95% CI {low:.1%} to {high:.1%})"
        )
    return (
        f"{match['bot']} (even seats) against {match['vs']} (odd seats): {match['bot']}'s team won "
        f"{match['wins']} of {match['games']} games, {match['win_rate']:.1%} (95% CI {low:.1%} to {high:.1%})"
    )


def table(data: dict[str, Any]) -> str:
    turns, bumps, jokers = data["turns_per_game"], data["bumps_per_game"], data["jokers_per_game"]
    against = f" against {data['match']['vs']}" if data.get("match") else ""
    lines = [
        f"{data['games']} games, {data['players']} players, {data['rules']} rules, {data['bot']} bots{against}",
        f"turns per game     median {turns['median']}  (min {turns['min']}, max {turns['max']})",
        f"bumps per game     median {bumps['median']}",
        f"jokers per game    median {jokers['median']}",
        "wins by team       " + ", ".join(f"[{t}] {r:.0%}" for t, r in data["win_rate_by_team"].items()),
        "winning move by    " + ", ".join(f"seat {s} {r:.0%}" for s, r in data["win_rate_by_seat"].items()),
        (
            f"throughput         {data['games_per_s']} games/s, {data['moves_per_s']} moves/s, "
            f"{data['generations_per_s']} legal-move generations/s"
        ),
        f"median game        {data['median_game_ms']} ms",
    ]
    return "\n".join(lines)


def _spread(values: list[int]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def progress_bar(out: TextIO, done: int, total: int, width: int = 30) -> None:
    """A one-line bar redrawn in place; the last call ends the line."""
    filled = width * done // total
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        out.write("\n")
    out.flush()


def wants_progress(games: int, stream: TextIO = sys.stderr) -> bool:
    return games > 1


def progress_line(out: TextIO, done: int, total: int) -> None:
    """Progress for a log or a pipe: a line every tenth of the games (a bar on a terminal)."""
    if out.isatty():
        progress_bar(out, done, total)
    elif done == total or done * 10 // total != (done - 1) * 10 // total:
        out.write(f"{done}/{total} games\n")
        out.flush()

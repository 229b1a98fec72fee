"""A reviewed game told per seat and per team: the choices' cost apart from the cards' luck,
the biggest mistakes, and the turning points that changed the likely winner most."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.coach.review_moves import SIZES, Judged
from referee.game import Game
from referee.words import Names, name_of

TURNED = 0.01  # a turning point moved its team's chances by a point at least
LUCK_AND_CHOICES = " Added up over their"  # where a team's summary begins its luck and choices (cut unfinished)


def seat_entry(seat: int, names: Names, moves: list[dict[str, Any]], game: Game, limit: int) -> dict[str, Any]:
    """One seat's numbers, its biggest mistakes and a plain summary."""
    mine = [entry for entry in moves if entry["seat"] == seat]
    judged = [entry for entry in mine if entry["judged"]]
    sized = {size: [entry for entry in judged if entry["size"] == size] for size in SIZES}
    # The biggest first by their size word, which only a loss clear of the noise earns, then by
    # the mean: an unsettled inaccuracy's mean may be large but is the least sure.
    flagged = sorted((e for e in judged if e["size"]), key=lambda e: (-SIZES[e["size"]], -e["lost"], e["number"]))
    best = sum(1 for entry in judged if entry["lost"] == 0)
    near = sum(1 for entry in judged if entry["lost"] > 0 and entry["size"] is None)
    bumps = [bump for bump in game.bumps if not bump.penalty]
    made = sum(1 for bump in bumps if bump.by == seat)
    suffered = sum(1 for bump in bumps if bump.seat == seat)
    lost = round(sum(entry["lost"] for entry in judged), 3)
    luck = round(sum(entry["luck"] or 0.0 for entry in judged), 3)
    name = name_of(names, seat)
    return {
        "seat": seat,
        "name": name,
        "moves": len(mine),
        "judged": len(judged),
        "best": best,
        "near": near,
        "inaccuracies": len(sized["an inaccuracy"]),
        "mistakes": len(sized["a mistake"]),
        "blunders": len(sized["a blunder"]),
        "lost": lost,
        "luck": luck,
        "bumps_made": made,
        "bumps_suffered": suffered,
        "biggest": [
            {key: entry[key] for key in ("number", "size", "note", "said", "lost")} for entry in flagged[:limit]
        ],
        "summary": _seat_summary(name, len(mine), judged, best, near, flagged, made, suffered),
    }


def _seat_summary(
    name: str,
    moves: int,
    judged: list[dict[str, Any]],
    best: int,
    near: int,
    flagged: list[dict[str, Any]],
    made: int,
    suffered: int,
) -> str:
    said = [f"{name} made {_count(moves, 'move')}."]
    if not judged:
        said.append("The referee did not know the cards, so none of them could be judged.")
    else:
        known = "all of them" if len(judged) == moves else f"{len(judged)} of them"
        said.append(
            f"With the cards known for {known}, {best} {'was' if best == 1 else 'were'} the best move"
            + (f" and {near} nearly as good." if near else ".")
        )
        if flagged:
            worst = flagged[0]
            said.append(f"{_sizes(flagged)}; the biggest, {worst['size']} at move {worst['number']}.")
        else:
            said.append("No mistakes at all.")
    bumped = f"was bumped {_count(suffered, 'time')}" if suffered else "was never bumped"
    said.append(f"{name} bumped {_count(made, 'peg')} and {bumped}.")
    return " ".join(said)


def _sizes(flagged: list[dict[str, Any]]) -> str:
    words = {
        "an inaccuracy": ("inaccuracy", "inaccuracies"),
        "a mistake": ("mistake", "mistakes"),
        "a blunder": ("blunder", "blunders"),
    }
    counts = [(sum(1 for e in flagged if e["size"] == size), words[size]) for size in SIZES]
    parts = [_count(n, *word) for n, word in counts if n]
    return _upper_first(", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])


def team_entry(team: Sequence[int], names: Names, moves: list[Judged], game: Game, limit: int) -> dict[str, Any]:
    """A team's luck and choices told apart, and its own moves that swung its chances most."""
    key = tuple(team)
    entries = [judged.entry for judged in moves if judged.seat in team and judged.entry["judged"]]
    lost = round(sum(entry["lost"] for entry in entries), 3)
    luck = round(sum(entry["luck"] or 0.0 for entry in entries), 3)

    # The team's own moves that swung its chances most; one that moved them less than a point
    # turned nothing ("from about 35 to 35 in 100").
    def moved(judged: Judged) -> float:
        return abs(judged.after[key] - judged.before[key])

    own = [judged for judged in moves if judged.seat in team and moved(judged) >= TURNED]
    swings = sorted(own, key=lambda j: -moved(j))[:limit]
    name = " & ".join(name_of(names, seat) for seat in team)
    won = game.winner is not None and set(game.winner) == set(team)
    return {
        "seats": list(team),
        "name": name,
        "won": won,
        "lost": lost,
        "luck": luck,
        "turning_points": [_turning_point(judged, key) for judged in sorted(swings, key=_number)],
        "summary": _team_summary(name, won, game.winner is not None, entries, lost, luck),
    }


def _number(judged: Judged) -> int:
    return int(judged.entry["number"])


def _turning_point(judged: Judged, team: tuple[int, ...]) -> dict[str, Any]:
    entry = judged.entry
    swing = judged.after[team] - judged.before[team]
    before, after = round(judged.before[team] * 100), round(judged.after[team] * 100)
    said = (
        f"Move {entry['number']}: {entry['words']}. "
        f"The team's chances to win went from about {before} to {after} in 100."
    )
    if entry["size"] and entry["best"]:
        said += f" Instead: {entry['best']['words']}. {entry['best']['why']}"  # told to the table already
    return {"number": entry["number"], "seat": judged.seat, "swing": round(swing, 3), "said": said}


def _team_summary(name: str, won: bool, over: bool, entries: list[dict[str, Any]], lost: float, luck: float) -> str:
    result = f"{name} won." if won else f"{name} did not win." if over else f"{name}: the game stopped unfinished."
    if not entries:
        return f"{result} The referee did not know their cards, so neither luck nor choices can be told."
    cards = f"{_points(abs(luck))} {'more' if luck >= 0 else 'less'}"
    # Said as a sum over the moves, which is what it is: a long game's can pass 100.
    return (
        f"{result}{LUCK_AND_CHOICES} {_count(len(entries), 'move')}, their draws were worth {cards} than "
        f"average draws, and their choices gave away {_points(lost)} against the best moves their cards "
        "allowed (a point is 1 chance in 100 to win)."
    )


def _points(amount: float) -> str:
    points = round(amount * 100)
    return f"{points} point{'' if points == 1 else 's'}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _count(number: int, thing: str, things: str | None = None) -> str:
    return f"{'no' if number == 0 else number} {thing if number == 1 else things or thing + 's'}"

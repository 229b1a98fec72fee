"""The ``pegs`` command.

    pegs moves position.json --card 7 --rules arizona
    pegs bench

Bad input exits with status 2 and one clear line on stderr; nothing else is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from referee.board import BoardError
from referee.cards import CARDS, CardError, parse_card
from referee.movegen import legal_moves
from referee.moves import NotationError
from referee.position import Position, PositionError
from referee.rulesets import PRESETS, Ruleset, RulesetError

USAGE_ERRORS = (BoardError, CardError, NotationError, PositionError, RulesetError)


class UsageError(Exception):
    """Bad input from the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        return int(args.func(args) or 0)
    except UsageError as error:
        print(str(error), file=sys.stderr)
        return 2
    except USAGE_ERRORS as error:
        print(f"pegs: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pegs", description="Referee for Pegs and Jokers boards.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    moves = commands.add_parser("moves", help="list the legal moves of the seat to play, as JSON")
    moves.add_argument("position", help="position file (JSON), - for stdin, or the JSON itself")
    moves.add_argument("--card", required=True, help=" ".join(CARDS))
    moves.add_argument("--rules", default="basic", help=f"{', '.join(PRESETS)} or a house-rules .toml file")
    moves.set_defaults(func=_moves)

    bench = commands.add_parser("bench", help="time legal move generation on three fixed positions")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.add_argument("--repeat", type=int, help="runs per position (default: per position)")
    bench.set_defaults(func=_bench)
    return parser


def read_position(source: str) -> Position:
    """A position from a file path, ``-`` (stdin) or inline JSON text."""
    if source.lstrip().startswith("{"):
        text = source
    elif source == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as error:
            raise UsageError(f"pegs: cannot read position {source!r}: {error.strerror}") from None
    return Position.from_json(text)


def _moves(args: argparse.Namespace) -> int:
    card = parse_card(args.card)
    rules = Ruleset.load(args.rules)
    position = read_position(args.position)
    _print_json({"moves": [move.to_json() for move in legal_moves(position, card, rules)]})
    return 0


def _bench(args: argparse.Namespace) -> int:
    from referee import bench

    if args.repeat is not None and args.repeat < 1:
        raise UsageError("pegs bench: --repeat must be at least 1")
    results = bench.run_all(args.repeat)
    if args.json:
        _print_json({"benchmark": "legal_moves", "results": results})
    else:
        print(bench.table(results))
    return 0


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

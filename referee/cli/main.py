"""The ``pegs`` command.

    pegs moves position.json --card 7 --rules arizona
    pegs track position.json --events events.txt --card 7 --rules arizona
    pegs selfplay --players 4 --rules basic --games 100 --seed 1 --bot greedy --record games/
    pegs replay games/game-1.jsonl
    pegs review games/game-1.jsonl            # each move judged, each seat's mistakes, each team's turning points
    pegs serve --simulate                     # the daemon and its page, no hardware
    pegs watch --port /dev/pegs-board         # and selftest, calibrate: the wiring
    pegs bench

Bad input exits with status 2 and one clear line on stderr; nothing else is printed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from referee.board import BoardError
from referee.cards import CARDS, CardError, parse_card
from referee.cli import kit as kit_commands
from referee.cli import train as train_command
from referee.cli import unlock as unlock_command
from referee.cli import wiring as wiring_commands
from referee.cli.kit import KitError
from referee.cli.wiring import WiringError
from referee.coach.bots import BOTS
from referee.events import Event
from referee.file_reading import decode, excerpt, load_json, read_text
from referee.movegen import legal_moves
from referee.moves import NotationError
from referee.position import Position, PositionError
from referee.record import RecordError
from referee.rulesets import PRESETS, Ruleset, RulesetError
from referee.tracker import EventsError

BOT_KINDS = tuple(BOTS)
USAGE_ERRORS = (BoardError, CardError, NotationError, PositionError, RulesetError, RecordError, EventsError)


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
    except (*USAGE_ERRORS, ValueError) as error:  # bad input, always ValueErrors: one line, never a traceback
        print(f"pegs: {excerpt(error, 300)}", file=sys.stderr)
        return 2
    except (WiringError, KitError) as error:
        print(str(error), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pegs", description="Referee for Pegs and Jokers boards.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _engine_commands(commands)
    _game_commands(commands)
    _serve_command(commands)
    wiring_commands.add_commands(commands)
    kit_commands.add_commands(commands)
    train_command.add_commands(commands)
    unlock_command.add_commands(commands)
    bench = commands.add_parser("bench", help="time legal move generation on three fixed positions")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.add_argument("--repeat", type=int, help="runs per position (default: per position)")
    bench.add_argument(
        "--only",
        help="only these stages, comma-separated, e.g. moves,tracker (moves, tracker, bot, hints, expert, "
        "review, link, daemon, lesson, lifts, web); every stage when not given",
    )
    bench.set_defaults(func=_bench)
    return parser


def _engine_commands(commands: Any) -> None:
    """The engine's answers for a position: its moves, hints, a lesson's steps, the tracker's verdict."""
    moves = commands.add_parser("moves", help="list the legal moves of the seat to play, as JSON")
    moves.add_argument("position", help="position file (JSON), - for stdin, or the JSON itself")
    moves.add_argument("--card", required=True, help=" ".join(CARDS))
    moves.add_argument("--rules", default="basic", help=f"{', '.join(PRESETS)} or a house-rules .toml file")
    moves.set_defaults(func=_moves)

    hint = commands.add_parser(
        "hint", help="the seat to play's choices ranked by the chance to win, explained by the strategy notes, as JSON"
    )
    hint.add_argument("position", help="position file (JSON), - for stdin, or the JSON itself")
    given = hint.add_mutually_exclusive_group(required=True)
    given.add_argument("--hand", help="the cards in hand, e.g. '5 8 K JOKER' (digital cards)")
    given.add_argument("--card", help="the card played (at a real table): " + " ".join(CARDS))
    hint.add_argument("--rules", default="basic", help=f"{', '.join(PRESETS)} or a house-rules .toml file")
    hint.add_argument("--limit", type=_positive, help="at most this many hints")
    hint.set_defaults(func=_hint)

    lesson = commands.add_parser("lesson", help="the first lesson's steps for a rule set, as JSON")
    lesson.add_argument("--rules", default="basic", help=f"{', '.join(PRESETS)} or a house-rules .toml file")
    lesson.add_argument("--players", type=int, default=4, choices=(4, 6, 8, 10))
    lesson.set_defaults(func=_lesson)

    track = commands.add_parser("track", help="feed sensor events to the tracker and judge the board, as JSON")
    track.add_argument("position", help="position file (JSON), - for stdin, or the JSON itself")
    track.add_argument("--events", required=True, help="events file: '[ms] lift HOLE' / '[ms] place HOLE' lines")
    track.add_argument("--card", help="the card declared; without it, any card may explain the move")
    track.add_argument("--rules", default="basic", help=f"{', '.join(PRESETS)} or a house-rules .toml file")
    track.set_defaults(func=_track)


def _game_commands(commands: Any) -> None:
    """Whole games: a record replayed or reviewed, bots playing each other."""
    replay = commands.add_parser("replay", help="print a recorded game move by move, with the board after each turn")
    replay.add_argument("record", help="a game record (JSON lines)")
    replay.set_defaults(func=_replay)

    review = commands.add_parser(
        "review",
        help="review a recorded game: each move against the best its cards allowed, in chances to win; "
        "each seat's biggest mistakes, each team's luck and turning points, as JSON",
    )
    review.add_argument("record", help="a game record (JSON lines)")
    review.add_argument("--limit", type=_positive, default=3, help="the biggest mistakes listed per seat (default 3)")
    review.set_defaults(func=_review)

    selfplay = commands.add_parser("selfplay", help="bots play whole games: statistics and throughput")
    selfplay.add_argument("--players", type=int, default=4, choices=(2, 4, 6, 8, 10))
    selfplay.add_argument("--rules", default="basic", help=f"{', '.join(PRESETS)} or a house-rules .toml file")
    selfplay.add_argument("--games", type=_positive, default=10)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--bot", choices=BOT_KINDS, default="random")
    selfplay.add_argument(
        "--vs",
        choices=BOT_KINDS,
        help="a second bot for the other team (the odd seats; with 2 players, seat 2 against "
        "seat 0, one against one); the last line is the first bot's win rate",
    )
    selfplay.add_argument("--json", action="store_true", help="print JSON instead of a table")
    selfplay.add_argument("--record", metavar="DIR", help="save each game's record as DIR/game-<seed>.jsonl")
    selfplay.set_defaults(func=_selfplay)


def _serve_command(commands: Any) -> None:
    serve = commands.add_parser("serve", help="run the referee daemon and its web page")
    where = serve.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", help="the daemon's configuration (TOML)")
    where.add_argument("--simulate", action="store_true", help="no hardware: a simulated board, LEDs in memory")
    serve.add_argument(
        "--data",
        help="data dir for the game store (default: ./data with --simulate); one pegs serve at a time may use it",
    )
    serve.add_argument("--port", type=int, help="web port, 1 to 65535 (default 8080)")
    serve.add_argument("--host", help="web host (default 127.0.0.1 with --simulate)")
    serve.add_argument("--rules", help="rule set for a new game (with --simulate)")
    serve.add_argument("--players", type=int, choices=(2, 4, 6, 8, 10), help="players for a new game (with --simulate)")
    serve.add_argument("--pin", help="the table PIN for setup and undo (default: kept in the data dir)")
    serve.set_defaults(func=_serve)


def read_position_text(source: str) -> str:
    """The text of a position: a file path, ``-`` (stdin) or inline JSON text (anything
    that starts like JSON: ``{`` or ``[``)."""
    if source.lstrip().startswith(("{", "[")):
        return source
    if source == "-":
        return decode(sys.stdin.buffer.read(), "the position on standard input")
    return read_text(source, "position")


def read_position(source: str) -> Position:
    """A position from a file path, ``-`` (stdin) or inline JSON text."""
    return Position.from_json(read_position_text(source))


def _moves(args: argparse.Namespace) -> int:
    card = parse_card(args.card)
    rules = Ruleset.load(args.rules)
    position = read_position(args.position)
    _print_json({"moves": [move.to_json() for move in legal_moves(position, card, rules)]})
    return 0


def _hint(args: argparse.Namespace) -> int:
    from hardware.signals import SEAT_NAMES
    from referee.coach.hints import hints_json, rank
    from referee.coach.lookahead import Hidden

    text = args.hand if args.hand is not None else args.card
    cards = [parse_card(card) for card in text.replace(",", " ").split()]
    if not cards:
        raise UsageError("pegs hint: --hand needs at least one card, e.g. --hand '5 8 K'")
    rules = Ruleset.load(args.rules)
    position = read_position(args.position)
    names = dict(enumerate(SEAT_NAMES))  # the table's default colours, as the page names them
    hidden = Hidden.of_hand(position, rules, cards)  # the other hands sampled: the best few looked ahead
    hints = rank(position, rules, cards, args.limit, hidden, random.Random(position.key))
    _print_json(hints_json(hints, names))
    return 0


def _lesson(args: argparse.Namespace) -> int:
    from hardware.signals import SEAT_NAMES
    from referee.coach.lesson import lesson

    rules = Ruleset.load(args.rules)
    names = dict(enumerate(SEAT_NAMES))
    steps = lesson(rules, args.players, names)
    _print_json({"rules": rules.name, "players": args.players, "steps": [step.as_json(names) for step in steps]})
    return 0


def _track(args: argparse.Namespace) -> int:
    from referee.physical import PhysicalBoard, physical_holes
    from referee.tracker import Tracker, parse_events

    rules = Ruleset.load(args.rules)
    card = parse_card(args.card) if args.card else None
    source = read_position_text(args.position)  # once: stdin cannot be read twice
    position = Position.from_json(source)
    holes = physical_holes(position, load_json(source, "position").get("pegs", {}))  # named start holes as named
    events = parse_events(read_text(args.events, "events"), PhysicalBoard(position.board))
    tracker = Tracker(position, rules, card=card, board=holes)
    for event in events:
        tracker.feed(event)
    last = events[-1].ms if events else 0
    report = tracker.poll(last + tracker.settle_ms).to_json()  # as if the board had then settled
    report.pop("committed", None)
    _print_json(report)
    return 0


def _serve(args: argparse.Namespace) -> int:
    from referee.table.serve import serve

    return serve(args)


def _replay(args: argparse.Namespace) -> int:
    from referee import record

    for line in record.narrate(record.read(args.record)):
        print(line)
    return 0


def _review(args: argparse.Namespace) -> int:
    from referee import record
    from referee.coach.review import review

    _print_json(review(record.read(args.record), limit=args.limit))
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    from referee.coach import selfplay

    rules = Ruleset.load(args.rules)
    progress = sys.stderr if selfplay.wants_progress(args.games) else None
    summary = selfplay.Summary(args.players, rules.name, args.bot, vs=args.vs)
    for index in range(args.games):
        game, stats = selfplay.play_one(rules, args.players, args.seed + index, args.bot, args.vs)
        summary.games.append(stats)
        if args.record:
            _save_record(Path(args.record) / f"game-{stats.seed}.jsonl", game.events)
        if progress:
            selfplay.progress_line(progress, index + 1, args.games)
    data = summary.as_dict()
    if args.vs:
        data["match"] = summary.match()
    if args.json:
        _print_json(data)
    else:
        print(selfplay.table(data))
        if args.vs:
            print(selfplay.match_line(data["match"]))
    return 0


def _save_record(path: Path, events: list[Event]) -> None:
    from referee import record

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        record.write(path, events)
    except OSError as error:
        raise UsageError(f"pegs selfplay: cannot save records in {str(path.parent)!r}: {error.strerror}") from None


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _bench(args: argparse.Namespace) -> int:
    from referee.bench import run as bench

    if args.repeat is not None and args.repeat < 1:
        raise UsageError("pegs bench: --repeat must be at least 1")
    only = [name.strip() for name in args.only.split(",") if name.strip()] if args.only is not None else None
    unknown = sorted(set(only or ()) - set(bench.STAGES))
    if only == [] or unknown:
        raise UsageError(f"pegs bench: --only takes stages among {', '.join(bench.STAGES)}, not {args.only!r}")
    results = bench.run_all(args.repeat, progress=sys.stderr, only=only)  # progress even into a log or a pipe
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

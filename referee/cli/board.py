"""Which board a builder's command is about: its options, else the Pi's config, else 4 sides.

    add_board_options(parser)                 # --sides, --markers, --layout, --config
    board = board_from(args, BoardError)      # Board(layout, layout_file, source)

On the Pi the board's size is already written down (``players``, ``markers`` and ``layout``
under ``[board]`` in /etc/pegs/pegs.toml); a bench command that forgot ``--sides`` on a
6-sided board would otherwise take the 4-sided default and call the right firmware wrong.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path

from hardware.layout import Layout, LayoutError, default_layout
from referee.holes import SIDES

CONFIG = "/etc/pegs/pegs.toml"


@dataclass(frozen=True)
class Board:
    """The layout, the layout file it came from (if any), and where the board's size was read:
    ``None`` from the command's own options (or the default), else the config file's path."""

    layout: Layout
    layout_file: str | None
    config: str | None


def add_board_options(parser: argparse.ArgumentParser, *, layout_help: str | None = None) -> None:
    parser.add_argument(
        "--sides",
        type=int,
        choices=SIDES,
        help=f"the board's sides (default: the board of --config if it exists, else 4; {CONFIG} on a Pi)",
    )
    parser.add_argument("--markers", action="store_true", help="the board has a colour-marker hole per side")
    parser.add_argument(
        "--layout",
        help=layout_help or "a layout TOML (from pegs calibrate; its sides win); default: the standard chain",
    )
    parser.add_argument(
        "--config",
        default=CONFIG,
        help="the referee's config, read for the board's size when --sides and --layout are not given "
        "(default: %(default)s)",
    )


def board_from(args: argparse.Namespace, error: type[Exception]) -> Board:
    """The board the options name; without --sides or --layout, the config's (if the file exists)."""
    try:
        if args.layout:
            return Board(Layout.from_toml(args.layout), args.layout, None)
        if args.sides is None and Path(args.config).is_file():
            return _configured(args, error)
        return Board(default_layout(args.sides or 4, args.markers), None, None)
    except (OSError, LayoutError) as problem:
        raise error(f"pegs: layout: {problem}") from None


def _configured(args: argparse.Namespace, error: type[Exception]) -> Board:
    from referee.settings.backends import layout_for
    from referee.settings.config import Config, ConfigError

    try:
        config = Config.from_toml(args.config)
        if args.markers and not config.layout:
            config = replace(config, markers=True)
        layout = layout_for(config)
    except (ConfigError, ValueError) as problem:
        raise error(
            f"pegs: the board's size is read from {args.config} when --sides is not given, and it cannot be "
            f"used: {problem}. Give --sides N (and --markers) instead"
        ) from None
    return Board(layout, config.layout, args.config)


def board_words(board: Board) -> str:
    """A line saying which board the command took from the config, so that a wrong guess shows."""
    layout = board.layout
    shape = " with colour markers" if layout.colour_markers else ""
    source = f", layout {board.layout_file}" if board.layout_file else ""
    return (
        f"the board of {board.config}: {layout.sides} sides{shape}, {len(layout.hole_names)} holes{source} "
        "(--sides N for another)"
    )

"""``pegs unlock-link``: on the Pi, a one-time link that logs a phone in past the PIN brake
(``web/unlock.py``): the owner's way in when guesses hold every new phone back.

    sudo -u pegs pegs unlock-link --config /etc/pegs/pegs.toml
    pegs unlock-link --data data          # the README's make run
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from referee.settings.config import Config, ConfigError


def add_commands(commands: Any) -> None:
    unlock = commands.add_parser("unlock-link", help="a one-time link that logs a phone in, past the PIN brake")
    where = unlock.add_mutually_exclusive_group()
    where.add_argument("--config", help="the daemon's configuration (its data dir and port)")
    where.add_argument("--data", default="data", help="the daemon's data dir (default: ./data, as make run)")
    unlock.add_argument("--port", type=int, default=None, help="the page's port (default: the config's, or 8080)")
    unlock.set_defaults(func=unlock_link)


def unlock_link(args: argparse.Namespace) -> int:
    import segno

    from web import unlock
    from web.hosts import lan_address

    try:
        config = Config.from_toml(args.config) if args.config else Config.simulated(args.data)
        token = unlock.make(config.data_dir)
    except (ConfigError, OSError) as error:
        print(f"pegs unlock-link: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
        return 2
    link = f"http://{lan_address() or '127.0.0.1'}:{args.port or config.web_port}/unlock/{token}"
    print(f"Open this on the phone within {round(unlock.FRESH_S / 60)} minutes; it works once:\n{link}")
    segno.make(link, error="m").terminal(compact=True)
    return 0

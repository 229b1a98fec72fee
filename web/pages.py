"""The table's web page: ``GET /`` draws the board as SVG; ``static/app.js`` and the modules
it imports bring it to life.

The server draws only what never changes during a game (the holes and the seat markings);
the pegs, the LEDs, the guidance and every panel come from the live state
(``/api/events``, or ``/api/state`` when server-sent events are not available).
"""

from __future__ import annotations

import hashlib
import math
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, send_from_directory, url_for
from jinja2.utils import htmlsafe_json_dumps

from referee.geometry import BoardGeometry, geometry
from referee.holes import COME_OUT, HOME_SIZE, IN_SPOT, START_SIZE
from referee.rulesets import PRESETS, title_of
from web.table import Table

pages = Blueprint("pages", __name__, template_folder="templates")

STATIC = Path(__file__).parent / "static"
OUTLINE_PAD = 7.0  # how far the board's edge lies outside the track holes
PLACE_NAMES = (
    (0, "corner"),
    (IN_SPOT, "in-spot"),
    (COME_OUT, "come-out"),
)  # printed on the board, as a finger finds them
LABEL_DEPTH = 3.3  # the seat's name: this many pitches inside its come-out hole, past the start row


@pages.get("/")
def index() -> str:
    table: Table = current_app.config["TABLE"]
    overview = table.overview()
    sides = overview.sides
    board = geometry(sides, markers=overview.markers)
    chosen = {seat["seat"]: seat for seat in table.seats()}  # this game's names and colours
    defaults = [
        chosen.get(side) or {"seat": side, "name": name, "colour": colour}
        for side, (name, colour) in enumerate(overview.palette)
    ]
    # what the script needs of them, compact: quotes escaped as entities would cost a kilobyte
    shown = [{key: seat[key] for key in ("seat", "name", "colour")} for seat in defaults]
    defaults_json = htmlsafe_json_dumps(shown, separators=(",", ":"))
    return render_template(
        "index.html",
        board=board,
        sides=sides,
        seats_in_play=list(overview.seats),
        marks=_markings(board),
        defaults=defaults,
        defaults_json=defaults_json,
        presets=[(key, title_of(key), rules.summary) for key, rules in PRESETS.items()],
        lights=overview.lights,
        css=_static_url("app.css"),
        js=url_for("pages.script", version=_scripts_version(), filename="app.js"),
    )


def _markings(board: BoardGeometry) -> dict[str, Any]:
    """Shapes in seat colours: each side's home channel, start area, in-spot and come-out
    rings, the board's edge, and where each seat's name and the last card go."""
    holes, pitch = board.holes, board.pitch
    sides = []
    for s in range(board.sides):
        nx, ny = board.inward(s)
        in_spot, deepest = holes[f"T{s}:{IN_SPOT}"], holes[f"H{s}:{HOME_SIZE}"]
        first, last = holes[f"S{s}:1"], holes[f"S{s}:{START_SIZE}"]
        come_out = holes[f"T{s}:{COME_OUT}"]
        label = (come_out[0] + pitch * LABEL_DEPTH * nx, come_out[1] + pitch * LABEL_DEPTH * ny)
        # On the left and right the name runs inward from there, never back over the start row.
        anchor = "start" if nx > 0.5 else "end" if nx < -0.5 else "middle"
        ax, ay = board.along(s)
        turn = math.degrees(math.atan2(ay, ax))
        turn = round(turn + 180 if abs(turn) > 90.5 else turn, 1)  # never upside down
        names = [(_outside(holes[f"T{s}:{k}"], nx, ny, pitch), word, turn) for k, word in PLACE_NAMES]
        sides.append(
            {
                "seat": s,
                "home": (in_spot, deepest),
                "start": (first, last),
                "in_spot": in_spot,
                "come_out": come_out,
                "label": (round(label[0], 1), round(label[1], 1)),
                "anchor": anchor,
                "names": names,
            }
        )
    # The edge: the corners pushed outward so that it clears the track holes by OUTLINE_PAD.
    scale = 1 + OUTLINE_PAD / _apothem(board)
    outline = " ".join(_point((x * scale, y * scale)) for x, y in board.corners)
    track = " ".join(_point(corner) for corner in board.corners)
    card_size = round(_apothem(board) * 0.32, 1)
    return {"sides": sides, "outline": outline, "track": track, "card_size": card_size}


def _outside(hole: tuple[float, float], nx: float, ny: float, pitch: float) -> tuple[float, float]:
    """Just outside the track from ``hole``: where its name is printed on the board's edge."""
    return (round(hole[0] - 0.6 * pitch * nx, 1), round(hole[1] - 0.6 * pitch * ny, 1))


def _apothem(board: BoardGeometry) -> float:
    x, y = board.corners[0]
    return math.hypot(x, y) * math.cos(math.pi / board.sides)


def _point(point: tuple[float, float]) -> str:
    return f"{point[0]:.1f},{point[1]:.1f}"


def _static_url(name: str) -> str:
    """The file's URL with a hash of its content: a browser never runs yesterday's script."""
    return url_for("static", filename=name, v=_digest(name))


@cache
def _digest(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]


@pages.get("/js/<version>/<filename>")
def script(version: str, filename: str) -> Response:
    """The page's script modules, under a path that names a version of them all: a module's
    imports (``./board.js``) stay in that version, so a browser never runs today's ``app.js``
    with yesterday's modules from its cache. Every version is served the files of now (a page
    drawn just before an update still loads a whole set)."""
    del version  # only the browser's cache tells versions apart
    if not filename.endswith(".js"):
        abort(404)
    return send_from_directory(STATIC, filename)


@cache
def _scripts_version() -> str:
    """A hash of every script module's content."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.glob("*.js")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:10]

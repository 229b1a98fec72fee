"""The table's page (web/pages.py, templates, static files) and its board geometry.

The board is the one of the rule texts (the rules page, "Players and Equipment"): one side per
player, 18 holes a side counting the corner, the come-out hole the 8th after the corner,
the in-spot the 3rd, five start holes beside the come-out hole and five home holes
branching off at the in-spot.
"""

from __future__ import annotations

import gzip
import itertools
import math
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.geometry import PITCH, geometry
from tests.simulated import started
from web import create_app

BUDGET = 100 * 1024  # HTML + JS + CSS, bytes over the wire (gzipped, as browsers ask)
IDS = ("turn", "status", "bumps", "moves", "candidates", "hand", "done", "undo", "login", "new-game")


def hole_names(sides: int) -> set[str]:
    names = set()
    for s in range(sides):
        names |= {f"T{s}:{k}" for k in range(18)}
        names |= {f"H{s}:{d}" for d in range(1, 6)}
        names |= {f"S{s}:{i}" for i in range(1, 6)}
    return names


class Tags(HTMLParser):
    """Every start tag with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[[int], Flask]]:
    """The page's app on a table of ``players`` (each on a data dir of its own), stopped after."""
    with ExitStack() as tables:
        yield lambda players: create_app(tables.enter_context(started(tmp_path / f"p{players}", players=players)))


def page(make_app: Callable[[int], Flask], players: int) -> tuple[FlaskClient, str]:
    client = make_app(players).test_client()
    reply = client.get("/")
    assert reply.status_code == 200 and reply.mimetype == "text/html"
    return client, reply.get_data(as_text=True)


# -- geometry -------------------------------------------------------------------------------


@pytest.mark.parametrize("sides", [4, 6, 8])
@pytest.mark.parametrize("markers", [False, True])
def test_every_hole_has_a_place_and_none_overlap(sides: int, markers: bool) -> None:
    board = geometry(sides, markers=markers)
    expected = hole_names(sides) | ({f"C{s}" for s in range(sides)} if markers else set())
    assert set(board.holes) == expected and len(board.holes) == sides * (28 + markers)
    closest = min(math.dist(a, b) for a, b in itertools.combinations(board.holes.values(), 2))
    assert closest >= 2 * board.radius + 1.5, "holes need a visible gap between them"
    left, top, width, height = map(float, board.view_box.split())
    for x, y in board.holes.values():
        assert left + board.radius < x < left + width - board.radius
        assert top + board.radius < y < top + height - board.radius


@pytest.mark.parametrize("sides", [4, 6, 8])
def test_seats_go_clockwise_from_the_bottom(sides: int) -> None:
    """Seat 0 faces the viewer; seat 1 sits to its left (clockwise, as pegs travel)."""
    board = geometry(sides)

    def angle(side: int) -> float:
        x, y = board.holes[f"T{side}:9"]  # the middle of the side
        # SVG's y points down, so clockwise on screen is a growing atan2 angle
        return math.degrees(math.atan2(y, x)) % 360

    for side in range(sides):
        assert angle(side) == pytest.approx((90 + 360 * side / sides) % 360, abs=1.0)
    # pegs travel clockwise: along the bottom, from right to left
    assert board.holes["T0:0"][0] > board.holes["T0:17"][0]
    assert board.holes["T0:0"][1] == pytest.approx(board.holes["T0:17"][1])


@pytest.mark.parametrize("sides", [4, 6, 8])
def test_track_corners_homes_and_starts(sides: int) -> None:
    board = geometry(sides)
    holes = board.holes
    for s in range(sides):
        nxt = (s + 1) % sides
        # 18 equal steps from one corner to the next
        assert math.dist(holes[f"T{s}:17"], holes[f"T{nxt}:0"]) == pytest.approx(PITCH, abs=0.02)
        assert all(
            math.dist(holes[f"T{s}:{k}"], holes[f"T{s}:{k + 1}"]) == pytest.approx(PITCH, abs=0.02) for k in range(17)
        )
        # home: a straight row inward from the in-spot, H1 next to it, H5 deepest
        row = [holes[f"T{s}:3"]] + [holes[f"H{s}:{d}"] for d in range(1, 6)]
        assert [math.hypot(*point) for point in row] == sorted((math.hypot(*p) for p in row), reverse=True)
        assert all(math.dist(a, b) == pytest.approx(PITCH, abs=0.02) for a, b in itertools.pairwise(row))
        # start: inside the track, beside the come-out hole
        track = {name: xy for name, xy in holes.items() if name.startswith("T")}
        for i in range(1, 6):
            start = holes[f"S{s}:{i}"]
            assert math.hypot(*start) < math.hypot(*holes[f"T{s}:8"])
        middle = holes[f"S{s}:3"]
        assert min(track, key=lambda name: math.dist(track[name], middle)) == f"T{s}:8"


def test_only_boards_of_four_six_eight_or_ten_sides() -> None:
    """Hatcher's variations, item 2: "Many games are played with as many as ten players";
    boards have 4 to 10 sides."""
    for sides in (2, 3, 5, 12):
        with pytest.raises(ValueError, match="4, 6, 8 or 10"):
            geometry(sides)
    board = geometry(10)
    assert len(board.holes) == 280 and {"T9:17", "S9:5", "H9:5"} <= set(board.holes)


# -- the page -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6, 8, 10])
def test_the_page_draws_every_hole_once(make_app: Callable[[int], Flask], players: int) -> None:
    _, html = page(make_app, players)
    sides = 4 if players == 2 else players
    circles = [attrs for tag, attrs in tags(html) if tag == "circle" and "data-hole" in attrs]
    names = [str(attrs["data-hole"]) for attrs in circles]
    assert sorted(names) == sorted(hole_names(sides)), "every hole exactly once"
    points = [(float(a["cx"] or 0), float(a["cy"] or 0)) for a in circles]
    radius = geometry(sides).radius
    assert min(math.dist(a, b) for a, b in itertools.combinations(points, 2)) >= 2 * radius
    assert f'data-sides="{sides}"' in html
    # in-spot and come-out markings, one per side, in seat colours
    assert html.count('class="in-spot s') == sides and html.count('class="come-out s') == sides


def test_the_page_has_the_stable_ids(make_app: Callable[[int], Flask]) -> None:
    _, html = page(make_app, 4)
    ids = [attrs.get("id") for _, attrs in tags(html)]
    for wanted in IDS:
        assert ids.count(wanted) == 1, wanted
    buttons = {attrs.get("id") for tag, attrs in tags(html) if tag == "button"}
    assert {"done", "undo", "new-game"} <= buttons, "actions are real buttons"
    labelled = {attrs.get("for") for tag, attrs in tags(html) if tag == "label"}
    inputs = {
        attrs.get("id") for tag, attrs in tags(html) if tag in ("input", "select") and attrs.get("type") != "radio"
    }
    assert inputs <= labelled, "every text input and select has a label"


def local_assets(html: str, client: FlaskClient | None = None) -> list[str]:
    """The page's script and stylesheet; with ``client``, the script modules they import too."""
    found = [
        str(attrs.get("src") or attrs.get("href"))
        for tag, attrs in tags(html)
        if (tag == "script" and attrs.get("src")) or (tag == "link" and attrs.get("rel") == "stylesheet")
    ]
    if client is None:
        return found
    for url in found:  # the modules found are followed in turn
        if url.split("?")[0].endswith(".js"):
            text = client.get(url).get_data(as_text=True)
            base = url.split("?")[0].rsplit("/", 1)[0]
            imported = re.findall(r'^import\b[^"]*"\./([\w.-]+\.js)";$', text, re.MULTILINE)
            found += [f"{base}/{name}" for name in imported if f"{base}/{name}" not in found]
    return found


@pytest.mark.parametrize("players", [4, 8])
def test_page_weight_is_under_budget(make_app: Callable[[int], Flask], players: int) -> None:
    client, html = page(make_app, players)
    assets = local_assets(html, client)
    assert any(".js" in url for url in assets) and any(".css" in url for url in assets)
    assert len([url for url in assets if url.endswith(".js")]) > 5, "every module the page imports counts"
    gzip = {"Accept-Encoding": "gzip, deflate"}  # as every browser asks
    total = len(client.get("/", headers=gzip).data)
    for url in assets:
        reply = client.get(url, headers=gzip)
        assert reply.status_code == 200, url
        total += len(reply.data)
    assert total < BUDGET, f"{total} bytes"


def test_the_page_goes_gzipped_only_to_who_takes_it(make_app: Callable[[int], Flask]) -> None:
    """What a browser gets back is what it sent: the same text, gzipped or not; the API and
    the live stream are never gzipped."""
    client, html = page(make_app, 8)
    zipped = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data).decode().count("data-hole=") == html.count("data-hole=")
    script = next(url for url in local_assets(html, client) if url.endswith("board.js"))
    plain, packed = client.get(script), client.get(script, headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers and gzip.decompress(packed.data) == plain.data
    assert "Content-Encoding" not in client.get("/api/state", headers={"Accept-Encoding": "gzip"}).headers


def test_no_external_urls(make_app: Callable[[int], Flask]) -> None:
    client, html = page(make_app, 6)
    for tag, attrs in tags(html):
        for key in ("src", "href", "action", "srcset"):
            value = attrs.get(key) or ""
            assert not re.match(r"^(https?:)?//", value), f"<{tag} {key}={value!r}>"
    texts = [html] + [client.get(url).get_data(as_text=True) for url in local_assets(html, client)]
    for text in texts:
        assert "@import" not in text and "url(http" not in text.replace(" ", "")
        # the only absolute URL allowed is SVG's namespace name, which is never fetched
        assert set(re.findall(r"https?://[^\s\"'`)]+", text)) <= {"http://www.w3.org/2000/svg"}


def test_static_files_are_served(make_app: Callable[[int], Flask]) -> None:
    client, html = page(make_app, 4)
    js = client.get("/static/app.js")
    css = client.get("/static/app.css")
    assert js.status_code == 200 and "javascript" in (js.mimetype or "")
    assert css.status_code == 200 and css.mimetype == "text/css"
    assert b"EventSource" in js.data and b"/api/state" in js.data
    # the page asks for them with a content hash, so a browser never keeps a stale copy: the
    # stylesheet's own, and one of every script module, in the path so that their imports share it
    assert re.search(r'href="/static/app\.css\?v=[0-9a-f]{10}"', html)
    found = re.search(r'<script type="module" src="/js/([0-9a-f]{10})/app\.js">', html)
    assert found is not None, "the script is a module, under its version"
    module = client.get(f"/js/{found.group(1)}/app.js")
    assert module.status_code == 200 and "javascript" in (module.mimetype or "") and module.data == js.data
    assert b'from "./board.js"' in module.data and client.get(f"/js/{found.group(1)}/board.js").status_code == 200
    assert client.get("/static/missing.js").status_code == 404
    assert client.get(f"/js/{found.group(1)}/missing.js").status_code == 404
    assert client.get(f"/js/{found.group(1)}/app.css").status_code == 404, "only scripts under /js/"


@pytest.mark.parametrize("players", [4, 8])
def test_corners_in_spots_and_come_outs_are_named_on_the_board(make_app: Callable[[int], Flask], players: int) -> None:
    """Issue 13: "Hole names on the board where a finger can find them (at least corners,
    come-outs and in-spots)"; the rules page names them: the corner, the in-spot (3rd hole), come-out (8th)."""
    _, html = page(make_app, players)
    names = [
        text
        for tag, attrs in tags(html)
        if tag == "text" and attrs.get("class") == "place-name"
        for text in [attrs.get("x")]
        if text
    ]
    assert len(names) == 3 * players
    for word in ("corner", "in-spot", "come-out"):
        assert html.count(f">{word}</text>") == players

"""The template's sheet grid: which sheets hold holes, their registration targets, and the index page.

    sheets = SheetGrid.of(PAPERS["a4"], (columns, rows), hole_places)
    sheets.used                         # [(row, column), ...]: the sheets worth printing
    sheet_index(sheets, outline, size, holes)   # board-index.svg: every sheet by name, empty ones grey

A 10-sided board's template covers 54 A4 sheets, and 23 of them are the empty middle or the
corners outside the board: the index says which to print, and the targets at each sheet's
corners (in the OVERLAP mm its neighbours share) lie on the neighbours' targets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from referee.kit.template_paper import OVERLAP, Paper, svg_document

Point = tuple[float, float]
TARGET = "#c000c0"  # magenta: no hole, chain or label is drawn in it


@dataclass(frozen=True)
class SheetGrid:
    """``columns`` x ``rows`` sheets of ``paper`` (as laid: portrait or landscape); ``used`` the
    ``(row, column)`` of those that hold a hole or a pixel's mark, in reading order."""

    paper: Paper
    columns: int
    rows: int
    used: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, paper: Paper, size: tuple[int, int], marks: Sequence[Point]) -> SheetGrid:
        columns, rows = size
        grid = cls(paper, columns, rows, ())
        used = tuple(
            (row, column)
            for row in range(rows)
            for column in range(columns)
            if any(grid.holds(row, column, mark) for mark in marks)
        )
        return cls(paper, columns, rows, used)

    @property
    def printable(self) -> Point:
        return (self.paper.width - 2 * self.paper.margin, self.paper.height - 2 * self.paper.margin)

    def origin(self, row: int, column: int) -> Point:
        """The top left of the sheet's printable part, in the drawing's millimetres."""
        return (column * (self.printable[0] - OVERLAP), row * (self.printable[1] - OVERLAP))

    def holds(self, row: int, column: int, mark: Point) -> bool:
        x, y = self.origin(row, column)
        return x <= mark[0] <= x + self.printable[0] and y <= mark[1] <= y + self.printable[1]


def registration_ticks(x: float, y: float, printable: Point) -> str:
    """A target in each corner of a sheet's printable part, in the middle of the OVERLAP mm band it
    shares with its neighbours: there it is the same point as the neighbour's target."""
    inset = OVERLAP / 2
    corners = [(x + dx, y + dy) for dx in (inset, printable[0] - inset) for dy in (inset, printable[1] - inset)]
    return "".join(
        f'<g class="registration"><circle cx="{cx:.2f}" cy="{cy:.2f}" r="2.5" fill="none" stroke="{TARGET}" '
        f'stroke-width="0.25"/><path d="M{cx - 4:.2f},{cy:.2f}h8M{cx:.2f},{cy - 4:.2f}v8" stroke="{TARGET}" '
        'stroke-width="0.25"/></g>'
        for cx, cy in corners
    )


def sheet_index(sheets: SheetGrid, outline: Sequence[Point], size: Point, holes: int) -> str:
    """One page: the board's edge, the grid of sheets over it, each named; grey: no hole, not printed."""
    paper = sheets.paper
    page = (max(paper.width, paper.height), min(paper.width, paper.height))  # landscape
    top = paper.margin + 24.0
    room = (page[0] - 2 * paper.margin, page[1] - top - paper.margin)
    scale = min(room[0] / size[0], room[1] / size[1])
    left = paper.margin + (room[0] - size[0] * scale) / 2
    step = (sheets.printable[0] - OVERLAP, sheets.printable[1] - OVERLAP)
    used = set(sheets.used)
    lines = _title(sheets, len(used), holes)
    parts = [
        f'<text x="{paper.margin:.2f}" y="{paper.margin + dy:.2f}" font-size="{size:g}">{escape(text)}</text>'
        for dy, size, text in lines
    ]
    for row in range(sheets.rows):
        for column in range(sheets.columns):
            x, y = column * step[0] * scale + left, row * step[1] * scale + top
            w, h = sheets.printable[0] * scale, sheets.printable[1] * scale
            name = f"{row + 1}-{column + 1}"
            fill, words = ("#fff", name) if (row, column) in used else ("#ddd", f"{name} empty")
            parts.append(
                f'<g class="index-sheet" data-sheet="sheet-{name}" data-holes="{str((row, column) in used).lower()}">'
                f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}" fill-opacity="0.6" '
                f'stroke="#555" stroke-width="0.3"/><text x="{x + w / 2:.2f}" y="{y + h / 2 + 1.2:.2f}" '
                f'font-size="{min(3.5, w / 6):.2f}" text-anchor="middle">{escape(words)}</text></g>'
            )
    points = " ".join(f"{px * scale + left:.2f},{py * scale + top:.2f}" for px, py in outline)
    parts.append(f'<polygon class="edge" points="{points}" fill="none" stroke="#000" stroke-width="0.4"/>')
    return svg_document(page[0], page[1], f"0 0 {page[0]:.2f} {page[1]:.2f}", "\n".join(parts))


def _title(sheets: SheetGrid, used: int, holes: int) -> list[tuple[float, float, str]]:
    """The index's heading: ``(mm below the margin, font size, text)`` per line."""
    paper = sheets.paper
    return [
        (
            5.0,
            5.0,
            (
                f"Board index: {sheets.rows} rows x {sheets.columns} columns of {paper.name}, "
                f"{used} of them hold the {holes} holes"
            ),
        ),
        (
            11.0,
            3.5,
            (
                "Print the white sheets (board-sheet-R-C.svg) at 100 %. Grey: no hole there, not written. "
                f"Lay each sheet {OVERLAP:g} mm over its neighbours,"
            ),
        ),
        (
            16.0,
            3.5,
            "the magenta targets in its corners on theirs. Purple tags on the sheets: where each side's chips start.",
        ),
    ]

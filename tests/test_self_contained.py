"""The repository is self-contained: whoever clones it can follow every reference in it.

Every file git tracks is read (binary files and the generated SVG and CSV data under docs/
aside) and none may point outside the repository: no design page but docs/design.md, no
folder of the machine it was written on, and no rule text cited by a file number. The rule
texts are cited by what they are ("the rules page", "the rules page, numbered version",
"the club sheet", "Hatcher's variations", "the rules summary", "the Ukrainian translation");
docs/rules.md lists them once, at the top.

The patterns are put together from pieces so that this file does not match them itself.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

OUTSIDE = re.compile(
    "|".join(
        (
            r"\bDESIGN"
            + r"\.md\b",  # the old design page outside the repository (case matters: docs/design.md is ours)
            r"\.\./" + r"shared\b",  # a sibling folder of the checkout
            r"/work" + r"/shared\b",  # the folder on the machine it was written on
            r"\bseed" + r"s/|/seed" + r"s\b",  # the folder of numbered rule texts
            r"\bINDEX" + r"\.md\b",  # that folder's index (the repository has none)
        )
    )
)
# A rule text cited by its file number ("00" and a digit from 0 to 4) standing alone. Not a hex colour, not part of
# a longer number (1000, 14,000, 10_000, 0.002), not inside a word or a code (x000, T0:000).
NUMBERED = re.compile(r"(?<![#.,_:\w-])" + "00" + r"[0-4](?![\w])(?![.,]\d)")


def cited(text: str) -> list[str]:
    """Each offending reference in ``text``, as ``line: excerpt``."""
    found: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern in (OUTSIDE, NUMBERED):
            for match in pattern.finditer(line):
                start = max(0, match.start() - 30)
                found.append(f"{number}: ...{line[start : match.end() + 30].strip()}...")
    return found


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing says which files are tracked")
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    paths = [ROOT / name for name in listing.decode("utf-8").split("\0") if name]
    return [path for path in paths if path.is_file() and not excluded(path)]


def excluded(path: Path) -> bool:
    relative = path.relative_to(ROOT)
    return relative.parts[0] == "docs" and path.suffix.lower() in (".svg", ".csv")


def text_of(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data:
        return None  # binary
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_the_patterns_catch_citations_and_spare_numbers() -> None:
    zero, two, four = "00" + "0", "00" + "2", "00" + "4"
    for bad in (
        f'(see {zero}, "Endgame")',
        f'{four}: "split the 7"',
        f"seed {two}'s sheet",
        f"({two})",
        f"{zero} NC rule 2",
        f"{zero}/{four}",
        f"Seeds: {zero} = the page",
        f"{two}.",
        "DESIGN" + '.md, "Budgets"',
        "../" + "shared/x",
        "/work" + "/shared/y",
        "the seeds" + "/ folder",
        "INDEX" + ".md / the rules",
    ):
        assert cited(bad), bad
    for good in (
        "fill #000;",
        "color: #000000",
        "1000 games",
        "14,000 ways",
        "poll=0.001",
        "10_000",
        "0.002 s",
        "x000",
        'docs/design.md, "Layers"',
        "5000 seeds",
        "hypothesis over seeds",
        "seeds the look-ahead",
        "shared page",
        "1,000",
        "T0:000",
    ):
        assert not cited(good), good


def test_nothing_points_outside_the_repository() -> None:
    files = tracked_files()
    assert any(path.name == "design.md" for path in files), "docs/design.md is missing"
    wrong: list[str] = []
    for path in files:
        text = text_of(path)
        if text is None:
            continue
        relative = path.relative_to(ROOT).as_posix()
        wrong.extend(f"{relative}:{where}" for where in cited(text))
    if wrong:
        pytest.fail(
            f"{len(wrong)} reference(s) outside the repository (cite docs/design.md by section, the rule "
            "texts by name as docs/rules.md lists them):\n" + "\n".join(wrong),
            pytrace=False,
        )

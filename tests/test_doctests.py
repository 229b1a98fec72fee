"""The examples people read first run as tests (issue 32, "Habits": python-chess runs its
README): every ``>>>`` example in the product's docstrings, and the README's ``pycon`` blocks.
An example that no longer says what the code does fails here, not in a reader's terminal."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "hardware", "firmware_bridge", "web")


def _modules_with_examples() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "firmware" in path.relative_to(ROOT / package).parts:
                continue  # CircuitPython code: it imports modules only the board has
            if ">>> " in path.read_text(encoding="utf-8"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = _modules_with_examples()


def test_the_engine_shows_its_examples() -> None:
    assert {"referee", "referee.game", "referee.tracker", "referee.geometry"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_a_docstring_example_runs_as_written(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_readme_examples_run_as_written() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README shows the engine with a pycon block"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {number + 1}", "README.md", 0))
    assert runner.summarize(verbose=False).failed == 0

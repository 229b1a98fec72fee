"""The product's code stays readable in one sitting (issue 24, "a codebase a successor can
carry on": "No function over 50 lines"): a function longer than that is several ideas
waiting for their names. Counted from its ``def`` to its last line, as ruff formats it.
A class is held to 450 lines the same way (issue 32, "The big rooms split by idea"): a
bigger one is several collaborators in one room. The tests themselves are scenarios read
top to bottom and are not held to either."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("referee", "hardware", "firmware_bridge", "web")
LONGEST = 50
LARGEST = 450  # a class's lines


def _lengths(source: str, kinds: tuple[type[ast.AST], ...] = (ast.FunctionDef, ast.AsyncFunctionDef)) -> dict[str, int]:
    """Each function's (or, with ``kinds``, each class's) name, with its line, and its length in lines."""
    return {
        f"{node.lineno} {node.name}": (node.end_lineno or node.lineno) - node.lineno + 1
        for node in ast.walk(ast.parse(source))
        if isinstance(node, kinds) and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }


def test_no_function_of_the_product_is_over_50_lines() -> None:
    lengths = {
        f"{path.relative_to(ROOT)}:{where}": lines
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
        for where, lines in _lengths(path.read_text(encoding="utf-8")).items()
    }
    assert len(lengths) > 1000  # the walk saw the product, not an empty folder
    too_long = [f"{where} ({lines} lines)" for where, lines in lengths.items() if lines > LONGEST]
    assert not too_long, "split these into named pieces:\n" + "\n".join(too_long)


def test_the_count_runs_from_def_to_the_last_line() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(LONGEST))
    assert _lengths(f"def longest() -> None:\n{body}") == {"1 longest": LONGEST + 1}
    assert _lengths("class A:\n    def f(self) -> int:\n        return 1\n") == {"2 f": 2}


def test_no_class_of_the_product_is_over_450_lines() -> None:
    lengths = {
        f"{path.relative_to(ROOT)}:{where}": lines
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
        for where, lines in _lengths(path.read_text(encoding="utf-8"), (ast.ClassDef,)).items()
    }
    assert len(lengths) > 100  # the walk saw the product's classes
    too_big = [f"{where} ({lines} lines)" for where, lines in lengths.items() if lines > LARGEST]
    assert not too_big, "split these by idea into collaborators:\n" + "\n".join(too_big)


def test_a_class_is_counted_from_class_to_its_last_line() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(LARGEST))
    assert _lengths(f"class Largest:\n{body}", (ast.ClassDef,)) == {"1 Largest": LARGEST + 1}

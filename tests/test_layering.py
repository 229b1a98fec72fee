"""Dependencies point one way (docs/design.md, "Layers"): every import under referee/, hardware/,
firmware_bridge/ and web/, read with ``ast`` (imports inside functions and under
TYPE_CHECKING included), against the allowed direction.

- the engine (referee/ except referee/coach/ and referee/table/): nothing from referee.coach,
  referee.table, hardware, firmware_bridge, web, nor flask, waitress, sqlite3, threading,
  serial, gpiozero;
- the coach (referee/coach/): the engine only, under the same bans but for itself;
- web: nothing from referee.table, hardware, firmware_bridge;
- hardware: nothing from referee or web, but the hole grammar (``referee.holes``, which
  imports nothing but the standard library: the names of the holes are the rules' and the
  wiring's alike, said once);
- firmware_bridge: nothing from referee, hardware or web;
- referee.table (the composition root, the daemon) may import anything but web: the daemon
  runs without the page's package. Only the modules that put the page on the daemon
  (``WEB_ADAPTERS``: serve.py builds the Flask app and serves it, bench_web.py measures it)
  may import web, and only what they say. An exception no longer used fails too, so the list
  stays as short as the code allows.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "hardware", "firmware_bridge", "web")

ENGINE_FORBIDDEN = (
    "referee.table",
    "hardware",
    "firmware_bridge",
    "web",
    "flask",
    "waitress",
    "sqlite3",
    "threading",
    "serial",
    "gpiozero",
)
RULES: dict[str, tuple[str, ...]] = {  # layer -> modules it must not import
    "referee": ("referee.coach", *ENGINE_FORBIDDEN),
    "referee.coach": ENGINE_FORBIDDEN,
    "web": ("referee.table", "hardware", "firmware_bridge"),
    "hardware": ("referee", "web"),
    "firmware_bridge": ("referee", "hardware", "web"),
    "referee.table": ("web",),
}
WEB_ADAPTERS: dict[str, tuple[str, ...]] = {  # referee.table module -> what of web it may import
    "referee.table.serve": ("web",),  # ``pegs serve``: create_app over the running table, and the LAN address
    "referee.table.bench_web": ("web",),  # ``pegs bench``: the page's speed and weight, through the real app
}


@dataclass(frozen=True)
class Import:
    path: str  # relative to the repository
    line: int
    module: str  # the importing module
    target: str  # the imported module (or module.name for ``from module import name``)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    """The layer whose rules bind ``module``."""
    if module == "referee.table" or module.startswith("referee.table."):
        return "referee.table"
    if module == "referee.coach" or module.startswith("referee.coach."):
        return "referee.coach"
    return module.split(".", 1)[0]


def imports(source: str, module: str, path: str, is_package: bool = False) -> Iterator[Import]:
    """Every module ``source`` imports, anywhere in the file. ``from a import b`` yields
    both ``a`` and ``a.b`` (``b`` may be a submodule); relative imports are resolved;
    ``importlib.import_module("x")`` / ``__import__("x")`` with a literal name count too."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source, filename=path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(path, node.lineno, module, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield Import(path, node.lineno, module, base)
            for alias in node.names:
                if alias.name != "*":
                    yield Import(path, node.lineno, module, f"{base}.{alias.name}")
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                yield Import(path, node.lineno, module, node.args[0].value)


def within(target: str, prefix: str) -> bool:
    return target == prefix or target.startswith(prefix + ".")


HARDWARE_MAY = ("referee.holes",)  # what of the engine the hardware layer may import


def allowed(item: Import) -> bool:
    """``item`` is one of the exceptions ``WEB_ADAPTERS`` or ``HARDWARE_MAY`` names."""
    if layer(item.module) == "hardware" and any(within(item.target, shared) for shared in HARDWARE_MAY):
        return True
    return any(within(item.target, prefix) for prefix in WEB_ADAPTERS.get(item.module, ()))


def violations(found: Iterator[Import]) -> list[str]:
    wrong: list[str] = []
    seen: set[tuple[str, int, str]] = set()
    for item in found:
        where = layer(item.module)
        if where not in RULES or allowed(item):
            continue
        for banned in RULES[where]:
            if within(item.target, banned):
                key = (item.path, item.line, banned)
                if key not in seen:  # ``from a import b`` yields a and a.b: report it once
                    seen.add(key)
                    wrong.append(
                        f"{item.path}:{item.line}: {item.module} imports {item.target} "
                        f"({where} must not import {banned})"
                    )
    return wrong


def source_files() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def all_imports() -> Iterator[Import]:
    for path in source_files():
        relative = path.relative_to(ROOT).as_posix()
        yield from imports(path.read_text(encoding="utf-8"), module_name(path), relative, path.name == "__init__.py")


def test_the_walk_sees_every_package() -> None:
    layers = {module_name(path).split(".", 1)[0] for path in source_files()}
    assert layers == set(PACKAGES)
    assert any(module_name(path) == "referee.table.cli" for path in source_files())


def test_the_checker_catches_what_it_should() -> None:
    source = (
        "import json\n"
        "from referee import table\n"
        "from ..table.store import Store\n"
        "def later():\n"
        "    import threading\n"
        "    importlib.import_module('hardware.leds')\n"
    )
    found = violations(imports(source, "referee.engine.x", "referee/engine/x.py"))
    assert [line.split(":")[1] for line in found] == ["2", "3", "5", "6"], found
    assert violations(imports(source, "referee.table.x", "referee/table/x.py")) == []
    to_web = "from web import create_app\nfrom web.table import Unavailable\ndef later():\n    import web.geometry\n"
    found = violations(imports(to_web, "referee.table.store", "referee/table/store.py"))
    assert [line.split(":")[1] for line in found] == ["1", "2", "4"], found
    assert violations(imports(to_web, "referee.table.serve", "referee/table/serve.py")) == []
    assert violations(imports("from referee.position import Position\n", "web.api", "web/api.py")) == []
    assert len(violations(imports("from referee import Position\n", "hardware.x", "hardware/x.py"))) == 1
    assert violations(imports("from referee.holes import SIDES\n", "hardware.x", "hardware/x.py")) == []
    assert (
        len(violations(imports("from referee.holes import SIDES\n", "firmware_bridge.x", "firmware_bridge/x.py"))) == 1
    )


def test_what_the_hardware_may_import_of_the_engine_imports_only_the_standard_library() -> None:
    """The hole grammar may be shared because it brings nothing of the engine with it."""
    for shared in HARDWARE_MAY:
        path = ROOT / (shared.replace(".", "/") + ".py")
        found = {item.target.split(".")[0] for item in imports(path.read_text(encoding="utf-8"), shared, str(path))}
        assert found <= {"__future__", "re", "typing", "dataclasses", "collections"}, found


def test_dependencies_point_one_way() -> None:
    wrong = violations(all_imports())
    if wrong:
        pytest.fail(f"{len(wrong)} import(s) against docs/design.md's direction:\n" + "\n".join(wrong), pytrace=False)


def test_every_web_exception_is_used() -> None:
    used = {
        (item.module, prefix)
        for item in all_imports()
        for prefix in WEB_ADAPTERS.get(item.module, ())
        if within(item.target, prefix)
    }
    stale = [
        f"{module}: {prefix}"
        for module, prefixes in WEB_ADAPTERS.items()
        for prefix in prefixes
        if (module, prefix) not in used
    ]
    assert not stale, f"WEB_ADAPTERS allows imports nothing makes any more; remove them: {stale}"

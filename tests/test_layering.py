"""Dependencies point one way (docs/design.md, "Layers"): every import under referee/, hardware/,
firmware_bridge/ and web/, read with ``ast`` (imports inside functions and under
TYPE_CHECKING included), against the allowed direction, folder by folder.

- the engine (referee/'s own modules): nothing of the folders above it (coach, settings,
  table, kit, bench, cli), nor hardware, firmware_bridge, web, flask, waitress, sqlite3,
  threading, serial, gpiozero;
- the coach (referee/coach/): the engine only, under the same bans but for itself;
- the settings (referee/settings/: the config file and the backends it names): the engine and
  hardware, never the coach, the table, the kit, the benches, the command or web;
- the table (referee/table/, the daemon): the engine, the coach, the settings and hardware;
  never the kit, the benches or the command, and web only where it serves the page;
- the kit (referee/kit/): hardware, firmware_bridge and, of the engine, only the hole grammar
  and the board's geometry; the settings only in the doctor (it checks a Pi's config);
- the benches (referee/bench/): anything but the kit and the command; web only where they
  measure the page;
- the command (referee/cli/): anything but web (``pegs serve`` reaches it through the table);
- web: the engine and itself, never the coach, the settings, the table, the kit, the benches,
  the command, hardware or firmware_bridge;
- hardware: nothing from referee or web, but the hole grammar (``referee.holes``, which
  imports nothing but the standard library: the names of the holes are the rules' and the
  wiring's alike, said once);
- firmware_bridge: nothing from referee, hardware or web.

Exceptions are named module by module (``MODULE_MAY``); one no longer used fails too, so the
list stays as short as the code allows.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "hardware", "firmware_bridge", "web")
FOLDERS = ("referee.coach", "referee.settings", "referee.table", "referee.kit", "referee.bench", "referee.cli")
IO = ("flask", "waitress", "sqlite3", "threading", "serial", "gpiozero")


def _but(*kept: str) -> tuple[str, ...]:
    return tuple(folder for folder in FOLDERS if folder not in kept)


RULES: dict[str, tuple[str, ...]] = {  # layer -> modules it must not import
    "referee": (*FOLDERS, "hardware", "firmware_bridge", "web", *IO),
    "referee.coach": (*_but("referee.coach"), "hardware", "firmware_bridge", "web", *IO),
    "referee.settings": (*_but("referee.settings"), "web"),
    "referee.table": ("referee.kit", "referee.bench", "referee.cli", "web"),
    "referee.kit": ("referee", "web"),  # but LAYER_MAY's few
    "referee.bench": ("referee.kit", "referee.cli", "web"),
    "referee.cli": ("web",),
    "web": (*FOLDERS, "hardware", "firmware_bridge"),
    "hardware": ("referee", "web"),  # but LAYER_MAY's hole grammar
    "firmware_bridge": ("referee", "hardware", "web"),
}
HARDWARE_MAY = ("referee.holes",)  # what of the engine the hardware layer may import
LAYER_MAY: dict[str, tuple[str, ...]] = {  # layer -> what it may import in spite of RULES
    "hardware": HARDWARE_MAY,
    "referee.kit": ("referee.kit", "referee.holes", "referee.geometry"),  # itself, the holes and the board's shape
}
MODULE_MAY: dict[str, tuple[str, ...]] = {  # one module -> what it may import in spite of RULES
    "referee.table.serve": ("web",),  # ``pegs serve``: create_app over the running table, and the LAN address
    "referee.bench.web": ("web",),  # ``pegs bench``: the page's speed and weight, through the real app
    "referee.cli.unlock": ("web",),  # ``pegs unlock-link``: the page's one-time link, and the LAN address
    "referee.kit.doctor": ("referee.settings",),  # ``pegs doctor`` checks the Pi's config and its backends
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
    for folder in FOLDERS:
        if within(module, folder):
            return folder
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


def allowed(item: Import) -> bool:
    """``item`` is one of the exceptions ``LAYER_MAY`` or ``MODULE_MAY`` names."""
    if any(within(item.target, shared) for shared in LAYER_MAY.get(layer(item.module), ())):
        return True
    return any(within(item.target, prefix) for prefix in MODULE_MAY.get(item.module, ()))


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
    assert any(module_name(path) == "referee.cli" for path in source_files())


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


def test_each_folder_keeps_to_its_own() -> None:
    """The table never the kit, the benches or the command; the kit never the table and, of the
    engine, only the holes and the geometry; the doctor alone reads the settings."""
    kit_reads = "from referee.kit.parts import parts_list\nfrom referee.holes import IN_SPOT\nimport referee.geometry\n"
    assert violations(imports(kit_reads, "referee.kit.template", "referee/kit/template.py")) == []
    wrong = (
        "from referee.table.table import Table\nfrom referee.game import Game\nfrom referee.settings import config\n"
    )
    assert len(violations(imports(wrong, "referee.kit.template", "referee/kit/template.py"))) == 3
    assert len(violations(imports(wrong, "referee.kit.doctor", "referee/kit/doctor.py"))) == 2
    for above in ("referee.kit.doctor", "referee.bench.run", "referee.cli.main"):
        assert len(violations(imports(f"import {above}\n", "referee.table.table", "referee/table/table.py"))) == 1
    assert violations(imports("from referee.table.table import Table\n", "referee.bench.x", "referee/bench/x.py")) == []
    assert len(violations(imports("from referee.cli import main\n", "referee.bench.x", "referee/bench/x.py"))) == 1
    assert len(violations(imports("from referee.coach import hints\n", "web.api", "web/api.py"))) == 1
    assert len(violations(imports("from referee.table.view import seats\n", "referee.settings.x", "s.py"))) == 1


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


def test_every_module_exception_is_used() -> None:
    used = {
        (item.module, prefix)
        for item in all_imports()
        for prefix in MODULE_MAY.get(item.module, ())
        if within(item.target, prefix)
    }
    stale = [
        f"{module}: {prefix}"
        for module, prefixes in MODULE_MAY.items()
        for prefix in prefixes
        if (module, prefix) not in used
    ]
    assert not stale, f"MODULE_MAY allows imports nothing makes any more; remove them: {stale}"

"""The package's folders are layers, and imports run one way.

Every module of `interpreter/` is read (its imports at the top and inside
functions alike) and each import of the package is mapped to the folder it
lands in. A folder may import only the folders below it in `LAYERS`; folders
on one line are independent of each other. Nothing inside a folder imports
the package root, which is the public API on top of them all. rich and
prompt_toolkit are imported only where the screen is drawn, and the optional
extras only inside the functions that need them. The layering is stated in
each folder's `__init__.py` and in docs/architecture.md.
"""

from __future__ import annotations

import ast
import re
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

# Top first: a folder may import the folders on the lines below its own.
LAYERS = [
    {"adapters"},
    {"terminal"},
    {"web", "editor"},
    {"presentation"},
    {"simulation"},
    {"ai"},
    {"game"},
    {"compiler"},
    {"runtime"},
    {"language"},
    {"stdlib"},
    {"errors"},
    {"printable"},
]
ROOT = "interpreter"                      # __init__ and __main__: the public API
MODULES = {"errors", "printable"}         # layers that are one module each, not a folder
SCREEN = {"rich", "prompt_toolkit"}       # only in the folder that draws
CORE = {"lark", "jsonschema", "yaml"} | SCREEN
EXTRAS = {"ray", "pettingzoo", "open_spiel", "pyspiel", "gymnasium", "numpy", "matplotlib",
          "pygls", "lsprotocol", "starlette", "uvicorn", "websockets", "httpx", "httpx2", "playwright",
          "sb3_contrib", "stable_baselines3", "supersuit", "torch", "tree"}


def layer_of(folder: str) -> int:
    return next(i for i, line in enumerate(LAYERS) if folder in line)


def modules() -> dict:
    """Dotted module name → path, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def folder_of(module: str) -> str:
    """The layer a module belongs to: its folder, `errors`, or the root."""
    parts = module.split(".")
    return ROOT if len(parts) == 1 or parts[1] == "__main__" else parts[1]


def imports(module: str, path: Path):
    """(line, absolute module imported, at module level?) for each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, id(node) in top_level
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            names = [target + "." + a.name for a in node.names] if not node.module else [target]
            for name in names:
                yield node.lineno, name, id(node) in top_level


def package_imports():
    """(module, line, imported module of the package) for every internal import;
    ``from . import x`` counts as an import of ``x`` when x is a module."""
    known = modules()
    for module, path in known.items():
        for line, target, _ in imports(module, path):
            if target.split(".")[0] != ROOT:
                continue
            while target not in known:
                target = target.rsplit(".", 1)[0]
            yield module, line, target


def where(module: str, line: int) -> str:
    return f"{modules()[module].relative_to(PACKAGE.parent)}:{line}"


def test_every_module_belongs_to_a_layer():
    layered = set().union(*LAYERS)
    strays = [m for m in modules() if folder_of(m) not in layered | {ROOT}]
    assert not strays, f"modules outside the layers of LAYERS: {strays}"
    assert {folder_of(m) for m in modules()} == layered | {ROOT}, "a layer without a module"


@pytest.mark.parametrize("folder", sorted(set().union(*LAYERS) - MODULES))
def test_each_folder_says_what_it_is_for_and_what_it_may_import(folder):
    doc = ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text()))
    assert doc and len(doc) > 200, f"interpreter/{folder}/__init__.py needs its paragraph"
    assert "May import:" in doc


def test_imports_run_down_the_layers():
    upward = []
    for module, line, target in package_imports():
        source, dest = folder_of(module), folder_of(target)
        if source == dest or source == ROOT:
            continue
        if dest == ROOT:
            upward.append(f"{where(module, line)}: {module} imports the package root")
        elif layer_of(dest) <= layer_of(source):
            upward.append(f"{where(module, line)}: {module} ({source}) imports {target} ({dest})")
    assert not upward, "imports against the layering:\n" + "\n".join(upward)


def test_no_cycle_between_folders():
    graph = {}
    for module, _, target in package_imports():
        source, dest = folder_of(module), folder_of(target)
        if source != dest:
            graph.setdefault(source, set()).add(dest)
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as e:
        pytest.fail(f"folders import each other: {' → '.join(e.args[1])}")


def test_the_screen_libraries_only_where_the_screen_is_drawn():
    found = [f"{where(m, line)}: {target}" for m, path in modules().items()
             for line, target, _ in imports(m, path)
             if target.split(".")[0] in SCREEN and folder_of(m) != "terminal"]
    assert not found, "rich or prompt_toolkit outside interpreter/terminal:\n" + "\n".join(found)


def test_only_core_libraries_at_module_level():
    """An optional extra (ray, pettingzoo, …) is imported inside the function
    that needs it, so the core imports and runs without it."""
    stdlib = sys.stdlib_module_names
    found = []
    for m, path in modules().items():
        for line, target, top in imports(m, path):
            name = target.split(".")[0]
            if name in (ROOT, "__future__") or name in stdlib:
                continue
            if (top and name not in CORE) or name not in CORE | EXTRAS:
                found.append(f"{where(m, line)}: {target}")
    assert not found, "imports of libraries that are not core dependencies:\n" + "\n".join(found)


def test_the_layering_test_sees_an_upward_import(tmp_path, monkeypatch):
    """The check itself: a runtime module that imports the terminal is caught."""
    fake = tmp_path / "interpreter"
    for folder in set().union(*LAYERS) - MODULES:
        (fake / folder).mkdir(parents=True)
        (fake / folder / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("")
    for module in MODULES:
        (fake / f"{module}.py").write_text("")
    (fake / "terminal" / "render.py").write_text("from ..runtime import state\n")
    (fake / "runtime" / "state.py").write_text("def f():\n    from ..terminal.render import x\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    with pytest.raises(AssertionError, match=r"runtime/state.py:2: .*imports interpreter.terminal"):
        test_imports_run_down_the_layers()
    with pytest.raises(pytest.fail.Exception, match="folders import each other"):
        test_no_cycle_between_folders()


def test_the_architecture_page_and_the_readme_name_every_folder():
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    picture = re.search(r"## \d+\. The layering.*?```text\n(.*?)```", page, re.S).group(1)
    assert [set(line.replace("|", " ").split()) for line in picture.splitlines()] == LAYERS
    for module in MODULES:
        assert f"`interpreter/{module}.py`" in page, f"docs/architecture.md does not describe {module}.py"
    for folder in set().union(*LAYERS) - MODULES:
        assert f"`{folder}/`" in page, f"docs/architecture.md does not describe {folder}/"
        assert f"`interpreter/{folder}/`" in readme, f"README's layout has no line for {folder}/"

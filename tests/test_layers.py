"""The layers of the code, enforced over its imports (docs/development.md draws them).

From the bottom: ``rules`` (the rules core, standard library only) <- ``cards`` (the
definitions and the input-text layer) <- ``pnp.common`` (the plumbing every command
shares) <- ``generator`` <- ``photo`` <- ``scorer`` <- ``records`` <- ``sim`` <- ``web``
<- ``design`` <- ``pnp.cli``. A module may import its own layer and the layers below it,
never one above; ``testkit`` (kits for tests, benchmarks and tools) is imported by none of them.
Every import counts, at the top of a module or inside a function, except those under
``if TYPE_CHECKING:`` (annotations only). Also: no import circle between modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("rules", "cards", "pnp.common", "generator", "photo", "scorer", "records", "sim",
          "web", "design", "pnp")
PRODUCT = {"rules", "cards", "pnp", "generator", "photo", "scorer", "records", "sim", "web",
           "design"}
KNOWN = PRODUCT | {"testkit"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> int:
    if module == "pnp.common" or module.startswith("pnp.common."):
        return LAYERS.index("pnp.common")
    return LAYERS.index(module.split(".")[0])


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _is_module(dotted: str) -> bool:
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every project import in ``path`` that runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:  # from package import module: that module
                sub = f"{node.module}.{a.name}"
                found.append((node.lineno, sub if _is_module(sub) else node.module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return [(line, m) for line, m in found if m.split(".")[0] in KNOWN]


def product_modules() -> dict[str, Path]:
    out = {}
    for top in sorted(PRODUCT):
        for path in sorted((ROOT / top).rglob("*.py")):
            out[module_name(path)] = path
    return out


def test_no_module_imports_a_layer_above_it_or_the_testkit():
    modules = product_modules()
    wrong = []
    for name, path in modules.items():
        for line, target in imports_of(path):
            if target.split(".")[0] == "testkit":
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {target} (testkit is "
                             "for tests, benchmarks and tools)")
            elif target in modules or target.split(".")[0] in PRODUCT and \
                    any(m == target or m.startswith(target + ".") for m in modules):
                if layer(target) > layer(name):
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: {name} imports {target}, "
                                 f"a layer above it")
    assert not wrong, "\n".join(wrong)


def test_rules_imports_only_the_standard_library_and_itself():
    import sys

    wrong = []
    for path in sorted((ROOT / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0
                and node.module else [])
            for n in names:
                top = n.split(".")[0]
                if top != "rules" and top not in sys.stdlib_module_names:
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {n}")
    assert not wrong, "\n".join(wrong)


def test_no_import_circle_between_modules():
    modules = product_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {t for _, t in imports_of(path) if t in modules and t != name}
    circles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    assert not circles, "\n".join(circles)

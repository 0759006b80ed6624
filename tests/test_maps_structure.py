"""generator/maps/ as the style asks (issue 24): imports run one way, with no cycle (declared.py
once imported engine.py, which imported it back), and no module over 600 lines."""
from __future__ import annotations

import ast

from conftest import ROOT

MAPS = ROOT / "generator" / "maps"
MAX_LINES = 600


def _imports(path) -> set[str]:
    """The sibling modules of generator/maps a module imports, at the top or inside a function."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
    return out & {p.stem for p in MAPS.glob("*.py")}


def _cycle(graph: dict) -> list | None:
    state: dict = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path + [node, nxt]
            if nxt not in state:
                found = visit(nxt, path + [node])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def test_no_import_cycle_in_the_maps_package():
    graph = {p.stem: _imports(p) for p in MAPS.glob("*.py")}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_of_the_maps_package_is_over_600_lines():
    long = {p.name: n for p in MAPS.glob("*.py") if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}

"""A face template + what its group fixes (`face`, `palette`, `game`) -> the same template with
the expressions that read only those worked out once, as constants (partial evaluation).

Every card of a deck runs its template again, and much of a template is arithmetic on the
face's size and lookups in the palette: `{{ face.width + 2 * face.bleed }}`, `palette.band`,
`face.width - 10` as a helper's argument. Those read nothing of the item, so their value is the
same on every face of the group; here they are evaluated once, with the sandbox's own getattr,
getitem and operators (the calls the compiled template would make, so the same value), and put
in the template's tree as constants, which Jinja's compiler writes into the output as text.

Only what is sure to be the same is replaced: names never assigned in the template (no set, for,
macro argument, with or import of that name), attribute and item lookups, and arithmetic;
values that are plain numbers (finite) or strings. Whatever else, or anything that raises, is
left to run on every face, so an error is told there as before, from its line. Nothing inside a
macro or a call block is touched. A template that extends another is not specialized.
"""
from __future__ import annotations

import math
import operator

import jinja2
from jinja2 import nodes

FIXED = ("face", "palette", "game")     # what render.py's group context gives, the same for a whole group

_PYTHON_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
                  "//": operator.floordiv, "%": operator.mod, "**": operator.pow}
_PYTHON_UNOPS = {"-": operator.neg, "+": operator.pos}
_UNTOUCHED = (nodes.Macro, nodes.CallBlock)


class _Unknown(Exception):
    """An expression whose value is not sure to be the same on every face."""


def specialized(env: jinja2.Environment, name: str, fixed: dict):
    """The template `name` with its expressions over `fixed` as constants, or None when there
    are none (or the template cannot be specialized: the plain one is used, and says what is
    wrong)."""
    try:
        source, filename, uptodate = env.loader.get_source(env, name)
        tree = env.parse(source, name, filename)
    except Exception:       # noqa: BLE001  (the plain template tells it, with its place)
        return None
    if not _may_fold(tree):
        return None
    if not _fold(tree, env, {key: fixed[key] for key in FIXED if key in fixed}):
        return None
    try:
        code = env.compile(tree, name, filename)
    except Exception:       # noqa: BLE001
        return None
    return env.template_class.from_code(env, code, env.make_globals(None), uptodate)


def _may_fold(tree: nodes.Template) -> bool:
    """No fixed name is ever given another value in the template, and it extends nothing."""
    if tree.find(nodes.Extends) is not None:
        return False
    for name in tree.find_all(nodes.Name):
        if name.ctx != "load" and name.name in FIXED:
            return False
    for imported in tree.find_all((nodes.Import, nodes.FromImport)):
        targets = [imported.target] if isinstance(imported, nodes.Import) else \
            [n if isinstance(n, str) else n[1] for n in imported.names]
        if set(targets) & set(FIXED):
            return False
    return True


def _fold(node: nodes.Node, env, fixed: dict) -> int:
    """Replace, under `node`, each largest expression over `fixed` by its value; how many."""
    folded = 0
    for field, value in node.iter_fields():
        if isinstance(value, list):
            for index, child in enumerate(value):
                replaced = _folded(child, env, fixed)
                if replaced is not None:
                    value[index] = replaced
                    folded += 1
                elif isinstance(child, nodes.Node) and not isinstance(child, _UNTOUCHED):
                    folded += _fold(child, env, fixed)
        elif isinstance(value, nodes.Node):
            replaced = _folded(value, env, fixed)
            if replaced is not None:
                setattr(node, field, replaced)
                folded += 1
            elif not isinstance(value, _UNTOUCHED):
                folded += _fold(value, env, fixed)
    return folded


def _folded(node, env, fixed: dict) -> nodes.Const | None:
    """The expression as a constant, when it reads a fixed name and nothing else varies."""
    if not isinstance(node, (nodes.Getattr, nodes.Getitem, nodes.BinExpr, nodes.UnaryExpr)) or \
            node.find(nodes.Name) is None:
        return None
    try:
        value = _value(node, env, fixed)
    except _Unknown:
        return None
    except Exception:       # noqa: BLE001  (raised on every face: left there to be told)
        return None
    kind = type(value)
    if kind is str or kind is int or (kind is float and math.isfinite(value)):
        return nodes.Const(value, lineno=node.lineno)
    return None


def _value(node, env, fixed: dict):
    """What the compiled template computes for `node` (the same calls, in the same order)."""
    kind = type(node)
    if kind is nodes.Const:
        return node.value
    if kind is nodes.Name and node.ctx == "load" and node.name in fixed:
        return fixed[node.name]
    if kind is nodes.Getattr:
        return _known(env.getattr(_value(node.node, env, fixed), node.attr))
    if kind is nodes.Getitem and not isinstance(node.arg, nodes.Slice):
        return _known(env.getitem(_value(node.node, env, fixed), _value(node.arg, env, fixed)))
    if isinstance(node, nodes.BinExpr) and node.operator in _PYTHON_BINOPS:
        left, right = _value(node.left, env, fixed), _value(node.right, env, fixed)
        if node.operator in env.intercepted_binops:
            return _known(env.call_binop(None, node.operator, left, right))
        return _PYTHON_BINOPS[node.operator](left, right)
    if isinstance(node, nodes.UnaryExpr) and node.operator in _PYTHON_UNOPS:
        operand = _value(node.node, env, fixed)
        if node.operator in env.intercepted_unops:
            return _known(env.call_unop(None, node.operator, operand))
        return _PYTHON_UNOPS[node.operator](operand)
    raise _Unknown


def _known(value):
    if isinstance(value, jinja2.Undefined):
        raise _Unknown          # (a missing key: each face says so)
    return value

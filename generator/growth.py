"""What a template asks to build -> refused before it is built, when it is over MAX_BUILT.

A face's output is bounded after the fact (render.bounded_output) and an expression in time,
but one operation can ask for gigabytes at once: 'x'|center(3000000000), a string joined to
itself twenty times, '%3000000000s' % x. Each operation that can make a string or list much
larger than its inputs is sized from its arguments first: the sandbox's binary operators and
method calls, the `~` operator (compiled through GrowthChecks.visit_Concat) and the filters
and globals that can grow their input.
"""
from __future__ import annotations

import functools
import math
import re

import jinja2
from jinja2.compiler import CodeGenerator

MAX_BUILT = 1_000_000       # characters of a string or items of a list one operation may build
MAX_POWER_BITS = 4_096      # an integer power larger than this is no number a face prints
MAX_LIPSUM = 100            # paragraphs of lipsum(): a face shows a few

_SIZED = (str, list, tuple)
_NUMBER_IN_SPEC = re.compile(r"\d{7,}")      # a width or precision of a million or more


class TooLarge(jinja2.exceptions.SecurityError):
    pass


def _refuse(what: str, size, unit: str = "characters") -> None:
    raise TooLarge(f"{what} would build {_count(size)} {unit}, over the limit of {MAX_BUILT:,} {unit} one "
                   "operation may build")


def _count(size) -> str:
    try:
        return f"{int(size):,}"
    except (OverflowError, ValueError):
        return str(size)


def _big(number) -> bool:
    return isinstance(number, (int, float)) and not isinstance(number, bool) and \
        (not math.isfinite(number) or number > MAX_BUILT)


def check_binop(operator: str, left, right) -> None:
    """'x' * 10**20, [1] * 10**9, a + b past the limit, 9 ** 10**9 and '%3000000000s' % x."""
    if operator == "*":
        seq, times = (left, right) if isinstance(left, _SIZED) else (right, left)
        if isinstance(seq, _SIZED) and isinstance(times, int) and len(seq) * times > MAX_BUILT:
            raise TooLarge(f"repeating {len(seq):,} {'characters' if isinstance(seq, str) else 'items'} {times:,} "
                           f"times is over the limit of {MAX_BUILT:,}")
    elif operator == "+":
        if isinstance(left, _SIZED) and isinstance(right, _SIZED) and len(left) + len(right) > MAX_BUILT:
            raise TooLarge(f"joining to more than {MAX_BUILT:,} characters or items is over the limit")
    elif operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
        if right * math.log2(abs(left)) > MAX_POWER_BITS:
            raise TooLarge(f"{left} ** {right} is too large a number")
    elif operator == "%" and isinstance(left, str):
        _check_spec("formatting with %", left)


def _check_spec(what: str, spec: str) -> None:
    for number in _NUMBER_IN_SPEC.findall(spec):
        if int(number) > MAX_BUILT:
            _refuse(f"{what} to a width of {int(number):,}", int(number))


def check_concat(parts: tuple) -> tuple:
    """a ~ b ~ c: the parts' lengths added before they are joined."""
    if sum(len(p) if isinstance(p, str) else 0 for p in parts) > MAX_BUILT:
        _refuse("joining with ~", sum(len(p) for p in parts if isinstance(p, str)))
    return parts


def _padded(s: str, width, *rest) -> int:
    return width if isinstance(width, (int, float)) else 0


def _replaced(s: str, old=None, new=None, count=-1) -> int:
    if not isinstance(old, str) or not isinstance(new, str) or len(new) <= len(old):
        return len(s)
    found = s.count(old) if old else len(s) + 1
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(s) + found * (len(new) - len(old))


def _joined(s: str, items=None, *rest) -> int:
    if not isinstance(items, (list, tuple)):
        return 0                  # a generator: bounded by range() and the time limit
    return sum(len(x) if isinstance(x, str) else 1 for x in items) + len(s) * max(len(items) - 1, 0)


def _tabs(s: str, tabsize=8) -> int:
    return len(s) + s.count("\t") * tabsize if isinstance(tabsize, int) else len(s)


# str methods that can return far more than they are given: the size they would build
STR_METHODS = {"center": _padded, "ljust": _padded, "rjust": _padded, "zfill": _padded,
               "replace": _replaced, "join": _joined, "expandtabs": _tabs}


def check_call(obj, args: tuple, kwargs: dict) -> None:
    """A method of a string called from a template: sized first."""
    obj = getattr(obj, "__wrapped__", obj)        # the sandbox wraps str.format
    owner, name = getattr(obj, "__self__", None), getattr(obj, "__name__", "")
    if not isinstance(owner, str):
        return
    if name in ("format", "format_map"):
        _check_spec(f"{name}()", owner)
        return
    size = STR_METHODS.get(name)
    if size is not None:
        try:
            built = size(owner, *args, **kwargs)
        except TypeError:
            return                # wrong arguments: the call itself says so
        if _big(built):
            _refuse(f"{name}()", built)


def _filter(name: str, original, size, unit: str):
    """A filter sized from its arguments before it runs (the eval context, where the filter
    takes one, is not among them)."""
    takes_context = getattr(original, "jinja_pass_arg", None) is not None

    @functools.wraps(original)
    def bounded(*args, **kwargs):
        given = args[1:] if takes_context else args
        try:
            built = size(*given, **kwargs)
        except TypeError:
            built = 0
        if _big(built):
            _refuse(f"|{name}", built, unit)
        return original(*args, **kwargs)
    return bounded


def _indented(s, width=4, first=False, blank=False) -> int:
    lines = str(s).count("\n") + 1
    pad = width if isinstance(width, int) else len(width) if isinstance(width, str) else 0
    return len(str(s)) + lines * pad


def _filter_replaced(s, old, new, count=None) -> int:
    return _replaced(str(s), old, new, -1 if count is None else count)


def _filter_joined(value, d="", attribute=None) -> int:
    return _joined(d, list(value)) if isinstance(value, (list, tuple)) and attribute is None else 0


def _filter_formatted(value, *args, **kwargs) -> int:
    if isinstance(value, str):
        _check_spec("|format", value)
    return 0


def _batched(value, linecount, fill_with=None) -> int:
    return linecount if fill_with is not None else 0


def _sliced(value, slices, fill_with=None) -> int:
    return slices


FILTERS = {"center": lambda s, width=80: width, "indent": _indented, "replace": _filter_replaced,
           "join": _filter_joined, "format": _filter_formatted, "batch": _batched, "slice": _sliced}


def bound_filters(filters: dict) -> None:
    for name, size in FILTERS.items():
        filters[name] = _filter(name, filters[name], size, "items" if name in ("batch", "slice") else "characters")


def bound_globals(globals_: dict) -> None:
    lipsum = globals_["lipsum"]

    def bounded_lipsum(n=5, *args, **kwargs):
        if not isinstance(n, int) or n > MAX_LIPSUM:
            raise TooLarge(f"lipsum({n!r}): at most {MAX_LIPSUM} paragraphs")
        return lipsum(n, *args, **kwargs)
    globals_["lipsum"] = bounded_lipsum


class GrowthChecks(CodeGenerator):
    """Compiles a ~ b so that the parts are sized (check_concat) before they are joined."""

    def visit_Concat(self, node, frame) -> None:      # as Jinja's, with the parts sized first
        if frame.eval_ctx.volatile:
            join = "(markup_join if context.eval_ctx.volatile else str_join)"
        else:
            join = "markup_join" if frame.eval_ctx.autoescape else "str_join"
        self.write(f"{join}(environment.check_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(")))")

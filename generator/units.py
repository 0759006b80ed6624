"""Lengths with units, parsed by a small regex: "63mm", "2.5in", "72pt", "6.3cm", or a bare number of mm."""
from __future__ import annotations

import math
import re

MAX_MM = 10_000.0       # 10 m: longer than any printed part; bigger numbers are typos or attacks
MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*(mm|cm|in|pt)?\s*$")


def parse_length(value) -> float:
    """Return millimetres; raise ValueError with a readable reason."""
    if isinstance(value, bool):
        raise ValueError("expected a length such as 63mm or 2.5in, got a yes/no value")
    if isinstance(value, (int, float)):
        return _physical(float(value), value)
    if not isinstance(value, str):
        raise ValueError(f"expected a length such as 63mm or 2.5in, got {type(value).__name__}")
    match = _LENGTH.match(value)
    if not match:
        raise ValueError(f"'{value}' is not a length; write a number with mm, cm, in or pt, e.g. 63mm")
    return _physical(float(match.group(1)) * MM_PER[match.group(2) or "mm"], value)


def _physical(mm: float, written) -> float:
    """A length that could be printed: finite and no longer than MAX_MM either way."""
    if not math.isfinite(mm):
        raise ValueError(f"'{written}' is not a finite length")
    if abs(mm) > MAX_MM:
        raise ValueError(f"'{written}' is longer than {MAX_MM / 1000:g} m; no printed part is that large")
    return mm


def pt_to_mm(points: float) -> float:
    return points * MM_PER["pt"]


def mm_to_pt(mm: float) -> float:
    return mm / MM_PER["pt"]

"""Error types that say whose fault a failure is, and where it happened.

ManifestError: the game pack is wrong (file:line:col, what, how to fix).
BuildError: a build could not finish for a reason tied to one component.
UsageError: the command line is wrong (exit code 2).
"""
from __future__ import annotations

import errno
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


class Mark(NamedTuple):
    """A position in a source file, 1-based like editors show it. A named tuple: a manifest
    gives one to every key and value, and a tuple is made five times faster than a frozen
    dataclass."""
    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file


def display_path(path: Path) -> str:
    """A path as the user should read it: relative to the working folder when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def os_error_text(exc: OSError, what: str) -> str:
    """An OSError as its reader can act on it: a refused permission says what to check."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied; check the {what}'s permissions"
    if exc.errno == errno.EROFS:
        return f"the {what} is on a read-only file system"
    return (exc.strerror or str(exc)).lower()


def close_to(word, known, most: int = 1, cutoff: float = 0.6) -> list[str]:
    """The known words most like `word`, best first (difflib's ratio `cutoff` or more)."""
    import difflib          # (only once something is misspelt)
    return difflib.get_close_matches(str(word), [str(k) for k in known], most, cutoff)


def did_you_mean(word, known, otherwise: str = "", *, cutoff: float = 0.6, end: str = "") -> str:
    """The hint a misspelt key, name or choice gets: "did you mean 'x'?" (then `end`) naming the
    known word closest to `word`, or `otherwise` when none is close."""
    close = close_to(word, known, 1, cutoff)
    return f"did you mean '{close[0]}'?{end}" if close else otherwise


@dataclass(frozen=True)
class Problem:
    mark: Mark
    message: str
    hint: str = ""
    warning: bool = False

    def __str__(self) -> str:
        text = f"{self.mark}: {'warning: ' if self.warning else ''}{self.message}"
        return f"{text}; {self.hint}" if self.hint else text


class Reporter:
    """Collects every problem of a run, so all are reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self._seen: set[Problem] = set()

    def error(self, mark: Mark, message: str, hint: str = "") -> None:
        problem = Problem(mark, message, hint)
        if problem not in self._seen:      # a per-player item reports its mistake once
            self._seen.add(problem)
            self.problems.append(problem)

    def warn(self, mark: Mark, message: str, hint: str = "") -> None:
        self.problems.append(Problem(mark, message, hint, warning=True))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.warning]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise ManifestError(self.problems)


class PnpError(Exception):
    """Base of the errors the CLI reports without a traceback."""
    exit_code = 1


class ManifestError(PnpError):
    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class BuildError(PnpError):
    pass


class UsageError(PnpError):
    exit_code = 2


# Python's names for values, as a pack's author would say them (messages never show class names)
_TYPE_WORDS = {"NoneType": "nothing", "str": "text", "int": "a whole number", "float": "a number",
               "bool": "yes/no", "dict": "a mapping", "SrcDict": "a mapping", "DataDict": "a mapping",
               "list": "a list", "SrcList": "a list", "tuple": "a list", "Markup": "text",
               "Undefined": "an undefined value", "StrictUndefined": "an undefined value"}
_QUALIFIED = re.compile(r"\b(?:[a-z_]+\.)+([A-Z][A-Za-z]+)\b")
_QUOTED_TYPE = re.compile(r"'(" + "|".join(_TYPE_WORDS) + r")(?:' object| object')|'(" + "|".join(_TYPE_WORDS) + r")'")


def plain_words(text: str) -> str:
    """A Python error message with its class names put in words: "'NoneType' object is not
    iterable" -> "nothing is not iterable"; module paths (generator.x.Y) lose their module."""
    text = _QUALIFIED.sub(lambda m: m.group(1), text)
    text = _QUOTED_TYPE.sub(lambda m: _TYPE_WORDS[m.group(1) or m.group(2)], text)
    return re.sub(r"\b(" + "|".join(k for k in _TYPE_WORDS if k[0].isupper()) + r") object\b",
                  lambda m: _TYPE_WORDS[m.group(1)], text)

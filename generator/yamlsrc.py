"""YAML text -> plain data that remembers where each value came from.

PyYAML's safe composer gives nodes with positions; we build dicts and lists from them ourselves
so that duplicate keys are refused, aliases cannot blow up memory, Python tags are refused, and
every value keeps its file:line:col for error messages.
"""
from __future__ import annotations

import contextlib
import gc
import re
from pathlib import Path

import yaml

from .errors import Mark, Reporter, display_path

MAX_FILE_BYTES = 20 * 1024 * 1024   # a manifest larger than this is surely a mistake
MAX_NODES = 2_000_000                # bounds alias expansion ("billion laughs")
MAX_DEPTH = 64                       # lists and mappings inside each other; packs use under 10
MAX_MERGES = 10_000                  # '<<' merge keys in one file; each copies a whole mapping
# libyaml's composer recurses in C and crashes on 100,000 levels, so a file that may nest that
# deep (brackets opened past MAX_DEPTH, or a line of many '- ') is walked event by event first.
# Nesting by indentation alone is bounded by the file size (a few thousand levels) and is
# caught while the nodes become data. Only composing needs the walk: the streamed reading
# (_Streamed) takes events alone and gives up past MAX_DEPTH, so most files never pay for it.
_BRACKETS = re.compile(r"[\[\]{}]")
# (?:[-?:][ \t]+){64} written to begin with a character class: sre then skips ahead to a
# candidate character instead of trying the group at every offset (a 2.7 MB deck: 49 -> 10 ms)
_COMPACT_NESTING = re.compile(r"[-?:](?:[ \t]+[-?:]){%d}[ \t]+" % (MAX_DEPTH - 1))


# libyaml's parser when PyYAML was built with it (about 10x faster), the pure-Python one else;
# both are the safe loader and both give positions.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

PLAIN_TAGS = {f"tag:yaml.org,2002:{name}" for name in
              ("map", "seq", "str", "int", "float", "bool", "null", "merge", "timestamp")}
FLATTEN_TAGS = {"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"}
STR_TAG = "tag:yaml.org,2002:str"
_EVENT_TAGS = (None, "!")      # no tag, or the non-specific '!': what the streamed reading takes
_ScalarEvent, _MappingEndEvent, _SequenceEndEvent = yaml.ScalarEvent, yaml.MappingEndEvent, yaml.SequenceEndEvent
_UNSEEN = object()
# Mark(file, line, col) without the named tuple's __new__, a Python function (0.4 us a Mark)
_tuple_new = tuple.__new__
# A text this short (a key, a kind, a colour) is kept once per file, however often it is written:
# the keys of a deck's cards alone were 10.7 MB at 50,000 cards, a string each.
SHARED_CHARS = 32
PLAIN_MEMO = 4096     # short plain scalars whose value a streamed file remembers (numbers, yes/no, ...)


class SrcDict(dict):
    """A mapping that knows where it and each of its keys and values are."""
    mark: Mark
    key_marks: dict
    value_marks: dict

    def key_mark(self, key) -> Mark:
        return self.key_marks.get(key, self.mark)

    def value_mark(self, key) -> Mark:
        return self.value_marks.get(key, self.key_mark(key))

    def like(self) -> "SrcDict":
        """An empty mapping with this one's marks, to fill with values replaced."""
        out = type(self)()
        out.__dict__.update(self.__dict__)
        return out


_SPOT = 25                 # bits of a line or column: MAX_FILE_BYTES < 2**25
_SPOT_MASK = (1 << _SPOT) - 1
# a spot's four 0-based numbers each made 1-based at once (none reaches _SPOT_MASK: no carry)
_KEY_LINE, _KEY_COL = 3 * _SPOT, 2 * _SPOT
_SPOT_ONES = 1 << _KEY_LINE | 1 << _KEY_COL | 1 << _SPOT | 1


class StreamedDict(SrcDict):
    """A SrcDict read from parser events: per key, its line and column and its value's packed in
    one int, made into Marks when asked. Two Marks a key and two dicts a mapping were 1.2 KB a
    card of a deck, all held while the pack loads."""
    file: str
    spots: dict

    def key_mark(self, key) -> Mark:
        spot = self.spots.get(key)
        return self.mark if spot is None else _tuple_new(Mark, (self.file, spot >> _KEY_LINE, (spot >> _KEY_COL) & _SPOT_MASK))

    def value_mark(self, key) -> Mark:
        spot = self.spots.get(key)
        return self.mark if spot is None else _tuple_new(Mark, (self.file, (spot >> _SPOT) & _SPOT_MASK, spot & _SPOT_MASK))

    @property
    def key_marks(self) -> dict:
        return {key: self.key_mark(key) for key in self.spots}

    @property
    def value_marks(self) -> dict:
        return {key: self.value_mark(key) for key in self.spots}


class SrcList(list):
    mark: Mark
    item_marks: list

    def item_mark(self, index: int) -> Mark:
        return self.item_marks[index] if index < len(self.item_marks) else self.mark


def node_mark(file: str, node) -> Mark:
    return Mark(file, node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    """Nodes -> data. A node reached again through an alias is built once and shared, and its
    expanded size still counts against MAX_NODES: an alias bomb is refused after a few thousand
    steps, in bounded memory."""

    def __init__(self, file: str, loader, reporter: Reporter, max_nodes: int = MAX_NODES):
        self.file, self.loader, self.reporter, self.max_nodes = file, loader, reporter, max_nodes
        self.count = self.depth = self.merges = 0
        self.built: dict[int, tuple[object, int]] = {}
        self.shared: dict[str, str] = {}     # short texts, one object each however often written

    def build(self, node):
        if type(node) is yaml.ScalarNode:
            return self._scalar(node)
        key = id(node)
        if key in self.built:            # a container reached again through an alias
            value, size = self.built[key]
            self._add(size, node)
            return value
        before = self.count
        self._add(1, node)
        if node.tag not in PLAIN_TAGS:
            raise yaml.constructor.ConstructorError(
                None, None, f"tag {node.tag} is not allowed", node.start_mark)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _TooDeep(node)
        if isinstance(node, yaml.MappingNode):
            value = self._mapping(node)
        else:
            value = self._sequence(node)
        self.depth -= 1
        self.built[key] = (value, self.count - before)
        return value

    def _scalar(self, node):
        """A scalar costs one node however often it is reached, so it needs no memo."""
        self._add(1, node)
        tag = node.tag
        if tag == STR_TAG:              # what the constructor would return, without its overhead
            value = node.value
            return self.shared.setdefault(value, value) if len(value) <= SHARED_CHARS else value
        if tag not in PLAIN_TAGS:
            raise yaml.constructor.ConstructorError(
                None, None, f"tag {tag} is not allowed", node.start_mark)
        try:
            value = self.loader.construct_object(node, deep=True)
            self.loader.constructed_objects.pop(node, None)     # else it keeps every int's node
            return value
        except ValueError:               # e.g. an integer of more than 4,300 digits
            raise yaml.constructor.ConstructorError(
                None, None, f"'{node.value[:20]}...' ({len(node.value):,} characters) cannot be read as a value", node.start_mark) from None

    def _add(self, size: int, node) -> None:
        self.count += size
        if self.count > self.max_nodes:
            raise _TooLarge(node)

    def _sequence(self, node):
        value = SrcList()
        value.mark = node_mark(self.file, node)
        value.item_marks = [node_mark(self.file, n) for n in node.value]
        value.extend(self.build(n) for n in node.value)
        return value

    def _mapping(self, node):
        out = SrcDict()
        file = self.file
        out.mark, out.key_marks, out.value_marks = node_mark(file, node), {}, {}
        key_marks, value_marks = out.key_marks, out.value_marks
        merges = sum(1 for k, _ in node.value if k.tag in FLATTEN_TAGS)
        merged, from_merge = (), set()      # key nodes a merge (<<) brought in; keys set by them
        if merges:
            self.merges += merges
            if self.merges > MAX_MERGES:
                raise _TooManyMerges(node)
            self._add(sum(len(v.value) for k, v in node.value if k.tag in FLATTEN_TAGS
                          and isinstance(v, yaml.MappingNode)), node)   # what the merge copies
            own = sum(1 for k, _ in node.value if k.tag != "tag:yaml.org,2002:merge")
            self.loader.flatten_mapping(node)   # resolves YAML merge keys (<<) and '=' keys
            merged = {id(k) for k, _ in node.value[:len(node.value) - own]}
        for key_node, value_node in node.value:
            key = self.build(key_node)
            mark = node_mark(file, key_node)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                self.reporter.error(mark, "a key must be a plain word", "write the key as text")
                continue
            # a merged value gives way to a later merge and to the mapping's own key
            if key in out and not (merges and (id(key_node) in merged or key in from_merge)):
                first = key_marks[key]
                self.reporter.error(mark, f"duplicate key '{key}' (first at line {first.line})",
                                    "remove one of the two, YAML keeps only the last")
                continue
            key_marks[key] = mark
            value_marks[key] = node_mark(file, value_node)
            out[key] = self.build(value_node)
            if merges:
                if id(key_node) in merged:
                    from_merge.add(key)
                else:
                    from_merge.discard(key)
        return out


class _NeedsNodes(Exception):
    """The file uses what only the node tree handles (an anchor, alias, merge key, tag, several
    documents, a key that is not a plain word): it is composed instead."""


class _Streamed(_Builder):
    """Parser events -> data, for the files nearly every pack has (no anchors, aliases, merge
    keys or tags): the same data and the same problems as _Builder, without composing the file's
    whole node tree first (about 7 KB a card of a deck, all held at once: 350 MB at 50,000 cards).
    Anything else raises _NeedsNodes before a problem is told, and the file is composed."""

    def __init__(self, file: str, loader, max_nodes: int):
        super().__init__(file, loader, Reporter(), max_nodes)
        self.told: list[tuple[Mark, str, str]] = []        # told only when the stream was enough
        self.plain: dict = {}                               # a short plain scalar's value, by its text
        resolvers = loader.yaml_implicit_resolvers
        if None in resolvers or loader.yaml_path_resolvers:   # a type found other than by the first character
            raise _NeedsNodes
        self.typed_starts = frozenset(start for start, found in resolvers.items() if found)

    def run(self):
        get = self.loader.get_event
        get()                                               # the stream's start
        if not isinstance(get(), yaml.DocumentStartEvent):  # no document at all
            raise _NeedsNodes
        value = self._value(get())
        get()                                               # the document's end
        if not isinstance(self.loader.peek_event(), yaml.StreamEndEvent):
            raise _NeedsNodes                               # a second document
        return value

    def _add(self, size: int, node) -> None:
        self.count += size
        if self.count > self.max_nodes:
            raise _NeedsNodes

    def _mark(self, event) -> Mark:
        at = event.start_mark
        return _tuple_new(Mark, (self.file, at.line + 1, at.column + 1))

    def _value(self, event):
        kind = type(event)
        if kind is yaml.AliasEvent or event.anchor is not None or event.tag not in _EVENT_TAGS:
            raise _NeedsNodes
        if kind is _ScalarEvent:
            return self._scalar_event(event)
        self._add(1, None)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _NeedsNodes
        value = self._stream_mapping(event) if kind is yaml.MappingStartEvent else self._stream_sequence(event)
        self.depth -= 1
        return value

    def _scalar_event(self, event):
        """What _scalar makes of the event's node, without making the node: a quoted scalar
        (implicit[0] false) is a string, and so is a plain one whose first character starts no
        implicit type (how Resolver.resolve finds its candidates); another plain one is resolved
        and built once per text (a deck writes the same numbers and words on every card)."""
        text = event.value
        self.count += 1
        if self.count > self.max_nodes:
            raise _NeedsNodes
        if not event.implicit[0] or text[:1] not in self.typed_starts:
            return self.shared.setdefault(text, text) if len(text) <= SHARED_CHARS else text
        value = self.plain.get(text, _UNSEEN)
        return self._plain_value(event) if value is _UNSEEN else value

    def _plain_value(self, event):
        """A plain scalar's value as _scalar gives it (already counted); a short one remembered
        by its text: resolving depends on the text alone, and every value it gives (text,
        number, yes/no, null, date) is immutable, so one object serves each time it is written."""
        text = event.value
        tag = self.loader.resolve(yaml.ScalarNode, text, event.implicit)
        if tag in FLATTEN_TAGS:         # a merge key ('<<') or '=': the node tree handles them
            raise _NeedsNodes
        if tag == STR_TAG:
            value = self.shared.setdefault(text, text) if len(text) <= SHARED_CHARS else text
        else:
            self.count -= 1             # _scalar counts it again
            value = self._scalar(yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, event.style))
        if len(text) <= SHARED_CHARS and len(self.plain) < PLAIN_MEMO:
            self.plain[text] = value
        return value

    def _stream_sequence(self, start):
        out = SrcList()
        out.mark, out.item_marks = self._mark(start), []
        get, scalar, value_of, file = self.loader.get_event, self._scalar_event, self._value, self.file
        item_marks, append = out.item_marks, out.append
        event = get()
        while type(event) is not _SequenceEndEvent:
            at = event.start_mark
            item_marks.append(_tuple_new(Mark, (file, at.line + 1, at.column + 1)))
            # an untagged scalar without anchor read at once; anything else through _value
            append(scalar(event) if type(event) is _ScalarEvent and event.tag is None and event.anchor is None
                   else value_of(event))
            event = get()
        return out

    def _stream_mapping(self, start):
        out = StreamedDict()
        out.mark, out.file, out.spots = self._mark(start), self.file, {}
        spots, get, scalar, value_of = out.spots, self.loader.get_event, self._scalar_event, self._value
        event = get()
        while type(event) is not _MappingEndEvent:
            if type(event) is not _ScalarEvent or event.tag not in _EVENT_TAGS or event.anchor is not None:
                raise _NeedsNodes
            key = scalar(event)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise _NeedsNodes
            value_event = get()
            if key in out:
                if type(value_event) is not _ScalarEvent:  # its own problems are not told: composed
                    raise _NeedsNodes
                self.told.append((self._mark(event), f"duplicate key '{key}' (first at line {out.key_mark(key).line})",
                                  "remove one of the two, YAML keeps only the last"))
            else:
                at, to = event.start_mark, value_event.start_mark
                spots[key] = (at.line << _KEY_LINE | at.column << _KEY_COL | to.line << _SPOT | to.column) + _SPOT_ONES
                out[key] = (scalar(value_event) if type(value_event) is _ScalarEvent and value_event.tag is None
                            and value_event.anchor is None else value_of(value_event))
            event = get()
        return out


def _streamed(text: str, file: str, reporter: Reporter, max_nodes: int):
    """(True, data) when the file could be read from its events alone, else (False, None)."""
    if len(text) > _SPOT_MASK:         # a line or column past what a spot holds
        return False, None
    loader = SAFE_LOADER(text)
    try:
        value = (streamed := _Streamed(file, loader, max_nodes)).run()
    except (_NeedsNodes, yaml.constructor.ConstructorError):   # composing finds the same, in its order
        return False, None
    finally:
        loader.dispose()
    for mark, message, hint in streamed.told:
        reporter.error(mark, message, hint)
    return True, value


class _TooLarge(Exception):
    def __init__(self, node):
        self.node = node


def first_bracket_past(text: str, limit: int) -> int | None:
    """Offset of the first [ or { that opens past `limit` levels of brackets, else None; linear,
    one step per bracket (YAML flow collections and JSON alike; brackets in quotes count too)."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > limit:
            return match.start()
    return None


def _may_nest_deep(text: str) -> bool:
    """A quick over-estimate of whether the text nests past MAX_DEPTH."""
    return bool(_COMPACT_NESTING.search(text)) or first_bracket_past(text, MAX_DEPTH) is not None


class _TooDeep(_TooLarge):
    pass


class _TooManyMerges(_TooLarge):
    pass


def _too_deep(text: str, loader_class):
    """The start mark of the first collection nested deeper than MAX_DEPTH, found by walking
    parser events (iterative, no recursion); None when the nesting is within bounds. Run only
    on files with enough openers to nest that deep."""
    if not _may_nest_deep(text):
        return None
    loader, depth = loader_class(text), 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    return event.start_mark
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        if _LIBYAML_TOO_DEEP in (exc.problem or "") and loader_class is not yaml.SafeLoader:
            return _too_deep(text, yaml.SafeLoader)
        return None               # the composer reports the syntax error with its place
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return None


# libyaml 0.2.5 as bundled since PyYAML 6.0.2 refuses flow nesting past its own limit while it
# scans ahead for simple keys, before the parser gives the events that MAX_DEPTH counts; the
# pure-Python parser, which has no such limit, then finds the same place as on older PyYAML.
_LIBYAML_TOO_DEEP = "maximum nesting depth"


@contextlib.contextmanager
def paused_gc():
    """Python's cycle collector paused while a manifest becomes data (usable as a decorator).

    Loading allocates hundreds of thousands of small objects and no cycles; left on, the
    collector walks the growing heap again and again and takes two thirds of the time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@paused_gc()
def load_yaml(path: Path, reporter: Reporter):
    """Load one YAML file; return its data (SrcDict/SrcList/scalars) or None after reporting."""
    file = display_path(path)
    top = Mark(file, 1, 1)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            reporter.error(top, f"file is {size // (1024 * 1024)} MB, over the {MAX_FILE_BYTES // (1024 * 1024)} MB limit for a manifest",
                           "split it into several files")
            return None
        raw = path.read_bytes()
    except OSError as exc:
        reporter.error(top, f"cannot read file: {exc.strerror}", "check the path and its permissions")
        return None
    try:
        text = raw.decode("utf-8-sig")   # a BOM is accepted and dropped
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        reporter.error(Mark(file, line, 1), "file is not UTF-8 text", "save it as UTF-8 in your editor")
        return None
    return load_text(text, file, reporter)


@paused_gc()
def load_text(text: str, file: str, reporter: Reporter, max_nodes: int = MAX_NODES, what: str = "file"):
    """YAML text -> its data (SrcDict/SrcList/scalars), or None after reporting; `file` names
    it in marks, `what` in messages; at most `max_nodes` values once aliases are expanded."""
    top = Mark(file, 1, 1)
    if not text.strip():
        reporter.error(top, f"{what} is empty", "add the manifest's keys, see docs/manifests.md")
        return None
    try:                    # events only: never past MAX_DEPTH, so no recursion in C to fear
        done, value = _streamed(text, file, reporter, max_nodes)
        if done:
            return value
    except yaml.YAMLError:
        pass                # composed below, which tells it as it always has
    deep = _too_deep(text, SAFE_LOADER)     # before libyaml's composer recurses (a 2.7 MB deck: 18 ms)
    if deep is not None:
        reporter.error(Mark(file, deep.line + 1, deep.column + 1), _DEEP_MESSAGE, _DEEP_HINT)
        return None
    loader = SAFE_LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            reporter.error(top, f"{what} holds no data (only comments)", "add the manifest's keys, see docs/manifests.md")
            return None
        return _Builder(file, loader, reporter, max_nodes).build(node)
    except _TooDeep as exc:
        reporter.error(node_mark(file, exc.node), _DEEP_MESSAGE, _DEEP_HINT)
    except _TooManyMerges as exc:
        reporter.error(node_mark(file, exc.node), f"more than {MAX_MERGES:,} merge keys (<<) in one {what}",
                       "write the shared values out, or use fewer merges")
    except _TooLarge as exc:
        reporter.error(node_mark(file, exc.node), f"{what} expands to more than {max_nodes:,} values (aliases?)",
                       "do not nest YAML aliases; write the data out")
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Mark(file, mark.line + 1, mark.column + 1) if mark else top
        problem = (exc.problem or "invalid YAML").replace("\t", "\\t")
        quote = _unclosed_quote(text, exc)
        if quote is not None:
            reporter.error(Mark(file, quote.line + 1, quote.column + 1), *_unclosed_words(quote, where, exc, text, what))
            return None
        lines = text.splitlines()
        line_text = lines[where.line - 1] if 0 < where.line <= len(lines) else ""
        hint = ("indent with spaces, not tabs" if "\t" in line_text[: len(line_text) - len(line_text.lstrip())]
                else _syntax_hint(problem))
        reporter.error(where, f"YAML syntax: {problem}", hint)
    except yaml.YAMLError as exc:
        reporter.error(top, f"YAML error: {exc}", "check the file's syntax")
    finally:
        loader.dispose()
    return None


def plain(value):
    """Located data as plain dicts and lists (for values that came from somewhere with no lines)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


_DEEP_MESSAGE = f"lists and mappings nested more than {MAX_DEPTH} deep"
_DEEP_HINT = "flatten the data; no manifest needs such nesting"


def _unclosed_quote(text: str, exc: yaml.MarkedYAMLError):
    """The opening quote to blame for a syntax error, or None. A quote not closed on its line
    makes YAML read on, as one text, to the next quote of its kind, and report the trouble far
    below it (9:3 for a quote opened on line 4). Blamed: a quote that reaches the end of the
    file, or the last text in quotes spanning lines that ends on the error's line or the one
    before (a long text in quotes written over lines on purpose ends nowhere near an error)."""
    if exc.context == "while scanning a quoted scalar" and exc.context_mark is not None:
        return exc.context_mark
    problem = exc.problem_mark
    if problem is None:
        return None
    last = None
    try:
        for token in yaml.scan(text, Loader=SAFE_LOADER):       # linear; stops at the error
            if (token.start_mark.line, token.start_mark.column) >= (problem.line, problem.column):
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"') \
                    and token.end_mark.line > token.start_mark.line:
                last = token
    except yaml.YAMLError:
        pass
    return last.start_mark if last is not None and last.end_mark.line >= problem.line - 1 else None


def _unclosed_words(quote, gave_up: Mark, exc, text: str, what: str) -> tuple[str, str]:
    """(message, hint) for a quote not closed on its line, said at the quote (in a file; a
    spreadsheet cell, a line of its own, just says so)."""
    lines = text.splitlines()
    char = lines[quote.line][quote.column] if quote.line < len(lines) else '"'
    inside = "written twice ('')" if char == "'" else 'written \\"'
    hint = f"close it (a {char} inside the text is {inside})"
    if what != "file":
        return f"YAML syntax: the quote {char} is not closed", hint
    end = "the end of the file" if "end of stream" in (exc.problem or "") else f"{gave_up.line}:{gave_up.col}"
    return (f"YAML syntax: the quote {char} opened here is not closed on its line, so YAML read on "
            f"as one text and gave up at {end}", hint.replace("close it", "close it on this line"))


def _syntax_hint(problem: str) -> str:
    if "cannot be read as a value" in problem:
        return "write a shorter number, or quote it to make it text"
    if "\\t" in problem or "tab" in problem:
        return "indent with spaces, not tabs"
    if "tag" in problem:
        return "only plain data is allowed: remove the !tag"
    return "check indentation, colons and quotes near this position"

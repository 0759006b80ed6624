"""Manifests read from the parser's events (no node tree) give exactly what composing gives:
the same data, the same file:line:col of every key and value, the same problems."""
from __future__ import annotations

import pytest
import yaml

from generator import yamlsrc
from generator.errors import Reporter


def located(value):
    """Data with every mark it carries, to compare two loads in full."""
    if isinstance(value, dict):
        return ("map", value.mark, dict(value.key_marks), dict(value.value_marks),
                [(k, located(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", value.mark, list(value.item_marks), [located(v) for v in value])
    return (type(value).__name__, value)


def load(text: str, composed: bool, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        if composed:
            patch.setattr(yamlsrc, "_streamed", lambda *args: (False, None))
        reporter = Reporter()
        value = yamlsrc.load_text(text, "pack.yaml", reporter)
    return located(value), [str(p) for p in reporter.problems]


CASES = {
    "a deck": "groups:\n- id: deck\n  items:\n  - {id: a, cost: 3, body: 'Gain 2.'}\n  - id: b\n    cost: 0x1F\n",
    "scalars of every kind": "- 1\n- 2.5\n- yes\n- null\n- 2020-01-01\n- '3'\n- .inf\n- 1_000\n- ''\n",
    "a duplicate key": "a: 1\nb: 2\na: 3\n",
    "a duplicate key holding a mapping": "a: 1\na: {b: 1, b: 2}\n",
    "an anchor and alias": "a: &x {k: 1}\nb: *x\n",
    "a merge key": "base: &b {k: 1}\nc:\n  <<: *b\n  k: 2\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "a tag": "a: !!str 5\n",
    "an unknown tag": "a: !foo 5\n",
    "a list as a key": "? [1, 2]\n: 3\n",
    "a null key": "~: 1\n",
    "a syntax error after a duplicate": "a: 1\na: 2\nb: [\n",
    "an integer too long after a duplicate": "a: 1\na: 2\nc: " + "9" * 5000 + "\n",
    "only a comment": "# nothing\n",
    "nested too deep": "x: " + "[" * 70 + "]" * 70 + "\n",
    "quoted and plain keys and values that look like other types": (
        "'yes': \"1\"\nno: '2020-01-01'\n\"null\": ~\n1: one\n'1': two\n0x10: \"0x10\"\ntrue: 'true'\n"),
    "a bare '=' value and key": "a: =\n'=': 2\n",
    "a merge key written as a value": "a: <<\n",
    "a shared short text and a long one": "a: ok\nb: ok\nc: " + "long " * 10 + "\nd: " + "long " * 10 + "\n",
    "compact nesting past the limit": "- " * 70 + "x\n",
    "plain scalars written again, and quoted like them": (
        "- [yes, Yes, 'yes', yes]\n- [1, '1', 1, 0x1F, 0x1F, 1.5, 1.5, '1.5']\n- [Tower, tower, Tower, 'Tower', Card, Card]\n"
        "- [~, ~, '~', null, '', 'null']\n- [2020-01-01, 2020-01-01, '2020-01-01']\n- {a: 1, b: a, '1': 1, 'a': b}\n"
        "- [-1, -1, -x, -x, .5, .5, .x, +1, +1, =x, <x, o, on, off, n, no, no]\n"),
    "a plain value that is a bad date, twice": "a: 2020-02-30\nb: 2020-02-30\n",
}


@pytest.mark.parametrize("name", CASES)
def test_streamed_and_composed_loads_are_the_same(name, monkeypatch):
    text = CASES[name]
    assert load(text, False, monkeypatch) == load(text, True, monkeypatch)


def test_a_plain_deck_is_never_composed(monkeypatch):
    """The node tree of a deck is what made loading 50,000 cards peak at 400 MB."""
    class NoNodes(yamlsrc.SAFE_LOADER):
        def get_single_node(self):
            raise AssertionError("composed")
    monkeypatch.setattr(yamlsrc, "SAFE_LOADER", NoNodes)
    reporter = Reporter()
    data = yamlsrc.load_text(CASES["a deck"], "pack.yaml", reporter)
    assert data["groups"][0]["items"][1]["cost"] == 31
    assert data["groups"][0]["items"][1].value_mark("cost").line == 6
    assert not reporter.problems


def test_what_only_the_node_tree_handles_is_composed(monkeypatch):
    composed = []

    class Counting(yamlsrc.SAFE_LOADER):
        def get_single_node(self):
            composed.append(True)
            return super().get_single_node()
    monkeypatch.setattr(yamlsrc, "SAFE_LOADER", Counting)
    data = yamlsrc.load_text(CASES["a merge key"], "pack.yaml", Reporter())
    assert composed and data["c"]["k"] == 2


def test_loaded_ints_do_not_keep_their_nodes():
    """construct_object remembers every node it built: for a deck, one per number."""
    loader = yamlsrc.SAFE_LOADER("a: 1")
    builder = yamlsrc._Builder("f", loader, Reporter())
    assert builder.build(yaml.ScalarNode("tag:yaml.org,2002:int", "7")) == 7
    assert not loader.constructed_objects
    loader.dispose()


def test_the_compact_nesting_pattern_finds_what_the_plain_one_would():
    """_COMPACT_NESTING is (?:[-?:][ \\t]+){N} written to start with a character class."""
    import random
    import re
    rng = random.Random(7)
    for depth in (1, 2, 3, 5):
        plain = re.compile(r"(?:[-?:][ \t]+){%d}" % depth)
        fast = re.compile(r"[-?:](?:[ \t]+[-?:]){%d}[ \t]+" % (depth - 1))
        for _ in range(500):
            text = "".join(rng.choice("-?: \tab\n") for _ in range(rng.randint(0, 120)))
            a, b = plain.search(text), fast.search(text)
            assert (a and a.span()) == (b and b.span()), (text, depth)
    assert yamlsrc._COMPACT_NESTING.pattern == r"[-?:](?:[ \t]+[-?:]){%d}[ \t]+" % (yamlsrc.MAX_DEPTH - 1)


def test_a_plain_scalar_is_resolved_once_per_text_and_a_bounded_number_of_texts(monkeypatch):
    """The resolver runs once per short plain text starting like a typed value; a text starting
    otherwise (a word) is a string without it, as Resolver.resolve itself would find."""
    resolved = []

    class Counting(yamlsrc.SAFE_LOADER):
        def resolve(self, kind, value, implicit):
            resolved.append(value)
            return super().resolve(kind, value, implicit)
    monkeypatch.setattr(yamlsrc, "SAFE_LOADER", Counting)
    monkeypatch.setattr(yamlsrc, "PLAIN_MEMO", 3)
    data = yamlsrc.load_text("[1, 1, 2, yes, Card, Card, 1, 2, yes, 7, 7]\n", "f", Reporter())
    assert data == [1, 1, 2, True, "Card", "Card", 1, 2, True, 7, 7]
    assert resolved == ["1", "2", "yes", "7", "7"]     # 7 comes after the memo is full

"""A handout paragraph's markup -> its words as reportlab sets them (each with the face it is
set in), and the same markup with soft hyphens in the words too wide for their table column."""
from __future__ import annotations

import re
from xml.sax.saxutils import escape, unescape

_TAG = re.compile(r"(<[^>]*>)")


def markup_words(markup: str, font: str) -> list[tuple[str, str]]:
    """(word, font) for each word of a paragraph's markup, entities read back to characters;
    <b> and <i> pick the bold and italic faces (bold wins, as the font family does)."""
    words, depth = [], {"b": 0, "i": 0}
    for part in _TAG.split(markup):
        tag = re.fullmatch(r"<(/?)([bi])>", part)
        if tag:
            depth[tag.group(2)] += -1 if tag.group(1) else 1
        elif not part.startswith("<"):
            face = "Sans-Bold" if depth["b"] or font == "Sans-Bold" else "Sans-Italic" if depth["i"] else font
            words += [(word, face) for word in unescape(part).split()]
    return words


def hyphenable(markup: str, words: set[str]) -> str:
    """The markup with a soft hyphen between the characters of each word in `words` (never
    leaving one letter alone: two at least each side): the paragraph breaks such a word where
    the line is full and prints a hyphen there."""
    def soft(word: str) -> str:
        return "\u00ad".join([word[:2], *word[2:-2], word[-2:]]) if len(word) > 4 else word

    def soften(text: str) -> str:
        return " ".join(escape(soft(w)) if w in words else escape(w) for w in unescape(text).split(" "))
    return "".join(part if part.startswith("<") else soften(part) for part in _TAG.split(markup))

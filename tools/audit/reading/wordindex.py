"""Which blocks of a write-up hold a literal string, looked up through one index of its words.

``Document.hits`` reads a pattern only in the blocks that hold one of its required literals, and an
audit asks for about a thousand literals: one search of the whole text per literal was a pass over a
megabyte per literal. Here the text is split into words once (word -> blocks holding it). A literal made
of word characters lies inside one word wherever it occurs, so the blocks holding it are those of the
vocabulary words that contain it (a search in the vocabulary, not in the text). A literal with other
characters (``--max-num-seqs``, ``llama.cpp``) is looked up by its word pieces, and each block holding
all of them is then checked for the whole literal. A one-character piece (the ``r`` of ``command-r``) is in
most words, so it is not looked up: the blocks are checked for the whole literal instead, which costs less than
gathering nearly every block from the vocabulary. The answer is the same as a search of every block.
"""

from __future__ import annotations

import re

__all__ = ["WordIndex"]

_WORD = re.compile(r"\w\w*")  # (as \w+; led by a class, which re skips to in C)
_SHORT = 2
"""Word pieces shorter than this are not looked up in the vocabulary (see the module docstring)."""


class WordIndex:
    """Blocks (by index) whose text holds a literal, for texts already lower-cased as the literals are."""

    def __init__(self, texts: list[str]):
        self._texts = texts
        blocks: dict[str, list[int]] = {}
        holding = blocks.get
        for i, text in enumerate(texts):
            for word in set(_WORD.findall(text)):
                found = holding(word)
                if found is None:
                    blocks[word] = [i]  # (not setdefault: it would build a list for every word of every block)
                else:
                    found.append(i)
        self._blocks = blocks
        self._vocab = "\n" + "\n".join(blocks) + "\n"
        self._pieces: dict[str, set[int]] = {}
        self._found: dict[str, list[int]] = {}
        self._held: dict[str, bool] = {}

    def _piece(self, piece: str) -> set[int]:
        """Blocks holding ``piece`` (word characters only) anywhere inside a word."""
        found = self._pieces.get(piece)
        if found is None:
            found, vocab = set(), self._vocab
            pos = vocab.find(piece)
            while pos >= 0:
                start, end = vocab.rfind("\n", 0, pos) + 1, vocab.find("\n", pos)
                found.update(self._blocks[vocab[start:end]])
                pos = vocab.find(piece, end)
            self._pieces[piece] = found
        return found

    def may_hold(self, literal: str) -> bool:
        """False when no text can hold ``literal``, nor any join of the texts (whatever the separator): one of its
        word pieces is inside no word (a piece of an occurrence lies inside one word of the text, or, where the
        occurrence runs over a join, at the end or start of one). True says only that each piece is in some word.
        One search of the vocabulary per piece, kept: no look at the texts."""
        held = self._held.get(literal)
        if held is None:
            held = self._held[literal] = all(piece in self._vocab for piece in _WORD.findall(literal))
        return held

    def blocks_with(self, literal: str) -> list[int]:
        """Indices of the blocks holding ``literal``, in document order (kept per literal)."""
        found = self._found.get(literal)
        if found is None:
            pieces = [p for p in _WORD.findall(literal) if len(p) >= _SHORT]
            if not pieces:  # no word piece worth a look-up ('--', '-n'): every block is searched
                found = [i for i, text in enumerate(self._texts) if literal in text]
            elif pieces == [literal]:
                found = sorted(self._piece(literal))
            else:
                held = set.intersection(*(self._piece(p) for p in pieces))
                found = sorted(i for i in held if literal in self._texts[i])
            self._found[literal] = found
        return found

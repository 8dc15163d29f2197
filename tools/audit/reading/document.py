"""A parsed write-up with the look-ups every reader needs: matches, lines, sentences, quotes.

``Document`` wraps the blocks of a ``Writeup`` (``blocks``) in scanned copies (markup and JSON
quotes blanked, over-long runs cut, ASCII lower-cased) and answers pattern queries with block
index and match, computed once per pattern. Line and sentence boundaries are found by bisection
in offsets computed once per block, so the cost per match does not grow with the block's length.
"""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left, bisect_right

from .blocks import Writeup, quote_line
from .claims import Claim, table_claims
from .commands import Command, Flag, parse_commands
from .firstchars import guarded
from .found import Spot, _Memo, _Shifted
from .holding import holding, optional
from .tables import Table, read_tables
from .vocabulary import GPU, GPU_NAMES, GPU_VENDOR
from .wordindex import WordIndex
from .masks import blank, mask_block
from .runs import cut_runs
from .scope import RUN_SCOPES, classify_blocks, scope_views, sentence_masks
from .starts import Starts, match_starts, matches, narrowed

__all__ = ["MAX_HITS", "MAX_SCAN", "SENTENCE_REACH", "Document", "Spot"]

MAX_HITS = 2000
"""Matches kept per pattern (see ``Document.hits``)."""
MAX_SCAN = 256_000
"""Characters of candidate blocks a pattern reads (see ``Document.hits``). Blocks are candidates for a pattern
only when they hold one of its literals, so a rare statement is found anywhere; a pattern built on common words
reads the first quarter megabyte of the blocks that hold them."""

# A line break inside a prose paragraph is a soft wrap, not a sentence stop (_PROSE_STOPS), when the line does not end with a
# colon and the next continues in lower case without starting a "key: value" record, or when it follows a Chinese clause comma.
_MARKUP = re.compile(r"[*`]")  # (the marks Document blanks in the scanned copies)
# Inline code: a backtick not after another, 3-2000 characters, a backtick not before another. Written backtick-first
# ('`' then a look-behind that the character before it is no backtick either) so that re skips to backticks in C; as
# "(?<!`)`..." it tried the look-behind at every position of every prose block. The same matches, spans and group.
_INLINE_CODE = re.compile(r"`(?<!``)([^`\n]{3,2000})`(?!`)")
_SOFT_WRAP = re.compile(r"(?<![:])\n(?=[ \t]*[a-z0-9(`'\"])(?![ \t]*[\w -]{1,30}:\s)|(?<=[，、])\n")
# a period glued to the next word ("llama.cpp", "vllm.entrypoints") ends no sentence
_STOPS = re.compile(r"(?<!\d)\.(?![\dA-Za-z_])|[!?;\n|。！？；]")
_PROSE_STOPS = re.compile(r"(?<!\d)\.(?![\dA-Za-z_])|[!?;|。！？；]|(?!" + _SOFT_WRAP.pattern + r")\n")
# Every stop is one character: the same matches are found behind a class of the stop characters, which ``re`` skips
# to in C, with the stop's own conditions checked where one stands (``_one_character``); not tried at every position.
_STOP_CHARS = "[.!?;|。！？；\n]"


def _one_character(rx: re.Pattern[str]) -> re.Pattern[str]:
    """``rx``, whose every match is one character of ``_STOP_CHARS``, as a pattern led by that class: it matches the
    character at p exactly when ``rx`` matches at p (the look-ahead sees the whole text), so finditer gives the same
    one-character matches in the same order."""
    return re.compile(_STOP_CHARS + r"(?<=(?=" + rx.pattern + r")[\s\S])", rx.flags)


_STOPS, _PROSE_STOPS = _one_character(_STOPS), _one_character(_PROSE_STOPS)
SENTENCE_REACH = 300
# A block longer than MAX_SCAN (a megabyte on one line) is read only up to MAX_SCAN characters, and a match
# ending this close to the cut is dropped: it might have read on past it.
_CUT_MARGIN = 2 * SENTENCE_REACH


# JSON/YAML configs in code blocks quote keys and list items ('"num_prompts": 1000', '["--kv-cache-dtype", "fp8"]'):
# blanking the quotes (and a comma right after one) lets the same key/flag patterns read them as 'num_prompts: 1000'.
_JSON_QUOTE = re.compile(r'",?')


def _unquote(text: str) -> str:
    return _JSON_QUOTE.sub(lambda m: " " * len(m.group(0)), text)


# The words beside the accelerator names that make a block a candidate for the accelerator patterns (``_gpu_blocks``).
_GPU_WORDS = ("gpu", "accelerator", "device", "card", "chip", "npu")

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """``text`` with A-Z lower-cased and every other character kept. An ASCII text is lower-cased by ``str.lower``
    (which changes exactly A-Z there, in C, far faster than a translation table); other text is translated."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def _required(items) -> tuple[str, ...] | None:
    """Literal strings one of which every match of the parsed sequence ``items`` must contain (or None)."""
    from re import _constants as c

    candidates: list[tuple[str, ...]] = []
    run: list[str] = []
    for op, av in list(items) + [(None, None)]:
        if op is c.LITERAL:
            run.append(chr(av).lower() if av < 128 else chr(av))
            continue
        if run:
            candidates.append(("".join(run),))
            run = []
        found = None
        if op is c.SUBPATTERN:
            found = _required(av[3])
        elif op is c.ATOMIC_GROUP:
            found = _required(av)
        elif op is c.BRANCH:
            alternatives = [_required(x) for x in av[1]]
            if all(alternatives):
                found = tuple(sorted({lit for alt in alternatives for lit in alt}))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            found = _required(av[2])
        if found:
            candidates.append(found)
    if not candidates:
        return None
    return max(candidates, key=lambda lits: (min(map(len, lits)), -len(lits)))


@functools.cache
def _lowered(pattern: str, flags: int) -> re.Pattern[str]:
    """A case-insensitive pattern as a case-sensitive one for ASCII-lower-cased text (about twice as fast).

    Letters are lower-cased except right after a backslash, so escapes (\\S, \\W, \\D, \\B) keep their meaning.
    """
    out, k = [], 0
    while k < len(pattern):
        if pattern[k] == "\\":
            out.append(pattern[k:k + 2])
            k += 2
        else:
            out.append(pattern[k].translate(_ASCII_LOWER))
            k += 1
    return re.compile("".join(out), flags & ~re.IGNORECASE)


@functools.cache
def _anchors(pattern: str, flags: int) -> tuple[str, ...] | None:
    """Lower-case literals of which every match must contain one, when each is at least 2 characters long (or one
    non-ASCII character: a Chinese or Japanese word such as 比 or 倍 is one character). A block that contains none
    of them cannot match, so the (slow, case-insensitive) regex scan is skipped for it; the check is a plain
    substring test. Patterns without such literals are scanned everywhere.
    """
    from re import _parser

    try:
        found = _required(_parser.parse(pattern, flags))
    except Exception:  # noqa: BLE001 - an unparseable pattern just gets no prefilter
        return None
    return found if found and all(len(lit) >= 2 or not lit.isascii() for lit in found) else None


# Joins blocks for one regex call: a newline, a character no pattern matches as text, a newline.
_JOIN = "\n\x1e\n"


class Document:
    """A write-up with pattern helpers that return quoted evidence.

    Line and sentence boundaries are looked up by bisection in offsets computed once per block, so the
    cost per match does not grow with the block's length (a 1 MB single-line input stays linear).
    """

    def __init__(self, writeup: Writeup):
        self.w = writeup
        # Over-long runs are cut first, so that no pattern (scope, sentences, items) can backtrack over them.
        # (emphasis and code marks blanked one for one: the same text as _MARKUP.sub(" ", ...), without a regex call)
        masked = [cut_runs(mask_block(b.text, b.kind).replace("*", " ").replace("`", " ")) for b in writeup.blocks]
        self.scopes = classify_blocks(writeup.blocks, masked, table_figures=any(c.metric for c in self.claims))
        """Scope of each block (reading.scope): only 'run' blocks declare anything."""
        for i, b in enumerate(writeup.blocks):
            if b.kind in ("paragraph", "list_item", "quote"):
                for start, end in sentence_masks(masked[i]):
                    masked[i] = blank(masked[i], start, end)
        self.plains = [_unquote(p) if b.kind == "code" else _label_column(p) if b.kind == "table" else p
                       for b, p in zip(writeup.blocks, masked)]
        self._run = [s in RUN_SCOPES for s in self.scopes]
        self._views = scope_views(writeup.blocks, self.scopes, self.plains)
        self.default_scope = "run"
        """The view ``hits`` reads when none is given: 'run' for declarations, 'claims' for the metric rules."""
        self.lowers = [ascii_lower(p) for p in self.plains]
        self.all_text = "\n".join(self.plains)
        self._newlines: dict[int, list[int]] = {}
        self._stops: dict[int, tuple[list[int], list[int]]] = {}
        self._hits: dict[tuple, _Memo] = {}
        self._readables: dict[tuple, list[bool]] = {}
        self._tables_at: dict[int, list[Table]] | None = None
        self.budget_hit = False
        """Whether some pattern stopped at MAX_SCAN (the report says so)."""

    @functools.cached_property
    def _gpu_blocks(self) -> list[int]:
        """Blocks that name an accelerator or the word GPU (one scan, shared by every pattern built on the
        accelerator names: each of their matches holds one or the other). A block holding one of the words is
        found through the word index; only the others are searched for an accelerator name."""
        words = set().union(*(self._blocks_with(word) for word in _GPU_WORDS))
        # A block holds a name with its optional vendor word exactly when it holds the name (holding.optional): the
        # names alone are an alternation, whose literal starts ``holding`` finds in all the other blocks at once.
        gate = _lowered(GPU_NAMES if optional(GPU_VENDOR) else "(?:" + GPU + r")", re.IGNORECASE)
        others = [i for i in range(len(self.lowers)) if i not in words]
        named = {i for i, held in zip(others, holding(gate, [self.lowers[i] for i in others], self._words.may_hold)) if held}
        return [i for i in range(len(self.lowers)) if i in words or i in named]

    @functools.cached_property
    def tables(self) -> list[Table]:
        """Every table read as data (reading.tables): markdown, HTML, reStructuredText, printed in code."""
        return read_tables(self.w.blocks, lines=self.w.lines)

    def tables_at(self, block: int) -> list[Table]:
        """The tables read from block ``block``, in document order (looked up, not searched for among all tables)."""
        if self._tables_at is None:
            self._tables_at = {}
            for t in self.tables:
                self._tables_at.setdefault(t.block, []).append(t)
        return self._tables_at.get(block, [])

    @functools.cached_property
    def claims(self) -> list[Claim]:
        """Every numeric table cell as a claim with its metric, unit and statistic (reading.claims)."""
        return [c for t in self.tables for c in table_claims(t)]

    def in_view(self, block: int, start: int, scope: str | None = None) -> bool:
        """Whether offset ``start`` of ``block`` counts in the given view."""
        scope = scope or self.default_scope
        if scope == "any":
            return True
        spans = self._views[scope][block]
        return spans is None or any(a <= start < b for a, b in spans)

    @functools.cached_property
    def commands(self) -> list[Command]:
        """Every recognised command line in the code blocks (reading.commands), in document order."""
        units = [(i, b.text, 0) for i, b in enumerate(self.w.blocks) if b.kind == "code"]
        # a command quoted inline in prose ("Run command: `./llama-cli -m model.gguf -n 1000`")
        units += [(i, m.group(1), m.start(1)) for i, b in enumerate(self.w.blocks) if b.kind in ("paragraph", "list_item", "table")
                  for m in _INLINE_CODE.finditer(b.text) if len(m.group(1)) > 12 and " -" in m.group(1)]
        units.sort(key=lambda u: (u[0], u[2]))
        return parse_commands([(i, text) for i, text, _ in units], offsets=[off for _, _, off in units])

    def flags(self, item: str, *, roles: tuple[str, ...] | None = None, scope: str = "run") -> list[tuple[Command, Flag]]:
        """The resolved flags that state ``item`` in commands of the given roles (server, client, offline)."""
        return [(c, f) for c in self.commands if (scope == "any" or self._run[c.block]) and (roles is None or c.role in roles)
                for f in c.values(item)]

    def flag_hits(self, item: str, *, roles: tuple[str, ...] | None = None, when=None) -> list[tuple[int, Spot]]:
        """(block, span) of each flag stating ``item`` (optionally only those whose value passes ``when``)."""
        return [(c.block, Spot(f.offset, f.offset + len(f.written), f"{f.written} {f.value or ''}".strip()))
                for c, f in self.flags(item, roles=roles) if when is None or when(f.value or "")]

    def command_hits(self, roles: tuple[str, ...]) -> list[tuple[int, Spot]]:
        """(block, span) of the first word of each command of the given roles in the measured runs."""
        return [(c.block, Spot(c.start, c.start + len(c.words[0]), " ".join(c.words[:3])))
                for c in self.commands if self._run[c.block] and c.role in roles]

    def _nl(self, i: int) -> list[int]:
        if i not in self._newlines:
            self._newlines[i] = [m.start() for m in re.finditer("\n", self.plains[i])]
        return self._newlines[i]

    def line_bounds(self, i: int, start: int, end: int | None = None) -> tuple[int, int]:
        """Start and end offsets of the line(s) of block i holding [start, end)."""
        nl = self._nl(i)
        k = bisect_left(nl, start)
        a = nl[k - 1] + 1 if k else 0
        j = bisect_left(nl, start if end is None else end)
        b = nl[j] if j < len(nl) else len(self.plains[i])
        return a, b

    def line_text(self, i: int, start: int, end: int | None = None) -> str:
        """The line around a match, clipped to a few hundred characters either side (long lines stay linear)."""
        a, b = self.line_bounds(i, start, end)
        return self.plains[i][max(a, start - SENTENCE_REACH):min(b, (start if end is None else end) + SENTENCE_REACH)]

    @staticmethod
    def beside(i: int, j: int, *, following: bool = False) -> bool:
        """Whether block ``i`` is block ``j`` or a neighbour of it (with ``following``: only the block after it). A claim
        is made of a figure, or a remark is about a compared passage, when it is written beside it, not anywhere in the
        document."""
        return 0 <= i - j <= 1 if following else abs(i - j) <= 1

    def header(self, i: int) -> str:
        """First line of block i (a table's header row)."""
        nl = self._nl(i)
        return self.plains[i][:nl[0]] if nl else self.plains[i]

    def bounds(self, i: int, start: int, end: int) -> tuple[int, int]:
        """Sentence (or table cell / line) around [start, end) in block i."""
        if i not in self._stops:
            text = self.plains[i]
            prose = self.w.blocks[i].kind in ("paragraph", "list_item", "quote")
            ends = [m.end() for m in (_PROSE_STOPS if prose else _STOPS).finditer(text)]
            self._stops[i] = (ends, [e - 1 for e in ends])
        ends, starts = self._stops[i]
        k = bisect_right(ends, start) - 1
        left = ends[k] if k >= 0 else 0
        j = bisect_left(starts, end)
        right = starts[j] if j < len(starts) else len(self.plains[i])
        # A "sentence" longer than this is not prose (a megabyte without a full stop): clip it, so that per-match
        # sentence checks stay linear in the input.
        return max(left, start - SENTENCE_REACH), min(right, end + SENTENCE_REACH)

    def excerpt(self, i: int, start: int, end: int, *, before: int = 40, after: int = 40, limit: int = 120) -> str:
        """The words around [start, end) in block i, within its sentence, cut at whole words ('...' where cut)."""
        a, b = self.bounds(i, start, end)
        lo, hi = max(a, start - before), min(b, end + after)
        text = self.plains[i]
        if lo > a:  # started inside the sentence: move to the next word
            space = text.find(" ", lo, start)
            lo = space + 1 if space >= 0 else lo
        if hi < b:
            space = text.rfind(" ", end, hi)
            hi = space if space >= 0 else hi
        words = " ".join(text[lo:hi].split())
        cut = hi < b
        if len(words) > limit:
            words, cut = words[:limit].rsplit(" ", 1)[0], True
        return ("..." if lo > a else "") + words + ("..." if cut else "")

    @functools.cached_property
    def _words(self) -> WordIndex:
        """Which blocks hold a literal (reading.wordindex): one pass over the words, then look-ups."""
        return WordIndex(self.lowers)

    def _blocks_with(self, literal: str) -> list[int]:
        """Indices of the blocks whose lower-cased text holds ``literal``."""
        return self._words.blocks_with(literal)

    def _candidates(self, anchors: tuple[str, ...]) -> list[int]:
        """Blocks holding at least one anchor literal, in document order."""
        if len(anchors) == 1:
            return self._blocks_with(anchors[0])
        return sorted(set().union(*(self._blocks_with(lit) for lit in anchors)))

    def hits(self, rx: re.Pattern[str], kinds: tuple[str, ...] | None = None, *, scope: str | None = None):
        """(block index, match) for every match, in document order (computed once per pattern).

        ``scope`` picks the view: 'run' (statements about the measured runs: what declares an item),
        'claims' (also background prose: where a performance claim can be made) or 'any' (also how-to
        and other context: a definition of TPOT holds wherever it is written). Default: ``default_scope``.
        At most ``MAX_HITS`` matches are kept, and at most ``MAX_SCAN`` characters of the blocks holding the
        pattern's literals are read: a verdict is settled by the first thousands of statements, and a megabyte
        of repeated lines must not cost a scan of every repetition by every pattern.
        """
        scope = scope or self.default_scope
        key = (rx.pattern, rx.flags, kinds, scope)
        if key not in self._hits:
            anchors = _anchors(rx.pattern, rx.flags)
            if anchors:
                order = self._candidates(anchors)
            elif GPU in rx.pattern:  # every match names an accelerator: only blocks that name one
                order = self._gpu_blocks
            else:
                order = range(len(self.w.blocks))
            texts = self.plains
            if rx.flags & re.IGNORECASE:
                rx, texts = _lowered(rx.pattern, rx.flags), self.lowers
            plan = self._held(match_starts(rx.pattern, rx.flags))  # where its matches can start (the same matches, fewer tries)
            rx = guarded(rx.pattern, rx.flags) or rx  # same matches, positions that cannot start one skipped
            view = self._views[scope] if scope != "any" else None
            readable, lengths = self._readable(kinds, scope), self._lengths
            chosen, read = [], 0
            for i in order:  # the scan budget: the first MAX_SCAN characters of the candidate blocks (no further look)
                if readable[i]:
                    chosen.append(i)
                    read += lengths[i]
                    if read > MAX_SCAN:
                        self.budget_hit = True
                        break
            self._hits[key] = _Memo(self._scan(rx, texts, chosen, view, plan))
        return iter(self._hits[key])

    def _held(self, plan: Starts | None) -> Starts | None:
        """``plan`` without the literals no block holds (``WordIndex.may_hold``; starts.narrowed): the same positions
        are tried, and a literal that occurs nowhere costs no search of every chunk a pattern reads."""
        may_hold = self._words.may_hold
        return narrowed(plan, lambda lit: may_hold(ascii_lower(lit)))

    @functools.cached_property
    def _lengths(self) -> list[int]:
        """Length of each block's scanned copy (the plain and the lower-cased copy are as long)."""
        return [len(text) for text in self.plains]

    def _readable(self, kinds: tuple[str, ...] | None, scope: str) -> list[bool]:
        """Per block, whether ``hits`` reads it for these kinds in this view (kept per kinds and view)."""
        key = (kinds, scope)
        if key not in self._readables:
            view = self._views[scope] if scope != "any" else None
            self._readables[key] = [(kinds is None or b.kind in kinds) and (view is None or view[i] != [])
                                    for i, b in enumerate(self.w.blocks)]
        return self._readables[key]

    @staticmethod
    def _scan(rx: re.Pattern[str], texts: list[str], chosen: list[int], view, plan: Starts | None = None):
        """Matches of ``rx`` in the ``chosen`` blocks, at most MAX_HITS, yielded as found. Blocks are scanned joined in
        batches (one regex call per batch, not per block: a megabyte of short blocks is otherwise mostly call overhead),
        with a ``plan`` only where an alternative of ``rx`` can start (reading.starts: the same matches); a match running
        across two blocks is dropped, offsets are relative to each block, and a block is read up to MAX_SCAN characters.
        (Static: a part-read scan is kept in ``_hits``, and one holding the document would make each document a reference
        cycle, freed only by the cyclic collector, not when the audit returns.)"""
        found = 0
        for batch in (chosen[k:k + 512] for k in range(0, len(chosen), 512)):
            starts, parts, at = [], [], 0
            for i in batch:
                starts.append(at)
                parts.append(texts[i] if len(texts[i]) <= MAX_SCAN else texts[i][:MAX_SCAN])
                at += len(parts[-1]) + len(_JOIN)
            joined = _JOIN.join(parts)
            for m in (matches(rx, plan, joined) if plan else rx.finditer(joined)):
                at = m.start()
                k = bisect_right(starts, at) - 1
                base, i = starts[k], batch[k]
                if m.end() > base + len(parts[k]) - (_CUT_MARGIN if len(parts[k]) < len(texts[i]) else 0):
                    continue  # ran across a block boundary, or too near where an over-long block was cut
                spans = view[i] if view is not None else None
                if spans is None or any(a <= at - base < b for a, b in spans):  # (where it starts in its own block)
                    yield i, (_Shifted(m, base) if base else m)
                    found += 1
                    if found >= MAX_HITS:
                        return

    def ev(self, i: int, start: int) -> tuple[int, str]:
        block = self.w.blocks[i]
        nl = self._nl(i)
        k = bisect_left(nl, start)
        line = block.first_line + k
        col = start - (nl[k - 1] + 1 if k else 0)
        return line, quote_line(self.w.lines[line - 1], col)

    def sentence(self, i: int, m: re.Match[str]) -> str:
        a, b = self.bounds(i, m.start(), m.end())
        return self.plains[i][a:b]

    def window(self, i: int, m: re.Match[str], before: int = 40, after: int = 20) -> str:
        text = self.plains[i]
        return text[max(0, m.start() - before):m.end() + after]

    def first(self, rx: re.Pattern[str], kinds: tuple[str, ...] | None = None, *, scope: str | None = None):
        return next(self.hits(rx, kinds, scope=scope), None)

    def evidence(self, found, limit: int = 3) -> list[tuple[int, str]]:
        """Up to ``limit`` distinct (line, quote) pairs from the first matches (at most 64 are looked at:
        thousands of matches on one megabyte-long line would otherwise each quote that line)."""
        out: list[tuple[int, str]] = []
        for i, m in itertools.islice(found, 64):
            e = self.ev(i, m.start())
            if e not in out:
                out.append(e)
            if len(out) >= limit:
                break
        return out


_LABEL_ROW = re.compile(r"^(\s*\|[^|\n]*?\S[^|\n]*)\|", re.M)


def _label_column(table: str) -> str:
    """A table whose top-left header cell is empty keeps labels in its first column: the bar after each
    row label becomes a colon (same length, same offsets), so the row reads as 'label: value | value'."""
    if not re.match(r"\s*\|\s*\|", table):
        return table
    head, sep, body = table.partition("\n")
    return head + sep + _LABEL_ROW.sub(lambda m: m.group(1) + ":", body)

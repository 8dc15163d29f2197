"""What a reader does not read as a statement: comments, link targets, escapes, placeholders.

Each mask returns the text with the ignored spans blanked (spaces), so every line keeps its length and
line numbers stay right. Markdown escapes are dropped (``ignore\\_eos`` reads as ``ignore_eos``) and
the line is padded at its end to keep its length.

- HTML comments (``<!-- ... -->``) are not rendered, so they declare nothing.
- A URL is where a link points, not what the text says: ``[v0.6.3](.../tag/v0.6.3)`` keeps its
  link text and loses its target. A link to a model card keeps the ``org/name`` it names.
- Placeholders are never declarations: ``<commit sha>``, ``TBD``, ``TODO``, ``XXX``, "fill in", and a
  template line whose value is only a placeholder (``- Tokenizer: <...>``) is blanked whole.
"""

from __future__ import annotations

import re

from .firstchars import guard

__all__ = ["blank", "fill_in_fields", "mask_block", "shorten_runs"]

_LONG_TOKEN = re.compile(r"([^\s]{300})[^\s]+|([ \t]{200})[ \t]+")


def shorten_runs(text: str) -> str:
    """``text`` with every run of more than 300 non-blank characters (or 200 blanks) cut to that length.

    No word, number, Hub id or hash is that long; a megabyte-long "word" is noise that every pattern would
    otherwise scan position by position. Only the length of such lines changes, never their number.
    """
    if len(text) < 300:
        return text
    # A non-blank run lies inside one of text.split()'s words (the pattern's \s and str.split() blanks are the same
    # characters): with every word shorter than 300 and no tab or 200 spaces in a row, nothing is cut, and the
    # pattern need not be tried at every position of the text.
    if "\t" not in text and " " * 200 not in text and max(map(len, text.split()), default=0) < 300:
        return text
    return _LONG_TOKEN.sub(lambda m: m.group(1) or m.group(2), text)

_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
# HTML tags a write-up may use; anything else in angle brackets with words inside is a placeholder.
_TAGS = (r"a|abbr|b|big|blockquote|br|caption|center|code|col|colgroup|dd|del|details|div|dl|dt|em|figcaption|figure|font|"
         r"h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|picture|pre|q|s|samp|small|source|span|strike|strong|sub|summary|sup|"
         r"table|tbody|td|tfoot|th|thead|tr|tt|u|ul|var|video|iframe|script|style|svg|path|input|label|button|form|meta|link")
# A real tag: a known name, then nothing, name="value" attributes or a few bare boolean attributes.
_TAG = (r"</?(?:" + _TAGS + r")(?:\s+(?:[\w:-]+\s*=\s*(?:\"[^\"]{0,500}\"|'[^']{0,500}'|[^\s>]{1,500})|"
        r"open|close|controls|autoplay|muted|loop|disabled|checked|hidden|nowrap|async|defer))*\s*/?>")
_PLACEHOLDER = re.compile(r"<(?!" + _TAG[1:] + r")(?![!/?])[^<>\n]{1,200}>"
                          r"|\b(?:TBD|TBA|TODO|FIXME|XXX+)\b|\[\s*(?:fill\s+in|placeholder|your\s+[\w -]{1,30})\s*\]"
                          r"|\b(?:to\s+be\s+(?:determined|filled(?:\s+in)?|added)|fill\s+(?:this\s+)?in)\b", re.I)
_PLACEHOLDER = guard(_PLACEHOLDER)  # searched in every block: behind its first-character guard (same matches)
# A template field: a label, a colon, then nothing but placeholders and punctuation.
_FIELD = re.compile(r"^([ \t]*(?:[-*+]|\d+[.)])?[ \t]*\**[\w(][\w /()'.-]{0,59}?\**[ \t]*:)([^\n]*)$")
# An HTML tag's name and attributes are not rendered (<img src="engine-logo.svg">); its text content is.
_HTML_TAG = re.compile(_TAG, re.I)
_URL = re.compile(r"\]\(\s*<?([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)>?(?:\s+\"[^\"]*\")?\s*\)|<https?://[^>\s]+>|\bhttps?://[^\s)\]>|`'\"]+")
_HF_MODEL = re.compile(r"^(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co)/(?!datasets/|spaces/|docs/|blog/)([\w.-]+/[\w.-]+)")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


def blank(text: str, start: int, end: int) -> str:
    """``text`` with [start, end) replaced by spaces (newlines kept)."""
    piece = text[start:end]
    return text[:start] + re.sub(r"[^\n]", " ", piece) + text[end:]


def _sub_blank(rx: re.Pattern[str], text: str) -> str:
    return rx.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _unescape(text: str) -> str:
    """Drop markdown escape backslashes, padding each line at its end so every line keeps its length."""
    out = []
    for line in text.split("\n"):
        if "\\" in line:
            new = _ESCAPE.sub(r"\1", line)
            line = new + " " * (len(line) - len(new))
        out.append(line)
    return "\n".join(out)


def _blank_urls(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        whole = m.group(0)
        target = m.group(1) if m.group(1) is not None else whole.strip("<>")
        model = _HF_MODEL.match(target)
        if model:  # a link to a model card names the model: keep 'org/name', blank the rest
            keep = model.group(1)
            at = whole.find(keep)
            return " " * at + keep + " " * (len(whole) - at - len(keep))
        if whole.startswith("]"):
            return "]" + " " * (len(whole) - 1)
        return " " * len(whole)
    return _URL.sub(one, text)


def _blank_fields(text: str, spans: list[tuple[int, int]]) -> str:
    """Blank each template line holding a placeholder whose value is nothing but placeholders (``- Model: <Hub id>``)."""
    for start, _ in spans:
        a = text.rfind("\n", 0, start) + 1
        b = text.find("\n", start)
        b = len(text) if b < 0 else b
        m = _FIELD.match(text[a:b]) if b - a < 2000 else None
        if m and not re.sub(r"[\s`*_,;.()\[\]/|-]", "", m.group(2)):
            text = blank(text, a, b)
    return text


def _blank_empty_rows(text: str) -> str:
    """Blank table rows whose cells after the row label are all empty, and header cells whose column is
    empty in every row: an empty cell states nothing, so neither does the label above or beside it."""
    lines = text.split("\n")
    if len(lines) < 3:
        return text
    empty = lambda c: not c.strip(" -—–?")
    for k, line in enumerate(lines[2:], 2):
        cells = line.strip().strip("|").split("|")
        if len(cells) >= 2 and all(empty(c) for c in cells[1:]):
            lines[k] = " " * len(line)
    rows = [line.strip().strip("|").split("|") for line in lines[2:] if line.strip()]
    header = lines[0]
    bars = [m.start() for m in re.finditer(r"\|", header)]
    if header.strip().startswith("|") and len(bars) >= 2:
        for col in range(len(bars) - 1):
            if all(col >= len(r) or empty(r[col]) for r in rows):
                header = blank(header, bars[col] + 1, bars[col + 1])
        lines[0] = header
    return "\n".join(lines)


# Every placeholder holds one of these (an angle bracket, a square bracket, or a word of its wording, lower-cased).
_PLACEHOLDER_PARTS = re.compile(r"<|\[|tbd|tba|todo|fixme|xxx|determined|added|fill")


def _may_hold_placeholder(text: str) -> bool:
    """Whether ``text`` can hold a placeholder (False: it holds none, and ``_PLACEHOLDER`` need not be tried at every
    position). Only ASCII text is ruled out this way: case-insensitive matching also equates some non-ASCII letters
    with ASCII ones ('ı' with 'i'), which lower-casing does not."""
    if not text.isascii():
        return True
    return _PLACEHOLDER_PARTS.search(text.lower()) is not None


def mask_block(text: str, kind: str = "paragraph") -> str:
    """The block's text with comments, link targets, escapes and placeholders taken out."""
    if "<!--" in text:
        text = _sub_blank(_COMMENT, text)
    if "\\" in text:
        text = _unescape(text)
    if "://" in text or "](" in text:
        text = _blank_urls(text)
    spans = [m.span() for m in _PLACEHOLDER.finditer(text)] if _may_hold_placeholder(text) else []
    if spans:
        text = _sub_blank(_PLACEHOLDER, text)
        text = _blank_fields(text, spans)
    if "<" in text and kind != "code":
        text = _sub_blank(_HTML_TAG, text)
    if kind == "table":
        text = _blank_empty_rows(text)
    return text


def fill_in_fields(text: str) -> int:
    """How many lines of ``text`` are unfilled form fields (``- Label: <placeholder>``): a fill-in report
    such as ``lif audit --template`` has one per contract item."""
    count = 0
    for line in text.split("\n"):
        if "<" in line and len(line) < 2000:
            m = _FIELD.match(line)
            if m and _PLACEHOLDER.search(m.group(2)) and not re.sub(r"[\s`*_,;.()\[\]/|-]", "", _sub_blank(_PLACEHOLDER, m.group(2))):
                count += 1
    return count

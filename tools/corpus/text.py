"""Words and anchors: the tokenizer search uses and GitHub's heading slugs."""

from __future__ import annotations

import functools
import re

__all__ = ["slugify", "tokenize"]

_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")
_STOPWORDS = frozenset(
    """a an and are as at be been but by can could do does did for from had has have how i if in into is it
    its me my of on or our should so than that the their them then there these they this to us was we were
    what when where which while who why will with would you your i'm it's vs about any some get
    whats i've i'd i'll you're we're they're that's there's here's let's""".split()
)
_CLITIC = re.compile(r"'(?:s|re|ve|ll|d|m)$")
_MODEL_PLURAL = re.compile(r"^[a-z]+\d+s$")
_NUMBER_UNIT = re.compile(r"^(\d+(?:\.\d+)?)(gb|gib|mb|mib|tb|tib|ms|gbps)$")
"""'16gb' and '16 GB' are one quantity: the number and the unit become two words (model sizes like 70b stay whole)."""


@functools.lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """A deliberately small stemmer (plurals, -ing, -ed, final e), enough to join cache/caches/caching/cached."""
    if len(word) <= 3 or not word.isalpha():
        return word[:-1] if _MODEL_PLURAL.match(word) else word  # h100s -> h100
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "shes", "ches", "xes")):
        word = word[:-2]
    elif word.endswith("s") and (not word.endswith(("ss", "us", "is")) or word.endswith("pus")):  # gpus, cpus
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("eed"):
            word = word[: -len(suffix)]
            if word[-1] == word[-2] and word[-1] not in "lsz":  # running -> run, but prefill, pass stay
                word = word[:-1]
            break
    if word.endswith("e") and len(word) > 3 and not word.endswith("ee"):
        word = word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Lower-cased, stemmed words without stopwords; digits and dotted versions kept (p99, fp8, 3.1).

    Contractions and possessives lose their clitic ("vendor's" -> vendor, "doesn't" is a stopword), and a
    number glued to a memory or time unit is split ("80gb" -> 80 gb) to match how the pages write it.
    """
    words: list[str] = []
    for w in _WORD.findall(text.lower().replace("\u2019", "'")):
        if "'" in w:
            if w in _STOPWORDS or w.endswith("n't"):
                continue
            w = _CLITIC.sub("", w)
        if w in _STOPWORDS:
            continue
        if m := _NUMBER_UNIT.match(w):
            words += [m.group(1), m.group(2)]
        else:
            words.append(_stem(w))
    return words


def slugify(heading: str, seen: dict[str, int] | None = None) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered."""
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
    if seen is not None:
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        if count:
            slug = f"{slug}-{count}"
    return slug

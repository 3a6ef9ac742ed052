"""The word a typo most likely meant, for every "did you mean ...?" the tools print: a
misspelt field of a definitions file, layout or record, a card ID, a side, a player, a
command or an option (standard library only)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


def _plain(text: str) -> str:
    return re.sub(r"0+(?=\d)", "", text.strip().lower())


def closest(word: str, options: Iterable[str]) -> str | None:
    """The option a typo most likely meant (case and leading zeros first, then spelling)."""
    opts = list(options)
    plain = {_plain(o): o for o in opts}
    if _plain(word) in plain:
        return plain[_plain(word)]
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    best: tuple[float, bool, int] | None = None
    guess = None
    for option in opts:
        matcher.set_seq1(option)
        if matcher.real_quick_ratio() < 0.6 or matcher.quick_ratio() < 0.6:
            continue
        ratio = matcher.ratio()
        if ratio < 0.6:
            continue
        # spelling first; among equals a same-length option with more letters in place
        # (SO7 is S07 mistyped rather than S72)
        in_place = sum(a == b for a, b in zip(word, option, strict=False))
        key = (ratio, len(option) == len(word), in_place)
        if best is None or key > best:
            best, guess = key, option
    return guess


def did_you_mean(word: str, options: Iterable[str], quote: bool = False) -> str:
    """``"; did you mean X?"`` (``'X'`` when ``quote``) for the closest option, or ``""``."""
    guess = closest(word, options)
    if guess is None:
        return ""
    return f"; did you mean {guess!r}?" if quote else f"; did you mean {guess}?"

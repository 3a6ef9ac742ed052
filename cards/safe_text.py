"""Text from input files, made safe to print on a terminal (standard library only).

A player's name, a file name or a card ID comes from the user's files and reaches the
terminal inside a report. Control characters there would be obeyed by the terminal (an
escape sequence clears the screen or recolours it) or forge report lines (a newline
inside a name prints "Winner: …" on a line of its own). So:

* :func:`printable` shows one field on one line: every control character, line or
  paragraph separator, bidirectional override and undecodable byte of a file name is
  written as a visible escape (``\\x1b``, ``\\n``, ``\\u2028``, ``\\xff``);
* :func:`terminal_safe` does the same for a whole report but keeps its line breaks,
  tabs and the colour codes the tools write themselves (``ESC [ … m``);
* :func:`json_safe` does it for JSON text, with JSON's own escapes (``\\u001b``);
* :func:`has_control` tells a reader that a name needs it (readers refuse such names);
* :func:`split_lines` splits text at ``\\n``, ``\\r\\n`` and ``\\r`` only, as editors and
  YAML 1.2 do (``str.splitlines`` also splits at U+2028, form feeds and others, which
  shifts every later line number).
"""

from __future__ import annotations

import re

_BIDI = "\u202a-\u202e\u2066-\u2069"
# C0 and C1 controls, DEL, line and paragraph separators, bidi overrides, lone surrogates
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI}\ud800-\udfff]")
_UNSAFE_KEEP_LINES = re.compile(
    f"\x1b\\[[0-9;]*m|[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{_BIDI}\ud800-\udfff]")
# in JSON text every such character is inside a string (json.dumps escapes C0 there, but
# not DEL, C1, separators or surrogates); its line breaks and indentation stay
_UNSAFE_IN_JSON = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029{_BIDI}\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` on one line with every unsafe character written as a visible escape."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(lambda m: _escape(m.group()), text)


def terminal_safe(text: str) -> str:
    """A whole report made safe to print: line breaks, tabs and ``ESC[…m`` colour codes
    stay, every other unsafe character becomes a visible escape."""
    if _UNSAFE_KEEP_LINES.search(text) is None:
        return text

    def one(match: re.Match[str]) -> str:
        found = match.group()
        return found if len(found) > 1 else _escape(found)

    return _UNSAFE_KEEP_LINES.sub(one, text)


def json_safe(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with every unsafe character written
    as a JSON escape (``\\u001b``): it still parses to the same values."""
    if _UNSAFE_IN_JSON.search(text) is None:
        return text
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character :func:`printable` would escape."""
    return _UNSAFE.search(text) is not None


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, split at ``\\n``, ``\\r\\n`` and ``\\r`` only (a final line
    break does not start another line)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines

"""The text of a user's input file (a layout, a board, a record) and the words its
messages use: read with the definitions' own safe reader, problems named the way the
command names its input."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def read_input_text(path: Path, shown: str, what: str, max_bytes: int, too_big: str,
                    error: Callable[[list[str]], Exception]) -> str:
    """The UTF-8 text of an input file (``-``: standard input), or ``error([line])``.

    Missing files, folders, pipes and devices, link loops, unreadable files, files over
    ``max_bytes`` (``too_big`` says why that is suspicious), binary files, other encodings
    and line separators that would shift line numbers each get their own line
    (:func:`cards.loader.read_bytes_safely`).
    """
    from cards.loader import UnreadableInput, decode_text
    from cards.reading import read_bytes_safely

    try:
        if str(path) == "-":
            try:
                data = sys.stdin.buffer.read(max_bytes + 1)
            except OSError as exc:
                raise error([f"{shown}: cannot be read: {exc.strerror or exc}"]) from None
            if len(data) > max_bytes:
                raise error([f"{shown}: {too_big}"])
        else:
            data = read_bytes_safely(path, what, max_bytes, shown=shown)
        if b"\x00" in data:
            raise error([f"{shown}: a binary file, not text; expected {what}"])
        return decode_text(data, shown)
    except UnreadableInput as exc:
        problems = exc.problems
        if problems and " allowed for " in problems[0] and problems[0].startswith(shown):
            problems = [f"{shown}: {too_big}"]
        raise error(problems) from None


def reshown(problem: str, loader_path: Path, shown: str) -> str:
    """A loader problem line named the way the command names its input.

    The loader names ``loader_path`` relative to the working folder; the scorers and
    the replay name their input as the user typed it (``shown``).
    """
    from cards.loader import display_path

    name = display_path(loader_path)
    return shown + problem[len(name):] if problem.startswith(name) else problem


def type_name(value: object) -> str:
    """How a YAML value is described in a message ("a list", "a number (3)", ...)."""
    if value is None:
        return "nothing"
    why = getattr(value, "why", "")
    if why:  # a word YAML readers disagree about (cards.loader.Ambiguous)
        return f"{value} ({why})"
    if isinstance(value, bool):
        return f"true/false ({value!r})"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int | float):
        return f"a number ({value!r})"
    return f"{type(value).__name__} {value!r}"

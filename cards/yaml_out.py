"""Values in the records and layouts the tools write, written by a YAML emitter.

A record is mostly comments and fixed keys, so it is assembled line by line; every value
that comes from the user (a player's name, a deck, a note) goes through :func:`flow`,
which asks PyYAML's emitter for it. A name like ``- Bob``, ``Anna, Bob``, ``#1``, ``no``,
``07`` or ``2024-05-01`` therefore comes back quoted exactly as YAML needs, and reading
the file gives back the same text (``tests/test_reliability_output.py`` round-trips every
YAML-special character).

Strings that YAML 1.2 readers (editors) would read as numbers although PyYAML reads them
as text (``1e3``, ``0o17``, ``08``) are quoted too, so every reader agrees.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from cards.safe_text import printable

# plain scalars a YAML 1.2 reader takes for a number, true/false or null (PyYAML's own
# YAML 1.1 forms are quoted by the emitter already)
_YAML12_NOT_TEXT = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|true|True|TRUE|false|False|FALSE"
    r"|null|Null|NULL|~|")


class _Dumper(yaml.SafeDumper):
    """SafeDumper that also quotes text a YAML 1.2 reader would not read as text."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "'" if _YAML12_NOT_TEXT.fullmatch(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def flow(value: Any) -> str:
    """``value`` (text, a number, a list or mapping of them) as one line of YAML."""
    text = yaml.dump([value], Dumper=_Dumper, default_flow_style=True, allow_unicode=True,
                     width=float("inf"), sort_keys=False)
    # a one-item flow list: "[VALUE]\n"
    return text.strip()[1:-1].strip()


def comment(text: str) -> str:
    """``text`` as it may stand after ``#`` in a YAML comment: on one line, every control
    character written as a visible escape (a line break would end the comment)."""
    return printable(text)

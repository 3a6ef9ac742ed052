"""The texts' markup and the document it is read into (see :mod:`generator.typeset` for the
markup): :func:`parse` turns a text into a :class:`Document` of blocks (headings,
paragraphs, list items, notes, tables, diagrams) made of :class:`Run` s of text, with every
problem reported as ``FILE:LINE: message`` (:class:`TextError`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from cards.loader import DefinitionError
from generator.drawing import (
    Item,
)

Align = Literal["start", "middle", "end"]

# --- the parsed document -----------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A stretch of text in one weight; or, with ``icon``, a drawing (items in a circle of
    radius 1 about (0, 0)) set as one character one em wide (its ``text`` an em space).
    ``ref``: the rule numbers a block ends with, ``(O-21, O-22)``, set muted (or left out:
    :attr:`~generator.typeset.setting.Typography.rule_refs`)."""

    text: str
    bold: bool = False
    icon: tuple[Item, ...] = ()
    ref: bool = False


ICON_TEXT = "\u2003"  # an em space: an icon takes the room of one


def icon_run(items: Sequence[Item]) -> Run:
    """A run drawing ``items`` (in a circle of radius 1 about (0, 0)) as one character."""
    return Run(ICON_TEXT, icon=tuple(items))


Runs = tuple[Run, ...]


@dataclass(frozen=True)
class Heading:
    level: int  # 2 or 3
    runs: Runs


@dataclass(frozen=True)
class Paragraph:
    runs: Runs


@dataclass(frozen=True)
class ListItem:
    marker: str  # "•" or "1." ...
    runs: Runs


@dataclass(frozen=True)
class Note:
    blocks: tuple[Paragraph | ListItem, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[Runs, ...]
    rows: tuple[tuple[Runs, ...], ...]
    align: tuple[Align, ...]


@dataclass(frozen=True)
class DiagramRef:
    name: str
    caption: Runs


Block = Heading | Paragraph | ListItem | Note | Table | DiagramRef


@dataclass(frozen=True)
class Document:
    source: str  # the file as shown in messages
    meta: Mapping[str, str]
    blocks: tuple[Block, ...]
    # the fact markers ({?name}): (line, fact, the sentence as printed); see generator.prose
    facts: tuple[tuple[int, str, str], ...] = ()

    @property
    def title(self) -> str:
        return self.meta["title"]


@dataclass(frozen=True)
class Art:
    """A diagram: items laid out in ``width`` x ``height`` mm, top-left at (0, 0)."""

    items: tuple[Item, ...]
    width: float
    height: float
    max_scale: float = 1.0  # never drawn larger than this (keeps a diagram in proportion)
    # the same diagram with its labels this many times larger (drawn small, a diagram that
    # has it keeps its labels readable: Typography.min_art_text)
    relabel: Callable[[float], Art] | None = field(default=None, compare=False)


class TextError(DefinitionError, ValueError):
    """Problems in a text file, one line each (``FILE:LINE: message``).

    A ``ValueError`` too, so a build step that meets one is reported like any other
    definition that cannot be laid out: one line per problem, nothing written."""


# A data table: called with the header cells written in the text, returns its rows
TableFn = Callable[[Sequence[str]], Table]
DiagramFn = Callable[[], Art]

META_KEYS = ("title", "subtitle", "footer", "page", "fold")
_VAR_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_DIRECTIVE_RE = re.compile(r"^\[(table|diagram):\s*([^\]]*)\]\s*(.*)$")
_NUMBERED_RE = re.compile(r"^(\d{1,3})[.)]\s+(.*)$")
# the rule numbers a block ends with: "(O-21)", "(S-31, S-33)"
RULE_REFS_RE = re.compile(r"\s*\((?:[OS]-\d+)(?:,\s*[OS]-\d+)*\)\s*$")
FACT_RE = re.compile(r"\s?\{\?([A-Za-z_][A-Za-z0-9_]*)\}")


def signed(points: int) -> str:
    """Points as printed: +3, −2 (a real minus sign), 0."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def parse(text: str, source: str, variables: Mapping[str, str],
          tables: Mapping[str, TableFn], diagrams: Mapping[str, DiagramFn],
          facts: Collection[str] | None = None) -> Document:
    """Parse a text file; every problem is reported as ``SOURCE:LINE: message`` together.
    ``facts``: the fact names a ``{?name}`` marker may use (None: any)."""
    problems: list[str] = []
    marked: list[tuple[int, str, str]] = []
    lines = re.split(r"\r\n|\r|\n", text.removesuffix("\n"))  # as editors count lines

    def problem(lineno: int, message: str) -> None:
        problems.append(f"{source}:{lineno}: {message}")

    def inline(raw: str, lineno: int) -> Runs:
        def sub(m: re.Match[str]) -> str:
            name = m.group(1)
            if name not in variables:
                known = ", ".join("{" + k + "}" for k in sorted(variables)) or "none"
                problem(lineno, f"unknown value {{{name}}}; known values: {known}")
                return m.group(0)
            return variables[name]

        names = FACT_RE.findall(raw)
        raw = FACT_RE.sub("", raw)
        for name in names:
            if facts is not None and name not in facts:
                known = ", ".join("{?" + k + "}" for k in sorted(facts)) or "none"
                problem(lineno, f"unknown fact {{?{name}}}; this game's facts: {known}")
        filled = _VAR_RE.sub(sub, raw)
        refs = RULE_REFS_RE.search(filled)
        tail = ""
        if refs:
            filled, tail = filled[:refs.start()], refs.group(0).strip()
        parts = filled.split("**")
        if len(parts) % 2 == 0:
            problem(lineno, "a ** (bold) is not closed on this line; write **bold text**")
        runs = tuple(Run(p, i % 2 == 1) for i, p in enumerate(parts) if p)
        if tail:
            runs += (Run(" " + tail, ref=True),)
        for name in names:
            marked.append((lineno, name, _plain(tuple(r for r in runs if not r.ref)).strip()))
        return runs

    # front matter
    meta: dict[str, str] = {}
    start = 0
    if "---" in (ln.strip() for ln in lines):
        end = [ln.strip() for ln in lines].index("---")
        for i in range(end):
            raw = lines[i].strip()
            if not raw:
                continue
            key, sep, value = raw.partition(":")
            key = key.strip()
            if not sep or key not in META_KEYS:
                problem(i + 1, f"{raw!r} is not a front-matter line; write one of "
                               f"{', '.join(k + ': ...' for k in META_KEYS)} before the '---'")
                continue
            meta[key] = value.strip() if key == "page" else _plain(inline(value.strip(), i + 1))
        start = end + 1
    if "title" not in meta:
        problem(1, "no title; start the file with 'title: ...' and a line '---'")

    blocks: list[Block] = []
    i = start
    n = len(lines)
    while i < n:
        raw = lines[i]
        stripped = raw.strip()
        lineno = i + 1
        if not stripped:
            i += 1
            continue
        if stripped.startswith("#"):
            hashes = len(stripped) - len(stripped.lstrip("#"))
            if hashes not in (2, 3) or not stripped[hashes:].startswith(" "):
                problem(lineno, "a heading is '## Heading' or '### Smaller heading' (the title "
                                "goes in the front matter as 'title: ...')")
            else:
                blocks.append(Heading(hashes, inline(stripped[hashes:].strip(), lineno)))
            i += 1
            continue
        if stripped.startswith(">"):
            inner: list[tuple[int, str]] = []
            while i < n and lines[i].strip().startswith(">"):
                inner.append((i + 1, lines[i].strip()[1:].strip()))
                i += 1
            blocks.append(Note(tuple(_flow_blocks(inner, inline))))  # type: ignore[arg-type]
            continue
        if stripped.startswith("|"):
            rows: list[tuple[int, list[str]]] = []
            align: list[Align] | None = None
            while i < n and lines[i].strip().startswith("|"):
                cells = _cells(lines[i].strip())
                if cells and all(re.fullmatch(r":?-{1,}:?", c.strip()) for c in cells):
                    align = [_alignment(c.strip()) for c in cells]
                else:
                    rows.append((i + 1, cells))
                i += 1
            if not rows:
                problem(lineno, "a table needs a header row")
                continue
            width = len(rows[0][1])
            for ln, cells in rows:
                if len(cells) != width:
                    problem(ln, f"this table row has {len(cells)} cells, the header has {width}")
            if align is not None and len(align) != width:
                problem(lineno, f"the alignment line has {len(align)} cells, the header {width}")
                align = None
            parsed = [tuple(inline(c.strip(), ln) for c in cells) for ln, cells in rows]
            blocks.append(Table(parsed[0], tuple(parsed[1:]),
                                tuple(align or ["start"] * width)))
            continue
        directive = _DIRECTIVE_RE.match(stripped)
        if directive:
            kind, body, rest = directive.groups()
            fields = [f.strip() for f in body.split("|")]
            name = fields[0]
            if kind == "table":
                if name not in tables:
                    problem(lineno, f"unknown table {name!r}; this game has: "
                                    f"{', '.join(sorted(tables)) or 'none'}")
                else:
                    try:
                        blocks.append(tables[name](fields[1:]))
                    except ValueError as exc:
                        problem(lineno, f"table {name}: {exc}")
                if rest:
                    problem(lineno, "nothing may follow a [table: ...] on its line")
            else:
                if name not in diagrams:
                    problem(lineno, f"unknown diagram {name!r}; this game has: "
                                    f"{', '.join(sorted(diagrams)) or 'none'}")
                else:
                    blocks.append(DiagramRef(name, inline(rest, lineno)))
            i += 1
            continue
        if stripped.startswith("["):
            problem(lineno, "a line starting with '[' must be [table: NAME ...] or "
                            "[diagram: NAME] caption")
            i += 1
            continue
        # paragraphs and list items run until a blank line or another kind of block
        chunk: list[tuple[int, str]] = []
        while i < n:
            s = lines[i].strip()
            if not s or s.startswith(("#", ">", "|", "[")):
                break
            chunk.append((i + 1, s))
            i += 1
        blocks.extend(_flow_blocks(chunk, inline))
    if problems:
        raise TextError(problems)
    return Document(source, meta, tuple(blocks), tuple(marked))


def _plain(runs: Runs) -> str:
    return "".join(r.text for r in runs)


def _flow_blocks(lines: list[tuple[int, str]],
                 inline: Callable[[str, int], Runs]) -> list[Paragraph | ListItem]:
    """Paragraphs and list items out of consecutive text lines (blank lines separate)."""
    out: list[Paragraph | ListItem] = []
    current: list[str] = []
    marker: str | None = None
    first_line = 0

    def close() -> None:
        nonlocal current, marker
        if current:
            runs = inline(" ".join(current), first_line)
            out.append(ListItem(marker, runs) if marker is not None else Paragraph(runs))
        current, marker = [], None

    for lineno, text in lines:
        if not text:
            close()
            continue
        numbered = _NUMBERED_RE.match(text)
        if text.startswith(("- ", "* ")) or text in ("-", "*"):
            close()
            marker, first_line, current = "•", lineno, [text[1:].strip()]
        elif numbered:
            close()
            marker, first_line, current = f"{numbered.group(1)}.", lineno, [numbered.group(2)]
        else:
            if not current:
                first_line = lineno
            current.append(text)
    close()
    return out


def _cells(line: str) -> list[str]:
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|"):
        inner = inner[:-1]
    return inner.split("|")


def _alignment(spec: str) -> Align:
    if spec.startswith(":") and spec.endswith(":"):
        return "middle"
    if spec.endswith(":"):
        return "end"
    return "start"


def data_table(header: Sequence[str], rows: Sequence[Sequence[str]],
               align: Sequence[Align] | None = None, bold_first: bool = False) -> Table:
    """A :class:`Table` from plain strings (for tables filled from the definitions)."""
    width = len(header)
    for row in rows:
        if len(row) != width:
            raise ValueError(f"a row has {len(row)} cells, the header {width}")
    return Table(
        tuple((Run(h),) for h in header),
        tuple(tuple((Run(c, bold_first and k == 0),) for k, c in enumerate(row)) for row in rows),
        tuple(align or ["start"] * width),
    )


"""A small typesetter on top of the drawing description: rule booklets and player aids.

The texts live as plain UTF-8 files (``cards/<game>/text/*.md``) in this markup::

    title: Orbitus                  front matter, "key: value" lines, ended by a line "---":
    subtitle: Rules of play         title (required), subtitle, footer (foot of every page),
    footer: Orbitus — rules         page (the page number's wording, {n} and {total})
    page: page {n} of {total}
    ---
    ## Section heading              (### for a smaller heading)
    A paragraph runs over consecutive lines and ends at a blank line.
    - a bullet item                 lines that follow (not blank, not a new item) continue it
    1. a numbered item
    > a note box (the rules page's Decisions); "> - item" gives bullets inside it
    | head | head |                 a table: the first row is the header; a |---|--:| line
    | cell | cell |                 is optional and sets the alignment (:-- left, --: right,
                                    :-: centre)
    [table: NAME | head | head]     a table filled from the definitions (the game lists NAMEs)
    [diagram: NAME] caption text    a diagram drawn by the components, with its caption
    **bold** and {value}            inline: bold text, a value taken from the definitions

Pages come out as :class:`~generator.drawing.Drawing` objects, so the PDF backend
renders them like every other page. Layout: a title block on the first page,
then the text flows through columns (two by default), headings stay with what
follows them, paragraphs keep at least two lines together at a column break,
table headers repeat on a new column, the last page's columns are balanced,
and every page carries a footer with its number. ``max_pages=1`` (player aids)
shrinks the text until everything fits on one page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from cards.loader import DefinitionError
from generator.drawing import (
    CAP_HEIGHT,
    Drawing,
    Group,
    Item,
    Polyline,
    Rect,
    Style,
    Text,
    text_width,
)

Align = Literal["start", "middle", "end"]

# --- the parsed document -----------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A stretch of text in one weight; or, with ``icon``, a drawing (items in a circle of
    radius 1 about (0, 0)) set as one character one em wide (its ``text`` an em space)."""

    text: str
    bold: bool = False
    icon: tuple[Item, ...] = ()


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


class TextError(DefinitionError, ValueError):
    """Problems in a text file, one line each (``FILE:LINE: message``).

    A ``ValueError`` too, so a build step that meets one is reported like any other
    definition that cannot be laid out: one line per problem, nothing written."""


# A data table: called with the header cells written in the text, returns its rows
TableFn = Callable[[Sequence[str]], Table]
DiagramFn = Callable[[], Art]

META_KEYS = ("title", "subtitle", "footer", "page")
_VAR_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_DIRECTIVE_RE = re.compile(r"^\[(table|diagram):\s*([^\]]*)\]\s*(.*)$")
_NUMBERED_RE = re.compile(r"^(\d{1,3})[.)]\s+(.*)$")


def signed(points: int) -> str:
    """Points as printed: +3, −2 (a real minus sign), 0."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def parse(text: str, source: str, variables: Mapping[str, str],
          tables: Mapping[str, TableFn], diagrams: Mapping[str, DiagramFn]) -> Document:
    """Parse a text file; every problem is reported as ``SOURCE:LINE: message`` together."""
    problems: list[str] = []
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

        filled = _VAR_RE.sub(sub, raw)
        parts = filled.split("**")
        if len(parts) % 2 == 0:
            problem(lineno, "a ** (bold) is not closed on this line; write **bold text**")
        runs = tuple(Run(p, i % 2 == 1) for i, p in enumerate(parts) if p)
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
    return Document(source, meta, tuple(blocks))


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


# --- typography and page setup ------------------------------------------------------------


@dataclass(frozen=True)
class Typography:
    """Sizes in mm (em size); colours #rrggbb."""

    body: float = 3.4
    leading: float = 1.42
    title: float = 3.3  # the title's size in body sizes
    ink: str = "#1d1d1f"
    muted: str = "#5a5a5a"
    accent: str = "#1b2440"  # headings, table headers, note bars
    highlight: str = "#e8c35a"  # the title rule, bullets
    note_fill: str = "#f4f1e8"
    stripe: str = "#f2f2ef"
    on_accent: str = "#ffffff"

    def scaled(self, body: float) -> Typography:
        return replace(self, body=body)


@dataclass(frozen=True)
class PageSetup:
    size: tuple[float, float]
    columns: int = 2
    margin: float = 15.0  # left and right
    top: float = 14.0
    bottom: float = 17.0
    gap: float = 7.0

    @property
    def column_width(self) -> float:
        usable = self.size[0] - 2 * self.margin
        return (usable - (self.columns - 1) * self.gap) / self.columns

    def column_x(self, k: int) -> float:
        return self.margin + k * (self.column_width + self.gap)


@dataclass
class Box:
    """One unbreakable piece of the flow, ``items`` relative to its top-left corner."""

    height: float
    items: list[Item] = field(default_factory=list)
    space_before: float = 0.0
    keep_with_next: bool = False
    header: Box | None = None  # a table row's header, repeated at the top of a new column
    floating: bool = False  # may wait for the next column while the text after it goes on
    continues: bool = False  # the next box is the same block (a line of the same paragraph,
    # the text after a heading): a waiting float may not come between them


# --- measuring and wrapping ---------------------------------------------------------------


_WIDTHS: dict[tuple[str, float, bool], float] = {}
_WIDTHS_LIMIT = 200_000


class Measure:
    """Text widths, cached for the whole process: the same words are measured many times
    while fitting, in every document and in every build of a ``--watch``."""

    def __call__(self, text: str, size: float, bold: bool = False) -> float:
        key = (text, size, bold)
        width = _WIDTHS.get(key)
        if width is None:
            if len(_WIDTHS) > _WIDTHS_LIMIT:
                _WIDTHS.clear()
            width = text_width(text, size, bold)
            _WIDTHS[key] = width
        return width


def _words(runs: Runs) -> list[list[Run]]:
    """Words (split at ordinary spaces; a no-break space keeps words together) as pieces."""
    words: list[list[Run]] = []
    current: list[Run] = []
    for run in runs:
        for k, part in enumerate(run.text.split(" ")):
            if k > 0 and current:
                words.append(current)
                current = []
            if part:
                current.append(Run(part, run.bold, run.icon))
    if current:
        words.append(current)
    return words


def wrap(runs: Runs, size: float, width: float, measure: Callable[[str, float, bool], float]
         ) -> list[Runs]:
    """Greedy line breaking of ``runs`` at ``size`` into lines at most ``width`` mm wide."""
    lines: list[list[list[Run]]] = []
    current: list[list[Run]] = []
    used = 0.0
    space = measure(" ", size, False)
    for word in _words(runs):
        w = sum(measure(p.text, size, p.bold) for p in word)
        if current and used + space + w > width:
            lines.append(current)
            current, used = [], 0.0
        if not current and w > width:  # a word longer than the line: break it by letters
            for piece in _break_word(word, size, width, measure):
                lines.append([piece])
            continue
        used = used + space + w if current else w
        current.append(word)
    if current:
        lines.append(current)
    # no short word alone on a paragraph's last line ("−3."): it takes the word before along
    if len(lines) >= 2 and len(lines[-1]) == 1 and len(lines[-2]) >= 3:
        last = lines[-1][0]
        if len("".join(p.text for p in last)) <= 5:
            moved = lines[-2][-1]
            need = (sum(measure(p.text, size, p.bold) for p in moved) + space
                    + sum(measure(p.text, size, p.bold) for p in last))
            if need <= width:
                lines[-2] = lines[-2][:-1]
                lines[-1] = [moved, last]
    return [_join(line) for line in lines]


def _break_word(word: list[Run], size: float, width: float,
                measure: Callable[[str, float, bool], float]) -> list[list[Run]]:
    pieces: list[list[Run]] = []
    line: list[Run] = []
    used = 0.0
    for run in word:
        for ch in run.text:
            w = measure(ch, size, run.bold)
            if line and used + w > width:
                pieces.append(line)
                line, used = [], 0.0
            line.append(Run(ch, run.bold))
            used += w
    if line:
        pieces.append(line)
    return pieces


def _join(words: list[list[Run]]) -> Runs:
    """Words back into runs with single spaces, merging neighbours of the same weight."""
    out: list[Run] = []
    for k, word in enumerate(words):
        pieces = list(word)
        if k < len(words) - 1:
            last = pieces[-1]
            pieces[-1] = Run(last.text + " ", last.bold, last.icon)
        for piece in pieces:
            if out and out[-1].bold == piece.bold and not out[-1].icon and not piece.icon:
                out[-1] = Run(out[-1].text + piece.text, piece.bold)
            else:
                out.append(piece)
    return tuple(out)


def line_width(runs: Runs, size: float, measure: Callable[[str, float, bool], float]) -> float:
    return sum(measure(r.text, size, r.bold) for r in runs)


def line_items(runs: Runs, x: float, baseline: float, size: float, fill: str,
               measure: Callable[[str, float, bool], float], anchor: Align = "start",
               bold: bool = False) -> list[Item]:
    """One line of runs as Text items placed side by side."""
    widths = [measure(r.text, size, bold or r.bold) for r in runs]
    if anchor == "middle":
        x -= sum(widths) / 2.0
    elif anchor == "end":
        x -= sum(widths)
    out: list[Item] = []
    for run, w in zip(runs, widths, strict=True):
        if run.icon:  # drawn in the em the run's space takes, centred on the capitals
            em = measure(ICON_TEXT, size, False)
            out.append(Group(run.icon, (x + em / 2.0, baseline - size * CAP_HEIGHT / 2.0),
                             scale=size * 0.6))
        else:
            out.append(Text(x, baseline, run.text, size, fill=fill, bold=bold or run.bold))
        x += w
    return out


def _baseline(lead: float, size: float) -> float:
    """Baseline that centres cap height plus descender in a line ``lead`` tall."""
    return lead / 2.0 + size * (CAP_HEIGHT - 0.236) / 2.0


# --- blocks into boxes --------------------------------------------------------------------


class _Composer:
    def __init__(self, typo: Typography, width: float, art: Mapping[str, DiagramFn],
                 max_art_height: float, measure: Measure) -> None:
        self.t = typo
        self.width = width
        self.art = art
        self.max_art_height = max_art_height
        self.m = measure

    @property
    def lead(self) -> float:
        return self.t.body * self.t.leading

    def boxes(self, blocks: Sequence[Block]) -> list[Box]:
        out: list[Box] = []
        previous: Block | None = None
        for block in blocks:
            if isinstance(block, Heading):
                part = self.heading(block, first=previous is None)
            elif isinstance(block, Paragraph):
                part = self.paragraph(block.runs, self.t.body * 0.6)
            elif isinstance(block, ListItem):
                gap = self.t.body * (0.22 if isinstance(previous, ListItem) else 0.6)
                part = self.item(block, gap)
            elif isinstance(block, Note):
                part = self.note(block)
            elif isinstance(block, Table):
                part = self.table(block)
            else:
                part = self.diagram(block)
            # a float waits only at the end of a block, never inside one or after a heading
            for b in part[:-1]:
                b.continues = True
            if part and isinstance(block, Heading):
                part[-1].continues = True
            out += part
            previous = block
        return out

    # text ------------------------------------------------------------------------------
    def _lines(self, runs: Runs, size: float, width: float, x: float, fill: str,
               lead: float, bold: bool = False) -> list[Box]:
        # measured in the weight it is drawn in (a heading is bold throughout)
        lines = wrap(runs, size, width, self._bold_measure(bold))
        base = _baseline(lead, size)
        return [Box(lead, line_items(line, x, base, size, fill, self.m, bold=bold))
                for line in lines]

    @staticmethod
    def _keep_together(boxes: list[Box]) -> list[Box]:
        """No single line alone at the foot or the head of a column."""
        if len(boxes) >= 2:
            boxes[0].keep_with_next = True
            boxes[-2].keep_with_next = True
        return boxes

    def paragraph(self, runs: Runs, space: float, indent: float = 0.0,
                  width: float | None = None) -> list[Box]:
        w = (width or self.width) - indent
        boxes = self._lines(runs, self.t.body, w, indent, self.t.ink, self.lead)
        if boxes:
            boxes[0].space_before = space
        return self._keep_together(boxes)

    def heading(self, block: Heading, first: bool) -> list[Box]:
        size = self.t.body * (1.42 if block.level == 2 else 1.12)
        lead = size * 1.25
        boxes = self._lines(block.runs, size, self.width, 0.0, self.t.accent, lead, bold=True)
        if not boxes:
            return []
        after = self.t.body * (0.35 if block.level == 2 else 0.15)
        if block.level == 2:  # a short rule under a section heading
            last = boxes[-1]
            last.items.append(Polyline(((0.0, lead + after * 0.5), (12.0, lead + after * 0.5)),
                                       Style(stroke=self.t.highlight, width=0.6)))
        boxes[-1].height += after
        boxes[0].space_before = self.t.body * (1.5 if block.level == 2 else 0.9)
        for b in boxes:
            b.keep_with_next = True
        return boxes

    def item(self, block: ListItem, space: float, width: float | None = None,
             x0: float = 0.0) -> list[Box]:
        w = width or self.width
        indent = self.t.body * (1.25 if block.marker == "•" else 1.6)
        boxes = self._lines(block.runs, self.t.body, w - indent, x0 + indent, self.t.ink,
                            self.lead)
        if not boxes:
            return []
        base = _baseline(self.lead, self.t.body)
        if block.marker == "•":
            boxes[0].items.append(Text(x0 + indent * 0.3, base, "•", self.t.body,
                                       fill=self.t.accent, bold=True))
        else:
            boxes[0].items.append(Text(x0 + indent - self.t.body * 0.45, base, block.marker,
                                       self.t.body, fill=self.t.accent, bold=True, anchor="end"))
        boxes[0].space_before = space
        return self._keep_together(boxes)

    def note(self, block: Note) -> list[Box]:
        pad_x, pad_y, bar = 3.2, 1.8, 0.9
        inner_w = self.width - pad_x - bar - 2.4
        x0 = bar + pad_x
        boxes: list[Box] = []
        for k, sub in enumerate(block.blocks):
            if isinstance(sub, Paragraph):
                part = self.paragraph(sub.runs, 0.0, x0, inner_w + x0)
            else:
                part = self.item(sub, 0.0, inner_w, x0)
            if not part:
                continue
            if boxes:  # the gap between blocks inside the note is part of the tint
                prev = isinstance(block.blocks[k - 1], ListItem) and isinstance(sub, ListItem)
                gap = self.t.body * (0.22 if prev else 0.5)
                part[0].items = [Group(tuple(part[0].items), (0.0, gap))]
                part[0].height += gap
            boxes += part
        if not boxes:
            return []
        # padding above the first line and below the last, inside the tint
        first, last = boxes[0], boxes[-1]
        first.items = [Group(tuple(first.items), (0.0, pad_y))]
        first.height += pad_y
        last.height += pad_y
        for b in boxes:
            b.items = [Rect(0.0, 0.0, self.width, b.height, Style(fill=self.t.note_fill)),
                       Rect(0.0, 0.0, bar, b.height, Style(fill=self.t.accent)), *b.items]
        first.space_before = self.t.body * 0.9
        for b in boxes[:-1]:  # a note stays in one column (when it fits one)
            b.keep_with_next = True
        return boxes

    # tables ------------------------------------------------------------------------------
    def table(self, block: Table) -> list[Box]:
        size = self.t.body * 0.92
        lead = size * 1.32
        px, py = 1.6, 0.9
        rows = (block.header, *block.rows)
        ncol = len(block.header)
        natural = [0.0] * ncol
        minimum = [0.0] * ncol
        for row in rows:
            bold = row is block.header
            measure = self._bold_measure(bold)
            for j, cell in enumerate(row):
                natural[j] = max(natural[j], line_width(cell, size, measure) + 2 * px)
                for word in _words(cell):
                    w = sum(self.m(p.text, size, p.bold or bold) for p in word)
                    minimum[j] = max(minimum[j], w + 2 * px)
        widths = _column_widths(natural, minimum, self.width)
        xs = [sum(widths[:j]) for j in range(ncol)]
        boxes: list[Box] = []
        for r, row in enumerate(rows):
            head = r == 0
            cells = [wrap(cell, size, widths[j] - 2 * px, self._bold_measure(head))
                     for j, cell in enumerate(row)]
            height = max(len(c) for c in cells) * lead + 2 * py
            items: list[Item] = []
            if head:
                items.append(Rect(0.0, 0.0, self.width, height, Style(fill=self.t.accent)))
            elif r % 2 == 0:
                items.append(Rect(0.0, 0.0, self.width, height, Style(fill=self.t.stripe)))
            base = _baseline(lead, size)
            for j, lines in enumerate(cells):
                align = block.align[j]
                x = xs[j] + (px if align == "start" else widths[j] / 2.0 if align == "middle"
                             else widths[j] - px)
                for k, line in enumerate(lines):
                    items += line_items(line, x, py + k * lead + base, size,
                                        self.t.on_accent if head else self.t.ink, self.m,
                                        anchor=align, bold=head)
            items.append(Polyline(((0.0, height), (self.width, height)),
                                  Style(stroke=self.t.accent if r == len(rows) - 1 else "#c9c9c4",
                                        width=0.35 if r == len(rows) - 1 else 0.15)))
            boxes.append(Box(height, items))
        header = boxes[0]
        header.space_before = self.t.body * 0.8
        header.keep_with_next = True
        for b in boxes[1:]:
            b.header = header
        # a short table stays whole; a long one keeps two rows together at either end
        keep = boxes[:-1] if len(boxes) <= 11 else [boxes[1], boxes[-2]]
        for b in keep:
            b.keep_with_next = True
        return boxes

    def _bold_measure(self, bold: bool) -> Callable[[str, float, bool], float]:
        if not bold:
            return self.m
        return lambda text, size, _b: self.m(text, size, True)

    # diagrams ------------------------------------------------------------------------------
    def diagram(self, block: DiagramRef) -> list[Box]:
        art = self.art[block.name]()
        scale = min(art.max_scale, self.width / art.width, self.max_art_height / art.height)
        w, h = art.width * scale, art.height * scale
        items: list[Item] = [Group(art.items, ((self.width - w) / 2.0, 0.0), scale=scale,
                                   cls=f"diagram {block.name}")]
        size = self.t.body * 0.86
        lead = size * 1.35
        y = h + self.t.body * 0.6
        for line in wrap(block.caption, size, self.width - 4.0, self.m):
            items += line_items(line, self.width / 2.0, y + _baseline(lead, size), size,
                                self.t.muted, self.m, anchor="middle")
            y += lead
        # room below the caption too: text may follow a diagram that opens a column
        return [Box(y + self.t.body * 0.7, items, space_before=self.t.body * 0.6,
                    floating=True)]


def _column_widths(natural: list[float], minimum: list[float], avail: float) -> list[float]:
    total = sum(natural)
    if total <= avail:  # spread the spare room in proportion
        return [w * avail / total for w in natural] if total else [avail / len(natural)] * len(
            natural)
    low = sum(minimum)
    if low >= avail:
        return [w * avail / low for w in minimum]
    spare = avail - low
    stretch = [n - m for n, m in zip(natural, minimum, strict=True)]
    k = spare / sum(stretch) if sum(stretch) else 0.0
    return [m + s * k for m, s in zip(minimum, stretch, strict=True)]


# --- flowing boxes into columns and pages -------------------------------------------------


@dataclass(frozen=True)
class Frame:
    x: float
    y: float
    height: float


@dataclass
class Placed:
    frame: int
    y: float  # relative to the frame's top
    box: Box
    repeat: bool = False  # a table header repeated at the top of a column
    index: int = -1  # the box's position in the flowed sequence


def flow(boxes: Sequence[Box], frames: Callable[[int], Frame],
         mid_block: bool = False) -> list[Placed]:
    """Place boxes top to bottom in frame 0, 1, 2 ... (``frames(k)`` gives frame k).

    A floating box (a diagram) that does not fit in what is left of a frame waits, and
    the text after it fills the frame. Waiting floats are placed, in order, at the first
    end of a block (a paragraph, an item, a note, a table; never between a heading and its
    text) where they fit: at the top of the next frame when the text before it ended a
    block, else after the block that runs on into the new frame. ``mid_block``: the
    boxes start in the middle of a block (the rest of a page being balanced).
    """
    placed: list[Placed] = []
    pending: list[tuple[int, Box]] = []
    k = 0
    y = 0.0
    at_top = True
    i = 0
    while i < len(boxes) or pending:
        frame = frames(k)
        if pending and not mid_block:
            while pending:
                n, fb = pending[0]
                if not at_top and y + fb.space_before + fb.height > frame.height + 1e-6:
                    break
                y += 0.0 if at_top else fb.space_before
                placed.append(Placed(k, y, fb, index=n))
                y += fb.height
                at_top = False
                pending.pop(0)
            if pending and (at_top or i >= len(boxes)):
                k, y, at_top = k + 1, 0.0, True
                continue
        if i >= len(boxes):  # only floats are left: they open the next frame
            k, y, at_top, mid_block = k + 1, 0.0, True, False
            continue
        box = boxes[i]
        if box.floating and (pending or mid_block or (
                not at_top and y + box.space_before + box.height > frame.height + 1e-6)):
            pending.append((i, box))
            i += 1
            continue
        header = box.header if at_top and box.header is not None else None
        need = (header.height if header else 0.0) + (0.0 if at_top else box.space_before)
        need += box.height
        j = i
        while boxes[j].keep_with_next and j + 1 < len(boxes):
            j += 1
            need += boxes[j].space_before + boxes[j].height
        if y + need > frame.height + 1e-6 and not at_top:
            if y + (box.space_before + box.height) > frame.height + 1e-6 or need <= frame.height:
                k, y, at_top = k + 1, 0.0, True
                continue
        if header is not None:
            placed.append(Placed(k, y, header, repeat=True))
            y += header.height
        elif not at_top:
            y += box.space_before
        placed.append(Placed(k, y, box, index=i))
        y += box.height
        at_top = False
        mid_block = box.continues
        i += 1
    return placed


def _document_pages(doc: Document, setup: PageSetup, typo: Typography,
                    art: Mapping[str, DiagramFn], measure: Measure,
                    max_art_fraction: float) -> tuple[list[list[Item]], int, float]:
    """Items per page (title block and body, no footer), the page count, and how much of
    one column the last page's text would fill."""
    pw, ph = setup.size
    title_items, title_h = _title_block(doc, setup, typo, measure)
    body_top = setup.top + title_h
    body_h_first = ph - setup.bottom - body_top
    body_h = ph - setup.bottom - setup.top
    cw = setup.column_width
    composer = _Composer(typo, cw, art, min(body_h_first, body_h) * max_art_fraction, measure)
    boxes = composer.boxes(doc.blocks)
    cols = setup.columns

    def frames(k: int) -> Frame:
        page, col = divmod(k, cols)
        top = body_top if page == 0 else setup.top
        return Frame(setup.column_x(col), top, body_h_first if page == 0 else body_h)

    placed = flow(boxes, frames)
    last_page = max(p.frame for p in placed) // cols if placed else 0
    if cols > 1 and placed:
        # balance the columns of the last page: the lowest height that keeps its boxes on it
        first_on_last = next(i for i, p in enumerate(placed) if p.frame // cols == last_page)
        # in the order of the text (a float may have been placed after later boxes)
        rest = [boxes[n] for n in sorted(p.index for p in placed[first_on_last:] if not p.repeat)]
        full = frames(last_page * cols).height
        # no column can be lower than the tallest run of boxes that must stay together
        lo, run = 0.0, 0.0
        for b in rest:
            run += b.height + (b.space_before if run else 0.0)
            lo = max(lo, run)
            if not b.keep_with_next:
                run = 0.0
        lo, hi = min(lo, full), full
        best = placed[first_on_last:]
        # the last page may open in the middle of a block: no float goes before its end
        opens_mid = first_on_last > 0 and placed[first_on_last - 1].box.continues
        for _ in range(18):
            mid = (lo + hi) / 2.0
            trial = flow(rest, lambda k, mid=mid: Frame(0.0, 0.0, mid), opens_mid)
            if trial and max(p.frame for p in trial) < cols and _kept(trial) and all(
                    p.y + p.box.height <= mid + 1e-6 for p in trial):
                hi = mid
                best = [Placed(p.frame + last_page * cols, p.y, p.box, p.repeat,
                               p.index) for p in trial]
            else:
                lo = mid
        placed = placed[:first_on_last] + best
    last_fill = sum(p.box.height for p in placed if p.frame // cols == last_page) / (
        frames(last_page * cols).height)
    pages: list[list[Item]] = [[] for _ in range(last_page + 1)]
    pages[0] += title_items
    for p in placed:
        frame = frames(p.frame)
        pages[p.frame // cols].append(Group(tuple(p.box.items), (frame.x, frame.y + p.y)))
    return pages, last_page + 1, last_fill


def _kept(placed: Sequence[Placed]) -> bool:
    """Whether every box that keeps with the next one shares its frame."""
    frame = {p.index: p.frame for p in placed if not p.repeat}
    return all(frame.get(p.index + 1, p.frame) == p.frame for p in placed
               if p.box.keep_with_next and not p.repeat)


def _title_block(doc: Document, setup: PageSetup, typo: Typography,
                 measure: Measure) -> tuple[list[Item], float]:
    pw = setup.size[0]
    width = pw - 2 * setup.margin
    size = min(typo.body * typo.title, 12.0)
    title = doc.meta["title"]
    while measure(title, size, True) > width and size > typo.body:
        size *= 0.95
    items: list[Item] = [Text(setup.margin, setup.top + size * CAP_HEIGHT, title, size,
                              fill=typo.accent, bold=True, cls="doc-title")]
    y = setup.top + size * CAP_HEIGHT
    subtitle = doc.meta.get("subtitle", "")
    if subtitle:
        sub = typo.body * 1.45
        for line in wrap((Run(subtitle),), sub, width, measure):
            y += sub * 1.35
            items += line_items(line, setup.margin, y, sub, typo.muted, measure)
    y += typo.body * 1.3
    items.append(Rect(setup.margin, y, width, 0.9, Style(fill=typo.highlight)))
    items.append(Rect(setup.margin, y + 0.9, 40.0, 0.9, Style(fill=typo.accent)))
    return items, y + 1.8 + typo.body * 1.2 - setup.top


def _footer(doc: Document, setup: PageSetup, typo: Typography, n: int,
            total: int) -> list[Item]:
    pw, ph = setup.size
    size = min(typo.body * 0.82, 2.8)
    y = ph - setup.bottom + 7.0
    items: list[Item] = [Polyline(((setup.margin, y - size * 1.6),
                                   (pw - setup.margin, y - size * 1.6)),
                                  Style(stroke="#b8b8b2", width=0.2))]
    footer = doc.meta.get("footer", doc.title)
    if footer:
        items.append(Text(setup.margin, y, footer, size, fill=typo.muted, cls="footer"))
    label = doc.meta.get("page", "{n} / {total}").replace("{n}", str(n)).replace(
        "{total}", str(total))
    items.append(Text(pw - setup.margin, y, label, size, fill=typo.muted, anchor="end",
                      cls="page-number"))
    return items


def typeset(doc: Document, setup: PageSetup, typo: Typography, art: Mapping[str, DiagramFn],
            max_pages: int | None = None, min_body: float = 2.2,
            max_art_fraction: float = 0.62) -> list[Drawing]:
    """The document as pages. With ``max_pages``, the text shrinks until it fits; a
    ``ValueError`` says so when even ``min_body`` mm text does not. Without it, a last
    page that would hold only a few lines is avoided by setting the text a little tighter
    (leading and diagrams) when that saves the page."""
    measure = Measure()
    body = typo.body
    while True:
        t = typo.scaled(body)
        pages, count, fill = _document_pages(doc, setup, t, art, measure, max_art_fraction)
        if max_pages is None or count <= max_pages:
            break
        body = round(body * 0.96, 3)
        if body < min_body:
            raise ValueError(f"{doc.source}: does not fit on {max_pages} page(s) even with "
                             f"{min_body:g} mm text; shorten it")
    if max_pages is None and count > 1 and fill < 0.3:
        # a last page with a few lines: set the text a little tighter (leading, then size)
        # when that saves the page
        for squeeze, smaller in ((0.97, 1.0), (0.94, 1.0), (0.94, 0.97), (0.92, 0.95)):
            tight = replace(t, leading=t.leading * squeeze, body=t.body * smaller)
            p2, c2, _ = _document_pages(doc, setup, tight, art, measure,
                                        max_art_fraction * squeeze)
            if c2 < count:
                pages, count, t = p2, c2, tight
                break
    drawings: list[Drawing] = []
    for n, items in enumerate(pages, start=1):
        items = items + _footer(doc, setup, t, n, count)
        drawings.append(Drawing(setup.size[0], setup.size[1], items,
                                f"{doc.title} — {n} of {count}"))
    return drawings

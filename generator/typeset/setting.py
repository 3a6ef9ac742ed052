"""Setting a document's text: the typography, measuring and wrapping lines, and composing
each block into unbreakable :class:`Box` es (a line of a paragraph, a table row, a diagram)
that :mod:`generator.typeset.pages` flows into columns and pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from generator.drawing import (
    CAP_HEIGHT,
    Group,
    Item,
    Polyline,
    Rect,
    Style,
    Text,
    text_width,
)
from generator.typeset.markup import (
    ICON_TEXT,
    Align,
    Block,
    DiagramFn,
    DiagramRef,
    Heading,
    ListItem,
    Note,
    Paragraph,
    Run,
    Runs,
    Table,
)

# --- typography ----------------------------------------------------------------------------


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
    rule_refs: bool = True  # print the rule numbers a block ends with (muted), or leave them out
    ref_ink: str = "#8c8c8c"
    min_art_text: float = 0.0  # mm: a diagram's labels are redrawn larger below this (Art.relabel)

    def scaled(self, body: float) -> Typography:
        return replace(self, body=body)


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
                current.append(Run(part, run.bold, run.icon, run.ref))
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
            line.append(Run(ch, run.bold, ref=run.ref))
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
            pieces[-1] = Run(last.text + " ", last.bold, last.icon, last.ref)
        for piece in pieces:
            if (out and out[-1].bold == piece.bold and out[-1].ref == piece.ref
                    and not out[-1].icon and not piece.icon):
                out[-1] = Run(out[-1].text + piece.text, piece.bold, ref=piece.ref)
            else:
                out.append(piece)
    return tuple(out)


def line_width(runs: Runs, size: float, measure: Callable[[str, float, bool], float]) -> float:
    return sum(measure(r.text, size, r.bold) for r in runs)


def line_items(runs: Runs, x: float, baseline: float, size: float, fill: str,
               measure: Callable[[str, float, bool], float], anchor: Align = "start",
               bold: bool = False, ref_fill: str | None = None) -> list[Item]:
    """One line of runs as Text items placed side by side; rule numbers in ``ref_fill``."""
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
            out.append(Text(x, baseline, run.text, size,
                            fill=(ref_fill or fill) if run.ref else fill,
                            bold=bold or run.bold, cls="rule-refs" if run.ref else None))
        x += w
    return out


def _baseline(lead: float, size: float) -> float:
    """Baseline that centres cap height plus descender in a line ``lead`` tall."""
    return lead / 2.0 + size * (CAP_HEIGHT - 0.236) / 2.0


# --- blocks into boxes --------------------------------------------------------------------


class Composer:
    """A document's blocks as boxes one column wide, in its typography."""

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
        lines = wrap(self._shown(runs), size, width, self._bold_measure(bold))
        base = _baseline(lead, size)
        return [Box(lead, line_items(line, x, base, size, fill, self.m, bold=bold,
                                     ref_fill=self.t.ref_ink))
                for line in lines]

    def _shown(self, runs: Runs) -> Runs:
        """``runs`` as printed: without the rule numbers where the typography leaves them
        out (player aids)."""
        return runs if self.t.rule_refs else tuple(r for r in runs if not r.ref)

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
        for _ in range(3):  # drawn this small, its labels would be hard to read: larger ones
            smallest = _smallest_text(art.items) * scale
            if art.relabel is None or smallest >= self.t.min_art_text:
                break
            art = art.relabel(self.t.min_art_text / smallest * 1.02)
            scale = min(art.max_scale, self.width / art.width, self.max_art_height / art.height)
        w, h = art.width * scale, art.height * scale
        items: list[Item] = [Group(art.items, ((self.width - w) / 2.0, 0.0), scale=scale,
                                   cls=f"diagram {block.name}")]
        size = self.t.body * 0.86
        lead = size * 1.35
        y = h + self.t.body * 0.6
        for line in wrap(self._shown(block.caption), size, self.width - 4.0, self.m):
            items += line_items(line, self.width / 2.0, y + _baseline(lead, size), size,
                                self.t.muted, self.m, anchor="middle", ref_fill=self.t.ref_ink)
            y += lead
        # room below the caption too: text may follow a diagram that opens a column
        return [Box(y + self.t.body * 0.7, items, space_before=self.t.body * 0.6,
                    floating=True)]


def _smallest_text(items: Sequence[Item], scale: float = 1.0) -> float:
    """The size of the smallest text among ``items`` (groups' scales applied; inf if none)."""
    sizes = [i.size * scale for i in items if isinstance(i, Text)]
    sizes += [_smallest_text(i.items, scale * i.scale) for i in items if isinstance(i, Group)]
    return min(sizes, default=float("inf"))


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



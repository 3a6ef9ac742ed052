"""Flowing a document's boxes into columns and pages: the title block, the frames of every
page's columns, floats that wait for room, headings kept with their text, the last page's
columns balanced, the footer; :func:`typeset` is the whole of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from generator.drawing import (
    CAP_HEIGHT,
    Drawing,
    Group,
    Item,
    Polyline,
    Rect,
    Style,
    Text,
)
from generator.typeset.markup import DiagramFn, Document, Run
from generator.typeset.setting import Box, Composer, Measure, Typography, line_items, wrap


@dataclass(frozen=True)
class PageSetup:
    size: tuple[float, float]
    columns: int = 2
    margin: float = 15.0  # left and right
    top: float = 14.0
    bottom: float = 17.0
    gap: float = 7.0
    footer: float = 7.0  # the footer's baseline, this far below the bottom margin's top
    art_on_first: bool = True  # a diagram is never taller than the first page's body can hold
    whole_blocks: bool = False  # a block (paragraph, item, table) that fits one page is never
    # split between two (cards: each reads on its own)

    @property
    def column_width(self) -> float:
        usable = self.size[0] - 2 * self.margin
        return (usable - (self.columns - 1) * self.gap) / self.columns

    def column_x(self, k: int) -> float:
        return self.margin + k * (self.column_width + self.gap)



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
    room = min(body_h_first, body_h) if setup.art_on_first else body_h
    composer = Composer(typo, cw, art, room * max_art_fraction, measure)
    boxes = composer.boxes(doc.blocks)
    if setup.whole_blocks:
        boxes = [replace(b, keep_with_next=True) if b.continues else b for b in boxes]
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
    size = max(min(typo.body * 0.82, 2.8), 2.47)  # never below 7 pt
    y = ph - setup.bottom + setup.footer
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


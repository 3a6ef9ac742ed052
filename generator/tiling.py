"""A board larger than the paper, printed at 100 %: pieces cut along its cell lines, glue
flaps outside the art, and pieces (plus loose panels such as the trackers) packed onto as
few pages as they fit.

Each piece is a block of whole cells (with the board's margin where it has one). Where a
piece has a neighbour to its right or below, a glue flap continues it: its first 3 mm are
the neighbour's art (so a neighbour laid a little short shows no gap), the rest is a grey
glue area that ends up under the neighbour. Where a piece has a neighbour to its left or
above, it is cut exactly on the cell line (the grid line printed there), with 3 mm of the
neighbour's art beyond as bleed; short crop marks continue every cut line. Nothing is
printed over the art, so the assembled board shows no strips or bands.

Pieces and panels are packed with a guillotine packer (a piece may turn a quarter); the
split of the board that needs the fewest pages (then the fewest pieces) wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.drawing import (
    Drawing,
    Group,
    Item,
    Polyline,
    Rect,
    Style,
    Text,
    fit_size,
    text_width,
)
from generator.sheets import MARGIN_MM, MARK_GAP_MM, MARK_LEN_MM, MARK_STYLE
from generator.stamp import STAMP_CLASS

FLAP_MM = 10.0  # a glue flap, its first ART_BLEED_MM being the neighbour's art
ART_BLEED_MM = 3.0
GLUE_FILL = "#e4e4e4"
GLUE_INK = "#6d6d6d"
SPACE_MM = 1.0  # between the crop marks of neighbouring pieces
CAPTION_MM = 8.0  # room for two caption lines at the top of a page
MARKS = MARK_GAP_MM + MARK_LEN_MM

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Piece:
    """One piece of the board: cells ``[col0, col1)`` x ``[row0, row1)``; ``cut`` is its
    outline in the board drawing's coordinates (flaps included), ``bleed`` how far the art
    runs on past the cut (left, top; right and bottom cuts are flap edges or the board's
    own edge), ``flaps`` which sides carry one."""

    name: str
    col0: int
    col1: int
    row0: int
    row1: int
    cut: Box
    visible: Box  # what of the board this piece shows once the board is assembled
    bleed: tuple[float, float]
    flaps: tuple[bool, bool]  # (right, bottom)
    covers: tuple[str, str]  # the pieces lying on the right and bottom flaps

    @property
    def origin(self) -> tuple[float, float]:
        """The board-drawing point at the top-left of the piece's footprint."""
        return (self.cut[0] - self.bleed[0] - MARKS, self.cut[1] - self.bleed[1] - MARKS)

    @property
    def footprint(self) -> tuple[float, float]:
        """Width and height the piece needs on a page, crop marks included."""
        x0, y0, x1, y1 = self.cut
        return (x1 - x0 + self.bleed[0] + 2 * MARKS + SPACE_MM,
                y1 - y0 + self.bleed[1] + 2 * MARKS + SPACE_MM)


@dataclass(frozen=True)
class Placed:
    """Something placed on a page: index into the things packed, top-left of its footprint
    (page mm) and whether it is turned a quarter clockwise."""

    index: int
    x: float
    y: float
    turned: bool


@dataclass(frozen=True)
class Tiled:
    pieces: tuple[Piece, ...]
    pages: tuple[tuple[Placed, ...], ...]  # per page; indices past the pieces are panels


def _parts(n: int, sizes: Sequence[int]) -> list[tuple[int, int]]:
    out, start = [], 0
    for k in sizes:
        out.append((start, start + k))
        start += k
    assert start == n
    return out


def _splits(n: int, extent: Callable[[int, int], float], limits: Sequence[float]) -> list[
        tuple[int, ...]]:
    """Ways to cut ``n`` cells into runs: even splits into 1..n parts, and greedy runs as long
    as each limit allows (``extent(a, b)`` is the length a run [a, b) needs)."""
    found: list[tuple[int, ...]] = []
    for k in range(1, n + 1):
        sizes = tuple(n // k + (1 if i < n % k else 0) for i in range(k))
        found.append(sizes)
    for limit in limits:
        sizes_l: list[int] = []
        a = 0
        while a < n:
            b = a + 1
            while b < n and extent(a, b + 1) <= limit:
                b += 1
            sizes_l.append(b - a)
            a = b
        found.append(tuple(sizes_l))
    unique: list[tuple[int, ...]] = []
    for f in found:
        if f not in unique:
            unique.append(f)
    return unique


def _pieces(n: int, cell: float, label: float, cols: Sequence[int],
            rows: Sequence[int]) -> list[Piece]:
    """The pieces of an ``n`` x ``n`` board for the given runs of columns and rows."""
    col_parts, row_parts = _parts(n, cols), _parts(n, rows)
    names = [chr(ord("A") + i) if i < 26 else f"P{i + 1}"
             for i in range(len(col_parts) * len(row_parts))]
    full = 2 * label + n * cell
    pieces: list[Piece] = []
    for j, (r0, r1) in enumerate(row_parts):
        for i, (c0, c1) in enumerate(col_parts):
            name = names[j * len(col_parts) + i]
            x0 = label + c0 * cell if c0 else 0.0
            y0 = label + r0 * cell if r0 else 0.0
            vis_x1 = label + c1 * cell if c1 < n else full
            vis_y1 = label + r1 * cell if r1 < n else full
            right, bottom = c1 < n, r1 < n
            x1 = vis_x1 + FLAP_MM if right else vis_x1
            y1 = vis_y1 + FLAP_MM if bottom else vis_y1
            right_name = names[j * len(col_parts) + i + 1] if right else ""
            below_name = names[(j + 1) * len(col_parts) + i] if bottom else ""
            pieces.append(Piece(name, c0, c1, r0, r1, (x0, y0, x1, y1),
                                (x0, y0, vis_x1, vis_y1),
                                (ART_BLEED_MM if c0 else 0.0, ART_BLEED_MM if r0 else 0.0),
                                (right, bottom), (right_name, below_name)))
    return pieces


def pack(sizes: Sequence[tuple[float, float]], area: tuple[float, float]) -> list[list[Placed]]:
    """Guillotine packing of boxes (each may turn a quarter) onto as many ``area``-sized
    pages as needed, largest first; ``ValueError`` if a box fits no page at all."""
    order = sorted(range(len(sizes)), key=lambda i: -sizes[i][0] * sizes[i][1])
    pages: list[tuple[list[Box], list[Placed]]] = []
    aw, ah = area
    for i in order:
        w, h = sizes[i]
        if not ((w <= aw and h <= ah) or (h <= aw and w <= ah)):
            raise ValueError(f"a board piece of {w:.0f} x {h:.0f} mm fits no page")
        best: tuple[float, int, int, bool] | None = None  # (leftover, page, free rect, turn)
        for p, (free, _) in enumerate(pages):
            for f, (fx0, fy0, fx1, fy1) in enumerate(free):
                for turned in (False, True):
                    pw, ph = (h, w) if turned else (w, h)
                    if pw <= fx1 - fx0 + 1e-9 and ph <= fy1 - fy0 + 1e-9:
                        leftover = min(fx1 - fx0 - pw, fy1 - fy0 - ph)
                        # upright where it fits (text reads), else the tightest fit
                        if best is None or (turned, leftover) < (best[3], best[0]):
                            best = (leftover, p, f, turned)
            if best is not None:
                break
        if best is None:
            pages.append(([(0.0, 0.0, aw, ah)], []))
            turned = not (w <= aw and h <= ah)
            best = (0.0, len(pages) - 1, 0, turned)
        _, p, f, turned = best
        free, placed = pages[p]
        fx0, fy0, fx1, fy1 = free.pop(f)
        pw, ph = (h, w) if turned else (w, h)
        placed.append(Placed(i, fx0, fy0, turned))
        # split what is left of the free rectangle so the larger part stays whole
        right_tall = (fx0 + pw, fy0, fx1, fy1)
        below_short = (fx0, fy0 + ph, fx0 + pw, fy1)
        right_short = (fx0 + pw, fy0, fx1, fy0 + ph)
        below_wide = (fx0, fy0 + ph, fx1, fy1)

        def area_of(b: Box) -> float:
            return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])

        if max(area_of(right_tall), area_of(below_short)) >= max(area_of(right_short),
                                                                  area_of(below_wide)):
            parts = [right_tall, below_short]
        else:
            parts = [right_short, below_wide]
        free.extend(b for b in parts if b[2] - b[0] > 1.0 and b[3] - b[1] > 1.0)
        free.sort(key=lambda b: (b[1], b[0]))
    return [placed for _, placed in pages]


def tile_board(n: int, cell: float, label: float, page: tuple[float, float],
               panels: Sequence[tuple[float, float]] = ()) -> Tiled:
    """The split of an ``n`` x ``n`` board (cells of ``cell`` mm, a ``label`` mm margin round
    it) and the packing of its pieces and ``panels`` (their footprints) that needs the fewest
    pages on ``page``, then the fewest pieces."""
    area = (page[0] - 2 * MARGIN_MM, page[1] - 2 * MARGIN_MM - CAPTION_MM)

    def extent(a: int, b: int) -> float:  # a run of cells with what surrounds it on paper
        lead = label if a == 0 else ART_BLEED_MM
        tail = label if b == n else FLAP_MM
        return lead + (b - a) * cell + tail + 2 * MARKS + SPACE_MM

    limits = sorted(set(area))
    best: tuple[tuple[int, int, float], Tiled] | None = None
    for cols in _splits(n, extent, limits):
        for rows in _splits(n, extent, limits):
            pieces = _pieces(n, cell, label, cols, rows)
            sizes = [p.footprint for p in pieces] + list(panels)
            try:
                pages = pack(sizes, area)
            except ValueError:
                continue
            # the fewest pages, then the fewest pieces, then the emptiest page the fullest
            used = [sum(sizes[q.index][0] * sizes[q.index][1] for q in p) for p in pages]
            rank = (len(pages), len(pieces), -min(used))
            if best is None or rank < best[0]:
                best = (rank, Tiled(tuple(pieces), tuple(tuple(p) for p in pages)))
    if best is None:
        raise ValueError(f"the board ({n} cells of {cell:g} mm) cannot be split to fit the "
                         f"page even one cell per piece")
    return best[1]


def cell_range(piece: Piece, column_name: Callable[[int], str]) -> str:
    cols = column_name(piece.col0) + (f"–{column_name(piece.col1 - 1)}"
                                      if piece.col1 - piece.col0 > 1 else "")
    rows = str(piece.row0 + 1) + (f"–{piece.row1}" if piece.row1 - piece.row0 > 1 else "")
    return f"{cols} {rows}"


def _overlaps(text: Text, box: Rect) -> bool:
    """Whether ``text`` (in the board's frame, unturned) reaches into ``box``."""
    w = text_width(text.text, text.size, text.bold)
    x0 = text.x - {"start": 0.0, "middle": w / 2.0, "end": w}[text.anchor]
    return (x0 < box.x + box.w and x0 + w > box.x
            and text.y - text.size < box.y + box.h and text.y + text.size * 0.3 > box.y)


def piece_items(piece: Piece, board: Sequence[Item], glue: str) -> list[Item]:
    """A piece drawn with the top-left of its footprint at (0, 0): the board's art clipped
    to what the piece shows (with its bleed and the 3 mm that start its flaps), the grey
    glue areas (``glue`` is their wording; ``{name}`` becomes the piece laid on them), and
    crop marks continuing every cut line."""
    x0, y0, x1, y1 = piece.cut
    bl, bt = piece.bleed
    ox, oy = -piece.origin[0], -piece.origin[1]  # board drawing -> footprint coordinates
    vx1, vy1 = piece.visible[2], piece.visible[3]
    art_x1 = vx1 + ART_BLEED_MM if piece.flaps[0] else x1
    art_y1 = vy1 + ART_BLEED_MM if piece.flaps[1] else y1
    clip = Rect(x0 - bl, y0 - bt, art_x1 - x0 + bl, art_y1 - y0 + bt, Style())
    # words of the board that fall wholly outside the piece are left out: clipped, they
    # would print nothing but still lie in the page's text, off the paper
    # the design stamp only on the piece that shows it once assembled, not in a
    # neighbour's bleed (trimmed away, it would still be in that page's text)
    vx0, vy0 = piece.visible[0], piece.visible[1]
    seen = Rect(vx0, vy0, vx1 - vx0, vy1 - vy0, Style())
    shown = [i for i in board if not isinstance(i, Text) or (
        _overlaps(i, seen) if i.cls == STAMP_CLASS else _overlaps(i, clip))]
    items: list[Item] = [Group(tuple(shown), (ox, oy), clip=clip, cls="board-piece")]
    flaps: list[tuple[Box, str]] = []
    if piece.flaps[0]:
        flaps.append(((art_x1, y0 - bt, x1, art_y1 if not piece.flaps[1] else y1),
                      piece.covers[0]))
    if piece.flaps[1]:
        flaps.append(((x0 - bl, art_y1, art_x1, y1), piece.covers[1]))
    for (fx0, fy0, fx1, fy1), under in flaps:
        w, h = fx1 - fx0, fy1 - fy0
        items.append(Rect(fx0 + ox, fy0 + oy, w, h, Style(fill=GLUE_FILL), cls="glue-flap"))
        word = glue.replace("{name}", under)
        vertical = h > w
        size = fit_size(word, min(w, h) * 0.45, max(w, h) - 4.0)
        items.append(Text(fx0 + ox + w / 2 + (size * 0.36 if vertical else 0.0),
                          fy0 + oy + h / 2 + (0.0 if vertical else size * 0.36), word, size,
                          fill=GLUE_INK, anchor="middle", rotate=-90.0 if vertical else 0.0))
    # the outer edges of the flaps are cut lines on paper: draw them
    edge = Style(stroke=GLUE_INK, width=0.2)
    if piece.flaps[0]:
        items.append(Polyline(((x1 + ox, y0 - bt + oy), (x1 + ox, y1 + oy)), edge))
    if piece.flaps[1]:
        items.append(Polyline(((x0 - bl + ox, y1 + oy), (x1 + ox, y1 + oy)), edge))
    items += crop_marks((x0 + ox, y0 + oy, x1 + ox, y1 + oy), (bl, bt))
    return items


def crop_marks(cut: Box, bleed: tuple[float, float] = (0.0, 0.0)) -> list[Item]:
    """Crop marks continuing the four cut lines past each corner, outside the bleed."""
    x0, y0, x1, y1 = cut
    bl, bt = bleed
    out: list[Item] = []
    for x, sx, gx in ((x0, -1, bl), (x1, 1, 0.0)):
        for y, sy, gy in ((y0, -1, bt), (y1, 1, 0.0)):
            # the vertical cut line through x runs on past y; the horizontal through y past x
            a = gy + MARK_GAP_MM
            out.append(Polyline(((x, y + sy * a), (x, y + sy * (a + MARK_LEN_MM))),
                                MARK_STYLE, cls="crop-mark"))
            b = gx + MARK_GAP_MM
            out.append(Polyline(((x + sx * b, y), (x + sx * (b + MARK_LEN_MM), y)),
                                MARK_STYLE, cls="crop-mark"))
    return out


def page_drawings(tiled: Tiled, page: tuple[float, float],
                  things: Sequence[tuple[list[Item], tuple[float, float]]],
                  captions: Sequence[str], title: str) -> list[Drawing]:
    """The pages: every packed thing (``things[i]`` = its items with the top-left of its
    footprint at (0, 0), and that footprint) placed and turned as packed, under the page's
    caption lines."""
    area_w = page[0] - 2 * MARGIN_MM
    out: list[Drawing] = []
    for k, placed in enumerate(tiled.pages):
        used_w = max((p.x + (things[p.index][1][1] if p.turned else things[p.index][1][0])
                      for p in placed), default=0.0)
        left = MARGIN_MM + (area_w - used_w) / 2.0
        top = MARGIN_MM + CAPTION_MM
        d = Drawing(page[0], page[1], title=f"{title} {k + 1}")
        for p in placed:
            items, (w, h) = things[p.index]
            cls = (f"piece {tiled.pieces[p.index].name}" if p.index < len(tiled.pieces)
                   else "panel")
            if p.turned:  # a quarter turn clockwise: the footprint's height becomes its width
                d.add(Group(tuple(items), (left + p.x + h, top + p.y), rotate=90.0, cls=cls))
            else:
                d.add(Group(tuple(items), (left + p.x, top + p.y), cls=cls))
        lines = captions[k].split("\n")
        for i, line in enumerate(lines):
            size = fit_size(line, 2.6, page[0] - 2 * MARGIN_MM)
            d.add(Text(MARGIN_MM, MARGIN_MM + 2.6 + i * 3.4, line, size, fill="#444444",
                       cls="page-caption"))
        out.append(d)
    return out

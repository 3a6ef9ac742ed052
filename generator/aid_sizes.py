"""The player aid in the two smaller sizes a kit also prints it in.

- **2-up**: the aid set on half the paper (A5 on A4, half-letter on Letter), two half
  pages side by side on one landscape sheet (``<game>/player-aid-<lang>-2up.pdf``). An aid
  that fits one half page is printed twice, with a cut line between the copies; one that
  takes two (the shipped ones, at 7 pt and more) has its two pages side by side and a fold
  line between them: folded with the printed sides out it is an A5 aid printed on both
  sides, from a one-sided print.
- **Cards**: the aid flowed onto poker-size cards (63.5 x 88.9 mm, the size card sleeves
  are made for), numbered "1 / n", as many whole sets as fit on a sheet, with crop marks
  along the grid's edges only, so every mark stays in the margin
  (``<game>/player-aid-<lang>-cards.pdf``).

Both keep the build's margin (:data:`generator.sheets.MARGIN_MM`) from the paper's edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.drawing import Drawing, Group, Item, Polyline, Style, Text
from generator.sheets import MARGIN_MM, MARK_GAP_MM, MARK_LEN_MM, MARK_STYLE
from generator.typeset.pages import PageSetup

CARD_MM = (63.5, 88.9)  # poker size, 2.5 x 3.5 in
CUT_STYLE = Style(stroke="#8c8c8c", width=0.25, dash=(2.0, 1.5))
FOLD_STYLE = Style(stroke="#8c8c8c", width=0.25, dash=(4.0, 1.2, 0.6, 1.2))  # dash-dot


def half_page(paper: tuple[float, float]) -> tuple[float, float]:
    """Half the paper, portrait: A5 of A4, half-letter of Letter."""
    w, h = sorted(paper)
    return (h / 2.0, w)


def half_setup(paper: tuple[float, float]) -> PageSetup:
    """The aid's page on half the paper: two columns, margins that keep 6.5 mm and more
    from every edge of the sheet (and from the cut)."""
    return PageSetup(half_page(paper), margin=9.0, top=9.0, bottom=12.0, gap=4.5, footer=4.5)


def card_setup() -> PageSetup:
    """One card: a single column, 4 mm from the cut (the footer's baseline 3.5 mm); a
    paragraph, item or table that fits one card is not split between two."""
    return PageSetup(CARD_MM, columns=1, margin=4.0, top=4.5, bottom=8.0, gap=0.0,
                     footer=4.5, art_on_first=False, whole_blocks=True)


def two_up(pages: Sequence[Drawing], paper: tuple[float, float], fold_note: str = "") -> Drawing:
    """The half-size aid on the landscape ``paper``. One page: two copies side by side, a
    dashed cut line and scissors between them. Two pages: side by side, a fold line between
    them (and ``fold_note`` on it): folded with the printed sides out, the sheet is the aid
    printed on both sides, with no duplex printing to line up."""
    w, h = sorted(paper, reverse=True)
    half = pages[0].width
    shown = [pages[0], pages[0]] if len(pages) == 1 else list(pages[:2])
    items: list[Item] = [Group(tuple(page.items), (k * half, 0.0), cls="aid-page")
                         for k, page in enumerate(shown)]
    if len(pages) == 1:
        items.append(Polyline(((half, MARGIN_MM), (half, h - MARGIN_MM)), CUT_STYLE,
                              cls="cut-line"))
        items.append(Text(half, MARGIN_MM + 2.4, "✂", 3.2, fill="#8c8c8c", anchor="middle",
                          cls="cut-mark"))
    else:
        items.append(Polyline(((half, MARGIN_MM + 3.2), (half, h - MARGIN_MM)), FOLD_STYLE,
                              cls="fold-line"))
        if fold_note:
            items.append(Text(half, MARGIN_MM + 2.0, fold_note, 2.3, fill="#6f6f6f",
                              anchor="middle", cls="fold-note"))
    return Drawing(w, h, items, f"{pages[0].title.split(' — ')[0]} (2-up)")


def card_grid(paper: tuple[float, float]) -> tuple[int, int, float, float]:
    """Columns, rows and the top-left corner of the cards' grid on ``paper`` (portrait):
    the cards touch (one cut between two), and the crop marks outside the grid stay in the
    margin."""
    pw, ph = paper
    room = MARK_GAP_MM + MARK_LEN_MM
    cw, ch = CARD_MM
    cols = int((pw - 2 * (MARGIN_MM + room)) // cw)
    rows = int((ph - 2 * (MARGIN_MM + room)) // ch)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {cw} x {ch} mm card does not fit on the paper")
    return cols, rows, (pw - cols * cw) / 2.0, (ph - rows * ch) / 2.0


def _grid_marks(cols: int, rows: int, x0: float, y0: float) -> list[Item]:
    cw, ch = CARD_MM
    x1, y1 = x0 + cols * cw, y0 + rows * ch
    gap, length = MARK_GAP_MM, MARK_LEN_MM
    out: list[Item] = []
    for c in range(cols + 1):
        x = x0 + c * cw
        out.append(Polyline(((x, y0 - gap), (x, y0 - gap - length)), MARK_STYLE, cls="crop-mark"))
        out.append(Polyline(((x, y1 + gap), (x, y1 + gap + length)), MARK_STYLE, cls="crop-mark"))
    for r in range(rows + 1):
        y = y0 + r * ch
        out.append(Polyline(((x0 - gap, y), (x0 - gap - length, y)), MARK_STYLE, cls="crop-mark"))
        out.append(Polyline(((x1 + gap, y), (x1 + gap + length, y)), MARK_STYLE, cls="crop-mark"))
    return out


def card_sheets(cards: Sequence[Drawing], paper: tuple[float, float]) -> list[Drawing]:
    """The aid's cards on sheets of ``paper``: as many whole sets as one sheet holds (at
    least one set, on as many sheets as it takes)."""
    cols, rows, x0, y0 = card_grid(paper)
    slots = cols * rows
    n = len(cards)
    sets = max(1, slots // n)
    order = [card for _ in range(sets) for card in cards]
    sheets: list[Drawing] = []
    title = cards[0].title.split(" — ")[0] if cards else "player aid"
    for start in range(0, len(order), slots):
        chunk = order[start:start + slots]
        items: list[Item] = []
        for k, card in enumerate(chunk):
            r, c = divmod(k, cols)
            items.append(Group(tuple(card.items), (x0 + c * CARD_MM[0], y0 + r * CARD_MM[1]),
                               cls="aid-card"))
        used_rows = (len(chunk) + cols - 1) // cols
        used_cols = cols if used_rows > 1 else len(chunk)
        items += _grid_marks(used_cols, used_rows, x0, y0)
        sheets.append(Drawing(paper[0], paper[1], items,
                              f"{title} — cards, sheet {len(sheets) + 1}"))
    return sheets

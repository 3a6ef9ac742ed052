"""The picture of a scored board (``--svg``/``--png``), as a drawing description.

The board with its satellites drawn as the printed tokens, connections as
bars between linked satellites, each colony tinted and outlined in its
controller's colour (grey and dashed when contested), its label in a badge,
crowned colonies marked with a crown, contested ones with an equals sign, and
cells named in a violation ringed in orange. Below the board, the same facts
in words: the winner, the end state and one line per group.
"""

from __future__ import annotations

from collections.abc import Iterable

from cards.definitions import SatellitesDefinitions, load_satellites
from generator.drawing import (
    Circle,
    Drawing,
    Group,
    Item,
    Point,
    Polygon,
    Polyline,
    Rect,
    Style,
    Text,
    text_centred,
    text_width,
)
from generator.fit import wrap
from scorer.satellites.board import RED, column_name
from scorer.satellites.score import Cell, Score

CELL = 14.0  # mm per board cell in the picture
TOKEN = 11.2  # token diameter in the picture
LABEL = 8.0  # coordinate margin
MARGIN = 6.0
INK = "#1d1d1f"
GREY = "#8a8a8a"
CONTESTED_TINT = "#e6e6e6"
WARN = "#ef6c00"
GOLD = "#f2b705"
WHITE = "#ffffff"
MIN_WIDTH = 170.0
TEXT = 3.3
LINE = 5.0


def board_picture(result: Score, title: str = "Satellites",
                  defs: SatellitesDefinitions | None = None) -> Drawing:
    """The scored board as a :class:`Drawing` (millimetres)."""
    defs = defs or load_satellites()
    look = defs.board
    colour = {RED: look.red.colour, "blue": look.blue.colour}
    light = {RED: look.red.light, "blue": look.blue.light}
    board = result.board
    cols, rows = board.width, board.height
    grid_w, grid_h = cols * CELL, rows * CELL
    width = max(MIN_WIDTH, grid_w + 2 * (LABEL + MARGIN))
    x0 = (width - grid_w) / 2.0
    y0 = MARGIN + 13.0 + LABEL

    def origin(cell: Cell) -> Point:
        return (x0 + cell[1] * CELL, y0 + cell[0] * CELL)

    def centre(cell: Cell) -> Point:
        x, y = origin(cell)
        return (x + CELL / 2.0, y + CELL / 2.0)

    items: list[Item] = [Rect(0, 0, width, 0, Style(fill=WHITE))]  # height set below
    items.append(Rect(x0, y0, grid_w, grid_h, Style(fill=look.background), cls="board"))

    # colony tints, under the grid lines
    for g in result.groups:
        if not g.colony:
            continue
        tint = light[g.controller] if g.controller else CONTESTED_TINT
        for cell in g.cells:
            x, y = origin(cell)
            items.append(Rect(x, y, CELL, CELL, Style(fill=tint), cls=f"colony {g.label}"))

    grid = Style(stroke=look.grid, width=0.3)
    for i in range(cols + 1):
        items.append(Polyline(((x0 + i * CELL, y0), (x0 + i * CELL, y0 + grid_h)), grid))
    for i in range(rows + 1):
        items.append(Polyline(((x0, y0 + i * CELL), (x0 + grid_w, y0 + i * CELL)), grid))
    items.append(Rect(x0, y0, grid_w, grid_h, Style(stroke=INK, width=0.7)))
    for c in range(cols):
        cx = x0 + (c + 0.5) * CELL
        items.append(text_centred(cx, y0 - LABEL / 2, column_name(c), 3.4, fill=INK, bold=True))
        items.append(text_centred(cx, y0 + grid_h + LABEL / 2, column_name(c), 3.4, fill=INK,
                                  bold=True))
    for r in range(rows):
        cy = y0 + (r + 0.5) * CELL
        items.append(text_centred(x0 - LABEL / 2, cy, str(r + 1), 3.4, fill=INK, bold=True))
        items.append(text_centred(x0 + grid_w + LABEL / 2, cy, str(r + 1), 3.4, fill=INK,
                                  bold=True))

    # colony outlines
    for g in result.groups:
        if not g.colony:
            continue
        if g.controller:
            style = Style(stroke=colour[g.controller], width=0.9, join="round")
        else:
            style = Style(stroke=GREY, width=0.9, dash=(2.0, 1.2), join="round")
        for loop in _outline(g.cells):
            points = tuple((x0 + x * CELL, y0 + y * CELL) for x, y in loop)
            items.append(Polygon(points, style, cls=f"outline {g.label}"))

    # connections: a bar between every two linked satellites
    bar = Style(stroke=INK, width=1.6, cap="round")
    for cell, other in result.links:
        items.append(Polyline((centre(cell), centre(other)), bar, cls="connection"))

    # satellites, drawn as the printed tokens
    for (r, c), sat in sorted(result.satellites.items()):
        token = _token(defs, sat.colour, sat.value)
        items.append(Group(tuple(token), centre((r, c)), cls=f"satellite {sat.token}"))

    # every cell a violation concerns
    for at in sorted({cell for cells in result.violation_cells for cell in cells}):
        if not (0 <= at[0] < rows and 0 <= at[1] < cols):
            continue
        x, y = origin(at)
        items.append(Rect(x + 0.5, y + 0.5, CELL - 1.0, CELL - 1.0,
                          Style(stroke=WARN, width=0.8, dash=(1.2, 0.8)), cls="violation"))

    # group badges, crowns and contested marks on each group's first cell
    for g in result.groups:
        x, y = origin(g.cells[0])
        if g.controller:
            fill = colour[g.controller]
        elif g.colony:
            fill = GREY
        else:
            fill = "#5f5f5f"
        items.append(Circle(x + 2.6, y + 2.6, 2.3, Style(fill=fill, stroke=WHITE, width=0.35),
                            cls="badge"))
        items.append(text_centred(x + 2.6, y + 2.6, g.label, 2.6 if len(g.label) == 1 else 1.8,
                                  fill=WHITE, bold=True))
        if g.crowned:
            items.append(Group(tuple(_crown()), (x + CELL - 2.8, y + 2.6), cls="crown"))
        if g.contested:
            # bottom-right, so a crowned contested colony shows both marks
            mx, my = x + CELL - 2.6, y + CELL - 2.6
            items.append(Circle(mx, my, 2.3, Style(fill=WHITE, stroke=INK, width=0.35),
                                cls="contested"))
            items.append(text_centred(mx, my - 0.1, "=", 3.6, fill=INK, bold=True))

    # the same facts in words
    text_w = width - 2 * MARGIN
    headline = _headline(result)
    items.append(Text(MARGIN, MARGIN + 4.5, headline, 4.6, fill=INK, bold=True))
    items.append(Text(MARGIN, MARGIN + 10.0, _fit(title, 3.0, text_w), 3.0, fill=GREY))
    y = y0 + grid_h + LABEL + 6.0
    lines: list[tuple[str, bool, str]] = []
    for para in (result.decision[0].upper() + result.decision[1:] + ".",
                 result.end.message[0].upper() + result.end.message[1:] + "."):
        lines.extend((ln, False, INK) for ln in wrap(para, TEXT, text_w))
    con = result.connected
    lines.append((f"Connected: red {con[RED]}, blue {con['blue']}; colonies controlled: "
                  f"red {result.colonies[RED]}, blue {result.colonies['blue']}", False, INK))
    for g in result.groups:
        kind = "colony" if g.colony else "pair" if g.size == 2 else "group"
        who = (f"controlled by {g.controller}" if g.controller else
               "contested" if g.contested else "not a colony")
        crown = ", crowned" if g.crowned else ""
        line = (f"{g.label}: {kind} of {g.size}, red {g.red}, blue {g.blue}, total {g.total}, "
                f"{who}{crown}")
        ink = colour[g.controller] if g.controller else INK
        lines.extend((ln, False, ink) for ln in wrap(line, TEXT, text_w))
    if result.violations:
        n = len(result.violations)
        note = (f"NOT VALID: {n} violation{'s' if n != 1 else ''} (cells ringed in orange; "
                f"the terminal summary and --json list them)")
        lines.extend((ln, True, WARN) for ln in wrap(note, TEXT, text_w, bold=True))
    for text, bold, ink in lines:
        items.append(Text(MARGIN, y, text, TEXT, fill=ink, bold=bold))
        y += LINE
    height = y + MARGIN - LINE / 2
    items[0] = Rect(0, 0, width, height, Style(fill=WHITE))
    return Drawing(width, height, items, title)


def _headline(result: Score) -> str:
    tie = " on the tie-break" if result.tiebreak and result.winner is not None else ""
    if result.end.over is True:
        return f"{result.winner.capitalize()} wins{tie}" if result.winner else "Draw"
    if result.winner is None:
        return "Level: a draw if the game ended now"
    return f"{result.winner.capitalize()} ahead{tie} (game not over)"


def _token(defs: SatellitesDefinitions, colour: str, value: int) -> list[Item]:
    from generator.components.satellites import satellite_token

    return satellite_token(defs, colour, value, TOKEN, cut_line=False)


def _crown() -> list[Item]:
    """A small crown centred on (0, 0)."""
    pts = ((-2.2, 1.4), (-2.2, -1.0), (-1.1, 0.1), (0.0, -1.6), (1.1, 0.1), (2.2, -1.0),
           (2.2, 1.4))
    return [Circle(0, 0.0, 2.6, Style(fill=WHITE, stroke=INK, width=0.3)),
            Polygon(pts, Style(fill=GOLD, stroke=INK, width=0.3, join="round"))]


def _outline(cells: Iterable[Cell]) -> list[tuple[Point, ...]]:
    """The boundary of a set of cells as closed loops, in grid units ``(x=column, y=row)``."""
    inside = set(cells)
    edges: dict[Point, list[Point]] = {}
    for r, c in sorted(inside):
        x, y = float(c), float(r)
        sides = (
            ((r - 1, c), (x, y), (x + 1, y)),  # north, west to east
            ((r, c + 1), (x + 1, y), (x + 1, y + 1)),  # east, north to south
            ((r + 1, c), (x + 1, y + 1), (x, y + 1)),  # south, east to west
            ((r, c - 1), (x, y + 1), (x, y)),  # west, south to north
        )
        for neighbour, a, b in sides:
            if neighbour not in inside:
                edges.setdefault(a, []).append(b)
    loops: list[tuple[Point, ...]] = []
    for start in sorted(edges):
        while edges.get(start):
            loop = [start]
            point = edges[start].pop()
            while point != start:
                loop.append(point)
                point = _turn_right_first(loop[-2], point, edges[point])
            loops.append(_simplify(loop))
    return loops


def _turn_right_first(prev: Point, at: Point, choices: list[Point]) -> Point:
    """Take the next edge from ``at``; where two cells meet at a corner only, keep to
    the cell we are going round (turn right, as the outline runs clockwise on screen)."""
    dx, dy = at[0] - prev[0], at[1] - prev[1]

    def turn(to: Point) -> int:
        ex, ey = to[0] - at[0], to[1] - at[1]
        cross = dx * ey - dy * ex  # > 0: a right turn on screen (y down)
        return 2 if cross > 0 else 1 if cross == 0 else 0

    best = max(range(len(choices)), key=lambda i: turn(choices[i]))
    return choices.pop(best)


def _simplify(loop: list[Point]) -> tuple[Point, ...]:
    """Drop the corners where the outline goes straight on."""
    out = []
    n = len(loop)
    for i, (x, y) in enumerate(loop):
        px, py = loop[i - 1]
        nx, ny = loop[(i + 1) % n]
        if (x - px) * (ny - y) - (y - py) * (nx - x) != 0:
            out.append((x, y))
    return tuple(out)


def _fit(text: str, size: float, max_width: float) -> str:
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"

"""Score pads: printed sheets to score games by hand, built from the scoring tables.

Orbitus: one row per scoring category — each planet type (its disc, name and the
group-size table), pirates, open routes, each closed-block size band, and the
total — and a column per seat P1–P6 (a game with fewer players leaves columns
empty). Each player column has a narrow cell for the count and a wider one for
the points. Every row header says how its category scores, taken from
``cards/orbitus/rules.yaml`` and ``planets.yaml``: a rule change changes the pad.
As many games as fit go on a page (two on A4), with a cut line between them.

Satellites: one block per game with a red and a blue column (the tokens' own
look from ``cards/satellites``) and a row per winning criterion of the rules core
(colonies controlled, the lowest controlled colony, the winner); above them the
winning rule and when the game ends, with the ruleset's numbers; eight games per A4
page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.definitions import OrbitusDefinitions, SatellitesDefinitions
from cards.labels import default_labels, fill
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import (
    CAP_HEIGHT,
    Circle,
    Drawing,
    Group,
    Item,
    Polygon,
    Polyline,
    Rect,
    Style,
    Text,
    fit_size,
    text_centred,
    text_width,
)
from generator.typeset.markup import Run, signed
from generator.typeset.setting import Measure, wrap
from rules.orbitus.ruleset import Band
from rules.satellites.score import WINNING, end_numbers

INK = "#1d1d1f"
MUTED = "#5a5a5a"
GRID = "#8c8c8c"
HEAD_FILL = "#eceef3"
COUNT_FILL = "#f4f4f1"
TOTAL_FILL = "#e3e6ee"
CUT = "#6d6d6d"  # cut lines between games
MARGIN = 10.0
SEATS = 6


@dataclass(frozen=True)
class PadRow:
    """One scoring category: its label, how it scores, and what icon it shows."""

    kind: str  # "planet", "pirate", "open-route", "block", "total"
    label: str
    rule: str
    key: str = ""  # the planet type id or the band label


def band_scale(bands: tuple[Band, ...]) -> str:
    """``1 → −2 · 2 → −1 · … · 6+ → +9`` from a scoring table."""
    return " · ".join(f"{b.label} → {signed(b.points)}" for b in sorted(bands, key=lambda b: b.min))


def orbitus_rows(defs: OrbitusDefinitions, words: Any = None, lang: str = "en") -> list[PadRow]:
    """The pad's rows, in order, from the planet types and the scoring tables, in the
    language of ``words`` (the kit's labels; default English) and ``lang`` (planet names)."""
    said = (words or default_labels("orbitus")).pad
    scoring = defs.ruleset.scoring
    scale = band_scale(scoring.planet_groups)
    rows = [PadRow("planet", p.names.get(lang, p.name), scale, p.id)
            for p in defs.planets.planet_types]
    rows.append(PadRow("pirate", said.pirates,
                       fill(said.pirates_rule, points=signed(scoring.pirate))))
    rows.append(PadRow("open-route", said.open_routes,
                       fill(said.open_routes_rule, points=signed(scoring.open_route))))
    for band in sorted(scoring.closed_blocks, key=lambda b: b.min):
        rows.append(PadRow("block", fill(said.blocks, band=band.label),
                           fill(said.blocks_rule, points=signed(band.points)), band.label))
    rows.append(PadRow("total", said.total, said.total_rule))
    return rows


def _icon(row: PadRow, defs: OrbitusDefinitions, r: float) -> list[Item]:
    if row.kind == "planet":
        return orb.planet_disc(defs.planets.by_id()[row.key], r)
    if row.kind == "pirate":
        return orb.pirate_disc(r)
    if row.kind == "open-route":  # a route band ending in an open gap
        return [Polyline(((-r, 0.0), (r * 0.4, 0.0)), Style(stroke=defs.sectors.route_colour,
                                                            width=r * 0.7)),
                Polyline(((r * 0.75, -r * 0.8), (r * 0.75, r * 0.8)),
                         Style(stroke="#b3261e", width=r * 0.18, dash=(r * 0.3, r * 0.22)))]
    if row.kind == "block":  # a small loop of three hubs
        pts = ((0.0, -r * 0.85), (r * 0.9, r * 0.65), (-r * 0.9, r * 0.65))
        items: list[Item] = [Polygon(pts, Style(fill="#e8a317", opacity=0.3,
                                                stroke=defs.sectors.route_colour,
                                                width=r * 0.32, join="round"))]
        items += [Circle(x, y, r * 0.3, Style(fill=defs.sectors.route_colour)) for x, y in pts]
        return items
    return []


@dataclass(frozen=True)
class _PadGeometry:
    width: float
    label_w: float
    col_w: float
    count_w: float
    row_h: float
    title_h: float = 9.0
    names_h: float = 12.5
    sub_h: float = 4.6
    note_h: float = 6.0

    def height(self, rows: int) -> float:
        return (self.title_h + self.names_h + self.sub_h + (rows - 1) * self.row_h
                + self.row_h * 1.15 + self.note_h)


def _orbitus_block(defs: OrbitusDefinitions, rows: list[PadRow], g: _PadGeometry,
                   said: Any) -> list[Item]:
    """One game's score table, top-left at (0, 0); ``said``: the pad's words."""
    items: list[Item] = []
    w = g.width
    items.append(Text(0.0, 6.0, said.title, 5.2, fill=defs.station.colour, bold=True,
                      cls="pad-title"))
    items.append(Text(text_width(said.title, 5.2, True) + 2.5, 6.0, said.subtitle, 3.6,
                      fill=MUTED))
    items.append(Text(w, 6.0, said.game_date, 3.0, fill=MUTED, anchor="end"))
    y = g.title_h
    x_cols = [g.label_w + k * g.col_w for k in range(SEATS)]
    # player names
    items.append(Rect(0.0, y, w, g.names_h + g.sub_h, Style(fill=HEAD_FILL)))
    items.append(Text(2.0, y + g.names_h * 0.62, said.player,
                      fit_size(said.player, 3.2, g.label_w - 4.0, bold=True), fill=INK,
                      bold=True))
    for k, x in enumerate(x_cols):
        colour = defs.station.player_colours[k]
        # the seat's badge: its colour, its glyph (black and white, colour-blind) and name
        items.append(Rect(x + 1.2, y + 1.2, 9.4, 3.6, Style(fill=colour), rx=0.6,
                          cls=f"seat-badge seat-{k}"))
        items.append(Group(tuple(orb.seat_glyph(k, 1.25, orb.ink_on(colour))),
                           (x + 3.0, y + 3.0)))
        items.append(text_centred(x + 7.3, y + 3.0, f"P{k + 1}", 2.4, fill=orb.ink_on(colour),
                                  bold=True))
        items.append(Rect(x + 1.2, y + 5.4, g.col_w - 2.4, g.names_h - 6.4,
                          Style(fill="#ffffff"), rx=0.6))
    y += g.names_h
    fills: list[Item] = []
    lines: list[Item] = []
    items.append(Text(2.0, y + 3.3, said.how, fit_size(said.how, 2.3, g.label_w - 4.0),
                      fill=MUTED))
    for x in x_cols:
        items.append(text_centred(x + g.count_w / 2.0, y + g.sub_h / 2.0, said.count,
                                  fit_size(said.count, 2.4, g.count_w - 0.6, bold=True),
                                  fill=MUTED, bold=True))
        points_w = g.col_w - g.count_w
        items.append(text_centred(x + g.count_w + points_w / 2.0, y + g.sub_h / 2.0,
                                  said.points, fit_size(said.points, 2.4, points_w - 0.6,
                                                        bold=True),
                                  fill=MUTED, bold=True))
    y += g.sub_h
    header_end = len(items)
    table_top = g.title_h
    thin = Style(stroke=GRID, width=0.18)
    for row in rows:
        total = row.kind == "total"
        h = g.row_h * (1.15 if total else 1.0)
        if total:
            fills.append(Rect(0.0, y, w, h, Style(fill=TOTAL_FILL)))
            lines.append(Polyline(((0.0, y), (w, y)), Style(stroke=INK, width=0.6)))
        else:
            for x in x_cols:
                fills.append(Rect(x, y, g.count_w, h, Style(fill=COUNT_FILL)))
        icon_r = min(2.7, h * 0.33)
        text_x = 2.0
        icon = _icon(row, defs, icon_r)
        if icon:
            items.append(Group(tuple(icon), (2.0 + icon_r, y + h / 2.0),
                               cls=f"pad-icon {row.kind}"))
            text_x = 2.0 + 2 * icon_r + 2.0
        avail = g.label_w - text_x - 1.5
        label_size = fit_size(row.label, 3.4 if total else 3.0, avail, bold=True)
        rule_size = fit_size(row.rule, 2.25, avail)
        items.append(Text(text_x, y + h * 0.46, row.label, label_size, fill=INK, bold=True,
                          cls=f"pad-row {row.kind}"))
        items.append(Text(text_x, y + h * 0.46 + rule_size * 1.35, row.rule, rule_size,
                          fill=MUTED, cls="pad-rule"))
        y += h
        lines.append(Polyline(((0.0, y), (w, y)), thin))
    # fills under everything else of the rows, then the rules on top
    items[header_end:header_end] = fills
    items += lines
    bottom = y
    for x in x_cols:
        items.append(Polyline(((x, table_top), (x, bottom)), Style(stroke=INK, width=0.35)))
        items.append(Polyline(((x + g.count_w, table_top + g.names_h),
                               (x + g.count_w, bottom - g.row_h * 1.15)), thin))
    items.append(Rect(0.0, table_top, w, bottom - table_top, Style(stroke=INK, width=0.5)))
    items.append(Text(0.0, bottom + 4.0, said.footer, fit_size(said.footer, 2.4, w),
                      fill=MUTED))
    return items


def orbitus_pad(defs: OrbitusDefinitions, page: tuple[float, float], words: Any = None,
                lang: str = "en") -> list[Drawing]:
    """Score-pad pages: as many games per page as fit, at least one; in the language of
    ``words`` (the kit's labels, default English) and ``lang`` (planet names)."""
    words = words or default_labels("orbitus")
    rows = orbitus_rows(defs, words, lang)
    width = page[0] - 2 * MARGIN
    label_w = min(76.0, width * 0.38)
    col_w = (width - label_w) / SEATS
    base = _PadGeometry(width, label_w, col_w, min(8.0, col_w * 0.36), 8.0)
    fixed = base.height(len(rows)) - (len(rows) - 1 + 1.15) * base.row_h
    usable = page[1] - 2 * MARGIN
    gap = 10.0
    per_page = 1
    row_h = min(10.0, (usable - fixed) / (len(rows) + 0.15))
    for n in (3, 2):
        h = (usable - gap * (n - 1)) / n
        fits = (h - fixed) / (len(rows) + 0.15)
        if fits >= 6.5:
            per_page, row_h = n, min(8.6, fits)
            break
    if row_h < 5.0:
        raise ValueError(f"the Orbitus score pad's {len(rows)} rows do not fit on one page")
    g = _PadGeometry(width, label_w, col_w, base.count_w, row_h)
    block_h = g.height(len(rows))
    spare = usable - per_page * block_h
    step = block_h + (spare / (per_page - 1) if per_page > 1 else 0.0)
    items: list[Item] = []
    for n in range(per_page):
        top = MARGIN + n * step
        items.append(Group(tuple(_orbitus_block(defs, rows, g, words.pad)), (MARGIN, top),
                           cls="pad-game"))
        if n:
            items += _cut_line(page[0], top - (step - block_h) / 2.0)
    return [Drawing(page[0], page[1], items, "Orbitus score pad")]


def _cut_line(width: float, y: float) -> list[Item]:
    return [Polyline(((MARGIN + 6.0, y), (width - MARGIN, y)),
                     Style(stroke=CUT, width=0.25, dash=(2.0, 1.5)), cls="cut-line"),
            Text(MARGIN, y + 1.4, "✂", 4.0, fill=CUT)]


# --- Satellites -------------------------------------------------------------------------

SAT_ROWS = 1 + len(WINNING)  # the player, then a row per winning criterion of the core
SAT_HEAD_H = 10.0


def _sat_rows(said: Any) -> list[tuple[str, str]]:
    """The player row, then one row per winning criterion of the rules core, in its order,
    in the words of the labels (``pad.<key>``, ``pad.<key>_rule``)."""
    return [(said.player, "")] + [(getattr(said, c.key), getattr(said, f"{c.key}_rule"))
                                  for c in WINNING]


def _column_token(defs: SatellitesDefinitions, colour: str, diameter: float) -> list[Item]:
    """The colour's token face without numeral or pips: a column heading."""
    return [i for i in sat.satellite_token(defs, colour, 1, diameter, cut_line=False,
                                           fiducial=False)
            if not (i.cls or "").startswith(("satellite-value", "pip"))]


def _satellites_block(defs: SatellitesDefinitions, w: float, row_h: float,
                      said: Any) -> tuple[list[Item], float]:
    """One game's score table, top-left at (0, 0); returns the items and the height.
    ``said``: the pad's words."""
    label_w = w * 0.54
    col_w = (w - label_w) / 2.0
    head_h = SAT_HEAD_H
    items: list[Item] = [Rect(0.0, 0.0, w, head_h, Style(fill=HEAD_FILL))]
    items.append(Text(2.0, head_h / 2.0 + 1.1, said.game_date,
                      fit_size(said.game_date, 2.9, label_w - 4.0), fill=INK))
    for k, colour in enumerate(("red", "blue")):
        x = label_w + k * col_w
        look = sat.player(defs, colour)
        name = said.red if colour == "red" else said.blue
        items.append(Group(tuple(_column_token(defs, colour, 6.6)), (x + 5.0, head_h / 2.0)))
        items.append(Text(x + 9.8, head_h / 2.0 + 1.3, name,
                          fit_size(name, 3.6, col_w - 11.0, bold=True),
                          fill=look.colour, bold=True, cls="pad-column"))
    y = head_h
    thin = Style(stroke=GRID, width=0.18)
    measure = Measure()
    draw = fit_size(said.draw, 3.0, label_w * 0.3, bold=True)
    draw_w = text_width(said.draw, draw, True) + 1.2 + 5.2 + 2.0  # the draw box and its word
    for index, (label, rule) in enumerate(_sat_rows(said)):
        winner = index == SAT_ROWS - 1
        room = label_w - 4.0 - (draw_w + 1.0 if winner else 0.0)
        lines = wrap((Run(rule),), 2.3, room, measure) if rule else []
        block_h = 3.0 * CAP_HEIGHT + len(lines) * 2.3 * 1.3
        base = y + (row_h - block_h) / 2.0 + 3.0 * CAP_HEIGHT
        items.append(Text(2.0, base, label, fit_size(label, 3.0, room, bold=True), fill=INK,
                          bold=True, cls="pad-row"))
        for k, line in enumerate(lines):
            items.append(Text(2.0, base + 2.3 * 1.3 * (k + 1), "".join(r.text for r in line),
                              2.3, fill=MUTED, cls="pad-rule"))
        if winner:
            for k in range(2):
                cx = label_w + k * col_w + col_w / 2.0
                items.append(Rect(cx - 2.6, y + row_h / 2.0 - 2.6, 5.2, 5.2,
                                  Style(stroke=INK, width=0.35), rx=0.5, cls="tick-box"))
            # a draw is ticked here, at the end of the label cell
            bx = label_w - 2.0 - 5.2
            items.append(Rect(bx, y + row_h / 2.0 - 2.6, 5.2, 5.2,
                              Style(stroke=INK, width=0.35), rx=0.5, cls="tick-box draw"))
            items.append(Text(bx - 1.2, y + row_h / 2.0 + draw * CAP_HEIGHT / 2.0, said.draw,
                              draw, fill=INK, bold=True, anchor="end", cls="pad-row draw"))
        y += row_h
        items.append(Polyline(((0.0, y), (w, y)), thin))
    for x in (label_w, label_w + col_w):
        items.append(Polyline(((x, 0.0), (x, y)), Style(stroke=INK, width=0.35)))
    items.append(Rect(0.0, 0.0, w, y, Style(stroke=INK, width=0.5)))
    return items, y


def satellites_pad(defs: SatellitesDefinitions, page: tuple[float, float],
                   words: Any = None) -> list[Drawing]:
    """Score-pad page: a block per game, two across, as many rows of games as fit with rows
    at least 10 mm high (then the rows grow to fill the page); in the language of ``words``
    (the kit's labels, default English)."""
    said = (words or default_labels("satellites")).pad
    width = page[0] - 2 * MARGIN
    gap_x, gap_y = 10.0, 8.0
    block_w = (width - gap_x) / 2.0
    items: list[Item] = [
        Text(MARGIN, MARGIN + 5.0, said.title, 5.2, fill=defs.board.blue.colour, bold=True,
             cls="pad-title"),
        Text(MARGIN + text_width(said.title, 5.2, True) + 2.5, MARGIN + 5.0, said.subtitle, 3.6,
             fill=MUTED),
    ]
    ends = fill(said.ends, **end_numbers(defs.ruleset))
    for k, line in enumerate((said.reminder, ends)):
        items.append(Text(MARGIN, MARGIN + 10.5 + 3.6 * k, line, fit_size(line, 2.6, width),
                          fill=MUTED, cls="pad-reminder"))
    top = MARGIN + 18.0
    usable = page[1] - MARGIN - top
    nrows = SAT_ROWS
    games = max(1, int((usable + gap_y) // (SAT_HEAD_H + nrows * 10.0 + gap_y)))
    row_h = min(14.0, ((usable + gap_y) / games - gap_y - SAT_HEAD_H) / nrows)
    block, block_h = _satellites_block(defs, block_w, row_h, said)
    for r in range(games):
        for c in range(2):
            x = MARGIN + c * (block_w + gap_x)
            items.append(Group(tuple(block), (x, top + r * (block_h + gap_y)), cls="pad-game"))
    # cut lines through the middle of the gaps between the games
    bottom = top + games * block_h + (games - 1) * gap_y
    x_mid = MARGIN + block_w + gap_x / 2.0
    items += _dashed(((x_mid, top - 2.0), (x_mid, bottom + 2.0)), scissors=False)
    for r in range(1, games):
        y_mid = top + r * block_h + (r - 0.5) * gap_y
        items += _dashed(((MARGIN + 6.0, y_mid), (page[0] - MARGIN, y_mid)))
        items.append(Text(MARGIN, y_mid + 1.4, "✂", 4.0, fill=CUT))
    return [Drawing(page[0], page[1], items, "Satellites score pad")]


def _dashed(points: tuple[tuple[float, float], tuple[float, float]],
            scissors: bool = True) -> list[Item]:
    return [Polyline(points, Style(stroke=CUT, width=0.25, dash=(2.0, 1.5)), cls="cut-line")]

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
from generator.fit import FLOOR_MM, FitError, common_size, fit_lines
from generator.stamp import stamp_items
from generator.typeset.markup import signed
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
STAMP_FROM_EDGE = 7.0  # the design stamp's baseline above the paper's edge: clear of the outer
# 6 mm many printers leave blank (sheets.MARGIN_MM)
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
                                  fit_lines(said.count, 2.4, g.count_w - 0.6, bold=True,
                                            what="the pad's count column").size,
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
        label_size = fit_lines(row.label, 3.4 if total else 3.0, avail, bold=True,
                               what="a pad row").size
        rule = fit_lines(row.rule, 2.25, avail, max_lines=2, what="a pad row's rule")
        lead = rule.size * 1.2
        # the label and its rule centred in the row, the rule on two lines if it needs them
        block = label_size * CAP_HEIGHT + len(rule.lines) * lead
        base = y + (h - block) / 2.0 + label_size * CAP_HEIGHT
        items.append(Text(text_x, base, row.label, label_size, fill=INK, bold=True,
                          cls=f"pad-row {row.kind}"))
        for k, line in enumerate(rule.lines):
            items.append(Text(text_x, base + lead * (k + 1), line, rule.size, fill=MUTED,
                              cls="pad-rule"))
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
    items += stamp_items(defs, page[0] - MARGIN, page[1] - STAMP_FROM_EDGE, 1.6, anchor="end")
    return [Drawing(page[0], page[1], items, "Orbitus score pad")]


def _cut_line(width: float, y: float) -> list[Item]:
    return [Polyline(((MARGIN + 6.0, y), (width - MARGIN, y)),
                     Style(stroke=CUT, width=0.25, dash=(2.0, 1.5)), cls="cut-line"),
            Text(MARGIN, y + 1.4, "✂", 4.0, fill=CUT)]


# --- Satellites -------------------------------------------------------------------------

SAT_ROWS = 1 + len(WINNING)  # the player, then a row per winning criterion of the core
SAT_HEAD_H = 11.0


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


def colony_rows(defs: SatellitesDefinitions) -> int:
    """As many colony rows as a game can have colonies: every satellite on the board, in
    colonies of the fewest satellites (S-27)."""
    rules = defs.ruleset
    return (rules.red.count + rules.blue.count) // rules.colony_min


def _satellites_block(defs: SatellitesDefinitions, w: float, row_h: float,
                      said: Any) -> tuple[list[Item], float]:
    """One game's score table, top-left at (0, 0); returns the items and the height.
    ``said``: the pad's words. Columns: red, blue and a colony's value; a row for the
    players, one per colony (each colour's sum and the colony's value, so no scrap paper
    is needed), then one per winning criterion of the rules core."""
    label_w = w * 0.46
    col_w = w * 0.20  # red, blue; the value column is narrower
    value_w = w - label_w - 2 * col_w
    head_h = SAT_HEAD_H
    xs = [label_w, label_w + col_w, label_w + 2 * col_w]
    items: list[Item] = [Rect(0.0, 0.0, w, head_h, Style(fill=HEAD_FILL))]
    items.append(Text(2.0, head_h / 2.0 + 1.1, said.game_date,
                      fit_lines(said.game_date, 2.9, label_w - 4.0,
                                what="the pad's game line").size, fill=INK))
    names = (said.red, said.blue)
    # one size for both colours' names (a long word no longer shrinks alone), under the token
    name_size = common_size(names, 3.2, col_w - 2.0, bold=True, what="a colour's name")
    name_y = head_h - 1.6
    for k, colour in enumerate(("red", "blue")):
        look = sat.player(defs, colour)
        cx = xs[k] + col_w / 2.0
        items.append(Group(tuple(_column_token(defs, colour, 4.6)), (cx, 3.3)))
        items.append(Text(cx, name_y, names[k], name_size, fill=look.colour, bold=True,
                          anchor="middle", cls="pad-column"))
    value = said.colony_value or ""
    items.append(Text(xs[2] + value_w / 2.0, name_y, value,
                      fit_lines(value, name_size, value_w - 2.0, bold=True,
                                what="the pad's value column").size,
                      fill=INK, bold=True, anchor="middle", cls="pad-column"))
    y = head_h
    thin = Style(stroke=GRID, width=0.18)
    unused = Style(fill="#f1f1f1")
    rows = _sat_rows(said)
    small = row_h * 0.72  # the colony rows: one line each
    draw = fit_lines(said.draw, 2.8, label_w * 0.34, bold=True, what="the draw box").size
    draw_w = text_width(said.draw, draw, True) + 1.2 + 5.2 + 2.0  # the draw box and its word
    rooms = [label_w - 4.0 - (draw_w + 1.0 if k == len(rows) - 1 else 0.0)
             for k in range(len(rows))]
    try:  # one size for all rows: on one line each if that keeps them large enough
        label_size = min(fit_lines(r[0], 3.0, room, floor=2.6, bold=True,
                                   what="a pad row").size for r, room in zip(rows, rooms,
                                                                            strict=True))
    except FitError:  # else on two lines
        label_size = min(fit_lines(r[0], 3.0, label_w - 4.0, max_lines=2, bold=True,
                                   what="a pad row").size for r in rows)
    rule_size = 2.3 if 2.3 >= FLOOR_MM else FLOOR_MM

    def row(label: str, rule: str, height: float, only_colours: bool, winner: bool = False
            ) -> None:
        nonlocal y
        room = label_w - 4.0 - (draw_w + 1.0 if winner else 0.0)
        heads = fit_lines(label, label_size, room, max_lines=2, bold=True,
                          what="a pad row").lines
        lines = list(fit_lines(rule, rule_size, room, max_lines=3,
                               what="a pad row's rule").lines) if rule else []
        block = (label_size * (CAP_HEIGHT + 1.18 * (len(heads) - 1))
                 + len(lines) * rule_size * 1.25)
        height = max(height, block + rule_size * 0.22 + 2.4)  # the row takes what it says
        base = y + (height - block) / 2.0 + label_size * CAP_HEIGHT
        for k, head in enumerate(heads):
            items.append(Text(2.0, base + k * label_size * 1.18, head, label_size, fill=INK,
                              bold=True, cls="pad-row"))
        base += (len(heads) - 1) * label_size * 1.18
        for k, line in enumerate(lines):
            items.append(Text(2.0, base + rule_size * 1.25 * (k + 1), line, rule_size,
                              fill=MUTED, cls="pad-rule"))
        if only_colours:
            items.append(Rect(xs[2], y, value_w, height, unused))
        if winner:
            for k in range(2):
                cx = xs[k] + col_w / 2.0
                items.append(Rect(cx - 2.6, y + height / 2.0 - 2.6, 5.2, 5.2,
                                  Style(stroke=INK, width=0.35), rx=0.5, cls="tick-box"))
            bx = label_w - 2.0 - 5.2  # a draw is ticked at the end of the label cell
            items.append(Rect(bx, y + height / 2.0 - 2.6, 5.2, 5.2,
                              Style(stroke=INK, width=0.35), rx=0.5, cls="tick-box draw"))
            items.append(Text(bx - 1.2, y + height / 2.0 + draw * CAP_HEIGHT / 2.0, said.draw,
                              draw, fill=INK, bold=True, anchor="end", cls="pad-row draw"))
        y += height
        items.append(Polyline(((0.0, y), (w, y)), thin))

    row(*rows[0], row_h, True)
    for n in range(1, colony_rows(defs) + 1):
        label = fill(said.colony or "{n}", n=n)
        items.append(Text(2.0, y + small / 2.0 + 2.6 * CAP_HEIGHT / 2.0, label,
                          fit_lines(label, 2.6, label_w - 4.0, what="a colony row").size,
                          fill=MUTED, cls="pad-colony"))
        y += small
        items.append(Polyline(((0.0, y), (w, y)), thin))
    for k, (label, rule) in enumerate(rows[1:]):
        row(label, rule, row_h, True, winner=k == len(rows) - 2)
    for x in xs:
        items.append(Polyline(((x, 0.0), (x, y)), Style(stroke=INK, width=0.35)))
    items.append(Rect(0.0, 0.0, w, y, Style(stroke=INK, width=0.5)))
    return items, y


def _satellites_height(defs: SatellitesDefinitions, row_h: float, w: float,
                       said: Any) -> float:
    return _satellites_block(defs, w, row_h, said)[1]


def satellites_pad(defs: SatellitesDefinitions, page: tuple[float, float],
                   words: Any = None) -> list[Drawing]:
    """Score-pad page: a block per game, two across, as many rows of games as fit (each
    block with its colony rows; then the rows grow to fill the page); above them how a
    game is won and when it ends, every line at one size; in the language of ``words``
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
    size = 2.6
    fitted = [fit_lines(line, size, width, max_lines=2, what="the pad's reminder")
              for line in (said.reminder, ends)]
    size = min(f.size for f in fitted)  # one size for every reminder line
    fitted = [fit_lines(line, size, width, max_lines=2, what="the pad's reminder")
              for line in (said.reminder, ends)]
    y = MARGIN + 10.5
    for f in fitted:
        for line in f.lines:
            items.append(Text(MARGIN, y, line, size, fill=MUTED, cls="pad-reminder"))
            y += size * 1.3
    top = y + 3.0
    usable = page[1] - MARGIN - top
    least = _satellites_height(defs, 7.0, block_w, said)  # rows at their smallest
    games = max(1, int((usable + gap_y) // (least + gap_y)))
    row_h = 7.0
    while row_h < 12.0 and (games * (_satellites_height(defs, row_h + 0.5, block_w, said)
                                     + gap_y) - gap_y <= usable):
        row_h += 0.5  # the rows grow to fill the page
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
    items += stamp_items(defs, page[0] - MARGIN, page[1] - STAMP_FROM_EDGE, 1.6, anchor="end")
    return [Drawing(page[0], page[1], items, "Satellites score pad")]


def _dashed(points: tuple[tuple[float, float], tuple[float, float]],
            scissors: bool = True) -> list[Item]:
    return [Polyline(points, Style(stroke=CUT, width=0.25, dash=(2.0, 1.5)), cls="cut-line")]

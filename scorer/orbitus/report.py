"""Renderings of a :class:`~rules.orbitus.score.Result`: the readable table and JSON."""

from __future__ import annotations

from typing import Any

from cards.safe_text import printable
from rules.hexgeo import SIDES, Hex
from rules.orbitus.score import PlayerScore, Result
from rules.orbitus.table import Finding, Table, cell_text
from scorer.orbitus.layout import Layout


def _cell(cell: Hex) -> list[int]:
    return [cell[0], cell[1]]


def finding_json(f: Finding) -> dict[str, Any]:
    """A violation as the JSON reports write it."""
    return {"rule": f.rule, "cell": None if f.cell is None else list(f.cell),
            "message": f.message, "line": f.line}


def as_layout(result: Result) -> Layout:
    """The scored table as read from its file (a table of a game has no file: an empty one)."""
    table = result.table
    return table if isinstance(table, Layout) else Layout.of(table)


def to_json(result: Result) -> dict[str, Any]:
    """The JSON object of ``pnp-score orbitus --json`` (keys in a fixed order; the browser
    companion writes the same text for a game's table from the parts it keeps:
    ``web.play_orbitus.public_text``)."""
    table = result.table  # a table of a game has no file: its source and deck are empty
    layout = table if isinstance(table, Layout) else None
    return {
        "game": "orbitus",
        "file": "" if layout is None else layout.source,
        "deck": "" if layout is None else layout.deck_file,
        "valid": result.valid,
        "violations": [finding_json(f) for f in result.findings],
        "players": [player_json(p) for p in result.players],
        "neutral": [_cell(c) for c in result.neutral],
        "neutral_zones": [[_cell(c) for c in zone] for zone in result.neutral_zones],
        "winners": list(result.winners),
        "station": station_json(table),
    }


def station_json(table: Table) -> dict[str, Any]:
    """The station's entry of :func:`to_json`: whose start line is on which side, and the
    barriers."""
    return {
        "start_lines": {
            SIDES[side]: table.players[seat] for side, seat in sorted(table.start_lines.items())
        },
        "barriers": [SIDES[s] for s in sorted(table.barriers)],
    }


def json_text(obj: Any) -> str:
    """JSON indented by two, except that lists of numbers or of cells stay on one line.

    Easier to read than one number per line, and fast on huge tables: those
    lists are written by the C encoder (``json.dumps`` with ``indent`` is pure
    Python).
    """
    import json

    flat = json.JSONEncoder(ensure_ascii=False).encode
    out: list[str] = []

    def leafy(value: Any) -> bool:
        return not isinstance(value, dict | list) or (
            isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)
        )

    def put(value: Any, pad: str) -> None:
        if isinstance(value, dict) and value:
            inner = pad + "  "
            out.append("{\n")
            for i, (key, item) in enumerate(value.items()):
                out.append(f"{inner}{flat(str(key))}: ")
                put(item, inner)
                out.append(",\n" if i < len(value) - 1 else "\n")
            out.append(pad + "}")
        elif isinstance(value, list) and value and not all(leafy(v) for v in value):
            inner = pad + "  "
            out.append("[\n")
            for i, item in enumerate(value):
                out.append(inner)
                put(item, inner)
                out.append(",\n" if i < len(value) - 1 else "\n")
            out.append(pad + "]")
        else:
            out.append(flat(value))

    put(obj, "")
    return "".join(out) + "\n"


def player_json(p: PlayerScore) -> dict[str, Any]:
    """One player's part of :func:`to_json`."""
    return {
        "name": p.name,
        "start_lines": [SIDES[s] for s in p.start_lines],
        "sectors": [_cell(c) for c in p.sectors],
        "planets": {
            g.type: {"count": g.count, "points": g.points, "sectors": [_cell(c) for c in g.sectors]}
            for g in p.planets
        },
        "pirates": {
            "count": len(p.pirates),
            "points": p.pirate_points,
            "sectors": [_cell(c) for c in p.pirates],
        },
        "open_routes": {
            "count": len(p.open_routes),
            "points": p.open_route_points,
            "routes": [{"at": _cell(o.cell), "side": SIDES[o.side]} for o in p.open_routes],
        },
        "closed_blocks": [
            {"size": b.size, "points": b.points, "sectors": [_cell(c) for c in b.sectors]}
            for b in p.closed_blocks
        ],
        "total": p.total,
    }


def _pts(points: int) -> str:
    return f"{points:+d}" if points else "0"


def _cells(cells: tuple[Hex, ...], limit: int = 12) -> str:
    shown = " ".join(cell_text(c) for c in cells[:limit])
    more = len(cells) - limit
    return shown + (f" … and {more} more" if more > 0 else "")


def to_text(result: Result) -> str:
    """The readable report: one block per player, then neutral zones, winners, violations."""
    layout = as_layout(result)
    out: list[str] = []
    status = "valid" if result.valid else (
        f"NOT VALID: {len(result.findings)} violation(s), scores are best-effort"
    )
    source = printable(layout.source)
    out.append(f"Orbitus — {source} — {len(layout.sectors)} sector(s) — {status}")
    width = 44
    for p in result.players:
        out.append("")
        lines = " ".join(SIDES[s] for s in p.start_lines) or "none"
        out.append(f"{p.name} (start lines: {lines}) — {len(p.sectors)} sector(s) in the system")
        rows: list[tuple[str, str]] = []
        for g in p.planets:
            if g.count:
                rows.append((f"  planets {printable(g.type)} × {g.count}", _pts(g.points)))
        rows.append((f"  pirates × {len(p.pirates)}", _pts(p.pirate_points)))
        rows.append((f"  open routes × {len(p.open_routes)}", _pts(p.open_route_points)))
        if not p.closed_blocks:
            rows.append(("  closed blocks: none", "0"))
        for b in p.closed_blocks:
            rows.append((f"  closed block of {b.size} from {cell_text(b.sectors[0])}",
                         _pts(b.points)))
        for label, points in rows:
            out.append(f"{label:<{width}}{points:>6}")
        out.append(f"{'  total':<{width}}{p.total:>6}")
        if p.pirates:
            out.append(f"    pirates at {_cells(p.pirates)}")
        if p.open_routes:
            ends = " ".join(f"{cell_text(o.cell)}{SIDES[o.side]}" for o in p.open_routes[:12])
            more = len(p.open_routes) - 12
            out.append(f"    open routes at {ends}" + (f" … and {more} more" if more > 0 else ""))
        for i, b in enumerate(p.closed_blocks, 1):
            out.append(f"    block {i}: {_cells(b.sectors)}")
    out.append("")
    if result.neutral_zones:
        out.append(f"Neutral zones ({len(result.neutral_zones)}, score nothing):")
        for zone in result.neutral_zones:
            out.append(f"  {_cells(zone)}")
    else:
        out.append("Neutral zones: none")
    if result.winners:
        best = result.players[[p.name for p in result.players].index(result.winners[0])].total
        verb = "wins" if len(result.winners) == 1 else "share the win"
        out.append(f"Winner: {' and '.join(result.winners)} {verb} with {best} point(s)")
    if result.findings:
        out.append("")
        out.append(f"Violations ({len(result.findings)}):")
        for f in result.findings:
            where = f"{source}:{f.line}" if f.line is not None else source
            out.append(f"  {where}: {f.rule}: {f.message}")
    return "\n".join(out) + "\n"

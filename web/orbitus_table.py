"""Transcribing an Orbitus table in the browser: the layout file the page edits, scored live.

The page keeps the table as the data of a layout file (``players``, optional
``start_lines`` and ``barriers``, ``sectors``: the keys ``pnp-score orbitus`` reads) and
sends it after every edit. The server writes it as layout YAML (:func:`layout_text`, one
sector per line) and reads that text back through the scorer's own reader
(:func:`scorer.orbitus.layout.parse_layout`), then scores it with the rules core: the score,
the violations and their sentences are ``pnp-score``'s, and what the page exports is the
very text that was scored. Importing a file is the same read; its data becomes the page's
table, so importing an exported file and exporting it again gives the same bytes.

This module is Orbitus's table adapter (``web.table``, :mod:`web.adapters`): the
``page_*`` functions are what the server's routes call.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cards.loader import DefinitionError, parse_yaml
from rules.hexgeo import SIDES
from rules.orbitus.ruleset import Ruleset
from rules.orbitus.score import Result, score
from scorer.orbitus.layout import TOP_KEYS, deck_path, parse_layout
from scorer.orbitus.report import to_json, to_text
from web.adapters import check_design
from web.errors import WebError

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions
    from web.adapters import Desk

PAGE = "orbitus.html"
SOURCE = "table.yaml"
KEY = "table"
PHOTO_KEEPS = ("players", "start_lines", "barriers")  # what a photo of the table cannot show
WHAT = "an Orbitus layout"
MAX_SECTORS = 2000  # as the scorer's pictures; a real game has at most a few hundred
MAX_TEXT = 1_000_000  # bytes of an imported layout
SECTOR_ORDER = ("at", "card", "rot", "routes", "planet", "pirate")


_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_SPECIAL = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})


def _simple(value: Any) -> str | None:
    """``value`` in flow style when it is made of whole numbers and plain words only (what
    a transcribed table holds), else None; YAML's emitter writes everything else."""
    if type(value) is int:
        return str(value)
    if type(value) is str:
        return value if _PLAIN.match(value) and value.lower() not in _SPECIAL else None
    if type(value) is list:
        parts = [_simple(v) for v in value]
        return None if None in parts else "[" + ", ".join(parts) + "]"  # type: ignore[arg-type]
    if type(value) is dict:
        pairs = []
        for k, v in value.items():
            a, b = _simple(k), _simple(v)
            if a is None or b is None or type(k) is not str:
                return None
            pairs.append(f"{a}: {b}")
        return "{" + ", ".join(pairs) + "}"
    return None


def flow(value: Any) -> str:
    """``value`` as one line of YAML flow style (quoted where YAML needs it)."""
    fast = _simple(value)
    if fast is not None:
        return fast
    from cards.yaml_out import flow as emitted

    return emitted(value)


def _ordered(item: Any) -> Any:
    """A sector's keys in the order of the layout reference (unknown keys after them)."""
    if not isinstance(item, dict):
        return item
    known = [k for k in SECTOR_ORDER if k in item]
    rest = [k for k in item if k not in SECTOR_ORDER]
    return {k: item[k] for k in (*known, *rest)}


def check_model(model: Any) -> dict[str, Any]:
    """The page's table, refused (422) when it is not the shape of a layout at all."""
    if not isinstance(model, dict):
        raise WebError(422, "the table must be a JSON object with players and sectors")
    for key in ("players", "sectors"):
        if not isinstance(model.get(key), list):
            raise WebError(422, f"the table's {key} must be a list")
    if len(model["sectors"]) > MAX_SECTORS:
        raise WebError(413, f"the table has {len(model['sectors'])} sectors; the browser "
                            f"companion takes up to {MAX_SECTORS} (a real game has at most a "
                            f"few hundred)")
    if "cards" in model:
        raise WebError(422, "cards: the browser companion scores with the definitions it was "
                            "started with (pnp-web --cards DIR); remove the cards line")
    return model


def layout_text(model: dict[str, Any], design: dict[str, Any] | None = None) -> str:
    """The layout YAML of the page's table: ``game``, ``players``, the station if given,
    any other top-level key as the page holds it, one sector per line, and last the
    server's ``design`` when known (last, so that a sector's line is the line it has in a
    layout file without one)."""
    out = ["game: orbitus", f"players: {flow(model['players'])}"]
    for key in ("start_lines", "barriers"):
        if model.get(key) is not None:
            out.append(f"{key}: {flow(model[key])}")
    for key, value in model.items():
        if key not in TOP_KEYS:
            out.append(f"{flow(key)}: {flow(value)}")
    sectors = model["sectors"]
    if not sectors:
        out.append("sectors: []")
    else:
        out.append("sectors:")
        out.extend(f"  - {flow(_ordered(item))}" for item in sectors)
    if design and design.get("stamp"):
        out.append(f"design: {flow(design['stamp'])}")
    return "\n".join(out) + "\n"


def read(text: str, ruleset: Ruleset, source: str = "table.yaml",
         deck_shown: str = "cards/orbitus/sectors.yaml",
         design: dict[str, Any] | None = None) -> tuple[dict[str, Any], Result]:
    """Read a layout text exactly as ``pnp-score orbitus`` reads a file; its data and its
    score. A text that cannot be read at all is a 422 with the reader's lines, and so is
    one naming a design other than ``design`` (the server's)."""
    if len(text.encode("utf-8")) > MAX_TEXT:
        raise WebError(413, f"{source}: the layout is larger than {MAX_TEXT // 1000} kB; a "
                            f"layout of a real game is a few kB")
    try:
        doc = parse_yaml(text, Path(source), WHAT)
        named = deck_path(doc)
    except RecursionError:
        raise WebError(422, f"{source}: the YAML is nested too deeply to be a layout") from None
    except DefinitionError as exc:
        raise WebError(422, exc.problems) from None
    if named is not None:
        raise WebError(422, f"{doc.where(('cards',))}: cards: the browser companion scores "
                            f"with the definitions it was started with (pnp-web --cards DIR); "
                            f"remove the cards line")
    if isinstance(doc.data, dict) and "design" in doc.data:
        check_design(doc.where(("design",)), doc.data["design"], design)
    sectors = doc.data["sectors"]
    if len(sectors) > MAX_SECTORS:
        raise WebError(413, f"{source}: {len(sectors)} sectors; the browser companion takes up "
                            f"to {MAX_SECTORS}")
    layout = parse_layout(doc, ruleset, deck_shown)
    return doc.data, score(layout, ruleset.scoring, layout.findings)


def scored(model: Any, ruleset: Ruleset, source: str = "table.yaml",
           deck_shown: str = "cards/orbitus/sectors.yaml",
           design: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page shows after an edit: the layout text (naming ``design``, the
    server's), the scorer's report (JSON and text) and what the picture needs (owners, the
    station as scored)."""
    return _scored(model, ruleset, source, deck_shown, design)[0]


def _scored(model: Any, ruleset: Ruleset, source: str,
            deck_shown: str = "cards/orbitus/sectors.yaml",
            design: dict[str, Any] | None = None) -> tuple[dict[str, Any], Result]:
    text = layout_text(check_model(model), design)
    data, result = read(text, ruleset, source, deck_shown, design)
    return answer(text, data, result), result


def answer(text: str, data: dict[str, Any], result: Result) -> dict[str, Any]:
    table = result.table
    owner: dict[str, int] = {}
    for player in result.players:
        for q, r in player.sectors:
            owner[f"{q},{r}"] = player.seat
    return {
        "text": text,
        "model": {k: v for k, v in data.items() if k not in ("game", "design")},
        "report": to_json(result),
        "report_text": to_text(result),
        "owner": owner,
        "station": {SIDES[side]: seat for side, seat in sorted(table.start_lines.items())},
        "sectors": [[s.cell[0], s.cell[1], s.card, s.rot, sorted(s.routes), s.planet,
                     s.pirate] for s in sorted(table.sectors.values(), key=lambda s: s.order)],
    }


def imported(text: str, ruleset: Ruleset, source: str,
             deck_shown: str = "cards/orbitus/sectors.yaml",
             design: dict[str, Any] | None = None) -> dict[str, Any]:
    """An uploaded or pasted layout: its data becomes the page's table (comments and
    spacing are not kept; the export is the canonical text). One naming another design
    than ``design`` is refused."""
    data, _ = read(text, ruleset, source, deck_shown, design)
    return scored({k: v for k, v in data.items() if k not in ("game", "design")}, ruleset,
                  source, deck_shown, design)


# --- the page's routes ----------------------------------------------------------------------


def page_pieces(desk: Desk) -> dict[str, Any]:
    return card_faces(desk.defs)


def page_score(desk: Desk, model: Any, source: str) -> dict[str, Any]:
    """The table scored, with the station as scored drawn (its start lines and the barriers
    on every other side, O-17, as the rules core's table has them)."""
    out, result = _scored(model, desk.ruleset, source, design=desk.design)
    table = result.table
    out["station_svg"] = station_picture(desk, table.start_lines, table.barriers)
    return out


def page_import(desk: Desk, text: str, source: str) -> dict[str, Any]:
    return page_score(desk, imported(text, desk.ruleset, source, design=desk.design)["model"],
                      source)


def photo_keep(raw: str | None) -> dict[str, Any]:
    """The page's players and station (``table``: JSON), which a photo does not show."""
    if raw is None:
        return {"players": ["P1", "P2"]}
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise WebError(400, "table must be the page's table as JSON, with its players")
    return {k: v for k, v in data.items() if k in PHOTO_KEEPS}


def page_photo(desk: Desk, reading: Any, keep: dict[str, Any],
               source: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The cards read as the page's table (with what the page keeps), scored; and what the
    photo showed: cards read, cells seen but not read, findings, how each card was read."""
    from scorer.photo_layout import cell_text, orbitus_sectors, orbitus_unread

    out = page_score(desk, {**keep, "sectors": orbitus_sectors(reading)}, source)
    findings = [{"rule": "photo-unread", "cell": list(c), "message": orbitus_unread(c)}
                for c in sorted(reading.unread)]
    findings += [{"rule": f.rule, "cell": list(f.cell) if f.cell is not None else None,
                  "message": f.message} for f in reading.findings]
    return out, {"read": len(reading.placed), "unread": [list(c) for c in sorted(reading.unread)],
                 "findings": findings,
                 "how": {cell_text(c): p.how for c, p in sorted(reading.placed.items())},
                 "lifted": [list(c) for c in reading.lifted]}


def page_export(desk: Desk, kind: str, model: Any, stem: str) -> tuple[bytes | str, str] | None:
    """The table as ``yaml`` (the layout), ``json`` (the score), ``txt`` (the report), ``svg``
    or ``png`` (the scorer's picture); None for another kind."""
    if kind in ("svg", "png"):
        return picture(model, desk.ruleset, desk.defs, kind, f"{stem}.yaml"), f"{stem}.{kind}"
    out = scored(model, desk.ruleset, f"{stem}.yaml", design=desk.design)
    if kind == "yaml":
        return out["text"], f"{stem}.yaml"
    if kind == "json":
        from scorer.orbitus.report import json_text

        return json_text(out["report"]), f"{stem}.json"
    if kind == "txt":
        return out["report_text"], f"{stem}-score.txt"
    return None


def check_text(desk: Desk, text: str) -> None:
    read(text, desk.ruleset)


def picture(model: Any, ruleset: Ruleset, defs: OrbitusDefinitions, kind: str,
            source: str = "table.yaml") -> bytes:
    """The scorer's picture of the table (``--svg`` / ``--png``)."""
    from scorer.orbitus.picture import draw_table

    text = layout_text(check_model(model))
    _, result = read(text, ruleset, source)
    drawing = draw_table(result, defs)
    if kind == "svg":
        from generator.backends.svg import render_svg

        return render_svg(drawing)
    from generator.backends.png import render_png

    return render_png(drawing, 150)[0]


# --- the cards as the page draws them --------------------------------------------------------


def card_faces(defs: OrbitusDefinitions) -> dict[str, Any]:
    """Every card of the deck, its back and an inline sector's parts as SVG fragments,
    drawn by the printables' own components (centred on the hex's centre, millimetres), and
    what the page needs to know of each card (routes as printed, centre)."""
    from generator.components.orbitus import back_items, sector_items
    from generator.drawing import Drawing, Group

    flats = defs.sectors.hex_across_flats_mm
    faces: dict[str, str] = {}
    cards = []
    for sector in defs.sectors.sectors:
        faces[sector.id] = _fragment(Drawing(flats, flats, [Group(tuple(
            sector_items(sector, defs, flats)))]), f"card-{sector.id}")
        cards.append({"id": sector.id, "routes": sorted(sector.route_sides),
                      "centre": sector.centre if sector.centre != "planet" else sector.planet,
                      "planet": sector.planet, "pirate": sector.centre == "pirate",
                      "count": sector.count})
    # an inline sector (not from the deck) is put together from the same parts
    from generator.components.orbitus import (
        UNKNOWN_PLANET,
        face_ground,
        face_hub,
        face_outline,
        face_route,
    )

    deck = defs.sectors

    def part(*items: Any) -> str:
        return _fragment(Drawing(flats, flats, [Group(tuple(items))]))

    def hub(centre: str, planet: Any = None) -> str:
        return part(*face_hub(centre, planet, flats, deck.route_colour, deck.background))

    hubs: dict[str, str] = {"void": hub("void"), "pirate": hub("pirate")}
    for planet in [*defs.planets.planet_types, UNKNOWN_PLANET]:
        hubs[planet.id] = hub("planet", planet)
    inline = {
        "face": part(face_ground(flats, deck.background)),
        "route": part(*face_route(flats, 0, deck.route_colour, deck.background)),
        "hubs": hubs,
        "outline": part(face_outline(flats)),
    }
    return {
        "flats": flats,
        "faces": faces,
        "back": _fragment(Drawing(flats, flats, [Group(tuple(back_items(defs, flats)))])),
        "inline": inline,
        "cards": cards,
        "planets": [{"id": p.id, "name": p.name, "colour": p.colour}
                    for p in defs.planets.planet_types],
        "route_colour": defs.sectors.route_colour,
        "background": defs.sectors.background,
        "seat_colours": list(defs.station.player_colours),
    }


def station_picture(desk: Desk, start_lines: dict[int, int], barriers: frozenset[int]) -> str:
    """:func:`station_svg` of the desk's definitions, drawn once for each station."""
    key = ("station", tuple(sorted(start_lines.items())), frozenset(barriers))
    return str(desk.drawn(key, lambda: station_svg(desk.defs, dict(key[1]), key[2])))


def station_svg(defs: OrbitusDefinitions, start_lines: dict[int, int],
                barriers: frozenset[int]) -> str:
    """The station with its start lines and barriers, drawn by the printables' component."""
    from generator.components.orbitus import station_items
    from generator.drawing import Drawing, Group

    flats = defs.sectors.hex_across_flats_mm
    return _fragment(Drawing(flats, flats, [Group(tuple(
        station_items(defs, flats, start_lines, barriers)))]), "station")


def _fragment(drawing: Any, prefix: str = "") -> str:
    """The inside of the SVG document of ``drawing`` (its clip paths and the ``<g>``), for the
    page to place; ids (clip paths) get ``prefix``, so fragments on one page never share
    one."""
    import re

    from generator.backends.svg import render_svg

    text = render_svg(drawing).decode("utf-8")
    body = text[text.index(">", text.index("<svg")) + 1:text.rindex("</svg>")]
    body = re.sub(r"<desc>.*?</desc>", "", body, flags=re.DOTALL)
    if prefix:
        body = re.sub(r'id="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', body)
        body = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", body)
    return body.strip()

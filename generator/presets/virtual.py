"""Virtual-table kits from the same components: a PlayingCards.io room and a Screentop kit.

**PlayingCards.io** imports a room from a ``.pcio`` file: a zip holding ``widgets.json``
(a list of widgets) and the images under ``userassets/``, which the widgets name as
``package://userassets/...``. The widgets used here are PlayingCards.io's own:

- ``cardDeck``: the card types (``cardTypes``: one per distinct face, its image), the
  face and back templates (an image each) and the card size; ``card``: one per copy,
  naming its deck and type, lying in a ``cardPile`` (the draw pile, with a shuffle button);
- ``hand``: the player's hand, which only its owner sees: Orbitus keeps its hands hidden,
  as at the table; Satellites has no hidden information and no hand;
- ``board``: the station (Orbitus) and the board (Satellites), fixed on the table;
- ``piece``: a movable piece showing a card type face up (start-line and barrier
  markers, satellites, tracker markers), from decks of their own.

**Screentop.gg** builds a game from uploaded images: a deck from one image cut into a grid
of equal cells, boards and tokens from an image each, laid out in its game builder. The
kit gives those images (the deck as grids of at most 10 x 7 cells, its back apart) and a
``layout.json`` saying for each what it is, its grid, its cards and copies, its size on the
table and where it lies, and whether a player's hand hides it: what the builder asks for,
in one file, to follow while setting the game up (Screentop publishes no import format to
write instead).

Images are drawn at the preset's dpi from the components' own drawings (transparent
outside their shape), so a virtual table shows what prints.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from typing import Any

from cards.preset_models import PresetFile
from generator.presets.build import PresetBuild, manifest_csv
from generator.presets.files import MANIFEST, PRESET_COPY, Row

ZIP_DATE = (2000, 1, 1, 0, 0, 0)  # fixed: the same kit gives the same bytes
PX_PER_MM = 2.0  # table units per millimetre: a sector card is about 115 units wide
MAX_CELLS = (10, 7)


def _images(game: str, defs: Any, words: Any, dpi: float) -> dict[str, bytes]:
    """Every distinct component as a PNG, by name (sector-S01, board ...)."""
    from generator.export_png import component_pngs

    return {path.rsplit("/", 1)[1][:-4]: data for path, data in
            component_pngs(game, defs, dpi, words).items()}


def _size(png: bytes) -> tuple[int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return image.size


def _units(png: bytes, dpi: float) -> tuple[float, float]:
    """An image's size on the table (units), from its size in mm."""
    w, h = _size(png)
    return (round(w / dpi * 25.4 * PX_PER_MM, 1), round(h / dpi * 25.4 * PX_PER_MM, 1))


def _zip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, entries[name])
    return out.getvalue()


# --- PlayingCards.io ------------------------------------------------------------------------


def _deck(deck_id: str, types: dict[str, dict[str, str]], size: tuple[float, float],
          back: str | None, x: float, y: float) -> dict[str, Any]:
    w, h = size
    face = {"type": "image", "valueType": "dynamic", "value": "image", "x": 0, "y": 0,
            "w": w, "h": h, "color": "transparent"}
    back_obj = ({"type": "image", "valueType": "static", "value": back, "x": 0, "y": 0,
                 "w": w, "h": h, "color": "transparent"} if back else face)
    return {"id": deck_id, "type": "cardDeck", "x": x, "y": y, "z": 1,
            "cardWidth": w, "cardHeight": h, "enlarge": True,
            "faceTemplate": {"includeBorder": False, "includeRadius": False, "objects": [face]},
            "backTemplate": {"includeBorder": False, "includeRadius": False,
                             "objects": [back_obj]},
            "cardTypes": types}


def _asset(game: str, name: str) -> str:
    return f"package://userassets/{game}/{name}.png"


def pcio_room(game: str, defs: Any, words: Any, dpi: float) -> tuple[bytes, list[Row]]:
    """The ``.pcio`` room of ``game`` and its manifest rows."""
    from generator.presets.pieces import pieces

    images = _images(game, defs, words, dpi)
    if game == "satellites":  # the tracker markers' images: drawn at their own size
        images.update(_tracker_images(defs, dpi))
    file = f"{game}.pcio"
    rows: list[Row] = []
    widgets: list[dict[str, Any]] = []
    by_kind = {p.kind: p for p in pieces(game, defs, words)}
    z = 100
    if game == "orbitus":
        sector = by_kind["sector"]
        size = _units(images["sector-back"], dpi)
        types = {f.name: {"image": _asset(game, f.name), "label": f.title}
                 for f in sector.fronts}
        widgets.append({"id": "hand", "type": "hand", "x": 50, "y": 820, "z": 1,
                        "width": 1500, "height": 200})
        widgets.append({"id": "draw-pile", "type": "cardPile", "x": 60, "y": 80, "z": 2,
                        "width": size[0] + 8, "height": size[1] + 8,
                        "label": "Sectors", "hasShuffleButton": True})
        widgets.append(_deck("sector-deck", types, size, _asset(game, "sector-back"), 60, 80))
        for face in sector.fronts:
            for k in range(face.copies):
                z += 1
                widgets.append({"id": f"{face.name}-{k + 1}", "type": "card",
                                "deck": "sector-deck", "cardType": face.name,
                                "parent": "draw-pile", "x": 64, "y": 84, "z": z})
            rows.append(Row(file, 1, "orbitus.sector", face.name, face.copies, "front",
                            "cardDeck"))
        rows.append(Row(file, 1, "orbitus.sector", "sector-back", sector.copies, "back",
                        "cardDeck"))
        station = _units(images["station"], dpi)
        widgets.append({"id": "station", "type": "board", "x": 800 - station[0] / 2,
                        "y": 420 - station[1] / 2, "z": 3, "width": station[0],
                        "height": station[1], "boardImage": _asset(game, "station")})
        rows.append(Row(file, 1, "orbitus.station", "station", 1, "front", "board"))
        markers = [f for k in ("start_marker", "barrier_marker") for f in by_kind[k].fronts]
        msize = _units(images[markers[0].name], dpi)
        widgets.append(_deck("marker-deck", {f.name: {"image": _asset(game, f.name),
                                                      "label": f.title} for f in markers},
                             msize, None, 1300, 80))
        n = 0
        for kind in ("start_marker", "barrier_marker"):
            for face in by_kind[kind].fronts:
                for k in range(face.copies):
                    z += 1
                    widgets.append({"id": f"{face.name}-{k + 1}", "type": "piece",
                                    "deck": "marker-deck", "cardType": face.name,
                                    "faceup": True, "x": 1150 + 70 * (n % 6),
                                    "y": 120 + 24 * (n // 6), "z": z})
                    n += 1
                rows.append(Row(file, 1, f"orbitus.{kind}", face.name, face.copies, "front",
                                "piece"))
    else:
        board = _units(images["board"], dpi)
        widgets.append({"id": "hand", "type": "hand", "enabled": False, "x": 50, "y": 820,
                        "z": 1})
        widgets.append({"id": "board", "type": "board", "x": 400, "y": 40, "z": 2,
                        "width": board[0], "height": board[1],
                        "boardImage": _asset(game, "board")})
        rows.append(Row(file, 1, "satellites.board", "board", 1, "front", "board"))
        for kind, deck_id, x0 in (("satellite", "satellite-deck", 40),
                                  ("track_marker", "tracker-deck", 1250)):
            piece = by_kind[kind]
            size = _units(images[piece.fronts[0].name], dpi)
            widgets.append(_deck(deck_id, {f.name: {"image": _asset(game, f.name),
                                                    "label": f.title} for f in piece.fronts},
                                 size, None, x0, 40))
            n = 0
            for face in piece.fronts:
                for k in range(face.copies):
                    z += 1
                    widgets.append({"id": f"{face.name}-{k + 1}", "type": "piece",
                                    "deck": deck_id, "cardType": face.name, "faceup": True,
                                    "x": x0 + (size[0] + 6) * (n % 3),
                                    "y": 60 + (size[1] + 6) * (n // 3), "z": z})
                    n += 1
                rows.append(Row(file, 1, f"satellites.{kind}", face.name, face.copies,
                                "front", "piece"))
    entries = {f"userassets/{game}/{name}.png": data for name, data in images.items()
               if name in _used(widgets)}
    entries["widgets.json"] = (json.dumps(widgets, ensure_ascii=False, indent=1) + "\n").encode()
    return _zip(entries), rows


def _used(widgets: list[dict[str, Any]]) -> set[str]:
    text = json.dumps(widgets)
    names = set()
    for part in text.split("package://userassets/")[1:]:
        names.add(part.split(".png")[0].split("/", 1)[1])
    return names


def _tracker_images(defs: Any, dpi: float) -> dict[str, bytes]:
    """The two tracker markers as images of their own (the component set has none)."""
    from generator.backends.png import render_png
    from generator.components import orbitus as orb
    from generator.components import satellites as sat

    geo = sat.board_geometry(defs)
    d = sat.track_box(defs, geo.size, geo.cell) - 1.0
    drawings = [orb.component(sat.track_marker(defs, kind, d, cut_line=False), d, d,
                              f"tracker marker {kind}") for kind in ("connected", "grace")]
    images = render_png(drawings, dpi, transparent=True)
    return {"track-marker-connected": images[0], "track-marker-grace": images[1]}


# --- Screentop ------------------------------------------------------------------------------


def _grid(images: list[bytes]) -> tuple[bytes, int, int]:
    """Equal cells (the largest image's size) in rows of at most 10, as one PNG."""
    from PIL import Image

    opened = [Image.open(io.BytesIO(b)) for b in images]
    cw = max(i.size[0] for i in opened)
    ch = max(i.size[1] for i in opened)
    cols = min(MAX_CELLS[0], len(opened))
    rows = math.ceil(len(opened) / cols)
    sheet = Image.new("RGBA", (cols * cw, rows * ch), (0, 0, 0, 0))
    for k, image in enumerate(opened):
        x, y = (k % cols) * cw + (cw - image.size[0]) // 2, (k // cols) * ch + \
            (ch - image.size[1]) // 2
        sheet.paste(image, (x, y))
    out = io.BytesIO()
    sheet.save(out, format="PNG", compress_level=6)
    return out.getvalue(), cols, rows


def screentop_kit(game: str, defs: Any, words: Any, dpi: float) -> tuple[dict[str, bytes],
                                                                        list[Row]]:
    from generator.presets.pieces import pieces

    images = _images(game, defs, words, dpi)
    if game == "satellites":
        images.update(_tracker_images(defs, dpi))
    folder = f"screentop/{game}"
    files: dict[str, bytes] = {}
    rows: list[Row] = []
    design = getattr(defs, "design", None)  # the kit's design, as its components print it
    layout: dict[str, Any] = {"game": game, "units": "mm",
                              **({"design": design.to_json()} if design else {}),
                              "components": []}
    per_sheet = MAX_CELLS[0] * MAX_CELLS[1]
    for piece in pieces(game, defs, words):
        faces = list(piece.fronts)
        kind = "deck" if piece.kind == "sector" else (
            "board" if piece.kind in ("station", "board") else "tokens")
        entry: dict[str, Any] = {"component": piece.component, "kind": kind,
                                 "size_mm": [round(piece.size[0], 2), round(piece.size[1], 2)],
                                 "sheets": []}
        for start in range(0, len(faces), per_sheet):
            chunk = faces[start:start + per_sheet]
            n = start // per_sheet + 1
            name = f"{folder}/{piece.kind.replace('_', '-')}-{n}.png"
            sheet, cols, rows_n = _grid([images[f.name] for f in chunk])
            files[name] = sheet
            entry["sheets"].append({
                "image": name.rsplit("/", 1)[1], "columns": cols, "rows": rows_n,
                "cells": [{"name": f.name, "label": f.title, "copies": f.copies}
                          for f in chunk]})
            for f in chunk:
                rows.append(Row(name, 1, piece.component, f.name, f.copies, "front",
                                f"{cols}x{rows_n} grid"))
        if piece.back is not None and piece.kind == "sector":
            back = f"{folder}/sector-back.png"
            files[back] = images["sector-back"]
            entry["back"] = back.rsplit("/", 1)[1]
            rows.append(Row(back, 1, piece.component, "sector-back", piece.copies, "back",
                            "deck back"))
        if kind == "deck":
            entry.update({"shuffle": True, "hands": "hidden", "face_down": True})
        else:
            entry.update({"face_up": True, "locked": kind == "board"})
        layout["components"].append(entry)
    files[f"{folder}/layout.json"] = (json.dumps(layout, ensure_ascii=False, indent=2)
                                      + "\n").encode()
    return files, rows


def build_virtual(preset: PresetFile, loaded: dict[str, tuple[Any, Any]],
                  preset_text: bytes) -> PresetBuild:
    """The kit of a ``virtual-table`` preset for every game in ``loaded``."""
    result = PresetBuild()
    for game, (defs, words) in loaded.items():
        if preset.format == "playingcards-io":
            room, rows = pcio_room(game, defs, words, preset.dpi)
            result.files[rows[0].file] = room
        else:
            files, rows = screentop_kit(game, defs, words, preset.dpi)
            result.files.update(files)
        result.rows += rows
    result.files[MANIFEST] = manifest_csv(result.rows)
    result.files[PRESET_COPY] = preset_text
    return result

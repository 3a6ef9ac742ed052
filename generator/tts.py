"""Tabletop Simulator export: deck sheets, component images and a saved-object JSON per game.

What Tabletop Simulator (TTS) expects, from its knowledge base (Custom Deck,
Custom Tile, Custom Token, Custom Board, save file format):

- A custom deck is cut from a *card sheet*: a grid of at most 10 x 7 equal
  cells, at most 4096 px on each side. The last cell of a sheet is the
  "hidden" image, shown for cards in another player's hand. The back is one
  image shared by every card (``UniqueBack: false``).
- A saved object is a save-file JSON whose ``ObjectStates`` hold the objects.
  A deck is a ``DeckCustom`` whose ``ContainedObjects`` are ``Card`` objects;
  card ``CardID`` is ``100 * key + slot`` where ``key`` names an entry of
  ``CustomDeck`` (one per sheet) and ``slot`` is the cell, in reading order.
  ``DeckIDs`` lists the card IDs in the same order.
- Card ``Type`` 3 is a hexagonal card; ``Custom_Tile`` ``Type`` 2 a round
  tile; a ``Custom_Token`` is cut out of its image's transparency; a
  ``Custom_Board`` takes its proportions from its image.

The export writes, for Orbitus, the sector deck (one sheet cell per distinct
sector, every copy a card), the station (a one-card deck of the same hex card
shape, so it is exactly the size of a sector and the tiling fits) and the
start-line and barrier markers (tokens); for Satellites the board and the 24
satellites (round tiles). Images are addressed by their absolute paths in the
machine's own form (``C:\\Users\\…\\sectors-1.png`` on Windows, ``/home/…`` elsewhere),
the form TTS itself writes for local images, so the JSON works on the machine that built
it.

Hex cards: TTS's hexagonal card (``Type`` 3) sits in a portrait card, point up. Orbitus
sectors are flat-top hexes, so their faces are landscape images; every hex card (the
deck, its cards and the station) is a ``SidewaysCard``, which turns TTS's card a quarter
so the landscape face fills it flat-top, as printed. Saved objects leave ``SaveName``
and ``GameMode`` empty, as TTS's own saved objects do.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from cards.definitions import OrbitusDefinitions, SatellitesDefinitions
from generator.backends.pdf import render_pdf
from generator.backends.png import pdf_to_pngs
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import Drawing, Group, Item, Polygon, Rect, Style, offset_polygon
from rules import hexgeo

MAX_COLS = 10
MAX_ROWS = 7
MAX_PX = 4096
PX_MM = 25.4 / 72.0  # images are rendered at 1 px per PDF point, so sizes are exact integers
CARD_HEX = 3  # CustomDeck Type: hexagonal card
SIDEWAYS = True  # flat-top sectors: landscape faces on TTS's point-up hex card, turned
TILE_CIRCLE = 2  # Custom_Tile Type: circle
TOKEN_DPI = 300.0
THUMB_PX = 256
CELL_BLEED_MM = 2.0  # background carried past the hex edge, so no white seam shows


@dataclass(frozen=True)
class SheetLayout:
    """One card sheet: ``cols`` x ``rows`` cells of ``cell`` (w, h) px; ``cards`` faces in
    reading order, the last cell is the hidden-card image."""

    cols: int
    rows: int
    cell: tuple[int, int]
    cards: int

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]

    @property
    def hidden_slot(self) -> int:
        return self.cols * self.rows - 1


def cell_size(cols: int, rows: int, aspect: float) -> tuple[int, int]:
    """The largest cell (w, h) px of height/width ``aspect`` whose sheet stays <= MAX_PX."""
    w = MAX_PX // cols
    h = math.floor(w * aspect + 0.5)
    while rows * h > MAX_PX:
        w -= 1
        h = math.floor(w * aspect + 0.5)
    return w, h


def deck_layouts(cards: int, aspect: float) -> list[SheetLayout]:
    """Sheets for ``cards`` distinct faces: as few sheets as the 10 x 7 limit allows (one cell
    of each is the hidden card), the faces shared evenly, and on each sheet the grid that
    gives the largest cells."""
    per_sheet = MAX_COLS * MAX_ROWS - 1
    sheets = max(1, math.ceil(cards / per_sheet))
    counts = [cards // sheets + (1 if i < cards % sheets else 0) for i in range(sheets)]
    layouts: list[SheetLayout] = []
    for count in counts:
        best: tuple[tuple[int, int, int], SheetLayout] | None = None
        for cols in range(1, MAX_COLS + 1):
            for rows in range(1, MAX_ROWS + 1):
                if cols * rows < count + 1:
                    continue
                cell = cell_size(cols, rows, aspect)
                rank = (cell[0], -(cols * rows), -cols)
                if best is None or rank > best[0]:
                    best = (rank, SheetLayout(cols, rows, cell, count))
        assert best is not None
        layouts.append(best[1])
    return layouts


# --- rendering --------------------------------------------------------------------------


def _raster(drawings: list[Drawing], transparent: bool = False) -> list[bytes]:
    """Drawings whose mm sizes are whole pixels (``n * PX_MM``) as PNGs of exactly that size."""
    return pdf_to_pngs(render_pdf(drawings, "Tabletop Simulator export"), 72.0, transparent)


def _hex_cell(items: list[Item], bleed_fill: str, flats: float, cell: tuple[int, int],
              origin: tuple[float, float]) -> Group:
    """A hex component scaled to fill one sheet cell (its bounding box), background bled to
    the cell's edges; ``origin`` is the cell's top-left in mm."""
    r = hexgeo.circumradius(flats)
    cw, ch = cell[0] * PX_MM, cell[1] * PX_MM
    k = cw / (2 * r)
    local_w, local_h = 2 * r, ch / k
    bleed = Polygon(offset_polygon(orb.hex_points(flats), CELL_BLEED_MM), Style(fill=bleed_fill))
    return Group((bleed, *items), (origin[0] + cw / 2, origin[1] + ch / 2), scale=k,
                 clip=Rect(-local_w / 2, -local_h / 2, local_w, local_h, Style()))


def sector_sheet_drawings(defs: OrbitusDefinitions,
                          layouts: list[SheetLayout]) -> list[Drawing]:
    flats = defs.sectors.hex_across_flats_mm
    back = orb.back_items(defs, flats, CELL_BLEED_MM)
    faces = list(defs.sectors.sectors)
    drawings: list[Drawing] = []
    start = 0
    for n, lay in enumerate(layouts, start=1):
        w, h = lay.size
        d = Drawing(w * PX_MM, h * PX_MM, title=f"Orbitus sectors, TTS sheet {n}")
        d.add(Rect(0, 0, w * PX_MM, h * PX_MM, Style(fill="#ffffff")))
        for slot, sector in enumerate(faces[start:start + lay.cards]):
            d.add(_hex_cell(orb.sector_items(sector, defs, flats), defs.sectors.background, flats,
                            lay.cell, _cell_origin(lay, slot)))
        d.add(_hex_cell(back, defs.sectors.back.colour, flats, lay.cell,
                        _cell_origin(lay, lay.hidden_slot)))
        drawings.append(d)
        start += lay.cards
    return drawings


def _cell_origin(lay: SheetLayout, slot: int) -> tuple[float, float]:
    col, row = slot % lay.cols, slot // lay.cols
    return col * lay.cell[0] * PX_MM, row * lay.cell[1] * PX_MM


def _single_cell(items: list[Item], fill: str, flats: float, cell: tuple[int, int],
                 title: str) -> Drawing:
    return Drawing(cell[0] * PX_MM, cell[1] * PX_MM,
                   [_hex_cell(items, fill, flats, cell, (0.0, 0.0))], title)


def _px(mm_: float, dpi: float) -> int:
    return max(1, round(mm_ / 25.4 * dpi))


def _sized(drawing: Drawing, px: tuple[int, int]) -> Drawing:
    """``drawing`` scaled into an image of exactly ``px`` (w, h) pixels."""
    w, h = px[0] * PX_MM, px[1] * PX_MM
    scale = min(w / drawing.width, h / drawing.height)
    x = (w - drawing.width * scale) / 2
    y = (h - drawing.height * scale) / 2
    return Drawing(w, h, [Group(tuple(drawing.items), (x, y), scale=scale)], drawing.title)


# --- the saved object -------------------------------------------------------------------


def _guid(key: str) -> str:
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:6]


def _transform(x: float, z: float, *, y: float = 1.0, face_down: bool = False,
               scale: float = 1.0) -> dict[str, float]:
    return {"posX": x, "posY": y, "posZ": z, "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _base(name: str, nickname: str, key: str, transform: dict[str, float],
          description: str = "") -> dict[str, Any]:
    return {"GUID": _guid(key), "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": description, "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
            "Tooltip": True, "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _save(objects: list[dict[str, Any]]) -> bytes:
    save = {"SaveName": "", "GameMode": "", "Date": "", "VersionNumber": "",
            "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "",
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "TabStates": {},
            "ObjectStates": objects}
    return (json.dumps(save, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _url(root: PurePath, rel: str) -> str:
    """The image's absolute path as the machine writes it (what TTS expects of a local
    image; not a percent-encoded file:/// URL)."""
    return str(root.joinpath(*rel.split("/")))


def _describe(defs: OrbitusDefinitions, sector: Any) -> str:
    routes = ", ".join(sector.routes) if sector.routes else "none"
    if sector.centre == "planet":
        planet = defs.planets.by_id()[sector.planet]
        centre = f"planet: {planet.name}"
    elif sector.centre == "pirate":
        centre = "pirate base"
    else:
        centre = "void"
    return f"routes: {routes}; {centre}"


def orbitus_tts(defs: OrbitusDefinitions, root: PurePath, words: Any = None) -> dict[str, bytes]:
    """The Orbitus TTS files under ``orbitus/tts/``; ``root`` is the absolute output folder,
    ``words`` the kit's labels (default: English)."""
    from cards.labels import default_labels, fill

    words = words or default_labels("orbitus")

    folder = "orbitus/tts"
    flats = defs.sectors.hex_across_flats_mm
    aspect = flats / (2 * hexgeo.circumradius(flats))
    faces = defs.sectors.sectors
    layouts = deck_layouts(len(faces), aspect)
    cell = layouts[0].cell
    drawings = sector_sheet_drawings(defs, layouts)
    names = [f"sectors-{n}" for n in range(1, len(layouts) + 1)]
    drawings.append(_single_cell(orb.back_items(defs, flats, CELL_BLEED_MM),
                                 defs.sectors.back.colour, flats, cell, "Orbitus sector back"))
    names.append("sector-back")
    drawings.append(_single_cell(orb.station_items(defs, flats), defs.station.colour, flats, cell,
                                 "Orbitus station"))
    names.append("station")
    mw, mh = orb.marker_size(flats)
    box = (_px(mw + 2, TOKEN_DPI), _px(mh + 2, TOKEN_DPI))
    markers: list[tuple[str, str, int]] = []  # (image name, nickname, copies)
    need, barriers = defs.ruleset.marker_counts()
    for seat in range(6):
        name = f"start-marker-P{seat + 1}"
        label = fill(words.station.start_marker, seat=f"P{seat + 1}")
        drawings.append(_sized(orb.component(orb.start_marker_items(defs, seat, flats,
                                                                    label=label), mw + 2,
                                             mh + 2, name), box))
        names.append(name)
        markers.append((name, f"P{seat + 1} start-line marker", need[seat]))
    drawings.append(_sized(orb.component(orb.barrier_marker_items(
        defs, flats, label=words.station.barrier_marker), mw + 2, mh + 2,
                                         "barrier"), box))
    names.append("barrier-marker")
    markers.append(("barrier-marker", "Barrier marker", barriers))
    opaque = len(layouts) + 2
    images = _raster(drawings[:opaque]) + _raster(drawings[opaque:], transparent=True)
    thumb = _raster([_sized(orb.component(orb.back_items(defs, flats), 2 * flats, 2 * flats,
                                          "thumbnail"), (THUMB_PX, THUMB_PX))],
                    transparent=True)[0]
    out = {f"{folder}/{n}.png": img for n, img in zip(names, images, strict=True)}
    back_url = _url(root, f"{folder}/sector-back.png")

    deck_entries: dict[str, dict[str, Any]] = {}
    cards: list[dict[str, Any]] = []
    start = 0
    for key, lay in enumerate(layouts, start=1):
        entry = {"FaceURL": _url(root, f"{folder}/sectors-{key}.png"), "BackURL": back_url,
                 "NumWidth": lay.cols, "NumHeight": lay.rows, "BackIsHidden": False,
                 "UniqueBack": False, "Type": CARD_HEX}
        deck_entries[str(key)] = entry
        for slot, sector in enumerate(faces[start:start + lay.cards]):
            for copy in range(sector.count):
                card = _base("Card", sector.id, f"orbitus:card:{sector.id}:{copy}",
                             _transform(0.0, 0.0, face_down=True), _describe(defs, sector))
                card.update({"CardID": key * 100 + slot, "SidewaysCard": SIDEWAYS,
                             "CustomDeck": {str(key): entry}, "Hands": True})
                cards.append(card)
        start += lay.cards
    deck = _base("DeckCustom", "Orbitus sectors", "orbitus:deck",
                 _transform(-6.0, 0.0, face_down=True),
                 f"{len(cards)} sector cards; shuffle, then deal the hands")
    deck.update({"SidewaysCard": SIDEWAYS, "Hands": False,
                 "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": deck_entries,
                 "ContainedObjects": cards})
    station_key = len(layouts) + 1
    station_url = _url(root, f"{folder}/station.png")
    station = _base("Card", f"{defs.station.name} ({defs.station.name_en})", "orbitus:station",
                    _transform(0.0, 0.0), "The central station; start lines by player count "
                    "are on the station sheet of the print-and-play kit")
    station.update({"CardID": station_key * 100, "SidewaysCard": SIDEWAYS, "Hands": False,
                    "CustomDeck": {str(station_key): {
                        "FaceURL": station_url, "BackURL": station_url, "NumWidth": 1,
                        "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False,
                        "Type": CARD_HEX}}})
    objects: list[dict[str, Any]] = [deck, station]
    n = 0
    for name, nickname, copies in markers:
        for copy in range(copies):
            token = _base("Custom_Token", nickname, f"orbitus:{name}:{copy}",
                          _transform(-4.5 + 1.8 * (n % 6), -4.0 - 1.0 * (n // 6), scale=0.5))
            token["CustomImage"] = {
                "ImageURL": _url(root, f"{folder}/{name}.png"), "ImageSecondaryURL": "",
                "ImageScalar": 1.0, "WidthScale": 0.0,
                "CustomToken": {"Thickness": 0.1, "MergeDistancePixels": 5.0, "StandUp": False,
                                "Stackable": False}}
            objects.append(token)
            n += 1
    out[f"{folder}/Orbitus.json"] = _save(objects)
    out[f"{folder}/Orbitus.png"] = thumb
    return out


def satellites_tts(defs: SatellitesDefinitions, root: PurePath,
                   words: Any = None) -> dict[str, bytes]:
    """The Satellites TTS files under ``satellites/tts/`` (``words``: the kit's labels)."""
    folder = "satellites/tts"
    d = defs.satellites.diameter_mm
    side = _px(d, TOKEN_DPI)
    names: list[str] = []
    drawings: list[Drawing] = []
    for e in defs.satellites.satellites:
        name = f"satellite-{e.colour}-{e.value}"
        if name in names:
            continue
        names.append(name)
        # the round tile is cut from the image's inscribed circle: the token fills the square
        token = Drawing(d, d, [Group(tuple(sat.satellite_token(defs, e.colour, e.value, d, 1.0,
                                                               cut_line=False)), (d / 2, d / 2),
                                     clip=Rect(-d / 2, -d / 2, d, d, Style()))], name)
        drawings.append(_sized(token, (side, side)))
    board = sat.board_drawing(defs, words=words)
    scale = MAX_PX / max(board.width, board.height)
    bw = min(MAX_PX, math.floor(board.width * scale + 1e-6))
    bh = min(MAX_PX, math.floor(board.height * scale + 1e-6))
    drawings.append(_sized(board, (bw, bh)))
    names.append("board")
    images = _raster(drawings)
    first = next(e for e in defs.satellites.satellites)
    thumb_token = sat.satellite_token(defs, first.colour, first.value, d, cut_line=False)
    thumb = _raster([_sized(orb.component(thumb_token, d + 2, d + 2, "thumbnail"),
                            (THUMB_PX, THUMB_PX))], transparent=True)[0]
    out = {f"{folder}/{n}.png": img for n, img in zip(names, images, strict=True)}
    board_obj = _base("Custom_Board", "Satellites board", "satellites:board",
                      _transform(0.0, 0.0, scale=1.0),
                      f"{defs.board.size} x {defs.board.size} cells, setup zones and trackers")
    board_obj["Locked"] = True
    board_obj["CustomImage"] = {"ImageURL": _url(root, f"{folder}/board.png"),
                                "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
    objects: list[dict[str, Any]] = [board_obj]
    per_colour: dict[str, int] = {}
    for e in defs.satellites.satellites:
        for copy in range(e.count):
            k = per_colour.get(e.colour, 0)
            per_colour[e.colour] = k + 1
            x = (-13.0 if e.colour == "red" else 13.0) + 1.4 * (k % 3)
            z = 7.0 - 1.4 * (k // 3)
            url = _url(root, f"{folder}/satellite-{e.colour}-{e.value}.png")
            tile = _base("Custom_Tile", f"{e.colour} satellite {e.value}",
                         f"satellites:{e.colour}:{e.value}:{copy}", _transform(x, z, scale=0.6))
            tile["CustomImage"] = {"ImageURL": url, "ImageSecondaryURL": url, "ImageScalar": 1.0,
                                   "WidthScale": 0.0,
                                   "CustomTile": {"Type": TILE_CIRCLE, "Thickness": 0.15,
                                                  "Stackable": False, "Stretch": True}}
            objects.append(tile)
    out[f"{folder}/Satellites.json"] = _save(objects)
    out[f"{folder}/Satellites.png"] = thumb
    return out


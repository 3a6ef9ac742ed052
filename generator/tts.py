"""Tabletop Simulator export: deck sheets, component images and a saved-object JSON per game.

What Tabletop Simulator (TTS) expects, from its own documentation (the knowledge base's
pages Custom Deck, Custom Tile, Custom Token, Custom Board and Save File Format, and the
scripting API's Custom Game Objects page), and as TTS writes its own saves:

- A custom deck is cut from a *card sheet*: a grid of at most 10 x 7 equal cells, at most
  4096 px on each side. The last cell of a sheet is the "hidden" image, shown for cards
  in another player's hand. The back is one image shared by every card
  (``UniqueBack: false``).
- A saved object is a save-file JSON whose ``ObjectStates`` hold the objects. A deck is a
  ``DeckCustom`` whose ``ContainedObjects`` are ``Card`` objects; card ``CardID`` is
  ``100 * key + slot`` where ``key`` names an entry of ``CustomDeck`` (one per sheet) and
  ``slot`` is the cell, in reading order. ``DeckIDs`` lists the card IDs in the same order.
- Card ``Type`` 3 is a hexagonal card (0 rounded rectangle, 1 rectangle, 2 rounded hex,
  3 hex, 4 circle); a card is vertical (portrait) unless it is *sideways* ("if the card is
  horizontal, instead of vertical", the API says), and a hexagon standing in a portrait
  card has a point up. The knowledge base defines the Sideways option only as "changes
  the ALT zoom for cards to match sideways cards", so nothing here relies on it: the
  flat-top sector faces are drawn turned 30 degrees into point-up portrait cells
  (:data:`FACE_TURN`), ``SidewaysCard`` is false, and a card on the table is turned back
  30 degrees, flat side on top, as printed.
- ``Custom_Tile`` ``Type`` 2 is a round tile; a ``Custom_Token`` is cut out of its image's
  transparency (``MergeDistancePixels`` 15, the import menu's default); a ``Custom_Board``
  takes its proportions from its image; a ``Custom_PDF`` shows a PDF (``PDFUrl``).
- ``ColorDiffuse`` as TTS writes it: 0.713235259 grey for cards and decks (the tint TTS
  gives every card), white for tiles, tokens, boards and PDFs.

The export writes, for Orbitus, the sector deck (one sheet cell per distinct sector, every
copy a card), the station (a one-card deck of the same hex card shape, so it is exactly
the size of a sector and the tiling fits), the start-line and barrier markers (tokens) and
the rule booklet and player aid as PDFs; for Satellites the board, the 24 satellites
(round tiles), the two tracker markers (tokens) and the booklet and aid. Names, tooltips
and the table's note are in the kit's language (``tts:`` in the labels). Images are
addressed by their absolute paths in the machine's own form (``C:\\Users\\…\\sectors-1.png``
on Windows, ``/home/…`` elsewhere), the form TTS itself writes for local images, so the
JSON works on the machine that built it. Saved objects leave ``SaveName`` and
``GameMode`` empty, as TTS's own saved objects do.
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
SIDEWAYS = False  # the hex card stands point-up in a portrait card; the faces are turned
FACE_TURN = 30.0  # degrees clockwise: a flat-top face turned this much stands point-up
TABLE_TURN = -FACE_TURN  # ... and a card on the table turned back shows it flat-top
TILE_CIRCLE = 2  # Custom_Tile Type: circle
CARD_TINT = 0.713235259  # the grey TTS writes as every card's and deck's ColorDiffuse
MERGE_DISTANCE = 15.0  # TTS's default for a custom token's cut-out
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
    """A flat-top hex component turned :data:`FACE_TURN` degrees so it stands point-up, as
    TTS's hex card does, and scaled to fill one portrait sheet cell, background bled to the
    cell's edges; ``origin`` is the cell's top-left in mm."""
    r = hexgeo.circumradius(flats)
    cw, ch = cell[0] * PX_MM, cell[1] * PX_MM
    k = cw / flats  # point-up, the hex is as wide as it is across flats
    local_w, local_h = flats, ch / k
    bleed = Polygon(offset_polygon(orb.hex_points(flats), CELL_BLEED_MM), Style(fill=bleed_fill))
    turned = Group((bleed, *items), rotate=FACE_TURN)
    assert abs(local_h - 2 * r) < 0.05 * r, "the cell is not point-up hex shaped"
    return Group((turned,), (origin[0] + cw / 2, origin[1] + ch / 2), scale=k,
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
            # no photo marker on a virtual card
            face = orb.sector_items(sector, defs, flats, fiducial=False)
            d.add(_hex_cell(face, defs.sectors.background, flats, lay.cell,
                            _cell_origin(lay, slot)))
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
               scale: float = 1.0, turn: float = 0.0) -> dict[str, float]:
    return {"posX": x, "posY": y, "posZ": z, "rotX": 0.0, "rotY": 180.0 + turn,
            "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _base(name: str, nickname: str, key: str, transform: dict[str, float],
          description: str = "", card: bool = False) -> dict[str, Any]:
    tint = CARD_TINT if card else 1.0  # as TTS writes them (see the module's notes)
    return {"GUID": _guid(key), "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": description, "ColorDiffuse": {"r": tint, "g": tint, "b": tint},
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
            "Tooltip": True, "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _stamped(objects: list[dict[str, Any]], stamp: str) -> list[dict[str, Any]]:
    """Every object (and every card inside a deck) noting the design it was built from in
    its GM notes, which TTS shows to the host: ``design v0.7.2·3fa9c1``."""
    for obj in objects:
        obj["GMNotes"] = f"design {stamp}"
        _stamped(obj.get("ContainedObjects", []), stamp)
    return objects


def _save(objects: list[dict[str, Any]], note: str = "", stamp: str = "") -> bytes:
    """The saved object: ``note`` (the table's notes) and, with ``stamp``, the design it
    was built from, in the notes and every object's GM notes."""
    if stamp:
        _stamped(objects, stamp)
    notes = "\n".join(part for part in (note, f"design {stamp}" if stamp else "") if part)
    save = {"SaveName": "", "GameMode": "", "Date": "", "VersionNumber": "",
            "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
            "Note": notes, "Rules": "",
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "TabStates": {},
            "ObjectStates": objects}
    return (json.dumps(save, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _url(root: PurePath | str, rel: str) -> str:
    """The image's absolute path as the machine writes it (what TTS expects of a local
    image; not a percent-encoded file:/// URL), or, with a base URL (``--tts-base-url``:
    the address the kit's folder is uploaded to), that URL followed by the image's path in
    the kit, each part percent-encoded: a kit uploaded once then works for every player."""
    if isinstance(root, str):
        from urllib.parse import quote

        return root.rstrip("/") + "/" + "/".join(quote(part) for part in rel.split("/"))
    return str(root.joinpath(*rel.split("/")))


def _pdfs(game: str, defs: Any, root: PurePath | str, lang: str, said: Any,
          x: float, z: float) -> list[dict[str, Any]]:
    """The rule booklet and the player aid as ``Custom_PDF`` objects: the kit's own PDFs
    (``<game>/rules-<lang>.pdf``, built beside the export), in the language they are built
    in."""
    from cards.labels import resolve

    out = []
    for k, (kind, name) in enumerate((("rules", said.rules), ("player-aid", said.aid))):
        chosen = resolve(defs.folder, game, kind, lang).lang
        obj = _base("Custom_PDF", name, f"{game}:{kind}", _transform(x + 4.0 * k, z))
        obj["CustomPDF"] = {"PDFUrl": _url(root, f"{game}/{kind}-{chosen}.pdf"),
                            "PDFPassword": "", "PDFPage": 0, "PDFPageOffset": 0}
        out.append(obj)
    return out


def _token(nickname: str, key: str, url: str, transform: dict[str, float]) -> dict[str, Any]:
    token = _base("Custom_Token", nickname, key, transform)
    token["CustomImage"] = {
        "ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
        "CustomToken": {"Thickness": 0.1, "MergeDistancePixels": MERGE_DISTANCE,
                        "StandUp": False, "Stackable": False}}
    return token


def orbitus_tts(defs: OrbitusDefinitions, root: PurePath | str, words: Any = None,
                lang: str = "en") -> dict[str, bytes]:
    """The Orbitus TTS files under ``orbitus/tts/``; ``root`` is the absolute output folder
    (or the base URL the output folder is uploaded to), ``words`` the kit's labels (default:
    English) in ``lang``."""
    from cards.labels import default_labels, fill

    words = words or default_labels("orbitus")
    said = words.tts
    folder = "orbitus/tts"
    flats = defs.sectors.hex_across_flats_mm
    aspect = 2 * hexgeo.circumradius(flats) / flats  # point-up: taller than wide
    faces = defs.sectors.sectors
    layouts = deck_layouts(len(faces), aspect)
    cell = layouts[0].cell
    drawings = sector_sheet_drawings(defs, layouts)
    names = [f"sectors-{n}" for n in range(1, len(layouts) + 1)]
    drawings.append(_single_cell(orb.back_items(defs, flats, CELL_BLEED_MM),
                                 defs.sectors.back.colour, flats, cell, "Orbitus sector back"))
    names.append("sector-back")
    drawings.append(_single_cell(orb.station_items(defs, flats, side_names=words.directions,
                                                     fiducial=False),
                                 defs.station.colour, flats, cell, "Orbitus station"))
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
        markers.append((name, fill(said.start_marker, seat=f"P{seat + 1}"), need[seat]))
    drawings.append(_sized(orb.component(orb.barrier_marker_items(
        defs, flats, label=words.station.barrier_marker), mw + 2, mh + 2,
                                         "barrier"), box))
    names.append("barrier-marker")
    markers.append(("barrier-marker", said.barrier, barriers))
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
                             _transform(0.0, 0.0, face_down=True),
                             _describe_in(defs, sector, said, words.directions, lang),
                             card=True)
                card.update({"CardID": key * 100 + slot, "SidewaysCard": SIDEWAYS,
                             "CustomDeck": {str(key): entry}, "Hands": True})
                cards.append(card)
        start += lay.cards
    deck = _base("DeckCustom", said.deck, "orbitus:deck",
                 _transform(-6.0, 0.0, face_down=True),
                 fill(said.deck_about, count=len(cards)), card=True)
    deck.update({"SidewaysCard": SIDEWAYS, "Hands": False,
                 "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": deck_entries,
                 "ContainedObjects": cards})
    station_key = len(layouts) + 1
    station_url = _url(root, f"{folder}/station.png")
    station = _base("Card", fill(said.station, name=defs.station.name), "orbitus:station",
                    _transform(0.0, 0.0, turn=TABLE_TURN), said.station_about, card=True)
    station.update({"CardID": station_key * 100, "SidewaysCard": SIDEWAYS, "Hands": False,
                    "Locked": True,
                    "CustomDeck": {str(station_key): {
                        "FaceURL": station_url, "BackURL": station_url, "NumWidth": 1,
                        "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False,
                        "Type": CARD_HEX}}})
    objects: list[dict[str, Any]] = [deck, station]
    n = 0
    for name, nickname, copies in markers:
        for copy in range(copies):
            objects.append(_token(nickname, f"orbitus:{name}:{copy}",
                                  _url(root, f"{folder}/{name}.png"),
                                  _transform(-4.5 + 1.8 * (n % 6), -4.0 - 1.0 * (n // 6),
                                             scale=0.5)))
            n += 1
    objects += _pdfs("orbitus", defs, root, lang, said, 8.0, -4.0)
    out[f"{folder}/Orbitus.json"] = _save(objects, "\n".join(said.note), defs.design.stamp)
    out[f"{folder}/Orbitus.png"] = thumb
    return out


def _describe_in(defs: OrbitusDefinitions, sector: Any, said: Any, sides: Any,
                 lang: str) -> str:
    """A sector card's tooltip in the kit's language: its routes (by the language's side
    names) and what its centre shows."""
    from cards.labels import fill

    names = list(sides or hexgeo.SIDES)
    routes = ", ".join(names[hexgeo.SIDES.index(r)] for r in sector.routes) \
        if sector.routes else said.routes_none
    if sector.centre == "planet":
        planet = defs.planets.by_id()[sector.planet]
        centre = fill(said.planet, planet=planet.names.get(lang, planet.name))
    elif sector.centre == "pirate":
        centre = said.pirate
    else:
        centre = said.void
    return fill(said.card_about, routes=routes, centre=centre)


def satellites_tts(defs: SatellitesDefinitions, root: PurePath | str,
                   words: Any = None, lang: str = "en") -> dict[str, bytes]:
    """The Satellites TTS files under ``satellites/tts/`` (``words``: the kit's labels, in
    ``lang``)."""
    from cards.labels import default_labels, fill

    words = words or default_labels("satellites")
    said = words.tts
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
        # the round tile is cut from the image's inscribed circle: the token fills the square;
        # no photo marker on a virtual table: the value in the middle
        token = Drawing(d, d, [Group(tuple(sat.satellite_token(defs, e.colour, e.value, d, 1.0,
                                                               cut_line=False, fiducial=False)),
                                     (d / 2, d / 2), clip=Rect(-d / 2, -d / 2, d, d, Style()))],
                        name)
        drawings.append(_sized(token, (side, side)))
    board = sat.board_drawing(defs, words=words)
    scale = MAX_PX / max(board.width, board.height)
    bw = min(MAX_PX, math.floor(board.width * scale + 1e-6))
    bh = min(MAX_PX, math.floor(board.height * scale + 1e-6))
    drawings.append(_sized(board, (bw, bh)))
    names.append("board")
    geo = sat.board_geometry(defs)
    marker_d = sat.track_box(defs, geo.size, geo.cell) - 1.0
    trackers = []
    for kind in ("connected", "grace"):
        marker = Drawing(marker_d + 2, marker_d + 2, [Group(tuple(sat.track_marker(
            defs, kind, marker_d)), (marker_d / 2 + 1, marker_d / 2 + 1))], kind)
        trackers.append(_sized(marker, (_px(marker_d + 2, TOKEN_DPI),) * 2))
    images = _raster(drawings) + _raster(trackers, transparent=True)
    names += ["marker-connected", "marker-grace"]
    first = next(e for e in defs.satellites.satellites)
    thumb_token = sat.satellite_token(defs, first.colour, first.value, d, cut_line=False,
                                      fiducial=False)
    thumb = _raster([_sized(orb.component(thumb_token, d + 2, d + 2, "thumbnail"),
                            (THUMB_PX, THUMB_PX))], transparent=True)[0]
    out = {f"{folder}/{n}.png": img for n, img in zip(names, images, strict=True)}
    board_obj = _base("Custom_Board", said.board, "satellites:board",
                      _transform(0.0, 0.0, scale=1.0), fill(said.board_about, size=defs.board.size))
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
            nickname = fill(said.red if e.colour == "red" else said.blue, value=e.value)
            tile = _base("Custom_Tile", nickname,
                         f"satellites:{e.colour}:{e.value}:{copy}", _transform(x, z, scale=0.6))
            tile["CustomImage"] = {"ImageURL": url, "ImageSecondaryURL": url, "ImageScalar": 1.0,
                                   "WidthScale": 0.0,
                                   "CustomTile": {"Type": TILE_CIRCLE, "Thickness": 0.15,
                                                  "Stackable": False, "Stretch": True}}
            objects.append(tile)
    for k, (kind, nickname) in enumerate((("connected", said.connected_marker),
                                          ("grace", said.grace_marker))):
        objects.append(_token(nickname, f"satellites:marker:{kind}",
                              _url(root, f"{folder}/marker-{kind}.png"),
                              _transform(-3.0 + 6.0 * k, -11.0, scale=0.4)))
    objects += _pdfs("satellites", defs, root, lang, said, 16.0, -8.0)
    out[f"{folder}/Satellites.json"] = _save(objects, "\n".join(said.note), defs.design.stamp)
    out[f"{folder}/Satellites.png"] = thumb
    return out

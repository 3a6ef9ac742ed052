"""Tabletop Simulator export: sheets within TTS's limits, a saved object that points at
the images it needs, and a deck holding every card of the definitions."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path, PureWindowsPath

import pytest
from PIL import Image, ImageChops, ImageStat

from cards.definitions import load_orbitus, load_satellites
from generator.build import BuildOptions, build
from generator.tts import MAX_COLS, MAX_PX, MAX_ROWS, deck_layouts
from testkit.commands import run_build

HEX_ASPECT = 57.735026918962575 / 50.0  # point-up: across corners / across flats


@pytest.fixture(scope="module")
def tts_out(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    result = run_build(["--out", str(out), "--tts", "-q"])
    assert result.exit_code == 0, result.output
    return out


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _path(url: str) -> Path:
    """The image a saved object names: a plain local path, as TTS writes its own."""
    assert "://" not in url and "%" not in url, url
    return Path(url)


def _urls(node) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("URL") and isinstance(value, str) and value:
                found.append(value)
            else:
                found += _urls(value)
    elif isinstance(node, list):
        for value in node:
            found += _urls(value)
    return found


@pytest.mark.parametrize("cards", [1, 2, 20, 36, 69, 70, 72, 138, 139, 300])
def test_layouts_respect_the_limits(cards):
    layouts = deck_layouts(cards, HEX_ASPECT)
    assert sum(lay.cards for lay in layouts) == cards
    assert len(layouts) == -(-cards // 69)  # 10 x 7 cells, one kept for the hidden card
    for lay in layouts:
        assert lay.cols <= MAX_COLS and lay.rows <= MAX_ROWS
        assert lay.cards + 1 <= lay.cols * lay.rows
        w, h = lay.size
        assert w <= MAX_PX and h <= MAX_PX
        assert lay.cell[1] == round(lay.cell[0] * HEX_ASPECT)


def test_sector_sheets_dimensions_and_cards_per_sheet(tts_out):
    save = _load(tts_out / "orbitus/tts/Orbitus.json")
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    per_sheet = Counter(card_id // 100 for card_id in deck["DeckIDs"])
    # 72 distinct sectors, one copy each: two sheets of 36 faces + the hidden card, 7 x 6
    assert per_sheet == {1: 36, 2: 36}
    for key, entry in deck["CustomDeck"].items():
        assert entry["Type"] == 3  # hexagonal cards
        assert (entry["NumWidth"], entry["NumHeight"]) == (7, 6)
        with Image.open(_path(entry["FaceURL"])) as sheet:
            assert sheet.size == (7 * 585, 6 * 675)
            assert max(sheet.size) <= 4096
        with Image.open(_path(entry["BackURL"])) as back:
            assert back.size == (585, 675)
        slots = [card_id % 100 for card_id in deck["DeckIDs"] if card_id // 100 == int(key)]
        assert sorted(slots) == list(range(36))  # the hidden slot (41) is never a card
    assert (tts_out / "orbitus/tts/sectors-1.png").name in deck["CustomDeck"]["1"]["FaceURL"]


def test_hidden_card_slot_shows_the_back(tts_out):
    with Image.open(tts_out / "orbitus/tts/sectors-2.png") as sheet, \
            Image.open(tts_out / "orbitus/tts/sector-back.png") as back:
        cw, ch = back.size
        back_rgb = back.convert("RGB")
        hidden = sheet.convert("RGB").crop((6 * cw, 5 * ch, 7 * cw, 6 * ch))
        # the same picture (anti-aliasing of the turned edges differs at sub-pixel edges)
        assert max(ImageStat.Stat(ImageChops.difference(hidden, back_rgb)).mean) < 1.0
        first = sheet.convert("RGB").crop((0, 0, cw, ch))
        assert max(ImageStat.Stat(ImageChops.difference(first, back_rgb)).mean) > 50


def test_deck_holds_every_copy_of_every_sector(tts_out, cards_copy, tmp_path):
    save = _load(tts_out / "orbitus/tts/Orbitus.json")
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    defs = load_orbitus()
    assert len(deck["ContainedObjects"]) == defs.sectors.deck_size == 72
    assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    assert sorted(c["Nickname"] for c in deck["ContainedObjects"]) == \
        sorted(s.id for s in defs.sectors.sectors)
    # copies share one sheet cell: a sector with count 3 gives three cards, one face
    path = cards_copy / "orbitus" / "sectors.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  - {id: S72, routes: [N, NE, SE, S, SW, NW]}",
                                 "  - {id: S72, routes: [N, NE, SE, S, SW, NW], count: 3}"),
                    encoding="utf-8")
    # the kit in a folder of its own: tmp_path holds the definitions, files no build wrote
    out = tmp_path / "out"
    build(out, games=("orbitus",), cards=cards_copy, opts=BuildOptions(tts=True))
    deck = next(o for o in _load(out / "orbitus/tts/Orbitus.json")["ObjectStates"]
                if o["Name"] == "DeckCustom")
    assert len(deck["DeckIDs"]) == 74
    s72 = {c["CardID"] for c in deck["ContainedObjects"] if c["Nickname"] == "S72"}
    assert len(s72) == 1 and Counter(deck["DeckIDs"])[s72.pop()] == 3


def test_saved_objects_load_and_reference_existing_files(tts_out):
    for game, title in (("orbitus", "Orbitus"), ("satellites", "Satellites")):
        save = _load(tts_out / game / "tts" / f"{title}.json")
        assert save["SaveName"] == "" and save["GameMode"] == ""  # as saved objects are
        urls = _urls(save["ObjectStates"])
        assert urls
        for url in urls:
            path = _path(url)
            assert path.is_absolute() and path.is_file(), url
            assert path.parent == (tts_out / game / "tts").resolve()
            with Image.open(path) as image:
                assert image.format == "PNG"
                assert max(image.size) <= MAX_PX
        # TTS shows a PNG of the same name as the saved object's thumbnail
        with Image.open(tts_out / game / "tts" / f"{title}.png") as thumb:
            assert thumb.size == (256, 256)
        guids = [o["GUID"] for o in save["ObjectStates"]]
        assert len(set(guids)) == len(guids)


def test_orbitus_objects_station_and_markers(tts_out):
    save = _load(tts_out / "orbitus/tts/Orbitus.json")
    names = Counter(o["Name"] for o in save["ObjectStates"])
    need, barriers = load_orbitus().ruleset.marker_counts()
    assert names == {"DeckCustom": 1, "Card": 1, "Custom_Token": sum(need) + barriers,
                     "Custom_PDF": 2}
    station = next(o for o in save["ObjectStates"] if o["Name"] == "Card")
    entry = next(iter(station["CustomDeck"].values()))
    assert entry["Type"] == 3 and (entry["NumWidth"], entry["NumHeight"]) == (1, 1)
    # the station is a card of the sectors' own shape and size, so the tiling fits
    with Image.open(_path(entry["FaceURL"])) as image:
        assert image.size == (585, 675)
    tokens = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Token"]
    for token in tokens:
        with Image.open(_path(token["CustomImage"]["ImageURL"])) as image:
            assert image.mode == "RGBA"  # the token is cut out of the transparency
            assert image.getpixel((0, 0))[3] == 0


def test_satellites_objects_board_and_tiles(tts_out):
    save = _load(tts_out / "satellites/tts/Satellites.json")
    defs = load_satellites()
    board = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Board"]
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    assert len(board) == 1 and len(tiles) == 24
    assert Counter(t["Nickname"] for t in tiles) == Counter(
        f"{e.colour} satellite {e.value}" for e in defs.satellites.satellites
        for _ in range(e.count))
    for tile in tiles:
        assert tile["CustomImage"]["CustomTile"]["Type"] == 2  # round
        with Image.open(_path(tile["CustomImage"]["ImageURL"])) as image:
            assert image.size[0] == image.size[1]
    with Image.open(_path(board[0]["CustomImage"]["ImageURL"])) as image:
        assert max(image.size) == MAX_PX
        ratio = image.size[0] / image.size[1]
    from generator.components.satellites import board_drawing
    drawing = board_drawing(defs)
    assert ratio == pytest.approx(drawing.width / drawing.height, abs=0.001)


def test_tts_export_is_deterministic(tts_out, tmp_path):
    again = tmp_path / "again"
    run_build(["--out", str(again), "--tts", "-q", "--game", "satellites"])
    for path in (tts_out / "satellites/tts").iterdir():
        if path.suffix == ".png":
            assert (again / "satellites/tts" / path.name).read_bytes() == path.read_bytes()


def test_image_paths_are_native_on_windows_too():
    """TTS writes local images as plain paths (C:\\Users\\…\\x.png), not as
    percent-encoded file:/// URLs; a Windows output folder with Cyrillic and spaces is
    written as such."""
    from generator.tts import satellites_tts

    root = PureWindowsPath("C:/Users/Иван Петров/Documents/kit")
    files = satellites_tts(load_satellites(), root)
    save = json.loads(files["satellites/tts/Satellites.json"])
    urls = _urls(save["ObjectStates"])
    assert urls
    for url in urls:
        assert url.startswith("C:\\Users\\Иван Петров\\Documents\\kit\\satellites\\tts\\")
        assert "%" not in url and "/" not in url and url.endswith(".png")


def test_hex_cards_stand_point_up_as_ttss_do_and_lie_flat_top(tts_out):
    """Issue 20, point 15: nothing relies on SidewaysCard (TTS's knowledge base defines
    Sideways only as "changes the ALT zoom"). TTS's hex card stands point-up in a portrait
    card, so the faces are point-up portrait cells (the flat-top face turned 30 degrees:
    the top middle of a cell is the card, its top corners are outside it), and the
    station, lying on the table, is turned back 30 degrees."""
    save = _load(tts_out / "orbitus/tts/Orbitus.json")
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    station = next(o for o in save["ObjectStates"] if o["Name"] == "Card")
    background = tuple(int(load_orbitus().sectors.background[i:i + 2], 16) for i in (1, 3, 5))
    for card in [deck, station, *deck["ContainedObjects"]]:
        assert card["SidewaysCard"] is False
        for entry in card["CustomDeck"].values():
            assert entry["Type"] == 3
            with Image.open(_path(entry["FaceURL"])) as image:
                w, h = image.size
                cols, rows = entry["NumWidth"], entry["NumHeight"]
                cw, ch = w // cols, h // rows
                assert ch / cw == pytest.approx(HEX_ASPECT, abs=0.003)  # portrait, point-up
                if card is not station:
                    rgb = image.convert("RGB")
                    # the point at the top middle is the face; the cell's corner is not
                    top = rgb.getpixel((cw // 2, 8))
                    assert sum(abs(a - b) for a, b in zip(top, background, strict=True)) < 30
                    assert rgb.getpixel((3, 3)) == (255, 255, 255)
    assert station["Transform"]["rotY"] == pytest.approx(150.0)  # 180 - 30: flat side on top


def test_tts_writes_what_tts_writes(tts_out):
    """ColorDiffuse as TTS writes it (its card grey for cards and decks, white otherwise),
    MergeDistancePixels at TTS's default 15, the booklet and aid as PDF objects that point
    at the kit's own PDFs, a note for the table (the hex grid), and Satellites' two tracker
    markers."""
    for game, title in (("orbitus", "Orbitus"), ("satellites", "Satellites")):
        save = _load(tts_out / game / "tts" / f"{title}.json")
        objects = save["ObjectStates"]
        for obj in objects + [c for o in objects for c in o.get("ContainedObjects", [])]:
            grey = 0.713235259 if obj["Name"] in ("Card", "DeckCustom") else 1.0
            assert obj["ColorDiffuse"] == {"r": grey, "g": grey, "b": grey}, obj["Name"]
            token = obj.get("CustomImage", {}).get("CustomToken")
            if token:
                assert token["MergeDistancePixels"] == 15.0
        pdfs = [o for o in objects if o["Name"] == "Custom_PDF"]
        assert [Path(o["CustomPDF"]["PDFUrl"]).name for o in pdfs] == ["rules-en.pdf",
                                                                    "player-aid-en.pdf"]
        for o in pdfs:
            assert Path(o["CustomPDF"]["PDFUrl"]).is_file()
        assert save["Note"]
    assert "Options > Grid" in _load(tts_out / "orbitus/tts/Orbitus.json")["Note"]
    markers = [o for o in _load(tts_out / "satellites/tts/Satellites.json")["ObjectStates"]
               if o["Name"] == "Custom_Token"]
    assert [m["Nickname"] for m in markers] == ["Marker: connected satellites",
                                                "Marker: grace moves"]
    for m in markers:
        with Image.open(_path(m["CustomImage"]["ImageURL"])) as image:
            assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0


def test_tts_names_follow_the_kit_language(tmp_path):
    """Issue 20, point 8: a Russian kit's TTS objects are named and described in Russian
    (sides as С, СВ, ...), an Italian kit's in Italian, with their own booklets."""
    for lang, deck_name, card_words, tile, pdf in (
            ("ru", "Секторы «Орбитуса»", "маршруты: С;", "Красный спутник 1", "rules-ru.pdf"),
            ("it", "Settori di Orbitus", "rotte: N;", "Satellite rosso 1", "rules-it.pdf")):
        out = tmp_path / lang
        result = run_build(["--out", str(out), "--tts", "--lang", lang, "-q"])
        assert result.exit_code == 0, result.output
        orbitus = _load(out / "orbitus/tts/Orbitus.json")["ObjectStates"]
        deck = next(o for o in orbitus if o["Name"] == "DeckCustom")
        assert deck["Nickname"] == deck_name
        s01 = next(c for c in deck["ContainedObjects"] if c["Nickname"] == "S01")
        assert s01["Description"].startswith(card_words), s01["Description"]
        assert Path(next(o for o in orbitus if o["Name"] == "Custom_PDF")["CustomPDF"]
                    ["PDFUrl"]).name == pdf
        satellites = _load(out / "satellites/tts/Satellites.json")["ObjectStates"]
        assert tile in {o["Nickname"] for o in satellites}
        text = json.dumps(orbitus + satellites, ensure_ascii=False)
        for english in ("Orbitus sectors", "start-line marker", "red satellite", "routes:"):
            assert english not in text, (lang, english)

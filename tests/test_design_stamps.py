"""Every build stamped: the design (v0.7.2·3fa9c1, or the hash) on every printed component,
in the booklets' and pads' footers, in markers.json, the TTS objects and design.json."""

from __future__ import annotations

import io
import json
import math
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from cards.ruleset_cache import load_definitions
from generator.build import build
from generator.drawing import Group, Text, text_width, walk
from generator.options import BuildOptions
from generator.products.orbitus import sector_slots
from generator.stamp import STAMP_CLASS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("stamped")
    mine = base / "mine"
    for game in ("orbitus", "satellites"):
        shutil.copytree(ROOT / "cards" / game, mine / game)
    for game in ("orbitus", "satellites"):
        rules = mine / game / "rules.yaml"
        rules.write_text("version: 0.7.2\n" + rules.read_text(encoding="utf-8"),
                         encoding="utf-8")
    out = base / "out"
    build(out, ("orbitus", "satellites"), mine, BuildOptions(tts=True, out_root=out))
    stamps = {g: load_definitions(g, mine).design.stamp for g in ("orbitus", "satellites")}
    return out, stamps


def _pages(path: Path) -> list[str]:
    return [p.extract_text() or "" for p in PdfReader(io.BytesIO(path.read_bytes())).pages]


def test_the_stamp_reads_version_and_hash(kit):
    _, stamps = kit
    for stamp in stamps.values():
        assert stamp.startswith("v0.7.2·") and len(stamp) == len("v0.7.2·") + 6


@pytest.mark.parametrize(("file", "game", "each"), [
    ("orbitus/station.pdf", "orbitus", 1),
    ("satellites/tokens.pdf", "satellites", 24),
    ("orbitus/score-pad.pdf", "orbitus", 1),
    ("satellites/score-pad.pdf", "satellites", 1),
])
def test_every_printed_component_carries_the_stamp(kit, file, game, each):
    out, stamps = kit
    first = _pages(out / file)[0]
    assert first.count(stamps[game]) >= each, (file, first.count(stamps[game]))


def test_every_sector_front_of_the_first_sheet_carries_the_stamp(kit):
    # as many fronts as the layout puts on a sheet (the printing note takes its room)
    out, stamps = kit
    defs = load_definitions("orbitus", out.parent / "mine")
    copies = sum(s.count for s in defs.sectors.sectors)
    fronts = min(copies, len(sector_slots(defs, BuildOptions(tts=True, out_root=out))))
    assert fronts > 1
    first = _pages(out / "orbitus" / "sectors.pdf")[0]
    assert first.count(stamps["orbitus"]) == fronts


def test_every_piece_of_the_tiled_board_carries_the_stamp(kit):
    # the board is cut into pieces glued together: each piece says its design in its outer
    # margin (a loose piece of an older print is seen), once, and no piece shows a
    # neighbour's stamp in its bleed
    from generator.products.satellites import tiled_board
    from generator.sheets import page_size

    out, stamps = kit
    defs = load_definitions("satellites", out.parent / "mine")
    tiled, _ = tiled_board(defs, page_size("a4"))
    pages = _pages(out / "satellites" / "board.pdf")
    assert len(pages) == len(tiled.pages) > 1
    for placed, text in zip(tiled.pages, pages, strict=True):
        pieces = [p for p in placed if p.index < len(tiled.pieces)]
        trackers = len(placed) - len(pieces)  # the trackers' card has a stamp of its own
        assert text.count(stamps["satellites"]) == len(pieces) + trackers, text


def test_sector_backs_carry_no_stamp(kit):
    out, stamps = kit
    backs = _pages(out / "orbitus" / "sectors.pdf")[1]
    assert stamps["orbitus"] not in backs


@pytest.mark.parametrize("file", ["orbitus/rules-en.pdf", "orbitus/player-aid-en.pdf",
                                  "satellites/rules-en.pdf", "satellites/player-aid-en.pdf"])
def test_every_booklet_page_has_the_stamp_in_its_footer(kit, file):
    out, stamps = kit
    game = file.split("/")[0]
    pages = _pages(out / file)
    assert all(stamps[game] in page for page in pages), file


def test_markers_tts_and_the_kept_definitions_carry_the_hash(kit):
    out, stamps = kit
    for game, name in (("orbitus", "Orbitus"), ("satellites", "Satellites")):
        design = load_definitions(game, out.parent / "mine").design
        markers = json.loads((out / game / "markers.json").read_text(encoding="utf-8"))
        assert markers["design"] == {"version": "0.7.2", "hash": design.hash,
                                     "stamp": stamps[game]}
        save = json.loads((out / game / "tts" / f"{name}.json").read_text(encoding="utf-8"))
        # the table's notes keep their own text; the design is a line of its own after it
        lines = save["Note"].splitlines()
        assert lines[-1] == f"design {stamps[game]}" and len(lines) > 1, save["Note"]
        notes = {o["GMNotes"] for o in save["ObjectStates"]}
        assert notes == {f"design {stamps[game]}"}
        kept = json.loads((out / game / "design.json").read_text(encoding="utf-8"))
        assert (kept["hash"], kept["version"]) == (design.hash, "0.7.2")


def _box(text: Text) -> tuple[float, float, float, float]:
    w = text_width(text.text, text.size)
    x0 = text.x - (w / 2 if text.anchor == "middle" else w if text.anchor == "end" else 0)
    return x0, text.y - text.size * 0.75, x0 + w, text.y + text.size * 0.25


def test_the_sector_stamp_lies_in_the_safe_area_clear_of_the_art():
    from generator.components.orbitus import sector_items

    defs = load_definitions("orbitus")
    flats = defs.sectors.hex_across_flats_mm
    ne = (math.cos(math.radians(30)), -math.sin(math.radians(30)))  # towards the NE side
    for sector in defs.sectors.sectors:
        items = sector_items(sector, defs, flats, stamp=True)
        (stamp,) = [i for i in walk(items) if getattr(i, "cls", None) == STAMP_CLASS]
        x0, y0, x1, y1 = _box(stamp)
        corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
        # at least 2 mm inside the cut: the top edge and the upper-right edge
        assert y0 >= -flats / 2 + 2.0
        assert all(ne[0] * x + ne[1] * y <= flats / 2 - 2.0 for x, y in corners)
        # clear of the N route band and the orientation marker (x within 3.5 mm of 0), of
        # the NE route band (3.5 mm either side of its centre line) and of the photo marker
        assert x0 > 3.5
        assert all(abs(ne[0] * y - ne[1] * x) > 3.5 for x, y in corners)
        for marker in [i for i in walk(items) if isinstance(i, Group) and i.cls == "fiducial"]:
            assert marker.translate[1] - 6.0 > y1  # the photo marker sits low on the card

"""The pictographs ☠ ⚡ ★ ✂ ✔ are drawn as vector paths in every backend, so a
viewer without DejaVu Sans shows the same picture (no empty boxes, no colour emoji);
``--svg-text outline`` draws every letter of the SVGs as paths."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pixels import open_pdf, pixel_mm, window

from generator.build import BuildOptions, build
from generator.glyphs import SYMBOLS, outline

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for mode in ("font", "outline"):
        folder = tmp_path_factory.mktemp(mode)
        build(folder, opts=BuildOptions(svg_text=mode))
        out[mode] = folder
    return out


def _svgs(folder: Path) -> list[Path]:
    found = sorted(folder.glob("*/svg/*.svg"))
    assert len(found) > 80
    return found


def test_no_svg_leaves_a_symbol_to_the_font(kits):
    for svg in _svgs(kits["font"]):
        root = ET.parse(svg).getroot()
        for text in root.iter(f"{NS}text"):
            assert not (set(text.text or "") & SYMBOLS), (svg.name, text.text)
    pirate = ET.parse(kits["font"] / "orbitus/svg/sector-S55.svg").getroot()
    board = ET.parse(kits["font"] / "satellites/svg/board.svg").getroot()
    for root, at_least in ((pirate, 1), (board, 4)):  # ☠; ★ and ⚡ on the tracks
        glyphs = [p for p in root.iter(f"{NS}path") if p.get("class") == "glyph"]
        assert len(glyphs) >= at_least


def test_outlined_svgs_need_no_font(kits):
    for svg in _svgs(kits["outline"]):
        root = ET.parse(svg).getroot()
        assert not list(root.iter(f"{NS}text")), svg.name
    station = ET.parse(kits["outline"] / "orbitus/svg/station.svg").getroot()
    assert len([p for p in station.iter(f"{NS}path") if p.get("class") == "glyph"]) >= 14


def test_pdf_draws_the_skull_as_a_path(kits):
    """The PDF's text layer holds no ☠ (it is a path), yet the skull is printed: white
    pixels in the dark pirate disc of S55."""
    from cards.definitions import load_orbitus
    from generator.drawing import Group
    from generator.products.orbitus import sector_sheets

    data = (kits["font"] / "orbitus/sectors.pdf").read_bytes()
    doc = open_pdf(data)
    page = doc[0]
    assert all(ch not in page.get_textpage().get_text_range() for ch in SYMBOLS)
    defs = load_orbitus()
    pages = sector_sheets(defs, BuildOptions())
    for n in range(0, len(pages), 2):
        hexes = [g for g in pages[n].items if isinstance(g, Group) and g.cls == "sector"]
        ids = [c for c in defs.sectors.sectors for _ in range(c.count)]
        ids = ids[len(hexes) * n // 2:]
        for g, card in zip(hexes, ids, strict=False):
            if card.id != "S55":
                continue
            x, y = g.translate
            img = window(doc, n, x - 4, y - 4, 95, 95, 300)
            whites = img.convert("L").point(lambda v: 255 if v > 200 else 0).histogram()[255]
            assert whites > 300  # the skull's white, inside the dark disc
            assert pixel_mm(img, (x - 4, y - 4), (x - 3.9, y - 3.9)) != (255, 255, 255)
            return
    pytest.fail("S55 not found on the fronts")


def test_glyph_outlines_come_from_the_font():
    for ch in SYMBOLS:
        cmds = outline(ch)
        assert cmds and cmds[0][0] == "M" and any(c[0] == "Z" for c in cmds), ch
        xs = [float(v) for c in cmds for v in c[1::2] if c[0] != "Z"]
        assert 0 <= min(xs) and max(xs) < 1.2  # within the glyph's advance, in ems

"""pnp-build: the PDFs read back as a printer and a person would see them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader

from cards.definitions import load_orbitus
from generator.build import BuildOptions, build
from generator.drawing import Group
from generator.fonts import string_width
from generator.products.orbitus import sector_sheets
from generator.sheets import MARGIN_MM, _extent, honeycomb_slots, page_size
from rules.hexgeo import circumradius
from testkit.commands import run_build

PT = 72 / 25.4
SIZES = {"a4": (595, 842), "letter": (612, 792)}


@pytest.fixture(scope="module")
def a4(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("a4")
    build(out)
    return out


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("letter")
    build(out, opts=BuildOptions(page="letter"))
    return out


EXPECTED = ["orbitus/sectors.pdf", "orbitus/station.pdf", "satellites/tokens.pdf",
            "satellites/board.pdf"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_sizes_and_counts(paper, request):
    out = request.getfixturevalue(paper)
    pages = {}
    for rel in EXPECTED:
        reader = PdfReader(out / rel)
        pages[rel] = len(reader.pages)
        for page in reader.pages:
            box = page.mediabox
            assert (round(float(box.width)), round(float(box.height))) == SIZES[paper], rel
    # 72 sectors, 20 (A4) or 18 (Letter) per sheet: 4 sheets, fronts and backs alternating
    assert pages["orbitus/sectors.pdf"] == 8
    assert pages["orbitus/station.pdf"] == 1
    assert pages["satellites/tokens.pdf"] == 1
    # the 324 mm board in 4 pieces with glue flaps, and the trackers, packed
    assert pages["satellites/board.pdf"] == {"a4": 3, "letter": 4}[paper]


def test_every_sector_id_and_station_name_extractable(a4):
    reader = PdfReader(a4 / "orbitus/sectors.pdf")
    fronts = "".join(reader.pages[i].extract_text() for i in range(0, 8, 2))
    ids = re.findall(r"S\d\d", fronts)
    assert sorted(ids) == [f"S{i:02d}" for i in range(1, 73)]
    backs = "".join(reader.pages[i].extract_text() for i in range(1, 8, 2))
    assert backs.count("ORBITUS") == 72
    assert backs.count("Орбитус") == 72
    station = PdfReader(a4 / "orbitus/station.pdf").pages[0].extract_text()
    assert "Орбитус" in station
    for side in ("N", "NE", "SE", "S", "SW", "NW"):
        assert re.search(rf"\b{side}\b", station)
    assert station.count("start") >= 11 and station.count("BARRIER") == 2


def test_font_is_embedded_truetype(a4):
    reader = PdfReader(a4 / "orbitus/station.pdf")
    fonts = reader.pages[0]["/Resources"]["/Font"]
    names = []
    for ref in fonts.values():
        font = ref.get_object()
        names.append(str(font["/BaseFont"]))
        descriptor = font.get("/FontDescriptor")
        if descriptor is None:  # type0 fonts keep it on the descendant
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object()
    assert any("DejaVuSans" in n for n in names)


def _text_centres(page, wanted: str) -> list[tuple[float, float]]:
    """Centres (pt, PDF space) of every centred text run equal to ``wanted``."""
    found: list[tuple[float, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip() != wanted:
            return
        a = tm[0] * cm[0] + tm[1] * cm[2]
        e = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        f = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        bold = "Bold" in str(font.get("/BaseFont", ""))
        width = string_width(wanted, size, bold)
        found.append((e + a * width / 2.0, f))

    page.extract_text(visitor_text=visit)
    return found


def test_each_back_is_the_mirror_of_its_front(a4):
    """Read from the PDF: the ORBITUS title of each back sits at the horizontal mirror of
    its front's hex centre (long-edge duplex flips left and right)."""
    defs = load_orbitus()
    reader = PdfReader(a4 / "orbitus/sectors.pdf")
    width = float(reader.pages[0].mediabox.width)
    sheets = sector_sheets(defs, BuildOptions())
    for n in range(4):
        front_centres = [g.translate for g in sheets[2 * n].items
                         if isinstance(g, Group) and g.cls == "sector"]
        titles = sorted(_text_centres(reader.pages[2 * n + 1], "ORBITUS"))
        assert len(titles) == len(front_centres)
        # hex centres in PDF points: x as is, y flipped; the title sits 1.6 mm above centre
        mirrored = sorted((width - x * PT, float(reader.pages[0].mediabox.height) - y * PT)
                          for x, y in front_centres)
        for (tx, ty), (mx, my) in zip(titles, mirrored, strict=True):
            assert tx == pytest.approx(mx, abs=0.05)
            assert ty < my + 10 and ty > my - 10
        # and the IDs printed on the front sit on those same front centres
        ids = _ids_positions(reader.pages[2 * n])
        assert len(ids) == len(front_centres)


def _ids_positions(page) -> list[str]:
    out: list[str] = []
    page.extract_text(visitor_text=lambda t, *a: out.append(t) if re.fullmatch(
        r"S\d\d", t.strip()) else None)
    return out


def test_back_positions_mirror_fronts_in_every_layout():
    defs = load_orbitus()
    for paper in ("a4", "letter"):
        for bleed in (True, False):
            pages = sector_sheets(defs, BuildOptions(page=paper, bleed=bleed))
            w = page_size(paper)[0]
            for front, back in zip(pages[::2], pages[1::2], strict=True):
                f = [g.translate for g in front.items if isinstance(g, Group) and
                     g.cls == "sector"]
                b = [g.translate for g in back.items if isinstance(g, Group) and
                     g.cls == "sector-back"]
                assert b == [(w - x, y) for x, y in f]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_packing_respects_margins(paper):
    page = page_size(paper)
    sheet = honeycomb_slots(page, 50.0, 3.0)
    # 18 on either paper: the 72-sector deck still takes four sheets
    assert len(sheet.centres) == {"a4": 18, "letter": 18}[paper]
    x0, y0, x1, y1 = _extent(sheet.centres, 50.0, 3.0)
    # hexes, bleed and crop marks all at least 6.5 mm from the paper's edge (issue 20:
    # many lasers print nothing in the outer 5 mm)
    assert MARGIN_MM >= 6.0
    r = circumradius(50.0)
    assert x0 >= MARGIN_MM - 1e-6 and y0 >= MARGIN_MM - 1e-6
    assert x1 <= page[0] - MARGIN_MM + 1e-6 and y1 <= page[1] - MARGIN_MM + 1e-6
    assert min(x for x, _ in sheet.centres) - r - 3.0 > MARGIN_MM


def test_building_twice_gives_identical_bytes(a4, tmp_path):
    again = tmp_path / "again"
    build(again)
    first = {p.relative_to(a4): p.read_bytes() for p in a4.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert first == second


def test_svgs_parse_with_one_hex_outline_per_sector(a4):
    ns = {"svg": "http://www.w3.org/2000/svg"}
    svgs = sorted((a4 / "orbitus" / "svg").glob("sector-S*.svg"))
    assert len(svgs) == 72
    for path in svgs:
        root = ET.parse(path).getroot()
        assert root.get("width") == "59.735mm"
        outlines = [p for p in root.iterfind(".//svg:polygon", ns)
                    if p.get("class") == "sector-outline"]
        assert len(outlines) == 1, path
        assert len(outlines[0].get("points").split()) == 6
        texts = [t.text for t in root.iterfind(".//svg:text", ns)]
        assert path.stem.removeprefix("sector-") in texts
    for name in ("sector-back", "station", "barrier-marker", "start-marker-P1"):
        ET.parse(a4 / "orbitus" / "svg" / f"{name}.svg")
    sats = sorted((a4 / "satellites" / "svg").glob("satellite-*.svg"))
    assert len(sats) == 8
    board = ET.parse(a4 / "satellites" / "svg" / "board.svg").getroot()
    assert board.get("width") == "324mm"


def test_svg_text_is_escaped(cards_copy, tmp_path):
    path = cards_copy / "orbitus" / "station.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "name_en: Orbitus", 'name_en: "Orbitus <&> \\"x\\""'), encoding="utf-8")
    out = tmp_path / "out"
    build(out, games=("orbitus",), cards=cards_copy)
    raw = (out / "orbitus/svg/station.svg").read_text(encoding="utf-8")
    assert "Orbitus &lt;&amp;&gt;" in raw
    root = ET.parse(out / "orbitus/svg/station.svg").getroot()
    assert any(t.text == 'Orbitus <&> "x"' for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_fit_puts_the_board_on_one_page_and_no_bleed_builds(tmp_path):
    result = run_build(["--out", str(tmp_path), "--game", "satellites", "--fit",
                                      "--no-bleed", "--page", "letter", "-q"])
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "satellites/board.pdf")
    assert len(reader.pages) == 1
    assert "scaled to" in reader.pages[0].extract_text()
    assert not (tmp_path / "orbitus").exists()


def test_board_pages_show_coordinates_and_trackers(a4):
    reader = PdfReader(a4 / "satellites/board.pdf")
    text = " ".join(p.extract_text() for p in reader.pages)
    for label in "abcdefghij":
        assert re.search(rf"\b{label}\b", text)
    assert "Connected satellites" in text and "Grace moves" in text
    assert "23" in text and "page 1 of 3" in text


def test_tokens_sheet_has_24_numbered_satellites(a4):
    reader = PdfReader(a4 / "satellites/tokens.pdf")
    numerals = re.findall(r"\b[1-4]\b", reader.pages[0].extract_text())
    assert sorted(numerals) == sorted([str(v) for v in (1, 2, 3, 4) for _ in range(6)])


def test_stale_component_svgs_are_removed(cards_copy, tmp_path):
    out = tmp_path / "out"
    build(out, games=("orbitus",), cards=cards_copy)
    assert (out / "orbitus/svg/sector-S72.svg").exists()
    path = cards_copy / "orbitus" / "sectors.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"  - \{id: S72,.*\n", "", text), encoding="utf-8")
    build(out, games=("orbitus",), cards=cards_copy)
    assert not (out / "orbitus/svg/sector-S72.svg").exists()
    assert len(PdfReader(out / "orbitus/sectors.pdf").pages) == 8


def test_interrupted_build_keeps_previous_files(tmp_path, monkeypatch):
    out = tmp_path / "out"
    build(out, games=("satellites",))
    before = (out / "satellites/board.pdf").read_bytes()

    import generator.products.satellites as products

    def broken(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(products, "board_pages", broken)
    with pytest.raises(KeyboardInterrupt):
        build(out, games=("satellites",), opts=BuildOptions(page="letter"))
    assert (out / "satellites/board.pdf").read_bytes() == before
    assert not list(out.rglob("*.tmp"))


def test_booklets_of_deleted_texts_are_removed(cards_copy, tmp_path):
    import shutil

    shutil.copytree(Path(__file__).resolve().parent.parent / "cards" / "orbitus" / "text",
                    cards_copy / "orbitus" / "text")
    out = tmp_path / "out"
    russian = BuildOptions(lang="ru")
    build(out, games=("orbitus",), cards=cards_copy, opts=russian)
    assert (out / "orbitus/rules-ru.pdf").exists() and (out / "orbitus/player-aid-ru.pdf").exists()
    (cards_copy / "orbitus" / "text" / "rules-ru.md").unlink()
    build(out, games=("orbitus",), cards=cards_copy, opts=russian)  # the booklet in English
    assert not (out / "orbitus/rules-ru.pdf").exists()
    assert (out / "orbitus/rules-en.pdf").exists()
    assert (out / "orbitus/player-aid-ru.pdf").exists()
    assert (out / "orbitus/sectors.pdf").exists()

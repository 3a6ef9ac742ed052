"""Issue 24: vendor presets as data, and the files each writes, read back from the files
(Pillow for images, pypdf and pikepdf for PDFs), never from the code that wrote them."""

from __future__ import annotations

import csv
import json
import shutil
from collections import Counter
from pathlib import Path

import jsonschema
import pikepdf
import pytest
import yaml
from PIL import Image
from pypdf import PdfReader

from cards.definitions import load_orbitus, load_satellites
from cards.loader import DefinitionError
from cards.presets import UnknownPreset, available, load_preset
from cards.schema import SCHEMA_DIR, schema_text
from generator.presets.place import PresetMismatch
from generator.presets.run import make, write

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ROOT / "cards" / "presets"
PT = 72 / 25.4  # points per mm


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "manifest.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("presets")
    folders = {}
    for name in ("thegamecrafter", "printshop", "drivethrucards", "makeplayingcards"):
        preset, result = make(name, ("orbitus", "satellites"))
        folders[name] = write(out, preset, result)
    return folders


# --- the presets as data ------------------------------------------------------------------


def test_every_shipped_preset_loads_names_its_schema_and_cites_its_sources():
    names = available()
    assert {"thegamecrafter", "makeplayingcards", "drivethrucards", "printshop",
            "playingcards-io", "screentop"} <= set(names)
    schema = json.loads((SCHEMA_DIR / "preset.schema.json").read_text(encoding="utf-8"))
    assert (SCHEMA_DIR / "preset.schema.json").read_text(encoding="utf-8") == \
        schema_text("preset"), "run python -m cards.schema"
    for name, path in names.items():
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schema/preset.schema.json"
        preset = load_preset(name)
        assert preset.name == name and preset.sources
        assert all(s.startswith("https://") for s in preset.sources)
        for product in preset.products.values():
            assert product.source.startswith("https://")
        jsonschema.validate(yaml.safe_load(text), schema)


def test_the_game_crafter_sizes_are_the_published_ones():
    tgc = load_preset("thegamecrafter")
    assert tgc.products["MediumHexTile"].pixels == (825, 750)
    assert tgc.products["LargeCircleChit"].pixels == (375, 375)
    assert tgc.products["QuadFoldBoard"].pixels == (5475, 5475)
    assert tgc.products["MediumSquareChit"].trim == (0.75, 0.75)
    assert tgc.dpi == 300 and tgc.format == "png-per-face"
    dtc = load_preset("drivethrucards")
    assert (dtc.colour, dtc.max_ink, dtc.page_order) == ("cmyk", 240, "back-front")


def test_an_unknown_preset_lists_the_presets():
    with pytest.raises(UnknownPreset) as info:
        load_preset("thegamecrafterr")
    line = info.value.problems[0]
    assert line.startswith("--preset thegamecrafterr: no such preset (there are: ")
    assert "drivethrucards" in line and "thegamecrafter" in line and "screentop" in line


def _user_preset(tmp_path: Path, name: str, text: str) -> Path:
    cards = tmp_path / "cards"
    (cards / "presets").mkdir(parents=True)
    shutil.copytree(ROOT / "cards" / "orbitus", cards / "orbitus")
    shutil.copytree(ROOT / "cards" / "satellites", cards / "satellites")
    (cards / "presets" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return cards


def test_a_mistake_in_a_preset_is_reported_with_file_and_line(tmp_path):
    text = (PRESETS / "thegamecrafter.yaml").read_text(encoding="utf-8")
    text = text.replace("name: thegamecrafter", "name: mine").replace(
        "    bleed: 0.125\n    safe: 0.125\n    pixels: [825, 750]",
        "    bleed: -1\n    safe: 0.125\n    pixels: [825, 750]")
    cards = _user_preset(tmp_path, "mine", text)
    line = 1 + text.splitlines().index("    bleed: -1")
    with pytest.raises(DefinitionError) as info:
        load_preset("mine", cards)
    assert len(info.value.problems) == 1
    assert info.value.problems[0].endswith(
        f"presets/mine.yaml:{line}: products.MediumHexTile.bleed: must be at least 0, got -1")


def test_a_product_named_that_the_preset_lacks_is_an_error(tmp_path):
    text = (PRESETS / "printshop.yaml").read_text(encoding="utf-8").replace(
        "name: printshop", "name: other").replace("satellites.board: {product: rect}",
                                                  "satellites.board: {product: poster}")
    cards = _user_preset(tmp_path, "other", text)
    with pytest.raises(DefinitionError) as info:
        load_preset("other", cards)
    assert "satellites.board: product 'poster' is not one of this preset's products (hex, " \
           "circle, rect, marker)" in info.value.problems[0]


def test_a_token_larger_than_its_chit_is_refused_before_anything_is_written(tmp_path):
    text = (PRESETS / "thegamecrafter.yaml").read_text(encoding="utf-8").replace(
        "name: thegamecrafter", "name: squares").replace(
        "satellites.satellite: {product: LargeCircleChit}",
        "satellites.satellite: {product: MediumSquareChit}")
    cards = _user_preset(tmp_path, "squares", text)
    with pytest.raises(PresetMismatch) as info:
        make("squares", ("orbitus", "satellites"), cards)
    assert str(info.value) == (
        "preset squares: satellites.satellite (25 × 25 mm) does not fit on The Game "
        "Crafter Medium Square Chit (19.05 × 19.05 mm cut): choose a larger product, or "
        "scale: fit where the shapes match")
    assert not (tmp_path / "out").exists()


# --- The Game Crafter: one PNG per face --------------------------------------------------------


def test_the_game_crafter_images_are_the_upload_size_at_300_dpi(builds):
    folder = builds["thegamecrafter"]
    want = {"MediumHexTile": (825, 750), "LargeCircleChit": (375, 375),
            "SmallCircleChit": (225, 225), "QuadFoldBoard": (5475, 5475)}
    rows = _rows(folder)
    assert rows
    for row in rows:
        with Image.open(folder / row["file"]) as image:
            assert image.size == want[row["product"]], row["file"]
            assert image.mode == "RGB"
            assert round(image.info["dpi"][0]) == 300
        assert row["file"] == f"{row['component'].split('.')[0]}/{row['product']}/" \
                              f"{row['name']}-{row['side']}.png"


def test_the_game_crafter_manifest_counts_are_the_decks(builds):
    rows = _rows(builds["thegamecrafter"])
    fronts = Counter()
    for r in rows:
        if r["side"] == "front":
            fronts[r["component"]] += int(r["copies"])
    deck = load_orbitus()
    assert fronts["orbitus.sector"] == sum(s.count for s in deck.sectors.sectors) == 72
    assert fronts["orbitus.station"] == 1
    assert fronts["satellites.satellite"] == sum(
        e.count for e in load_satellites().satellites.satellites) == 24
    assert fronts["satellites.track_marker"] == 2 and fronts["satellites.board"] == 1
    assert "orbitus.start_marker" not in fronts  # left out: no such product, said so
    backs = [r for r in rows if r["side"] == "back" and r["component"] == "orbitus.sector"]
    assert len(backs) == 1 and backs[0]["copies"] == "72"
    # every token has a back (the same face): a chit is printed on both sides
    assert Counter(r["side"] for r in rows if r["component"] == "satellites.satellite") == \
        {"front": 8, "back": 8}


def test_a_sector_tile_is_bled_to_the_edge_of_its_image(builds):
    folder = builds["thegamecrafter"]
    background = tuple(int(load_orbitus().sectors.background[i:i + 2], 16) for i in (1, 3, 5))
    with Image.open(folder / "orbitus/MediumHexTile/sector-S01-front.png") as image:
        rgb = image.convert("RGB")
        # the middle of the top edge, 1/8 inch of bleed above the cut: still the card's art
        assert rgb.getpixel((412, 10)) != (255, 255, 255)
        assert rgb.getpixel((150, 5)) == background


def test_the_board_sits_on_the_quad_fold_with_its_middle_on_the_folds(builds):
    defs = load_satellites()
    with Image.open(builds["thegamecrafter"] / "satellites/QuadFoldBoard/board-front.png") as im:
        rgb = im.convert("RGB")
        # the grid's middle line (between columns e and f) runs down the fold, x = 2737.5
        grid = tuple(int(defs.board.grid[i:i + 2], 16) for i in (1, 3, 5))
        centre = [rgb.getpixel((x, 2737 + 450)) for x in range(2730, 2746)]
        assert any(max(abs(a - b) for a, b in zip(p, grid, strict=True)) < 40 for p in centre)


# --- the generic print shop: PDF pages with TrimBox and BleedBox --------------------------------


def test_print_shop_pages_carry_trim_and_bleed_boxes(builds):
    folder = builds["printshop"]
    reader = PdfReader(folder / "orbitus/sector.pdf")
    assert len(reader.pages) == 2 * 72  # every sector, its back after it
    flats = load_orbitus().sectors.hex_across_flats_mm
    for page in reader.pages[:4]:
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        media = [float(v) for v in page.mediabox]
        assert bleed == pytest.approx(media, abs=0.01)
        for a, b in ((trim[0], bleed[0]), (trim[1], bleed[1]), (bleed[2], trim[2]),
                     (bleed[3], trim[3])):
            assert a - b == pytest.approx(3 * PT, abs=0.01)  # 3 mm of bleed all round
        assert (trim[3] - trim[1]) / PT == pytest.approx(flats, abs=0.01)
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for name in fonts:
        font = fonts[name].get_object()
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font \
            else font
        assert "/FontFile2" in descendant["/FontDescriptor"]
    board = PdfReader(folder / "satellites/board.pdf")
    assert len(board.pages) == 1


def test_home_print_sheets_ask_viewers_not_to_scale(tmp_path):
    from generator.build import build

    build(tmp_path, ("satellites",))
    for name in ("satellites/board.pdf", "satellites/tokens.pdf", "calibration.pdf"):
        reader = PdfReader(tmp_path / name)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        assert "/TrimBox" not in reader.pages[0]  # home sheets are not print-shop pages


# --- DriveThruCards: a CMYK PDF/X-1a deck, back then front ----------------------------------------


def test_drivethrucards_decks_are_pdfx_cmyk_back_then_front(builds):
    path = builds["drivethrucards"] / "orbitus/sector.pdf"
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 2 * 72
        intent = pdf.Root.OutputIntents[0]
        assert str(intent.S) == "/GTS_PDFX"
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-1:2003"
        assert str(pdf.trailer.Info.Trapped) == "/False"
        for page in pdf.pages[:6]:
            ops = [str(op) for _, op in pikepdf.parse_content_stream(page)]
            assert "rg" not in ops and "RG" not in ops and "k" in ops
            for operands, op in pikepdf.parse_content_stream(page):
                if str(op) in ("k", "K"):
                    assert sum(float(v) for v in operands) <= 2.4 + 1e-6  # 240 % ink
            media = [float(v) for v in page.MediaBox]
            assert media[2] / 72 == pytest.approx(2.75) and media[3] / 72 == pytest.approx(3.75)
            trim = [float(v) for v in page.TrimBox]
            assert (trim[2] - trim[0]) / 72 == pytest.approx(2.5)
    rows = _rows(builds["drivethrucards"])
    sides = [r["side"] for r in rows if r["file"] == "orbitus/sector.pdf"][:4]
    assert sides == ["back", "front", "back", "front"]


def test_drivethrucards_pages_show_the_back_first(builds):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(builds["drivethrucards"] / "orbitus/sector.pdf")
    images = [doc[i].render(scale=0.3).to_pil().tobytes() for i in range(4)]
    assert images[0] == images[2]  # every odd page is the shared back
    assert images[1] != images[3]  # the fronts differ (S01, S02)
    doc.close()


def test_preset_builds_are_deterministic(builds, tmp_path):
    preset, result = make("drivethrucards", ("orbitus",))
    again = write(tmp_path, preset, result)
    assert (again / "orbitus/sector.pdf").read_bytes() == \
        (builds["drivethrucards"] / "orbitus/sector.pdf").read_bytes()
    preset, result = make("thegamecrafter", ("orbitus",))
    assert result.files["orbitus/MediumHexTile/sector-S05-front.png"] == (
        builds["thegamecrafter"] / "orbitus/MediumHexTile/sector-S05-front.png").read_bytes()


def test_makeplayingcards_hex_cards_stand_on_a_corner(builds):
    folder = builds["makeplayingcards"]
    with Image.open(folder / "orbitus/front/sector-S01.png") as image:
        assert image.size == (852, 972)
        rgb = image.convert("RGB")
    # a pointy hex: the top corner is on the middle line, the top-left of the cut is bleed
    # ground (the card's background), as is the image's corner
    assert rgb.getpixel((426, 60)) == rgb.getpixel((5, 5))


def test_a_user_file_in_a_preset_folder_is_kept(builds, tmp_path):
    preset, result = make("printshop", ("satellites",))
    folder = write(tmp_path, preset, result)
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    write(tmp_path, preset, result)
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_preset_yaml_in_the_build_is_the_preset_read(builds):
    assert (builds["thegamecrafter"] / "preset.yaml").read_bytes() == \
        (PRESETS / "thegamecrafter.yaml").read_bytes()


def test_png_text_boxes_lie_where_the_letters_are(builds):
    """The boxes an image carries are where its words print: inside each box there is ink
    of the text's colour, and a box moved off by its own width is elsewhere."""
    from generator.presets.textboxes import KEY, decode

    with Image.open(builds["thegamecrafter"] / "orbitus/MediumHexTile/sector-S17-front.png") \
            as image:
        boxes = decode(image.info[KEY])
        rgb = image.convert("RGB")
    # the sector ID in the lower left, the design stamp in the upper right
    assert len(boxes) == 2
    corners = []
    for box in boxes:
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        x0, y0, x1, y1 = int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1
        dark = sum(1 for x in range(x0, x1) for y in range(y0, y1)
                   if max(rgb.getpixel((x, y))) < 90)
        assert dark > (x1 - x0) * (y1 - y0) * 0.08, box
        corners.append(("left" if x1 < rgb.width / 2 else "right",
                        "top" if y1 < rgb.height / 2 else "bottom"))
    assert sorted(corners) == [("left", "bottom"), ("right", "top")]


def test_the_preset_command_refuses_an_unknown_name_with_exit_2(tmp_path):
    from generator.presets.command import build

    said: list[str] = []
    code = build("nope", ("orbitus",), None, "en", tmp_path, "pnp build", said.append,
                 said.append)
    assert code == 2 and said[0].startswith("pnp build: --preset nope: no such preset (there "
                                            "are: drivethrucards, makeplayingcards, ")
    assert not any(tmp_path.iterdir())


def test_the_preset_command_builds_checks_and_says_what_it_left_out(tmp_path):
    from generator.presets.command import build

    said: list[str] = []
    report: list[str] = []
    code = build("drivethrucards", ("orbitus",), None, "en", tmp_path, "pnp build",
                 said.append, report.append)
    assert code == 0
    assert "pnp build: note: orbitus.start_marker left out: DriveThruCards prints cards " \
           "only (no punchouts)" in said
    assert report[0].endswith("no problems")
    assert (tmp_path / "drivethrucards" / "orbitus" / "sector.pdf").is_file()


def test_a_tts_base_url_must_be_an_address():
    from generator.presets.command import check_base_url

    assert check_base_url("https://example.org/kit/") is None
    assert check_base_url("ftp://x") == ("'ftp://x': expected an http:// or https:// address, "
                                         "e.g. https://example.org/kit/")
    assert "no spaces" in check_base_url("https://example.org/my kit/")

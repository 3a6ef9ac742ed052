"""Issue 24 point 3: the preflight of a preset build folder, on a good build and on
deliberately broken ones (an image at 150 dpi, art that stops at the cut, text in the
cut zone, a missing file, a wrong count), each one line naming the file."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from PIL import Image

from generator.preflight import check_folder, preflight
from generator.presets.run import make, write

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tgc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    preset, result = make("thegamecrafter", ("orbitus", "satellites"))
    return write(tmp_path_factory.mktemp("tgc"), preset, result)


@pytest.fixture
def copy(tgc: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "thegamecrafter"
    shutil.copytree(tgc, folder)
    return folder


def test_a_good_build_passes(tgc):
    code, text = check_folder(tgc)
    assert code == 0, text
    assert text.endswith("no problems")
    assert "orbitus.sector: 73 file(s), 72 copies; 300 dpi at least" in text
    assert "satellites.satellite: 16 file(s), 24 copies; 300 dpi at least" in text
    assert "orbitus.start_marker: left out (The Game Crafter has no stock piece" in text


def test_an_image_at_150_dpi_is_named_with_what_it_should_be(copy):
    name = "orbitus/MediumHexTile/sector-S17-front.png"
    with Image.open(copy / name) as image:
        image.resize((412, 375)).save(copy / name, dpi=(150, 150))
    code, text = check_folder(copy)
    assert code == 1
    problems = text.splitlines()[text.splitlines().index("1 problem(s):") + 1:]
    assert problems == [
        f"{name}: orbitus.sector: 150 dpi (412 × 375 px for 69.8 × 63.5 mm); The Game "
        "Crafter needs 300 dpi (825 × 750 px)"]


def test_art_that_stops_at_the_cut_is_missing_bleed(copy):
    name = "satellites/LargeCircleChit/satellite-red-2-front.png"
    with Image.open(copy / name) as image:
        rgb = image.convert("RGB")
    # paint the bleed ring white, as an export without bleed would have it
    w, h = rgb.size
    r_cut = 150  # 1 inch chit at 300 dpi: radius 150 px
    for x in range(w):
        for y in range(h):
            if (x - w / 2) ** 2 + (y - h / 2) ** 2 > (r_cut + 2) ** 2:
                rgb.putpixel((x, y), (255, 255, 255))
    info = Image.open(copy / name).info
    from PIL.PngImagePlugin import PngInfo

    meta = PngInfo()
    meta.add_text("pnp-text-boxes", info["pnp-text-boxes"])
    rgb.save(copy / name, dpi=(300, 300), pnginfo=meta)
    report = preflight(copy)
    assert [p.split(": the art")[0] for p in report.problems] == [
        f"{name}: satellites.satellite"]
    assert "carry it 3.2 mm on past the cut (bleed)" in report.problems[0]


def test_text_in_the_cut_zone_of_a_pdf_is_read_from_the_pdf(tmp_path):
    """A designer who asks the shop to cut the board at its very edge (pad 0): the
    coordinates then lie within 3 mm of the cut, and the preflight reads that off the
    letters in the PDF."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards" / "satellites", cards / "satellites")
    shutil.copytree(ROOT / "cards" / "orbitus", cards / "orbitus")
    (cards / "presets").mkdir()
    text = (ROOT / "cards/presets/printshop.yaml").read_text(encoding="utf-8")
    text = text.replace("name: printshop", "name: edge").replace("    pad: 3\n", "", 1)
    (cards / "presets/edge.yaml").write_text(text, encoding="utf-8")
    preset, result = make("edge", ("satellites",), cards)
    folder = write(tmp_path / "out", preset, result)
    code, out = check_folder(folder, cards)
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("satellites/board.pdf:1:")]
    assert len(lines) == 1
    assert "satellites.board: the letter" in lines[0]
    assert "mm outside the safe zone (3 mm inside the cut): it may be cut off" in lines[0]


def test_a_missing_file_and_a_wrong_count_are_each_one_line(copy):
    (copy / "orbitus/MediumHexTile/sector-S03-front.png").unlink()
    manifest = copy / "manifest.csv"
    rows = list(csv.reader(manifest.open(encoding="utf-8")))
    for row in rows:
        if row[3] == "satellite-blue-4" and row[5] == "front":
            row[4] = "2"
    with manifest.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    code, text = check_folder(copy)
    assert code == 1
    assert ("orbitus/MediumHexTile/sector-S03-front.png: orbitus.sector: listed in "
            "manifest.csv (line 4) but missing") in text
    assert ("manifest.csv: satellites.satellite: satellite-blue-4: 2 copies in the build, "
            "the deck has 3") in text


def test_not_a_preset_build_is_exit_2(tmp_path):
    code, text = check_folder(tmp_path)
    assert code == 2
    assert text == (f"{tmp_path / 'preset.yaml'}: not found; is this the folder of a preset "
                    "build (pnp build --preset NAME)?")


def test_cmyk_decks_and_virtual_rooms_pass(tmp_path):
    for name in ("drivethrucards", "printshop", "playingcards-io"):
        preset, result = make(name, ("orbitus", "satellites"))
        code, text = check_folder(write(tmp_path, preset, result))
        assert code == 0, text


def test_an_rgb_colour_in_a_cmyk_deck_is_found(tmp_path):
    import pikepdf

    preset, result = make("drivethrucards", ("orbitus",))
    folder = write(tmp_path, preset, result)
    path = folder / "orbitus/station.pdf"
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        page = pdf.pages[1]
        page.contents_add(pdf.make_stream(b"q 1 0 0 rg 0 0 10 10 re f Q"))
        pdf.save(path)
    report = preflight(folder)
    assert "orbitus/station.pdf:2: orbitus.station: an RGB colour; PDF/X-1a is CMYK (and " \
           "grey) only" in report.problems

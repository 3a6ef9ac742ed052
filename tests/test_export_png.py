"""PNG export: every distinct component, at the asked resolution, the same set as the SVGs."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PIL import Image

from cards.definitions import load_orbitus, load_satellites
from generator.build import BuildOptions, build
from generator.products.orbitus import components as orbitus_components
from generator.products.satellites import components as satellites_components
from testkit.commands import run_build


@pytest.fixture(scope="module")
def png300(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("png300")
    build(out, opts=BuildOptions(png_dpi=300))
    return out


def _expected_px(mm: float, dpi: float) -> int:
    # (PNG stores the resolution as whole pixels per metre: 150 dpi reads back as 150.01)
    return math.ceil(mm / 25.4 * dpi - 1e-6)


def test_every_svg_component_has_a_png(png300):
    for game in ("orbitus", "satellites"):
        svgs = {p.stem for p in (png300 / game / "svg").glob("*.svg")}
        pngs = {p.stem for p in (png300 / game / "png").glob("*.png")}
        assert pngs == svgs
    assert len(list((png300 / "orbitus" / "png").glob("sector-S*.png"))) == 72
    assert len(list((png300 / "satellites" / "png").glob("satellite-*.png"))) == 8


def test_png_sizes_match_300_dpi(png300):
    drawings = {("orbitus", k): d for k, d in orbitus_components(load_orbitus()).items()}
    drawings |= {("satellites", k): d
                 for k, d in satellites_components(load_satellites()).items()}
    for (game, name), drawing in drawings.items():
        with Image.open(png300 / game / "png" / f"{name}.png") as image:
            assert image.size == (_expected_px(drawing.width, 300),
                                  _expected_px(drawing.height, 300)), name
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.05)
    # a sector is 59.735 mm x 52 mm with its 1 mm margin: 706 x 615 px at 300 dpi
    with Image.open(png300 / "orbitus/png/sector-S01.png") as image:
        assert image.size == (706, 615)


def test_outside_the_shape_is_transparent(png300):
    with Image.open(png300 / "orbitus/png/sector-S01.png") as image:
        rgba = image.convert("RGBA")
        w, h = rgba.size
        assert rgba.getpixel((2, 2))[3] == 0  # corner: outside the hex
        assert rgba.getpixel((w // 2, h // 2 + 80))[3] == 255  # inside the hex
    with Image.open(png300 / "satellites/png/satellite-red-4.png") as image:
        rgba = image.convert("RGBA")
        assert rgba.getpixel((1, 1))[3] == 0
        assert rgba.getpixel((rgba.width // 2, rgba.height // 2))[3] == 255


def test_dpi_option_changes_the_size_and_implies_png(tmp_path):
    result = run_build(["--out", str(tmp_path), "--game", "satellites",
                                      "--dpi", "150", "-q"])
    assert result.exit_code == 0, result.output
    drawing = satellites_components(load_satellites())["satellite-blue-2"]
    with Image.open(tmp_path / "satellites/png/satellite-blue-2.png") as image:
        assert image.size == (_expected_px(drawing.width, 150),
                              _expected_px(drawing.height, 150))
        assert image.info["dpi"] == pytest.approx((150, 150), abs=0.05)
    assert not (tmp_path / "orbitus").exists()


def test_plain_build_writes_no_png_and_dpi_is_checked(tmp_path):
    result = run_build(["--out", str(tmp_path), "--game", "satellites", "-q"])
    assert result.exit_code == 0
    assert not (tmp_path / "satellites/png").exists()
    result = run_build(["--out", str(tmp_path), "--dpi", "10"])
    assert result.exit_code == 2
    assert "--dpi" in result.output


def test_png_export_is_deterministic(png300, tmp_path):
    build(tmp_path, games=("satellites",), opts=BuildOptions(png_dpi=300))
    for path in (png300 / "satellites" / "png").glob("*.png"):
        assert (tmp_path / "satellites/png" / path.name).read_bytes() == path.read_bytes()


def test_stale_pngs_are_removed(cards_copy, tmp_path):
    # the kit in a folder of its own: tmp_path holds the definitions, files no build wrote
    out = tmp_path / "out"
    opts = BuildOptions(png_dpi=40)
    build(out, games=("orbitus",), cards=cards_copy, opts=opts)
    assert (out / "orbitus/png/sector-S72.png").exists()
    path = cards_copy / "orbitus" / "sectors.yaml"
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines(keepends=True)
             if not ln.startswith("  - {id: S72,")]
    path.write_text("".join(lines), encoding="utf-8")
    build(out, games=("orbitus",), cards=cards_copy, opts=opts)
    assert not (out / "orbitus/png/sector-S72.png").exists()
    assert (out / "orbitus/png/sector-S71.png").exists()

"""The calibration sheet and --back-offset, read back from the PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build import BuildOptions, build
from generator.calibration import ARM_MM
from generator.fonts import string_width
from testkit.commands import run_build

PT = 72 / 25.4


def _runs(page, wanted: str) -> list[tuple[float, float]]:
    """(x, y) in PDF points of the left end of every text run equal to ``wanted``, plus its
    width (so centred labels can be compared by their middles)."""
    found: list[tuple[float, float]] = []

    def visit(text, cm, tm, font, size):
        if text.strip() != wanted:
            return
        a = tm[0] * cm[0] + tm[1] * cm[2]
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        bold = "Bold" in str(font.get("/BaseFont", ""))
        found.append((x + a * string_width(wanted, size, bold) / 2.0, y))

    page.extract_text(visitor_text=visit)
    return sorted(found)


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, Path]:
    plain = tmp_path_factory.mktemp("plain")
    shifted = tmp_path_factory.mktemp("shifted")
    build(plain, games=("orbitus",))
    result = run_build(["--out", str(shifted), "--game", "orbitus",
                                      "--back-offset=-1.5,0.7", "-q"])
    assert result.exit_code == 0, result.output
    return plain, shifted


def test_back_offset_moves_every_sector_back_by_exactly_that(builds):
    plain, shifted = builds
    a = PdfReader(plain / "orbitus/sectors.pdf")
    b = PdfReader(shifted / "orbitus/sectors.pdf")
    assert len(a.pages) == len(b.pages) == 8
    for n in range(8):
        before = _runs(a.pages[n], "ORBITUS" if n % 2 else "S01")
        after = _runs(b.pages[n], "ORBITUS" if n % 2 else "S01")
        assert len(before) == len(after)
        for (x0, y0), (x1, y1) in zip(before, after, strict=True):
            if n % 2:  # backs: 1.5 mm left, 0.7 mm down (PDF y grows upwards)
                assert x1 - x0 == pytest.approx(-1.5 * PT, abs=0.01)
                assert y1 - y0 == pytest.approx(-0.7 * PT, abs=0.01)
            else:  # fronts do not move
                assert (x1, y1) == pytest.approx((x0, y0), abs=0.001)
    assert sum(len(_runs(b.pages[n], "ORBITUS")) for n in range(1, 8, 2)) == 72


def test_back_offset_moves_the_calibration_back_too(builds):
    plain, shifted = builds
    a = PdfReader(plain / "calibration.pdf")
    b = PdfReader(shifted / "calibration.pdf")
    assert len(a.pages) == len(b.pages) == 2
    for label in ("F1", "F2", "F3", "F4", "F5"):
        (x0, y0), = _runs(a.pages[0], label)
        (x1, y1), = _runs(b.pages[0], label)
        assert (x1, y1) == pytest.approx((x0, y0), abs=0.001)
    for label in ("B1", "B2", "B3", "B4", "B5"):
        (x0, y0), = _runs(a.pages[1], label)
        (x1, y1), = _runs(b.pages[1], label)
        assert x1 - x0 == pytest.approx(-1.5 * PT, abs=0.01)
        assert y1 - y0 == pytest.approx(-0.7 * PT, abs=0.01)
    assert "--back-offset=-1.5,0.7" in b.pages[1].extract_text()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rulers_are_100_mm_and_backs_sit_behind_fronts(paper, tmp_path):
    build(tmp_path, games=("satellites",), opts=BuildOptions(page=paper))
    reader = PdfReader(tmp_path / "calibration.pdf")
    front, back = reader.pages
    width = float(front.mediabox.width)
    # ruler numbers: "0" and "100" of each ruler, exactly 100 mm apart
    zeros, hundreds = _runs(front, "0"), _runs(front, "100")
    assert len(zeros) == 2 and len(hundreds) == 2
    horizontal = [(z, h) for z in zeros for h in hundreds if abs(z[1] - h[1]) < 0.01]
    assert len(horizontal) == 1
    (z, h), = horizontal
    assert h[0] - z[0] == pytest.approx(100 * PT, abs=0.01)
    vertical_zero = next(p for p in zeros if p != z)
    vertical_hundred = next(p for p in hundreds if p != h)
    assert vertical_zero[1] - vertical_hundred[1] == pytest.approx(100 * PT, abs=0.01)
    # every back crosshair sits at the mirror of its front one (long-edge flip); the labels
    # are written ARM_MM (front) and 9 mm (back) left of their crosshair's centre
    for i in range(1, 6):
        (fx, fy), = _runs(front, f"F{i}")
        (bx, by), = _runs(back, f"B{i}")
        front_centre = fx + (ARM_MM - string_width(f"F{i}", 2.6, True) / 2) * PT
        back_centre = bx + (9.0 - string_width(f"B{i}", 2.6, True) / 2) * PT
        assert back_centre == pytest.approx(width - front_centre, abs=0.01)
        assert fy == pytest.approx(by, abs=0.01)


def test_bad_back_offsets_are_refused(tmp_path):
    for value, words in (("1", "two numbers"), ("a,b", "two numbers"), ("1,2,3", "two numbers"),
                         ("25,0", "25 mm is more"), ("nan,0", "two numbers")):
        result = run_build(["--out", str(tmp_path), f"--back-offset={value}"])
        assert result.exit_code == 2, value
        assert words in result.output and "--back-offset" in result.output
    assert not (tmp_path / "calibration.pdf").exists()


def test_decimal_commas_are_understood_or_answered_with_what_to_type(tmp_path):
    """Issue 20, point 14: Russian and Italian write 1,5; the option takes a dot, or a
    semicolon between numbers that carry decimal commas, and four numbers with commas get
    the exact option to type. The sheet prints the option with a dot in every language."""
    from generator.cli import _back_offset

    assert _back_offset("1.5,0.5") == (1.5, 0.5)
    assert _back_offset("1,5;0,5") == (1.5, 0.5)
    assert _back_offset("-1,5; −0,5") == (-1.5, -0.5)
    result = run_build(["--out", str(tmp_path), "--back-offset=1,5,0,5"])
    assert result.exit_code == 2
    assert ("type --back-offset=1.5,0.5 (a dot before the decimals) or "
            "--back-offset='1,5;0,5'") in result.output
    for lang, words in (("ru", "собран с --back-offset=1.5,-0.5 (мм)"),
                        ("it", "costruito con --back-offset=1.5,-0.5 (mm)")):
        out = tmp_path / lang
        result = run_build(["--out", str(out), "--lang", lang, "--game", "orbitus",
                            "--back-offset=1,5;-0,5", "-q"])
        assert result.exit_code == 0, result.output
        back = " ".join(PdfReader(out / "calibration.pdf").pages[1].extract_text().split())
        assert words in back, back
        assert "0,0 мм" not in back and "--back-offset 0" not in back

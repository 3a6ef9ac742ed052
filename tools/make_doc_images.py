"""Write the pictures of the README and the manual (docs/), from the shipped definitions:

- ``docs/images/sector-sheet-a4.png``: the first A4 sector sheet (fronts);
- ``docs/images/cut-back.png``: one sector back cut out along its cut line (every back is
  this one, pixel for pixel);
- ``docs/images/token-page.png``: the Satellites token page with the tracker markers;
- ``docs/images/booklet-page.png``: the first page of the English Orbitus rule booklet;
- ``docs/images/tokens.png``: a red and a blue satellite at twice their size (the value,
  the pips, the photo marker on the rim);
- ``docs/images/cut-back-ink-saver.png``: a sector back of ``--ink-saver``, cut out;
- ``docs/images/colour-vision.png``: the planet discs and the seats' start-line markers as
  printed, then as protanopia, deuteranopia and tritanopia (Machado et al. 2009) and a
  greyscale print show them (``generator.colour_vision``, the check of
  tests/test_colour_vision.py);
- ``docs/images/scored-table.png``: the six-player table of the fixtures as
  ``pnp score orbitus tests/fixtures/orbitus/six-players-72.yaml --png`` draws it, made small.

Each is rendered by the same code that prints (PDF, rasterised by pdfium) and kept under
300 KB. Run from the project folder after a change that shows:
``.venv/bin/python tools/make_doc_images.py``.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cards.definitions import load_orbitus, load_satellites  # noqa: E402
from generator import colour_vision as cv  # noqa: E402
from generator.aids import orbitus_texts  # noqa: E402
from generator.backends.pdf import render_pdf  # noqa: E402
from generator.components.satellites import satellite_token  # noqa: E402
from generator.drawing import Drawing, Group  # noqa: E402
from generator.export_png import components  # noqa: E402
from generator.ink import ink_saving  # noqa: E402
from generator.options import BuildOptions  # noqa: E402
from generator.products.orbitus import sector_sheets  # noqa: E402
from generator.products.satellites import token_sheet  # noqa: E402
from rules.hexgeo import circumradius, corners  # noqa: E402

OUT = ROOT / "docs" / "images"
TABLE = "tests/fixtures/orbitus/six-players-72.yaml"
LIMIT = 300_000


def _page(pdf: bytes, index: int, dpi: float) -> Image.Image:
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[index].render(scale=dpi / 72.0).to_pil().convert("RGB")
    finally:
        doc.close()


def _save(image: Image.Image, name: str, colours: int = 128) -> None:
    """As a palette PNG (small), fewer colours until it is under the limit."""
    while True:
        small = image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=0)
        data = io.BytesIO()
        small.save(data, format="PNG", optimize=True)
        if data.tell() <= LIMIT or colours <= 16:
            break
        colours //= 2
    (OUT / name).write_bytes(data.getvalue())
    print(f"wrote docs/images/{name}: {image.width} x {image.height} px, "
          f"{data.tell() / 1000:.0f} KB")


def cut_back(dpi: float = 300.0, light: bool = False) -> Image.Image:
    """A back as it comes off the sheet: rendered in place at ``dpi``, cut along its hex
    (``light``: as ``--ink-saver`` prints it)."""
    defs = ink_saving(load_orbitus()) if light else load_orbitus()
    pages = sector_sheets(defs, BuildOptions(ink_saver=light))
    flats = defs.sectors.hex_across_flats_mm
    centre = next(g.translate for g in pages[1].items
                  if isinstance(g, Group) and g.cls == "sector-back")
    page = _page(render_pdf(pages[:2]), 1, dpi)
    s = dpi / 25.4
    r = circumradius(flats)
    box = (int((centre[0] - r - 1) * s), int((centre[1] - flats / 2 - 1) * s),
           int((centre[0] + r + 1) * s), int((centre[1] + flats / 2 + 1) * s))
    crop = page.crop(box)
    mask = Image.new("L", crop.size, 0)
    ImageDraw.Draw(mask).polygon([((x * s - box[0]), (y * s - box[1]))
                                  for x, y in corners(centre, flats)], fill=255)
    out = Image.new("RGB", crop.size, (255, 255, 255))
    out.paste(crop, (0, 0), mask)
    return out


def tokens(dpi: float = 144.0) -> Image.Image:
    """A red and a blue satellite side by side, at ``dpi`` (144: twice their size on a
    screen)."""
    defs = load_satellites()
    d = defs.satellites.diameter_mm
    drawing = Drawing(2 * d + 12.0, d + 6.0, title="two satellites")
    drawing.add(Group(tuple(satellite_token(defs, "red", 3, cut_line=False)),
                      (d / 2 + 3.0, d / 2 + 3.0)))
    drawing.add(Group(tuple(satellite_token(defs, "blue", 2, cut_line=False)),
                      (1.5 * d + 9.0, d / 2 + 3.0)))
    return _page(render_pdf([drawing]), 0, dpi)


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(ROOT / "generator" / "fonts" / "DejaVuSans.ttf"), size)


def colour_vision(dpi: float = 60.0) -> Image.Image:
    """The printed planet discs and seat markers in a row, then that row as each colour
    vision sees it (the palette of the rendering simulated colour by colour)."""
    defs = load_orbitus()
    drawings = components("orbitus", defs)
    seen: set[str] = set()
    parts: list[Image.Image] = []
    for sector in defs.sectors.sectors:
        if sector.centre == "planet" and sector.planet not in seen:
            seen.add(sector.planet)
            parts.append(_page(render_pdf([drawings[f"sector-{sector.id}"]]), 0, dpi))
    for seat in range(1, 7):
        parts.append(_page(render_pdf([drawings[f"start-marker-P{seat}"]]), 0, dpi))
    gap = 6
    height = max(p.height for p in parts)
    row = Image.new("RGB", (sum(p.width for p in parts) + gap * (len(parts) - 1), height),
                    (255, 255, 255))
    x = 0
    for part in parts:
        row.paste(part, (x, (height - part.height) // 2))
        x += part.width + gap
    pal = row.quantize(colors=200, method=Image.Quantize.MEDIANCUT, dither=0)
    colours = pal.getpalette() or []
    label_w, font = 150, _font(15)
    out = Image.new("RGB", (row.width + label_w, (height + gap) * len(cv.VIEWS)),
                    (255, 255, 255))
    draw = ImageDraw.Draw(out)
    for k, view in enumerate(cv.VIEWS):
        table = []
        for i in range(0, len(colours), 3):
            rgb = cv.simulate(tuple(c / 255.0 for c in colours[i:i + 3]), view)  # type: ignore
            table += [round(c * 255) for c in rgb]
        shown = pal.copy()
        shown.putpalette(table)
        y = k * (height + gap)
        out.paste(shown.convert("RGB"), (label_w, y))
        draw.text((4, y + height // 2), view, fill=(40, 40, 40), font=font, anchor="lm")
    return out


def scored_table(width: int = 720) -> Image.Image:
    """The scorer's picture of the six-player fixture, ``width`` pixels across."""
    from scorer.cli import main as score

    with tempfile.TemporaryDirectory() as tmp:
        png = Path(tmp) / "table.png"
        here = Path.cwd()
        os.chdir(ROOT)  # the picture's title names the layout as given: relative
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                code = score(["orbitus", TABLE, "--png", str(png)])
        finally:
            os.chdir(here)
        if code != 0:
            raise SystemExit(f"pnp score orbitus {TABLE} exited {code}")
        image = Image.open(png).convert("RGB")
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    orbitus = load_orbitus()
    _save(_page(render_pdf(sector_sheets(orbitus, BuildOptions())[:1]), 0, 72),
          "sector-sheet-a4.png")
    _save(cut_back().resize((354, 308), Image.Resampling.LANCZOS), "cut-back.png")
    _save(_page(render_pdf(token_sheet(load_satellites(), BuildOptions())), 0, 72),
          "token-page.png")
    booklet = orbitus_texts(orbitus, "rules", "a4", ["en"])["orbitus/rules-en.pdf"]
    _save(_page(booklet, 0, 80), "booklet-page.png")
    _save(tokens(), "tokens.png")
    _save(cut_back(light=True).resize((354, 308), Image.Resampling.LANCZOS),
          "cut-back-ink-saver.png")
    _save(colour_vision(), "colour-vision.png", 256)
    _save(scored_table(), "scored-table.png")


if __name__ == "__main__":
    main()

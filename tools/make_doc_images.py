"""Write the pictures of the README and the manual (docs/), from the shipped definitions:

- ``docs/images/sector-sheet-a4.png``: the first A4 sector sheet (fronts);
- ``docs/images/cut-back.png``: one sector back cut out along its cut line (every back is
  this one, pixel for pixel);
- ``docs/images/token-page.png``: the Satellites token page with the tracker markers;
- ``docs/images/booklet-page.png``: the first page of the English Orbitus rule booklet;
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
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cards.definitions import load_orbitus, load_satellites  # noqa: E402
from generator.aids import orbitus_texts  # noqa: E402
from generator.backends.pdf import render_pdf  # noqa: E402
from generator.drawing import Group  # noqa: E402
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


def cut_back(dpi: float = 300.0) -> Image.Image:
    """A back as it comes off the sheet: rendered in place at ``dpi``, cut along its hex."""
    defs = load_orbitus()
    pages = sector_sheets(defs, BuildOptions())
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
    _save(scored_table(), "scored-table.png")


if __name__ == "__main__":
    main()

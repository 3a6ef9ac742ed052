"""Draw the pictures of docs/print-shops.md: one file or page of each shipped preset, as
the preset build writes it, with the cut (red) and the safe zone (blue) drawn over the
images of the print shops (the files themselves carry no guides).

Run: .venv/bin/python tools/make_preset_images.py
"""

from __future__ import annotations

import io
import json
import math
import sys
import tempfile
import zipfile
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cards.presets import load_preset  # noqa: E402
from generator.presets.geometry import inside_safe  # noqa: E402
from generator.presets.run import make, write  # noqa: E402

OUT = ROOT / "docs" / "images"
GREY = (120, 120, 120)
CUT = (220, 30, 30)
SAFE = (30, 90, 220)


def _outline(shape: str, orientation: str, trim: tuple[float, float], centre: tuple[float, float],
             grow: float, px_mm: float) -> list[tuple[float, float]]:
    """The cut shape grown by ``grow`` mm, as pixel points (a polygon)."""
    cx, cy = centre
    pts = []
    steps = 96 if shape == "circle" else (6 if shape == "hex" else 4)
    for k in range(steps):
        if shape == "circle":
            t = 2 * math.pi * k / steps
            r = min(trim) / 2 + grow
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        elif shape == "hex":
            r = (min(trim) / 2 + grow) / math.cos(math.pi / 6)
            t = math.pi / 3 * k + (math.pi / 2 if orientation == "pointy" else 0.0)
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        else:
            w, h = trim[0] / 2 + grow, trim[1] / 2 + grow
            pts.append((cx + (w if k in (1, 2) else -w), cy + (h if k >= 2 else -h)))
    return [(x * px_mm, y * px_mm) for x, y in pts]


def guides(image: Image.Image, preset_name: str, product_key: str) -> Image.Image:
    preset = load_preset(preset_name)
    product = preset.products[product_key]
    assert product.trim is not None
    px_mm = image.size[0] / (image.size[0] / preset.dpi * 25.4)
    canvas = (image.size[0] / px_mm, image.size[1] / px_mm)
    centre = (canvas[0] / 2, canvas[1] / 2)
    trim = (preset.mm(product.trim[0]), preset.mm(product.trim[1]))
    out = image.convert("RGB")
    draw = ImageDraw.Draw(out)
    width = max(2, image.size[0] // 250)
    draw.polygon(_outline(product.shape, product.orientation, trim, centre, 0.0, px_mm),
                 outline=CUT, width=width)
    draw.polygon(_outline(product.shape, product.orientation, trim, centre,
                          -preset.mm(product.safe), px_mm), outline=SAFE, width=width)
    assert inside_safe(product.shape, product.orientation, trim, centre, 0.0, *centre) > 0
    return out


def row(images: list[Image.Image], height: int, gap: int = 16) -> Image.Image:
    scaled = [im.resize((max(1, round(im.size[0] * height / im.size[1])), height),
                        Image.Resampling.LANCZOS) for im in images]
    sheet = Image.new("RGB", (sum(i.size[0] for i in scaled) + gap * (len(scaled) + 1),
                              height + 2 * gap), (236, 236, 236))
    x = gap
    for im in scaled:
        sheet.paste(im, (x, gap))
        x += im.size[0] + gap
    return sheet


def save(image: Image.Image, name: str) -> None:
    data = io.BytesIO()
    image.convert("RGB").quantize(colors=160).save(data, format="PNG", optimize=True)
    (OUT / name).write_bytes(data.getvalue())
    print(f"wrote docs/images/{name}: {image.width} x {image.height} px")


def pdf_page(path: Path, index: int, dpi: float) -> Image.Image:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    page = doc[index]
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    box = page.get_trimbox()
    draw = ImageDraw.Draw(image)
    k = dpi / 72
    height = page.get_height()
    draw.rectangle((box[0] * k, (height - box[3]) * k, box[2] * k, (height - box[1]) * k),
                   outline=CUT, width=2)
    doc.close()
    return image


def room_preview(room: Path, scale: float = 0.5) -> Image.Image:
    """A top view of a PlayingCards.io room: every widget's image where it lies."""
    with zipfile.ZipFile(room) as z:
        widgets = json.loads(z.read("widgets.json"))
        decks = {w["id"]: w for w in widgets if w["type"] == "cardDeck"}
        right = max(w.get("x", 0) + w.get("width", 120) for w in widgets)
        bottom = max(w.get("y", 0) + w.get("height", 160) for w in widgets)
        sheet = Image.new("RGB", (int(right * scale) + 20, int(bottom * scale) + 20),
                          (58, 110, 80))
        draw = ImageDraw.Draw(sheet)

        def paste(asset: str, x: float, y: float, w: float, h: float) -> None:
            with Image.open(io.BytesIO(z.read(asset.removeprefix("package://")))) as im:
                im = im.convert("RGBA").resize((max(1, int(w * scale)), max(1, int(h * scale))))
                sheet.paste(im, (int(x * scale), int(y * scale)), im)

        for w in sorted(widgets, key=lambda w: w.get("z", 0)):
            if w["type"] == "hand" and w.get("enabled", True):
                draw.rectangle((w["x"] * scale, w["y"] * scale, (w["x"] + w["width"]) * scale,
                                (w["y"] + w["height"]) * scale), outline=(240, 240, 240),
                               width=2)
                draw.text((w["x"] * scale + 6, w["y"] * scale + 4), "hand (hidden from others)",
                          fill=(240, 240, 240))
            elif w["type"] == "board":
                paste(w["boardImage"], w["x"], w["y"], w["width"], w["height"])
            elif w["type"] == "cardPile":
                deck = decks["sector-deck"]
                back = deck["backTemplate"]["objects"][0]["value"]
                paste(back, w["x"] + 4, w["y"] + 4, deck["cardWidth"], deck["cardHeight"])
                draw.text((w["x"] * scale, (w["y"] - 14) * scale), w["label"],
                          fill=(240, 240, 240))
            elif w["type"] == "piece":
                deck = decks[w["deck"]]
                paste(deck["cardTypes"][w["cardType"]]["image"], w["x"], w["y"],
                      deck["cardWidth"], deck["cardHeight"])
    return sheet


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        folders = {}
        for name in ("thegamecrafter", "makeplayingcards", "drivethrucards", "printshop",
                     "playingcards-io", "screentop"):
            preset, result = make(name, ("orbitus", "satellites"))
            folders[name] = write(out, preset, result)
        tgc = folders["thegamecrafter"]
        images = [guides(Image.open(tgc / f), "thegamecrafter", p) for f, p in (
            ("orbitus/MediumHexTile/sector-S17-front.png", "MediumHexTile"),
            ("orbitus/MediumHexTile/sector-back.png", "MediumHexTile"),
            ("satellites/LargeCircleChit/satellite-blue-3-front.png", "LargeCircleChit"),
            ("satellites/SmallCircleChit/track-marker-grace-front.png", "SmallCircleChit"))]
        save(row(images, 300), "preset-thegamecrafter.png")
        with Image.open(tgc / "satellites/QuadFoldBoard/board-front.png") as board:
            small = board.reduce(8)
        draw = ImageDraw.Draw(small)  # the cut (1/8 inch in) and the two folds
        edge = 0.125 * 300 / 8
        draw.rectangle((edge, edge, small.size[0] - edge, small.size[1] - edge), outline=CUT,
                       width=2)
        mid = small.size[0] / 2
        draw.line((mid, 0, mid, small.size[1]), fill=GREY, width=1)
        draw.line((0, mid, small.size[0], mid), fill=GREY, width=1)
        save(row([small], 420), "preset-thegamecrafter-board.png")
        mpc = folders["makeplayingcards"]
        save(row([guides(Image.open(mpc / "orbitus/front/sector-S17.png"), "makeplayingcards",
                         "HexCard"),
                  guides(Image.open(mpc / "orbitus/back/sector.png"), "makeplayingcards",
                         "HexCard")], 320), "preset-makeplayingcards.png")
        dtc = folders["drivethrucards"] / "orbitus/sector.pdf"
        save(row([pdf_page(dtc, 0, 100), pdf_page(dtc, 1, 100)], 340),
             "preset-drivethrucards.png")
        shop = folders["printshop"]
        save(row([pdf_page(shop / "orbitus/sector.pdf", 0, 150),
                  pdf_page(shop / "satellites/satellite.pdf", 0, 150),
                  pdf_page(shop / "orbitus/start-marker.pdf", 0, 150)], 260),
             "preset-printshop.png")
        save(room_preview(folders["playingcards-io"] / "orbitus.pcio"),
             "preset-playingcards-io.png")
        grid = Image.open(folders["screentop"] / "screentop/orbitus/sector-1.png")
        grid = grid.resize((grid.size[0] // 3, grid.size[1] // 3))
        save(row([grid.convert("RGBA")], grid.size[1]), "preset-screentop.png")


if __name__ == "__main__":
    main()

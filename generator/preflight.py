"""Preflight: check a preset build folder against its preset, reading the files themselves.

Every preset build carries the preset it was made from (``preset.yaml``) and a
``manifest.csv`` (file, page, component, face, copies, side, product). The preflight reads
both, then every file, and reports per component:

- **counts**: the fronts in the manifest are the deck's copies, face by face (the
  definitions read from ``cards``, default the shipped ones), and every file listed exists;
- **size and resolution**: each image is the vendor's upload size and its resolution (its
  pixels over the printed size) at least the preset's dpi; every raster inside a PDF
  likewise (pdfium's image objects and where they are drawn);
- **page boxes** (PDF): every page has a TrimBox of the product's cut size and a BleedBox
  at least the preset's bleed past it on every side, inside the MediaBox;
- **bleed present**: the art runs on past the cut (pixels sampled just inside the cut
  and near the bleed's edge, all round the product's shape: paper there, where the
  art inside is coloured, is art that stops at the cut);
- **safe zone**: every letter lies inside the cut shape shrunk by the safe margin (PDF:
  pdfium's character boxes, read from the file; images: the text boxes the image carries
  in its metadata, written when it was drawn, since pixels do not say which are words);
- **fonts embedded** (PDF, pikepdf), **colour mode** (RGB images; CMYK PDF/X-1a: an output
  intent, the PDF/X keys, no RGB colour, no transparency, ink within the vendor's limit);
- **file size** under the vendor's limit.

:func:`preflight` returns a :class:`Report`; every problem is one line ``FILE[:PAGE]:
component: what is wrong; what would be right``.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections import defaultdict, deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.loader import DefinitionError, UnreadableInput, display_path
from cards.preset_models import COMPONENT_SHAPES, COMPONENTS, PresetFile, Product
from generator.presets.files import MANIFEST, MANIFEST_FIELDS, PRESET_COPY, Row
from generator.presets.geometry import inside_safe

MM_PER_PT = 25.4 / 72.0
TOLERANCE_MM = 0.05  # sizes compared to a twentieth of a millimetre (about half a pixel)
SAMPLES = 72  # points round a shape for the bleed check
PAPER = 245  # a pixel lighter than this in every channel counts as bare paper


class PreflightError(Exception):
    """The folder cannot be checked at all (no preset build there); exit 2."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


@dataclass
class Report:
    folder: Path
    preset: PresetFile
    problems: list[str] = field(default_factory=list)
    summary: dict[str, list[str]] = field(default_factory=dict)  # component -> lines
    checked_files: int = 0
    games: tuple[str, ...] = ()  # the games the build holds

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        lines = [f"preflight of {display_path(self.folder)} for {self.preset.vendor} "
                 f"({self.preset.name}): {self.checked_files} file(s)"]
        for component, notes in self.summary.items():
            lines.append(f"  {component}: " + "; ".join(notes))
        for key, why in self.preset.leave_out.items():
            if key.split(".")[0] in self.games:
                lines.append(f"  {key}: left out ({why})")
        if self.problems:
            lines.append(f"{len(self.problems)} problem(s):")
            lines += self.problems
        else:
            lines.append("no problems")
        return "\n".join(lines)


def read_manifest(folder: Path) -> list[Row]:
    path = folder / MANIFEST
    shown = display_path(path)
    if not path.is_file():
        raise PreflightError([f"{shown}: not found; a preset build (pnp build --preset NAME) "
                              "writes one beside its files"])
    text = path.read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or tuple(header) != MANIFEST_FIELDS:
        raise PreflightError([f"{shown}:1: expected the columns {', '.join(MANIFEST_FIELDS)}"])
    rows: list[Row] = []
    problems: list[str] = []
    for n, cells in enumerate(reader, start=2):
        if len(cells) != len(MANIFEST_FIELDS):
            problems.append(f"{shown}:{n}: {len(cells)} cells, expected "
                            f"{len(MANIFEST_FIELDS)}")
            continue
        file, page, component, name, copies, side, product = cells
        if not page.isdigit() or not copies.isdigit():
            problems.append(f"{shown}:{n}: page and copies must be whole numbers")
            continue
        if component not in COMPONENTS:
            problems.append(f"{shown}:{n}: {component!r} is not a component")
            continue
        if side not in ("front", "back") or Path(file).is_absolute() or ".." in file.split("/"):
            problems.append(f"{shown}:{n}: expected a side front or back and a file inside "
                            "the folder")
            continue
        rows.append(Row(file, int(page), component, name, int(copies), side, product, n))
    if problems:
        raise PreflightError(problems)
    return rows


def preflight(folder: Path, cards: Path | None = None) -> Report:
    """Check the preset build in ``folder`` (raises :class:`PreflightError` when there is
    none, :class:`DefinitionError` for a broken ``preset.yaml``)."""
    from cards.presets import load_preset_file

    if not folder.is_dir():
        raise PreflightError([f"{display_path(folder)}: no such folder"])
    if not (folder / PRESET_COPY).is_file():
        raise PreflightError([f"{display_path(folder / PRESET_COPY)}: not found; is this the "
                              "folder of a preset build (pnp build --preset NAME)?"])
    preset = load_preset_file(folder / PRESET_COPY)
    rows = read_manifest(folder)
    report = Report(folder, preset, games=tuple(sorted({r.component.split(".")[0]
                                                        for r in rows})))
    by_file: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_file[row.file].append(row)
    notes: dict[str, dict[str, Any]] = defaultdict(lambda: {"files": set(), "dpi": []})
    images = _decoded([folder / f for f in by_file if f.endswith(".png") and
                       (folder / f).is_file()] if preset.kind == "print" else [])
    for file, file_rows in by_file.items():
        path = folder / file
        shown = file
        if not path.is_file():
            report.problems.append(f"{shown}: {file_rows[0].component}: listed in "
                                   f"{MANIFEST} (line {file_rows[0].line}) but missing")
            continue
        report.checked_files += 1
        size = path.stat().st_size
        if preset.max_file_mb is not None and size > preset.max_file_mb * 1_000_000:
            report.problems.append(f"{shown}: {file_rows[0].component}: {size / 1e6:.1f} MB, "
                                   f"more than the {preset.max_file_mb:g} MB "
                                   f"{preset.vendor} takes")
        for row in file_rows:
            notes[row.component]["files"].add(file)
        if preset.kind == "virtual-table":
            _check_virtual(report, path, shown, file_rows)
        elif file.endswith(".png"):
            _check_png(report, preset, next(images), shown, file_rows[0], notes)
        elif file.endswith(".pdf"):
            _check_pdf(report, preset, path, shown, file_rows, notes)
        else:
            report.problems.append(f"{shown}: {file_rows[0].component}: not a PNG or PDF")
    _check_counts(report, preset, rows, cards)
    for component in sorted(notes):
        info = notes[component]
        fronts = sum(r.copies for r in rows if r.component == component and r.side == "front")
        line = [f"{len(info['files'])} file(s), {fronts} cop{'y' if fronts == 1 else 'ies'}"]
        if info["dpi"]:
            line.append(f"{min(info['dpi']):.0f} dpi at least")
        report.summary[component] = line
    return report


# --- counts -------------------------------------------------------------------------------


def _check_counts(report: Report, preset: PresetFile, rows: list[Row],
                  cards: Path | None) -> None:
    from cards.loader import collect
    from generator.presets import deck

    games = tuple(sorted({r.component.split(".")[0] for r in rows}))  # the games built
    try:
        loaded = collect(*[(lambda g=g: deck.load(g, cards)) for g in games])
    except DefinitionError as exc:
        report.problems += [f"counts not checked: {line}" for line in exc.problems]
        return
    have: dict[tuple[str, str], int] = defaultdict(int)
    placed = {r.component for r in rows}
    for r in rows:
        if r.side == "front":
            have[(r.component, r.name)] += r.copies
    virtual = preset.kind == "virtual-table"
    for game, defs in zip(games, loaded, strict=True):
        for component, faces in deck.faces(game, defs).items():
            if not virtual and component not in preset.components:
                continue
            if component not in placed:
                report.problems.append(f"{MANIFEST}: {component}: the preset places it, "
                                       "but the build has no file of it")
                continue
            for name, copies in faces:
                got = have.pop((component, name), 0)
                if got != copies:
                    report.problems.append(
                        f"{MANIFEST}: {component}: {name}: {got} cop"
                        f"{'y' if got == 1 else 'ies'} in the build, the deck has {copies}")
    for (component, name), got in sorted(have.items()):
        report.problems.append(f"{MANIFEST}: {component}: {name}: {got} copies in the build "
                               "of a face the deck does not have")


# --- virtual tables ----------------------------------------------------------------------


def _check_virtual(report: Report, path: Path, shown: str, rows: list[Row]) -> None:
    """A .pcio room: a zip whose widgets.json parses, names only images it holds, and has
    a card or piece for every copy; an image or layout file: readable."""
    import json
    import zipfile

    comp = rows[0].component
    if path.suffix == ".json":
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            report.problems.append(f"{shown}: {comp}: not valid JSON ({exc})")
        return
    if path.suffix == ".png":
        from PIL import Image

        try:
            with Image.open(path) as image:
                image.verify()
        except OSError as exc:
            report.problems.append(f"{shown}: {comp}: not a readable image ({exc})")
        return
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            widgets = json.loads(z.read("widgets.json"))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        report.problems.append(f"{shown}: not a PlayingCards.io room (a zip with "
                               f"widgets.json): {exc}")
        return
    text = json.dumps(widgets)
    for part in text.split("package://")[1:]:
        asset = part.split('"', 1)[0]
        if asset not in names:
            report.problems.append(f"{shown}: widgets.json names {asset}, which the room "
                                   "does not hold")
    if any(r.component == "orbitus.sector" for r in rows) and not any(
            w.get("type") == "hand" and w.get("enabled", True) for w in widgets):
        report.problems.append(f"{shown}: orbitus.sector: no hand in the room; Orbitus "
                               "hands are hidden from the other players")
    copies: dict[str, int] = defaultdict(int)
    for w in widgets:
        if w.get("type") in ("card", "piece"):
            copies[w.get("cardType", "")] += 1
        elif w.get("type") == "board":
            copies[w.get("id", "")] += 1
    for row in rows:
        if row.side == "front" and copies.get(row.name, 0) != row.copies:
            report.problems.append(f"{shown}: {row.component}: {row.name}: "
                                   f"{copies.get(row.name, 0)} on the table, {MANIFEST} says "
                                   f"{row.copies}")


# --- images -------------------------------------------------------------------------------


def _product(preset: PresetFile, row: Row, report: Report, shown: str) -> Product | None:
    product = preset.products.get(row.product)
    if product is None:
        report.problems.append(f"{shown}: {row.component}: product {row.product!r} is not "
                               f"in {PRESET_COPY}")
    return product


def _expected_px(preset: PresetFile, product: Product) -> tuple[int, int] | None:
    if product.pixels is not None:
        return product.pixels
    if product.trim is None:
        return None
    w, h = (preset.mm(v) + 2 * preset.mm(product.bleed) for v in product.trim)
    return round(w / 25.4 * preset.dpi), round(h / 25.4 * preset.dpi)


def _canvas_mm(preset: PresetFile, product: Product, px: tuple[int, int]) -> tuple[float,
                                                                                  float]:
    return (px[0] / preset.dpi * 25.4, px[1] / preset.dpi * 25.4)


def _decoded(paths: list[Path], window: int = 4) -> Iterator[Any]:
    """Each image of ``paths``, opened and decoded, in order (an ``OSError`` in place of
    one that cannot be read). Decoding (which releases the GIL) runs on the other cores a
    few images ahead; the checks stay in order, so the report is always the same."""
    from PIL import Image

    def load(path: Path) -> Any:
        try:
            image = Image.open(path)
            image.load()
            return image
        except OSError as exc:
            return exc

    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        pending: deque[Future[Any]] = deque()
        for path in paths:
            if len(pending) >= window:
                yield pending.popleft().result()
            pending.append(pool.submit(load, path))
        while pending:
            yield pending.popleft().result()


def _check_png(report: Report, preset: PresetFile, image: Any, shown: str, row: Row,
               notes: dict[str, dict[str, Any]]) -> None:
    from generator.presets import textboxes

    product = _product(preset, row, report, shown)
    comp = row.component
    if isinstance(image, OSError):
        report.problems.append(f"{shown}: {comp}: not a readable image ({image})")
        return
    if product is None or product.trim is None:
        return
    with image:
        want = _expected_px(preset, product)
        assert want is not None
        canvas = _canvas_mm(preset, product, want)
        w, h = image.size
        dpi = min(w / (canvas[0] / 25.4), h / (canvas[1] / 25.4))
        notes[comp]["dpi"].append(dpi)
        if dpi < preset.dpi - 0.5:
            report.problems.append(f"{shown}: {comp}: {dpi:.0f} dpi ({w} × {h} px for "
                                   f"{canvas[0]:.1f} × {canvas[1]:.1f} mm); {preset.vendor} "
                                   f"needs {preset.dpi} dpi ({want[0]} × {want[1]} px)")
            return
        if (w, h) != tuple(want):
            report.problems.append(f"{shown}: {comp}: {w} × {h} px; {preset.vendor}'s "
                                   f"{product.title} upload is {want[0]} × {want[1]} px")
            return
        if image.mode not in ("RGB", "RGBA"):
            report.problems.append(f"{shown}: {comp}: colour mode {image.mode}; "
                                   f"{preset.vendor} takes RGB images")
        trim = (preset.mm(product.trim[0]), preset.mm(product.trim[1]))
        px_mm = w / canvas[0]
        centre = (canvas[0] / 2, canvas[1] / 2)
        boxes = image.info.get(textboxes.KEY)
        if boxes is None:
            report.problems.append(f"{shown}: {comp}: carries no text boxes "
                                   f"({textboxes.KEY}), so its words cannot be checked "
                                   "against the safe zone; build it again with pnp build")
        else:
            for corners in textboxes.decode(str(boxes)):
                worst = min(inside_safe(product.shape, product.orientation, trim, centre,
                                        preset.mm(product.safe), x / px_mm, y / px_mm)
                            for x, y in corners)
                if worst < -TOLERANCE_MM:
                    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
                    report.problems.append(
                        f"{shown}: {comp}: text at {min(xs):.0f}-{max(xs):.0f} × "
                        f"{min(ys):.0f}-{max(ys):.0f} px runs {-worst:.1f} mm outside the safe "
                        f"zone ({_len(preset, product.safe)} inside the cut): it may be cut "
                        "off")
                    break
        if COMPONENT_SHAPES[comp] != product.shape:
            return  # on a card, cut by hand along its own outline: no bleed to the card's edge
        pixels = image if image.mode in ("RGB", "RGBA") else image.convert("RGBA")
        _check_bleed(report, shown, comp, pixels.load(), px_mm, product, trim, centre,
                     preset.mm(product.bleed), pixels.size)


def _len(preset: PresetFile, value: float) -> str:
    return f"{value:g} in" if preset.units == "in" else f"{value:g} mm"


def _boundary(shape: str, orientation: str, trim: tuple[float, float],
              centre: tuple[float, float], grow: float) -> list[tuple[float, float]]:
    """Points round the cut shape moved ``grow`` mm outwards (inwards if negative)."""
    cx, cy = centre
    pts = []
    for k in range(SAMPLES):
        t = 2 * math.pi * k / SAMPLES
        if shape == "circle":
            r = min(trim) / 2 + grow
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        elif shape == "rect":
            # a walk round the rectangle, evenly by perimeter
            w, h = trim[0] / 2 + grow, trim[1] / 2 + grow
            per = 4 * (w + h)
            d = per * k / SAMPLES
            for (x0, y0, x1, y1, length) in ((-w, -h, w, -h, 2 * w), (w, -h, w, h, 2 * h),
                                             (w, h, -w, h, 2 * w), (-w, h, -w, -h, 2 * h)):
                if d <= length:
                    f = d / length
                    pts.append((cx + x0 + (x1 - x0) * f, cy + y0 + (y1 - y0) * f))
                    break
                d -= length
        else:  # a hexagon: along the ray from the centre to where it meets the grown sides
            apothem = min(trim) / 2 + grow
            a = t if orientation == "flat" else t + math.pi / 2
            # the distance to a flat-top hexagon's side along direction a
            rel = a % (math.pi / 3) - math.pi / 6
            r = apothem / math.cos(rel)
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
    return pts


def _is_paper(pixel: Any) -> bool:
    if len(pixel) == 4 and pixel[3] < 128:
        return True
    return all(c >= PAPER for c in pixel[:3])


def _check_bleed(report: Report, shown: str, comp: str, pixels: Any, px_mm: float,
                 product: Product, trim: tuple[float, float], centre: tuple[float, float],
                 bleed: float, size: tuple[int, int]) -> None:
    if bleed <= 0:
        return
    inner = _boundary(product.shape, product.orientation, trim, centre, -0.4)
    outer = _boundary(product.shape, product.orientation, trim, centre, bleed * 0.85)
    bare = 0
    coloured = 0
    w, h = size

    def at(x: float, y: float) -> Any:
        px, py = int(x * px_mm), int(y * px_mm)
        if not (0 <= px < w and 0 <= py < h):
            return (255, 255, 255, 0)  # past the image: no art there
        return pixels[px, py]

    for (ix, iy), (ox, oy) in zip(inner, outer, strict=True):
        if _is_paper(at(ix, iy)):
            continue
        coloured += 1
        if _is_paper(at(ox, oy)):
            bare += 1
    if coloured and bare > max(1, coloured // 20):
        report.problems.append(f"{shown}: {comp}: the art stops at the cut at {bare} of "
                               f"{coloured} points round it; carry it {bleed:.1f} mm on past "
                               "the cut (bleed), or a cut that drifts shows paper")


# --- PDFs -------------------------------------------------------------------------------


def _check_pdf(report: Report, preset: PresetFile, path: Path, shown: str, rows: list[Row],
               notes: dict[str, dict[str, Any]]) -> None:
    try:
        import pikepdf
    except ImportError:
        report.problems.append(f"{shown}: PDFs are checked with pikepdf, which is not "
                               "installed: pip install 'orbitus-pnp[print]'")
        return
    import pypdfium2 as pdfium

    comp = rows[0].component
    data = path.read_bytes()
    try:
        doc = pikepdf.open(io.BytesIO(data))
    except pikepdf.PdfError as exc:
        report.problems.append(f"{shown}: {comp}: not a readable PDF ({exc})")
        return
    fitz = pdfium.PdfDocument(data)
    try:
        by_page = {r.page: r for r in rows}
        if len(doc.pages) != len(by_page) or set(by_page) != set(range(1, len(doc.pages) + 1)):
            report.problems.append(f"{shown}: {comp}: {len(doc.pages)} page(s), "
                                   f"{MANIFEST} lists {len(by_page)}")
        _check_fonts(report, doc, shown, comp)
        if preset.colour == "cmyk":
            _check_pdfx(report, preset, doc, shown, comp)
        for n, page in enumerate(doc.pages, start=1):
            row = by_page.get(n)
            if row is None:
                continue
            product = _product(preset, row, report, f"{shown}:{n}")
            if product is None:
                continue
            where = f"{shown}:{n}"
            boxes = _page_boxes(report, preset, product, page, where, comp)
            if boxes is None:
                continue
            media, trim_mm, centre = boxes
            fpage = fitz[n - 1]
            _check_text(report, preset, product, fpage, media, trim_mm, centre, where, comp)
            _check_images(report, preset, fpage, where, comp, notes)
            hand_cut = COMPONENT_SHAPES[comp] != product.shape
            if not hand_cut and (n <= 2 or preset.format != "pdf-deck"):  # a deck repeats
                scale = 48 / 72.0
                bitmap = fpage.render(scale=scale, fill_color=(255, 255, 255, 255),
                                      rev_byteorder=True).to_pil()
                _check_bleed(report, where, comp, bitmap.load(),
                             bitmap.size[0] / ((media[2] - media[0]) * MM_PER_PT), product,
                             trim_mm, centre, preset.mm(product.bleed), bitmap.size)
            fpage.close()
    finally:
        fitz.close()
        doc.close()


def _page_boxes(report: Report, preset: PresetFile, product: Product, page: Any, where: str,
                comp: str) -> tuple[tuple[float, ...], tuple[float, float],
                                    tuple[float, float]] | None:
    media = [float(v) for v in page.MediaBox]
    missing = [name for name in ("/TrimBox", "/BleedBox") if name not in page.obj]
    if missing:
        report.problems.append(f"{where}: {comp}: no {' or '.join(m[1:] for m in missing)}; "
                               "a print-shop page says where it is cut and how far its art "
                               "bleeds")
        return None
    trim = [float(v) for v in page.obj.TrimBox]
    bleed_box = [float(v) for v in page.obj.BleedBox]
    if any(bleed_box[i] < media[i] - 0.01 for i in (0, 1)) or \
            any(bleed_box[i] > media[i] + 0.01 for i in (2, 3)):
        report.problems.append(f"{where}: {comp}: the BleedBox reaches past the page")
    margins = [(trim[0] - bleed_box[0]), (trim[1] - bleed_box[1]), (bleed_box[2] - trim[2]),
               (bleed_box[3] - trim[3])]
    least = min(margins) * MM_PER_PT
    need = preset.mm(product.bleed)
    if least < need - TOLERANCE_MM:
        report.problems.append(f"{where}: {comp}: {least:.2f} mm of bleed; {preset.vendor} "
                               f"needs {need:.2f} mm ({_len(preset, product.bleed)}) on "
                               "every side")
    size = ((trim[2] - trim[0]) * MM_PER_PT, (trim[3] - trim[1]) * MM_PER_PT)
    if product.trim is not None:
        want = (preset.mm(product.trim[0]), preset.mm(product.trim[1]))
        if abs(size[0] - want[0]) > TOLERANCE_MM or abs(size[1] - want[1]) > TOLERANCE_MM:
            report.problems.append(f"{where}: {comp}: cut (TrimBox) {size[0]:.1f} × "
                                   f"{size[1]:.1f} mm; {product.title} is {want[0]:.1f} × "
                                   f"{want[1]:.1f} mm")
    centre = (((trim[0] + trim[2]) / 2 - media[0]) * MM_PER_PT,
              (media[3] - (trim[1] + trim[3]) / 2) * MM_PER_PT)
    return tuple(media), size, centre


def _check_text(report: Report, preset: PresetFile, product: Product, page: Any,
                media: tuple[float, ...], trim: tuple[float, float],
                centre: tuple[float, float], where: str, comp: str) -> None:
    text = page.get_textpage()
    try:
        worst: tuple[float, str] | None = None
        for i in range(text.count_chars()):
            char = text.get_text_range(i, 1)
            if not char.strip():
                continue
            left, bottom, right, top = text.get_charbox(i)
            inside = min(inside_safe(product.shape, product.orientation, trim, centre,
                                     preset.mm(product.safe), (x - media[0]) * MM_PER_PT,
                                     (media[3] - y) * MM_PER_PT)
                         for x in (left, right) for y in (bottom, top))
            if inside < -TOLERANCE_MM and (worst is None or inside < worst[0]):
                worst = (inside, char)
        if worst is not None:
            report.problems.append(f"{where}: {comp}: the letter {worst[1]!r} runs "
                                   f"{-worst[0]:.1f} mm outside the safe zone "
                                   f"({_len(preset, product.safe)} inside the cut): it may "
                                   "be cut off")
    finally:
        text.close()


def _check_images(report: Report, preset: PresetFile, page: Any, where: str, comp: str,
                  notes: dict[str, dict[str, Any]]) -> None:
    import pypdfium2.raw as raw

    for obj in page.get_objects(filter=(raw.FPDF_PAGEOBJ_IMAGE,)):
        left, bottom, right, top = obj.get_pos()
        w, h = obj.get_px_size()
        if right <= left or top <= bottom:
            continue
        dpi = min(w / ((right - left) / 72.0), h / ((top - bottom) / 72.0))
        notes[comp]["dpi"].append(dpi)
        if dpi < preset.dpi - 0.5:
            report.problems.append(f"{where}: {comp}: an image of {w} × {h} px printed at "
                                   f"{dpi:.0f} dpi; {preset.vendor} needs {preset.dpi} dpi")


def _check_fonts(report: Report, doc: Any, shown: str, comp: str) -> None:
    seen: set[tuple[int, int]] = set()
    for page in doc.pages:
        fonts = page.obj.get("/Resources", {}).get("/Font", {})
        for name in list(fonts.keys()):
            font = fonts[name]
            key = font.objgen
            if key in seen:
                continue
            seen.add(key)
            subtype = str(font.get("/Subtype"))
            if subtype == "/Type3":
                continue
            described = font.DescendantFonts[0] if subtype == "/Type0" else font
            descriptor = described.get("/FontDescriptor")
            if descriptor is None or not any(k in descriptor for k in
                                             ("/FontFile", "/FontFile2", "/FontFile3")):
                report.problems.append(f"{shown}: {comp}: the font {font.get('/BaseFont')} is "
                                       "not embedded; a print shop substitutes another")


def _check_pdfx(report: Report, preset: PresetFile, doc: Any, shown: str, comp: str) -> None:
    import pikepdf

    intents = doc.Root.get("/OutputIntents")
    if not intents or not any(str(i.get("/S")) == "/GTS_PDFX" for i in intents):
        report.problems.append(f"{shown}: {comp}: no PDF/X output intent; {preset.vendor} "
                               "asks for PDF/X-1a (CMYK with its printing condition named)")
    info = doc.trailer.get("/Info", {})
    if not str(info.get("/GTS_PDFXVersion", "")).startswith("PDF/X-1"):
        report.problems.append(f"{shown}: {comp}: no GTS_PDFXVersion PDF/X-1 in its "
                               "document information")
    worst_ink = 0.0
    for n, page in enumerate(doc.pages, start=1):
        for operands, op in pikepdf.parse_content_stream(page):
            name = str(op)
            if name in ("rg", "RG"):
                report.problems.append(f"{shown}:{n}: {comp}: an RGB colour; PDF/X-1a is CMYK "
                                       "(and grey) only")
                break
            if name in ("k", "K"):
                worst_ink = max(worst_ink, sum(float(v) for v in operands) * 100)
        gstates = page.obj.get("/Resources", {}).get("/ExtGState", {})
        for key in list(gstates.keys()):
            g = gstates[key]
            if float(g.get("/ca", 1)) < 1 or float(g.get("/CA", 1)) < 1 or "/SMask" in g and \
                    str(g.SMask) != "/None":
                report.problems.append(f"{shown}:{n}: {comp}: transparency; PDF/X-1a has none")
                break
    if worst_ink > preset.max_ink + 0.5:
        report.problems.append(f"{shown}: {comp}: ink up to {worst_ink:.0f} %; "
                               f"{preset.vendor} allows {preset.max_ink} %")


def check_folder(folder: Path, cards: Path | None = None) -> tuple[int, str]:
    """The ``--preflight`` command's work: (exit code, text). 0 no problems, 1 problems,
    2 no preset build there or a broken preset file."""
    try:
        report = preflight(folder, cards)
    except PreflightError as exc:
        return 2, "\n".join(exc.lines)
    except UnreadableInput as exc:
        return 2, "\n".join(exc.problems)
    except DefinitionError as exc:
        return 2, "\n".join(exc.problems)
    return (0 if report.ok else 1), report.text()

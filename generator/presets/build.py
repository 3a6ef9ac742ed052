"""``pnp build --preset NAME``: the files a print shop asks for, named and ordered as it asks,
with a ``manifest.csv`` and a copy of the preset used (``preset.yaml``, which the
preflight checks the folder against).

Every placement is worked out first: a product that cannot hold a component is refused,
naming both sizes, before anything is drawn or written. The files are then rendered in
memory and written all at once by the caller (the build's atomic folder swap).

Formats (``format:`` in the preset):

- ``png-per-face``: one PNG per distinct face at the preset's dpi, exactly the vendor's
  upload size, fronts and backs in files of their own (The Game Crafter, MakePlayingCards);
- ``pdf-per-component``: one PDF per component, every distinct face on its own page at
  trim + bleed with its back on the page after it, TrimBox and BleedBox on every page;
- ``pdf-deck``: one PDF per component with a page for every copy, in the vendor's page
  order (DriveThruCards: back, then front, card by card), CMYK PDF/X-1a where it asks.
"""

from __future__ import annotations

import csv
import io
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.preset_models import PresetFile
from generator.backends.pdf import render_pdf
from generator.drawing import Drawing
from generator.pdf_boxes import make_pdfx, page_boxes
from generator.presets import textboxes
from generator.presets.files import MANIFEST, MANIFEST_FIELDS, PRESET_COPY, Row
from generator.presets.pieces import Face, Piece, pieces
from generator.presets.place import Layout, PresetMismatch, face_drawing, layout, trim_box

ENCODERS = max(1, min(4, os.cpu_count() or 1))
PNG_COMPRESSION = 1  # zlib level: the images are flat colour, level 1 is 3x faster, ~15 % larger


@dataclass
class PresetBuild:
    files: dict[str, bytes] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)


def plan(preset: PresetFile, loaded: dict[str, tuple[Any, Any]]) -> list[tuple[Piece, Layout]]:
    """Every piece the preset places, with its layout; all refusals raised together."""
    problems: list[str] = []
    out: list[tuple[Piece, Layout]] = []
    for game, (defs, words) in loaded.items():
        for piece in pieces(game, defs, words):
            if piece.component not in preset.components:
                continue
            try:
                out.append((piece, layout(piece, preset)))
            except PresetMismatch as exc:
                problems.append(f"preset {preset.name}: {exc}")
    if problems:
        raise PresetMismatch("\n".join(problems))
    return out


def file_name(preset: PresetFile, piece: Piece, lay: Layout, name: str, side: str) -> str:
    return preset.naming.format(game=piece.game, product=lay.product_key,
                                component=piece.kind.replace("_", "-"), name=name, side=side,
                                preset=preset.name)


def build_preset(preset: PresetFile, loaded: dict[str, tuple[Any, Any]],
                 preset_text: bytes) -> PresetBuild:
    """The files of ``preset`` for the games in ``loaded`` (game -> (definitions, labels));
    ``preset_text``: the preset file as read, copied into the build."""
    placed = plan(preset, loaded)
    result = PresetBuild()
    for game in loaded:
        for key, why in preset.leave_out.items():
            if key.startswith(game + "."):
                result.left_out[key] = why
    writer: Callable[[PresetFile, list[tuple[Piece, Layout]], PresetBuild], None] = {
        "png-per-face": _png_per_face, "pdf-per-component": _pdf_per_component,
        "pdf-deck": _pdf_deck}[preset.format]
    writer(preset, placed, result)
    result.files[MANIFEST] = manifest_csv(result.rows)
    result.files[PRESET_COPY] = preset_text
    return result


def manifest_csv(rows: list[Row]) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(MANIFEST_FIELDS)
    for r in rows:
        w.writerow([r.file, r.page, r.component, r.name, r.copies, r.side, r.product])
    return out.getvalue().encode("utf-8")


def _faces(piece: Piece) -> list[tuple[Face, str, int]]:
    """(face, side, copies): every front, then the shared back for all of them."""
    out = [(f, "front", f.copies) for f in piece.fronts]
    if piece.back_is_front:
        out += [(f, "back", f.copies) for f in piece.fronts]
    elif piece.back is not None:
        out.append((piece.back, "back", piece.copies))
    return out


# --- images ---------------------------------------------------------------------------


def _pixels(preset: PresetFile, lay: Layout) -> tuple[int, int]:
    if lay.product.pixels is not None:
        return lay.product.pixels
    return (round(lay.canvas[0] / 25.4 * preset.dpi), round(lay.canvas[1] / 25.4 * preset.dpi))


def _png_per_face(preset: PresetFile, placed: list[tuple[Piece, Layout]],
                  result: PresetBuild) -> None:
    from PIL.PngImagePlugin import PngInfo

    from generator.backends.png import pdf_to_images

    jobs: list[tuple[str, Drawing, tuple[int, int]]] = []
    for piece, lay in placed:
        for face, side, copies in _faces(piece):
            name = file_name(preset, piece, lay, face.name, side)
            result.rows.append(Row(name, 1, piece.component, face.name, copies, side,
                                   lay.product_key))
            jobs.append((name, face_drawing(piece, face, lay), _pixels(preset, lay)))
    pdf = render_pdf([d for _, d, _ in jobs], f"{preset.vendor} images")

    def encode(image: Any, drawing: Drawing, px: tuple[int, int]) -> bytes:
        info = PngInfo()
        info.add_text(textboxes.KEY, textboxes.encode(textboxes.drawing_text_boxes(drawing),
                                                      px[0] / drawing.width))
        out = io.BytesIO()
        image.save(out, format="PNG", dpi=(preset.dpi, preset.dpi), pnginfo=info,
                   compress_level=PNG_COMPRESSION)
        return out.getvalue()

    # pdfium renders one page at a time here while PNG encoding (which releases the GIL)
    # runs on the other cores: the encoding is most of the work
    # (at most two images per encoder wait in memory: a board is 90 MB of pixels)
    with ThreadPoolExecutor(max_workers=ENCODERS) as pool:
        pending: deque[tuple[str, Future[bytes]]] = deque()
        for (name, drawing, px), image in zip(jobs, pdf_to_images(pdf, [p for _, _, p in jobs]),
                                              strict=True):
            if len(pending) >= 2 * ENCODERS:
                done_name, done = pending.popleft()
                result.files[done_name] = done.result()
            pending.append((name, pool.submit(encode, image, drawing, px)))
        for done_name, done in pending:
            result.files[done_name] = done.result()


# --- PDFs -------------------------------------------------------------------------------


def _pdf(preset: PresetFile, pages: list[Drawing], lay_of: list[Layout], title: str) -> bytes:
    boxes = []
    for d, lay in zip(pages, lay_of, strict=True):
        trim = trim_box(lay)
        boxes.append((trim, page_boxes(d.width, d.height, 0.0)[1]))
    cmyk = preset.colour == "cmyk"
    pdf = render_pdf(pages, title, f"{preset.vendor}: {title}", boxes=boxes, cmyk=cmyk,
                     max_ink=preset.max_ink / 100.0)
    return make_pdfx(pdf, title) if cmyk else pdf


def _pdf_per_component(preset: PresetFile, placed: list[tuple[Piece, Layout]],
                       result: PresetBuild) -> None:
    for piece, lay in placed:
        name = file_name(preset, piece, lay, piece.kind, "both")
        pages: list[Drawing] = []
        for face in piece.fronts:
            pages.append(face_drawing(piece, face, lay))
            result.rows.append(Row(name, len(pages), piece.component, face.name, face.copies,
                                   "front", lay.product_key))
            if piece.back is not None:
                pages.append(face_drawing(piece, piece.back, lay))
                result.rows.append(Row(name, len(pages), piece.component, piece.back.name,
                                       face.copies, "back", lay.product_key))
        result.files[name] = _pdf(preset, pages, [lay] * len(pages),
                                  f"{piece.component} for {preset.vendor}")


def _pdf_deck(preset: PresetFile, placed: list[tuple[Piece, Layout]],
              result: PresetBuild) -> None:
    for piece, lay in placed:
        name = file_name(preset, piece, lay, piece.kind, "both")
        pages: list[Drawing] = []
        back = face_drawing(piece, piece.back, lay) if piece.back is not None else None
        for face in piece.fronts:
            front = face_drawing(piece, face, lay)
            for _ in range(face.copies):
                sides = [("front", front, face.name)]
                if back is not None and piece.back is not None:
                    pair = ("back", back, piece.back.name)
                    sides = [pair, *sides] if preset.page_order == "back-front" else \
                        [*sides, pair]
                for side, drawing, face_name in sides:
                    pages.append(drawing)
                    result.rows.append(Row(name, len(pages), piece.component, face_name, 1,
                                           side, lay.product_key))
        result.files[name] = _pdf(preset, pages, [lay] * len(pages),
                                  f"{piece.component} for {preset.vendor}")


# --- the whole preset build ---------------------------------------------------------------


def load_games(games: tuple[str, ...], cards: Path | None, lang: str) -> dict[str, tuple[Any,
                                                                                        Any]]:
    """Each game's definitions and labels (raises ``DefinitionError`` with file:line)."""
    from cards.labels import load_labels
    from cards.loader import collect
    from generator.products import product

    loaded = collect(*[(lambda g=g: (product(g).load(cards), load_labels(cards, g, lang)))
                       for g in games])
    return dict(zip(games, loaded, strict=True))

"""Two versions of a game's printed components side by side: which were added, removed or
changed, and where on each changed component the change is.

Components are compared as they are described (:mod:`generator.drawing`), without their
design stamps (:func:`generator.stamp.stamps_off`): two components are the same when they
print the same. Where a changed component differs is found on its pictures: both versions
are rasterised at the same scale and the cells of a coarse grid in which their pixels
differ are joined into rectangles, the regions outlined in ``pnp diff``'s pictures.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from generator.drawing import Drawing
from generator.products import product
from generator.stamp import stamps_off

PICTURE_DPI = 110.0  # about 4.3 px per mm: a 50 mm sector is 220 px wide
GRID_MM = 1.5  # changed regions are found in cells of this size
THRESHOLD = 24  # a pixel differs when a channel differs by more than this (0-255)
OUTLINE = (214, 39, 40, 255)


@dataclass
class ComponentChanges:
    """The components of two versions, by name (``sector-S05``, ``satellite-red-3``)."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    same: list[str] = field(default_factory=list)
    marker_only: list[str] = field(default_factory=list)  # changed in their photo marker only
    old: dict[str, Drawing] = field(default_factory=dict)
    new: dict[str, Drawing] = field(default_factory=dict)

    @property
    def any(self) -> bool:
        return bool(self.added or self.removed or self.changed)


def components(game: str, defs: Any, lang: str = "en") -> dict[str, Drawing]:
    """Every distinct component of ``game``, drawn without stamps, its words in ``lang``."""
    from cards.labels import load_labels

    with stamps_off():
        return dict(product(game).components(defs, load_labels(defs.folder, game, lang)))


def compare_components(game: str, old_defs: Any, new_defs: Any,
                       lang: str = "en") -> ComponentChanges:
    old, new = components(game, old_defs, lang), components(game, new_defs, lang)
    out = ComponentChanges(old=old, new=new)
    for name in new:
        if name not in old:
            out.added.append(name)
        elif _same(old[name], new[name]):
            out.same.append(name)
        else:
            out.changed.append(name)
            if _without_markers(old[name].items) == _without_markers(new[name].items):
                out.marker_only.append(name)
    out.removed = [name for name in old if name not in new]
    return out


def _same(a: Drawing, b: Drawing) -> bool:
    return (a.width, a.height, a.items) == (b.width, b.height, b.items)


MARKER_CLASS = "fiducial"  # the photo marker's group (generator/components/markers.py)


def _without_markers(items: Any) -> list[Any]:
    """The items with every photo marker left out (groups looked into)."""
    from generator.drawing import Group

    out = []
    for item in items:
        if isinstance(item, Group):
            if item.cls == MARKER_CLASS:
                continue
            out.append((item.translate, item.rotate, item.scale, item.clip, item.cls,
                        _without_markers(item.items)))
        else:
            out.append(item)
    return out


# --- pictures ----------------------------------------------------------------------------


def picture(drawing: Drawing, dpi: float = PICTURE_DPI) -> Any:
    """A drawing as a PIL image (RGB, white paper)."""
    from PIL import Image

    from generator.backends.png import render_png

    with stamps_off():
        data = render_png(drawing, dpi)[0]
    return Image.open(io.BytesIO(data)).convert("RGB")


Box = tuple[int, int, int, int]  # left, top, right, bottom, in pixels


def changed_regions(old: Any, new: Any, dpi: float = PICTURE_DPI) -> list[Box]:
    """The rectangles (pixels of the larger picture) where two pictures differ."""
    from PIL import Image, ImageChops

    width, height = max(old.width, new.width), max(old.height, new.height)

    def padded(image: Any) -> Any:
        if image.size == (width, height):
            return image
        canvas = Image.new("RGB", (width, height), "white")
        canvas.paste(image, (0, 0))
        return canvas

    diff = ImageChops.difference(padded(old), padded(new)).convert("L")
    mask = diff.point(lambda v: 255 if v > THRESHOLD else 0)
    cell = max(2, round(GRID_MM * dpi / 25.4))
    cols, rows = -(-width // cell), -(-height // cell)
    grid = mask.resize((cols, rows), Image.Resampling.BOX)
    hot = [v > 0 for v in grid.tobytes()]
    seen = [False] * len(hot)
    boxes: list[Box] = []
    for start, flag in enumerate(hot):
        if not flag or seen[start]:
            continue
        stack, seen[start] = [start], True
        x0 = x1 = start % cols
        y0 = y1 = start // cols
        while stack:
            k = stack.pop()
            x, y = k % cols, k // cols
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1),
                           (-1, 1)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < cols and 0 <= ny < rows:
                    j = ny * cols + nx
                    if hot[j] and not seen[j]:
                        seen[j] = True
                        stack.append(j)
        boxes.append((x0 * cell, y0 * cell, min(width, (x1 + 1) * cell),
                      min(height, (y1 + 1) * cell)))
    return _merged(boxes, cell)


def _merged(boxes: list[Box], gap: int) -> list[Box]:
    """Rectangles that touch or lie within ``gap`` of each other joined into one."""
    merged = True
    while merged:
        merged = False
        out: list[Box] = []
        for box in boxes:
            for k, other in enumerate(out):
                if box[0] <= other[2] + gap and other[0] <= box[2] + gap and \
                        box[1] <= other[3] + gap and other[1] <= box[3] + gap:
                    out[k] = (min(box[0], other[0]), min(box[1], other[1]),
                              max(box[2], other[2]), max(box[3], other[3]))
                    merged = True
                    break
            else:
                out.append(box)
        boxes = out
    return sorted(boxes, key=lambda b: (b[1], b[0]))


def outlined(image: Any, boxes: list[Box], pad: int = 3) -> Any:
    """A copy of ``image`` with each box outlined in red."""
    from PIL import ImageDraw

    copy = image.copy()
    draw = ImageDraw.Draw(copy)
    for x0, y0, x1, y1 in boxes:
        draw.rectangle((max(0, x0 - pad), max(0, y0 - pad), min(copy.width - 1, x1 + pad),
                        min(copy.height - 1, y1 + pad)), outline=OUTLINE[:3], width=2)
    return copy


def png_bytes(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()

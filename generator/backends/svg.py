"""SVG backend: renders a drawing with svgwrite, sizes in mm, text escaped by the XML writer."""

from __future__ import annotations

from collections import OrderedDict
from itertools import count
from xml.etree import ElementTree

import svgwrite
from svgwrite.container import Group as SvgGroup

from generator import fonts
from generator.drawing import (
    Circle,
    Drawing,
    Group,
    Item,
    Path,
    Polygon,
    Polyline,
    Rect,
    Style,
    Text,
)
from generator.glyphs import as_paths, needs_paths


def _n(value: float) -> str:
    """Numbers with at most 3 decimals and no trailing zeros: stable across runs."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pts(points: tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
    """Points rounded to 3 decimals (svgwrite writes them; rounding keeps files stable)."""
    return [(float(_n(x)), float(_n(y))) for x, y in points]


_RENDERED: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
_RENDERED_LIMIT = 1024


def render_svg(drawing: Drawing, outline_text: bool = False) -> bytes:
    """:func:`svg_document`, remembered for the drawings met before in this process: a
    ``--watch`` rebuild after one sector's edit renders that sector's SVG again, not the
    deck's (drawings are plain frozen data, so equal drawings give equal documents)."""
    key = (drawing.width, drawing.height, drawing.title, tuple(drawing.items), outline_text)
    data = _RENDERED.get(key)
    if data is None:
        data = svg_document(drawing, outline_text)
        _RENDERED[key] = data
        if len(_RENDERED) > _RENDERED_LIMIT:
            _RENDERED.popitem(last=False)
    else:
        _RENDERED.move_to_end(key)
    return data


def svg_document(drawing: Drawing, outline_text: bool = False) -> bytes:
    """The drawing as a standalone SVG document (UTF-8), sized in millimetres.

    Pictographs (☠ ⚡ ★ ✂ ✔) are always drawn as the embedded font's outlines; with
    ``outline_text`` every letter is, so the SVG looks the same on a machine without
    DejaVu Sans (its text is then no longer text: not selectable, larger files)."""
    dwg = svgwrite.Drawing(
        size=(f"{_n(drawing.width)}mm", f"{_n(drawing.height)}mm"),
        viewBox=f"0 0 {_n(drawing.width)} {_n(drawing.height)}",
        profile="full",
        debug=False,
    )
    if drawing.title:
        dwg.set_desc(title=drawing.title)
    ids = count(1)
    root = dwg.g(style=f"font-family:{fonts.SVG_FAMILY}")
    for item in drawing.items:
        _add(dwg, root, item, ids, outline_text)
    dwg.add(root)
    # indented by ElementTree: the same document svgwrite's pretty printer gives (which
    # parses the whole text again with minidom), in a third of the time
    element = dwg.get_xml()
    ElementTree.indent(element, space=" ")
    return ('<?xml version="1.0" encoding="utf-8" ?>\n'
            + ElementTree.tostring(element, encoding="unicode") + "\n").encode("utf-8")


def _style_attrs(style: Style) -> dict[str, str]:
    attrs = {
        "fill": style.fill or "none",
        "stroke": style.stroke or "none",
    }
    if style.stroke:
        attrs["stroke-width"] = _n(style.width)
        if style.cap != "butt":
            attrs["stroke-linecap"] = style.cap
        if style.join != "miter":
            attrs["stroke-linejoin"] = style.join
        if style.dash:
            attrs["stroke-dasharray"] = " ".join(_n(d) for d in style.dash)
    if style.opacity < 1:
        attrs["opacity"] = _n(style.opacity)
    return attrs


def _d(item: Path) -> str:
    parts: list[str] = []
    for cmd in item.commands:
        op, *v = cmd
        parts.append(str(op) + " ".join(_n(float(n)) for n in v))
    return "".join(parts)


def _shape(dwg: svgwrite.Drawing, item: Polygon | Polyline | Circle | Rect | Path,
           styled: bool = True) -> svgwrite.base.BaseElement:
    attrs = _style_attrs(item.style) if styled else {}
    if item.cls:
        attrs["class"] = item.cls
    if isinstance(item, Path):
        el = dwg.path(d=_d(item))
    elif isinstance(item, Circle):
        el = dwg.circle(center=(_n(item.cx), _n(item.cy)), r=_n(item.r))
    elif isinstance(item, Rect):
        el = dwg.rect(insert=(_n(item.x), _n(item.y)), size=(_n(item.w), _n(item.h)))
        if item.rx:
            attrs["rx"] = _n(item.rx)
    elif isinstance(item, Polygon):
        el = dwg.polygon(points=_pts(item.points))
    else:
        el = dwg.polyline(points=_pts(item.points))
        attrs["fill"] = "none"
    for key, value in attrs.items():
        el.attribs[key] = value
    return el


def _add(dwg: svgwrite.Drawing, parent: SvgGroup, item: Item, ids: count,
         outline: bool = False) -> None:
    if isinstance(item, Group):
        transform = []
        if item.translate != (0.0, 0.0):
            transform.append(f"translate({_n(item.translate[0])},{_n(item.translate[1])})")
        if item.rotate:
            transform.append(f"rotate({_n(item.rotate)})")
        if item.scale != 1:
            transform.append(f"scale({_n(item.scale)})")
        g = dwg.g()
        if transform:
            g.attribs["transform"] = " ".join(transform)
        if item.cls:
            g.attribs["class"] = item.cls
        if item.clip is not None:
            clip_id = f"clip{next(ids)}"
            clip = dwg.clipPath(id=clip_id)
            clip.add(_shape(dwg, item.clip, styled=False))
            dwg.defs.add(clip)
            g.attribs["clip-path"] = f"url(#{clip_id})"
        for child in item.items:
            _add(dwg, g, child, ids, outline)
        parent.add(g)
        return
    if isinstance(item, Text):
        if not item.text:
            return
        if needs_paths(item, outline):
            _add(dwg, parent, as_paths(item, outline), ids, False)
            return
        el = dwg.text(item.text)
        el.attribs["x"] = _n(item.x)
        el.attribs["y"] = _n(item.y)
        el.attribs["font-size"] = _n(item.size)
        el.attribs["fill"] = item.fill
        if item.anchor != "start":
            el.attribs["text-anchor"] = item.anchor
        if item.bold:
            el.attribs["font-weight"] = "bold"
        if item.rotate:
            el.attribs["transform"] = f"rotate({_n(item.rotate)},{_n(item.x)},{_n(item.y)})"
        if item.cls:
            el.attribs["class"] = item.cls
        parent.add(el)
        return
    parent.add(_shape(dwg, item))

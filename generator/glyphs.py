"""Glyph outlines of the embedded font, so symbols (and, on request, all text) are drawn as
vector paths that look the same in every backend and every viewer.

Why: an SVG names its font; a viewer without DejaVu Sans substitutes another one, and
the pictographs ☠ ⚡ ★ ✂ ✔ then come out as empty boxes or colour emoji. Drawn as paths
(the outlines of the very font the PDF embeds) they look the same in the PDF, the SVG and
the PNG. ``pnp-build --svg-text outline`` outlines every letter of the SVGs the same way.

The outlines are read from the TrueType ``glyf`` table of the shipped font (simple and
composite glyphs, quadratic curves) through reportlab's font parser, once per glyph.
"""

from __future__ import annotations

import struct
from functools import cache

from generator import fonts
from generator.drawing import Group, Item, Path, PathCommand, Style, Text

# characters always drawn as paths: pictographs that fonts often lack or show as emoji
SYMBOLS = frozenset("☠⚡★✂✔")


def _face(bold: bool):  # noqa: ANN202 - reportlab's TTFontFace has no stubs
    from reportlab.pdfbase import pdfmetrics

    fonts.register()
    return pdfmetrics.getFont(fonts.font_name(bold)).face


def has_glyph(ch: str, bold: bool = False) -> bool:
    return ord(ch) in _face(bold).charToGlyph


@cache
def outline(ch: str, bold: bool = False) -> tuple[PathCommand, ...]:
    """The outline of ``ch`` in em units (1 = the em), y down, origin on the baseline."""
    face = _face(bold)
    gid = face.charToGlyph.get(ord(ch))
    if gid is None:
        return ()
    scale = 1.0 / face.unitsPerEm
    return tuple(_commands(_contours(face, gid, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)), scale))


def _contours(face, gid: int, m: tuple[float, ...],  # noqa: ANN001
              depth: int = 0) -> list[list[tuple[float, float, bool]]]:
    """Contours of glyph ``gid`` as (x, y, on-curve) points in font units, y up, transformed
    by the 2x3 matrix ``m`` (a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f."""
    data: bytes = face._ttf_data
    glyf = face.table["glyf"]["offset"]
    start, end = face.glyphPos[gid], face.glyphPos[gid + 1]
    if start >= end or depth > 8:
        return []
    p = glyf + start
    (ncont,) = struct.unpack_from(">h", data, p)
    p += 10
    a, b, c, d, e, f = m
    if ncont >= 0:
        ends = struct.unpack_from(f">{ncont}H", data, p)
        p += 2 * ncont
        (ninstr,) = struct.unpack_from(">H", data, p)
        p += 2 + ninstr
        npts = ends[-1] + 1 if ends else 0
        flags: list[int] = []
        while len(flags) < npts:
            flag = data[p]
            p += 1
            flags.append(flag)
            if flag & 8:
                flags += [flag] * data[p]
                p += 1
        xs: list[int] = []
        x = 0
        for flag in flags:
            if flag & 2:
                x += data[p] if flag & 16 else -data[p]
                p += 1
            elif not flag & 16:
                x += struct.unpack_from(">h", data, p)[0]
                p += 2
            xs.append(x)
        ys: list[int] = []
        y = 0
        for flag in flags:
            if flag & 4:
                y += data[p] if flag & 32 else -data[p]
                p += 1
            elif not flag & 32:
                y += struct.unpack_from(">h", data, p)[0]
                p += 2
            ys.append(y)
        out: list[list[tuple[float, float, bool]]] = []
        first = 0
        for last in ends:
            out.append([(a * xs[i] + c * ys[i] + e, b * xs[i] + d * ys[i] + f,
                         bool(flags[i] & 1)) for i in range(first, last + 1)])
            first = last + 1
        return out
    # a composite glyph: its parts, each moved (and perhaps scaled) into place
    out = []
    more = True
    while more:
        cflags, child = struct.unpack_from(">HH", data, p)
        p += 4
        if cflags & 1:
            arg1, arg2 = struct.unpack_from(">hh", data, p)
            p += 4
        else:
            arg1, arg2 = struct.unpack_from(">bb", data, p)
            p += 2
        xx, xy, yx, yy = 1.0, 0.0, 0.0, 1.0
        if cflags & 8:
            (xx,) = struct.unpack_from(">h", data, p)
            xx = yy = xx / 16384.0
            p += 2
        elif cflags & 0x40:
            xx, yy = (v / 16384.0 for v in struct.unpack_from(">hh", data, p))
            p += 4
        elif cflags & 0x80:
            xx, xy, yx, yy = (v / 16384.0 for v in struct.unpack_from(">hhhh", data, p))
            p += 8
        dx, dy = (arg1, arg2) if cflags & 2 else (0, 0)  # point matching: not in DejaVu
        # child matrix, then this glyph's matrix
        cm = (xx, xy, yx, yy, float(dx), float(dy))
        mm = (a * cm[0] + c * cm[1], b * cm[0] + d * cm[1],
              a * cm[2] + c * cm[3], b * cm[2] + d * cm[3],
              a * cm[4] + c * cm[5] + e, b * cm[4] + d * cm[5] + f)
        out += _contours(face, child, mm, depth + 1)
        more = bool(cflags & 0x20)
    return out


def _commands(contours: list[list[tuple[float, float, bool]]],
              scale: float) -> list[PathCommand]:
    """Quadratic TrueType contours as path commands, scaled, y turned down."""
    cmds: list[PathCommand] = []

    def pt(q: tuple[float, float, bool]) -> tuple[float, float]:
        return (round(q[0] * scale, 5), round(-q[1] * scale, 5))

    for contour in contours:
        if not contour:
            continue
        n = len(contour)
        # start on an on-curve point (or between two off-curve ones)
        k = next((i for i, q in enumerate(contour) if q[2]), None)
        if k is None:
            a, b = contour[0], contour[1 % n]
            start = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, True)
            points = [*contour[1:], contour[0]]
        else:
            start = contour[k]
            points = contour[k + 1:] + contour[:k]
        cmds.append(("M", *pt(start)))
        pending: tuple[float, float, bool] | None = None
        for q in [*points, start]:
            if q[2]:
                if pending is None:
                    cmds.append(("L", *pt(q)))
                else:
                    cmds.append(("Q", *pt(pending), *pt(q)))
                    pending = None
            else:
                if pending is not None:
                    mid = ((pending[0] + q[0]) / 2, (pending[1] + q[1]) / 2, True)
                    cmds.append(("Q", *pt(pending), *pt(mid)))
                pending = q
        if pending is not None:
            cmds.append(("Q", *pt(pending), *pt(start)))
        cmds.append(("Z",))
    return cmds


def needs_paths(text: Text, outline_all: bool = False) -> bool:
    """Whether a text item is (partly) drawn as glyph paths."""
    if not text.text:
        return False
    if outline_all:
        return True
    return any(ch in SYMBOLS for ch in text.text)


def as_paths(text: Text, outline_all: bool = False) -> Item:
    """A text item with its symbols (or, with ``outline_all``, every character) drawn as
    glyph outlines; the rest stays text. Placed exactly as the text would be: each piece
    advances by the font's own width, anchors and rotation as for the whole line."""
    pieces: list[tuple[str, bool]] = []  # (text, as a path)
    for ch in text.text:
        path = (outline_all or ch in SYMBOLS) and has_glyph(ch, text.bold)
        if pieces and pieces[-1][1] == path and not path:
            pieces[-1] = (pieces[-1][0] + ch, False)
        else:
            pieces.append((ch, path))
    width = sum(fonts.string_width(p, text.size, text.bold) for p, _ in pieces)
    x = -width / 2.0 if text.anchor == "middle" else -width if text.anchor == "end" else 0.0
    items: list[Item] = []
    fill = Style(fill=text.fill)
    for piece, path in pieces:
        advance = fonts.string_width(piece, text.size, text.bold)
        if path:
            cmds = outline(piece, text.bold)
            if cmds:
                items.append(Group((Path(cmds, fill, cls="glyph"),), (x, 0.0),
                                   scale=text.size))
        else:
            items.append(Text(x, 0.0, piece, text.size, fill=text.fill, bold=text.bold))
        x += advance
    return Group(tuple(items), (text.x, text.y), rotate=text.rotate, cls=text.cls)

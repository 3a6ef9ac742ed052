"""PDF boxes and the CMYK route (PDF/X-1a:2003) of print-shop files.

Print-shop pages carry a TrimBox (where the shop cuts) and a BleedBox (how far the art
runs past it); :func:`page_boxes` works them out for a page drawn at trim + bleed. The
CMYK route writes the pages in device CMYK without transparency
(:func:`generator.backends.pdf.render_pdf` with ``cmyk=True``) and :func:`make_pdfx` then
adds what PDF/X-1a:2003 asks of the file itself: an output intent naming the printing
condition (``CGATS TR 001``, the U.S. web-coated SWOP condition DriveThruCards names,
registered with the ICC, so no profile needs embedding), the ``GTS_PDFXVersion`` key,
``Trapped`` and a title. It needs ``pikepdf`` (the ``print`` extra).

The colours are converted by the plain formula (K = 1 - max(R, G, B), and C, M, Y from
what remains), not by a colour-managed conversion through an ICC profile: good enough for
a prototype, and the same on every machine; proof a printed sample before a large order.
Ink above the vendor's limit (``max_ink``, C+M+Y+K) is taken out of C, M and Y evenly.
"""

from __future__ import annotations

import io

from generator.backends.pdf import Box
from generator.cmyk import cmyk_of  # noqa: F401  (the conversion, for callers of this module)

PDFX_VERSION = "PDF/X-1:2003"
PDFX_CONFORMANCE = "PDF/X-1a:2003"
OUTPUT_CONDITION = "CGATS TR 001"
OUTPUT_CONDITION_INFO = "U.S. Web Coated (SWOP) v2"
REGISTRY = "http://www.color.org"


def page_boxes(width: float, height: float, bleed: float) -> tuple[Box, Box]:
    """(TrimBox, BleedBox) of a page of ``width`` x ``height`` mm whose art runs ``bleed``
    mm past the cut on every side (the page is the bleed box)."""
    return (bleed, bleed, width - 2 * bleed, height - 2 * bleed), (0.0, 0.0, width, height)


def make_pdfx(pdf: bytes, title: str) -> bytes:
    """The CMYK PDF ``pdf`` made a PDF/X-1a:2003 file: output intent, version keys, title.
    Deterministic: the same input gives the same bytes."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(OUTPUT_CONDITION),
            OutputCondition=pikepdf.String(OUTPUT_CONDITION_INFO),
            RegistryName=pikepdf.String(REGISTRY),
            Info=pikepdf.String(OUTPUT_CONDITION_INFO))
        doc.Root.OutputIntents = pikepdf.Array([doc.make_indirect(intent)])
        info = doc.trailer.Info
        info.GTS_PDFXVersion = pikepdf.String(PDFX_VERSION)
        info.GTS_PDFXConformance = pikepdf.String(PDFX_CONFORMANCE)
        info.Trapped = pikepdf.Name("/False")
        info.Title = pikepdf.String(title)
        out = io.BytesIO()
        doc.save(out, static_id=True, deterministic_id=False, compress_streams=True,
                 fix_metadata_version=False, linearize=False)
        return out.getvalue()

"""Write the pictures of the manual's page "Iterating on a design" (docs/iterate.md), by
running the walk-through it describes on a copy of the shipped definitions:

- ``docs/images/iterate-diff.png``: the top of ``pnp diff --html``'s page for three
  changed sectors and a planet-scoring row (Debian's chromium takes the screenshot);
- ``docs/images/iterate-reprint.png``: the reprint kit of ``pnp build --since``: its
  sector sheet (three fronts) beside the take-out sheet.

Run from the project folder: ``.venv/bin/python tools/make_iterate_images.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

sys.path.insert(0, str(ROOT / "tools"))

from bench_design import changed_copy  # noqa: E402
from make_doc_images import _save  # noqa: E402  (the pictures kept small alike)


def _page(pdf: Path, index: int, dpi: float) -> Image.Image:
    doc = pdfium.PdfDocument(pdf.read_bytes())
    try:
        return doc[index].render(scale=dpi / 72.0).to_pil().convert("RGB")
    finally:
        doc.close()


def pnp() -> list[str]:
    script = Path(sys.executable).with_name("pnp")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pnp"]


def main() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("the diff page's picture needs Debian's chromium "
                         "(apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        before = work / "v0.7.1"
        for game in ("orbitus", "satellites"):
            shutil.copytree(ROOT / "cards" / game, before / game)
        mine = changed_copy(work / "mine")
        rules = mine / "orbitus" / "rules.yaml"
        rules.write_text("version: 0.7.2\n" + rules.read_text(encoding="utf-8"),
                         encoding="utf-8")
        page = work / "diff.html"
        done = subprocess.run([*pnp(), "diff", "v0.7.1", "mine", "--game", "orbitus",
                               "--html", str(page)], check=False, capture_output=True,
                              text=True, cwd=work)
        if done.returncode != 1 or not page.is_file():
            raise SystemExit(f"pnp diff failed ({done.returncode}): {done.stderr}")
        shot = work / "diff.png"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", f"--screenshot={shot}", "--window-size=900,1500",
                        page.as_uri()], check=True, capture_output=True, timeout=120)
        _save(Image.open(shot).convert("RGB"), "iterate-diff.png")
        out = work / "out"
        subprocess.run([*pnp(), "build", "--cards", "mine", "--since", "v0.7.1", "--out",
                        str(out), "--game", "orbitus", "-q"], check=True, cwd=work,
                       capture_output=True)
        sheet = _page(out / "reprint" / "orbitus" / "sectors.pdf", 0, 72)
        sheet = sheet.crop((0, 0, sheet.width * 45 // 100, sheet.height * 40 // 100))
        takeout = _page(out / "reprint" / "take-out.pdf", 0, 72)
        takeout = takeout.crop((0, 0, takeout.width * 90 // 100, takeout.height * 40 // 100))
        both = Image.new("RGB", (sheet.width + takeout.width + 24, max(sheet.height,
                                                                       takeout.height)),
                         "white")
        both.paste(sheet, (0, 0))
        both.paste(takeout, (sheet.width + 24, 0))
        _save(both, "iterate-reprint.png")


if __name__ == "__main__":
    main()

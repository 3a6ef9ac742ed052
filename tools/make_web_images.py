"""Screenshots of pnp-web's main screens for the manual (``docs/images/web-*.png``, docs/web.md).

Starts a server with a fresh data folder, drives Debian's chromium with Playwright and
keeps each picture small (256 colours). Run: ``.venv/bin/python tools/make_web_images.py``.
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
sys.path.insert(0, str(ROOT))

from testkit.browser import CHROMIUM, FLAGS, serving  # noqa: E402
from testkit.web import http_game, http_get, http_post, seat_url  # noqa: E402


def save(png: bytes, name: str) -> None:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(256, dither=Image.Dither.NONE)
    image.save(OUT / name, optimize=True)
    print(f"{OUT / name}: {image.width} x {image.height}, {(OUT / name).stat().st_size // 1000} kB")


def grace_game(base: str) -> str:
    """A Satellites game played up to the grace moves (the seat link of the player who
    has them), both seats taken with the join code."""
    from testkit.golden import moves_to_grace

    seed, moves = moves_to_grace()  # a golden record's game, up to its grace moves
    _, tokens = http_game(base, "satellites", ["human", "human"], seed=seed,
                          names=["Anna", "Ben"])
    for text in moves:
        seat = http_get(base, f"/api/link/{tokens[0]}")["view"]["to_move"]
        http_post(base, f"/api/link/{tokens[seat]}/move", {"action": text})
    seat = http_get(base, f"/api/link/{tokens[0]}")["view"]["to_move"]
    return seat_url(base, tokens[seat])


def covered_photo() -> bytes:
    """The synthetic photo of the example table that tests/test_web_photo.py reads: one card's
    marker covered, so one cell is seen but not read."""
    from testkit.photo_evaluate import Bench
    from testkit.photo_examples import ORBITUS_COVERED, orbitus_photo

    return orbitus_photo(Bench("orbitus", 2026, 2), ORBITUS_COVERED, covers=1)


def main() -> None:
    from playwright.sync_api import sync_playwright

    with serving(Path(tempfile.mkdtemp(prefix="web-images-")), rate=0) as base, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        page = browser.new_page(viewport={"width": 1180, "height": 820})
        # transcribing the example table of docs/score-orbitus.md
        page.goto(base + "/transcribe/orbitus")
        page.wait_for_selector("#table .cell")
        page.locator("details:has(#paste) summary").click()
        page.fill("#paste", (ROOT / "tests/fixtures/orbitus/two-players.yaml").read_text())
        page.click("#paste-import")
        page.wait_for_selector("#winners")
        page.locator("details:has(#paste)").evaluate("d => d.open = false")
        page.click('#table [data-k="1,-2"]', force=True)
        page.wait_for_timeout(300)
        save(page.screenshot(), "web-transcribe-orbitus.png")
        # a Satellites board
        page.goto(base + "/transcribe/satellites")
        page.wait_for_selector("#board .hit")
        page.fill("#paste", (ROOT / "tests/fixtures/satellites/tie_lowest_colony.txt").read_text()
                  if (ROOT / "tests/fixtures/satellites/tie_lowest_colony.txt").exists()
                  else (ROOT / "tests/fixtures/satellites/crowned.txt").read_text())
        page.click("#paste-import")
        page.wait_for_selector("#decision")
        page.wait_for_timeout(300)
        save(page.screenshot(), "web-transcribe-satellites.png")
        # a photo of the example table read, one card's marker under a finger (docs/web.md)
        page.set_viewport_size({"width": 1180, "height": 1420})
        page.goto(base + "/transcribe/orbitus")
        page.wait_for_selector("#table .cell")
        page.set_input_files("#photo-file", files=[{"name": "table.jpg", "mimeType": "image/jpeg",
                                                    "buffer": covered_photo()}])
        page.wait_for_selector("#photo-summary")
        page.wait_for_timeout(400)
        save(page.screenshot(), "web-photo-orbitus.png")
        page.set_viewport_size({"width": 1180, "height": 820})
        # playing Orbitus as one seat against two bots, a few moves in
        game, tokens = http_game(base, "orbitus", ["human", "greedy", "random"], seed=12,
                                 names=["Anna", "Greedy", "Random"])
        page.goto(seat_url(base, tokens[0]))
        for _ in range(4):
            page.wait_for_selector("#place-here")
            page.click("#hand button >> nth=0")
            page.wait_for_timeout(200)
            if page.locator("#place-here:not([disabled])").count():
                page.click("#place-here")
            else:
                page.click("#pass")
            page.wait_for_function("() => document.querySelector('#you-h').textContent === "
                                   "'Your turn'")
        page.click("#hand button >> nth=1")
        page.wait_for_timeout(300)
        save(page.screenshot(), "web-play-orbitus.png")
        # Satellites with the grace indicator
        page.goto(grace_game(base))
        page.wait_for_selector("#grace")
        movable = page.locator("#board [data-mark=movable]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.cell)")
        page.click(f'#board .hit[data-cell="{movable[0]}"]', force=True)
        page.wait_for_timeout(300)
        save(page.screenshot(), "web-play-satellites.png")
        # the host page of a game of three people: the join code and its QR code, who
        # holds which seat (one seat taken on a device)
        made = http_post(base, "/api/games", {"game": "orbitus", "players": [
            {"name": n, "kind": "human"} for n in ("Anna", "Ben", "Carla")]})
        http_post(base, f"/api/join/{made['code']}", {"seat": 1})
        page.goto(made["links"]["host"])
        page.wait_for_selector("#join-qr svg, .qr svg")
        page.wait_for_timeout(300)
        save(page.screenshot(), "web-host.png")
        # a seat on a phone: the hand docked over the board
        phone = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=1)
        _, tokens = http_game(base, "satellites", ["human", "human"], seed=4,
                              names=["Anna", "Ben"])
        phone.goto(seat_url(base, tokens[0]))
        phone.wait_for_selector("[data-mark=movable]")
        save(phone.screenshot(full_page=True), "web-phone.png")
        browser.close()


if __name__ == "__main__":
    main()

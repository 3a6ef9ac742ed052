"""Score pads: their rows come from the scoring tables in cards/, read back from the PDF."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from cards.definitions import load_orbitus, load_satellites
from generator.aids import orbitus_aid_steps, satellites_aid_steps
from generator.components.pads import (
    MARGIN,
    band_scale,
    orbitus_pad,
    orbitus_rows,
    satellites_pad,
)
from generator.drawing import Group, Polyline, Rect
from generator.sheets import page_size

SIZES = {"a4": (595, 842), "letter": (612, 792)}


def _run(steps, name: str) -> dict[str, bytes]:
    return dict(step for step in steps if step[0] == name)[name]()


def _pad_text(cards: Path | None, game: str = "orbitus", page: str = "a4") -> tuple[str, int]:
    if game == "orbitus":
        files = _run(orbitus_aid_steps(load_orbitus(cards), page), "Orbitus score pad")
    else:
        files = _run(satellites_aid_steps(load_satellites(cards), page), "Satellites score pad")
    (data,) = files.values()
    reader = PdfReader(io.BytesIO(data))
    for p in reader.pages:
        box = p.mediabox
        assert (round(float(box.width)), round(float(box.height))) == SIZES[page]
    return "\n".join(p.extract_text() for p in reader.pages), len(reader.pages)


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def test_orbitus_pad_has_a_row_per_category_from_the_tables():
    text, pages = _pad_text(None)
    lines = _lines(text)
    assert pages == 1
    assert lines.count("ORBITUS") == 2  # two games per A4 sheet
    for planet in ("Ice", "Lava", "Jungle", "Desert", "Ocean", "Gas giant"):
        assert lines.count(planet) == 2
    scale = "1 → −2 · 2 → −1 · 3 → +2 · 4 → +6 · 5 → +7 · 6+ → +9"
    assert lines.count(scale) == 12  # each planet row, twice
    for label, rule in [("Pirates", "−3 each pirate sector"),
                        ("Open routes", "−1 each route facing an empty cell"),
                        ("Closed blocks, size 3–4", "+1 each block"),
                        ("Closed blocks, size 5–9", "+3 each block"),
                        ("Closed blocks, size 10–18", "+6 each block"),
                        ("Closed blocks, size 19+", "+9 each block")]:
        i = lines.index(label)
        assert lines[i + 1] == rule
    assert lines.count("Total") == 2
    for seat in range(1, 7):  # a column per seat, 2-6 players use the first ones
        assert lines.count(f"P{seat}") == 2
    # rows in the order of the tables: planets, pirates, open routes, blocks, total
    first = lines[:lines.index("Total") + 1]
    order = [ln for ln in first if ln in ("Ice", "Gas giant", "Pirates", "Open routes",
                                          "Closed blocks, size 3–4", "Closed blocks, size 19+",
                                          "Total")]
    assert order == ["Ice", "Gas giant", "Pirates", "Open routes", "Closed blocks, size 3–4",
                     "Closed blocks, size 19+", "Total"]


def test_changing_the_scoring_tables_changes_the_pad(cards_copy):
    rules = cards_copy / "orbitus" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    text = text.replace("    - {min: 6, points: 9}          # 6 or more",
                        "    - {min: 6, max: 6, points: 9}\n    - {min: 7, points: 12}")
    text = text.replace("pirate: -3", "pirate: -4")
    text = text.replace("open_route: -1", "open_route: -2")
    text = text.replace("    - {min: 19, points: 9}",
                        "    - {min: 19, max: 24, points: 9}\n    - {min: 25, points: 15}")
    rules.write_text(text, encoding="utf-8")
    planets = cards_copy / "orbitus" / "planets.yaml"
    planets.write_text(planets.read_text(encoding="utf-8")
                       + '  - {id: ring, name: Ringworld, colour: "#888888", symbol: R}\n',
                       encoding="utf-8")
    pad, _ = _pad_text(cards_copy)
    lines = _lines(pad)
    scale = "1 → −2 · 2 → −1 · 3 → +2 · 4 → +6 · 5 → +7 · 6 → +9 · 7+ → +12"
    games = lines.count("ORBITUS")
    assert games >= 1
    # seven planet types now; the longer scale wraps onto two lines rather than shrink
    # below the 6 pt floor (issue 20)
    assert " ".join(lines).count(scale) == 7 * games
    assert "Ringworld" in lines
    assert "−4 each pirate sector" in lines and "−3 each pirate sector" not in lines
    assert "−2 each route facing an empty cell" in lines
    assert "Closed blocks, size 19–24" in lines and "Closed blocks, size 25+" in lines
    assert "Closed blocks, size 19+" not in lines
    assert lines[lines.index("Closed blocks, size 25+") + 1] == "+15 each block"


def test_many_planet_types_give_one_game_per_page(cards_copy):
    planets = cards_copy / "orbitus" / "planets.yaml"
    extra = "".join(f'  - {{id: p{i}, name: Extra {i}, colour: "#777777", symbol: X}}\n'
                    for i in range(12))
    planets.write_text(planets.read_text(encoding="utf-8") + extra, encoding="utf-8")
    text, pages = _pad_text(cards_copy)
    lines = _lines(text)
    assert pages == 1
    assert lines.count("ORBITUS") == 1
    assert all(f"Extra {i}" in lines for i in range(12))


def test_pad_rows_model():
    defs = load_orbitus()
    rows = orbitus_rows(defs)
    kinds = [r.kind for r in rows]
    assert kinds == ["planet"] * 6 + ["pirate", "open-route"] + ["block"] * 4 + ["total"]
    assert [r.key for r in rows if r.kind == "block"] == ["3–4", "5–9", "10–18", "19+"]
    assert (band_scale(defs.rules.scoring.closed_blocks)
            == "3–4 → +1 · 5–9 → +3 · 10–18 → +6 · 19+ → +9")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pads_are_the_chosen_paper_size(paper):
    _, pages = _pad_text(None, "orbitus", paper)
    assert pages == 1
    text, pages = _pad_text(None, "satellites", paper)
    assert pages == 1
    # several games per sheet: the header of each game block
    assert len(re.findall(r"Game ____", text)) >= 4


def test_satellites_pad_rows():
    text, _ = _pad_text(None, "satellites")
    lines = _lines(text)
    games = lines.count("Colonies controlled")
    assert games == 4  # two across, two down on A4: each with a row per colony
    for label in ("Player", "Lowest controlled colony", "Winner", "Value"):
        assert lines.count(label) == games
    assert lines.count("Red") == games and lines.count("Blue") == games
    # 24 satellites make at most 8 colonies of 3 (S-27): a row for each, numbered
    for n in range(1, 9):
        assert lines.count(f"Colony {n}") == games, n
    assert "Colony 9" not in lines


def _extent(items, dx=0.0, dy=0.0):
    """Bounding box of the rectangles and lines among ``items`` (groups translated)."""
    xs, ys = [], []
    for item in items:
        if isinstance(item, Group):
            box = _extent(item.items, dx + item.translate[0], dy + item.translate[1])
            if box:
                xs += [box[0], box[2]]
                ys += [box[1], box[3]]
        elif isinstance(item, Rect):
            xs += [dx + item.x, dx + item.x + item.w]
            ys += [dy + item.y, dy + item.y + item.h]
        elif isinstance(item, Polyline):
            xs += [dx + x for x, _ in item.points]
            ys += [dy + y for _, y in item.points]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pad_tables_stay_inside_the_margins(paper):
    size = page_size(paper)
    for drawing in orbitus_pad(load_orbitus(), size) + satellites_pad(load_satellites(), size):
        games = [i for i in drawing.items if isinstance(i, Group) and i.cls == "pad-game"]
        assert games
        for game in games:
            x0, y0, x1, y1 = _extent([game])
            assert x0 >= MARGIN - 1e-6 and y0 >= MARGIN - 1e-6
            assert x1 <= size[0] - MARGIN + 1e-6 and y1 <= size[1] - MARGIN + 1e-6

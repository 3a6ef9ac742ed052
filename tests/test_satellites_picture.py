"""The --svg/--png picture: what is drawn where, escaping, and the files written."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cards.definitions import load_satellites
from generator.drawing import Polygon, Rect, walk
from scorer.satellites.board import read_input
from scorer.satellites.cli import run
from scorer.satellites.picture import CELL, _outline, board_picture
from scorer.satellites.score import score

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "satellites"
SVG = "{http://www.w3.org/2000/svg}"


def picture(name: str):
    t = read_input(FIXTURES / name)
    return board_picture(score(t.board, t.grace_moves_left, t.problems), title=name)


def classes(drawing, prefix: str) -> list[str]:
    return [item.cls for item in walk(drawing.items)
            if getattr(item, "cls", None) and item.cls.split()[0] == prefix]


def test_every_satellite_is_drawn_as_its_token():
    drawing = picture("end_23_connected.txt")
    tokens = classes(drawing, "satellite")
    # one placed group per satellite, plus the token's own face inside it
    placed = [c for c in tokens if len(c.split()[1]) == 2]
    assert sorted(placed) == sorted(
        ["satellite R4"] * 3 + ["satellite R1"] * 3 + ["satellite R2"] * 3
        + ["satellite R3"] * 3 + ["satellite B1"] * 3 + ["satellite B4"] * 3
        + ["satellite B2"] * 3 + ["satellite B3"] * 3)


def test_colonies_outlined_tinted_crowned_and_contested():
    drawing = picture("end_23_connected.txt")
    look = load_satellites().board
    outlines = [i for i in walk(drawing.items) if isinstance(i, Polygon)
                and (i.cls or "").startswith("outline")]
    assert [o.cls for o in outlines] == ["outline A", "outline B", "outline C", "outline D"]
    assert outlines[0].style.stroke == look.red.colour
    assert outlines[1].style.stroke == look.blue.colour
    assert outlines[2].style.dash  # contested: dashed
    # a line of 6 cells is one rectangle: four corners
    assert len(outlines[0].points) == 4
    tints = {i.cls: i.style.fill for i in walk(drawing.items) if isinstance(i, Rect)
             and (i.cls or "").startswith("colony")}
    assert tints["colony A"] == look.red.light
    assert tints["colony B"] == look.blue.light
    assert len(classes(drawing, "crown")) == 3
    assert len(classes(drawing, "contested")) == 1
    assert len(classes(drawing, "badge")) == 4


def test_pairs_are_not_outlined():
    drawing = picture("pairs_no_colony.txt")
    assert classes(drawing, "outline") == []
    assert len(classes(drawing, "connection")) == 3
    assert len(classes(drawing, "badge")) == 3


def test_every_cell_of_a_violation_is_ringed():
    drawing = picture("violation_same_colour_adjacent.txt")
    assert len(classes(drawing, "violation")) == 4  # c3, c4, d3, d4
    drawing = picture("violation_group_too_large.txt")
    assert len(classes(drawing, "violation")) == 7


def test_outline_of_an_l_shape_and_a_pinch():
    (loop,) = _outline([(0, 0), (1, 0), (1, 1)])
    assert sorted(loop) == sorted([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (2.0, 1.0),
                                   (2.0, 2.0), (0.0, 2.0)])
    # two cells touching only at a corner: two separate squares
    loops = _outline([(0, 0), (1, 1)])
    assert sorted(len(lp) for lp in loops) == [4, 4]


def test_svg_is_well_formed_and_escapes_the_file_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    name = "a<b>&'c\".txt"
    (tmp_path / name).write_text((FIXTURES / "crowned.txt").read_text())
    (tmp_path / "out").mkdir()
    assert run([name, "--svg", "out/board.svg"]) == 0
    root = ET.parse(tmp_path / "out" / "board.svg").getroot()
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert f"Satellites: {name}" in texts
    assert "Blue wins" not in texts  # the game is not over
    assert "Blue ahead (game not over)" in texts
    assert root.get("width", "").endswith("mm")


def test_png_written_atomically_at_150_dpi(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = run([str(FIXTURES / "tie_lowest_colony.txt"), "--png", "b.png", "--json"])
    assert code == 0
    data = (tmp_path / "b.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width_px = struct.unpack(">I", data[16:20])[0]
    drawing = picture("tie_lowest_colony.txt")
    assert width_px == pytest.approx(drawing.width / 25.4 * 150, abs=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.png"]  # no temporary left
    assert capsys.readouterr().out.startswith("{")


def test_picture_of_an_invalid_board_still_draws(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = run([str(FIXTURES / "violation_ragged_rows.txt"), "--svg", "r.svg"])
    assert code == 1
    ET.parse(tmp_path / "r.svg")


def test_unwritable_picture_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file").write_text("")
    code = run([str(FIXTURES / "crowned.txt"), "--svg", "file/b.svg"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err == "pnp-score satellites: --svg file/b.svg: file is a file, not a folder\n"


def test_board_grid_matches_the_cells():
    drawing = picture("violation_not_square.txt")  # 6 rows of 7 cells
    board = next(i for i in walk(drawing.items) if isinstance(i, Rect) and i.cls == "board")
    assert (board.w, board.h) == (7 * CELL, 6 * CELL)
    assert classes(drawing, "outline") == []  # a pair only, no colony


def test_no_picture_for_a_board_beyond_26(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = run([str(FIXTURES / "violation_too_big.txt"), "--png", "big.png"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == ("pnp-score satellites: no picture drawn: the board is 27 x 27, and pictures "
                   "are drawn for boards up to 26 x 26; score it without --svg/--png to see its "
                   "violations\n")
    assert not (tmp_path / "big.png").exists()


def test_output_is_deterministic(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    board = str(FIXTURES / "end_23_connected.txt")
    outputs = []
    for name in ("one", "two"):
        assert run([board, "--json", "--svg", f"{name}.svg"]) == 0
        outputs.append((capsys.readouterr().out, (tmp_path / f"{name}.svg").read_bytes()))
    assert outputs[0] == outputs[1]

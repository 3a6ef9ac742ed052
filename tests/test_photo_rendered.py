"""pnp-score --photo on physically rendered photos (Blender Cycles: curled semi-gloss cards,
lamps whose reflections fall on cards, a phone's lens and sensor, a hand): one photo for
each way a real photo went wrong, read exactly or reported exactly, never silently wrong.

The photos and their truth (every piece: how much of it the camera saw, how much lay under
glare) are committed files, ``tests/fixtures/photo-rendered/NAME.jpg`` and ``NAME.json``,
made by ``testkit/render/fixtures.py``; the tests need no Blender."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("cv2")

from scorer.cli import main  # noqa: E402
from testkit.photo_evaluate import Outcome, outcome_of  # noqa: E402
from testkit.render.fixtures import FIXTURES, FOLDER  # noqa: E402
from testkit.render.shoot import Rendered  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "tests" / "fixtures"
BY_NAME = {f.name: f for f in FIXTURES}

def _rendered(name: str) -> Rendered:
    return Rendered.load(FOLDER / f"{name}.jpg")


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, dict[str, Any], str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def _players(shot: Rendered) -> str:
    if shot.game == "orbitus":
        return ",".join(shot.layout["players"])
    return ""


def _score(capsys: pytest.CaptureFixture[str], name: str, *extra: str
           ) -> tuple[int, dict[str, Any], str]:
    shot = _rendered(name)
    args = [shot.game, "--photo", str(FOLDER / f"{name}.jpg"), "--json", *extra]
    if shot.game == "orbitus":
        args += ["--players", _players(shot)]
    return _run(capsys, args)


@functools.cache
def _judged(name: str) -> tuple[Rendered, Any, Outcome]:
    """The photo read as pnp-score reads it, judged against its truth (read once per run:
    several tests look at the same reading, none changes it)."""
    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for

    shot = _rendered(name)
    defs = load_definitions(shot.game, None)
    reader = reader_for(shot.game, marker_map(shot.game, defs), defs)
    reading, _ = reader.read_bytes(shot.jpeg, f"{name}.jpg")
    return shot, reading, outcome_of(shot.game, shot.as_shot(), reading)


def _typed(capsys: pytest.CaptureFixture[str], table: str) -> dict[str, Any]:
    game = table.split("/")[0]
    code = main([game, str(TABLES / table), "--json"])
    out, _ = capsys.readouterr()
    assert code in (0, 1)
    result: dict[str, Any] = json.loads(out)
    return result


def test_every_fixture_is_committed_with_its_truth():
    """The photos the tests read are files in the repository, each with its truth, small
    enough to keep (CI has no Blender)."""
    for fixture in FIXTURES:
        jpg = FOLDER / f"{fixture.name}.jpg"
        assert jpg.read_bytes()[:3] == b"\xff\xd8\xff", jpg
        assert jpg.stat().st_size < 1_500_000, jpg
        truth = json.loads(jpg.with_suffix(".json").read_text(encoding="utf-8"))
        assert truth["name"] == fixture.name and truth["game"] == fixture.game
        assert truth["conditions"]["about"] == fixture.about
        pieces = [p for p in truth["pieces"] if p["kind"] in ("sector", "token")]
        assert pieces, fixture.name


# the photos in which every piece fully in view is read (the others report one, by name)
ALL_READ = [f.name for f in FIXTURES
            if f.name not in ("coarse-curled-card", "too-coarse-for-the-station",
                              "glare-read-from-the-face", "coarse-far-cards",
                              "glare-over-most-of-a-card", "coarse-far-cards-again",
                              "coarse-curled-card-again", "cards-beyond-a-cup",
                              "a-card-lifted-off-its-cell", "a-cup-the-colour-of-the-table",
                              "a-hand-on-a-plain-grey-table", "a-hand-wholly-over-a-card",
                              "satellites-too-blurred")]


@pytest.mark.parametrize("name", ALL_READ)
def test_no_rendered_photo_is_silently_wrong(name):
    """Every piece fully in view read right; none read wrong, none left out without a
    word; a reading that says it is complete scores as the table photographed."""
    shot, _, outcome = _judged(name)
    assert not outcome.silent_wrong
    assert outcome.wrong == [] and outcome.missed == [] and outcome.phantom == []
    assert outcome.false_unread == []
    assert outcome.visible_read == outcome.visible, name
    assert outcome.scores_equal is not False


def _read_cells(shot: Rendered, out: dict[str, Any]) -> dict[tuple[int, int], str]:
    """What the JSON of pnp-score --photo says it read: cell -> how."""
    return {tuple(int(x) for x in c.strip("[]").split(",")): how  # type: ignore[misc]
            for c, how in out["photo"]["how"].items()}


def _truth(shot: Rendered) -> dict[tuple[int, int], tuple[str, int]]:
    return {tuple(p.cell): (p.card, p.rot) for p in shot.pieces  # type: ignore[misc]
            if p.kind == "sector" and p.cell is not None}


def test_glare_on_a_card_is_reported_and_drawn(tmp_path, capsys):
    """A lamp's reflection washes out S04's marker and most of its print on [0, 1]: that
    card is reported unread (its print is too washed to tell it from another card), every
    other card is read exactly; the debug image outlines the glare over [0, 1]."""
    shot, reading, _ = _judged("glare-on-a-card")
    assert reading.unread == [(0, 1)] and reading.findings == []
    truth = _truth(shot)
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        c: v for c, v in truth.items() if c != (0, 1)}
    assert (0, 1) in reading.glare  # drawn in yellow on the debug image
    debug = tmp_path / "glare.png"
    code, out, err = _score(capsys, "glare-on-a-card", "--debug-image", str(debug))
    assert (code, err) == (1, "")
    assert out["photo"]["unread"] == [[0, 1]] and out["photo"]["read"] == len(truth) - 1
    assert [(v["rule"], v["cell"]) for v in out["violations"]] == [("photo-unread", [0, 1])]
    assert debug.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_hand_over_the_cards_names_every_cell_it_may_hide(capsys):
    """A hand over most of a small table: the two cards it leaves readable are read right,
    and the cells under it are named (photo-covered): the four at the edges of the cards
    read, then the three the hand reaches beyond them, followed over the table
    (OrbitusReader._follow), so each of the five cards not read is named by its own cell
    (before, three were named only by a neighbour); the command exits 1, scoring nothing
    it could not see."""
    shot, reading, outcome = _judged("hand-over-a-chain")
    truth = _truth(shot)
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        (0, -1): truth[(0, -1)], (1, -2): truth[(1, -2)]}
    assert sorted((f.rule, f.cell) for f in reading.findings) == [
        ("photo-covered", (-1, -2)), ("photo-covered", (-1, -1)), ("photo-covered", (-1, 0)),
        ("photo-covered", (0, -3)), ("photo-covered", (0, -2)), ("photo-covered", (1, -3)),
        ("photo-covered", (1, -1))]
    assert set(truth) - set(reading.placed) <= {f.cell for f in reading.findings}
    assert outcome.partly == 7 and outcome.partly_read + outcome.partly_unread == 7
    code, out, err = _score(capsys, "hand-over-a-chain")
    assert (code, err) == (1, "") and out["photo"]["read"] == 2
    assert {v["rule"] for v in out["violations"]} == {"photo-covered"}


def test_barrel_distortion_on_the_72_card_table_scores_exactly(tmp_path, capsys):
    """A wide lens's barrel distortion on the 72-card table photographed tilted 30 degrees:
    every card read with its cell and rotation, nothing reported, and the score is the
    typed table's."""
    shot = _rendered("barrel-distortion")
    layout_out = tmp_path / "read.yaml"
    code, out, err = _score(capsys, "barrel-distortion", "--layout-out", str(layout_out))
    assert (code, err) == (0, "")
    assert out["violations"] == [] and out["photo"]["unread"] == []
    written = yaml.safe_load(layout_out.read_text(encoding="utf-8"))
    assert {(tuple(s["at"]), s["card"], s["rot"]) for s in written["sectors"]} == {
        (c, card, rot) for c, (card, rot) in _truth(shot).items()}
    typed = _typed(capsys, "orbitus/six-players-72.yaml")
    assert [p["total"] for p in out["players"]] == [p["total"] for p in typed["players"]]
    assert out["winners"] == typed["winners"]


def test_the_one_camera_carries_the_lens_barrel_distortion_the_markers_show():
    """The camera fitted to every marker corner of the barrel-distorted photo (rendered
    with k1 -0.08) keeps a barrel distortion: a point at 0.8 half diagonals from the
    middle is drawn 3-9 % nearer to it than a straight lens would; the photos of mildly
    bent lenses (|k1| <= 0.016) need none beyond what their perspective explains."""
    import numpy as np

    from photo.camera import distort

    def bend(name: str) -> float:
        cam = _judged(name)[1].camera
        assert cam is not None, name
        return float(distort(np.array([[0.8, 0.0]]), cam.k1, cam.k2)[0, 0] / 0.8 - 1.0)

    assert -0.09 < bend("barrel-distortion") < -0.03
    for name in ("curled-cards", "glare-on-a-card", "hand-over-a-chain"):
        assert abs(bend(name)) < 0.02, name


def test_the_camera_puts_a_plane_above_the_table_where_a_pinhole_sees_it():
    """The camera fitted to points on the table (a phone 400 mm away, tilted 35 degrees,
    no lens distortion) knows its pose: the plane 7 mm above the table, where a lifted card
    lies, is drawn where the pinhole draws it, to a fifth of a pixel (its points are
    displaced 31-33 px from the table's), larger; a camera with no pose fitted (a few
    markers: affine) has no plane above the table."""
    import cv2
    import numpy as np

    from photo import camera

    f, width, height = 3000.0, 4000, 3000
    k = np.array([[f, 0.0, (width - 1) / 2], [0.0, f, (height - 1) / 2], [0.0, 0.0, 1.0]])
    rvec = np.array([[np.radians(35.0)], [0.1], [0.2]])
    tvec = np.array([[20.0], [-10.0], [400.0]])

    def pinhole(pts: np.ndarray, z: float) -> np.ndarray:
        # the table's x right, y down: up is -z in its right-handed frame
        obj = np.column_stack([pts, np.full(len(pts), -z)])
        px, _ = cv2.projectPoints(obj, rvec, tvec, k, None)
        return px.reshape(-1, 2)

    grid = np.array([(x, y) for x in range(-150, 151, 50) for y in range(-150, 151, 50)],
                    np.float64)
    cam = camera.fit(grid, pinhole(grid, 0.0), width, height, radial=False)
    lifted = cam.raised(7.0)
    assert lifted is not None
    near = np.array([(30.0, 40.0), (-120.0, 90.0)])
    assert np.abs(lifted.project(near) - pinhole(near, 7.0)).max() < 0.2
    shift = np.linalg.norm(lifted.project(near) - cam.project(near), axis=1)
    assert (shift > 30.0).all(), shift  # pixels: a lift of 7 mm is seen
    assert lifted.scale_at((30.0, 40.0)) > cam.scale_at((30.0, 40.0))
    few = camera.fit(grid[:4], pinhole(grid[:4], 0.0), width, height, affine=True)
    assert few.raised(7.0) is None


def test_curled_cards_are_read_and_the_curled_ones_named(capsys):
    """Cards curled off the table (edges lifted 4-7 mm): every card read, the score the
    typed table's; the camera model's residual per card (its marker's shape against a
    flat card's) is largest on exactly the four cards curled most, and exactly those four
    are named as not lying flat: a note (exit 0, no violation), not an error."""
    shot, reading, outcome = _judged("curled-cards")
    assert outcome.exact and outcome.scores_equal
    curled = {tuple(p.cell) for p in shot.pieces if p.kind == "sector" and p.lift >= 3.0}
    assert curled == {(-1, -1), (0, 1), (0, 2), (1, -3)}
    by_residual = sorted(reading.placed.values(), key=lambda p: -p.residual)
    assert {p.cell for p in by_residual[:4]} == curled
    assert reading.lifted == [(-1, -1), (0, 1), (0, 2), (1, -3)]
    code, out, err = _score(capsys, "curled-cards")
    assert (code, err, out["violations"]) == (0, "", [])
    assert out["photo"]["lifted"] == [[-1, -1], [0, 1], [0, 2], [1, -3]]
    typed = _typed(capsys, "orbitus/two-players.yaml")
    assert [p["total"] for p in out["players"]] == [p["total"] for p in typed["players"]]
    assert main(["orbitus", "--photo", str(FOLDER / "curled-cards.jpg"),
                 "--players", _players(shot)]) == 0
    text = capsys.readouterr().out
    assert ("  4 card(s) read but not lying flat (curled or lifted off the table): [-1, -1], "
            "[0, 1], [0, 2], [1, -3]; check them, and flatten them before the next photo\n"
            ) in text


@pytest.mark.parametrize("name", ["glare-on-a-card", "hand-over-a-chain", "barrel-distortion"])
def test_cards_lying_flat_are_not_named_curled(name):
    """The rendered photos whose cards lie flat (lifted 1 mm at most) name none as curled:
    the glare photo's 22-32 px markers, the barrel photo's 13-20 px ones (too coarse to
    tell a tilt from their corners' noise: never named)."""
    shot, reading, _ = _judged(name)
    assert max(p.lift for p in shot.pieces if p.kind == "sector") <= 1.0
    assert reading.lifted == []


def test_a_tube_lights_streak_over_satellites_is_reported_not_guessed(capsys):
    """A tube light's reflection, a streak across three satellites' markers on the crowned
    board: those three cells (72-86 % of their markers under glare) are reported unread,
    B2's on e6 too though only its blue rim is left (a satellite, not something over the
    board); the five others read right: R1 on e3, its marker hazed at the streak's edge
    (8 % under glare) and no longer certain, from its printed face (its numeral), its red
    and its marker's best code agreeing. Where the streak crosses the empty board (f1-f3,
    d7-d10, e7: 37-72 % of each cell unlike its print, 43-85 % under the reflection) the
    reflection washed the print white and nothing else is unlike it: no finding, neither a
    satellite nor something over the board."""
    from photo.satellites import cell_name

    shot, reading, outcome = _judged("satellites-glare-streak")
    truth = {tuple(p.cell): p.card for p in shot.pieces if p.kind == "token"}
    streaked = {tuple(p.cell) for p in shot.pieces if p.kind == "token" and p.glare >= 0.2}
    assert streaked == {(3, 4), (4, 4), (5, 4)}
    assert sorted(reading.unread) == sorted(streaked)
    assert {c: t.text for c, t in reading.tokens.items()} == {
        c: name for c, name in truth.items() if c not in streaked}
    assert {c: t.how for c, t in reading.tokens.items() if t.how != "marker"} == {
        (2, 4): "face"}
    assert reading.findings == []
    washed = {cell_name(e["cell"]): (round(e["unlike"], 2), round(e["glare"], 2))
              for e in reading.log if e.get("beyond_reflection", 1.0) == 0.0}
    assert washed == {"f1": (0.45, 0.43), "f2": (0.64, 0.79), "f3": (0.44, 0.61),
                      "d7": (0.37, 0.53), "e7": (0.45, 0.64), "d8": (0.6, 0.78),
                      "d9": (0.72, 0.84), "d10": (0.6, 0.5)}
    assert outcome.wrong == [] and outcome.phantom == []
    code, out, err = _score(capsys, "satellites-glare-streak")
    assert (code, err) == (1, "")
    assert out["photo"]["unread"] == ["e4", "e5", "e6"]  # column e, rows 4-6


def test_satellites_under_a_lamps_reflection_are_read_from_their_face_or_reported(capsys):
    """Photo 6 of the rendered Satellites benchmark (3.3 px/mm, a lamp aimed): its
    reflection washes out the markers of four satellites (75-100 % of each marker) and
    makes their cells look like the printed board, but their coloured rims stay. The
    reflection is found (white, brighter than the board's paper can be in this light) on
    15 cells, those four among them and no other satellite's; B2 on a6 and B2 on c8 are
    read from their printed face inside the rim (their numeral: each matches 0.70, 0.13
    and 0.15 above every other face), their blue from the rim; B3 on a8 and R3 on b8,
    whose faces are washed out too, are reported unread by their cells: none is left
    unnamed, none read wrong.
    The empty a4 under the reflection, a blue-tinted cell washed white (54 % of it unlike
    its print), is the reflection and nothing else (no part of it darker than the print or
    coloured): no finding (it was named covered, a false alarm)."""
    from photo.satellites import cell_name

    shot, reading, outcome = _judged("satellites-lamp-on-the-rims")
    truth = {tuple(p.cell): p for p in shot.pieces if p.kind == "token"}
    washed = {c for c, p in truth.items() if p.marker_glare >= 0.5}
    assert washed == {(5, 0), (7, 0), (7, 1), (7, 2)}  # a6, a8, b8, c8
    assert [cell_name(c) for c in sorted(reading.glare)] == [
        "a4", "b4", "a5", "b5", "a6", "b6", "b7", "c7", "a8", "b8", "c8", "a9", "b9",
        "c9", "b10"]
    assert set(reading.glare) & set(truth) == washed
    assert sorted(reading.unread) == [(7, 0), (7, 1)]  # a8, b8
    assert {c: t.text for c, t in reading.tokens.items()} == {
        c: p.card for c, p in truth.items() if c not in ((7, 0), (7, 1))}
    assert {c: t.how for c, t in reading.tokens.items() if t.how != "marker"} == {
        (5, 0): "face", (7, 2): "face", (6, 0): "marker in its cell"}
    assert reading.findings == []
    a4 = next(e for e in reading.log if e["cell"] == (3, 0))
    assert (round(a4["unlike"], 2), round(a4["glare"], 2), a4["beyond_reflection"]) == (
        0.54, 0.72, 0.0)
    assert outcome.wrong == [] and outcome.phantom == [] and not outcome.silent_wrong
    assert [v for v in outcome.verdicts if v.verdict == "missed"] == []
    code, out, err = _score(capsys, "satellites-lamp-on-the-rims")
    assert (code, err) == (1, "")
    assert out["photo"]["unread"] == ["a8", "b8"]
    assert [(v["rule"], v["cell"]) for v in out["violations"]] == [
        ("photo-unread", "a8"), ("photo-unread", "b8")]


def test_one_reader_reads_photo_after_photo_as_a_fresh_one_would():
    """The web companion and the benchmarks keep one reader for many photos. What the
    reader finds over a board (where it is unlike its print, the lamp's reflection) is
    kept for the photo and camera it was found for, and never handed to the next photo:
    it was kept by the photo's id(), which the next photo can have (a freed photo's
    successor of the same size, or the same buffer filled with the next frame), and
    photo 6 read so lost the five satellites by its lamp."""
    import cv2
    import numpy as np

    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for

    defs = load_definitions("satellites", None)
    rims = cv2.imdecode(np.frombuffer(_rendered("satellites-lamp-on-the-rims").jpeg,
                                      np.uint8), cv2.IMREAD_COLOR)
    rims = cv2.resize(rims, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)

    def seen(reading: Any) -> tuple[Any, ...]:
        return ({c: t.text for c, t in reading.tokens.items()}, sorted(reading.unread),
                sorted(reading.glare), [(f.rule, f.cell) for f in reading.findings])

    want = seen(reader_for("satellites", marker_map("satellites", defs), defs).read(
        rims.copy()))
    assert len(want[2]) >= 10 and want[1]  # the reflection found, satellites under it
    # the same board in a dimmer light: no reflection found, the satellites by the lamp
    # read or left as the board
    other = (rims.astype(np.float32) * 0.75).astype(np.uint8)
    reader = reader_for("satellites", marker_map("satellites", defs), defs)
    frame = other.copy()
    assert seen(reader.read(frame)) != want
    frame[:] = rims  # the same buffer, the next frame
    assert seen(reader.read(frame)) == want


def test_the_debug_image_shows_the_reflection_on_a_satellites_board():
    """The debug image outlines the cells under a lamp's reflection in yellow and says how
    many (the photo of the test above: 15 cells)."""
    import cv2
    import numpy as np

    from photo import debug
    from photo.satellites import draw

    shot, reading, _ = _judged("satellites-lamp-on-the-rims")
    bgr = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    plain = reading.glare
    try:
        reading.glare = []
        without = draw(bgr, reading)
    finally:
        reading.glare = plain
    img = draw(bgr, reading)
    yellow = np.all(np.abs(img.astype(int) - debug.YELLOW) <= 12, axis=2)
    yellow_before = np.all(np.abs(without.astype(int) - debug.YELLOW) <= 12, axis=2)
    assert int(yellow.sum()) > int(yellow_before.sum()) + 1000


def test_the_debug_images_of_two_satellites_photos_show_the_merge_and_each_ones_glare():
    """Two photos of one board read together (``--photo A --photo B``): each photo's debug
    image draws what the photos read together, through its own camera, with the cells
    under a lamp's reflection in that photo (yellow); the merged reading keeps the cells
    under glare in either. Photo 6 of the rendered set (its lamp's reflection on 15 cells,
    two satellites under it unread) and the same board dimmer, where no reflection is
    found: the dimmer photo's debug image shows the satellites the first one read, and no
    reflection; the first's, its 15 cells. (Before, the merge kept no glare, and each
    debug image showed its own photo's reading alone.)"""
    from dataclasses import replace

    import cv2
    import numpy as np

    from cards.ruleset_cache import load_definitions
    from photo import debug, marker_map, reader_for
    from photo.merge import merge, shown_in
    from photo.satellites import draw

    defs = load_definitions("satellites", None)
    reader = reader_for("satellites", marker_map("satellites", defs), defs)
    lit = cv2.imdecode(np.frombuffer(_rendered("satellites-lamp-on-the-rims").jpeg,
                                     np.uint8), cv2.IMREAD_COLOR)
    dim = (lit.astype(np.float32) * 0.75).astype(np.uint8)
    readings = [reader.read(lit), reader.read(dim)]
    assert len(readings[0].glare) == 15 and readings[1].glare == []
    merged = merge("satellites", readings, ["lit.jpg", "dim.jpg"])
    assert merged.glare == sorted(readings[0].glare)
    assert set(merged.tokens) >= set(readings[0].tokens) | set(readings[1].tokens)
    first, second = (shown_in("satellites", merged, readings, i) for i in (0, 1))
    assert first.glare == readings[0].glare and second.glare == []
    assert first.tokens == second.tokens == merged.tokens
    assert second.camera is readings[1].camera and first.camera is readings[0].camera

    def yellow(img: np.ndarray) -> int:
        return int(np.all(np.abs(img.astype(int) - debug.YELLOW) <= 12, axis=2).sum())

    assert yellow(draw(lit, first)) > yellow(draw(lit, replace(first, glare=[]))) + 1000
    assert yellow(draw(dim, second)) == yellow(draw(dim, replace(second, glare=[])))


def test_a_card_too_coarse_for_its_marker_is_reported_by_its_paper(capsys):
    """Photo 13 of the rendered benchmark: 25 cards in a 0.7 MP photo (1.6 px/mm), five of
    them curled 3.7-5.3 mm. 24 are read; S54 on [1, -3], curled 5.3 mm, its marker too
    coarse to read and its face too warped to be sure of (art 0.71), is found by its paper
    filling the cell and its face looking like a card's, and reported unread by its cell:
    the command exits 1 naming it, where it used to exit with a wrong score and no word
    of that card."""
    shot, reading, outcome = _judged("coarse-curled-card")
    truth = _truth(shot)
    assert len(truth) == 25
    assert reading.unread == [(1, -3)] and reading.findings == []
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        c: v for c, v in truth.items() if c != (1, -3)}
    assert not outcome.silent_wrong and outcome.wrong == [] and outcome.phantom == []
    assert outcome.false_unread == []
    code, out, err = _score(capsys, "coarse-curled-card")
    assert (code, err) == (1, "")
    assert [(v["rule"], v["cell"]) for v in out["violations"]] == [("photo-unread", [1, -3])]


def test_a_photo_too_coarse_for_the_station_says_so(capsys):
    """The 72-card table at 0.72 px/mm (716 x 536 px): even the station's 12 mm marker is
    under 9 px, so nothing can be placed; the one finding says the station could not be
    read, and why it may be (too small), and the command exits 1 with no score: no card's
    absence goes unnamed, the whole table is named as not checked."""
    shot, reading, outcome = _judged("too-coarse-for-the-station")
    assert shot.conditions["px_per_mm"] < 0.75 and len(_truth(shot)) == 72
    assert reading.placed == {} and reading.unread == []
    assert [(f.rule, f.cell) for f in reading.findings] == [("photo-no-station", None)]
    assert "too small" in reading.findings[0].message
    assert not outcome.silent_wrong and not outcome.complete
    code, out, err = _score(capsys, "too-coarse-for-the-station")
    assert (code, err) == (1, "")
    assert [v["rule"] for v in out["violations"]] == ["photo-no-station"]


def test_free_cells_where_the_photo_is_too_coarse_are_named():
    """The cells next to the cards where a card's marker would be under 12 px cannot be
    checked and are named (photo-too-coarse), each free neighbour of a card read or seen
    once: the coarse-curled-card photo's reading (1.6 px/mm, markers 14.7 px: none named)
    looked at as if the photo had 0.6 times its pixels (0.98 px/mm, 8.8 px)."""
    from cards.ruleset_cache import load_definitions
    from photo import marker_map
    from photo.orbitus import Finding, OrbitusReader, TableReading
    from rules import hexgeo

    shot, reading, _ = _judged("coarse-curled-card")
    assert [f for f in reading.findings if f.rule == "photo-too-coarse"] == []
    cam = reading.camera
    assert cam is not None
    reader = OrbitusReader(marker_map("orbitus", load_definitions("orbitus", None)))
    coarse = TableReading(placed=dict(reading.placed), unread=list(reading.unread))
    small = cam.scaled(0.6)
    shape = (round(shot.height * 0.6), round(shot.width * 0.6))
    reader._coarse(small, shape, coarse)
    taken = set(coarse.placed) | set(coarse.unread) | {(0, 0)}
    frontier = {n for c in taken for _, n in hexgeo.neighbours(c)} - taken
    frontier = {n for n in frontier if reader._frame_share(small, n, shape) >= 0.5}
    assert frontier and sorted(f.cell for f in coarse.findings) == sorted(frontier)
    assert {f.rule for f in coarse.findings} == {"photo-too-coarse"}
    assert coarse.findings[0] == Finding(
        "photo-too-coarse", (-4, 2),
        "the photo is too coarse at [-4, 2] to tell whether a card lies there (a card's marker "
        "would be 8.7 px a side; at least 12 are needed); photograph the table closer or with "
        "more pixels, or write that cell into the layout by hand")


def test_a_washed_out_marker_is_read_from_the_face_where_rivals_differ():
    """Photo 16 of the rendered benchmark (2.1 px/mm, two lamps, a cup): S52's marker on
    [3, 1] lies 86 % under a lamp's reflection. Its face matches S52 turned SE best, but
    four other faces (cards sharing most of its routes) lie within 0.12 of it; where each
    differs from S52 (a route one has and the other not) the photo is clearly S52's, so
    the card is read from its face. Nothing is read wrong; two cards under glare are
    reported unread and the cup's cells covered: the two at the edges of cards read,
    then, the cup followed over the table, the three beyond them it lies on, S29 on
    [0, 8] among them (a third under the cup: before, left out without its cell named)."""
    shot, reading, outcome = _judged("glare-read-from-the-face")
    truth = _truth(shot)
    assert reading.placed[(3, 1)].how == "art under glare"
    assert (reading.placed[(3, 1)].card, reading.placed[(3, 1)].rot) == truth[(3, 1)] == \
        ("S52", 2)
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        c: truth[c] for c in reading.placed}
    assert len(reading.placed) == 37 and len(truth) == 43
    assert reading.unread == [(2, 2), (3, 2)]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-covered", (0, 5)), ("photo-covered", (0, 6)), ("photo-covered", (-1, 7)),
        ("photo-covered", (0, 7)), ("photo-covered", (0, 8))]
    assert truth[(0, 8)] == ("S29", 5)
    assert outcome.wrong == [] and outcome.phantom == [] and outcome.false_unread == []
    assert outcome.missed == []
    assert not outcome.silent_wrong


def test_far_cards_too_blurred_to_read_are_each_named(capsys):
    """Photo 24 of the rendered benchmark (1,648 x 1,236, tilted 25 degrees, a cup): the
    far cards lie at 1.5-1.6 px/mm, their markers 13.5-14.2 px, too blurred to read and
    their faces too blurred to tell from the table. Each cell found empty there that is
    mostly the cards' paper with a card's light and shade is named photo-too-coarse
    (S17; before, it and S18 and S68 were left out without a word); S18 and S68 show a
    marker below certainty (0.75, 0.76) that puts them exactly on their cells, their faces
    agreeing, and are reported unread (before these, too coarse); S39 on [-4, -1],
    looked at before its neighbour [-5, 0] was seen, is looked at again and reported
    unread. Every card of the 65 is read or named, none read wrong, no empty cell named
    unread. The two under the cup are each named covered on their own cell: S33 on [-3, 1]
    by the cup over the edge of the card on [-4, 2], S20 on [-3, 0], wholly under the
    cup's coffee (its brown the wood's, 8 % of the cell unlike the table), as the cell the
    cup's rim encloses (92 % of it; before, named only through the covered cells round
    it)."""
    shot, reading, outcome = _judged("coarse-far-cards")
    truth = _truth(shot)
    assert len(truth) == 65 and len(reading.placed) == 50
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        c: truth[c] for c in reading.placed}
    assert [m for m in outcome.missed if "neither read nor reported" in m] == []
    assert sorted(reading.unread) == [(-5, 0), (-5, 2), (-4, -1), (-2, -3), (-1, -4), (0, -6),
                                      (0, 7), (1, -6), (5, -5)]
    assert (truth[(-1, -4)], truth[(0, -6)]) == (("S18", 3), ("S68", 5))
    assert truth[(-4, -1)] == ("S39", 5)
    coarse = [(f.cell, truth.get(f.cell, ("empty",))[0]) for f in reading.findings
              if f.rule == "photo-too-coarse"]
    assert coarse == [((0, -5), "S17")]
    assert reading.findings[-1].message == (
        "the photo is too coarse at [0, -5] to tell whether a card lies there (64% of the "
        "cell is the cards' paper, but a card's marker would be only 13.8 px a side, too "
        "blurred to read, and its face too blurred to tell from the table); photograph the "
        "table closer or with more pixels, or write that cell into the layout by hand")
    assert outcome.wrong == [] and outcome.phantom == [] and outcome.false_unread == []
    assert not outcome.silent_wrong
    assert (truth[(-3, 1)][0], truth[(-3, 0)][0]) == ("S33", "S20")
    inside = [f for f in reading.findings if f.cell == (-3, 0)]
    assert [f.message for f in inside] == [
        "[-3, 0] lies inside what covers the cells round it (92% of it enclosed by it) and "
        "no card was read on it, so a card there could not be seen; take it away and "
        "photograph again, or write that cell into the layout by hand"]
    assert [v for v in outcome.verdicts if v.by_neighbour] == []  # each named on its own cell
    code, out, err = _score(capsys, "coarse-far-cards")
    assert (code, err) == (1, "")
    assert [v["cell"] for v in out["violations"] if v["rule"] == "photo-too-coarse"] == [
        [0, -5]]


def test_a_card_washed_out_by_glare_over_most_of_it_is_reported():
    """Photo 20 of the rendered benchmark (2.7 px/mm, a lamp aimed): S28 on [6, -2] lies
    74 % under the lamp's reflection; what the glare leaves matches no face (0.39), but the
    cell is the cards' paper and the reflection nearly whole (96 %), so it is reported
    unread (before: left out without a word). The other 51 cards are read exactly."""
    shot, reading, outcome = _judged("glare-over-most-of-a-card")
    truth = _truth(shot)
    assert truth[(6, -2)] == ("S28", 2) and len(truth) == 53
    assert sorted(reading.unread) == [(5, -1), (6, -2)]
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        c: v for c, v in truth.items() if c not in ((5, -1), (6, -2))}
    assert [(f.rule, f.cell) for f in reading.findings] == [("photo-covered", (-4, 5))]
    assert outcome.wrong == [] and outcome.phantom == [] and outcome.false_unread == []
    assert outcome.missed == ["S28@[6, -2] rot 2 fully visible, reported unread"]


def test_a_card_the_photos_edge_cuts_is_named_out_of_frame(capsys):
    """Photo 25 of the rendered benchmark (3.3 px/mm, barrel distortion k1 -0.08): the
    photo's edge cuts S72 on [0, 6] (78 % of its hex in the photo); the part shown looks
    like a card's face and paper but too little of it to read or see it as one, so the
    cell is named photo-out-of-frame (before: left out without a word), as are the free
    cells next to the cards that lie mostly beyond the edge."""
    shot, reading, outcome = _judged("frame-cuts-a-card")
    truth = _truth(shot)
    assert truth[(0, 6)] == ("S72", 2)
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-out-of-frame", (-1, 6)), ("photo-out-of-frame", (0, 7)),
        ("photo-out-of-frame", (1, 7)), ("photo-out-of-frame", (2, 6)),
        ("photo-out-of-frame", (0, 6))]
    assert reading.findings[-1].message == (
        "the photo ends across [0, 6] (78% of it in the photo, and that part looks like a "
        "card): a card there would lie partly outside it and cannot be read; photograph the "
        "whole table, or write that cell into the layout by hand")
    assert outcome.ok and not outcome.silent_wrong
    code, out, err = _score(capsys, "frame-cuts-a-card")
    assert (code, err) == (1, "")


def test_cards_beyond_a_cup_whose_markers_are_not_certain_are_reported(capsys):
    """The second photo of the rendered benchmark's table 17 (2.4 px/mm, tilted 37 degrees,
    barrel k1 -0.06), read alone: a cup lies on its side over the cards beyond [-3, 4],
    and beyond it S17 on [-7, 6] and S18 on [-7, 7] lie in view, no neighbour of theirs
    read. Their markers read 0.85 (0.07 over the next code) and 0.74 (0.14 over), below
    the certainty a reading needs, but each puts its card exactly on a cell whose face
    shows that card: both cells are reported unread. The cup's colour is near the wooden
    table's and it covers no edge of a card read, but 61 % of [-6, 6], next to S17, is
    unlike the table in a way no lamp's reflection or paper is: that cell is named
    covered and the cup followed from it over [-5, 5], [-6, 7] and [-4, 4], where S33,
    S25 and S57 lie under it and S67 beside it (before: those four neither read nor
    reported). The six other cells named lie under the cup or its shadow; no card is
    read wrong."""
    shot, reading, outcome = _judged("cards-beyond-a-cup")
    truth = _truth(shot)
    assert (truth[(-7, 6)], truth[(-7, 7)]) == (("S17", 3), ("S18", 2))
    assert len(reading.placed) == 19
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert reading.unread == [(-7, 6), (-7, 7)]
    covered = [(-6, 6), (-6, 7), (-7, 8), (-6, 8), (-5, 5), (-5, 4), (-5, 6), (-5, 7),
               (-4, 4), (-4, 5)]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-covered", c) for c in covered]
    assert reading.findings[0].message.startswith(
        "something lies over the table at [-6, 6] (61% of that cell is neither the table, "
        "nor a lamp's reflection on it, nor a card)")
    assert set(truth) - set(reading.placed) == {(-7, 6), (-7, 7), (-6, 6), (-6, 7),
                                                 (-5, 5), (-4, 4)}
    assert not outcome.silent_wrong and outcome.wrong == [] and outcome.phantom == []
    assert outcome.false_unread == []
    assert outcome.missed == ["S17@[-7, 6] rot 3 fully visible, reported unread"]
    code, out, err = _score(capsys, "cards-beyond-a-cup")
    assert (code, err) == (1, "")
    assert out["photo"]["unread"] == [[-7, 6], [-7, 7]]


def test_a_card_lifted_off_its_cell_is_reported(capsys):
    """The second photo of the rendered benchmark's table 25 (2.2 px/mm, tilted 39 degrees,
    barrel k1 -0.045), read alone: S35 on [1, 1] is lifted 7 mm off the table, so its
    marker, read 0.79 (0.12 over the next code: below certainty), is seen 8 mm off the
    cell's centre (a flat card's is within 6 mm) and its face does not match at the cell.
    The marker still puts S35 on [1, 1], turned as it lies, and its face shows where the
    marker puts it: [1, 1] is reported unread (before: neither read nor reported). The
    44 cards read are right; the two other unread cells hold cards under a lamp."""
    shot, reading, outcome = _judged("a-card-lifted-off-its-cell")
    truth = _truth(shot)
    assert truth[(1, 1)] == ("S35", 0)
    assert len(reading.placed) == 44
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert reading.unread == [(0, -5), (1, -6), (1, 1)]
    assert reading.findings == []
    lifted = [e for e in reading.log if e["cell"] == (1, 1) and e["how"] == "unread"]
    assert lifted[0]["why"] == ("a marker not read with certainty, the card's face there "
                                "(8 mm off: lifted or curled)")
    assert set(truth) - set(reading.placed) == set(reading.unread)
    assert not outcome.silent_wrong and outcome.wrong == [] and outcome.phantom == []
    assert outcome.false_unread == []
    code, out, err = _score(capsys, "a-card-lifted-off-its-cell")
    assert (code, err) == (1, "")
    assert out["photo"]["unread"] == [[0, -5], [1, -6], [1, 1]]


def test_a_cup_the_colour_of_the_table_is_found_beside_the_cards(capsys):
    """The second photo of the rendered benchmark's table 27 (2.1 px/mm, tilted 10 degrees),
    read alone: a cup on the wooden table, its colour near the table's, lies over S05 on
    [0, 5] and S15 on [1, 5] but over no edge of a card read. 57 % of [0, 5], next to the
    cards, is unlike the table in a way no lamp's reflection or paper is: it is named
    covered, and the cup followed from it over the cells it covers (S15 wholly under it).
    Before, neither card was read or reported and the photo said nothing of the cup. The
    57 cards read are right; the six cells named that hold no card lie under the cup or
    its shadow."""
    shot, reading, outcome = _judged("a-cup-the-colour-of-the-table")
    truth = _truth(shot)
    assert (truth[(0, 5)], truth[(1, 5)]) == (("S05", 4), ("S15", 0))
    assert len(reading.placed) == 57
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert reading.unread == [(-1, -2)]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-covered", c) for c in [(0, 5), (0, 6), (1, 4), (1, 5), (1, 6), (2, 4),
                                       (2, 5), (2, 6)]]
    assert reading.findings[0].message.startswith(
        "something lies over the table at [0, 5] (57% of that cell is neither the table, "
        "nor a lamp's reflection on it, nor a card)")
    assert set(truth) - set(reading.placed) == {(-1, -2), (0, 5), (1, 5)}
    assert outcome.missed == ["S38@[-1, -2] rot 2 fully visible, reported unread"]
    assert not outcome.silent_wrong and outcome.wrong == [] and outcome.phantom == []
    code, out, err = _score(capsys, "a-cup-the-colour-of-the-table")
    assert (code, err) == (1, "")


def test_a_card_the_frame_cuts_with_little_of_its_paper_shown_is_named(capsys):
    """The second photo of the rendered benchmark's table 19 (2.9 px/mm, tilted 6 degrees),
    read alone: the photo's edge cuts S60 on [0, 5] (65 % of the cell in the photo, its
    marker beyond the edge). The part shown looks much like a card's face (0.72) with a
    card's light and shade, though only 40 % of it is the cards' paper (0.5 was needed):
    it is named out of frame (before: neither read nor reported). The 43 cards read are
    right; the two unread lie under a lamp's reflection."""
    shot, reading, outcome = _judged("frame-cuts-a-card-again")
    truth = _truth(shot)
    assert truth[(0, 5)] == ("S60", 2)
    assert len(reading.placed) == 43
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert reading.unread == [(2, -5), (0, -6)]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-out-of-frame", (-1, 5)), ("photo-out-of-frame", (0, 5))]
    assert reading.findings[1].message.startswith(
        "the photo ends across [0, 5] (65% of it in the photo, and that part looks like a "
        "card)")
    assert set(truth) - set(reading.placed) == {(2, -5), (0, -6), (-1, 5), (0, 5)}
    assert outcome.missed == [] and outcome.wrong == [] and outcome.phantom == []
    assert outcome.false_unread == [] and not outcome.silent_wrong
    code, out, err = _score(capsys, "frame-cuts-a-card-again")
    assert (code, err) == (1, "")


def test_a_hand_the_colour_of_the_wood_is_found_by_its_smoothness(capsys):
    """The second photo of the rendered benchmark's table 2 (1.8 px/mm, barrel k1 -0.07),
    read alone: a hand lies over S03 on [1, -2], S05 on [1, -1], S38 on [2, -1] (wholly)
    and S06 on [2, 0], its skin the wooden table's colour (0-37 % of a cell unlike it), and
    over no edge of a card read but [0, -1]'s, on the side away from it. The table's grain
    (photo.table: the photo's fine detail against the free table's round each place) is
    gone under the skin: 54 % of [1, -1], next to the station, is smooth where the wood
    shows its grain (the free cells next to cards of the rendered photos without an
    occluder: at most 41 %), so it is named covered and the hand followed from it. Each of
    the five cards under or beside the hand is named on its own cell (before: none, and the
    photo's only finding named an empty cell); S67 on [1, 0], its face showing beside the
    fingers (9 % covered), is named as a card the hand reaches. The 9 cards read are
    right; [2, -2], [3, -1] and [3, 0] under the arm hold no card."""
    shot, reading, outcome = _judged("a-hand-the-colour-of-the-wood")
    truth = _truth(shot)
    assert [truth[c] for c in [(1, -2), (1, -1), (1, 0), (2, -1), (2, 0)]] == [
        ("S03", 0), ("S05", 0), ("S67", 5), ("S38", 5), ("S06", 0)]
    assert len(reading.placed) == 9 and reading.unread == []
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-covered", c) for c in [(-1, 0), (1, -1), (1, -2), (1, 0), (2, -2), (2, -1),
                                       (2, 0), (3, -1), (3, 0)]]
    assert reading.findings[1].message.startswith(
        "something lies over the table at [1, -1] (54% of that cell is smooth where the "
        "table shows its grain or weave)")
    assert reading.findings[5].message.startswith(
        "[2, -1] is not the bare table (98% of it smooth where the table shows its grain) "
        "and no card was read on it: whatever lies over [1, -1] reaches it")
    assert set(truth) - set(reading.placed) == {(1, -2), (1, -1), (1, 0), (2, -1), (2, 0)}
    assert outcome.missed == [] and outcome.wrong == [] and outcome.phantom == []
    assert not outcome.silent_wrong
    assert [v for v in outcome.verdicts if v.by_neighbour] == []  # each named on its own cell
    code, out, err = _score(capsys, "a-hand-the-colour-of-the-wood")
    assert (code, err) == (1, "")


def test_a_hand_on_a_plain_grey_table_is_followed_by_its_own_colour(capsys):
    """The second photo of the rendered benchmark's table 11 (2.4 px/mm, tilted 36
    degrees), read alone: a hand lies over S43 on [-7, 1], S26 on [-7, 2] and S70 on
    [-8, 2] (75-85 % covered) and over a corner of S66 on [-6, 0], on a plain grey table.
    Its pale skin is 0.035 from the grey's colour (chromaticity), under the 0.05 that counts
    as unlike on every table (4-6 % of those cells), but 13 of this table's tight spreads
    from it. Its colour is learned where it lies over the edge of the card on [-5, 1]
    (photo.table.occluder) and followed over the free table by likeness to it: each of the
    four cards is named on its own cell (before, S70 was neither read nor reported and the
    other three named only through [-6, 1]). [-8, 1] and [-5, 0], under the wrist and the
    fingers' side, hold no card. S60 on [-3, 3], lifted 7 mm, its face foreshortened on
    the table's plane (0.37), its marker square read as another code (S29, 0.57 / 0.04),
    its paper no more than the grey table's, is looked at on the planes above the table
    where the fitted camera's pose puts them: 6 mm up its face matches S60 turned 1, as it
    lies, 0.90, so [-3, 3] is reported unread, a card lifted off it (before: neither read
    nor reported). Nothing is said of which card: another face matches within 0.07."""
    shot, reading, outcome = _judged("a-hand-on-a-plain-grey-table")
    truth = _truth(shot)
    assert [truth[c] for c in [(-7, 1), (-7, 2), (-8, 2), (-6, 0), (-3, 3)]] == [
        ("S43", 1), ("S26", 2), ("S70", 5), ("S66", 0), ("S60", 1)]
    assert (-8, 1) not in truth and (-5, 0) not in truth
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert reading.unread == [(4, -5), (-3, 3)]
    lifted = [e for e in reading.log if e["cell"] == (-3, 3) and e["how"] == "unread"]
    assert [(e["raised_mm"], e["raised_card"], e["raised_rot"], round(e["raised_art"], 2),
             e["why"]) for e in lifted] == [
        (6.0, "S60", 1, 0.9, "its face shows 6 mm above the table: a card lifted off it")]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-between-cells", (-4, -1)),
        *[("photo-covered", c) for c in [(-6, 1), (-7, 1), (-8, 1), (-8, 2), (-7, 2), (-6, 0),
                                         (-5, 0)]]]
    assert reading.findings[4].message.startswith(
        "[-8, 2] is not the bare table (75% of it unlike the table there) and no card was "
        "read on it: whatever lies over [-7, 1] reaches it")
    assert outcome.missed == [] and outcome.false_unread == []
    assert outcome.wrong == [] and outcome.phantom == []
    assert not outcome.silent_wrong  # it exits 1 for the hand
    assert [v for v in outcome.verdicts if v.by_neighbour] == []  # each named on its own cell
    code, out, err = _score(capsys, "a-hand-on-a-plain-grey-table")
    assert (code, err) == (1, "")
    assert out["photo"]["unread"] == [[-3, 3], [4, -5]]


def test_a_hand_wholly_over_a_card_on_striped_wood_is_found_by_its_broad_smoothness(capsys):
    """The second photo of the rendered benchmark's table 29 (2.4 px/mm, tilted 29 degrees),
    read alone: a hand lies wholly over S49 on [4, -3], on a light wood of broad stripes.
    Its skin has the wood's colour and light, and no less of the photo's fine detail than
    that wood's soft grain, so it was found only where it covers the edge of the card on
    [2, -1], and S49 named only through the covered cells round it. The wood's stripes, a
    few millimetres wide, show in the view from above (photo.table: its light's departure
    from a Gaussian of 3 mm, over 10 mm), the skin's even shading does not: 85 % of [4, -3]
    is smooth so, and the hand is followed over it from [3, -2]: S49 is named on its own
    cell. The arm beyond it is followed too ([5, -3], [6, -4], [6, -3], [7, -4]: no card
    there, each a cell a card could lie under). The 39 cards read are right."""
    shot, reading, outcome = _judged("a-hand-wholly-over-a-card")
    truth = _truth(shot)
    assert [truth[c] for c in [(2, -2), (3, -2), (4, -3)]] == [("S33", 3), ("S31", 2),
                                                                ("S49", 2)]
    assert len(reading.placed) == 39
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert reading.unread == [(0, -2), (-2, -2), (-2, -3)]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-covered", c) for c in [(1, -1), (2, -2), (3, -2), (4, -3), (5, -3), (6, -4),
                                       (6, -3), (7, -4)]]
    assert reading.findings[3].message.startswith(
        "[4, -3] is not the bare table (85% of it smooth where the table shows its grain) and "
        "no card was read on it: whatever lies over [3, -2] reaches it")
    assert set(truth) - set(reading.placed) == {(0, -2), (-2, -2), (-2, -3), (2, -2), (3, -2),
                                                (4, -3)}
    assert outcome.missed == ["S47@[0, -2] rot 1 fully visible, reported unread"]
    assert outcome.wrong == [] and outcome.phantom == [] and outcome.false_unread == []
    assert not outcome.silent_wrong
    assert [v for v in outcome.verdicts if v.by_neighbour] == []  # each named on its own cell
    code, out, err = _score(capsys, "a-hand-wholly-over-a-card")
    assert (code, err) == (1, "")


def test_a_white_cup_of_coffee_on_a_checked_cloth_is_found_by_its_dark_brown(capsys):
    """The second photo of the rendered benchmark's table 24 (2.5 px/mm, tilted 8 degrees),
    read alone: a white cup of coffee stands wholly over S16 on [5, -5], beside the cards,
    on a red-and-blue checked cloth. The cup's white and the coffee's brown both look like
    the red squares' colour moved toward white's, as a lamp's reflection does (85 % of the
    cell unlike the cloth, 17 % otherwise); but the coffee is darker than the cloth there,
    which no lamp's light makes it (photo.table: ``dimmer``): 53 % of the cell is unlike
    the table in a way no reflection is, so it is named covered and the cup followed over
    the cells round it. Before, S16 was neither read nor reported."""
    shot, reading, outcome = _judged("coarse-far-cards-again")
    truth = _truth(shot)
    assert truth[(5, -5)] == ("S16", 5)
    assert len(reading.placed) == 61
    assert all(truth[c] == (p.card, p.rot) for c, p in reading.placed.items())
    assert reading.unread == [(-2, 1), (-2, 2), (-2, 4)]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-covered", c) for c in [(5, -5), (4, -5), (5, -6), (5, -4), (6, -7), (6, -6),
                                       (6, -5), (7, -6)]]
    assert reading.findings[0].message.startswith(
        "something lies over the table at [5, -5] (53% of that cell is neither the table, "
        "nor a lamp's reflection on it, nor a card)")
    assert set(truth) - set(reading.placed) == {(-2, 1), (-2, 2), (-2, 4), (5, -5)}
    assert outcome.missed == [] and outcome.wrong == [] and outcome.phantom == []
    assert not outcome.silent_wrong
    code, out, err = _score(capsys, "coarse-far-cards-again")
    assert (code, err) == (1, "")


# --- two photos of one table -------------------------------------------------------------------


@functools.cache
def _pair(first: str, second: str) -> tuple[Any, list[Any], list[Any]]:
    """Two photos of one table read each on its own and merged as ``pnp-score --photo A
    --photo B`` merges them (with each photo's evidence): the merged reading, the two
    readings and their working photos."""
    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for
    from photo.merge import evidence_of, merge

    defs = load_definitions("orbitus", None)
    reader = reader_for("orbitus", marker_map("orbitus", defs), defs)
    read = [reader.read_bytes(_rendered(n).jpeg, f"{n}.jpg") for n in (first, second)]
    readings, works = [r for r, _ in read], [w for _, w in read]
    merged = merge("orbitus", readings, [f"{first}.jpg", f"{second}.jpg"],
                   evidence_of(reader, readings, works))
    return merged, readings, works


def test_two_photos_read_together_a_card_neither_reads_alone(capsys):
    """Table 24 of the rendered benchmark photographed twice (``--pairs``). In the first
    photo S16 on [5, -5] is whole but at 1.5 px/mm: its face matches S16 turned 5 best
    (0.76, S32 0.71) and its marker, read where the camera first put it, only 0.67, so it
    is reported unread; in the second it lies wholly under the occluder. Merged, the first
    photo's evidence is asked for again under its final camera: the marker reads S16
    turned 5 at 0.92, 0.12 over every other code, its face agrees, and the second photo
    contradicts neither: S16 is read by the photos together. All 65 cards are read,
    exactly (62 fully visible in either photo, 3 partly); nothing is left unread; the
    findings left are four cells the first photo's occluder covers (two beside cards, two
    more found by following it over the table), one at the frame's edge, and the seven
    empty cells round [5, -5] the second photo's cup of coffee covers, found since its
    dark brown was told from a lamp's light (a cell covered in one photo is not answered
    by another photo finding it empty: the merge takes only a reading as an answer)."""
    a, b = _rendered("coarse-far-cards"), _rendered("coarse-far-cards-again")
    truth = _truth(a)
    assert truth[(5, -5)] == ("S16", 5)
    merged, (ra, rb), _ = _pair("coarse-far-cards", "coarse-far-cards-again")
    assert (5, -5) in ra.unread and (5, -5) not in rb.placed
    assert merged.placed[(5, -5)].how == "photos together"
    visible = {tuple(p.cell) for s in (a, b) for p in s.pieces
               if p.kind == "sector" and p.cell is not None and p.unseen == 0.0}
    assert len(visible) == 62 and len(truth) == 65
    assert {c: (p.card, p.rot) for c, p in merged.placed.items()} == truth
    assert merged.unread == []
    assert [(f.rule, f.cell) for f in merged.findings] == [
        ("photo-covered", (-3, 2)), ("photo-covered", (-2, 0)), ("photo-covered", (-4, 0)),
        ("photo-covered", (-3, -1)), ("photo-out-of-frame", (-1, 8))] + [
        ("photo-covered", c) for c in [(4, -5), (5, -6), (5, -4), (6, -7), (6, -6), (6, -5),
                                       (7, -6)]]
    code, out, err = _run(capsys, [
        "orbitus", "--photo", str(FOLDER / "coarse-far-cards.jpg"),
        "--photo", str(FOLDER / "coarse-far-cards-again.jpg"), "--players", _players(a),
        "--json"])
    assert (code, err) == (1, "")
    assert out["photo"]["how"]["[5, -5]"] == "photos together"
    assert out["photo"]["unread"] == [] and out["photo"]["read"] == 65


def test_the_debug_image_of_two_photos_shows_the_glare_of_both():
    """Each photo's debug image draws what the photos read together; the cards under glare
    in this photo are hatched yellow, those under glare only in the other outlined in
    yellow where they lie in this one, and the legend says how many."""
    from photo.merge import shown_in
    from photo.orbitus import draw, legend

    merged, readings, works = _pair("coarse-far-cards", "coarse-far-cards-again")
    ra, rb = readings
    assert set(merged.glare) == set(ra.glare) | set(rb.glare)
    first = shown_in("orbitus", merged, readings, 0)
    assert set(first.glare) == set(ra.glare)
    assert sorted(first.glare_elsewhere) == sorted(set(rb.glare) - set(ra.glare))
    assert len(first.glare_elsewhere) == 19
    assert ("glare on 19 card(s) in the other photo(s) (yellow outline)", (40, 230, 250)) \
        in legend(first)
    # the card read from both photos together is drawn as read, not as unread
    assert (5, -5) in first.placed and (5, -5) not in first.unread
    assert ("1 card(s) read by the photos together (marker and face)", (230, 120, 40)) \
        in legend(first)
    second = shown_in("orbitus", merged, readings, 1)
    assert sorted(second.glare_elsewhere) == sorted(set(ra.glare) - set(rb.glare))
    # the outlines are drawn: the image differs from one drawn without them
    plain = draw(works[0].bgr, first)
    first.glare_elsewhere = {}
    assert (draw(works[0].bgr, first) != plain).any()


def test_a_curled_card_is_read_from_its_marker_squares_in_both_photos():
    """Table 13 of the rendered benchmark photographed twice (``--pairs``, 1.6 and 1.7
    px/mm): S54 on [1, -3] is curled 5 mm, so its marker lies off the table's plane where
    the camera looks for it (read there, 0.54). Each photo finds the square itself, where
    it lies: S54's code turned 3, 0.79 and 0.75, 0.13 over every other code in both, not
    certain enough (0.8) in either to place it alone; the first photo's face matches S54
    turned 3 best (0.72). Together they read it; the table is read whole (25 cards,
    exactly), with the one finding the second photo makes: S60, read exactly in the
    first, lies between rotations in the second."""
    a = _rendered("coarse-curled-card")
    truth = _truth(a)
    assert truth[(1, -3)] == ("S54", 3)
    merged, (ra, rb), _ = _pair("coarse-curled-card", "coarse-curled-card-again")
    assert ra.unread == [(1, -3)] and (1, -3) not in rb.placed
    assert merged.placed[(1, -3)].how == "photos together"
    assert {c: (p.card, p.rot) for c, p in merged.placed.items()} == truth
    assert len(truth) == 25 and merged.unread == []
    assert [(f.rule, f.cell) for f in merged.findings] == [("photo-between-rotations", (-3, 3))]


def test_a_hand_the_colour_of_a_checked_cloth_is_followed_over_the_table(capsys):
    """Photo 14 of the rendered benchmark (2.0 px/mm, tilted 32 degrees): a hand and arm
    over a cream-and-blue checked cloth, the hand the colour of the cream squares, so no
    colour of it is strange to the table. The cloth's repeat is learned from the free table
    (its checks' diagonal, 58 mm each way), and the arm found where the cloth would be blue:
    it is followed from the three cells found covered at the hand's fingers over the cells
    it lies on, as far as the table reaches (one cell beyond the farthest card), and each is
    named covered. All 12 cards not read lie on cells named (before: six under and beyond
    the arm were neither read nor named); the 37 read are right. The hand's own colour,
    learned where it lies over the cards' edges (photo.table.occluder), counts as unlike
    the table too: [0, -5] and [0, -3] next to the cards are then 60 % and 69 % unlike it
    and named first, and three empty cells beside the arm, [-2, -3], [-1, -3] and
    [-1, -2] (20-49 %), are named with it; with the five under the arm, the eight cells
    named that hold no card lie under or beside the arm, in a photo that exits 1 for it."""
    shot, reading, outcome = _judged("hand-on-a-checked-cloth")
    truth = _truth(shot)
    assert len(truth) == 49 and len(reading.placed) == 37
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        c: truth[c] for c in reading.placed}
    assert reading.unread == [(0, -1)]
    named = [f.cell for f in reading.findings]
    assert {f.rule for f in reading.findings} == {"photo-covered"}
    assert named == [(0, -2), (1, -3), (1, -2), (0, -5), (0, -3), (-1, -5), (-1, -6),
                     (-2, -6), (-2, -7), (-1, -8), (-1, -7), (-1, -4), (-2, -3), (-1, -3),
                     (-1, -2), (0, -7), (0, -6), (0, -4), (2, -3)]
    assert set(truth) - set(reading.placed) == {*named, (0, -1)} - {
        (-2, -6), (-2, -7), (-1, -8), (-1, -7), (0, -6), (-2, -3), (-1, -3), (-1, -2)}
    assert outcome.missed == [] and outcome.wrong == [] and outcome.phantom == []
    assert outcome.false_unread == [] and not outcome.silent_wrong
    assert reading.findings[3].message == (
        "something lies over the table at [0, -5] (60% of that cell is neither the table, "
        "nor a lamp's reflection on it, nor a card), so a card there could not be seen; "
        "take it away and photograph again, or write that cell into the layout by hand")
    assert reading.findings[12].message == (
        "[-2, -3] is not the bare table (20% of it unlike the table there) and no card was "
        "read on it: whatever lies over [-1, -4] reaches it, so a card there could not be "
        "seen; take it away and photograph again, or write that cell into the layout by "
        "hand")
    code, out, err = _score(capsys, "hand-on-a-checked-cloth")
    assert (code, err) == (1, "") and out["photo"]["read"] == 37
    assert [v["cell"] for v in out["violations"] if v["rule"] == "photo-covered"] == [
        list(c) for c in named]


def test_the_checked_cloths_repeat_is_learned_and_the_arm_found_on_it():
    """The table model of that photo (photo.table): the cloth repeats itself along its
    checks' diagonals, 58 mm each way; every free cell two cells or more from what the
    reading names (the hand and arm) is at most 14 % unlike the table, each empty cell the
    arm lies on 20 % or more."""
    import cv2
    import numpy as np

    from photo import table
    from rules import hexgeo

    shot, reading, _ = _judged("hand-on-a-checked-cloth")
    cam = reading.camera
    assert cam is not None
    bgr = cv2.imdecode(np.frombuffer(shot.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert bgr.shape[:2] == (1332, 1776)  # read at its own size

    def hexagon(cell: tuple[int, int], grow: float = 1.0) -> np.ndarray:
        return np.array(hexgeo.corners(hexgeo.centre(cell, reading.flats),
                                       reading.flats * grow))

    # as the reader sees it: the table within its reach (one cell beyond the farthest card
    # read or seen), the cards and the three cells found covered first left out
    cards = set(reading.placed) | set(reading.unread)
    reach = max(hexgeo.distance(c, (0, 0)) for c in cards) + 1
    cells = [(q, r) for q in range(-reach, reach + 1) for r in range(-reach, reach + 1)
             if hexgeo.distance((q, r), (0, 0)) <= reach]
    centres = np.array([hexgeo.centre(c, reading.flats) for c in cells])
    low = centres.min(axis=0) - reading.flats
    high = centres.max(axis=0) + reading.flats
    look = table.view(bgr, cam, (float(low[0]), float(low[1])), (float(high[0]),
                                                                  float(high[1])))
    first = [f.cell for f in reading.findings[:3]]
    assert first == [(0, -2), (1, -3), (1, -2)]
    named = {f.cell for f in reading.findings} | set(reading.unread)
    taken = set(reading.placed) | named | {(0, 0)}
    mask = np.zeros(look.seen.shape, np.uint8)
    for cell in cards | {(0, 0), *first}:
        pts = np.array([look.pixel(p) for p in hexagon(cell, 1.15)])
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    table.learn(look, look.seen & (mask == 0))
    assert look.lattice is not None
    assert sorted(np.round(np.abs(look.lattice)).ravel().tolist()) == [58.0] * 4
    away = []
    for q in range(-7, 8):
        for r in range(-7, 8):
            cell = (q, r)
            if cell in taken or min(hexgeo.distance(cell, n) for n in named) < 2:
                continue
            unlike, seen = look.share_unlike(hexagon(cell))
            if seen >= 0.5:
                away.append(unlike)
    assert len(away) >= 40 and max(away) <= 0.14
    for cell in [(-2, -6), (-2, -7), (-1, -8), (-1, -7), (0, -6)]:
        assert look.share_unlike(hexagon(cell))[0] >= 0.2, cell


def test_cards_under_a_hands_fingers_and_a_lamps_reflection_are_named(capsys):
    """Photo 5 of the rendered benchmark (3.1 px/mm, a lamp aimed, a hand over the green
    felt): S04 on [-2, 5] in the fingers' shadow and the lamp's reflection, S01 on [-1, 5]
    37 % under the hand and washed out, S68 on [-2, 8] 69 % under it: none can be read,
    and each looks too little like a card to be reported unread by its face (where empty
    cells look as much), but none is the felt: the hand is followed over the table from
    the cells found covered at the edges of the cards read (and from the three next to the
    cards, [-4, 9], [-3, 8] and [-2, 6], 89-100 % unlike the felt in a way no reflection
    is), and every cell it reaches that is not the bare table is named covered (before,
    those three were neither read nor named). The 45 cards read are right; the four
    washed out are reported unread."""
    shot, reading, outcome = _judged("hand-over-cards-under-glare")
    truth = _truth(shot)
    assert len(truth) == 55 and len(reading.placed) == 45
    assert {c: (p.card, p.rot) for c, p in reading.placed.items()} == {
        c: truth[c] for c in reading.placed}
    assert sorted(reading.unread) == [(-2, 3), (-2, 4), (-1, 3), (-1, 4)]
    assert [(f.rule, f.cell) for f in reading.findings] == [
        ("photo-covered", c) for c in [(-6, 9), (-5, 8), (-3, 7), (-4, 9), (-3, 8), (-2, 6),
                                       (-5, 10), (-4, 10), (-3, 9), (-2, 5), (-2, 7), (-2, 8),
                                       (-1, 5), (-1, 6)]]
    assert (truth[(-2, 5)], truth[(-1, 5)], truth[(-2, 8)]) == (("S04", 3), ("S01", 0),
                                                                ("S68", 4))
    assert set(truth) - set(reading.placed) - set(reading.unread) <= {
        f.cell for f in reading.findings}
    assert outcome.missed == [] and outcome.wrong == [] and outcome.phantom == []
    assert outcome.false_unread == [] and not outcome.silent_wrong
    code, out, err = _score(capsys, "hand-over-cards-under-glare")
    assert (code, err) == (1, "") and out["photo"]["read"] == 45


def test_satellites_too_blurred_to_read_are_each_named(capsys):
    """Photo 9 of the rendered Satellites benchmark (1.2 MP, 2.0 px/mm at the middle,
    tilted 31 degrees, a lamp aimed): the far satellites lie at 1.4-1.7 px/mm, their
    colours too blurred to show a satellite (0-3.5 % of the disc). Six of them, the blue
    ones and R3 on c10 a third under the reflection, are read where their marker searched
    in the cell and their printed face each name the same satellite with certainty
    (markers 0.81-0.93 and 0.13-0.26 above the next code, faces 0.65-0.85 and 0.15-0.29
    above the next): B4 on a8 at 1.45 px/mm among them. R2 on c2, its marker under the
    lamp's reflection (0.69, 0.06 above the next: not certain), is named photo-covered,
    with words that claim no more than the reader knows (a hand, a cup, or a satellite too
    blurred); no empty cell is named, every other satellite is read."""
    from photo.satellites import cell_name

    shot, reading, outcome = _judged("satellites-too-blurred")
    truth = {tuple(p.cell): p for p in shot.pieces if p.kind == "token"}
    named = [cell_name(f.cell) for f in reading.findings]
    assert named == ["c2"]
    assert reading.findings[0].rule == "photo-covered"
    assert truth[(1, 2)].card == "R2" and truth[(1, 2)].px_per_mm < 1.7
    assert reading.findings[0].message == (
        "c2 cannot be seen: 34% of the cell looks neither like the board as printed nor "
        "like a satellite (a hand or a cup over it, or a satellite too blurred or small in "
        "the photo to tell); take away what covers it, or photograph the board closer, and "
        "try again")
    pale = {cell_name(c): t.text for c, t in reading.tokens.items() if t.how == "marker and face"}
    assert pale == {"b3": "B1", "a5": "B3", "a6": "B3", "b7": "B1", "a8": "B4", "c10": "R3"}
    log = {cell_name(e["cell"]): e for e in reading.log}
    assert {c: (round(log[c]["search"], 2), round(log[c]["search_margin"], 2),
                round(log[c]["face_score"], 2), round(log[c]["face_margin"], 2))
            for c in pale} == {
        "b3": (0.88, 0.26, 0.84, 0.18), "a5": (0.87, 0.24, 0.83, 0.18),
        "a6": (0.91, 0.24, 0.82, 0.16), "b7": (0.92, 0.23, 0.85, 0.19),
        "a8": (0.93, 0.13, 0.85, 0.29), "c10": (0.81, 0.13, 0.65, 0.15)}
    assert all(truth[c].px_per_mm < 1.7 for c in reading.tokens
               if reading.tokens[c].how == "marker and face")
    assert {c: t.text for c, t in reading.tokens.items()} == {
        c: p.card for c, p in truth.items() if c != (1, 2)}
    assert reading.unread == []
    assert outcome.wrong == [] and outcome.phantom == [] and not outcome.silent_wrong
    assert [v for v in outcome.verdicts if v.verdict == "missed"] == []
    code, out, err = _score(capsys, "satellites-too-blurred")
    assert (code, err) == (1, "")
    assert [(v["rule"], v["cell"]) for v in out["violations"]] == [("photo-covered", "c2")]


def test_pale_blue_satellites_are_read_by_their_marker_and_face(capsys):
    """Photo 19 of the rendered Satellites benchmark (1.4 MP, 2.0 px/mm, barrel k1 -0.06,
    no lamp aimed): B2 on d4 (2.04 px/mm) and B1 on i7 (1.92 px/mm) are blurred until
    their blue rings show hardly any blue (2 % and 0.5 % of the disc; 8 % is asked of a
    satellite's cell) and their cells look unlike the board (47 % and 43 %): they were
    named photo-covered, not read. Their cells' corners, beyond a satellite's disc, are
    the board (11 % and 14 % unlike it), so their markers are searched: each certain of
    its satellite (0.88 and 0.92, 0.25 above the next code), and each face, compared
    inside the rim, names the same satellite on its own (0.88 and 0.88, 0.19 and 0.22
    above the next face): both read. Every satellite read right, nothing named: the
    photo scores exit 0."""
    from photo.satellites import cell_name

    shot, reading, outcome = _judged("satellites-pale-blue")
    truth = {tuple(p.cell): p for p in shot.pieces if p.kind == "token"}
    assert {c: t.text for c, t in reading.tokens.items()} == {
        c: p.card for c, p in truth.items()}
    assert {cell_name(c): t.text for c, t in reading.tokens.items()
            if t.how == "marker and face"} == {"d4": "B2", "i7": "B1"}
    assert reading.findings == [] and reading.unread == []
    log = {cell_name(e["cell"]): e for e in reading.log}
    assert {c: tuple(round(log[c][k], 2) for k in (
        "coloured", "unlike", "corners_unlike", "search", "search_margin", "face_score",
        "face_margin")) for c in ("d4", "i7")} == {
        "d4": (0.02, 0.47, 0.11, 0.88, 0.25, 0.88, 0.19),
        "i7": (0.0, 0.43, 0.14, 0.92, 0.25, 0.88, 0.22)}
    assert outcome.wrong == [] and outcome.phantom == [] and not outcome.silent_wrong
    code, out, err = _score(capsys, "satellites-pale-blue")
    assert (code, err) == (0, "") and out["photo"]["unread"] == []
    assert out["violations"] == []


def test_a_three_under_glare_is_read_where_its_face_and_a_ones_differ(capsys):
    """Photo 4 of the rendered Satellites benchmark (3.1 px/mm, tilted 39 degrees, a lamp
    aimed): B3 on h2 lies under the lamp's reflection (61 % of the cell found under it),
    its marker 97 % washed out (its best code R3's, 0.71: no vote under a reflection). Its
    face inside the rim matches B3 0.80, only 0.09 above B1 (0.12 is asked): many pixels
    of the two faces are alike (the marker's frame, the white). Where they differ (498
    pixels: the 3's strokes and the 1's, the pips, the marker's squares), by their light
    and shade relative to the surroundings, which takes the reflection's slow light out,
    the photo correlates with B3 0.32 and with B1 -0.23: B3 is read (it was reported
    unread). Every satellite read, nothing named: exit 0."""
    from photo.satellites import cell_name

    shot, reading, outcome = _judged("satellites-three-under-glare")
    truth = {tuple(p.cell): p for p in shot.pieces if p.kind == "token"}
    assert truth[(1, 7)].card == "B3" and truth[(1, 7)].marker_glare >= 0.95
    assert {c: t.text for c, t in reading.tokens.items()} == {
        c: p.card for c, p in truth.items()}
    assert {cell_name(c): t.how for c, t in reading.tokens.items() if t.how != "marker"} == {
        "h2": "face", "i2": "face", "h3": "face"}
    h2 = next(e for e in reading.log if e["cell"] == (1, 7))
    assert (h2["face"], round(h2["face_score"], 2), round(h2["face_margin"], 2),
            h2["face_marker"], round(h2["glare"], 2)) == ("B3", 0.8, 0.09, "R3", 0.61)
    assert h2["face_duels"] == [("B1", 498, 0.32, -0.231)]
    assert reading.findings == [] and reading.unread == []
    assert outcome.wrong == [] and not outcome.silent_wrong
    code, out, err = _score(capsys, "satellites-three-under-glare")
    assert (code, err, out["violations"]) == (0, "", [])


def test_the_duel_of_two_faces_reads_the_nearer_one_way_only():
    """The duel of two satellites' faces decides one way, with a margin: B1's printed face
    washed toward white across it (by up to 80 %, a reflection's slow light) and blurred,
    against B3's at the same place, is B1 by more than the duel asks; asked the other way
    round (B3 against B1), B3 is not read. (The rendered photos whose best face was not
    the satellite there, photo 13's B2 and photo 17's R4 under reflections, are not
    committed fixtures: their duels, -0.01 and 0.16, are in docs/photo.md.)"""
    import cv2
    import numpy as np

    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for
    from photo.satellites import DUEL, FACE_INNER, FACE_LEVEL

    defs = load_definitions("satellites", None)
    reader = reader_for("satellites", marker_map("satellites", defs), defs)
    n = reader._faces_turned()["B1"][0].shape[0]
    c = (n - 1) / 2.0
    yy, xx = np.mgrid[0:n, 0:n]
    disc = np.hypot(xx - c, yy - c) <= FACE_INNER * FACE_LEVEL
    # B1's face under a reflection: its own print, washed toward white, against B1 and
    # against B3 at the same place: B1 is the nearer by the margin, B3 is not
    face = reader._faces_turned()["B1"][0]
    size = n + 24
    patch = np.full((size, size), 255.0, np.float32)
    patch[12:12 + n, 12:12 + n] = face
    ramp = np.linspace(0.0, 1.0, size, dtype=np.float32)[None, :]
    washed = patch * (1.0 - 0.8 * ramp) + 255.0 * 0.8 * ramp  # toward white, left to right
    washed = cv2.GaussianBlur(washed, (0, 0), 1.5)
    count, one, three = reader._duel(washed, disc, ("B1", (0, 12, 12)), ("B3", (0, 12, 12)))
    assert count >= 150 and one >= DUEL[0] and one - three >= DUEL[1]
    count, three, one = reader._duel(washed, disc, ("B3", (0, 12, 12)), ("B1", (0, 12, 12)))
    assert three < DUEL[0] and three - one < 0


def test_a_cup_over_satellites_cells_is_named_covered_not_a_satellite_unread(capsys):
    """Photo 16 of the rendered Satellites benchmark (1.8 px/mm, a cup, a lamp aimed): the
    cup's dark inside and its shade make a6, b7 and a9 dark where a satellite's marker
    would be, so they were searched and reported unread ("something stands in a6 but no
    satellite's marker can be read there") though no satellite stands there: the
    benchmark's false unread. What stands there reaches over the cells' corners, beyond
    any satellite's disc (50-96 % of them unlike the board other than by a reflection; a
    satellite leaves at most 31 % in the 20 rendered photos): they are named covered, as
    the cup's other cells are. B1 on j7, 89 % unseen under the reflection, its corners
    the board, stays reported unread."""
    from photo.satellites import cell_name

    shot, reading, outcome = _judged("satellites-red-cup")
    truth = {tuple(p.cell): p for p in shot.pieces if p.kind == "token"}
    assert [cell_name(c) for c in reading.unread] == ["j7"] and truth[(6, 9)].card == "B1"
    larger = {cell_name(f.cell): f for f in reading.findings if "larger" in f.message}
    assert sorted(larger) == ["a6", "a9", "b7"]
    assert not {f.cell for f in larger.values()} & set(truth)
    assert {f.rule for f in reading.findings} == {"photo-covered"}
    assert larger["a6"].message == (
        "a6 cannot be seen: something larger than a satellite stands over it (73% of the "
        "cell around a satellite's disc is not the board either) and no satellite's marker "
        "can be read there (a cup, a hand, perhaps over a satellite); take away what covers "
        "it and try again")
    log = {cell_name(e["cell"]): e for e in reading.log}
    assert {c: round(log[c]["corners_unlike"], 2) for c in larger} == {
        "a6": 0.73, "b7": 0.95, "a9": 0.5}
    assert outcome.false_unread == [] and outcome.wrong == [] and outcome.phantom == []
    assert outcome.visible_read == outcome.visible == 18 and not outcome.silent_wrong
    code, out, err = _score(capsys, "satellites-red-cup")
    assert (code, err) == (1, "") and out["photo"]["unread"] == ["j7"]


def test_a_hidden_piece_counted_through_its_neighbour_says_so() -> None:
    """The benchmark's evaluator counts a hidden piece as reported when a covered cell next
    to it is named, but marks it, so the report can say how many were named only so."""
    from testkit.photo_evaluate import judge

    truth = {(0, 0): ("A", 0.0, "A@[0, 0]"), (1, 0): ("B", 1.0, "B@[1, 0]"),
             (3, 0): ("C", 0.5, "C@[3, 0]"), (5, 0): ("D", 1.0, "D@[5, 0]")}
    findings = [("photo-covered", (2, 0)), ("photo-covered", (5, 0))]
    out = judge(truth, {(0, 0): "A"}, [], findings, "nothing lies there",
                lambda a, b: abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 1)
    by = {v.label: (v.verdict, v.by_neighbour) for v in out.verdicts}
    assert by == {"A@[0, 0]": ("right", False), "B@[1, 0]": ("reported", True),
                  "C@[3, 0]": ("reported", True), "D@[5, 0]": ("reported", False)}
    assert out.missed == []


def test_satellites_under_an_arm_as_pale_as_the_board_are_each_named(capsys):
    """Photo 7 of the rendered Satellites benchmark (3.8 px/mm, a hand and arm as pale as
    the board): in the light fitted over the board the arm looks like the board, so only
    the cells at its edge or under its shade were named covered, and six satellites under
    it (B3 on d5, B2 on d6, B4 on d8, R4 on b10, R1 on c10 hidden, R3 on f5 83 % covered)
    were counted as reported only through a covered cell next to them. Under the arm the
    board's printed grid lines are gone: followed from the cells named covered, every
    cell under it is named, each satellite by its own cell."""
    from photo.satellites import cell_name

    shot, reading, outcome = _judged("satellites-pale-arm")
    lines = {cell_name(f.cell): f.message for f in reading.findings
             if "printed lines" in f.message}
    gone = {cell_name(e["cell"]): e["lines_gone"] for e in reading.log
            if "lines_gone" in e and cell_name(e["cell"]) in lines}
    assert gone == {"d4": 8, "d5": 8, "e5": 6, "d6": 8, "d7": 8, "c8": 8, "d8": 6, "c9": 8,
                    "b10": 8, "c10": 7, "c5": 4, "f5": 2}
    assert lines["d5"] == (
        "d5 cannot be seen: the board's printed lines round it do not show (8 of its 8 half "
        "edges), as under the cell next to it that is covered (a hand or an arm as pale as "
        "the board over it, perhaps over a satellite); take away what covers it and try "
        "again")
    assert lines["f5"] == (
        "f5 cannot be seen whole: 2 of the 8 half edges of its printed lines do not show, "
        "next to cells covered (a hand or an arm as pale as the board), and something other "
        "than the board lies there (perhaps a satellite partly under it); take away what "
        "covers it and try again")
    # f5's satellite shows a little of its red; c4 beside the fingers, 4 half edges gone,
    # shows nothing but the board and is not named
    log = {cell_name(e["cell"]): e for e in reading.log if "lines_gone" in e}
    assert round(log["f5"]["coloured"], 2) == 0.13 and log["c4"]["lines_gone"] == 4
    assert "c4" not in lines and round(log["c4"]["unlike"], 2) == 0.01
    named = {cell_name(f.cell) for f in reading.findings if f.rule == "photo-covered"}
    assert named == set(lines) | {"e2", "d3", "e3", "a4", "e4", "c6", "c7", "b8", "b9", "a10"}
    assert [cell_name(c) for c in reading.unread] == ["c3", "e6"]
    hidden = {v.label: (v.verdict, v.by_neighbour) for v in outcome.verdicts
              if v.state != "visible"}
    assert {k: v for k, v in hidden.items() if k in (
        "B3@d5", "B2@d6", "B4@d8", "R4@b10", "R1@c10", "R3@f5")} == {
        k: ("reported", False) for k in ("B3@d5", "B2@d6", "B4@d8", "R4@b10", "R1@c10",
                                         "R3@f5")}
    assert not any(by for _, by in hidden.values()) and len(hidden) == 12
    assert outcome.missed == [] and outcome.wrong == [] and outcome.phantom == []
    assert outcome.visible_read == outcome.visible == 12 and not outcome.silent_wrong
    code, out, err = _score(capsys, "satellites-pale-arm")
    assert (code, err) == (1, "") and out["photo"]["unread"] == ["c3", "e6"]


def test_lines_washed_out_by_a_lamp_are_not_followed_without_a_covered_cell():
    """A lamp's reflection washes the printed lines out too, beyond the part of it found
    (photo 4 of the rendered set: j3 and j4 show 6 of their 8 half edges gone, i5 6, g1
    and i4 5): nothing there is named covered, for nothing is followed from nowhere."""
    import cv2

    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for
    from photo.satellites import cell_name

    shot = _rendered("satellites-three-under-glare")
    defs = load_definitions("satellites", None)
    reader = reader_for("satellites", marker_map("satellites", defs), defs)
    reading, work = reader.read_bytes(shot.jpeg, "satellites-three-under-glare.jpg")
    gone = reader._lines_gone(cv2.cvtColor(work.bgr, cv2.COLOR_BGR2GRAY), reading.camera)
    assert gone is not None
    assert {cell_name(c): n for c, n in gone.items() if n >= 5} == {
        "g1": 5, "j3": 6, "j4": 6, "i4": 5, "i5": 6}
    assert reading.findings == [] and reading.unread == []


def test_lines_are_not_followed_where_the_photo_is_too_blurred_to_show_them():
    """At 2 px/mm and below the board's lines barely show (photo 19 of the rendered set:
    their median dip 0.10 of the print's, under the 0.25 asked): their absence says
    nothing there, so nothing is followed by them."""
    import cv2

    from cards.ruleset_cache import load_definitions
    from photo import marker_map, reader_for

    shot = _rendered("satellites-pale-blue")
    defs = load_definitions("satellites", None)
    reader = reader_for("satellites", marker_map("satellites", defs), defs)
    reading, work = reader.read_bytes(shot.jpeg, "satellites-pale-blue.jpg")
    assert reader._lines_gone(cv2.cvtColor(work.bgr, cv2.COLOR_BGR2GRAY),
                              reading.camera) is None

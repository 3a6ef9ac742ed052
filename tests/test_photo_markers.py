"""The printed markers: right codes, where the map says, clear of the art, switchable, and
the map written into the build (no photos here; those are in test_photo_read.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from cards.definitions import load_orbitus, load_satellites
from generator.backends.png import render_png
from generator.components import orbitus as orb
from generator.components import satellites as sat
from generator.drawing import Group, walk
from generator.markers import codes
from generator.markers.plan import MarkerMapError, orbitus_map, satellites_map
from generator.markers.reading import from_json
from rules import hexgeo

ROOT = Path(__file__).resolve().parent.parent
ORB = load_orbitus()
SAT = load_satellites()


def test_every_code_is_opencvs_own():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_1000)
    for marker_id in range(codes.code_count()):
        bits = cv2.aruco.Dictionary.getBitsFromByteList(
            dictionary.bytesList[marker_id:marker_id + 1].copy(), 4)
        assert np.array_equal(np.array(codes.data_bits(marker_id)), bits), marker_id
    with pytest.raises(ValueError, match="outside DICT_4X4_1000"):
        codes.data_bits(1000)


def _detect(png: bytes) -> tuple[list[int], list[np.ndarray]]:
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if img.shape[2] == 4:  # transparent outside the piece: lay it on white
        alpha = img[..., 3:4] / 255.0
        img = (img[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_1000))
    corners, ids, _ = det.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    return ([] if ids is None else ids.ravel().tolist()), [c.reshape(4, 2) for c in corners]


@pytest.mark.parametrize("card", ["S01", "S17", "S72"])
def test_a_printed_sector_carries_its_cards_marker_where_the_map_says(card):
    """Rendered as it prints, OpenCV's own detector reads the card's ID from it, at the
    place and turn the marker map gives (so a photo's marker says where the card is)."""
    mmap = orbitus_map(ORB)
    flats = ORB.sectors.hex_across_flats_mm
    sector = ORB.sector(card)
    from generator.drawing import Drawing

    size = 2 * hexgeo.circumradius(flats) + 2
    drawing = Drawing(size, size, [Group(tuple(orb.sector_items(sector, ORB, flats)),
                                         (size / 2, size / 2))])
    dpi = 300.0
    ids, corners = _detect(render_png(drawing, dpi)[0])
    marker = next(m for m in mmap.markers if m.name == card)
    assert ids == [marker.id]
    px = dpi / 25.4
    expected = (np.array(marker.corners()) + size / 2) * px
    assert np.abs(corners[0] - expected).max() < 3.0  # px at 300 dpi: 0.25 mm


def test_station_and_satellites_and_board_corners_read():
    from generator.export_png import component_pngs

    orbitus = component_pngs("orbitus", ORB, 200)
    assert _detect(orbitus["orbitus/png/station.png"])[0] == [0]
    satellites = component_pngs("satellites", SAT, 200)
    mmap = satellites_map(SAT)
    for m in mmap.of_kind("token"):
        png = satellites[f"satellites/png/satellite-{m.colour}-{m.value}.png"]
        assert _detect(png)[0] == [m.id], m.name
    found = sorted(_detect(satellites["satellites/png/board.png"])[0])
    assert found == [8, 9, 10, 11]


def test_sector_markers_stay_clear_of_routes_hub_and_cut_line():
    """The marker's white square (quiet zone included, its corners rounded) keeps off every
    route band, the hub, and stays inside the cut line, on every card of the deck."""
    from generator.markers.plan import QUIET, sector_marker

    flats = ORB.sectors.hex_across_flats_mm
    m = sector_marker(1, "x", flats)
    module = m.size / codes.MODULES
    q = QUIET * module
    half = m.size / 2
    a = math.radians(m.rotate)
    # the quiet zone's outline: the black square's sides pushed out by q, corners round
    outline = []
    for k in range(720):
        t = 2 * math.pi * k / 720
        u, v = math.cos(t), math.sin(t)
        s = max(abs(u), abs(v))
        u, v = u / s * half, v / s * half  # a point of the black square's outline
        outline.append((u + q * math.cos(t), v + q * math.sin(t)))
    pts = [(m.x + u * math.cos(a) - v * math.sin(a), m.y + u * math.sin(a) + v * math.cos(a))
           for u, v in outline]
    band = 7.0 * flats / 50.0 / 2
    for side in range(6):  # every route of every card lies on one of these six bands
        ang = math.radians(-90 + 60 * side)
        for x, y in pts:
            along = x * math.cos(ang) + y * math.sin(ang)
            across = abs(-x * math.sin(ang) + y * math.cos(ang))
            assert along < 0 or across >= band - 0.05, (side, x, y)
    hub = 9.0 * flats / 50.0 * 1.08  # the hub disc and its ring
    assert min(math.hypot(x, y) for x, y in pts) > hub
    apothem = flats / 2.0
    for x, y in pts:
        assert max(x * math.cos(math.radians(t)) + y * math.sin(math.radians(t))
                   for t in range(-90, 270, 60)) < apothem - 0.3


def test_markers_false_prints_none_and_the_map_says_so(cards_copy):
    for rel in ("orbitus/sectors.yaml", "orbitus/station.yaml", "satellites/satellites.yaml",
                "satellites/board.yaml"):
        path = cards_copy / rel
        path.write_text(path.read_text().replace("markers: true", "markers: false"))
    orbitus = load_orbitus(cards_copy)
    satellites = load_satellites(cards_copy)
    items = list(walk(orb.sector_items(orbitus.sector("S07"), orbitus)))
    assert not any(getattr(i, "cls", None) == "fiducial" for i in items)
    assert not any(getattr(i, "cls", None) == "fiducial"
                   for i in walk(sat.satellite_token(satellites, "red", 3)))
    assert orbitus_map(orbitus).markers == ()
    assert satellites_map(satellites).markers == ()
    shipped = list(walk(orb.sector_items(ORB.sector("S07"), ORB)))
    assert sum(getattr(i, "cls", None) == "fiducial" for i in shipped) == 1


def test_the_build_writes_the_marker_map(tmp_path):
    from generator.build import build

    build(tmp_path, ("orbitus", "satellites"))
    text = (tmp_path / "orbitus" / "markers.json").read_text()
    mmap = from_json(text, "markers.json", "orbitus")
    assert [m.name for m in mmap.of_kind("sector")] == [s.id for s in ORB.sectors.sectors]
    assert mmap.of_kind("station")[0].id == 0
    assert len({m.id for m in mmap.markers}) == len(mmap.markers)
    doc = json.loads((tmp_path / "satellites" / "markers.json").read_text())
    assert {m["name"] for m in doc["markers"]} == {
        "R1", "R2", "R3", "R4", "B1", "B2", "B3", "B4", "NW", "NE", "SE", "SW"}


@pytest.mark.parametrize("text,problems", [
    ("not json", ["markers.json:1: not JSON (Expecting value, column 1); expected the "
                  "markers.json a build wrote"]),
    ('{"format": 1, "game": "satellites", "dictionary": "DICT_4X4_1000", "markers": []}',
     ["markers.json:1: holds the markers of 'satellites', not of orbitus; give "
      "output/orbitus/markers.json"]),
    ('{"format": 7}', ["markers.json:1: not a markers file of format 1 (the markers.json that "
                       "pnp build writes into output/<game>/)"]),
    ('{"format": 1, "game": "orbitus", "dictionary": "DICT_4X4_1000", "markers": [{}]}',
     ["markers.json:1: hex_across_flats_mm: missing; expected a sector's width across flats "
      "of 20 to 120 mm (the shipped deck: 50)",
      "markers.json:1: markers[0]: kind missing; an orbitus map has station and sector "
      "markers"]),
])
def test_a_broken_marker_map_is_refused_clearly(text, problems):
    with pytest.raises(MarkerMapError) as caught:
        from_json(text, "markers.json", "orbitus")
    assert caught.value.problems == problems


def test_plain_scoring_imports_no_opencv(tmp_path):
    """Only --photo brings in OpenCV and NumPy: scoring a typed layout or board does not."""
    layout = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"
    board = ROOT / "tests" / "fixtures" / "satellites" / "crowned.txt"
    code = (
        "import sys, io, contextlib\n"
        "from scorer.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    a = main(['orbitus', {str(layout)!r}])\n"
        f"    b = main(['satellites', {str(board)!r}])\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'cv2', 'numpy', 'photo'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"


def test_help_names_the_photo_options():
    for game in ("orbitus", "satellites"):
        done = subprocess.run([sys.executable, "-m", "scorer", game, "--help"],
                              capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0
        for option in ("--photo", "--layout-out", "--debug-image", "--markers",
                       "pip install 'orbitus-pnp[photo]'"):
            assert option in done.stdout, (game, option)


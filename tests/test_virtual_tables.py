"""Issue 24 point 5: virtual tables beyond Tabletop Simulator, read back from the files:
a PlayingCards.io room (a .pcio zip: widgets.json and the images it names), a Screentop
kit (image grids and layout.json), and TTS images at a base URL."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from cards.definitions import load_orbitus, load_satellites
from generator.build import build
from generator.options import BuildOptions
from generator.presets.run import make, write


@pytest.fixture(scope="module")
def pcio(tmp_path_factory: pytest.TempPathFactory) -> Path:
    preset, result = make("playingcards-io", ("orbitus", "satellites"))
    return write(tmp_path_factory.mktemp("pcio"), preset, result)


def _room(path: Path) -> tuple[list[dict], zipfile.ZipFile]:
    z = zipfile.ZipFile(path)
    return json.loads(z.read("widgets.json")), z


def test_the_orbitus_room_deals_from_a_deck_into_hidden_hands(pcio):
    widgets, z = _room(pcio / "orbitus.pcio")
    by_type = Counter(w["type"] for w in widgets)
    assert by_type["cardDeck"] == 2 and by_type["cardPile"] == 1 and by_type["hand"] == 1
    hand = next(w for w in widgets if w["type"] == "hand")
    assert hand["id"] == "hand" and hand.get("enabled", True)  # each player sees only theirs
    deck = next(w for w in widgets if w["id"] == "sector-deck")
    cards = [w for w in widgets if w["type"] == "card"]
    counts = Counter(c["cardType"] for c in cards)
    defs = load_orbitus()
    assert counts == {f"sector-{s.id}": s.count for s in defs.sectors.sectors}
    assert all(c["deck"] == "sector-deck" and c["parent"] == "draw-pile" for c in cards)
    assert set(deck["cardTypes"]) == set(counts)
    # every image the room names is in it, and is the card's image
    names = set(z.namelist())
    for t in deck["cardTypes"].values():
        asset = t["image"].removeprefix("package://")
        assert asset in names
        with Image.open(io.BytesIO(z.read(asset))) as image:
            w, h = image.size
            assert w / h == pytest.approx(deck["cardWidth"] / deck["cardHeight"], rel=0.02)
    back = deck["backTemplate"]["objects"][0]["value"]
    assert back.removeprefix("package://") in names
    pieces = Counter(w["cardType"] for w in widgets if w["type"] == "piece")
    need, barriers = defs.ruleset.marker_counts()
    assert pieces["barrier-marker"] == barriers
    assert sum(pieces.values()) == sum(need) + barriers
    assert any(w["type"] == "board" and w["id"] == "station" for w in widgets)


def test_the_satellites_room_has_the_board_and_every_token_face_up(pcio):
    widgets, z = _room(pcio / "satellites.pcio")
    assert next(w for w in widgets if w["type"] == "hand").get("enabled") is False
    tokens = Counter(w["cardType"] for w in widgets if w["type"] == "piece")
    want: Counter[str] = Counter()
    for e in load_satellites().satellites.satellites:
        want[f"satellite-{e.colour}-{e.value}"] += e.count
    want["track-marker-connected"] = want["track-marker-grace"] = 1
    assert tokens == want
    assert all(w["faceup"] for w in widgets if w["type"] == "piece")
    board = next(w for w in widgets if w["type"] == "board")
    with Image.open(io.BytesIO(z.read(board["boardImage"].removeprefix("package://")))) as im:
        assert im.size[0] / im.size[1] == pytest.approx(board["width"] / board["height"],
                                                        rel=0.01)


def test_rooms_are_deterministic(pcio, tmp_path):
    preset, result = make("playingcards-io", ("satellites",))
    assert result.files["satellites.pcio"] == (pcio / "satellites.pcio").read_bytes()


def test_the_screentop_kit_has_grids_and_a_layout_that_adds_up(tmp_path):
    preset, result = make("screentop", ("orbitus",))
    folder = write(tmp_path, preset, result)
    layout = json.loads((folder / "screentop/orbitus/layout.json").read_text(encoding="utf-8"))
    from cards.design_cache import design

    assert layout["design"] == design("orbitus").to_json()  # as the components print it
    deck = next(c for c in layout["components"] if c["component"] == "orbitus.sector")
    assert deck["hands"] == "hidden" and deck["shuffle"] is True
    total = 0
    for sheet in deck["sheets"]:
        assert sheet["columns"] <= 10 and sheet["rows"] <= 7
        with Image.open(folder / "screentop/orbitus" / sheet["image"]) as image:
            cw, ch = image.size[0] / sheet["columns"], image.size[1] / sheet["rows"]
            assert cw == int(cw) and ch == int(ch)  # equal cells
        total += sum(c["copies"] for c in sheet["cells"])
    assert total == 72
    assert (folder / "screentop/orbitus" / deck["back"]).is_file()


def test_tts_images_at_a_base_url(tmp_path):
    opts = BuildOptions(tts=True, tts_base_url="https://example.org/kits/v2/")
    build(tmp_path, ("satellites",), opts=opts)
    save = json.loads((tmp_path / "satellites/tts/Satellites.json").read_text(encoding="utf-8"))
    objects = save["ObjectStates"]
    urls = [o["CustomImage"]["ImageURL"] for o in objects if "CustomImage" in o]
    assert urls[0] == "https://example.org/kits/v2/satellites/tts/board.png"
    assert all(u.startswith("https://example.org/kits/v2/satellites/tts/") for u in urls)
    pdfs = [o["CustomPDF"]["PDFUrl"] for o in objects if "CustomPDF" in o]  # booklet, aid
    assert len(pdfs) == 2 and len(urls) + len(pdfs) == len(objects)
    for u in set(urls + pdfs):  # each names a file the build wrote, by its place in the kit
        assert (tmp_path / u.removeprefix("https://example.org/kits/v2/")).is_file()


def test_the_preflight_misses_no_hidden_hand_and_no_missing_image(pcio, tmp_path):
    from generator.preflight import preflight

    folder = tmp_path / "room"
    shutil.copytree(pcio, folder)
    widgets, z = _room(folder / "orbitus.pcio")
    entries = {n: z.read(n) for n in z.namelist() if n != "userassets/orbitus/sector-S09.png"}
    widgets = [w for w in widgets if w["type"] != "hand"]
    entries["widgets.json"] = json.dumps(widgets).encode()
    with zipfile.ZipFile(folder / "orbitus.pcio", "w") as out:
        for name, data in entries.items():
            out.writestr(name, data)
    problems = preflight(folder).problems
    assert "orbitus.pcio: orbitus.sector: no hand in the room; Orbitus hands are hidden " \
           "from the other players" in problems
    assert "orbitus.pcio: widgets.json names userassets/orbitus/sector-S09.png, which the " \
           "room does not hold" in problems

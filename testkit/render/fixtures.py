"""The rendered photos kept as test fixtures: each shows one way a real photo goes wrong.

``tests/fixtures/photo-rendered/NAME.jpg`` and ``NAME.json`` (the truth: every piece, how
much of it and of its marker the camera saw, how much lay under glare; the scene's
camera, lens and lamps) are made by Blender from the definitions here, so they can be
made again (a change to the renderer or the printed kit changes them):

    .venv/bin/python testkit/render/fixtures.py            # all of them (minutes each)
    .venv/bin/python testkit/render/fixtures.py glare-on-a-card

The tests (``tests/test_photo_rendered.py``) read them without Blender.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a file
    sys.path.insert(0, str(ROOT))

from testkit.render.scene import Options  # noqa: E402

FOLDER = ROOT / "tests" / "fixtures" / "photo-rendered"
CALM = {"occluder_chance": 0.0, "out_of_frame_chance": 0.0, "glare_chance": 0.0,
        "tube_chance": 0.0, "curled": 0.0, "curl": (0.0, 1.0), "lamps": 1}


@dataclass(frozen=True)
class Fixture:
    name: str
    game: str
    table: str  # a file of tests/fixtures (a layout or a board)
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    view: int = 0
    about: str = ""
    bench: int = -1  # table is "": the rendered benchmark's table of this index (seed 2026)


FIXTURES = (
    Fixture("glare-on-a-card", "orbitus", "orbitus/two-players.yaml", 4,
            {**CALM, "glare_on": "S04", "glare_marker": True, "tilt": (12.0, 22.0),
             "px_per_mm": (3.0, 3.4), "k1": (-0.03, -0.01)},
            about="a lamp's reflection washes out the marker of S04 on [0, 1]"),
    Fixture("hand-over-a-chain", "orbitus", "orbitus/ring-with-hub.yaml", 7,
            {**CALM, "occluder": "hand", "tilt": (15.0, 25.0), "px_per_mm": (2.8, 3.2),
             "k1": (-0.03, -0.01)},
            about="a hand over the cards between the station and those beyond them"),
    Fixture("barrel-distortion", "orbitus", "orbitus/six-players-72.yaml", 3,
            {**CALM, "k1": (-0.085, -0.08), "tilt": (28.0, 32.0), "px_per_mm": (2.3, 2.6)},
            about="a wide lens's barrel distortion (k1 -0.08) on the 72-card table, tilted 30"),
    Fixture("curled-cards", "orbitus", "orbitus/two-players.yaml", 9,
            {**CALM, "curled": 0.35, "tilt": (25.0, 32.0), "px_per_mm": (3.0, 3.4),
             "k1": (-0.03, -0.01)},
            about="cards curled off the table, edges lifted 3-8 mm"),
    Fixture("satellites-glare-streak", "satellites", "satellites/crowned.txt", 5,
            {**CALM, "glare_chance": 1.0, "glare_marker": True, "tube_chance": 1.0,
             "tilt": (10.0, 20.0), "px_per_mm": (3.0, 3.4), "k1": (-0.03, -0.01)},
            about="a tube light's reflection, a streak across a satellite's marker"),
    Fixture("too-coarse-for-the-station", "orbitus", "orbitus/six-players-72.yaml", 11,
            {**CALM, "tilt": (5.0, 10.0), "px_per_mm": (0.7, 0.8), "k1": (-0.02, -0.01)},
            about="the 72-card table in a 0.4 MP photo at 0.72 px/mm: even the station "
                  "too coarse to read"),
    Fixture("coarse-curled-card", "orbitus", "", 2026 * 1000 + 13, {},
            about="a 0.7 MP photo (1.6 px/mm): a curled card's marker too coarse to read",
            bench=13),
    Fixture("coarse-curled-card-again", "orbitus", "", 2026 * 1000 + 13, {}, view=1,
            about="the second photo of the rendered benchmark's table 13 (another camera, "
                  "lamps: --pairs, 1.7 px/mm): S54, curled 5 mm, its marker off the table's "
                  "plane",
            bench=13),
    Fixture("glare-read-from-the-face", "orbitus", "", 2026 * 1000 + 16, {},
            about="photo 16 of the rendered benchmark (2.1 px/mm, a cup, two lamps): S52's "
                  "marker under glare, read from its face where rival faces differ",
            bench=16),
    Fixture("coarse-far-cards", "orbitus", "", 2026 * 1000 + 24, {},
            about="photo 24 of the rendered benchmark (1.6-1.9 px/mm, tilted 25, a cup): "
                  "far cards too blurred to read, each named",
            bench=24),
    Fixture("coarse-far-cards-again", "orbitus", "", 2026 * 1000 + 24, {}, view=1,
            about="the second photo of the rendered benchmark's table 24 (another camera, "
                  "lamps and occluder: --pairs): S16 on [5, -5] wholly under the occluder",
            bench=24),
    Fixture("glare-over-most-of-a-card", "orbitus", "", 2026 * 1000 + 20, {},
            about="photo 20 of the rendered benchmark (2.7 px/mm, a lamp aimed): S28 74 % "
                  "under the lamp's reflection, its face lost, reported unread",
            bench=20),
    Fixture("frame-cuts-a-card", "orbitus", "", 2026 * 1000 + 25, {},
            about="photo 25 of the rendered benchmark (3.3 px/mm, barrel k1 -0.08): the "
                  "photo's edge cuts S72, named out of frame",
            bench=25),
    Fixture("hand-on-a-checked-cloth", "orbitus", "", 2026 * 1000 + 14, {},
            about="photo 14 of the rendered benchmark (2.0 px/mm, tilted 32, a hand and arm "
                  "over a cream-and-blue checked cloth, the hand the colour of the cream "
                  "squares): the cells under it followed and named covered",
            bench=14),
    Fixture("hand-over-cards-under-glare", "orbitus", "", 2026 * 1000 + 5, {},
            about="photo 5 of the rendered benchmark (3.1 px/mm, a lamp aimed, a hand): "
                  "cards under the hand's fingers and the lamp's reflection named covered",
            bench=5),
    Fixture("cards-beyond-a-cup", "orbitus", "", 2026 * 1000 + 17, {}, view=1,
            about="the second photo of the rendered benchmark's table 17 (2.4 px/mm, tilted "
                  "37, barrel k1 -0.06, a cup on its side): S17 and S18 beyond the cup, "
                  "their markers below certainty, no neighbour read",
            bench=17),
    Fixture("a-card-lifted-off-its-cell", "orbitus", "", 2026 * 1000 + 25, {}, view=1,
            about="the second photo of the rendered benchmark's table 25 (2.2 px/mm, tilted "
                  "39, barrel k1 -0.045): S35 on [1, 1] lifted 7 mm, its marker seen 8 mm "
                  "off the cell's centre and below certainty",
            bench=25),
    Fixture("a-cup-the-colour-of-the-table", "orbitus", "", 2026 * 1000 + 27, {}, view=1,
            about="the second photo of the rendered benchmark's table 27 (2.1 px/mm, a cup "
                  "the colour of the table, over no card's edge): S05 and S15 under it",
            bench=27),
    Fixture("frame-cuts-a-card-again", "orbitus", "", 2026 * 1000 + 19, {}, view=1,
            about="the second photo of the rendered benchmark's table 19 (2.9 px/mm, tilted "
                  "6, a lamp aimed): the photo's edge cuts S60 on [0, 5] and its marker, "
                  "its paper little in the photo",
            bench=19),
    Fixture("a-hand-the-colour-of-the-wood", "orbitus", "", 2026 * 1000 + 2, {}, view=1,
            about="the second photo of the rendered benchmark's table 2 (1.8 px/mm, barrel "
                  "k1 -0.07, a hand whose skin has the wooden table's colour): S03, S05, S38 "
                  "and S06 under it, S67 beside it",
            bench=2),
    Fixture("a-hand-on-a-plain-grey-table", "orbitus", "", 2026 * 1000 + 11, {}, view=1,
            about="the second photo of the rendered benchmark's table 11 (2.4 px/mm, tilted "
                  "36, a hand whose pale skin is near the plain grey table's colour): S43, "
                  "S26 and S70 under it, S66 beside it, S60 lifted 7 mm nearby",
            bench=11),
    Fixture("a-hand-wholly-over-a-card", "orbitus", "", 2026 * 1000 + 29, {}, view=1,
            about="the second photo of the rendered benchmark's table 29 (2.4 px/mm, tilted "
                  "29, a hand whose colour and light are the light striped wood's): S49 on "
                  "[4, -3] wholly under its palm",
            bench=29),
    Fixture("satellites-lamp-on-the-rims", "satellites", "", 2026 * 1000 + 6, {},
            about="photo 6 of the rendered Satellites benchmark (3.3 px/mm, a lamp aimed): "
                  "four satellites under its reflection, their markers washed out, their "
                  "coloured rims left",
            bench=6),
    Fixture("satellites-too-blurred", "satellites", "", 2026 * 1000 + 9, {},
            about="photo 9 of the rendered Satellites benchmark (1.2 MP, 2.0 px/mm, tilted "
                  "31): the far satellites too small and blurred to read, each named",
            bench=9),
    Fixture("satellites-pale-blue", "satellites", "", 2026 * 1000 + 19, {},
            about="photo 19 of the rendered Satellites benchmark (1.4 MP, 2.0 px/mm, barrel "
                  "k1 -0.06): two blue satellites blurred until their rings show no blue",
            bench=19),
    Fixture("satellites-three-under-glare", "satellites", "", 2026 * 1000 + 4, {},
            about="photo 4 of the rendered Satellites benchmark (3.1 px/mm, tilted 39, a "
                  "lamp aimed): B3 on h2 under the reflection, its marker washed out, its "
                  "face nearly as like B1's",
            bench=4),
    Fixture("satellites-red-cup", "satellites", "", 2026 * 1000 + 16, {},
            about="photo 16 of the rendered Satellites benchmark (1.8 px/mm, a red cup, a "
                  "lamp aimed): the cup, a player's colour, over cells with and without "
                  "satellites",
            bench=16),
    Fixture("satellites-pale-arm", "satellites", "", 2026 * 1000 + 7, {},
            about="photo 7 of the rendered Satellites benchmark (3.8 px/mm, barrel k1 -0.065, "
                  "a hand and arm as pale as the board): the satellites under the arm, its "
                  "cells like the board in the fitted light",
            bench=7),
)


def layout_of(fixture: Fixture) -> dict[str, Any]:
    import yaml

    if fixture.bench >= 0:  # photo ``bench`` of benchmarks/bench_photo_rendered.py
        from cards.ruleset_cache import load_definitions
        from testkit.photo_evaluate import tables

        found = tables(fixture.game, load_definitions(fixture.game, None),
                       fixture.bench + 1)[fixture.bench]
        if fixture.game == "satellites":  # a board's grid, as the benchmark lays it
            return {"board": found}
        table: dict[str, Any] = found
        return table

    path = ROOT / "tests" / "fixtures" / fixture.table
    text = path.read_text(encoding="utf-8")
    if fixture.game == "orbitus":
        data: dict[str, Any] = yaml.safe_load(text)
        return data
    rows = [line.split("#")[0].split() for line in text.splitlines()]
    return {"board": [[t.upper() for t in r] for r in rows if r]}


def options_of(fixture: Fixture) -> Options:
    return Options(**fixture.options)


def make(fixture: Fixture, folder: Path = FOLDER) -> Path:
    from cards.ruleset_cache import load_definitions
    from testkit.render.scene import Kit
    from testkit.render.shoot import build_kit, kit_folder, shoot

    defs = load_definitions(fixture.game, None)
    kit = Kit(build_kit(kit_folder()), fixture.game)
    shot = shoot(fixture.game, layout_of(fixture), defs, kit, fixture.seed, fixture.name,
                 options_of(fixture), progress=True, view=fixture.view)
    shot.conditions["about"] = fixture.about
    jpg, _ = shot.save(folder)
    return jpg


def main() -> int:
    wanted = set(sys.argv[1:])
    unknown = wanted - {f.name for f in FIXTURES}
    if unknown:
        print(f"no such fixture: {', '.join(sorted(unknown))} (there are: "
              f"{', '.join(f.name for f in FIXTURES)})", file=sys.stderr)
        return 2
    for fixture in FIXTURES:
        if not wanted or fixture.name in wanted:
            print(f"{fixture.name}: {fixture.about}", flush=True)
            jpg = make(fixture)
            print(f"  wrote {jpg.relative_to(ROOT)} ({jpg.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Physically rendered photos of finished tables: a scene (:mod:`testkit.render.scene`)
rendered by Blender (:mod:`testkit.render.blender_side`), developed as a phone would
(:mod:`testkit.render.lens`), with the truth of every piece.

Blender renders are slow (tens of seconds each on one core), so each is kept in a cache
folder, named by a hash of the scene, of the kit's pictures and of the Blender script: the
same scene is rendered once. The development afterwards takes a second.

    python testkit/render/shoot.py --game orbitus --table 3 --seed 7 --out /tmp/shots
    python testkit/render/shoot.py --game orbitus --occluder hand --out /tmp/shots \\
        --layout tests/fixtures/orbitus/two-players.yaml --name hand

Needs Blender (``apt-get install blender``: Cycles renders on the CPU without a display).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a file
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from testkit.render.lens import PieceTruth, develop  # noqa: E402
from testkit.render.scene import Kit, Options, Scene, make_scene  # noqa: E402

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "blender_side.py"


class RenderError(Exception):
    """Blender is missing or failed; the message says which and how to fix it."""


def blender() -> str:
    found = shutil.which("blender")
    if found is None:
        raise RenderError("Blender is not installed: apt-get install blender (Cycles renders "
                          "on the CPU, no display needed)")
    return found


def cache_root() -> Path:
    from cards.ruleset_cache import cache_folder

    folder = cache_folder()
    return (folder if folder is not None else Path(tempfile.gettempdir())) / "renders"


def kit_folder(root: Path | None = None) -> Path:
    """Where the kit of the current definitions and printables is built: named by a hash of
    every definition and of the code that draws them, so an edit builds it anew."""
    digest = hashlib.sha256()
    for pattern in ("cards/**/*.yaml", "cards/**/*.md", "generator/**/*.py"):
        for path in sorted(ROOT.glob(pattern)):
            digest.update(path.relative_to(ROOT).as_posix().encode())
            digest.update(path.read_bytes())
    return (root or cache_root()) / f"kit-{digest.hexdigest()[:16]}"


def build_kit(folder: Path) -> Path:
    """``pnp build --png`` of both games into ``folder`` (once): the printed kit's pictures
    and markers.json, as a player's build makes them."""
    if not (folder / "orbitus" / "markers.json").is_file() or \
            not (folder / "satellites" / "markers.json").is_file():
        folder.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([sys.executable, "-m", "pnp.cli", "build", "--png", "--out",
                               str(folder)], capture_output=True, text=True, cwd=ROOT,
                              check=False)
        if proc.returncode != 0:
            raise RenderError(f"pnp build --png failed: {proc.stderr.strip()[-400:]}")
    return folder


@dataclass
class Rendered:
    """A rendered photo and its truth."""

    name: str
    game: str
    jpeg: bytes
    width: int
    height: int
    pieces: list[PieceTruth]
    layout: dict[str, Any]
    conditions: dict[str, Any]
    scene: dict[str, Any] = field(default_factory=dict)  # the scene without its meshes
    render_seconds: float = 0.0

    def truth(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "width": self.width,
                "height": self.height, "layout": self.layout, "conditions": self.conditions,
                "render_seconds": self.render_seconds,
                "pieces": [asdict(p) for p in self.pieces], "scene": self._portable_scene()}

    def _portable_scene(self) -> dict[str, Any]:
        """The scene as recorded in the truth: the kit named by its folder in the render
        cache (``kit-HASH/GAME/png``), not by where that cache lay on the machine that
        rendered it (a fixture kept in the repository points nowhere outside it)."""
        scene = dict(self.scene)
        kit = scene.get("kit")
        if isinstance(kit, str) and kit:
            scene["kit"] = "/".join(Path(kit).parts[-3:])
        return scene

    def save(self, folder: Path) -> tuple[Path, Path]:
        folder.mkdir(parents=True, exist_ok=True)
        jpg, js = folder / f"{self.name}.jpg", folder / f"{self.name}.json"
        jpg.write_bytes(self.jpeg)
        js.write_text(json.dumps(self.truth(), indent=1, sort_keys=True) + "\n",
                      encoding="utf-8")
        return jpg, js

    @classmethod
    def load(cls, jpg: Path) -> Rendered:
        doc = json.loads(jpg.with_suffix(".json").read_text(encoding="utf-8"))
        pieces = [PieceTruth(**p) for p in doc["pieces"]]
        return cls(doc["name"], doc["game"], jpg.read_bytes(), doc["width"], doc["height"],
                   pieces, doc["layout"], doc["conditions"], doc.get("scene", {}),
                   doc.get("render_seconds", 0.0))

    def as_shot(self) -> Any:
        """The photo as the 2-D synthesiser's :class:`testkit.photo_synth.Shot`, for its judge."""
        from testkit.photo_synth import Piece, Seen, Shot

        seen = []
        for p in self.pieces:
            if p.kind not in ("sector", "token"):
                continue
            piece = Piece(p.name, 0.0, 0.0, 0.0, p.kind,
                          tuple(p.cell) if p.cell is not None else None, p.card, p.rot)
            seen.append(Seen(piece, p.unseen, p.marker_covered))
        beyond = {tuple(p.cell) for p in self.pieces if p.cell is not None
                  and p.kind in ("sector", "token") and p.out_of_frame >= 0.5}
        return Shot(self.jpeg, self.width, self.height, seen, np.eye(3), self.conditions,
                    self.layout, beyond)  # type: ignore[arg-type]


def _digest(scene: Scene, kit: Kit) -> str:
    """The render's name: the scene (without where the kit lies: its pictures are hashed
    themselves), the Blender script, the pictures."""
    where, scene.kit = scene.kit, ""
    h = hashlib.sha256(scene.to_json().encode())
    scene.kit = where
    h.update(SCRIPT.read_bytes())
    for tex in sorted({m.texture for m in scene.meshes}):
        h.update((kit.folder / tex).read_bytes())
    return h.hexdigest()[:24]


def render(scene: Scene, kit: Kit, cache: Path | None = None, threads: int = 1,
           progress: bool = False) -> tuple[Path, float]:
    """Blender's render of ``scene`` (from the cache when made before): the folder holding
    render.hdr, glossy.hdr and rays.json, and the seconds the render took (when made)."""
    scene.kit = str(kit.folder)
    folder = (cache or cache_root()) / _digest(scene, kit)
    if (folder / "rays.json").is_file():
        return folder, float(json.loads((folder / "rays.json").read_text())["render_seconds"])
    work = folder.with_name(folder.name + f".{os.getpid()}.tmp")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "scene.json").write_text(scene.to_json(), encoding="utf-8")
    args = ["nice", "-n", "10", blender(), "-b", "--factory-startup", "--python",
            str(SCRIPT), "--", str(work / "scene.json"), str(work), str(threads)]
    start = time.perf_counter()
    if progress:
        print(f"  rendering {scene.camera.width}x{scene.camera.height} with Blender ...",
              flush=True)
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    (work / "blender.log").write_text(proc.stdout[-20000:] + proc.stderr[-20000:])
    if proc.returncode != 0 or not (work / "rays.json").is_file():
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-12:])
        raise RenderError(f"Blender failed on {work / 'scene.json'}:\n{tail}")
    (work / "scene.json").unlink()
    if progress:
        print(f"  rendered in {time.perf_counter() - start:.0f} s", flush=True)
    if folder.exists():
        shutil.rmtree(work)
    else:
        os.replace(work, folder)
    return folder, float(json.loads((folder / "rays.json").read_text())["render_seconds"])


def shoot(game: str, layout: dict[str, Any], defs: Any, kit: Kit, seed: int, name: str,
          options: Options | None = None, cache: Path | None = None,
          progress: bool = False, view: int = 0) -> Rendered:
    """The photo of ``layout`` made from ``seed`` (rendered, or from the cache); ``view``:
    another photo of the same table (:func:`testkit.render.scene.make_scene`)."""
    import cv2

    scene = make_scene(game, layout, defs, kit, seed, options, view)
    folder, seconds = render(scene, kit, cache, progress=progress)
    img = cv2.imread(str(folder / "render.hdr"), cv2.IMREAD_UNCHANGED)
    glossy = cv2.imread(str(folder / "glossy.hdr"), cv2.IMREAD_UNCHANGED)
    if img is None or glossy is None:
        raise RenderError(f"{folder}: the render cannot be read back")
    seen = json.loads((folder / "rays.json").read_text())["seen"]
    jpeg, pieces, info = develop(scene, img.astype(np.float32), glossy.astype(np.float32), seen)
    conditions = dict(scene.conditions)
    conditions.update(width=scene.camera.width, height=scene.camera.height,
                      glare_pieces=sum(1 for p in pieces if p.glare > 0.0
                                       and p.kind in ("sector", "token")),
                      glare_markers=sum(1 for p in pieces if p.marker_glare > 0.0
                                        and p.kind in ("sector", "token")))
    summary = scene.summary()
    summary["develop"] = info
    return Rendered(name, game, jpeg, scene.camera.width, scene.camera.height, pieces, layout,
                    conditions, summary, seconds)


def main() -> int:
    import argparse

    import yaml

    from cards.ruleset_cache import load_definitions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("orbitus", "satellites"), default="orbitus")
    parser.add_argument("--layout", type=Path, help="an Orbitus layout (YAML) or a "
                        "Satellites board (text) to photograph")
    parser.add_argument("--table", type=int, default=0,
                        help="else the benchmark's table of this index")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--name", default="")
    parser.add_argument("--kit", type=Path, help="a pnp build --png folder (default: built "
                        "into the cache)")
    parser.add_argument("--occluder", choices=("", "cup", "hand", "none"), default="")
    parser.add_argument("--glare-on", default="", help="a card ID or cell q,r to put a "
                        "lamp's reflection on")
    parser.add_argument("--glare-marker", action="store_true")
    parser.add_argument("--tilt", type=float, nargs=2)
    parser.add_argument("--px-per-mm", type=float, nargs=2)
    parser.add_argument("--k1", type=float, nargs=2)
    parser.add_argument("--curled", type=float, help="share of cards curled strongly")
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--no-out-of-frame", action="store_true")
    parser.add_argument("--tube", action="store_true", help="the aimed lamp a tube (a streak)")
    args = parser.parse_args()
    defs = load_definitions(args.game, None)
    kit_dir = args.kit or build_kit(kit_folder())
    kit = Kit(kit_dir, args.game)
    if args.layout is not None:
        text = args.layout.read_text(encoding="utf-8")
        if args.game == "orbitus":
            layout = yaml.safe_load(text)
        else:
            rows = [line.split("#")[0].split() for line in text.splitlines()]
            layout = {"board": [[t.upper() for t in r] for r in rows if r]}
    else:
        from testkit.photo_evaluate import tables

        layout = tables(args.game, defs, args.table + 1)[args.table]
        if args.game == "satellites":
            layout = {"board": layout}
    opt = Options(samples=args.samples, glare_on=args.glare_on,
                  glare_marker=args.glare_marker)
    if args.occluder == "none":
        opt.occluder_chance = 0.0
    elif args.occluder:
        opt.occluder = args.occluder
    if args.tilt:
        opt.tilt = tuple(args.tilt)  # type: ignore[assignment]
    if args.px_per_mm:
        opt.px_per_mm = tuple(args.px_per_mm)  # type: ignore[assignment]
    if args.k1:
        opt.k1 = tuple(args.k1)  # type: ignore[assignment]
    if args.curled is not None:
        opt.curled = args.curled
    if args.tube:
        opt.tube_chance = 1.0
    if args.no_out_of_frame:
        opt.out_of_frame_chance = 0.0
    shot = shoot(args.game, layout, defs, kit, args.seed, args.name or f"{args.game}-{args.seed}",
                 opt, progress=True)
    jpg, js = shot.save(args.out)
    print(f"wrote {jpg} ({len(shot.jpeg) // 1024} KB, {shot.width}x{shot.height}) and {js}")
    print("  " + json.dumps(shot.conditions))
    return 0


if __name__ == "__main__":
    sys.exit(main())

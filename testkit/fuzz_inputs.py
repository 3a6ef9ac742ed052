"""The fuzzer's readers of the files the tools read besides the definitions and the typed
tables: photos, marker maps, cache entries and a run's ``games.jsonl``
(:mod:`testkit.fuzzing` has the engine, the mutations and the first four readers).

* ``photos``: ``pnp score GAME --photo`` on a mutated photo of an Orbitus table or a
  Satellites board (JPEG and PNG; bytes flipped, cut, doubled, header sizes changed);
* ``markers``: ``pnp score GAME --photo --markers`` on a mutated ``markers.json``;
* ``caches``: the cache entries a command reads (rulesets of both games, the faces of the
  Orbitus cards), mutated where they lie and, one time in three, *forged* (mutated, then
  sealed with a checksum that matches): a damaged entry must change nothing of what the
  command prints (exit code, report) but one note line; a forged one must not stop it;
* ``games``: ``pnp sim GAME --resume`` on a run whose ``games.jsonl`` was mutated (lines
  cut, doubled, swapped, edited, lines of another run): the resumed run must end exit 0
  with the report of the whole run, byte for byte, and ``games.jsonl`` holding each game
  of the run once.

Photos are small (800 px, 1,000 px a side) and the marker templates and printed faces
are built once per fuzz run (what every command builds anew from the same data), so an
input costs a fraction of a second.
"""

from __future__ import annotations

import json
import random
import shutil
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

from testkit.fuzzing import (
    FIXTURES,
    Outcome,
    Reader,
    Tally,
    _capture,
    command_contract,
    escaped,
    fuzz,
    mutate,
)

KINDS = ("photos", "markers", "caches", "games")
LAYOUT = FIXTURES / "orbitus" / "two-players.yaml"
BOARD = FIXTURES / "satellites" / "contested.txt"
PLAYERS = {"orbitus": ["--players", "2"], "satellites": []}
JSON_HOSTILE = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1e-999", "0", "-0", "-1",
                "0.0001", "1e308", "9" * 400, "true", "null", '""', '"NaN"', "[]", "{}",
                "[[[[[[[[[[]]]]]]]]]]", '"\\u0000"', '"\\u001b[2J"', "1000000", "26", "5",
                "4", "999", "1000", "50.0", "120.0", "20.0", "12.0", "-360", "361"]


# --- mutations of binary files ------------------------------------------------------------


def mutate_binary(data: bytes, rng: random.Random) -> bytes:
    """``data`` (an image, an archive) with 1-3 mutations: bytes flipped or set to extreme
    values, ranges cut, doubled or overwritten, the file truncated, and the sizes in a
    JPEG or PNG header changed (0, 1, 65535 pixels)."""
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 3))):
        op = rng.randrange(8)
        if not out:
            out = bytearray(rng.randbytes(rng.randrange(1, 64)))
            continue
        i = rng.randrange(len(out))
        if op == 0:
            out[i] = rng.randrange(256)
        elif op == 1:
            for k in range(rng.randrange(1, 16)):
                if i + k < len(out):
                    out[i + k] = rng.choice((0, 255, rng.randrange(256)))
        elif op == 2:
            del out[i:i + rng.randrange(1, 4096)]
        elif op == 3:
            j = min(len(out), i + rng.randrange(1, 4096))
            out[j:j] = out[i:j]
        elif op == 4:
            del out[rng.randrange(len(out)):]
        elif op == 5:
            out[i:i] = rng.randbytes(rng.randrange(1, 256))
        else:
            _change_size(out, rng)
    return bytes(out)


def _change_size(out: bytearray, rng: random.Random) -> None:
    """Set the width or height a JPEG (SOF) or PNG (IHDR) header declares."""
    value = rng.choice((0, 1, 7, 65535, 30000, rng.randrange(65536)))
    if out.startswith(b"\x89PNG") and len(out) > 24:
        at = 16 + 4 * rng.randrange(2)
        out[at:at + 4] = struct.pack(">I", rng.choice((value, 2 ** 31 - 1, 100_000)))
        return
    for marker in (b"\xff\xc0", b"\xff\xc2"):
        at = out.find(marker)
        if 0 <= at < len(out) - 9:
            where = at + 5 + 2 * rng.randrange(2)
            out[where:where + 2] = struct.pack(">H", value)
            return


def mutate_json(data: bytes, rng: random.Random) -> bytes:
    """A marker map mutated: the text mutations, or a number replaced by a hostile JSON
    value (NaN, 1e999, a size of 10^6 ...)."""
    import re

    if rng.random() < 0.5:
        return mutate(data, rng, "markers")
    text = data.decode("utf-8", "surrogateescape")
    for _ in range(rng.choice((1, 1, 2))):
        found = list(re.finditer(r"(?<=: )-?[0-9][0-9.e+-]*|(?<=: )\"[^\"]*\"", text))
        if not found:
            break
        m = rng.choice(found)
        text = text[:m.start()] + rng.choice(JSON_HOSTILE) + text[m.end():]
    return text.encode("utf-8", "surrogateescape")


# --- the shared pieces: small photos, a build's markers, the costly parts built once --------


class _Once:
    """What every photo command builds from the same data: the marker templates and the
    printed faces, built once per fuzz run."""

    def __init__(self) -> None:
        import photo.art as art
        import photo.orbitus
        import photo.satellites

        books: dict[tuple[int, ...], Any] = {}
        real_book = photo.orbitus.Codebook

        def book(ids: Any) -> Any:
            key = tuple(ids)
            if key not in books:
                books[key] = real_book(list(ids))
            return books[key]

        hexes: dict[Any, Any] = {}
        real_art = art.HexArt.for_orbitus.__func__  # type: ignore[attr-defined]

        def for_orbitus(cls: Any, defs: Any) -> Any:
            key = (tuple(s.id for s in defs.sectors.sectors), defs.sectors.hex_across_flats_mm)
            if key not in hexes:
                hexes[key] = real_art(cls, defs)
            return hexes[key]

        self._undo: list[tuple[Any, str, Any]] = [
            (photo.orbitus, "Codebook", photo.orbitus.Codebook),
            (photo.satellites, "Codebook", photo.satellites.Codebook),
            (art.HexArt, "for_orbitus", art.HexArt.__dict__["for_orbitus"])]
        photo.orbitus.Codebook = book  # type: ignore[assignment,misc]
        photo.satellites.Codebook = book  # type: ignore[assignment,misc]
        art.HexArt.for_orbitus = classmethod(for_orbitus)  # type: ignore[assignment]

    def undo(self) -> None:
        """The modules as they were (the rest of a test run builds anew)."""
        for owner, name, value in self._undo:
            setattr(owner, name, value)


_ONCE: _Once | None = None


def _built_once() -> None:
    global _ONCE
    if _ONCE is None:
        _ONCE = _Once()


def _undo_once() -> None:
    global _ONCE
    if _ONCE is not None:
        _ONCE.undo()
        _ONCE = None


def small_photos(work: Path) -> list[Path]:
    """A photo of the two-player Orbitus table (JPEG, 800 px) and of the crowned Satellites
    board (JPEG 1,000 px, and PNG), each still read in full."""
    import cv2
    import numpy as np

    from testkit.photo_evaluate import Bench
    from testkit.photo_examples import orbitus_photo, satellites_photo

    work.mkdir(parents=True, exist_ok=True)
    out = []
    for name, data, side, ext in (
            ("orbitus", orbitus_photo(Bench("orbitus", 2026, 1)), 800, ".jpg"),
            ("satellites", satellites_photo(Bench("satellites", 2026, 1)), 1000, ".jpg"),
            ("satellites", None, 1000, ".png")):
        if data is None:
            img = cv2.imdecode(np.frombuffer(out[-1].read_bytes(), np.uint8), cv2.IMREAD_COLOR)
        else:
            img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            k = side / max(img.shape[:2])
            img = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(ext, img, [cv2.IMWRITE_JPEG_QUALITY, 85] if ext == ".jpg" else [])
        assert ok
        path = work / f"{name}{ext}"
        path.write_bytes(buf.tobytes())
        out.append(path)
    return out


def _game_of(seed: Path) -> str:
    return "orbitus" if seed.name.startswith("orbitus") else "satellites"


# --- the readers ---------------------------------------------------------------------------


class _PhotoCommand(Reader):
    """``pnp score GAME --photo ...`` on a mutated input file (:meth:`arguments` say where
    it goes on the command line)."""

    def input_path(self, seed: Path) -> Path:
        return self.work / f"input{seed.suffix}"

    def arguments(self, game: str, path: Path) -> list[str]:
        raise NotImplementedError

    def run(self, data: bytes, seed: Path) -> Outcome:
        from scorer.cli import main

        path = self.input_path(seed)
        path.write_bytes(data)
        args = [_game_of(seed), *self.arguments(_game_of(seed), path)]
        return _capture(lambda: main(args))

    def judge(self, outcome: Outcome, seed: Path) -> str | None:
        return command_contract(outcome, (str(self.input_path(seed)), "pnp"))

    def close(self) -> None:
        _undo_once()


class PhotoReader(_PhotoCommand):
    """``pnp score GAME --photo`` on a mutated photo."""

    def __init__(self, work: Path) -> None:
        self.kind = "photos"
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        self.seeds = small_photos(work / "seeds")
        _built_once()

    def mutate(self, data: bytes, rng: random.Random, seed: Path) -> bytes:
        return mutate_binary(data, rng)

    def arguments(self, game: str, path: Path) -> list[str]:
        return ["--photo", str(path), *PLAYERS[game]]


class MarkersReader(_PhotoCommand):
    """``pnp score GAME --photo PHOTO --markers`` on a mutated ``markers.json``."""

    def __init__(self, work: Path) -> None:
        from generator.build import build

        self.kind = "markers"
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        self.photos = {_game_of(p): p for p in small_photos(work / "photos")
                       if p.suffix == ".jpg"}
        build(work / "kit", ("orbitus", "satellites"))
        self.seeds = []
        for game in ("orbitus", "satellites"):
            seed = work / f"{game}-markers.json"
            shutil.copy(work / "kit" / game / "markers.json", seed)
            self.seeds.append(seed)
        _built_once()

    def input_path(self, seed: Path) -> Path:
        return self.work / "markers.json"

    def mutate(self, data: bytes, rng: random.Random, seed: Path) -> bytes:
        return mutate_json(data, rng)

    def arguments(self, game: str, path: Path) -> list[str]:
        return ["--photo", str(self.photos[game]), *PLAYERS[game], "--markers", str(path)]


class CacheReader(Reader):
    """A command reading a mutated (or forged) cache entry where its own entry lies."""

    def __init__(self, work: Path) -> None:
        import os

        from cards.ruleset_cache import load_definitions, load_ruleset
        from photo.art import faces

        self.kind = "caches"
        self.work = work
        self.folder = work / "cache"
        self.folder.mkdir(parents=True, exist_ok=True)
        self._before = os.environ.get("PNP_CACHE_DIR")
        os.environ["PNP_CACHE_DIR"] = str(self.folder)
        self.commands = {"orbitus": ["orbitus", str(LAYOUT)],
                         "satellites": ["satellites", str(BOARD)]}
        self.reference: dict[str, Outcome] = {}
        for game in ("orbitus", "satellites"):
            load_ruleset(game)
            self.reference[game] = self._score(game)
        defs = load_definitions("orbitus")
        self.names = [f"sector-{s.id}" for s in defs.sectors.sectors]
        from photo.art import LEVEL, _fingerprint

        self.key, self.shapes = _fingerprint("orbitus", defs, self.names, LEVEL)
        self.faces = faces("orbitus", defs, self.names)
        self.seeds = sorted(self.folder.glob("*-*.*"))
        self.originals = {p: p.read_bytes() for p in self.seeds}
        self.forged: dict[Path, bool] = {}

    def _score(self, game: str) -> Outcome:
        from scorer.cli import main

        return _capture(lambda: main(self.commands[game]))

    def input_path(self, seed: Path) -> Path:
        return seed

    def mutate(self, data: bytes, rng: random.Random, seed: Path) -> bytes:
        from cards import cache

        head, payload = data.split(b"\n", 1)
        forge = rng.random() < 1 / 3
        self.forged[seed] = forge
        binary = seed.suffix == ".npz"
        if not forge:
            return mutate_binary(data, rng) if binary else mutate(data, rng, "caches")
        kind, key = head.split()[4].decode(), head.split()[5].decode()
        changed = mutate_binary(payload, rng) if binary else mutate(payload, rng, "caches")
        return cache._header(kind, key, changed) + changed

    def run(self, data: bytes, seed: Path) -> Outcome:
        seed.write_bytes(data)
        try:
            if seed.suffix == ".npz":
                return _capture(lambda: self._faces_outcome(seed))
            return self._score(_game_of(Path(seed.name.removeprefix("ruleset-"))))
        finally:
            seed.write_bytes(self.originals[seed])  # the next input starts from the honest one

    def _faces_outcome(self, seed: Path) -> str:
        import numpy as np

        from photo.art import _from_cache

        found = _from_cache("orbitus", self.key, self.names, self.shapes)
        if found is None:
            return "refused"
        if all(np.array_equal(found[n], self.faces[n]) for n in self.names):
            return "same"
        if all(found[n].shape == self.shapes[n] and found[n].dtype == np.uint8
               for n in self.names):
            return "other faces"
        return "faces of the wrong size"

    def judge(self, outcome: Outcome, seed: Path) -> str | None:
        why = escaped(outcome)
        if why is not None:
            return why
        notes = [line for line in outcome.err.splitlines()]
        if len(notes) > 1 or any(not line.startswith(f"{seed}: note: ") for line in notes):
            return f"contract: not one note naming the entry: {notes[:3]!r}"
        if seed.suffix == ".npz":
            if outcome.code == "faces of the wrong size" or (
                    outcome.code == "other faces" and not self.forged[seed]):
                return f"contract: a damaged entry was believed ({outcome.code})"
            return None
        if self.forged[seed]:
            return command_contract(outcome, (str(seed), "pnp"))
        reference = self.reference[_game_of(Path(seed.name.removeprefix("ruleset-")))]
        if (outcome.code, outcome.out) != (reference.code, reference.out):
            return "contract: a damaged entry changed what the command printed"
        return None

    def close(self) -> None:
        import os

        if self._before is None:
            os.environ.pop("PNP_CACHE_DIR", None)
        else:
            os.environ["PNP_CACHE_DIR"] = self._before


def _lines(data: bytes) -> list[bytes]:
    """The lines of a ``games.jsonl`` as the simulator reads them: ended by a newline only
    (a carriage return inside a line is JSON's white space, not the end of a line, as
    :meth:`bytes.splitlines` would have it)."""
    return data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")


class GamesReader(Reader):
    """``pnp sim GAME --resume`` on a run whose ``games.jsonl`` was mutated."""

    RUNS = {"satellites": ["satellites", "--games", "24", "--seed", "5"],
            "orbitus": ["orbitus", "--players", "2", "--games", "4", "--seed", "5"]}

    def __init__(self, work: Path) -> None:
        import sim.plots

        self.kind = "games"
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        self._plots = sim.plots.available
        sim.plots.available = lambda: False  # the plots read the same summary; they cost
        self.reference: dict[str, str] = {}
        self.games: dict[str, list[tuple[int, int]]] = {}
        self.seeds = []
        for game, args in self.RUNS.items():
            whole = work / f"whole-{game}"
            out = _capture(lambda args=args, whole=whole: self._sim(args, whole, False))
            assert out.code == 0, out.err
            self.reference[game] = out.out
            lines = _lines((whole / "games.jsonl").read_bytes())
            self.games[game] = sorted((r["players"], r["game"]) for r in map(json.loads, lines))
            seed = work / f"{game}-games.jsonl"
            shutil.copy(whole / "games.jsonl", seed)
            self.seeds.append(seed)
        other = work / "other"
        _capture(lambda: self._sim([*self.RUNS["satellites"][:-1], "6"], other, False))
        self.foreign = (other / "games.jsonl").read_bytes().splitlines(keepends=True)

    @staticmethod
    def _sim(args: list[str], out: Path, resume: bool) -> int:
        from sim.cli import main

        return main([*args, "--jobs", "1", "--json", "-q", "--out", str(out),
                     *(["--resume"] if resume else [])])

    def input_path(self, seed: Path) -> Path:
        return self.work / "run" / "games.jsonl"

    def mutate(self, data: bytes, rng: random.Random, seed: Path) -> bytes:
        lines = data.splitlines(keepends=True)
        for _ in range(rng.choice((1, 1, 2, 3))):
            op = rng.randrange(8)
            if op == 0 and lines:  # a line lost
                del lines[rng.randrange(len(lines))]
            elif op == 1 and lines:  # a line twice
                i = rng.randrange(len(lines))
                lines.insert(rng.randrange(len(lines) + 1), lines[i])
            elif op == 2:  # the whole file appended to itself
                lines = lines + lines[:rng.randrange(len(lines) + 1)]
            elif op == 3:  # a line of another run
                lines.insert(rng.randrange(len(lines) + 1), rng.choice(self.foreign))
            elif op == 4 and lines:  # cut off (an interruption)
                lines[-1] = lines[-1][:rng.randrange(len(lines[-1]))]
            elif op == 5:  # a hostile line
                lines.insert(rng.randrange(len(lines) + 1),
                             rng.choice([b"{}\n", b"[]\n", b"\n", b"null\n", b"\x00\xff\n",
                                         b"[" * 5000 + b"\n", b"x" * 300_000 + b"\n",
                                         b'{"players": 2, "game": 1e999}\n']))
            else:  # bytes and values: the text mutations
                data = b"".join(lines)
                lines = mutate(data, rng, "games").splitlines(keepends=True)
        return b"".join(lines)

    def run(self, data: bytes, seed: Path) -> Outcome:
        game = _game_of(seed)
        out = self.work / "run"
        if out.exists():
            shutil.rmtree(out)
        out.mkdir()
        shutil.copy(self.work / f"whole-{game}" / "run.json", out / "run.json")
        (out / "games.jsonl").write_bytes(data)
        return _capture(lambda: self._sim(self.RUNS[game], out, True))

    def judge(self, outcome: Outcome, seed: Path) -> str | None:
        game = _game_of(seed)
        path = self.input_path(seed)
        why = command_contract(outcome, (str(path), "pnp"))
        if why is not None:
            return why
        if outcome.code != 0:
            return f"contract: exit {outcome.code}: {outcome.err.strip()[-200:]}"
        for line in outcome.err.splitlines():
            if not line.startswith((f"{path}:", "pnp-sim: kept ")):
                return f"contract: a line that names no line of the file: {line!r}"
        if outcome.out != self.reference[game]:
            return "contract: the resumed run's report is not the whole run's"
        try:
            found = sorted((r["players"], r["game"])
                           for r in map(json.loads, _lines(path.read_bytes())))
        except (ValueError, KeyError, TypeError) as exc:
            return f"contract: games.jsonl kept a line that is not a game ({exc})"
        if found != self.games[game]:
            return "contract: games.jsonl does not hold each game of the run once"
        return None

    def close(self) -> None:
        import sim.plots

        sim.plots.available = self._plots


READERS: dict[str, Callable[[Path], Reader]] = {
    "photos": PhotoReader, "markers": MarkersReader, "caches": CacheReader,
    "games": GamesReader}


def fuzz_any(kind: str, count: int, seed: int, work: Path, keep: Path | None = None,
             progress: Callable[[int], None] | None = None) -> Tally:
    """:func:`testkit.fuzzing.fuzz` over any reader, these four included."""
    if kind not in READERS:
        return fuzz(kind, count, seed, work, keep, progress)
    reader = READERS[kind](work / kind)
    try:
        return fuzz(kind, count, seed, work, keep, progress, reader=reader)
    finally:
        close = getattr(reader, "close", None)
        if close is not None:
            close()

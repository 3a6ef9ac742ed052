"""pnp score --photo under attack: outputs that would replace a photo or picture of the
user's, a named pipe or /dev/zero as the photo or the markers, a markers.json with numbers
no kit has (10^6 cells, NaN, sizes of nothing), a poisoned cache of the printed faces.
Each is refused at once with one clear line (file:line for a markers file) or, for the
cache, made again with a note; never a hang, an internal error or LAPACK's text on stdout.

The commands run as a user runs them (their own process: a hang is a timeout, and whatever
native code writes to the standard output is seen)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from testkit.photo_evaluate import Bench
from testkit.photo_examples import orbitus_photo, satellites_photo

ROOT = Path(__file__).resolve().parent.parent
PHOTO_OF_MY_CAT = bytes.fromhex("ffd8ffe000104a46494600010100000100010000") + b"\x00" * 64


def pnp(*args: str, timeout: float = 120, env: dict[str, str] | None = None,
        cwd: Path = ROOT) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, env={**os.environ, **(env or {})})
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def orbitus_jpeg(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("photos") / "table.jpg"
    path.write_bytes(orbitus_photo(Bench("orbitus", 2026, 12)))
    return path


@pytest.fixture(scope="module")
def satellites_jpeg(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("photos") / "board.jpg"
    path.write_bytes(satellites_photo(Bench("satellites", 2026, 12)))
    return path


@pytest.fixture(scope="module")
def markers(tmp_path_factory) -> dict[str, str]:
    """The markers.json of a build of both games."""
    from generator.build import build

    out = tmp_path_factory.mktemp("kit")
    build(out, ("orbitus", "satellites"))
    return {g: (out / g / "markers.json").read_text(encoding="utf-8")
            for g in ("orbitus", "satellites")}


# --- point 1: an output replaces only a file this command wrote ---------------------------


def test_debug_image_never_replaces_a_photo_of_the_users(orbitus_jpeg, tmp_path):
    """--debug-image IMG_0001.jpg, the next photo on the phone, by a slip of the finger."""
    mine = tmp_path / "IMG_0001.jpg"
    mine.write_bytes(orbitus_jpeg.read_bytes()[:-10] + b"my cat\xff\xd9")
    holiday = tmp_path / "holiday.png"
    holiday.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    drawing = tmp_path / "drawing.svg"
    drawing.write_text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    before = {p: p.read_bytes() for p in (mine, holiday, drawing)}
    prog = "pnp score orbitus"
    for flag, target, line in [
        ("--debug-image", mine, f"{prog}: --debug-image {mine}: already exists and is not a "
                                "debug image this command wrote; it is left alone: give a new "
                                "name (or delete the file first)"),
        ("--debug-image", holiday, f"{prog}: --debug-image {holiday}: already exists and is "
                                   "not a debug image this command wrote; it is left alone: "
                                   "give a new name (or delete the file first)"),
        ("--png", holiday, f"{prog}: --png {holiday}: already exists and is not a PNG picture "
                           "this tool wrote; it is left alone: give a new name (or delete the "
                           "file first)"),
        ("--svg", drawing, f"{prog}: --svg {drawing}: already exists and is not an SVG picture "
                           "this tool wrote; it is left alone: give a new name (or delete the "
                           "file first)"),
    ]:
        done = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2", flag,
                   str(target))
        assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")
    assert {p: p.read_bytes() for p in before} == before
    # what this command wrote, it replaces
    debug, picture = tmp_path / "read.jpg", tmp_path / "table.png"
    for _ in range(2):
        done = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2",
                   "--debug-image", str(debug), "--png", str(picture))
        assert done.returncode in (0, 1), done.stderr
        assert debug.read_bytes().startswith(b"\xff\xd8\xff")
        assert picture.read_bytes().startswith(b"\x89PNG")


# --- point 6: regular files only, and sizes a photo can have --------------------------------


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_a_photo_that_is_no_file_of_a_photo_is_refused_at_once(kind, tmp_path):
    photo = tmp_path / "photo.jpg"
    if kind == "fifo":
        os.mkfifo(photo)
        what = "is a named pipe (FIFO), not a regular file; expected a photo (JPEG or PNG)"
    elif kind == "dev-zero":
        photo.symlink_to("/dev/zero")
        what = "is a device, not a regular file; expected a photo (JPEG or PNG)"
    else:
        with photo.open("wb") as handle:
            handle.truncate(130_000_000)
        what = ("is 130 MB, more than the 120 MB allowed for a photo (JPEG or PNG); is this "
                "the right file?")
    for game, extra in (("orbitus", ["--players", "2"]), ("satellites", [])):
        done = pnp("score", game, "--photo", str(photo), *extra, timeout=60)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == f"pnp score {game}: {photo}: {what}\n"


def test_a_markers_file_that_is_a_pipe_is_refused_at_once(orbitus_jpeg, tmp_path):
    fifo = tmp_path / "markers.json"
    os.mkfifo(fifo)
    done = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2",
               "--markers", str(fifo), timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"{fifo}: is a named pipe (FIFO), not a regular file; expected a markers.json "
        "written by pnp build",
        f"pnp score orbitus: --markers {fifo}: 1 problem(s); the photo was not read (give the "
        "markers.json of the build the pieces were printed from)"]


# --- point 7: one markers loader, with the definitions' guarantees --------------------------


# the first token marker's size, as the built markers.json gives it (the kit's design sets
# it; issue 20 changed it), found in the file rather than written here
TOKEN_MARKER_SIZE = "<the first marker's size>"


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize(("game", "old", "new", "line"), [
    ("satellites", '"size": 10', '"size": 1000000',
     "{f}:14: board: size: 1000000; expected a whole number of 5 to 26 cells a side"),
    ("satellites", '"cell_mm": 30.0', '"cell_mm": 0',
     "{f}:15: board: cell_mm: 0; expected 10 to 60 mm a cell"),
    ("satellites", TOKEN_MARKER_SIZE, '"size": NaN',
     "{f}:20: NaN is not a number a markers file holds; expected the markers.json a build "
     "wrote"),
    ("satellites", TOKEN_MARKER_SIZE, '"size": 1e999',
     "{f}:20: markers[0]: size Infinity; expected the marker's side, 1 to 25 mm (what fits on "
     "a token of this map)"),
    ("satellites", '"x": 0.0', '"x": "left"',
     '{f}:20: markers[0]: x "left"; expected the centre on the token, -12.5 to 12.5 mm'),
    ("satellites", '"value": 1}', '"value": 7}',
     "{f}:20: markers[0]: value 7; expected 1 to 4"),
    ("orbitus", '"hex_across_flats_mm": 50.0', '"hex_across_flats_mm": -50',
     "{f}:13: hex_across_flats_mm: -50; expected a sector's width across flats of 20 to 120 mm "
     "(the shipped deck: 50)"),
    ("orbitus", '"size": 12.0', '"size": 0.0',
     "{f}:15: markers[0]: size 0.0; expected the marker's side, 1 to 30 mm (what fits on a "
     "station of this map)"),
    ("orbitus", '"id": 2,', '"id": 1,',
     "{f}:17: markers[2]: id 1 is listed twice (also markers[1])"),
    ("orbitus", '"rotate": 15.0', '"rotate": -1e300',
     "{f}:16: markers[1]: rotate -1e+300; expected degrees from -360 to 360"),
    ("orbitus", '"kind": "sector"', '"kind": "planet"',
     "{f}:16: markers[1]: kind \"planet\"; an orbitus map has station and sector markers"),
    ("orbitus", '"name": "S01"', '"name": "S01", "name": "S02"',
     "{f}:16: the field 'name' is given twice; expected the markers.json a build wrote"),
])
def test_a_markers_file_with_numbers_no_kit_has_is_refused_with_its_line(
        orbitus_jpeg, satellites_jpeg, markers, tmp_path, game, old, new, line):
    if old == TOKEN_MARKER_SIZE:  # the size the build gave the first token's marker
        size = json.loads(markers[game])["markers"][0]["size"]
        old = f'"size": {json.dumps(size)}'
    path = tmp_path / "markers.json"
    path.write_text(edit(markers[game], old, new), encoding="utf-8")
    photo = orbitus_jpeg if game == "orbitus" else satellites_jpeg
    extra = ["--players", "2"] if game == "orbitus" else []
    done = pnp("score", game, "--photo", str(photo), *extra, "--markers", str(path), timeout=60)
    assert (done.returncode, done.stdout) == (2, "")  # nothing on stdout: no LAPACK text
    assert done.stderr.splitlines() == [
        line.format(f=path),
        f"pnp score {game}: --markers {path}: 1 problem(s); the photo was not read (give the "
        "markers.json of the build the pieces were printed from)"]


@pytest.mark.parametrize("extra", [False, True])
def test_a_markers_file_of_another_deck_is_refused_in_one_line(orbitus_jpeg, markers,
                                                                tmp_path, extra):
    """A map that lacks a card of the definitions (a build of another deck; found by the
    fuzzer: an internal error, KeyError 'S49') says which, before the photo is read."""
    lines = markers["orbitus"].splitlines(keepends=True)
    (s49,) = [i for i, line in enumerate(lines) if '"name": "S49"' in line]
    if extra:  # another card in its place: S49's marker, named as a card no deck has
        lines[s49] = lines[s49].replace('"S49"', '"S99"')
    else:
        del lines[s49]
    path = tmp_path / "markers.json"
    path.write_text("".join(lines), encoding="utf-8")
    done = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2",
               "--markers", str(path), timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[-1] == (
        f"pnp score orbitus: --markers {path}: 1 sector(s) of the definitions have no marker "
        "in it (S49); expected the markers.json of a build of these definitions (or give the "
        "--cards it was built from)")


def test_a_markers_file_of_the_build_reads_the_photo_as_its_definitions_do(orbitus_jpeg,
                                                                          markers, tmp_path):
    path = tmp_path / "markers.json"
    path.write_text(markers["orbitus"], encoding="utf-8")
    own = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2", "--json")
    given = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2", "--json",
                "--markers", str(path))
    assert own.returncode == given.returncode == 0, given.stderr
    assert json.loads(given.stdout)["players"] == json.loads(own.stdout)["players"]


def test_native_code_cannot_write_into_the_report(capfd):
    """What LAPACK or OpenCV would print on the process's stdout while a photo is read goes
    nowhere; the report before and after is untouched."""
    from pnp.common import native_output_silenced, write_out

    write_out("before\n")
    with native_output_silenced():
        os.write(1, b" ** On entry to DGESDD parameter number 5 had an illegal value\n")
    write_out("after\n")
    assert capfd.readouterr().out == "before\nafter\n"


# --- point 5: a poisoned cache of the printed faces ---------------------------------------


def test_a_poisoned_cache_of_faces_is_made_again_and_the_table_still_reads(orbitus_jpeg,
                                                                         tmp_path):
    cache = tmp_path / "cache"
    env = {"PNP_CACHE_DIR": str(cache)}
    honest = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2", "--json",
                 env=env)
    assert honest.returncode == 0, honest.stderr
    read = json.loads(honest.stdout)["photo"]["read"]
    assert read == 14
    (entry,) = cache.glob("faces-orbitus-*.npz")
    # the poison: an archive of blank faces of the right names and sizes, as an earlier
    # version kept them (it trusted any archive with the right names)
    payload = entry.read_bytes().split(b"\n", 1)[1]
    import io

    with np.load(io.BytesIO(payload)) as data:
        blank = {k: np.full_like(data[k], 255) for k in data.files}
    buf = io.BytesIO()
    np.savez_compressed(buf, **blank)
    entry.write_bytes(buf.getvalue())
    poisoned = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2",
                   "--json", env=env)
    assert poisoned.returncode == 0, poisoned.stderr
    assert json.loads(poisoned.stdout)["photo"]["read"] == read
    assert json.loads(poisoned.stdout)["players"] == json.loads(honest.stdout)["players"]
    assert poisoned.stderr == (f"{entry}: note: not a cache entry of this tool (no header); "
                               "not used, made again\n")
    # a byte of the kept faces flipped: the checksum says so
    data = bytearray(entry.read_bytes())
    data[-100] ^= 0xFF
    entry.write_bytes(bytes(data))
    flipped = pnp("score", "orbitus", "--photo", str(orbitus_jpeg), "--players", "2",
                  "--json", env=env)
    assert flipped.stdout == honest.stdout
    assert flipped.stderr == (f"{entry}: note: damaged (its checksum does not match its "
                              "content); not used, made again\n")

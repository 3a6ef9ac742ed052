"""``pnp-score GAME --photo FILE``: read the finished table from a photo, then score it.

Shared by both games: the checks made before anything is read (the output files), the
OpenCV import with its install hint, reading the photo file, writing the layout read
and the debug image (each atomically, never over the photo or a file the tool did not
write). The games' own parts score a reading; turning it into the layout text (and the
sentences for cells seen but not read) is :mod:`scorer.photo_layout`'s, which the browser
companion's photo upload shares.

Only this module and :mod:`photo` import OpenCV and NumPy, and only for ``--photo``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cards.safe_text import printable
from pnp.common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    DefinitionsFailed,
    fail,
    misuse,
    native_output_silenced,
    shown,
    write_out,
)
from scorer.photo_layout import (
    INSTALL,
    LAYOUT_MARK,
    cell_text,
    markers_missing,
    orbitus_layout_text,
    orbitus_lifted,
    orbitus_unread,
    satellites_board_text,
    satellites_unread,
)

MAX_PHOTO_BYTES = 120_000_000  # a 50-megapixel phone JPEG is about 25 MB


def output_problem(prog: str, flag: str, target: Path | None, inputs: list[Path],
                   others: list[Path | None], kind: str) -> str | None:
    """Why ``--{flag}`` must not write to ``target``, or None: checked before anything is
    read. Refused: '-', a folder, a folder that does not exist, a link, pipe or device, an
    input file, another output's file, and an existing file that is not what this option
    writes (``kind``: "layout" for one this command wrote, "image" for a PNG or JPEG)."""
    if target is None:
        return None
    said = f"{prog}: --{flag} {shown(target)}"
    example = "read.yaml" if kind == "layout" else "read.png"
    if str(target) == "-":
        return f"{prog}: --{flag}: give a file name, not '-', e.g. {example}"
    if target.is_dir():
        return f"{said}: is a folder; give a file name, e.g. {shown(target / example)}"
    parent = target.parent
    if not parent.is_dir():
        return (f"{said}: the folder {shown(parent)} does not exist; create it first"
                if not parent.exists() else f"{said}: {shown(parent)} is a file, not a folder")
    for given in inputs:
        if _same(target, given):
            return (f"{said}: is the input file {shown(given)}; give the output a name of its "
                    f"own")
    for other in others:
        if other is not None and _same(target, other):
            return f"{said}: is also another output's file; give each its own name"
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{said}: cannot be written: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return f"{said}: is a link; give the file itself"
    if not stat.S_ISREG(info.st_mode):
        return f"{said}: is not a regular file (a pipe or a device); give a file name"
    if info.st_size and not _ours(target, kind):
        what = ("a layout read from a photo by this command" if kind == "layout"
                else "a debug image this command wrote")
        return (f"{said}: already exists and is not {what}; it is left alone: give a new "
                f"name (or delete the file first)")
    return None


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except (OSError, RuntimeError):
        return False


def _ours(path: Path, kind: str) -> bool:
    """Whether ``path`` is a file this command wrote: a layout read from a photo (its first
    line), or a debug image carrying the tool's mark (a photo of the user's never does)."""
    from pnp.common import carries_mark, file_head

    head = file_head(path)
    if kind == "image":
        return head.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")) and carries_mark(head)
    return head.startswith(LAYOUT_MARK.encode())


def debug_images(debug: Path | None, count: int) -> list[Path]:
    """Where the debug images of ``count`` photos go: ``--debug-image read.jpg`` for the
    first, ``read-2.jpg`` for the second and so on."""
    if debug is None:
        return []
    return [debug] + [debug.with_name(f"{debug.stem}-{i + 1}{debug.suffix}")
                      for i in range(1, count)]


def check_outputs(prog: str, opts: Any, photos: list[Path], example: str) -> str | None:
    """Every output option checked before anything is read (see :func:`output_problem`;
    ``--svg``/``--png`` by the scorers' own check)."""
    from pnp.common import other_picture, picture_target_problem

    layout_out = opts.layout_out
    debugs = debug_images(opts.debug_image, len(photos))
    pictures = [opts.svg, opts.png]
    for i, photo in enumerate(photos):
        for other in photos[:i]:
            if _same(photo, other):
                return (f"{prog}: --photo {photo} is given twice; give two different photos "
                        f"of the table (another angle, or the lamp moved)")
    problem = output_problem(prog, "layout-out", layout_out, photos, [*debugs, *pictures],
                             "layout")
    for i, debug in enumerate(debugs):
        problem = problem or output_problem(
            prog, "debug-image", debug, photos,
            [layout_out, *pictures, *(d for j, d in enumerate(debugs) if j != i)], "image")
    debug = opts.debug_image
    if problem is None and debug is not None and \
            debug.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        problem = (f"{prog}: --debug-image {shown(debug)}: name it .png or .jpg (the image is "
                   f"written in the format its name says)")
    for flag in ("svg", "png"):
        problem = problem or picture_target_problem(prog, flag, getattr(opts, flag), example,
                                                    photos, other_picture(opts, flag))
    return problem


def need_opencv(prog: str) -> int | None:
    """None when OpenCV and NumPy can be imported; else the exit code, with the hint."""
    from photo import can_read  # before NumPy: it keeps NumPy's BLAS to one thread

    return None if can_read() else fail(f"{prog}: {INSTALL}")


def read_photo(prog: str, path: Path) -> bytes | int:
    """The photo file's bytes, or the exit code after one clear line: a regular file only
    (a pipe or a device such as /dev/zero is refused at once), of at most
    ``MAX_PHOTO_BYTES``."""
    from cards.reading import UnreadableInput, read_bytes_safely

    try:
        return read_bytes_safely(path, "a photo (JPEG or PNG)", MAX_PHOTO_BYTES,
                                 shown=shown(path))
    except UnreadableInput as exc:
        return fail(f"{prog}: {exc.problems[0]}")


def write_outputs(prog: str, opts: Any, layout_text: str,
                  debugs: list[Callable[[], Any]]) -> int | None:
    """Write ``--layout-out`` and ``--debug-image`` (one for each photo, atomically); the
    exit code on failure."""
    from generator.output import write_atomic

    try:
        if opts.layout_out is not None:
            write_atomic(opts.layout_out, layout_text.encode("utf-8"))
        if opts.debug_image is not None:
            from photo.debug import encode

            for path, draw in zip(debug_images(opts.debug_image, len(debugs)), debugs,
                                  strict=True):
                write_atomic(path, encode(draw(), str(path)))
    except OSError as exc:
        return fail(f"{prog}: cannot write {shown(exc.filename or '')}: {exc.strerror or exc}")
    return None


def players_from(text: str | None) -> list[str] | str:
    """``--players``: names separated by commas, or a count (2-6) for P1, P2 ...; a
    message when it is neither."""
    if text is None:
        return ("--photo needs --players: the names in seat order (--players Anna,Boris) or "
                "their number (--players 2); a photo does not show who sat where")
    value = text.strip()
    if value.isdigit() or value.isdecimal():
        if not value.isascii() or len(value) > 2:
            return f"--players {printable(value[:20])!r}: give 2 to 6, or the names"
        n = int(value)
        if not 2 <= n <= 6:
            return f"--players {value}: Orbitus is played by 2 to 6 players"
        return [f"P{i + 1}" for i in range(n)]
    names = [n.strip() for n in value.split(",")]
    if any(not n for n in names):
        return f"--players {text!r}: an empty name; separate the names by commas"
    if len(set(names)) != len(names):
        return f"--players {text!r}: a name is given twice"
    if not 2 <= len(names) <= 6:
        return f"--players {text!r}: {len(names)} name(s); Orbitus is played by 2 to 6"
    return names


def _read(prog: str, opts: Any, game: str, cards: Any, photos: list[Path],
          datas: list[bytes]) -> int | tuple[Any, Any, list[Callable[[], Any]]]:
    """The photos read against the game's markers (the definitions' own, or ``--markers``),
    each on its own, and merged cell by cell (:mod:`photo.merge`): the definitions, the
    reading, and for each photo a function that draws its debug image; or the exit code
    after a one-line message."""
    from cards.loader import DefinitionError
    from cards.ruleset_cache import load_definitions
    from generator.markers.plan import MarkerMapError
    from generator.markers.reading import read_markers
    from photo import marker_map
    from photo.image import PhotoError


    try:
        defs = load_definitions(game, cards)
    except DefinitionError as exc:  # the one rule of every command for unusable definitions
        raise DefinitionsFailed(exc, "the photo was not read") from None
    try:
        mmap = marker_map(game, defs) if opts.markers is None else \
            read_markers(Path(opts.markers), game, shown(opts.markers))
    except MarkerMapError as exc:  # one line a problem, FILE:LINE: ...
        for line in exc.problems:
            fail(line)
        return fail(f"{prog}: --markers {shown(opts.markers)}: {len(exc.problems)} problem(s); "
                    f"the photo was not read (give the markers.json of the build the pieces "
                    f"were printed from)")
    missing = markers_missing(game, mmap)
    if missing:
        return fail(f"{prog}: {missing}")
    from photo import map_mismatch, reader_for
    from photo.merge import evidence_of, merge, shown_in

    mismatch = None if opts.markers is None else map_mismatch(game, mmap, defs)
    if mismatch:
        return fail(f"{prog}: --markers {shown(opts.markers)}: {mismatch}")
    reader: Any = reader_for(game, mmap, defs)
    readings, works = [], []
    for photo, data in zip(photos, datas, strict=True):
        try:
            with native_output_silenced():  # no LAPACK text in the report
                reading, work = reader.read_bytes(data, shown(photo))  # the name for messages
        except PhotoError as exc:
            return fail(f"{prog}: {exc}")
        readings.append(reading)
        works.append(work)
    evidence = evidence_of(reader, readings, works)
    with native_output_silenced():
        merged = merge(game, readings, [shown(p) for p in photos], evidence)
    draws = [lambda i=i: reader.draw(works[i].bgr, shown_in(game, merged, readings, i))
             for i in range(len(readings))]
    return defs, merged, draws


# --- Orbitus ------------------------------------------------------------------------------


def photos_of(opts: Any) -> list[Path]:
    """``--photo`` (given once or more)."""
    given = opts.photo if isinstance(opts.photo, list) else [opts.photo]
    return [Path(p) for p in given]


def read_photos(prog: str, photos: list[Path]) -> list[bytes] | int:
    datas = []
    for photo in photos:
        data = read_photo(prog, photo)
        if isinstance(data, int):
            return data
        datas.append(data)
    return datas


def orbitus(opts: Any, prog: str) -> int:
    photos = photos_of(opts)
    photo = Path(", ".join(str(p) for p in photos))  # as the reports name it
    if opts.layout is not None:
        return misuse(prog, "give a LAYOUT file or --photo, not both (the layout is read "
                            "from the photo; write it out with --layout-out)")
    problem = check_outputs(prog, opts, photos, "table")
    if problem:
        return fail(problem)
    players = players_from(opts.players)
    if isinstance(players, str):
        return fail(f"{prog}: {players}")
    stop = need_opencv(prog)
    if stop is not None:
        return stop
    datas = read_photos(prog, photos)
    if isinstance(datas, int):
        return datas

    read = _read(prog, opts, "orbitus", opts.cards_dir, photos, datas)
    if isinstance(read, int):
        return read
    defs, reading, draw = read
    text = orbitus_layout_text(reading, players, str(photo), defs.design.stamp)
    code = write_outputs(prog, opts, text, draw)
    if code is not None:
        return code
    return _score_orbitus(opts, prog, text, reading, photo)


def _score_orbitus(opts: Any, prog: str, text: str, reading: Any, photo: Path) -> int:
    from dataclasses import replace

    from cards.loader import DefinitionError, parse_yaml
    from cards.ruleset_cache import load_ruleset
    from rules.orbitus.score import score
    from rules.orbitus.table import Finding
    from scorer.orbitus.layout import Layout, parse_layout


    try:
        ruleset = load_ruleset("orbitus", opts.cards_dir)
    except DefinitionError as exc:  # pragma: no cover - read just before, for the markers
        raise DefinitionsFailed(exc, "nothing was scored") from None
    try:
        doc = parse_yaml(text, opts.layout_out or Path(f"{photo.name}.layout.yaml"),
                         "an Orbitus layout")
    except DefinitionError as exc:
        return fail("\n".join(exc.problems))
    # the cells seen but not read are written as card "?" for the reader to fill in; the
    # photo's own finding says so, the layout's 'unknown card' would say it twice
    layout = parse_layout(doc, ruleset, "")  # type: ignore[arg-type]
    kept = tuple(f for f in layout.findings
                 if not (f.rule == "unknown-card" and f.cell in reading.unread))
    photo_findings = tuple(Finding(f.rule, f.cell, f.message, None) for f in reading.findings)
    unread = tuple(Finding("photo-unread", c, orbitus_unread(c), None)
                   for c in sorted(reading.unread))
    source = str(opts.layout_out) if opts.layout_out is not None else str(photo)
    layout = replace(layout, source=source, findings=unread + photo_findings + kept)
    assert isinstance(layout, Layout)
    result = score(layout, ruleset.scoring, layout.findings)  # type: ignore[arg-type]
    if opts.layout_out is None:  # the lines of a layout nobody can open say nothing
        result = replace(result, findings=tuple(replace(f, line=None)
                                                for f in result.findings))
    if reading.homography is None:
        return _unplaced(opts, prog, photo, layout.findings)
    if opts.json:
        from scorer.orbitus.report import json_text, to_json

        obj = to_json(result)
        obj["photo"] = {"file": str(photos_of(opts)[0]),
                        "files": [str(p) for p in photos_of(opts)],
                        "read": len(reading.placed),
                        "unread": [list(c) for c in sorted(reading.unread)],
                        "how": {cell_text(c): p.how for c, p in sorted(reading.placed.items())},
                        "lifted": [list(c) for c in reading.lifted]}
        write_out(json_text(obj), json=True)
    else:
        from scorer.orbitus.report import to_text

        head = (f"Read from the photo{'s' if len(photos_of(opts)) > 1 else ''} {shown(photo)}: "
                f"{len(reading.placed)} card(s)"
                + (f", {len(reading.unread)} seen but not read" if reading.unread else "")
                + "\n" + "".join(f"  {note}\n" for note in reading.notes)
                + (f"  {orbitus_lifted(reading.lifted)}\n" if reading.lifted else ""))
        write_out(head + to_text(result))
    if opts.svg is not None or opts.png is not None:
        from cards.ruleset_cache import load_definitions
        from generator.picture_out import save_picture
        from scorer.orbitus.picture import draw_table

        stop = save_picture(prog, draw_table(result, load_definitions("orbitus",
                                                                      opts.cards_dir)),
                            opts.svg, opts.png)
        if stop is not None:
            return stop
    return EXIT_OK if result.valid or opts.lenient else EXIT_VIOLATIONS


def _unplaced(opts: Any, prog: str, photo: Path, findings: Any) -> int:
    """Nothing could be placed (no station, no board): the problem alone, exit 1."""
    if opts.json:
        import json

        write_out(json.dumps({
            "game": prog.split()[-1], "file": str(photo), "valid": False,
            "violations": [{"rule": f.rule, "cell": None, "message": f.message, "line": None}
                           for f in findings]}, ensure_ascii=False, indent=2) + "\n", json=True)
    else:
        write_out(f"{prog.split()[-1].capitalize()} - {shown(photo)} - the photo could not be "
                  f"read\n" + "".join(f"  {f.rule}: {printable(f.message)}\n" for f in findings))
    return EXIT_VIOLATIONS


# --- Satellites ----------------------------------------------------------------------------


def satellites(opts: Any, prog: str) -> int:
    photos = photos_of(opts)
    photo = Path(", ".join(str(p) for p in photos))  # as the reports name it
    if opts.file is not None:
        return misuse(prog, "give a FILE or --photo, not both (the board is read from the "
                            "photo; write it out with --layout-out)")
    problem = check_outputs(prog, opts, photos, "board")
    if problem:
        return fail(problem)
    stop = need_opencv(prog)
    if stop is not None:
        return stop
    datas = read_photos(prog, photos)
    if isinstance(datas, int):
        return datas

    read = _read(prog, opts, "satellites", getattr(opts, "cards", None), photos, datas)
    if isinstance(read, int):
        return read
    defs, reading, draw = read
    text = satellites_board_text(reading, str(photo), defs.design.stamp)
    code = write_outputs(prog, opts, text, draw)
    if code is not None:
        return code
    if reading.homography is None:
        return _unplaced(opts, prog, photo, reading.findings)
    return _score_satellites(opts, prog, text, reading, photo, defs)


def _score_satellites(opts: Any, prog: str, text: str, reading: Any, photo: Path,
                      defs: Any) -> int:
    from photo.satellites import cell_name
    from pnp.common import colour_terminal, dump_json
    from scorer.satellites.board import read_string
    from scorer.satellites.score import score
    from scorer.violation import Violation

    ruleset = defs.ruleset
    transcript = read_string(text.replace("?", "."), str(photo), ruleset)
    problems = [Violation("photo-unread", cell_name(c), satellites_unread(cell_name(c)))
                for c in sorted(reading.unread)]
    problems += [Violation(f.rule, cell_name(f.cell) if f.cell else None, f.message)
                 for f in reading.findings]
    result = score(transcript.board, None, tuple(transcript.problems) + tuple(problems),
                   ruleset)
    if opts.json:
        from scorer.satellites.report import to_json

        obj = to_json(result)
        obj["photo"] = {"file": str(photos_of(opts)[0]),
                        "files": [str(p) for p in photos_of(opts)],
                        "read": len(reading.tokens),
                        "unread": [cell_name(c) for c in sorted(reading.unread)]}
        write_out(dump_json(obj), json=True)
    else:
        from scorer.satellites.report import summary

        head = (f"Read from the photo{'s' if len(photos_of(opts)) > 1 else ''} {shown(photo)}: "
                f"{len(reading.tokens)} satellite(s)"
                + (f", {len(reading.unread)} cell(s) not read" if reading.unread else "")
                + "\n" + "".join(f"  {note}\n" for note in reading.notes))
        write_out(head + summary(result, str(photo), colour=colour_terminal()))
    if opts.svg is not None or opts.png is not None:
        from generator.picture_out import save_picture
        from scorer.satellites.picture import board_picture

        stop = save_picture(prog, board_picture(result, title=f"Satellites: {photo}",
                                                defs=defs), opts.svg, opts.png)
        if stop is not None:
            return stop
    return EXIT_OK if result.valid or opts.lenient else EXIT_VIOLATIONS


__all__ = ["EXIT_UNREADABLE", "orbitus", "satellites"]

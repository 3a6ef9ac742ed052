"""Two photos (or more) of one table, read each on its own and merged cell by cell.

A second photo from another angle, or with the lamp moved, sees what the first could not:
the card under its glare, the cells its hand covered. Each photo is read against its own
camera; the station (the board's corners) fixes the same cells in every photo, so their
readings meet cell by cell:

- a cell read the same in every photo that read it is read (however the others saw it:
  covered, under glare, out of the frame);
- a cell read differently in two photos is reported (``photo-disagree``), never chosen;
- a cell no photo read keeps what the photos said of it: seen but not read, covered, out of
  the frame, between cells ...; said once, by the first photo that said it;
- a photo in which nothing could be placed (no station, no board) adds nothing, and the
  merge says so; if no photo could be placed, that is the finding.
"""

from __future__ import annotations

from typing import Any

# findings about a cell that another photo's reading of it answers
ANSWERED = ("photo-unread", "photo-covered", "photo-out-of-frame", "photo-too-coarse")


def merge(game: str, readings: list[Any], names: list[str]) -> Any:
    """The readings of the photos ``names`` of one table merged (a
    :class:`photo.orbitus.TableReading` or :class:`photo.satellites.BoardReading`, as one
    photo's)."""
    if len(readings) == 1:
        return readings[0]
    return _orbitus(readings, names) if game == "orbitus" else _satellites(readings, names)


def _placed(reading: Any) -> bool:
    return reading.camera is not None


def _orbitus(readings: list[Any], names: list[str]) -> Any:
    from photo.orbitus import Finding, TableReading, where
    from rules import hexgeo

    used = [(r, n) for r, n in zip(readings, names, strict=True) if _placed(r)]
    if not used:
        return readings[0]
    out = TableReading(flats=used[0][0].flats)
    out.notes = _unused(readings, names)
    out.camera, out.homography, out.station = (used[0][0].camera, used[0][0].homography,
                                               used[0][0].station)
    seen: dict[tuple[int, int], list[tuple[Any, str]]] = {}
    for r, name in used:
        for cell, p in r.placed.items():
            seen.setdefault(cell, []).append((p, name))
    for cell, got in sorted(seen.items()):
        kinds = {(p.card, p.rot) for p, _ in got}
        if len(kinds) == 1:
            out.placed[cell] = max((p for p, _ in got), key=lambda p: p.score)
            continue
        said = "; ".join(f"{name} shows {p.card} turned {hexgeo.SIDES[p.rot]}"
                         for p, name in got)
        out.findings.append(Finding(
            "photo-disagree", cell,
            f"the photos disagree on {where(cell)}: {said}; look at that card and write it "
            f"into the layout by hand (or photograph it again)"))
    _rest(out, used, Finding)
    return out


def _satellites(readings: list[Any], names: list[str]) -> Any:
    from photo.satellites import BoardReading, Finding, cell_name

    used = [(r, n) for r, n in zip(readings, names, strict=True) if _placed(r)]
    if not used:
        return readings[0]
    out = BoardReading(used[0][0].size, used[0][0].cell_mm)
    out.notes = _unused(readings, names)
    out.camera, out.homography = used[0][0].camera, used[0][0].homography
    seen: dict[tuple[int, int], list[tuple[Any, str]]] = {}
    for r, name in used:
        for cell, t in r.tokens.items():
            seen.setdefault(cell, []).append((t, name))
    for cell, got in sorted(seen.items()):
        kinds = {t.text for t, _ in got}
        if len(kinds) == 1:
            out.tokens[cell] = got[0][0]
            continue
        said = "; ".join(f"{name} shows {t.text}" for t, name in got)
        out.findings.append(Finding(
            "photo-disagree", cell,
            f"the photos disagree on {cell_name(cell)}: {said}; look at that satellite and "
            f"write it into the board by hand (or photograph it again)"))
    _rest(out, used, Finding)
    return out


def _unused(readings: list[Any], names: list[str]) -> list[str]:
    """Why a photo adds nothing (nothing could be placed in it), one line each."""
    return [f"{name}: {r.findings[0].message if r.findings else 'nothing could be placed'}; "
            f"this photo was not used" for r, name in zip(readings, names, strict=True)
            if not _placed(r)]


def _rest(out: Any, used: list[tuple[Any, str]], finding: Any) -> None:
    """What the photos said of the cells none of them read: unread where one saw a piece it
    could not read, and every other finding once (by the first photo that made it)."""
    read = set(out.placed if hasattr(out, "placed") else out.tokens)
    decided = read | {f.cell for f in out.findings}
    for r, _ in used:
        for cell in r.unread:
            if cell not in decided and cell not in out.unread:
                out.unread.append(cell)
    said: set[tuple[str, Any]] = set()
    for r, name in used:
        for f in r.findings:
            if f.cell is not None and (f.cell in read or f.cell in out.unread) and \
                    f.rule in ANSWERED:
                continue
            if f.cell is not None and f.cell in decided and f.rule in ANSWERED:
                continue
            if (f.rule, f.cell) in said:
                continue
            said.add((f.rule, f.cell))
            out.findings.append(finding(f.rule, f.cell, f"{name}: {f.message}"
                                        if f.cell is None else f.message))
    out.unread.sort()

"""Two photos (or more) of one table, read each on its own and merged cell by cell.

A second photo from another angle, or with the lamp moved, sees what the first could not:
the card under its glare, the cells its hand covered. Each photo is read against its own
camera; the station (the board's corners) fixes the same cells in every photo, so their
readings meet cell by cell:

- a cell read the same in every photo that read it is read (however the others saw it:
  covered, under glare, out of the frame);
- a cell read differently in two photos is reported (``photo-disagree``), never chosen;
- a cell that one photo saw but none read (Orbitus) is decided from the photos' evidence
  together (:func:`together`: the marker in one, the printed face in either, neither photo
  contradicting), when each photo's evidence can be asked for;
- a cell no photo read keeps what the photos said of it: seen but not read, covered, out of
  the frame, between cells ...; said once, by the first photo that said it;
- a photo in which nothing could be placed (no station, no board) adds nothing, and the
  merge says so; if no photo could be placed, that is the finding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

# findings about a cell that another photo's reading of it answers
ANSWERED = ("photo-unread", "photo-covered", "photo-out-of-frame", "photo-too-coarse")
TOGETHER = "photos together"  # how a card read from the photos' evidence together was read


def merge(game: str, readings: list[Any], names: list[str],
          evidence: Sequence[Callable[[Any], Any] | None] | None = None) -> Any:
    """The readings of the photos ``names`` of one table merged (a
    :class:`photo.orbitus.TableReading` or :class:`photo.satellites.BoardReading`, as one
    photo's). ``evidence``: for each photo, what it shows of a cell, asked after the
    reading (Orbitus: :meth:`photo.orbitus.OrbitusReader.evidence_of`); without it, the
    cells no photo read stay unread."""
    if len(readings) == 1:
        return readings[0]
    if game == "orbitus":
        return _orbitus(readings, names, list(evidence or [None] * len(readings)))
    return _satellites(readings, names)


def together(seen: Sequence[Any | None]) -> tuple[int, int] | None:
    """The card (its index in :attr:`photo.art.HexArt.names`) and rotation the photos'
    evidence of one cell (:class:`photo.orbitus.Evidence`, None where a photo shows too
    little of it) says together, or None. The thresholds are the one-photo reader's:

    - a marker read in one photo names the card: its own code where the camera puts it,
      at least ``MARKER_MIN``, by ``MARKER_MARGIN`` over every other card's code in every
      rotation (and over the codes of no card), or a marker square found in the photo
      whose card the camera puts on the cell (a lifted card's, seen off the table's
      plane), by the same score and margin over every other code;
    - its printed face, in that photo or another, is the best face there or within
      ``ART_ALLOWS`` of it, scoring ``ART_CARD``, with a card's light and shade (a marker
      read with certainty, ``STRONG``, needs ``ART_VERIFY`` within 0.1 of the best, as a
      marker read at its place does);
    - and no photo contradicts it: none reads another card's marker or rotation by those
      margins, none shows another face by more than ``ART_ALLOWS`` where its face is
      clear (``ART_CARD`` and a card's light and shade).

    So two cards sharing most routes (S63 and S69) are told apart by their markers, never
    by the face alone, and a face in one photo never outvotes a marker in the other."""
    from photo import orbitus as one  # the one-photo reader's thresholds

    named: set[tuple[int, int]] = set()
    certain: set[tuple[int, int]] = set()
    for e in seen:
        if e is None:
            continue
        markers = [(int(i), int(k), float(score), float(margin))
                   for i, k, score, margin in e.found]
        best = np.unravel_index(int(np.argmax(e.marks)), e.marks.shape)
        rest = e.marks.copy()
        rest[best] = -9.0
        markers.append((int(best[0]), int(best[1]), float(e.marks[best]),
                        float(e.marks[best]) - max(float(rest.max()), e.other)))
        for i, k, score, margin in markers:
            if score < one.MARKER_MIN or margin < one.MARKER_MARGIN:
                continue
            named.add((i, k))
            if score >= one.STRONG[0] and margin >= one.STRONG[1]:
                certain.add((i, k))
    if len(named) != 1:  # no marker names a card, or two photos' markers disagree
        return None
    card = next(iter(named))

    def face_says(e: Any) -> bool:
        top = float(e.looks.max())
        own = float(e.looks[card])
        if e.gain < one.GAIN_CARD:
            return False
        if own >= one.ART_CARD and own >= top - one.ART_ALLOWS:
            return True
        return card in certain and own >= one.ART_VERIFY and own >= top - 0.1

    def face_denies(e: Any) -> bool:
        top = float(e.looks.max())
        return top >= one.ART_CARD and e.gain >= one.GAIN_CARD and \
            float(e.looks[card]) < top - one.ART_ALLOWS

    shown = [e for e in seen if e is not None]
    if not any(face_says(e) for e in shown) or any(face_denies(e) for e in shown):
        return None
    return card


def evidence_of(reader: Any, readings: list[Any], works: list[Any]
                ) -> list[Callable[[Any], Any] | None]:
    """For each photo read (its reading and its :class:`photo.working.Working`), what it
    shows of a cell, asked for only when the merge needs it (None for a game whose reader
    keeps no evidence apart from its decisions)."""
    ask = getattr(reader, "evidence_of", None)
    return [ask(w, r) if ask is not None else None
            for r, w in zip(readings, works, strict=True)]


def shown_in(game: str, merged: Any, readings: list[Any], index: int) -> Any:
    """The merged reading as photo ``index`` shows it, for its debug image: the cards (the
    satellites) read, unread and reported by the photos together, drawn through that
    photo's camera, with the glare this photo shows. Orbitus: the marker outlined only
    where this photo read it; the glare this photo shows hatched, and where the other
    photos lay under glare outlined (``glare_elsewhere``)."""
    from dataclasses import replace

    own = readings[index]
    if merged is own or not _placed(own):
        return own
    if game == "satellites":  # cells are the board's, the same in every photo
        return replace(merged, camera=own.camera, homography=own.homography,
                       glare=list(own.glare), log=own.log)
    if game != "orbitus":
        return own
    mine = {id(p) for p in own.placed.values()}
    out = replace(merged, placed={c: p if id(p) in mine else replace(p, corners=None)
                                  for c, p in merged.placed.items()},
                  camera=own.camera, homography=own.homography, station=own.station,
                  glare=dict(own.glare), glare_elsewhere={}, log=own.log)
    for j, other in enumerate(readings):
        if j != index and _placed(other):
            for cell, pts in _glare_seen(other, own).items():
                if cell not in out.glare and cell not in out.glare_elsewhere:
                    out.glare_elsewhere[cell] = pts
    return out


def _glare_seen(source: Any, target: Any) -> dict[Any, np.ndarray]:
    """The glare outlines of ``source`` (its photo's px) where they lie in ``target``'s
    photo: through the table, which both cameras see."""
    out = {}
    for cell, pts in source.glare.items():
        if len(pts) >= 3:
            out[cell] = target.camera.project(source.camera.unproject(np.asarray(pts)))
    return out


def _placed(reading: Any) -> bool:
    return reading.camera is not None


def _orbitus(readings: list[Any], names: list[str],
             evidence: list[Callable[[Any], Any] | None]) -> Any:
    from photo.orbitus import Finding, Placed, TableReading, where
    from rules import hexgeo

    used = [(r, n) for r, n in zip(readings, names, strict=True) if _placed(r)]
    looks = [e for r, e in zip(readings, evidence, strict=True) if _placed(r)]
    if not used:
        return readings[0]
    out = TableReading(flats=used[0][0].flats)
    out.notes = _unused(readings, names)
    out.camera, out.homography, out.station = (used[0][0].camera, used[0][0].homography,
                                               used[0][0].station)
    # the cells under glare in any photo (the first photo's outline where it has one)
    out.glare = dict(used[0][0].glare)
    for r, _ in used[1:]:
        for cell, pts in _glare_seen(r, used[0][0]).items():
            out.glare.setdefault(cell, pts)
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
    # a card one photo saw but none read: the photos' evidence of it weighed together
    decided = set(out.placed) | {f.cell for f in out.findings}
    unread = sorted({c for r, _ in used for c in r.unread} - decided)
    if unread and all(look is not None for look in looks):
        for cell in unread:
            shows = [look(cell) for look in looks if look is not None]
            found = together(shows)
            if found is None:
                continue
            index, rot = found
            card = next(e for e in shows if e is not None).cards[index]
            if any(p.card == card for p in out.placed.values()):
                continue  # read on another cell already: left unread rather than read twice
            score = max(float(e.marks[found]) for e in shows if e is not None)
            out.placed[cell] = Placed(cell, card, rot, TOGETHER, None, score)
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
    out.glare = sorted({cell for r, _ in used for cell in r.glare})  # under glare in any
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

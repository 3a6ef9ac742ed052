"""Reading a marker map back (``--markers output/<game>/markers.json``), with the guarantees
of the definitions' loader (standard library only).

The one loader of a ``markers.json``: a regular file of at most ``MAX_MARKERS_BYTES``,
strict JSON (no ``NaN``, no key given twice, no nesting deeper than the format has), and
every value checked against what a build can print: the sizes of the definitions' own
ranges (a sector 20-120 mm across flats, a board of 5-26 cells a side ...), markers that
fit on their component, each ID of the dictionary once, the kinds, names and colours of
the game. Every problem is one line ``FILE:LINE: what is wrong; what would be right`` and
all of them are reported together (:class:`~generator.markers.plan.MarkerMapError`), so a
broken or hand-edited map can neither stop a command with an internal error nor send the
photo reader off with numbers no printed kit has.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from pathlib import Path
from typing import Any

from generator.markers.codes import DICTIONARY, code_count
from generator.markers.plan import (
    BOARD_CORNERS,
    COLOURS,
    FORMAT,
    Marker,
    MarkerMap,
    MarkerMapError,
    token_name,
)

MAX_MARKERS_BYTES = 1_000_000  # the shipped deck's map is 8 kB; 1,000 markers about 110 kB
MAX_PROBLEMS = 20  # reported at most; then "and N more"

# the ranges of the definitions (cards/models.py): a map a build wrote lies inside them
HEX_FLATS_MM = (20.0, 120.0)
BOARD_SIZE = (5, 26)
CELL_MM = (10.0, 60.0)
TOKEN_MM = (10.0, 60.0)
MARGIN_MM = (5.0, 60.0)

KINDS = {"orbitus": ("station", "sector"), "satellites": ("token", "board")}
TOP_KEYS = {"format", "game", "dictionary", "modules", "quiet_zone_modules", "about",
            "markers", "hex_across_flats_mm", "board", "design"}
MARKER_KEYS = {"id", "kind", "name", "x", "y", "size", "rotate", "colour", "value"}
BOARD_KEYS = {"size", "cell_mm", "margin_mm", "token_mm"}


def read_markers(path: Path, game: str, shown: str | None = None) -> MarkerMap:
    """The marker map of ``game`` in the file ``path`` (``shown``: its name in messages);
    :class:`MarkerMapError` with every problem, one line each."""
    from cards.reading import UnreadableInput, display_path, read_bytes_safely

    name = display_path(path) if shown is None else shown
    try:
        data = read_bytes_safely(path, "a markers.json written by pnp build",
                                 MAX_MARKERS_BYTES, shown=name)
    except UnreadableInput as exc:
        raise MarkerMapError(exc.problems[0], exc.problems) from None
    return parse_markers(data, name, game)


def from_json(text: str, source: str, game: str) -> MarkerMap:
    """A map read back from the text of a ``markers.json`` (``source`` names it)."""
    return parse_markers(text.encode("utf-8", "surrogatepass"), source, game)


def parse_markers(data: bytes, source: str, game: str) -> MarkerMap:
    """The marker map of ``game`` in ``data``, the bytes of the file ``source``."""
    from cards.safe_text import printable

    source = printable(source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _one(f"{source}:{line}: not UTF-8 text (byte {exc.start + 1}); expected the "
                   f"markers.json a build wrote") from None
    doc = _json(text, source)
    lines = _Lines(text)
    problems: list[str] = []

    def bad(path: tuple[Any, ...], message: str) -> None:
        problems.append(f"{source}:{lines.of(path)}: {message}")

    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _one(f"{source}:1: not a markers file of format {FORMAT} (the markers.json "
                   f"that pnp build writes into output/<game>/)")
    if doc.get("game") != game:
        raise _one(f"{source}:{lines.of(('game',))}: holds the markers of "
                   f"{printable(repr(doc.get('game')))}, not of {game}; give "
                   f"output/{game}/markers.json")
    if doc.get("dictionary") != DICTIONARY:
        raise _one(f"{source}:{lines.of(('dictionary',))}: markers of dictionary "
                   f"{printable(repr(doc.get('dictionary')))}; this version reads {DICTIONARY}")
    for key in doc:
        if key not in TOP_KEYS:
            bad((key,), f"unknown field {printable(repr(key))}{_guess(key, TOP_KEYS)}")
    geometry = _geometry(doc, game, bad)
    markers = _markers(doc, game, geometry, bad)
    design = doc.get("design")
    if design is not None and not _design_like(design):
        bad(("design",), "expected the design a build wrote (its hash and version, short texts)")
    if problems:
        more = len(problems) - MAX_PROBLEMS
        shown = problems[:MAX_PROBLEMS] + ([f"{source}: and {more} more problem(s)"]
                                           if more > 0 else [])
        raise MarkerMapError("\n".join(shown), shown)
    assert not any(math.isnan(v) for v in geometry.values())  # else a problem was reported
    if game == "orbitus":
        return MarkerMap(game, tuple(markers), hex_across_flats_mm=geometry["flats"],
                         design=design)
    return MarkerMap(game, tuple(markers), board_size=int(geometry["size"]),
                     cell_mm=geometry["cell_mm"], margin_mm=geometry["margin_mm"],
                     token_mm=geometry["token_mm"], design=design)


def _design_like(value: object) -> bool:
    """Whether ``value`` can be the ``design`` a build writes (cards.design: a few short
    texts, the hash and the version)."""
    return isinstance(value, dict) and len(value) <= 8 and all(
        isinstance(k, str) and len(k) <= 40
        and (v is None or (isinstance(v, str) and len(v) <= 200)) for k, v in value.items())


def _one(line: str) -> MarkerMapError:
    return MarkerMapError(line, [line])


def _guess(word: str, options: set[str]) -> str:
    from cards.spelling import did_you_mean

    return did_you_mean(word, sorted(options), quote=True) if isinstance(word, str) else ""


def _json(text: str, source: str) -> Any:
    """Strict JSON: no NaN or Infinity, no key twice, no numbers of hundreds of digits."""

    def constant(name: str) -> Any:
        raise _Refused(f"{name} is not a number a markers file holds")

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in items:
            if key in seen:
                raise _Refused(f"the field {key!r} is given twice")
            seen[key] = value
        return seen

    def number(text: str) -> float:
        if len(text) > 40:
            raise _Refused(f"a number of {len(text)} characters is no real value here")
        return float(text)

    def whole(text: str) -> int:
        number(text)
        return int(text)

    try:
        return json.loads(text, parse_constant=constant, object_pairs_hook=pairs,
                          parse_float=number, parse_int=whole)
    except json.JSONDecodeError as exc:
        raise _one(f"{source}:{exc.lineno}: not JSON ({exc.msg}, column {exc.colno}); "
                   f"expected the markers.json a build wrote") from None
    except _Refused as exc:
        raise _one(f"{source}:{_refused_line(text, exc)}: {exc}; expected the markers.json a "
                   f"build wrote") from None
    except RecursionError:
        raise _one(f"{source}: nested far deeper than a markers file is; expected the "
                   f"markers.json a build wrote") from None


class _Refused(ValueError):
    """A JSON value that is valid JSON but no value of a markers file."""


_TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|(NaN|-?Infinity|-?[0-9][0-9.eE+-]{40,})')


def _refused_line(text: str, exc: _Refused) -> int:
    """The line of the value :func:`_json` refused: the first NaN, Infinity or overlong
    number outside a string, or the first field given twice."""
    if "given twice" in str(exc):
        return _Lines(text).twice or 1
    for found in _TOKENS.finditer(text):
        if found.group(1):
            return text.count("\n", 0, found.start()) + 1
    return 1


class _Lines:
    """The line on which each value of the document starts (the top-level fields, the
    board's, every marker and its fields): a walk over the text json has already read."""

    _WS = re.compile(r"[ \t\n\r]*")

    def __init__(self, text: str) -> None:
        self.text = text
        self.breaks = [m.start() for m in re.finditer("\n", text)]
        self.found: dict[tuple[Any, ...], int] = {}
        self.twice: int | None = None  # the line of the first field given twice
        try:
            self._value(0, (), 0)
        except (ValueError, IndexError, RecursionError):  # pragma: no cover - read by json
            pass

    def of(self, path: tuple[Any, ...]) -> int:
        """The line of ``path`` (or of the nearest value that holds it)."""
        while path and path not in self.found:
            path = path[:-1]
        return self.found.get(path, 1)

    def _line(self, at: int) -> int:
        return bisect.bisect_left(self.breaks, at) + 1

    def _value(self, at: int, path: tuple[Any, ...], depth: int) -> int:
        text = self.text
        at = self._WS.match(text, at).end()  # type: ignore[union-attr]
        self.found[path] = self._line(at)
        if depth < 3 and text.startswith("{", at):
            at = self._WS.match(text, at + 1).end()  # type: ignore[union-attr]
            if text.startswith("}", at):
                return at + 1
            while True:
                key, at = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
                if (*path, key) in self.found and self.twice is None:
                    self.twice = self._line(at)
                at = self._WS.match(text, at).end() + 1  # type: ignore[union-attr]  # ':'
                at = self._value(at, (*path, key), depth + 1)
                at = self._WS.match(text, at).end()  # type: ignore[union-attr]
                if text.startswith("}", at):
                    return at + 1
                at = self._WS.match(text, at + 1).end()  # type: ignore[union-attr]  # ','
        if depth < 3 and text.startswith("[", at):
            at = self._WS.match(text, at + 1).end()  # type: ignore[union-attr]
            if text.startswith("]", at):
                return at + 1
            index = 0
            while True:
                at = self._value(at, (*path, index), depth + 1)
                at = self._WS.match(text, at).end()  # type: ignore[union-attr]
                index += 1
                if text.startswith("]", at):
                    return at + 1
                at += 1  # ','
        _, end = json.JSONDecoder().raw_decode(text, at)
        return int(end)


def _in(value: Any, low: float, high: float) -> float | None:
    """``value`` as a float when it is a finite number from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and low <= number <= high else None


def _geometry(doc: dict[str, Any], game: str, bad: Any) -> dict[str, float]:
    """The sizes the reader lays the table out with, each in the definitions' range."""
    out: dict[str, float] = {}
    if game == "orbitus":
        value = _in(doc.get("hex_across_flats_mm"), *HEX_FLATS_MM)
        if value is None:
            bad(("hex_across_flats_mm",), f"hex_across_flats_mm: "
                f"{_said(doc.get('hex_across_flats_mm'))}; expected a sector's width across "
                f"flats of {HEX_FLATS_MM[0]:g} to {HEX_FLATS_MM[1]:g} mm (the shipped deck: 50)")
        out["flats"] = value if value is not None else math.nan
        return out
    board = doc.get("board")
    if not isinstance(board, dict):
        bad(("board",), f"board: {_said(board)}; expected the board's size, cell_mm, "
                        f"margin_mm and token_mm")
        return dict.fromkeys(BOARD_KEYS, math.nan)
    for key in board:
        if key not in BOARD_KEYS:
            bad(("board", key), f"board: unknown field {key!r}{_guess(key, BOARD_KEYS)}")
    ranges = {"size": BOARD_SIZE, "cell_mm": CELL_MM, "margin_mm": MARGIN_MM,
              "token_mm": TOKEN_MM}
    what = {"size": "cells a side", "cell_mm": "mm a cell", "margin_mm": "mm of margin",
            "token_mm": "mm a token"}
    for key, (low, high) in ranges.items():
        value = _in(board.get(key), low, high)
        if value is None or (key == "size" and value != int(value)):
            bad(("board", key), f"board: {key}: {_said(board.get(key))}; expected "
                f"{'a whole number of ' if key == 'size' else ''}{low:g} to {high:g} "
                f"{what[key]}")
            value = math.nan  # the markers' places are not checked against it
        out[key] = value
    return out


def _said(value: Any) -> str:
    from cards.safe_text import printable

    if value is None:
        return "missing"
    text = json.dumps(value, ensure_ascii=False)
    return printable(text if len(text) <= 40 else text[:39] + "…")


def _markers(doc: dict[str, Any], game: str, geometry: dict[str, float],
             bad: Any) -> list[Marker]:
    """Every marker checked against its component; the markers of the lines that pass."""
    listed = doc.get("markers")
    if not isinstance(listed, list):
        bad(("markers",), f"markers: {_said(listed)}; expected the list of markers")
        return []
    if len(listed) > code_count():
        bad(("markers",), f"markers: {len(listed):,} markers, more than the "
                          f"{code_count():,} codes of {DICTIONARY}")
        return []
    kinds = KINDS[game]
    seen_ids: dict[int, int] = {}
    seen_names: dict[tuple[str, str], int] = {}
    out: list[Marker] = []
    for i, entry in enumerate(listed):
        where = ("markers", i)
        if not isinstance(entry, dict):
            bad(where, f"markers[{i}]: {_said(entry)}; expected a marker {{\"id\": ..., "
                       f"\"kind\": ..., ...}}")
            continue
        marker = _marker(entry, i, game, kinds, geometry, lambda key, message, w=where:
                         bad((*w, key) if key else w, message))
        if marker is None:
            continue
        if marker.id in seen_ids:
            bad(("markers", i, "id"), f"markers[{i}]: id {marker.id} is listed twice "
                                      f"(also markers[{seen_ids[marker.id]}])")
            continue
        if (marker.kind, marker.name) in seen_names:
            bad(("markers", i, "name"), f"markers[{i}]: the {marker.kind} {marker.name!r} "
                f"is listed twice (also markers[{seen_names[(marker.kind, marker.name)]}])")
            continue
        seen_ids[marker.id] = i
        seen_names[(marker.kind, marker.name)] = i
        out.append(marker)
    return out


def _marker(entry: dict[str, Any], i: int, game: str, kinds: tuple[str, ...],
            geometry: dict[str, float], bad: Any) -> Marker | None:
    from cards.safe_text import printable

    ok = True
    for key in entry:
        if key not in MARKER_KEYS:
            bad(key, f"markers[{i}]: unknown field {printable(repr(key))}"
                     f"{_guess(key, MARKER_KEYS)}")
            ok = False
    kind = entry.get("kind")
    if kind not in kinds:
        article = "an" if game[0] in "aeiou" else "a"
        bad("kind", f"markers[{i}]: kind {_said(kind)}; {article} {game} map has "
                    f"{' and '.join(kinds)} markers")
        return None
    marker_id = entry.get("id")
    if isinstance(marker_id, bool) or not isinstance(marker_id, int) or \
            not 0 <= marker_id < code_count():
        bad("id", f"markers[{i}]: id {_said(marker_id)}; expected a whole number from 0 to "
                  f"{code_count() - 1} (a code of {DICTIONARY})")
        ok = False
    name = entry.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 40 or printable(name) != name:
        bad("name", f"markers[{i}]: name {_said(name)}; expected the component's name "
                    f"(a card ID, station, R1 ... B4, NW ... SW)")
        ok = False
    known = not any(math.isnan(v) for v in geometry.values())  # else: reported already
    component = _component_mm(kind, geometry) if known else math.inf
    size = _in(entry.get("size"), 1.0, component)
    if size is None:
        bad("size", f"markers[{i}]: size {_said(entry.get('size'))}; expected the marker's "
                    f"side, 1 to {component:g} mm (what fits on a {kind} of this map)")
        ok = False
    reach = _reach_mm(kind, geometry) if known else math.inf
    low = -reach if kind != "board" or not known else -geometry["margin_mm"]
    high = reach if kind != "board" or not known else \
        geometry["size"] * geometry["cell_mm"] + geometry["margin_mm"]
    place = {}
    for key in ("x", "y"):
        place[key] = _in(entry.get(key), low, high)
        if place[key] is None:
            bad(key, f"markers[{i}]: {key} {_said(entry.get(key))}; expected the centre on "
                     f"the {kind}, {low:g} to {high:g} mm")
            ok = False
    rotate = _in(entry.get("rotate"), -360.0, 360.0)
    if rotate is None:
        bad("rotate", f"markers[{i}]: rotate {_said(entry.get('rotate'))}; expected "
                      f"degrees from -360 to 360")
        ok = False
    colour, value = "", 0
    if kind == "token":
        colour, value = entry.get("colour"), entry.get("value")
        if colour not in COLOURS:
            bad("colour", f"markers[{i}]: colour {_said(colour)}; expected red or blue")
            ok = False
        if isinstance(value, bool) or value not in (1, 2, 3, 4):
            bad("value", f"markers[{i}]: value {_said(value)}; expected 1 to 4")
            ok = False
        if ok and name != token_name(str(colour), int(value)):
            bad("name", f"markers[{i}]: name {_said(name)}; the {colour} {value} is "
                        f"{token_name(str(colour), int(value))}")
            ok = False
    if kind == "board" and ok and name not in BOARD_CORNERS:
        bad("name", f"markers[{i}]: name {_said(name)}; a board marker is a corner: "
                    f"{', '.join(BOARD_CORNERS)}")
        ok = False
    if kind == "station" and ok and name != "station":
        bad("name", f"markers[{i}]: name {_said(name)}; the station's marker is named station")
        ok = False
    if not ok:
        return None
    assert size is not None and rotate is not None and place["x"] is not None \
        and place["y"] is not None
    return Marker(int(marker_id), str(kind), str(name), place["x"], place["y"], size,  # type: ignore[arg-type]
                  rotate, str(colour), int(value))


def _component_mm(kind: str, geometry: dict[str, float]) -> float:
    """The largest marker that fits on a component of ``kind``."""
    if kind in ("station", "sector"):
        return geometry["flats"] * 0.6
    if kind == "token":
        return geometry["token_mm"]
    return geometry["margin_mm"]


def _reach_mm(kind: str, geometry: dict[str, float]) -> float:
    """How far from the component's centre a marker may sit."""
    if kind in ("station", "sector"):
        return geometry["flats"] / 2.0
    return geometry["token_mm"] / 2.0

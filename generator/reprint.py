"""``pnp build --since OLD``: a reprint kit of only what changed since an earlier version.

The components of both versions are compared as printed, without their design stamps
(:mod:`generator.compare`). The kit holds, under ``OUT/reprint/``:

* ``orbitus/sectors.pdf``: the sectors added or changed, and the extra copies of a sector
  whose count grew, on the same sheets as a full build (fronts, then their backs behind
  them, the same crop marks and registration); when the card back changed, every sector,
  since a new back on some cards would mark them in a hand;
* ``satellites/tokens.pdf``: the satellites of each value that changed (the tracker
  markers only when they changed), at the board's scale;
* every other sheet whose printing changed, whole (the station and its markers, the board,
  the score pad, the player aid, the rule booklet);
* ``take-out.pdf``: what to take out of the printed kit (the old copies of each changed or
  removed card, the copies a smaller count no longer needs) and what goes in.

Nothing changed since OLD: nothing is written, and the command says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from generator.compare import compare_components
from generator.drawing import Drawing, Text
from generator.options import BuildOptions
from generator.sheets import MARGIN_MM, page_size
from generator.stamp import stamps_off

FOLDER = "reprint"


@dataclass
class GameReprint:
    game: str
    old_stamp: str
    new_stamp: str
    files: dict[str, bytes] = field(default_factory=dict)
    take_out: list[str] = field(default_factory=list)
    put_in: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.files or self.take_out)


def _keep_design(subset: Any, defs: Any) -> Any:
    """``subset`` (a part of ``defs``) stamped as ``defs`` is: it is printed from them."""
    subset.__dict__["design"] = defs.design
    return subset


def _copies(n: int) -> str:
    return f"{n} cop{'y' if n == 1 else 'ies'}"


def _changed_files(steps_of: Callable[[Any], list[Any]], old: Any, new: Any) -> list[str]:
    """The files of the steps that print differently (stamps left out)."""
    with stamps_off():
        before = {}
        for _, step in steps_of(old):
            before.update(step())
        after = {}
        for _, step in steps_of(new):
            after.update(step())
    return sorted(rel for rel, data in after.items() if before.get(rel) != data)


def _steps_files(steps: list[Any], wanted: list[str]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for _, step in steps:
        for rel, data in step().items():
            if rel in wanted:
                out[rel] = data
    return out


def orbitus(old: Any, new: Any, opts: BuildOptions) -> GameReprint:
    from generator import aids
    from generator.backends.pdf import render_pdf
    from generator.products.orbitus import sector_sheets, station_sheet

    out = GameReprint("orbitus", old.design.stamp, new.design.stamp)
    found = compare_components("orbitus", old, new, opts.lang)
    before = {s.id: s for s in old.sectors.sectors}
    print_: list[Any] = []
    renumbered = [n for n in found.marker_only if n.startswith("sector-")]
    if renumbered:
        out.notes.append(f"{len(renumbered)} sector(s) print another photo marker only: the "
                         f"markers are numbered in deck order, so a sector added or removed "
                         f"before them moves their numbers (add new sectors at the end of "
                         f"the deck to keep them)")
    if "sector-back" in found.changed:
        out.notes.append("the card back changed, so every sector is reprinted: a new back on "
                         "some cards only would mark them in a hand")
        print_ = list(new.sectors.sectors)
        out.take_out.append(f"every sector ({old.sectors.deck_size} cards, "
                            f"{old.design.stamp})")
        out.put_in.append(f"every sector ({new.sectors.deck_size} cards, {new.design.stamp})")
    else:
        for sector in new.sectors.sectors:
            name = f"sector-{sector.id}"
            was = before.get(sector.id)
            if was is None:
                print_.append(sector)
                out.put_in.append(f"{sector.id}: {_copies(sector.count)} (new)")
            elif name in found.changed:
                print_.append(sector)
                out.take_out.append(f"{sector.id}: {_copies(was.count)} ({old.design.stamp})")
                out.put_in.append(f"{sector.id}: {_copies(sector.count)} (changed)")
            elif sector.count > was.count:
                extra = sector.count - was.count
                print_.append(sector.model_copy(update={"count": extra}))
                out.put_in.append(f"{sector.id}: {_copies(extra)} more (now {sector.count})")
            elif sector.count < was.count:
                out.take_out.append(f"{sector.id}: {_copies(was.count - sector.count)} of "
                                    f"{was.count} (now {sector.count})")
        ids = {s.id for s in new.sectors.sectors}
        for ident, was in before.items():
            if ident not in ids:
                out.take_out.append(f"{ident}: {_copies(was.count)} (no longer in the deck)")
    if print_:
        subset = replace(new, sectors=new.sectors.model_copy(update={"sectors": print_}))
        _keep_design(subset, new)
        out.files["orbitus/sectors.pdf"] = render_pdf(
            sector_sheets(subset, opts), "Orbitus sectors: reprint",
            f"the sectors changed since {old.design.stamp}")
    with stamps_off():
        station_changed = station_sheet(old, opts) != station_sheet(new, opts)
    if station_changed:
        out.files["orbitus/station.pdf"] = render_pdf(
            station_sheet(new, opts), "Orbitus station", "station and start-line markers")
        out.take_out.append("the station sheet: the station, its markers and the start-line "
                            "table")
        out.put_in.append("the station sheet (station.pdf)")

    _aids_anew(out, lambda defs: aids.orbitus_aid_steps(defs, opts.page, opts.lang), old, new)
    return out


def satellites(old: Any, new: Any, opts: BuildOptions) -> GameReprint:
    from generator import aids
    from generator.backends.pdf import render_pdf
    from generator.products.satellites import board_pages, token_sheet

    out = GameReprint("satellites", old.design.stamp, new.design.stamp)
    found = compare_components("satellites", old, new, opts.lang)
    tokens = [n for n in found.changed + found.added if n.startswith("satellite-")]
    with stamps_off():
        markers = token_sheet(old, opts)[-1:] != token_sheet(new, opts)[-1:] and \
            old.trackers != new.trackers
    entries = [e for e in new.satellites.satellites
               if f"satellite-{e.colour}-{e.value}" in tokens]
    if entries:
        subset = replace(new, satellites=new.satellites.model_copy(
            update={"satellites": entries}))
        _keep_design(subset, new)
        out.files["satellites/tokens.pdf"] = render_pdf(
            token_sheet(subset, opts, markers=markers), "Satellites tokens: reprint",
            f"the satellites changed since {old.design.stamp}")
        for e in entries:
            was = sum(x.count for x in old.satellites.satellites
                      if (x.colour, x.value) == (e.colour, e.value))
            if was:
                out.take_out.append(f"{e.colour} {e.value}: {_copies(was)} "
                                    f"({old.design.stamp})")
            out.put_in.append(f"{e.colour} {e.value}: {_copies(e.count)}")
    for name in found.removed:
        if name.startswith("satellite-"):
            out.take_out.append(f"{name.removeprefix('satellite-').replace('-', ' ')} "
                                f"(no longer in the game)")
    with stamps_off():
        board_changed = board_pages(old, opts) != board_pages(new, opts)
    if board_changed:
        out.files["satellites/board.pdf"] = render_pdf(board_pages(new, opts),
                                                       "Satellites board", "board and trackers")
        out.take_out.append("the board and the trackers card")
        out.put_in.append("the board and the trackers card (board.pdf)")

    _aids_anew(out, lambda defs: aids.satellites_aid_steps(defs, opts.page, opts.lang), old,
               new)
    return out


def _aids_anew(out: GameReprint, steps_of: Callable[[Any], list[Any]], old: Any,
               new: Any) -> None:
    """The score pad, player aid and booklet that print differently, printed anew."""
    changed = _changed_files(steps_of, old, new)
    out.files.update(_steps_files(steps_of(new), changed))
    for rel in changed:
        name = rel.split("/", 1)[1]
        out.take_out.append(f"the old {sheet_name(name)}")
        out.put_in.append(f"the new {sheet_name(name)} ({name})")


def sheet_name(file: str) -> str:
    """``rules-en.pdf`` -> ``rule booklet (en)``, ``player-aid-en-2up.pdf`` -> ``player aid
    2-up (en)``, as the take-out sheet names a sheet."""
    import re

    found = re.fullmatch(r"(rules|player-aid)-([a-z]+)(-2up|-cards)?\.pdf", file)
    if found:
        what = "rule booklet" if found.group(1) == "rules" else "player aid"
        form = {"-2up": " 2-up", "-cards": " cards"}.get(found.group(3) or "", "")
        return f"{what}{form} ({found.group(2)})"
    return {"score-pad.pdf": "score pad (its unused sheets)"}.get(file, file)


MAKERS: dict[str, Callable[[Any, Any, BuildOptions], GameReprint]] = {
    "orbitus": orbitus, "satellites": satellites}


def take_out_sheet(parts: list[GameReprint], since: str, opts: BuildOptions) -> Drawing:
    """One page: per game, what to take out of the printed kit and what goes in."""
    from generator.drawing import fit_size

    width, height = page_size(opts.page)
    d = Drawing(width, height, title="Reprint: take out and put in")
    x, y = MARGIN_MM + 10.0, MARGIN_MM + 16.0
    room = width - 2 * x
    title = f"Reprint since {since}"
    d.add(Text(x, y, title, fit_size(title, 6.0, room, bold=True), fill="#1d1d1f", bold=True))
    y += 10.0
    for part in parts:
        if not part.any:
            continue
        head = f"{part.game.capitalize()}: {part.old_stamp} → {part.new_stamp}"
        d.add(Text(x, y, head, fit_size(head, 4.2, room, bold=True), fill="#1d1d1f", bold=True))
        y += 7.0
        for note in part.notes:
            d.add(Text(x, y, note, fit_size(note, 3.0, room), fill="#b3261e"))
            y += 5.0
        for label, rows in (("Take out (cut them up, or mark them, so they never come back):",
                             part.take_out), ("Put in (from the reprint):", part.put_in)):
            if not rows:
                continue
            d.add(Text(x, y, label, 3.4, fill="#1d1d1f", bold=True))
            y += 5.5
            for row in rows:
                line = f"☐ {row}"
                d.add(Text(x + 4.0, y, line, fit_size(line, 3.2, room - 4.0), fill="#1d1d1f"))
                y += 5.0
                if y > height - MARGIN_MM - 20.0:
                    return d
            y += 3.0
        y += 4.0
    return d


def reprint(games: tuple[str, ...], old: dict[str, Any], new: dict[str, Any],
            opts: BuildOptions, since: str) -> tuple[dict[str, bytes], list[GameReprint]]:
    """The files of the reprint kit (relative to the output folder) and what each game
    needs; no files when nothing printed changed."""
    from generator.backends.pdf import render_pdf

    parts = []
    for game in games:
        if old[game].design.hash == new[game].design.hash:
            parts.append(GameReprint(game, old[game].design.stamp, new[game].design.stamp))
            continue
        parts.append(MAKERS[game](old[game], new[game], opts))
    files = {f"{FOLDER}/{rel}": data for part in parts for rel, data in part.files.items()}
    if files or any(p.take_out for p in parts):
        files[f"{FOLDER}/take-out.pdf"] = render_pdf([take_out_sheet(parts, since, opts)],
                                                     "Reprint: take out and put in",
                                                     f"what changed since {since}")
    return files, parts

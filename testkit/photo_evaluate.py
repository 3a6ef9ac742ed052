"""How well a reading of a synthetic photo matches the table photographed (tests, benchmark).

For every card of the source layout: fully visible cards must be read on the right cell
with the right card and rotation; partly covered ones read so or reported unread; no
card may be read wrong, read where there is none, and no empty cell reported unread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from testkit.photo_synth import Shot

Hex = tuple[int, int]


@dataclass
class Outcome:
    visible: int = 0  # cards fully visible
    visible_read: int = 0  # ... read right
    partly: int = 0  # cards partly covered
    partly_read: int = 0  # ... read right
    partly_unread: int = 0  # ... reported unread
    wrong: list[str] = field(default_factory=list)  # read as another card or rotation
    missed: list[str] = field(default_factory=list)  # neither read nor reported
    phantom: list[str] = field(default_factory=list)  # read where no card lies
    false_unread: list[str] = field(default_factory=list)  # reported where no card lies
    findings: list[str] = field(default_factory=list)  # other findings of the reading
    complete: bool = False  # every card read, nothing reported
    scores_equal: bool | None = None  # the read layout scores as the source (if complete)

    @property
    def ok(self) -> bool:
        return (self.visible_read == self.visible and not self.wrong and not self.missed
                and not self.phantom and not self.false_unread
                and self.scores_equal is not False)


def evaluate_orbitus(shot: Shot, placed: dict[Hex, tuple[str, int]], unread: list[Hex],
                     findings: list[tuple[str, Hex | None]]) -> Outcome:
    """Compare a reading (``placed``: cell -> (card, rot); ``unread`` cells; other
    findings as (rule, cell)) with the shot's truth."""
    out = Outcome()
    truth = {s.piece.cell: s for s in shot.seen if s.piece.kind == "sector"}
    reported = set(unread) | {cell for _, cell in findings if cell is not None}
    for cell, seen in truth.items():
        got = placed.get(cell)
        fully = seen.covered == 0.0
        if fully:
            out.visible += 1
        else:
            out.partly += 1
        right = got is not None and got == (seen.piece.name, seen.piece.rot)
        where = f"{seen.piece.name}@{list(cell)}"
        if right:
            if fully:
                out.visible_read += 1
            else:
                out.partly_read += 1
        elif got is not None:
            out.wrong.append(f"{where} rot {seen.piece.rot} read as {got[0]} rot {got[1]}")
        elif cell in reported:  # unread, or named by another finding (between cells ...)
            if not fully:
                out.partly_unread += 1
            else:
                out.missed.append(f"{where} fully visible, reported unread")
        else:
            out.missed.append(f"{where} (covered {seen.covered:.0%}) neither read nor "
                              f"reported")
    for cell, (card, rot) in placed.items():
        if cell not in truth:
            out.phantom.append(f"{card} rot {rot} read at {list(cell)}, an empty cell")
    for cell in unread:
        if cell not in truth:
            out.false_unread.append(f"{list(cell)} reported unread, but no card lies there")
    out.findings = [f"{rule} {list(cell) if cell else ''}" for rule, cell in findings]
    out.complete = not unread and not findings and len(placed) == len(truth)
    return out


def orbitus_totals(layout: dict[str, Any], cards: Any = None) -> tuple[int, ...]:
    """The total of every player (seat order) when ``layout`` (a layout file's mapping) is
    scored, with the definitions folder ``cards`` (default: the shipped ones)."""
    from pathlib import Path

    from cards.loader import Document
    from cards.ruleset_cache import load_ruleset
    from rules.orbitus.ruleset import Ruleset
    from rules.orbitus.score import score
    from scorer.orbitus.layout import parse_layout

    ruleset = load_ruleset("orbitus", cards)
    assert isinstance(ruleset, Ruleset)
    doc = Document(Path("photo.yaml"), "photo.yaml", layout)
    table = parse_layout(doc, ruleset, "")
    return score(table, ruleset.scoring, table.findings).totals


def evaluate_satellites(shot: Shot, tokens: dict[Hex, str], unread: list[Hex],
                        findings: list[tuple[str, Hex | None]]) -> Outcome:
    """Compare a board reading (``tokens``: (row, col) -> 'R3' ...) with the shot's truth."""
    out = Outcome()
    truth = {s.piece.cell: s for s in shot.seen if s.piece.kind == "token"}
    reported = set(unread) | {cell for _, cell in findings if cell is not None}
    for cell, seen in truth.items():
        assert cell is not None
        got = tokens.get(cell)
        fully = seen.covered == 0.0
        if fully:
            out.visible += 1
        else:
            out.partly += 1
        where = f"{seen.piece.name}@{_cell(cell)}"
        if got == seen.piece.name:
            if fully:
                out.visible_read += 1
            else:
                out.partly_read += 1
        elif got is not None:
            out.wrong.append(f"{where} read as {got}")
        elif cell in reported:
            if not fully:
                out.partly_unread += 1
            else:
                out.missed.append(f"{where} fully visible, reported unread")
        else:
            out.missed.append(f"{where} (covered {seen.covered:.0%}) neither read nor reported")
    for cell, name in tokens.items():
        if cell not in truth:
            out.phantom.append(f"{name} read at {_cell(cell)}, an empty cell")
    for cell in unread:
        if cell not in truth:
            out.false_unread.append(f"{_cell(cell)} reported unread, but nothing stands there")
    out.findings = [f"{rule} {_cell(cell) if cell else ''}" for rule, cell in findings]
    out.complete = not unread and not findings and len(tokens) == len(truth)
    return out


def _cell(cell: Hex) -> str:
    from rules.satellites.table import cell_name

    return cell_name(*cell)


# --- one synthetic photo after another, read and judged (benchmark and tests) -------------


@dataclass
class Case:
    """One synthetic photo read: what it was, how the reading went, how long it took."""

    game: str
    index: int
    seed: int
    outcome: Outcome
    seconds: float
    camera: dict[str, float]
    size: tuple[int, int]
    pieces: int


class Bench:
    """Makes the ``index``-th synthetic photo of a game (a golden table or board first, then
    random ones, all from ``seed``), reads it and judges the reading."""

    def __init__(self, game: str, seed: int = 2026, count: int = 200) -> None:
        from cards.ruleset_cache import load_definitions
        from photo import marker_map, reader_for
        from testkit.photo_synth import Sprites

        self.game = game
        self.seed = seed
        self.defs = load_definitions(game, None)
        self.sprites = Sprites(game, self.defs)
        self.reader: Any = reader_for(game, marker_map(game, self.defs), self.defs)
        self.tables = self._tables(count)

    def _tables(self, count: int) -> list[Any]:
        from pathlib import Path

        import yaml

        fixtures = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
        if self.game == "orbitus":
            from testkit.photo_synth import orbitus_layouts

            golden = [yaml.safe_load(p.read_text(encoding="utf-8"))
                      for p in sorted((fixtures / "orbitus").glob("*.yaml"))
                      if not p.name.endswith(".expected.yaml")]
            golden = [g for g in golden if all("card" in s for s in g["sectors"])]
            return orbitus_layouts(self.defs, count, self.seed, golden)
        from testkit.photo_synth import satellites_grids

        boards = []
        for p in sorted((fixtures / "satellites").glob("*.txt")):
            if p.name.endswith(".summary.txt") or p.stem.startswith("violation"):
                continue
            rows = [line.split("#")[0].split() for line in p.read_text().splitlines()]
            rows = [[t.upper() for t in r] for r in rows if r]
            if len(rows) == 10 and all(len(r) == 10 for r in rows):
                boards.append(rows)
        return (boards + satellites_grids(self.defs, count, self.seed))[:count]

    def shot(self, index: int, **kw: Any) -> Shot:
        from testkit.photo_synth import orbitus_shot, satellites_shot

        table = self.tables[index % len(self.tables)]
        seed = self.seed * 100_000 + index
        if self.game == "orbitus":
            return orbitus_shot(table, self.defs, self.sprites, seed, **kw)
        return satellites_shot(table, self.defs, self.sprites, seed, **kw)

    def case(self, index: int, **kw: Any) -> Case:
        import time

        shot = self.shot(index, **kw)
        start = time.perf_counter()
        reading, _ = self.reader.read_bytes(shot.jpeg, f"photo-{index}.jpg")
        seconds = time.perf_counter() - start
        findings = [(f.rule, f.cell) for f in reading.findings]
        if self.game == "orbitus":
            placed = {c: (p.card, p.rot) for c, p in reading.placed.items()}
            outcome = evaluate_orbitus(shot, placed, reading.unread, findings)
            if outcome.complete:
                read = {**shot.layout, "sectors": [
                    {"at": [c[0], c[1]], "card": card, "rot": rot}
                    for c, (card, rot) in sorted(placed.items())]}
                outcome.scores_equal = orbitus_totals(read) == orbitus_totals(shot.layout)
            pieces = len(shot.layout["sectors"])
        else:
            tokens = {c: t.text for c, t in reading.tokens.items()}
            outcome = evaluate_satellites(shot, tokens, reading.unread, findings)
            if outcome.complete:
                outcome.scores_equal = satellites_summary(reading.grid()) == \
                    satellites_summary(shot.layout["board"])
            pieces = sum(t != "." for row in shot.layout["board"] for t in row)
        return Case(self.game, index, self.seed, outcome, seconds, shot.camera,
                    (shot.width, shot.height), pieces)


def satellites_summary(grid: list[list[str]]) -> Any:
    """What a Satellites score decides: colonies, control, connected, winner."""
    from scorer.satellites.board import read_string
    from scorer.satellites.report import to_json
    from scorer.satellites.score import score

    text = "\n".join(" ".join(row) for row in grid) + "\n"
    obj = to_json(score(read_string(text, "board.txt").board))  # the shipped rule numbers
    return {k: obj[k] for k in ("groups", "connected", "colonies", "winner", "tiebreak")}

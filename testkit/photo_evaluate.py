"""How well a reading of a synthetic photo matches the table photographed (tests, benchmark).

For every card of the source layout: fully visible cards must be read on the right cell
with the right card and rotation; partly covered ones read so or reported (unread,
covered); hidden ones (under a cup, beyond the photo's edge) named by a finding; no card
may be read wrong, read where there is none, and no empty cell reported unread. A photo
whose reading says nothing is amiss must be the whole table, exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules import hexgeo
from testkit.photo_synth import Shot

Hex = tuple[int, int]


@dataclass
class Verdict:
    """One piece of the truth against the reading: ``state`` visible, partly (covered or
    out of the photo in part) or hidden (not seen at all); ``verdict`` right (read as it
    is), wrong (read as another piece or rotation), reported (its cell named unread,
    covered, out of the photo ...) or missed (neither read nor reported)."""

    cell: Hex
    label: str
    state: str
    verdict: str
    covered: float
    by_neighbour: bool = False  # reported only through a covered cell next to it or the
    # photo's edge over the table: no finding names its own cell


@dataclass
class Outcome:
    visible: int = 0  # pieces fully visible
    visible_read: int = 0  # ... read right
    partly: int = 0  # pieces partly covered (or partly out of the photo)
    partly_read: int = 0  # ... read right
    partly_unread: int = 0  # ... reported (unread, covered ...)
    hidden: int = 0  # pieces not seen at all (under a cup, out of the photo)
    hidden_named: int = 0  # ... whose cell a finding names
    wrong: list[str] = field(default_factory=list)  # read as another card or rotation
    missed: list[str] = field(default_factory=list)  # neither read nor reported
    phantom: list[str] = field(default_factory=list)  # read where no card lies
    false_unread: list[str] = field(default_factory=list)  # reported where no card lies
    findings: list[str] = field(default_factory=list)  # other findings of the reading
    complete: bool = False  # the reading says: everything read, nothing to report
    exact: bool = False  # ... and what it read is the whole table, piece for piece
    scores_equal: bool | None = None  # the read layout scores as the source (if complete)
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def silent_wrong(self) -> bool:
        """The worst outcome: the reading says nothing is amiss, yet its table (or score)
        is not the one photographed."""
        return self.complete and (not self.exact or self.scores_equal is False)

    def problems(self) -> str:
        """What went wrong, in one line: the pieces read wrong, missed, seen where none
        lies, reported unread on an empty cell, and a score that differs."""
        return "; ".join(self.wrong + self.missed + self.phantom + self.false_unread
                         + ([] if self.scores_equal is not False else ["scores differ"]))

    @property
    def ok(self) -> bool:
        return (self.visible_read == self.visible and not self.wrong and not self.missed
                and not self.phantom and not self.false_unread
                and self.scores_equal is not False and not self.silent_wrong)


def judge(truth: dict[Hex, tuple[Any, float, str]], got: dict[Hex, Any], unread: list[Hex],
          findings: list[tuple[str, Hex | None]], empty: str,
          adjacent: Callable[[Hex, Hex], bool] | None = None,
          beyond: set[Hex] | None = None) -> Outcome:
    """The reading ``got`` (cell -> what was read there), its ``unread`` cells and other
    ``findings`` (rule, cell) against ``truth`` (cell -> (what lies there, share of it
    covered or out of the photo, its label)); ``empty`` says in words what a false
    report is reported on. A piece not fully visible also counts as reported when it is
    ``adjacent`` to a cell reported covered (the hand or cup over it is named where it is
    seen), or lies in ``beyond`` (mostly outside the photo) and the photo's edge is
    reported over the table."""
    out = Outcome()
    reported = set(unread) | {cell for _, cell in findings if cell is not None}
    covered = {cell for rule, cell in findings if rule == "photo-covered" and cell is not None}
    edge = any(rule == "photo-out-of-frame" for rule, _ in findings)
    def covered_by(cell: Hex) -> bool:
        return adjacent is not None and state != "visible" and any(
            adjacent(cell, c) for c in covered)

    for cell, (want, share, label) in truth.items():
        read = got.get(cell)
        state = "visible" if share == 0.0 else "hidden" if share >= 1.0 else "partly"
        by_neighbour = False
        if read is not None and read == want:
            verdict = "right"
        elif read is not None:
            verdict = "wrong"
            out.wrong.append(f"{label} read as {read}")
        elif cell in reported or covered_by(cell) or (
                edge and state != "visible" and beyond is not None and cell in beyond):
            verdict = "reported"
            by_neighbour = cell not in reported
            if state == "visible":
                out.missed.append(f"{label} fully visible, reported unread")
        else:
            verdict = "missed"
            out.missed.append(f"{label} ({state}, covered {share:.0%}) neither read nor "
                              f"reported")
        out.verdicts.append(Verdict(cell, label, state, verdict, share, by_neighbour))
        if state == "visible":
            out.visible += 1
            out.visible_read += verdict == "right"
        elif state == "partly":
            out.partly += 1
            out.partly_read += verdict == "right"
            out.partly_unread += verdict == "reported"
        else:
            out.hidden += 1
            out.hidden_named += verdict in ("reported", "right")
    for cell, read in got.items():
        if cell not in truth:
            out.phantom.append(f"{read} read at {cell}, {empty}")
    for cell in unread:
        if cell not in truth:
            out.false_unread.append(f"{cell} reported unread, but {empty}")
    out.findings = [f"{rule} {list(cell) if cell else ''}" for rule, cell in findings]
    out.complete = not unread and not findings
    out.exact = out.complete and got == {cell: want for cell, (want, _, _) in truth.items()}
    return out


def evaluate_orbitus(shot: Shot, placed: dict[Hex, tuple[str, int]], unread: list[Hex],
                     findings: list[tuple[str, Hex | None]]) -> Outcome:
    """Compare a reading (``placed``: cell -> (card, rot); ``unread`` cells; other
    findings as (rule, cell)) with the shot's truth."""
    truth = {s.piece.cell: ((s.piece.name, s.piece.rot), s.covered,
                            f"{s.piece.name}@{list(s.piece.cell)} rot {s.piece.rot}")
             for s in shot.seen if s.piece.kind == "sector" and s.piece.cell is not None}
    return judge(truth, placed, unread, findings, "no card lies there",
                 lambda a, b: hexgeo.distance(a, b) <= 1, shot.beyond)


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
    truth = {s.piece.cell: (s.piece.name, s.covered, f"{s.piece.name}@{_cell(s.piece.cell)}")
             for s in shot.seen if s.piece.kind == "token" and s.piece.cell is not None}
    return judge(truth, tokens, unread, findings, "nothing stands there",
                 lambda a, b: max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1, shot.beyond)


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
        return tables(self.game, self.defs, count, self.seed)

    def shot(self, index: int, view: int = 0, **kw: Any) -> Shot:
        """The ``index``-th photo; ``view`` > 0: another photo of the same table (another
        camera, other fingers, the pieces laid again a little differently on the same
        cells)."""
        from testkit.photo_synth import orbitus_shot, satellites_shot

        table = self.tables[index % len(self.tables)]
        seed = self.seed * 100_000 + index + 50_000 * view
        if self.game == "orbitus":
            return orbitus_shot(table, self.defs, self.sprites, seed, **kw)
        return satellites_shot(table, self.defs, self.sprites, seed, **kw)

    def case(self, index: int, **kw: Any) -> Case:
        import time

        shot = self.shot(index, **kw)
        start = time.perf_counter()
        reading, _ = self.reader.read_bytes(shot.jpeg, f"photo-{index}.jpg")
        seconds = time.perf_counter() - start
        outcome = outcome_of(self.game, shot, reading)
        if self.game == "orbitus":
            pieces = len(shot.layout["sectors"])
        else:
            pieces = sum(t != "." for row in shot.layout["board"] for t in row)
        return Case(self.game, index, self.seed, outcome, seconds, shot.camera,
                    (shot.width, shot.height), pieces)


    def pair(self, index: int) -> Case:
        """Two photos of the ``index``-th table read each on its own and merged
        (:mod:`photo.merge`), judged against the pair's truth: a piece fully visible in
        either photo must be read right."""
        import time
        from dataclasses import replace

        from photo.merge import evidence_of, merge

        shots = [self.shot(index), self.shot(index, view=1)]
        start = time.perf_counter()
        read = [self.reader.read_bytes(s.jpeg, f"photo-{index}-{v}.jpg")
                for v, s in enumerate(shots)]
        readings = [r for r, _ in read]
        merged = merge(self.game, readings, [f"photo-{index}-{v}.jpg" for v in range(2)],
                       evidence_of(self.reader, readings, [w for _, w in read]))
        seconds = time.perf_counter() - start
        least = {}
        for s in shots:
            for seen in s.seen:
                key = (seen.piece.kind, seen.piece.cell)
                if key not in least or seen.covered < least[key].covered:
                    least[key] = seen
        both = replace(shots[0], seen=list(least.values()))
        outcome = outcome_of(self.game, both, merged)
        return Case(self.game, index, self.seed, outcome, seconds, shots[0].camera,
                    (shots[0].width, shots[0].height), len(outcome.verdicts))


def outcome_of(game: str, shot: Shot, reading: Any) -> Outcome:
    """A reading (:class:`photo.orbitus.TableReading` or :class:`photo.satellites.BoardReading`)
    of ``shot`` judged; a reading that says it is complete is also scored against the
    source."""
    findings = [(f.rule, f.cell) for f in reading.findings]
    if game == "orbitus":
        placed = {c: (p.card, p.rot) for c, p in reading.placed.items()}
        outcome = evaluate_orbitus(shot, placed, reading.unread, findings)
        if outcome.complete:
            read = {**shot.layout, "sectors": [
                {"at": [c[0], c[1]], "card": card, "rot": rot}
                for c, (card, rot) in sorted(placed.items())]}
            outcome.scores_equal = orbitus_totals(read) == orbitus_totals(shot.layout)
        return outcome
    tokens = {c: t.text for c, t in reading.tokens.items()}
    outcome = evaluate_satellites(shot, tokens, reading.unread, findings)
    if outcome.complete:
        outcome.scores_equal = satellites_summary(reading.grid()) == \
            satellites_summary(shot.layout["board"])
    return outcome


def tables(game: str, defs: Any, count: int, seed: int = 2026) -> list[Any]:
    """The tables the benchmarks photograph: Orbitus, the golden layouts of the tests, then
    random legal tables of 20-72 sectors for 2-6 players; Satellites, the golden boards, then
    boards of random games (all from ``seed``)."""
    from pathlib import Path

    import yaml

    fixtures = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
    if game == "orbitus":
        from testkit.photo_synth import orbitus_layouts

        golden = [yaml.safe_load(p.read_text(encoding="utf-8"))
                  for p in sorted((fixtures / "orbitus").glob("*.yaml"))
                  if not p.name.endswith(".expected.yaml")]
        golden = [g for g in golden if all("card" in s for s in g["sectors"])]
        return orbitus_layouts(defs, count, seed, golden)
    from testkit.photo_synth import satellites_grids

    boards = []
    for p in sorted((fixtures / "satellites").glob("*.txt")):
        if p.name.endswith(".summary.txt") or p.stem.startswith("violation"):
            continue
        rows = [line.split("#")[0].split() for line in p.read_text().splitlines()]
        rows = [[t.upper() for t in r] for r in rows if r]
        if len(rows) == 10 and all(len(r) == 10 for r in rows):
            boards.append(rows)
    return (boards + satellites_grids(defs, count, seed))[:count]


def satellites_summary(grid: list[list[str]]) -> Any:
    """What a Satellites score decides: colonies, control, connected, winner."""
    from scorer.satellites.board import read_string
    from scorer.satellites.report import to_json
    from scorer.satellites.score import score

    text = "\n".join(" ".join(row) for row in grid) + "\n"
    obj = to_json(score(read_string(text, "board.txt").board))  # the shipped rule numbers
    return {k: obj[k] for k in ("groups", "connected", "colonies", "winner", "tiebreak")}

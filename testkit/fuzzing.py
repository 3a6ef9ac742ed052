"""A seeded mutation fuzzer over the fixtures, for every reader of user files.

Readers (each run in-process, exactly as its command runs it):

* ``definitions``: ``pnp-build``'s loading path (:func:`generator.build.plan`: every file of
  a game read, validated, cross-checked and its build steps listed) on a copy of the
  shipped ``cards/`` with one file mutated;
* ``layouts``: ``pnp-score orbitus`` on a mutated Orbitus layout;
* ``boards``: ``pnp-score satellites`` on a mutated board (text grid or YAML);
* ``records``: ``pnp-replay`` on a mutated game record (both games).

Every input must end with exit code 0, 1 or 2 (for pnp-build's loading: success or a
``DefinitionError``), never a traceback or an "internal error" line, within
``HANG_SECONDS``; a scorer that exits 2 prints nothing on stdout; every problem line names
its file. The same seed gives the same inputs. ``tools/fuzz_readers.py`` runs the long run;
``tests/test_fuzz.py`` a fast slice.
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import signal
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CARDS = ROOT / "cards"
HANG_SECONDS = 20.0

# values that broke (or could break) a reader: typed and tagged YAML, non-finite and huge
# numbers, words YAML 1.1 and 1.2 read differently, aliases, control characters, odd digits
HOSTILE = [
    "2001-02-30", "2024-05-01", "!!timestamp x", "!!binary x", "!!binary eA==", "!!bool maybe",
    "!!int x", "!!float x", "!!set {a, b}", "!!omap [a: 1]", "!!python/name:os.system",
    "!!python/object/apply:os.system [ls]", "!custom 5", "! 5", "!!str 5", "!!null x",
    ".inf", "-.inf", ".nan", "1e999", "1.0e+999", "9" * 5000, "-" + "9" * 4400, "0", "-1",
    "07", "010", "08", "0x1F", "0o17", "0b101", "1_000", "1:30", "190:20:30.15", "no", "yes",
    "on", "off", "Y", "~", "null", "", "[]", "{}", "[[[[[[[[]]]]]]]]", "{a: {b: {c: {}}}}",
    "*a", "&a x", "&a [1, 2]", "<<", "=", '"\\u2028"', '"\\x1b[2J"', '"\\n"', '"\\0"', "''",
    '" S44"', "²", "٣", "Ⅻ", "S" * 300, "-99999999999", "3.5", "-0.0", "true", "false",
    "[N, N, N]", "[0, 0]", "[0, -1, 2]", "[a, b]", "{at: [0, 1]}", "- x", "? x", "|", ">",
    "'unterminated", '"unterminated', "#", "@x", "`x", "%x", "\t", "\u2028", "\x85", "\x00",
    "\x1b[2J", "\ufeff", "\udcff",
]
HOSTILE_BYTES = [b"\x00", b"\xff", b"\xfe\xff", b"\n", b"\r", b"\t", b":", b"- ", b"[", b"]",
                 b"{", b"}", b"&a ", b"*a", b"!!", b"'", b'"', b"#", b"\xe2\x80\xa8", b"\xc2\x85",
                 b"\x1b", b"  ", b",", b"|\n", b"<<: *a\n", b"---\n", b"...\n", b"%YAML 1.1\n"]
# values that look right, so mutated inputs also get past the first checks
MILD = ["N", "NE", "SE", "S", "SW", "NW", "S01", "S07", "S44", "S72", "0", "1", "2", "3", "5",
        "-1", "-2", "6", "12", "23", "30", "50", "[0, -1]", "[1, -1]", "[2, -2]", "[N, S]", "ice",
        "lava", "gas", "true", "false", "Anna", "Boris", "Carla", "red", "blue", "c4", "d7",
        "'#123456'", "solid", "hatched", "orbitus", "satellites", "[]", "2.5"]
TOKENS = ["R1", "B4", "r9", "B0", "X", ".", "..", "R1R1", "b2", "R", "1", "R-1", "R²", "B٣"]
MOVES = ["c1-c4", "c1-c4+", "a4-d7>d9", "pass", "place S07 @0,-1 r2", "remove 1,-2",
         "discard S12", "Anna: pass", "place S07 @0," + "9" * 5000, "c1-c" + "9" * 5000,
         "place S07 @0,-1 r" + "9" * 4400, "place S99 @0,-1", "z99-a1", "c1-c1", "remove",
         "place", "\x1b[2J", "Bob\nWinner: Bob", "a1-a2, b1-b2; c1", "place S07 @٣,1 r²"]

_FILE_LINE = __import__("re").compile(r"^\S.*?\.(?:yaml|yml|md)(?::\d+)?: ")
_SCALAR = r"(?<=[:\[,\-{] )[^\s,\]\}\[\{#:'\"]+|(?<=^- )[^\s]+"


def mutate(data: bytes, rng: random.Random, kind: str) -> bytes:
    """``data`` with 1-3 random mutations (byte, line and token level)."""
    import re

    for _ in range(rng.choice((1, 1, 2, 3))):
        op = rng.randrange(14)  # 0-4 bytes and lines, the rest (two thirds) values
        if op == 0 and data:  # flip a byte
            i = rng.randrange(len(data))
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        elif op == 1:  # insert a hostile byte sequence
            i = rng.randrange(len(data) + 1)
            data = data[:i] + rng.choice(HOSTILE_BYTES) + data[i:]
        elif op == 2 and data:  # delete or duplicate a range
            i = rng.randrange(len(data))
            j = min(len(data), i + rng.randrange(1, 64))
            data = data[:i] + data[j:] if rng.random() < 0.5 else data[:j] + data[i:j] + data[j:]
        elif op == 3:  # line level: delete, duplicate, swap, re-indent
            lines = data.split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                choice = rng.randrange(4)
                if choice == 0:
                    del lines[i]
                elif choice == 1:
                    lines.insert(i, lines[j])
                elif choice == 2:
                    lines[i], lines[j] = lines[j], lines[i]
                else:
                    lines[i] = b" " * rng.choice((0, 1, 2, 3, 4, 8)) + lines[i].lstrip()
                data = b"\n".join(lines)
        elif op == 4 and data:  # truncate
            data = data[:rng.randrange(len(data))]
        else:  # token level: replace a value by a hostile one (most mutations)
            text = data.decode("utf-8", "surrogateescape")
            pool = (MILD if rng.random() < 0.6 else HOSTILE) + (
                TOKENS if kind == "boards" else []) + (MOVES if kind == "records" else [])
            found = list(re.finditer(_SCALAR, text, re.MULTILINE))
            if kind == "boards" and rng.random() < 0.5:
                found = list(re.finditer(r"(?<![\w])[RBrb][1-4](?![\w])|(?<= )\.(?= |$)", text,
                                         re.MULTILINE)) or found
            if found:
                m = rng.choice(found)
                value = rng.choice(pool)
                text = text[:m.start()] + value + text[m.end():]
            data = text.encode("utf-8", "surrogateescape")
    return data


@dataclass
class Outcome:
    """What one reader did with one input."""

    code: int | str  # exit code, "ok"/"refused" for the definitions, "hang", "crash"
    out: str = ""
    err: str = ""


@dataclass
class Tally:
    """Counts of one reader's run."""

    reader: str
    inputs: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    internal_errors: int = 0
    tracebacks: int = 0
    hangs: int = 0
    contract: int = 0  # exit 2 with stdout, a problem line without its file, ...
    failures: list[tuple[int, str]] = field(default_factory=list)  # (input number, why)

    @property
    def bad(self) -> int:
        return self.internal_errors + self.tracebacks + self.hangs + self.contract

    def line(self) -> str:
        codes = ", ".join(f"{k}: {v}" for k, v in sorted(self.codes.items()))
        return (f"{self.reader:<12} {self.inputs:>6} inputs  internal errors {self.internal_errors}"
                f"  tracebacks {self.tracebacks}  hangs {self.hangs}  contract {self.contract}"
                f"  ({codes})")


class _Hang(BaseException):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise _Hang


def _capture(body: Callable[[], int | str]) -> Outcome:
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = body()
    except _Hang:
        code = "hang"
    except Exception as exc:  # noqa: BLE001 - the fuzzer records every escape
        import traceback

        code = "crash"
        err.write("Traceback (most recent call last):\n" + "".join(
            traceback.format_exception(exc)))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return Outcome(code, out.getvalue(), err.getvalue())


# --- the readers ---------------------------------------------------------------------------


def _seeds(kind: str) -> list[Path]:
    """The fixtures a reader's inputs are mutated from (not the expected outputs)."""
    if kind == "layouts":
        return sorted(p for p in (FIXTURES / "orbitus").glob("*.yaml")
                      if ".expected." not in p.name)
    if kind == "boards":
        return sorted(p for p in (FIXTURES / "satellites").iterdir()
                      if p.suffix in (".txt", ".yaml") and not p.name.endswith(".summary.txt"))
    if kind == "records":
        return sorted((FIXTURES / "records").glob("*/*.yaml"))
    return sorted(p for p in CARDS.glob("*/*.yaml"))


class Reader:
    """One reader with its work folder; ``run(data, seed_path)`` returns an Outcome."""

    def __init__(self, kind: str, work: Path) -> None:
        self.kind = kind
        self.work = work
        self.seeds = _seeds(kind)
        work.mkdir(parents=True, exist_ok=True)
        if kind == "definitions":
            self.cards = work / "cards"
            for game in ("orbitus", "satellites", "presets"):  # presets: cards/presets/*.yaml
                (self.cards / game).mkdir(parents=True, exist_ok=True)
                for f in (CARDS / game).glob("*.yaml"):
                    shutil.copy(f, self.cards / game / f.name)

    def mutate(self, data: bytes, rng: random.Random, seed: Path) -> bytes:
        """One input made from the bytes of ``seed``."""
        return mutate(data, rng, self.kind)

    def judge(self, outcome: Outcome, seed: Path) -> str | None:
        """Why ``outcome`` breaks the contract, or None."""
        return judge(self, outcome, seed)

    def input_path(self, seed: Path) -> Path:
        if self.kind == "definitions":
            return self.cards / seed.parent.name / seed.name
        if self.kind == "records":
            return self.work / f"record-{seed.parent.name}.yaml"
        return self.work / f"input{seed.suffix}"

    def run(self, data: bytes, seed: Path) -> Outcome:
        path = self.input_path(seed)
        path.write_bytes(data)
        try:
            if self.kind == "definitions":
                return _capture(lambda: _load_definitions(self.cards, seed.parent.name))
            if self.kind == "layouts":
                from scorer.orbitus.cli import run as score_orbitus

                return _capture(lambda: score_orbitus([str(path)]))
            if self.kind == "boards":
                from scorer.satellites.cli import run as score_satellites

                return _capture(lambda: score_satellites([str(path)]))
            from records.replay_cli import main as replay

            return _capture(lambda: replay([str(path)]))
        finally:
            if self.kind == "definitions":  # the next input starts from the shipped file
                shutil.copy(seed, path)


def _load_definitions(cards: Path, game: str) -> str:
    from cards.loader import DefinitionError
    from generator.build import plan
    from generator.options import BuildOptions

    try:
        if game == "presets":  # every preset read as a build reads it
            from cards.presets import available, load_preset

            for name in available(cards):
                load_preset(name, cards)
            return "ok"
        plan((game,), cards, BuildOptions())
    except DefinitionError as exc:
        print("\n".join(exc.problems), file=__import__("sys").stderr)
        return "refused"
    return "ok"


def escaped(outcome: Outcome) -> str | None:
    """"hang", "traceback" or "internal error" when the input got one of them, else None."""
    if outcome.code == "hang":
        return "hang"
    if "Traceback" in outcome.err or outcome.code == "crash":
        return "traceback"
    if "internal error" in outcome.err:
        return "internal error"
    return None


def command_contract(outcome: Outcome, named: tuple[str, ...]) -> str | None:
    """Why a command's exit breaks the contract, or None: no escape (:func:`escaped`), exit
    0-2, and exit 2 with nothing on stdout and only lines that start with one of ``named``
    (the file, the command)."""
    why = escaped(outcome)
    if why is not None:
        return why
    if outcome.code not in (0, 1, 2):
        return f"contract: exit code {outcome.code}"
    if outcome.code == 2 and outcome.out:
        return "contract: exit 2 printed on stdout"
    if outcome.code == 2 and not outcome.err.strip():
        return "contract: exit 2 without a reason"
    if outcome.code == 2:
        for line in outcome.err.splitlines():
            if not line.startswith(named):
                return f"contract: a line that names neither the file nor the command: {line!r}"
    return None


def judge(reader: Reader, outcome: Outcome, seed: Path) -> str | None:
    """Why an outcome breaks the contract, or None."""
    if reader.kind != "definitions":
        return command_contract(outcome, (str(reader.input_path(seed)), "pnp-"))
    why = escaped(outcome)
    if why is None and outcome.code == "refused":
        lines = outcome.err.splitlines()
        if not lines or not all(_FILE_LINE.match(line) for line in lines):
            return "contract: a problem line without its file"
    return why


def fuzz(kind: str, count: int, seed: int, work: Path,
         keep: Path | None = None, progress: Callable[[int], None] | None = None,
         reader: Reader | None = None) -> Tally:
    """Run ``count`` mutated inputs through one reader (``reader``, else the one of
    ``kind`` here); failing inputs are saved in ``keep`` (as ``<reader>-<number><suffix>``)
    when given."""
    rng = random.Random(f"{kind}:{seed}")
    reader = reader or Reader(kind, work / kind)
    tally = Tally(kind)
    originals = {p: p.read_bytes() for p in reader.seeds}
    for number in range(count):
        source = rng.choice(reader.seeds)
        data = reader.mutate(originals[source], rng, source)
        outcome = reader.run(data, source)
        tally.inputs += 1
        tally.codes[str(outcome.code)] += 1
        why = reader.judge(outcome, source)
        if why is not None:
            if why == "hang":
                tally.hangs += 1
            elif why == "traceback":
                tally.tracebacks += 1
            elif why == "internal error":
                tally.internal_errors += 1
            else:
                tally.contract += 1
            tally.failures.append((number, f"{why}: {outcome.err.strip()[-300:]}"))
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"{kind}-{number}{source.suffix}").write_bytes(data)
        if progress is not None:
            progress(number + 1)
    return tally

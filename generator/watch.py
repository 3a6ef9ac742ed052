"""``pnp-build --watch``: rebuild what a changed definition file affects, and keep watching.

The folder is polled (file modification times and sizes, standard library
only). Which outputs depend on which file is not written down by hand: every
build step runs against definitions that record which of their parts
(``planets``, ``sectors``, ``station``, ``rules``; ``board``, ``satellites``,
``trackers``; each one YAML file) the step reads. When ``planets.yaml``
changes, only the steps that read the planets run again (the sector sheets,
the SVGs, ...); the station sheet, which never looks at planets, is left
alone. Any other changed file (a rules text under
``<cards>/<game>/text/``, say) stands for the folder itself: it rebuilds the
steps that looked into the definitions folder (``folder``), in its game, or
in every game when it lies outside both game folders. The JSON schemas only
help editors and change nothing.

A definition that breaks a rule is reported (one line per problem) and the
previous outputs of that game stay as they were; the watch goes on, and the
next good save rebuilds everything that changed in between.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from cards.definitions import DEFAULT_CARDS
from cards.loader import DefinitionError
from generator.build import GAMES, common_steps, game_steps, load_checked, write_outputs
from generator.options import BuildOptions, Step
from generator.output import OutputError

EVERYTHING = "*"
FOLDER = "folder"  # the definitions' folder field: steps that read other files through it
IGNORED_SUFFIXES = (".py", ".pyc", ".tmp", ".swp", ".swx", ".bak", "~")
IGNORED_FOLDERS = ("schema", "__pycache__")

Report = Callable[[str], None]
Snapshot = dict[str, tuple[int, int]]


# --- definitions that note which parts a step reads -------------------------------------


class Recorder:
    """Collects the definition parts read while a step runs (``current``) or while the
    steps are being listed (``listing``: those count for every step)."""

    def __init__(self) -> None:
        self.current: set[str] | None = None
        self.listing: set[str] = set()

    def note(self, name: str) -> None:
        (self.current if self.current is not None else self.listing).add(name)


_RECORDING: dict[type, type] = {}


def recording(defs: Any, recorder: Recorder) -> Any:
    """A copy of ``defs`` (a definitions dataclass) that tells ``recorder`` each field read;
    its ``ruleset`` tells which file each rule number read comes from."""
    cls = type(defs)
    names = frozenset(f.name for f in fields(defs) if not f.metadata.get("option"))
    sub = _RECORDING.get(cls)
    if sub is None:

        def __getattribute__(self: Any, name: str) -> Any:  # noqa: N807
            if name == "ruleset":
                return _recorded_ruleset(self)
            if name == "design":  # the stamp is the hash of every definition and text
                recorder = object.__getattribute__(self, "_recorder")
                for part in (*sorted(names - {"files"}), FOLDER):
                    recorder.note(part)
            if name in names:
                object.__getattribute__(self, "_recorder").note(name)
            return object.__getattribute__(self, name)

        sub = type(f"Recording{cls.__name__}", (cls,), {"__getattribute__": __getattribute__})
        _RECORDING[cls] = sub
    copy = sub(**{f.name: getattr(defs, f.name) for f in fields(defs)})
    object.__setattr__(copy, "_recorder", recorder)
    object.__setattr__(copy, "_ruleset", defs.ruleset)
    return copy


class _RulesetReads:
    """A ruleset that notes, for every attribute read, the definition files it comes from."""

    def __init__(self, ruleset: Any, parts: dict[str, tuple[str, ...]],
                 every: tuple[str, ...], recorder: Recorder) -> None:
        self._ruleset, self._parts, self._every, self._recorder = ruleset, parts, every, recorder

    def __getattr__(self, name: str) -> Any:
        for part in self._parts.get(name, self._every):
            self._recorder.note(part)
        return getattr(self._ruleset, name)


def _recorded_ruleset(defs: Any) -> _RulesetReads:
    from cards.files import definitions_of

    ruleset = object.__getattribute__(defs, "_ruleset")
    parts = definitions_of(ruleset.GAME).PARTS
    every = tuple(sorted({p for names in parts.values() for p in names}))
    return _RulesetReads(ruleset, parts, every, object.__getattribute__(defs, "_recorder"))


# --- which file is which part --------------------------------------------------------------


def snapshot(folder: Path, exclude: Path | None = None) -> Snapshot:
    """``{relative posix path: (mtime_ns, size)}`` of every file that can affect a build;
    nothing under ``exclude`` (the output folder, when it lies inside the definitions: the
    watch must not rebuild because it wrote)."""
    found: Snapshot = {}
    if not folder.is_dir():
        return found
    skip = exclude.resolve() if exclude is not None else None
    for path in sorted(folder.rglob("*")):
        if skip is not None and (path == skip or skip in path.parents):
            continue
        rel = path.relative_to(folder)
        if any(part.startswith((".", "~")) for part in rel.parts):
            continue
        if rel.parts[0] in IGNORED_FOLDERS or path.name.endswith(IGNORED_SUFFIXES):
            continue
        try:
            if not path.is_file():
                continue
            st = path.stat()
        except OSError:  # removed while we looked
            continue
        found[rel.as_posix()] = (st.st_mtime_ns, st.st_size)
    return found


def changed_files(before: Snapshot, after: Snapshot) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def parts_changed(files: Iterable[str], games: tuple[str, ...]) -> dict[str, set[str]]:
    """For each game, the definition parts the changed ``files`` stand for (``FOLDER`` for
    a file that is not one of its definition files)."""
    import rules
    from cards.files import definitions_of

    known = {game: set(definitions_of(game).FILES) for game in rules.names("cards")}
    out: dict[str, set[str]] = {}
    for rel in files:
        head, _, rest = rel.partition("/")
        if head in known:
            if head not in games:
                continue
            stem, dot, ext = rest.rpartition(".")
            part = stem if dot and ext in ("yaml", "yml") and stem in known[head] else FOLDER
            out.setdefault(head, set()).add(part)
        else:
            for game in games:
                out.setdefault(game, set()).add(FOLDER)
    return out


# --- the watch ----------------------------------------------------------------------------


@dataclass
class GameState:
    """What the watch knows of one game: the steps' recorded reads, and the parts changed
    since its last good build (kept while its definitions are broken)."""

    reads: dict[str, set[str]] = field(default_factory=dict)
    outputs: dict[str, set[str]] = field(default_factory=dict)  # step -> files it wrote
    listing: set[str] = field(default_factory=set)
    pending: set[str] = field(default_factory=set)
    built: bool = False


def _affected(state: GameState, steps: list[Step], changed: set[str],
              out_dir: Path) -> list[Step]:
    """The steps to run: those that read a changed part, and those whose files are no
    longer in ``out_dir`` (deleted by hand: the next rebuild makes them again)."""
    if not state.built or EVERYTHING in changed or state.listing & changed:
        return steps
    return [s for s in steps if s[0] not in state.reads or state.reads[s[0]] & changed
            or _missing(out_dir, state.outputs.get(s[0], set()))]


def _missing(out_dir: Path, files: Iterable[str]) -> bool:
    return any(not (out_dir / rel).is_file() for rel in files)


def rebuild_game(game: str, cards: Path | None, opts: BuildOptions, state: GameState,
                 changed: set[str], out_dir: Path, report: Report) -> list[str] | None:
    """Reload ``game`` and run the steps that read any of ``changed`` (all on the first
    build). Returns the files written, or None when a problem was reported instead."""
    state.pending |= changed
    recorder = Recorder()
    try:
        defs = load_checked(game, cards, opts)  # the labels of --lang checked too
        steps = game_steps(game, recording(defs, recorder), opts)
    except DefinitionError as exc:
        for line in exc.problems:
            report(line)
        report(f"pnp-build: {len(exc.problems)} problem(s) in the {game} definitions; its "
               "outputs were left as they were; still watching")
        return None
    except Exception as exc:  # a bug must not end the watch: say so, keep watching
        _internal(report, exc, f"loading the {game} definitions")
        return None
    state.listing = set(recorder.listing)
    todo = _affected(state, steps, state.pending, out_dir)
    files: dict[str, bytes] = {}
    made: dict[str, set[str]] = {}
    reads: dict[str, set[str]] = {}
    try:
        for name, step in todo:
            recorder.current = set()
            produced = step()
            files.update(produced)
            made[name] = set(produced)
            reads[name] = recorder.current
            recorder.current = None
        write_outputs(out_dir, files, (game,), info=report)
    except ValueError as exc:  # a component that cannot be laid out on the chosen paper
        report(f"pnp-build: {exc}; the {game} outputs were left as they were; still watching")
        return None
    except OutputError as exc:
        for line in exc.lines:
            report(line)
        report("pnp-build: still watching")
        return None
    except OSError as exc:
        report(f"pnp-build: cannot write to {out_dir}: {exc.strerror or exc}; still watching")
        return None
    except Exception as exc:
        _internal(report, exc, f"building {game}")
        return None
    finally:
        recorder.current = None
    state.reads.update(reads)
    state.outputs.update(made)
    state.pending.clear()
    state.built = True
    return sorted(files)


def _internal(report: Report, exc: Exception, doing: str) -> None:
    import os

    if os.environ.get("PNP_DEBUG"):
        raise exc
    report(f"pnp-build: internal error while {doing} ({type(exc).__name__}: {exc}); the "
           "outputs were left as they were; still watching (please report it; PNP_DEBUG=1 "
           "shows the details)")


def _common(cards: Path | None, opts: BuildOptions, out_dir: Path, report: Report) -> list[str]:
    """Build the steps of no game (the calibration sheet); the files written ([] when that
    failed: reported)."""
    try:
        files: dict[str, bytes] = {}
        for _, step in common_steps(opts, cards):
            files.update(step())
        write_outputs(out_dir, files, (), info=report)
        return sorted(files)
    except DefinitionError as exc:
        for line in exc.problems:
            report(line)
        return []
    except OutputError as exc:
        for line in exc.lines:
            report(line)
        return []
    except OSError as exc:
        report(f"pnp-build: cannot write to {out_dir}: {exc.strerror or exc}")
        return []
    except Exception as exc:
        _internal(report, exc, "building the calibration sheet")
        return []


def _outputs_gone(out_dir: Path, states: dict[str, GameState], common: list[str]) -> str | None:
    """What of the outputs was deleted since they were written, in a line, or None."""
    if not out_dir.is_dir():
        return f"{out_dir} was deleted; building it again"
    built = [f for state in states.values() for files in state.outputs.values() for f in files]
    missing = [rel for rel in [*built, *common] if not (out_dir / rel).is_file()]
    if not missing:
        return None
    return (f"{len(missing)} file(s) deleted from {out_dir} ({summarise(sorted(missing))}); "
            "building them again")


def summarise(files: list[str]) -> str:
    """``orbitus/sectors.pdf, orbitus/svg/ (73 files)``: files, folders counted."""
    folders: dict[str, int] = {}
    singles: list[str] = []
    for rel in files:
        head, _, name = rel.rpartition("/")
        if head.count("/") >= 1 and head.rsplit("/", 1)[1] in ("svg", "png", "tts"):
            folders[head] = folders.get(head, 0) + 1
        else:
            singles.append(rel)
    parts = singles + [f"{k}/ ({n} files)" for k, n in sorted(folders.items())]
    return ", ".join(parts) if parts else "nothing"


def watch(out_dir: Path, games: tuple[str, ...] = GAMES, cards: Path | None = None,
          opts: BuildOptions | None = None, *, interval: float = 0.5,
          stop: threading.Event | None = None, report: Report = print,
          info: Report | None = None) -> None:
    """Build everything once, then rebuild on every change until ``stop`` is set (or the
    process is interrupted: the caller handles KeyboardInterrupt). Problems go to
    ``report``, progress to ``info`` (default: ``report`` too)."""
    info = info or report
    opts = opts or BuildOptions()
    if opts.out_root is None:
        opts = replace(opts, out_root=out_dir.resolve())
    stop = stop or threading.Event()
    folder = (cards or DEFAULT_CARDS).resolve()
    states = {game: GameState() for game in games}
    seen = snapshot(folder, out_dir)
    started = time.perf_counter()
    written: list[str] = []
    for game in games:
        written += rebuild_game(game, cards, opts, states[game], {EVERYTHING}, out_dir,
                                report) or []
    common = _common(cards, opts, out_dir, report)
    written += common
    info(f"built {len(written)} files into {out_dir} in {time.perf_counter() - started:.2f} s")
    info(f"watching {folder} for changes (every {interval:g} s); Ctrl-C stops")
    tried_again: str | None = None  # the outputs missing that were made again last
    while not stop.wait(interval):
        now = snapshot(folder, out_dir)
        if now == seen:
            # the output folder (or files of it) deleted by hand: made again at once, not
            # at the next change of a definition; tried once until something changes
            gone = _outputs_gone(out_dir, states, common)
            if gone is None or gone == tried_again:
                tried_again = gone
                continue
            tried_again = gone
            info(gone)
            changed: list[str] = []
        else:
            # let an editor finish saving (write, rename) before reading
            for _ in range(20):
                if stop.wait(interval):
                    return
                settled = snapshot(folder, out_dir)
                if settled == now:
                    break
                now = settled
            changed = changed_files(seen, now)
            seen = now
            tried_again = None
            info(f"changed: {', '.join(changed)}")
        started = time.perf_counter()
        affected = parts_changed(changed, games)
        for game in sorted(games):
            parts = affected.get(game)
            if parts is None:  # not affected, unless files of it were deleted since
                if not any(_missing(out_dir, f) for f in states[game].outputs.values()):
                    continue
                parts = set()
            out = rebuild_game(game, cards, opts, states[game], parts, out_dir, report)
            if out:
                info(f"rebuilt {game} in {time.perf_counter() - started:.2f} s: "
                     f"{summarise(out)}")
            elif out is not None:
                info(f"{game}: no output depends on that change")
        if any(FOLDER in parts for parts in affected.values()):  # a text: the labels too
            common = _common(cards, opts, out_dir, report) or common
        elif _missing(out_dir, common):  # deleted by hand since: make it again
            again = _common(cards, opts, out_dir, report)
            if again:
                common = again
                info(f"rebuilt {summarise(common)} (it was missing)")

"""``pnp-build init DIR``: a copy of the shipped definitions for a designer to edit.

Copies every data file of the shipped ``cards/`` folder (the YAML of both
games, the JSON schemas their first lines point at, and any other data such
as texts), keeping the layout, so ``pnp-build --cards DIR`` reads it and
editors resolve ``$schema=../schema/...``. Python files are not data and stay.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cards.definitions import DEFAULT_CARDS
from generator.output import write_atomic

SKIPPED_SUFFIXES = (".py", ".pyc", ".pyo")
SKIPPED_FOLDERS = ("__pycache__",)


class InitError(Exception):
    """A refusal, with the exit code the command should end with."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class InitResult:
    written: tuple[str, ...]
    replaced: tuple[str, ...]


def shipped_files(source: Path = DEFAULT_CARDS) -> list[str]:
    """Relative posix paths of the data files under ``source``."""
    out: list[str] = []
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source)
        if any(p in SKIPPED_FOLDERS or p.startswith(".") for p in rel.parts):
            continue
        if path.is_file() and not path.name.endswith(SKIPPED_SUFFIXES):
            out.append(rel.as_posix())
    return out


def init_definitions(dest: Path, force: bool = False,
                     source: Path = DEFAULT_CARDS, prog: str = "pnp-build init") -> InitResult:
    """Copy the shipped definitions into ``dest`` (created if missing).

    Refuses (exit 1) when any of the files already exists there, unless ``force``; refuses
    (exit 2) when ``dest`` is a file, a file stands where a folder must go, or a path would
    lead out of ``dest`` (a symbolic link). ``prog`` names the command in the messages.
    """
    from cards.safe_text import printable

    if dest.exists() and not dest.is_dir():
        raise InitError(f"{prog}: {printable(str(dest))} is a file; give a folder (new or "
                        "existing)", 2)
    files = shipped_files(source)
    root = dest.resolve()
    existing: list[str] = []
    for rel in files:
        target = dest / rel
        for parent in list(target.parents)[:len(Path(rel).parts) - 1]:
            if parent.exists() and not parent.is_dir():
                raise InitError(f"{prog}: {printable(str(parent))} is a file, but the "
                                "definitions need a folder there", 2)
        if not target.resolve().is_relative_to(root):
            raise InitError(f"{prog}: {printable(str(target))} leads out of "
                            f"{printable(str(dest))} (a symbolic link); "
                            "refusing to write there", 2)
        if target.exists() or target.is_symlink():
            existing.append(rel)
    if existing and not force:
        shown = ", ".join(existing[:4]) + (f" and {len(existing) - 4} more"
                                           if len(existing) > 4 else "")
        raise InitError(f"{prog}: {printable(str(dest))} already holds {len(existing)} of the "
                        f"definition files ({shown}); nothing was written. Use --force to "
                        "overwrite them, or choose another folder", 1)
    for rel in files:
        target = dest / rel
        if target.is_symlink():
            target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, (source / rel).read_bytes())
    return InitResult(tuple(files), tuple(existing))

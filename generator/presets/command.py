"""What ``pnp build --preset NAME`` and ``pnp build --preflight DIR`` do, as functions of
their options returning the exit code: the command line only parses and calls these.

Exit codes, as every command: 0 built and checked (or the folder checks out), 1 the input
breaks a rule (a definition, a preset that cannot hold a component, a preflight problem),
2 misuse or unreadable input (an unknown preset, a broken preset file, no preset build in
the folder, an output folder that cannot be written).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

Say = Callable[[str], None]
MAX_URL = 2000


def check_base_url(value: str) -> str | None:
    """Why ``value`` is no usable ``--tts-base-url`` (None when it is)."""
    if not value.startswith(("https://", "http://")):
        return f"{value!r}: expected an http:// or https:// address, e.g. " \
               "https://example.org/kit/"
    if len(value) > MAX_URL or any(c.isspace() or not c.isprintable() for c in value):
        return f"{value!r}: an address has no spaces or control characters (write %20)"
    return None


def build(name: str, games: tuple[str, ...], cards: Path | None, lang: str, out: Path,
          prog: str, say: Say, report: Say, quiet: bool = False) -> int:
    """Build preset ``name`` into ``out/NAME`` and run its preflight; ``say`` gets the
    errors and notes (standard error), ``report`` the preflight's report."""
    from cards.loader import DefinitionError, UnreadableInput
    from cards.presets import UnknownPreset
    from generator.output import OutputError
    from generator.preflight import check_folder
    from generator.presets.place import PresetMismatch
    from generator.presets.run import MissingExtra, make, write

    try:
        preset, result = make(name, games, cards, lang)
    except MissingExtra as exc:
        say(f"{prog}: {exc}")
        return 2
    except UnknownPreset as exc:
        for line in exc.problems:
            say(f"{prog}: {line}")
        return 2
    except UnreadableInput as exc:
        for line in exc.problems:
            say(line)
        return 2
    except DefinitionError as exc:
        for line in exc.problems:
            say(line)
        say(f"{prog}: {len(exc.problems)} problem(s); nothing was written")
        return 1
    except PresetMismatch as exc:
        for line in str(exc).splitlines():
            say(line)
        say(f"{prog}: nothing was written")
        return 1
    try:
        folder = write(out, preset, result, info=say)
    except OutputError as exc:
        for line in exc.lines:
            say(line)
        return 2
    except OSError as exc:
        say(f"{prog}: cannot write to {out}: {exc.strerror or exc}")
        return 2
    for key, why in result.left_out.items():
        say(f"{prog}: note: {key} left out: {why}")
    if not quiet:
        say(f"built {len(result.files)} files for {preset.vendor} into {folder}")
    code, text = check_folder(folder, cards)
    if code != 0 or not quiet:
        report(text)
    return code


def preflight(folder: Path, cards: Path | None, report: Say) -> int:
    """Check an existing preset build folder; the report (or the reason it cannot be
    checked) goes to ``report``."""
    from generator.preflight import check_folder

    code, text = check_folder(folder, cards)
    report(text)
    return code

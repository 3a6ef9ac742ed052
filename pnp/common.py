"""The plumbing every command shares, below all of them: exit codes, one-line errors
(:func:`fail`), terminal-safe output (:func:`write_out`, :func:`write_safely`), the last
resort that turns a bug into one line (:func:`never_raises`), JSON as the tools print it,
terminal colour, whole-number options and the checks on picture targets (``--svg``,
``--png``, ``--debug-image``: a file the tool did not write is never replaced).

It imports the input-text layer (:mod:`cards.safe_text`) and the standard library only;
every command (``generator``, ``scorer``, ``records``, ``photo``, ``sim``, ``web``) sits
above it.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cards.safe_text import printable

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_UNREADABLE = 2


def dump_json(obj: Any) -> str:
    """JSON as the scorers print it: UTF-8 text, stable key order as built, indented."""
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def fail(message: str, code: int = EXIT_UNREADABLE) -> int:
    """Print an error line to stderr (made safe for a terminal) and return the exit code."""
    write_safely(sys.stderr, message.rstrip("\n") + "\n")
    return code


def write_out(text: str, json: bool = False) -> None:
    """Print a report (``json``: JSON text) on stdout, made safe for a terminal
    (:mod:`cards.safe_text`)."""
    write_safely(sys.stdout, text, json)
    sys.stdout.flush()


def write_safely(stream: Any, text: str, json: bool = False) -> None:
    """Write ``text`` with control characters escaped; characters the stream's encoding
    cannot show (an ASCII locale) are written as backslash escapes instead of failing."""
    from cards.safe_text import json_safe, terminal_safe

    text = json_safe(text) if json else terminal_safe(text)
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.flush()
        stream.buffer.write(text.encode(encoding, errors="backslashreplace"))


# --- what every command-line tool of the scorers does the same way -------------------------


def never_raises(body: Callable[[], int], prog: str, report_with: str) -> int:
    """Run a command's ``body``; turn Ctrl-C, a closed pipe and bugs into an exit code.

    A bug still gets one clear line (``report_with`` says what to attach to the report)
    instead of a traceback; ``PNP_DEBUG=1`` lets the traceback through for developers.
    """
    try:
        return body()
    except KeyboardInterrupt:
        return fail(f"{prog}: interrupted", 130)
    except BrokenPipeError:
        silence_stdout()
        return EXIT_OK
    except Exception as exc:  # the last resort: a clear line instead of a traceback
        if os.environ.get("PNP_DEBUG"):
            raise
        return fail(f"{prog}: internal error ({type(exc).__name__}: {exc}); please report it "
                    f"together with {report_with} (PNP_DEBUG=1 shows the details)",
                    EXIT_UNREADABLE)


def silence_stdout() -> None:
    """After a closed pipe (``| head``), point stdout at /dev/null so exit is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def colour_terminal() -> bool:
    """Whether stdout is a terminal that wants colour (``NO_COLOR`` and dumb terminals don't)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def whole_number(low: int, high: int | None = None,
                 too_low: str | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number from ``low`` to ``high``."""
    import argparse

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low and too_low:
            raise argparse.ArgumentTypeError(too_low.format(value=value))
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is out of range ({low} to {high})")
        return value

    return parse


def picture_target_problem(prog: str, flag: str, target: Path | None, example: str,
                           inputs: Sequence[Path] = (), other: Path | None = None) -> str | None:
    """Why ``--svg``/``--png`` must not write to ``target``, or None.

    Refused before anything is read or printed: ``-``; a folder; a folder that does not
    exist (no folders are made); a named pipe, device or link; one of the command's
    ``inputs`` (a layout, board or record would be replaced by a picture); the same file
    as the ``other`` picture; and an existing file that is not already a picture of that
    kind (a file the tool did not write is never replaced).
    """
    import stat

    if target is None:
        return None
    shown = f"{prog}: --{flag} {printable(str(target))}"
    if str(target) == "-":
        return f"{prog}: --{flag}: give a file name, not '-', e.g. {example}.{flag}"
    if target.is_dir():
        return (f"{shown}: is a folder; give a file name, "
                f"e.g. {printable(str(target / (example + '.' + flag)))}")
    parent = target.parent
    if not parent.is_dir():
        if parent.exists():
            return f"{shown}: {printable(str(parent))} is a file, not a folder"
        return (f"{shown}: the folder {printable(str(parent))} does not exist; create it "
                f"first (pictures are written only into folders that exist)")
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        return f"{shown}: cannot be written: {exc.strerror or exc}"
    for given in inputs:
        if str(given) != "-" and _same_file(target, given):
            return (f"{shown}: is the input file {printable(str(given))}; give the picture a "
                    f"name of its own, e.g. {printable(str(target.with_suffix('.' + flag)))}"
                    if target.suffix.lower() != "." + flag else
                    f"{shown}: is the input file {printable(str(given))}; give the picture a "
                    f"name of its own")
    if other is not None and _same_file(target, other):
        return f"{shown}: is also the other picture's file; give each picture its own name"
    if info is None:
        return None
    if stat.S_ISLNK(info.st_mode):
        return (f"{shown}: is a link; give the file itself (pictures replace a file, they "
                f"are not written through links)")
    if not stat.S_ISREG(info.st_mode):
        return f"{shown}: is not a regular file (a pipe or a device); give a file name"
    if info.st_size and not _is_picture(target, flag):
        return (f"{shown}: already exists and is not {'an SVG' if flag == 'svg' else 'a PNG'} "
                f"picture; it is left alone: give a new name (or delete the file first)")
    return None


def other_picture(opts: Any, flag: str) -> Path | None:
    """The other picture option's file (``--png`` for ``svg`` and back)."""
    other: Path | None = getattr(opts, "png" if flag == "svg" else "svg", None)
    return other


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except (OSError, RuntimeError):
        return False


def _is_picture(path: Path, flag: str) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    if flag == "png":
        return head.startswith(b"\x89PNG\r\n\x1a\n")
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return text.startswith((b"<?xml", b"<svg", b"<!DOCTYPE svg"))



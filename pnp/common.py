"""The plumbing every command shares, below all of them: exit codes, one-line errors
(:func:`fail`), terminal-safe output (:func:`write_out`, :func:`write_safely`), the last
resort that turns a bug into one line (:func:`never_raises`), the command-line parser every
command is built on (:class:`Parser`: misuse is one line and a pointer to ``--help``), the
one rule for a definitions folder that cannot be used (:func:`definitions_failed`), JSON as
the tools print it, terminal colour, whole-number options and the checks on picture
targets (``--svg``, ``--png``, ``--debug-image``: a file the tool did not write is never
replaced).

It imports the input-text layer (:mod:`cards.safe_text`, :mod:`cards.spelling`) and the
standard library only; every command (``generator``, ``scorer``, ``records``, ``photo``,
``sim``, ``web``) sits above it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from cards.safe_text import printable

if TYPE_CHECKING:
    from cards.reading import DefinitionError

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_UNREADABLE = 2


def dump_json(obj: Any) -> str:
    """JSON as the scorers print it: UTF-8 text, stable key order as built, indented."""
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def fail(message: str, code: int = EXIT_UNREADABLE) -> int:
    """Print an error line to stderr (made safe for a terminal) and return the exit code."""
    say(message)
    return code


def say(message: str) -> None:
    """A line of progress or a note on stderr (each line made safe for a terminal: no
    control character reaches it raw, not even a colour code)."""
    lines = message.rstrip("\n").split("\n")
    write_safely(sys.stderr, "\n".join(printable(line) for line in lines) + "\n")
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def shown(path: object) -> str:
    """A file name as messages show it: on one line, every control character (an escape
    sequence, a colour code, a line break that would forge a report line) escaped."""
    return printable(str(path))


class OutputFailed(Exception):
    """Standard output cannot be written (a full disk, ``> /dev/full``): the report is
    lost, which the command says in one line (exit 2)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def write_out(text: str, json: bool = False) -> None:
    """Print a report (``json``: JSON text) on stdout, made safe for a terminal
    (:mod:`cards.safe_text`). A reader that has gone (``| head -c1``) does not stop the
    command, which goes on to its own exit code; a stdout that cannot take the text (a full
    disk) raises :class:`OutputFailed`. A stdout closed before the command started
    (``>&-``: Python has none) is one whose reader has gone: nothing is written."""
    if sys.stdout is None:
        return
    try:
        write_safely(sys.stdout, text, json)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except OSError as exc:
        silence_stdout()
        raise OutputFailed(exc.strerror or str(exc)) from None


def write_safely(stream: Any, text: str, json: bool = False) -> None:
    """Write ``text`` with control characters escaped; characters the stream's encoding
    cannot show (an ASCII locale) are written as backslash escapes instead of failing. A
    stream that was closed before the command started (``None``) takes nothing."""
    from cards.safe_text import json_safe, terminal_safe

    if stream is None:
        return

    text = json_safe(text) if json else terminal_safe(text)
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.flush()
        stream.buffer.write(text.encode(encoding, errors="backslashreplace"))


# --- what every command-line tool of the scorers does the same way -------------------------


def never_raises(body: Callable[[], int], prog: str, report_with: str) -> int:
    """Run a command's ``body``; turn Ctrl-C, a closed or full stdout, the parser's
    ``--help`` and misuse (:class:`CommandExit`) and bugs into an exit code.

    A bug still gets one clear line (``report_with`` says what to attach to the report)
    instead of a traceback; ``PNP_DEBUG=1`` lets the traceback through for developers.
    """
    try:
        return body()
    except CommandExit as stop:
        return stop.code
    except DefinitionsFailed as exc:
        return definitions_failed(prog, exc.error, exc.stopped)
    except KeyboardInterrupt:
        return fail(f"{prog}: interrupted", 130)
    except BrokenPipeError:
        silence_stdout()
        return EXIT_OK
    except OutputFailed as exc:
        return fail(f"{prog}: cannot write to standard output: {exc.reason}", EXIT_UNREADABLE)
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


@contextlib.contextmanager
def native_output_silenced() -> Iterator[None]:
    """While native code runs (NumPy's LAPACK, OpenCV), point the process's stdout (file
    descriptor 1) at /dev/null: such libraries print their complaints there themselves
    ("On entry to DGESDD parameter number 5 had an illegal value"), which would land in a
    report on stdout. Python's own ``sys.stdout`` is flushed first and works as before
    once the block ends."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        os.close(saved)
        yield
        return
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def leave_with_parent(every: float = 1.0) -> None:
    """Make a worker process end when the process that started it is gone. A pool's worker
    waits for its next task on a pipe whose writing end it holds itself, so when its parent
    is killed (``kill -9``, an out-of-memory kill, a server stopped before its pool) nothing
    ever tells it, and it would wait, holding its memory, forever. A daemon thread looks at
    the parent's process id every ``every`` seconds and ends the worker once it changed (the
    orphan is adopted by another process). Nothing on Windows, whose pools end their workers
    otherwise."""
    if sys.platform == "win32":
        return
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def colour_terminal() -> bool:
    """Whether stdout is a terminal that wants colour (``NO_COLOR`` and dumb terminals don't)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _said(text: str) -> str:
    """An option's value as a message quotes it: terminal-safe, at most 40 characters."""
    return printable(text if len(text) <= 40 else text[:39] + "…")


def whole_number(low: int, high: int, too_low: str | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number from ``low`` to ``high`` (the message of a
    value outside names both)."""

    def parse(text: str) -> int:
        try:
            if len(text.strip()) > 30:
                raise ValueError
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_said(text)!r} is not a whole number") from None
        if value < low and too_low:
            raise argparse.ArgumentTypeError(too_low.format(value=value))
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range ({low} to {high})")
        return value

    return parse


def number_in(low: float, high: float, unit: str = "") -> Callable[[str], float]:
    """An argparse ``type=`` for a finite number from ``low`` to ``high`` (``unit`` named in
    the message)."""
    import math

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_said(text)!r} is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{_said(text)} is out of range ({low:g} to {high:g}{' ' + unit if unit else ''})")
        return value

    return parse


# --- the command line, the same for every command -------------------------------------------


class CommandExit(Exception):
    """End the command with ``code``, what there was to say already said (``--help``, a
    misused command line)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def misuse(prog: str, message: str) -> int:
    """A misused command line in one line on stderr, pointing to ``--help``: exit 2."""
    return fail(f"{prog}: {message} (see {prog} --help)", EXIT_UNREADABLE)


# What a project file's keys are for (cards/project.py): the option each sets as its default.
PROJECT_OPTIONS = {"cards": "--cards", "out": "--out", "lang": "--lang", "page": "--page",
                   "players": "--players", "data": "--data"}


class Parser(argparse.ArgumentParser):
    """argparse as every command uses it, so they all behave alike: ``--help`` (and
    ``-h``) print the help on stdout and end the command with 0; a misused command line
    is one line on stderr, ``PROG: what is wrong (see PROG --help)``, with the option a
    misspelt one most likely meant, and ends it with 2 (:func:`misuse`). Neither raises
    ``SystemExit``: :class:`CommandExit` carries the code to :func:`never_raises` (or to
    :func:`parse`). Descriptions and epilogs are printed as written.

    The project file (``pnp.toml``, :mod:`cards.project`) gives the defaults of the options
    a command takes from it (``project``: ``cards`` for every command; ``out``, ``lang``,
    ``page``, ``players``, ``data`` where the command says so); the command line wins.
    ``-v`` says which project file was used. A namespace whose ``--cards`` came from the
    project file, not from the command line, has ``cards_from_project`` true."""

    _depth = 0  # parsers parsing: subcommands parse inside their parent

    def __init__(self, prog: str, description: str | None = None, epilog: str | None = None,
                 project: Sequence[str] = ("cards",), **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(prog=prog, description=description, epilog=epilog, **kwargs)
        self.project_keys = tuple(project)
        self.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                          help="say which project file (pnp.toml) was used")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        given = list(sys.argv[1:] if args is None else args)
        project = self._project_defaults()
        Parser._depth += 1
        try:
            ns, rest = super().parse_known_args(given, namespace)
        finally:
            Parser._depth -= 1
        cards = self._action_of("--cards")
        if project is not None and cards is not None and project.cards is not None and \
                isinstance(getattr(ns, cards.dest, None), Path) and \
                getattr(ns, cards.dest).resolve() == project.cards and \
                not any(a == "--cards" or a.startswith("--cards=") for a in given):
            ns.cards_from_project = True
        if Parser._depth == 0 and getattr(ns, "verbose", False):
            say(project_said(self.prog, project))
        return ns, rest

    def _action_of(self, option: str) -> argparse.Action | None:
        return next((a for a in self._actions if option in a.option_strings), None)

    def _project_defaults(self) -> Any:
        """The project file that applies here (its values made this parser's defaults), or
        None; a project file that cannot be used ends the command (exit 2)."""
        from cards.project import ProjectError, current_project

        try:
            project = current_project()
        except ProjectError as exc:
            for line in exc.problems:
                fail(line)
            raise CommandExit(EXIT_UNREADABLE) from None
        if project is None:
            return None
        for key in self.project_keys:
            value = project.cards if key == "cards" else project.default(key)
            action = self._action_of(PROJECT_OPTIONS[key])
            if value is None or action is None:
                continue
            if isinstance(value, Path):  # as the user would write it: relative when inside
                from cards.reading import display_path

                value = Path(display_path(value))
            if callable(action.type):
                value = action.type(str(value))
            elif not isinstance(value, Path):
                value = str(value)
            self.set_defaults(**{action.dest: value})
        return project

    def error(self, message: str) -> NoReturn:
        hint = self._hint(message)
        message = message.removeprefix("argument ")  # "--seed: ..." rather than "argument ..."
        raise CommandExit(misuse(self.prog, message + hint))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            fail(message)
        raise CommandExit(status)

    def _print_message(self, message: str, file: IO[str] | None = None) -> None:
        if not message:
            return
        if file is None or file is sys.stdout:
            write_out(message)
        else:
            write_safely(file, message)

    def options(self) -> list[str]:
        """Every option string of this parser and of its subcommands (``--json``, ``-q``
        ...): argparse reports an unknown option of a subcommand from the top."""
        found = []
        for action in self._actions:
            found += action.option_strings
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    found += sub.options() if isinstance(sub, Parser) else []
        return list(dict.fromkeys(found))

    def _hint(self, message: str) -> str:
        """``; did you mean --json?`` for an unrecognised option or an invalid choice."""
        import re

        from cards.spelling import did_you_mean

        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        if unknown and unknown.group(1).startswith("--"):
            word = unknown.group(1).split("=", 1)[0][2:]
            names = [o[2:] for o in self.options() if o.startswith("--")]
            hint = did_you_mean(word, names)
            return hint.replace("did you mean ", "did you mean --") if hint else ""
        choice = re.match(r"argument \S+: invalid choice: '([^']*)' \(choose from (.*)\)$",
                          message)
        if choice:
            return did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        return ""


def project_said(prog: str, project: Any) -> str:
    """What ``-v`` says of the project file: which one, and the folder it names."""
    from cards.reading import display_path

    if project is None:
        return f"{prog}: no project file (pnp.toml) in this folder or above it"
    cards = f"; definitions {display_path(project.cards)}" if project.cards else ""
    return f"{prog}: project file {display_path(project.path)}{cards}"


def parse(parser: argparse.ArgumentParser, args: Sequence[str]) -> argparse.Namespace | int:
    """``parser.parse_args(args)``, or the exit code when it printed the help (0) or a
    misuse (2)."""
    try:
        return parser.parse_args(list(args))
    except CommandExit as stop:
        return stop.code


def by_game(args: Sequence[str], prog: str, usage: str, layer: str) -> int:
    """A command that takes the game first (``pnp score GAME ...``, ``pnp setup GAME ...``):
    ``usage`` for ``--help``; one line for no game or an unknown one (exit 2); else the
    game's own command, its adapter of ``layer`` (``rules.adapter(game, "scorer")``)
    ``.run(rest, prog)``, which imports only that game's code. The games are those of the
    registry that have that adapter (``rules.names(layer)``)."""
    import rules
    from cards.spelling import did_you_mean

    games = rules.names(layer)
    if not args:
        return misuse(prog, f"name the game: {prog} {'|'.join(games)} ...")
    if args[0] in ("-h", "--help", "help"):
        write_out(usage)
        return EXIT_OK
    game = args[0].lower()
    if game not in games:
        return misuse(prog, f"unknown game {printable(args[0])!r}; choose "
                            f"{' or '.join(games)}{did_you_mean(game, games)}")
    command = rules.adapter(game, layer)
    return int(command.run(list(args[1:]), prog=f"{prog} {game}"))


class DefinitionsFailed(Exception):
    """The definitions a command needs cannot be used (``error``: the problems): raised
    where they are loaded, reported by :func:`never_raises` through
    :func:`definitions_failed`, so every command follows the same rule. ``stopped`` says
    what did not happen ("nothing was scored")."""

    def __init__(self, error: DefinitionError, stopped: str) -> None:
        super().__init__(str(error))
        self.error, self.stopped = error, stopped


def definitions_failed(prog: str, exc: DefinitionError, stopped: str) -> int:
    """The one rule every command follows for a definitions folder it cannot use: each
    problem on a line of its own (file:line: what is wrong), then
    ``PROG: N problem(s) in the definitions; STOPPED``. Exit 2 when a file could not be
    read at all (missing, not a regular file, not UTF-8, not YAML: a tab, say); exit 1 when
    every file was read and one breaks a rule of the definitions (a wrong value, a missing
    field, a misspelt key)."""
    from cards.reading import UnreadableInput

    for line in exc.problems:
        fail(line)
    fail(f"{prog}: {len(exc.problems)} problem(s) in the definitions; {stopped}")
    return EXIT_UNREADABLE if isinstance(exc, UnreadableInput) else EXIT_VIOLATIONS


def picture_target_problem(prog: str, flag: str, target: Path | None, example: str,
                           inputs: Sequence[Path] = (), other: Path | None = None) -> str | None:
    """Why ``--svg``/``--png`` must not write to ``target``, or None.

    Refused before anything is read or printed: ``-``; a folder; a folder that does not
    exist (no folders are made); a named pipe, device or link; one of the command's
    ``inputs`` (a layout, board or record would be replaced by a picture); the same file
    as the ``other`` picture; and an existing file that is not a picture of that kind this
    tool wrote (one carrying :data:`PICTURE_MARK`: a file the tool did not write is never
    replaced).
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
                f"picture this tool wrote; it is left alone: give a new name (or delete the "
                f"file first)")
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
    """Whether ``path`` is a picture of kind ``flag`` that this tool wrote (it carries
    :data:`PICTURE_MARK`)."""
    head = file_head(path)
    if flag == "png":
        return head.startswith(_PNG) and carries_mark(head)
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return text.startswith((b"<?xml", b"<svg", b"<!DOCTYPE svg")) and carries_mark(head)


def file_head(path: Path, size: int = 1024) -> bytes:
    """The first ``size`` bytes of a regular file (never blocks on a pipe), or b''."""
    from cards.reading import UnreadableInput, read_head_safely

    try:
        return read_head_safely(path, size)
    except UnreadableInput:
        return b""


# --- the mark of a picture the tool wrote -----------------------------------------------------

# Every picture a command writes to a file the user named (--svg, --png, --debug-image)
# carries this text near its start (a PNG text chunk, a JPEG comment, an SVG comment); an
# existing file is replaced only when it carries it, so a photo or a drawing of the user's
# at that name is never lost.
PICTURE_MARK = b"written by orbitus-pnp; this tool may replace this file"
_PNG = b"\x89PNG\r\n\x1a\n"


def mark_picture(data: bytes) -> bytes:
    """``data`` (a PNG, a JPEG or an SVG) with :data:`PICTURE_MARK` in it."""
    import struct
    import zlib

    if data.startswith(_PNG):  # a tEXt chunk right after the header chunk (IHDR)
        body = b"Software\0" + PICTURE_MARK
        chunk = struct.pack(">I", len(body)) + b"tEXt" + body + struct.pack(
            ">I", zlib.crc32(b"tEXt" + body))
        end = 8 + 8 + struct.unpack(">I", data[8:12])[0] + 4
        return data[:end] + chunk + data[end:]
    if data.startswith(b"\xff\xd8"):  # a comment segment after the JFIF header (APP0)
        at = 2
        if data[2:4] == b"\xff\xe0":
            at = 4 + struct.unpack(">H", data[4:6])[0]
        return data[:at] + b"\xff\xfe" + struct.pack(">H", len(PICTURE_MARK) + 2) + \
            PICTURE_MARK + data[at:]
    comment = b"<!-- " + PICTURE_MARK + b" -->\n"
    if data.startswith(b"<?xml"):
        end = data.find(b"?>") + 2
        return data[:end] + b"\n" + comment + data[end:].lstrip(b"\n")
    return comment + data


def carries_mark(head: bytes) -> bool:
    """Whether the first bytes of a file carry :data:`PICTURE_MARK`."""
    return PICTURE_MARK in head

"""``pnp``: one command for the whole toolchain, with a subcommand per job.

``pnp build``, ``pnp score``, ``pnp setup``, ``pnp replay``, ``pnp sim`` and ``pnp web``
hand their arguments to the command they stand for (``pnp-build``, ``pnp-score``, ...,
which stay as they are), importing only that command's code, so ``pnp score orbitus``
starts as fast as ``pnp-score orbitus``. ``pnp --version`` prints the version;
``pnp completion bash|zsh|fish`` prints a shell completion script, which asks
``pnp __complete`` for the words that fit where the cursor is.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

PROG = "pnp"


@dataclass(frozen=True)
class Command:
    """A subcommand: where its code is, what it does in a line, and how it is run."""

    module: str
    function: str
    summary: str
    games: bool = False  # its first argument is the game (pnp score orbitus ...)


COMMANDS: dict[str, Command] = {
    "build": Command("generator.cli", "main",
                     "build the printables (PDF, SVG; PNG, Tabletop Simulator on request) "
                     "from the definitions; 'pnp build init DIR' copies them to edit"),
    "score": Command("scorer.cli", "main",
                     "score a finished table: pnp score orbitus|satellites FILE", games=True),
    "setup": Command("records.setup_cli", "main",
                     "deal a start position from a seed: pnp setup orbitus|satellites",
                     games=True),
    "replay": Command("records.replay_cli", "main",
                      "replay a game record, check every move and score the end"),
    "sim": Command("sim.cli", "main",
                   "play many games with bots and report on balance (win rates, scores)"),
    "web": Command("web.cli", "main",
                   "the browser companion: transcribe and score by clicking, play in the "
                   "browser"),
    "diff": Command("design.diff_cli", "main",
                    "what changed between two versions of a design: components (with "
                    "pictures), rule numbers, texts, what plays differently"),
    "playtest": Command("design.playtest_cli", "main",
                        "log the games people play against the design version, and report "
                        "them beside the simulator's bots: pnp playtest add|report|export"),
    "sheet": Command("design.sheet_cli", "main",
                     "the definitions as a spreadsheet and back: pnp sheet export|import"),
}
ALIASES = {"pnp-build": "build", "pnp-score": "score", "pnp-setup": "setup",
           "pnp-replay": "replay", "pnp-sim": "sim", "pnp-web": "web"}

USAGE = """\
usage: pnp COMMAND [ARGS]...

The print-and-play and scoring toolchain for Orbitus and Satellites.

Commands:
{commands}

Run 'pnp COMMAND --help' for the options of one command.
Options:
  --version              print the version and exit
  -h, --help             print this help and exit

Shell completion: pnp completion bash|zsh|fish prints a script; e.g. for bash
  pnp completion bash > ~/.local/share/bash-completion/completions/pnp
(zsh: ... > ~/.zfunc/_pnp with fpath+=(~/.zfunc); fish: ... > ~/.config/fish/completions/pnp.fish)

Every old command name still works: pnp-build, pnp-score, pnp-setup, pnp-replay{more}.
Exit codes: 0 fine, 1 the input breaks a rule, 2 unreadable input or misuse.
"""


def available() -> dict[str, Command]:
    """The subcommands installed here (``sim`` and ``web`` need their packages)."""
    from importlib.util import find_spec

    out = {}
    for name, command in COMMANDS.items():
        top = command.module.split(".")[0]
        if find_spec(top) is not None:
            out[name] = command
    return out


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("orbitus-pnp")
    except PackageNotFoundError:  # run from a checkout that is not installed
        return "unknown (not installed)"


def usage() -> str:
    import textwrap

    summaries = {name: c.summary for name, c in available().items()}
    summaries["completion"] = "print a shell completion script (bash, zsh or fish)"
    width = max(len(name) for name in summaries) + 4
    lines = []
    for name, summary in summaries.items():
        wrapped = textwrap.wrap(summary, 78 - width)
        lines.append(f"  {name:<{width - 2}}{wrapped[0]}")
        lines += [" " * width + more for more in wrapped[1:]]
    more = "".join(f", pnp-{n}" for n in ("sim", "web") if n in summaries)
    return USAGE.format(commands="\n".join(lines), more=more)


def run_command(name: str, args: list[str], prog: str) -> int:
    """Run subcommand ``name`` with ``args``; its exit code. Every command's function takes
    ``(argv, prog)`` and returns the code (it never raises)."""
    command = COMMANDS[name]
    module = importlib.import_module(command.module)
    function: Callable[[list[str], str], int] = getattr(module, command.function)
    return int(function(args, prog))


def main(argv: Sequence[str] | None = None) -> int:
    """The ``pnp`` command: the exit code (never an exception)."""
    from pnp.common import never_raises

    args = list(sys.argv[1:] if argv is None else argv)
    return never_raises(lambda: _main(args), PROG, "the command you ran")


def _main(args: list[str]) -> int:
    from pnp.common import misuse, write_out

    if not args:
        names = ", ".join([*available(), "completion"])
        return misuse(PROG, f"name a command: {names}")
    if args[0] in ("-h", "--help", "help"):
        write_out(usage())
        return 0
    first, rest = args[0], args[1:]
    if first == "--version":
        write_out(f"pnp {version()}\n")
        return 0
    if first == "completion":
        return _completion(rest)
    if first == "__complete":
        write_out("".join(f"{w}\n" for w in complete(rest)))
        return 0
    name = ALIASES.get(first, first)
    if name not in COMMANDS:
        from cards.spelling import did_you_mean

        return misuse(PROG, f"unknown command {first!r}"
                            f"{did_you_mean(first, [*COMMANDS, 'completion'])}")
    if name not in available():
        from pnp.common import fail

        return fail(f"pnp: '{name}' is not installed here; install the package with its "
                    f"extras: pip install -e '.[{name}]'")
    return run_command(name, rest, f"{PROG} {name}")


def entry() -> None:
    sys.exit(main())


# --- shell completion -------------------------------------------------------------------------


def _options_of_parser(parser: Any, words: list[str]) -> list[str]:
    """Option strings of an argparse parser, descending into a subparser named in
    ``words``; while none is named, the subparser names too (only those when naming one
    is required)."""
    import argparse

    options: list[str] = []
    for action in parser._actions:  # argparse keeps them here; there is no public list
        if isinstance(action, argparse._SubParsersAction):
            chosen = next((w for w in words if w in action.choices), None)
            if chosen is not None:
                return _options_of_parser(action.choices[chosen], words)
            if action.required:
                return list(action.choices)
            options.extend(action.choices)
        options.extend(action.option_strings)
    return options


def _parser_options(name: str, words: list[str]) -> list[str]:
    import rules

    if COMMANDS[name].games:
        layer = "scorer" if name == "score" else "records.setup"
        games = list(rules.names(layer))
        game = next((w for w in words if w in games), None)
        if game is None:
            return games
        parser = rules.adapter(game, layer).build_parser(f"pnp {name} {game}")
        return _options_of_parser(parser, words)
    module = importlib.import_module(COMMANDS[name].module)
    if name == "build":  # pnp build GAME ... or pnp build init DIR
        if "init" in words:
            return _options_of_parser(module.init_parser("pnp build init"), words)
        return [*_options_of_parser(module.build_parser("pnp build"), words), "init",
                *rules.names("products")]
    return _options_of_parser(module.build_parser(f"pnp {name}"), words)


def complete(words: list[str]) -> list[str]:
    """The words that may come next: ``words`` is the command line after ``pnp``, the last
    one being the word under the cursor (maybe empty). Files are left to the shell."""
    current = words[-1] if words else ""
    before = words[:-1]
    if not before:
        names = [*available(), "completion", "--version", "--help"]
        return sorted(n for n in names if n.startswith(current))
    name = ALIASES.get(before[0], before[0])
    if before[0] == "completion":
        return [s for s in ("bash", "zsh", "fish") if s.startswith(current)]
    if name not in available():
        return []
    if not current.startswith("-") and before[1:] and before[-1].startswith("-"):
        return []  # the value of an option: a file, a number ... left to the shell
    try:
        options = _parser_options(name, before[1:])
    except Exception:  # completion must never break the shell's line
        return []
    return sorted({o for o in options if o.startswith(current)})


_SCRIPTS = {
    "bash": """\
# bash completion for pnp (pnp completion bash)
_pnp_complete() {
    local IFS=$'\\n'
    local words=("${COMP_WORDS[@]:1:COMP_CWORD}")
    COMPREPLY=($(pnp __complete "${words[@]}" 2>/dev/null))
    if [ ${#COMPREPLY[@]} -eq 0 ]; then
        COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
    fi
}
complete -o filenames -F _pnp_complete pnp
""",
    "zsh": """\
#compdef pnp
# zsh completion for pnp (pnp completion zsh)
_pnp() {
    local -a found
    found=("${(@f)$(pnp __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    if [[ -n "${found[1]}" ]]; then
        compadd -a found
    else
        _files
    fi
}
compdef _pnp pnp
""",
    "fish": """\
# fish completion for pnp (pnp completion fish)
function __pnp_complete
    set -l words (commandline -opc) (commandline -ct)
    pnp __complete $words[2..-1] 2>/dev/null
end
complete -c pnp -f -a '(__pnp_complete)'
complete -c pnp -F -n 'test -z "(__pnp_complete)"'
""",
}


COMPLETION_HELP = """\
usage: pnp completion bash|zsh|fish

Print the shell completion script of pnp for bash, zsh or fish; it completes the
commands, the games and every option (files are left to the shell). Install it:

  bash: pnp completion bash > ~/.local/share/bash-completion/completions/pnp
  zsh:  pnp completion zsh > ~/.zfunc/_pnp   (with fpath+=(~/.zfunc) in ~/.zshrc)
  fish: pnp completion fish > ~/.config/fish/completions/pnp.fish

and open a new shell.
"""


def _completion(args: list[str]) -> int:
    from pnp.common import misuse, write_out

    prog = f"{PROG} completion"
    if args and args[0] in ("-h", "--help"):
        write_out(COMPLETION_HELP)
        return 0
    if len(args) != 1 or args[0] not in _SCRIPTS:
        from cards.spelling import did_you_mean

        given = f"{args[0]!r} is not a shell I know{did_you_mean(args[0], _SCRIPTS)}; " \
            if len(args) == 1 else ""
        return misuse(prog, f"{given}name your shell: {prog} bash, zsh or fish")
    write_out(_SCRIPTS[args[0]])
    return 0


if __name__ == "__main__":
    entry()

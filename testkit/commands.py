"""A command run inside the test's own process, its output captured: what ``click``'s
``CliRunner`` gave the tests of ``pnp build`` (the commands are argparse now, and each
``main(argv, prog)`` returns its exit code)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Ran:
    """What a command did: its exit code, its stdout, its stderr, and both in one."""

    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def run_main(main: Callable[..., int], args: Sequence[str], prog: str = "pnp-build") -> Ran:
    """``main(args, prog)`` with stdout and stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args), prog)
    return Ran(int(code), out.getvalue(), err.getvalue())


def run_build(args: Sequence[str], prog: str = "pnp-build") -> Ran:
    """``pnp-build ARGS`` in this process."""
    from generator.cli import main

    return run_main(main, args, prog)

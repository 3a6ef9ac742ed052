"""A file that names its design (``design: v0.7.2·3fa9c1`` in a record, a layout, a board)
against the definitions in use.

A record replayed, or a table scored, with definitions other than the ones it was played
with deals another game or scores by other numbers, silently. So when the hashes differ,
:func:`check` refuses (the caller exits 2), naming both designs, unless the user chose the
definitions on purpose (``--cards`` on the command line): then it gives a note saying the
definitions differ. A file that names no design is not checked (it makes no claim).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DESIGN_FIELD = "design"


@dataclass(frozen=True)
class Checked:
    """The outcome: ``problem`` (refuse, exit 2) or ``note`` (go on, and say it), or
    neither (the same design, or none named)."""

    problem: str | None = None
    note: str | None = None


def shown_folder(cards: Path | None) -> str:
    from cards.files import DEFAULT_CARDS
    from cards.reading import display_path

    if cards is None or cards.resolve() == DEFAULT_CARDS.resolve():
        return "the shipped cards/"
    return display_path(cards)


def check(where: str, named: object, game: str, cards: Path | None, explicit: bool
          ) -> Checked:
    """``where`` (``FILE:LINE``) names design ``named``; the definitions in use are
    ``cards`` (None: shipped), given on the command line when ``explicit``."""
    if named is None:
        return Checked()
    from cards.design import parse_stamp
    from cards.design_cache import design

    stamp = parse_stamp(named)
    if stamp is None:
        return Checked(problem=not_a_design(where, named))
    here = design(game, cards)
    if here.hash == stamp.hash:
        return Checked()
    folder = shown_folder(cards)
    if explicit:
        return Checked(note=f"{where}: the file was made with design {stamp.text}; it is read "
                            f"with {folder}, design {here.stamp} (--cards), whose numbers "
                            f"and deck differ")
    return Checked(problem=differs(
        where, stamp.text, f"the definitions in use ({folder})", here.stamp,
        f"pass --cards DIR: the definitions of {stamp.text}{ON_PURPOSE}"))


ON_PURPOSE = ", or these on purpose (a note then says they differ)"


def only_its_own(problem: str, why: str) -> str:
    """``problem`` (from :func:`check`) for a reader that takes no definitions on purpose
    (a playtest is scored by the design it was played with): the choice of other
    definitions it offers is replaced by ``why``."""
    return problem.replace(ON_PURPOSE, f" ({why})")


def not_a_design(where: str, named: object) -> str:
    return (f"{where}: {DESIGN_FIELD}: {named!r} is not a design; write the stamp printed on "
            f"the components: six hex digits, maybe after the version (design: "
            f"v0.7.2·3fa9c1, or design: 3fa9c1)")


def differs(where: str, made: str, in_use: str, here: str, remedy: str) -> str:
    """The sentence refusing a file made with design ``made`` read by ``in_use`` (the
    definitions of design ``here``); ``remedy`` says what to do."""
    return (f"{where}: {DESIGN_FIELD}: the file was made with design {made}, but {in_use} "
            f"are design {here}, with which it would deal or score another game; {remedy}")


def refused_by(where: str, named: object, here: dict[str, object] | None, in_use: str,
               remedy: str) -> str | None:
    """The problem of a file that names design ``named`` read with definitions whose design
    is ``here`` (:meth:`cards.design.Design.to_json`), or None: it names none, or that one.
    For readers that hold their definitions' design already (pnp web); ``remedy`` may say
    ``{made}``, the design the file names."""
    if named is None or here is None:
        return None
    from cards.design import parse_stamp

    stamp = parse_stamp(named)
    if stamp is None:
        return not_a_design(where, named)
    if stamp.hash == here.get("hash"):
        return None
    return differs(where, stamp.text, in_use, str(here.get("stamp")),
                   remedy.format(made=stamp.text))


def record_lines(game: str, cards: Path | None, design_stamp: str,
                 base: Path | None = None) -> list[str]:
    """The lines a record or layout the tools write names its definitions with: ``cards:``
    (relative to ``base``, the folder the file is written to: default the working folder)
    when the folder lies inside it, else a comment saying where they are; and ``design:``."""
    from cards.files import DEFAULT_CARDS
    from cards.yaml_out import comment, flow

    lines = []
    here = (base or Path.cwd()).resolve()
    if cards is not None and cards.resolve() != DEFAULT_CARDS.resolve():
        target = cards.resolve()
        if target.is_relative_to(here) and target != here:
            lines.append(f"cards: {flow(target.relative_to(here).as_posix())}")
        else:
            lines.append(f"# definitions: {comment(str(target))} (outside this folder: replay "
                         f"with --cards)")
    else:
        lines.append("# definitions: the shipped cards/")
    lines.append(f"{DESIGN_FIELD}: {flow(design_stamp)}")
    return lines

"""Why a Satellites move is illegal: a written move checked rule by rule (S-15 to S-36), in
the sentences the replay prints.

:func:`check_written` is the explaining path: it finds the first rule a written move
breaks before the position after it (whose turn, the cells, the line, the distance, a
displacement's push: S-31 to S-34), then asks the same check the legal moves are made by
(:func:`rules.satellites.legal.problem`), with :class:`Why` to word its reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.game import IllegalAction
from rules.satellites.actions import PASS, action, parts
from rules.satellites.analysis import plural, value_at
from rules.satellites.engine import connects, end_message, is_over
from rules.satellites.legal import legal_actions, problem
from rules.satellites.notation import Written, move_text
from rules.satellites.ruleset import COLOURS, RED_SEAT
from rules.satellites.table import cell_name, column_name

if TYPE_CHECKING:
    from rules.satellites.engine import State


class Why:
    """The sentences of :func:`rules.satellites.legal.problem`, about the position after one
    move."""

    def __init__(self, st: State, o: int, t: int, p: int, own2: int, opp2: int) -> None:
        self.st, self.t, self.p = st, t, p
        self.own2, self.opp2 = own2, opp2
        self.red2 = own2 if st.to_move == RED_SEAT else opp2
        self.values = {t: value_at(st.vals, o)}
        if p >= 0:
            self.values[p] = value_at(st.vals, t)
        self.mover = f"{self.tok(t)} on {st.table.names[t]}"

    def tok(self, i: int) -> str:
        value = self.values.get(i) or value_at(self.st.vals, i)
        return f"{'R' if self.red2 >> i & 1 else 'B'}{value}"

    def touching(self, i: int) -> str:
        other = self.opp2 if self.own2 >> i & 1 else self.own2
        tb = self.st.table
        return " and ".join(f"{self.tok(u)} on {tb.names[u]}" for u in tb.orth[i]
                            if other >> u & 1)

    def edge(self, conn2: int) -> str:
        t, p = self.t, self.p
        i = t if conn2 >> t & 1 else p
        who = self.mover if i == t else f"the pushed {self.tok(p)} on {self.st.table.names[p]}"
        return (f"{who} would connect to {self.touching(i)}, but every edge (outer row or "
                f"column) would still hold a satellite; until one edge is empty, no move may "
                f"end next to an opponent's satellite (rule S-23)")

    def length(self, k: int) -> str:
        v = self.values[self.t]
        return (f"it ends next to {self.touching(self.t)}, so {self.mover} would connect, and "
                f"a connection move goes exactly {v} cells (the satellite's value; rule S-19); "
                f"this one goes {k}")

    def landing(self, size: int) -> str:
        if not size:
            return (f"a displacement must connect the moving satellite where it lands, but "
                    f"{self.mover} would touch no {COLOURS[1 - self.st.to_move]} satellite "
                    f"there (the pushed one does not count; rule S-33)")
        return (f"a displacement must leave the moving satellite in a group of "
                f"{self.st.ruleset.colony_min} or more (it is allowed only where it could "
                f"extend a colony: rule S-33); {self.mover} would be in a group of {size}, not "
                f"counting the pushed satellite")

    def touch(self, fresh: int, conn2: int) -> str:
        tb = self.st.table
        for i in tb.cells_of(fresh):
            mine = self.own2 if self.own2 >> i & 1 else self.opp2
            for u in tb.orth[i]:
                if mine >> u & 1 and conn2 >> u & 1 and (not fresh >> u & 1 or u > i):
                    return (f"{self.tok(i)} on {tb.names[i]} and {self.tok(u)} on "
                            f"{tb.names[u]} would both be connected and touch; two connected "
                            f"satellites of one colour may never be orthogonally adjacent")
        raise AssertionError("no two connected satellites of one colour touch")

    def merge(self, colonies: list[int]) -> str:
        tb = self.st.table
        first, second = (tb.list_names(tb.cells_of(h))
                         for h in sorted(colonies, key=lambda h: h & -h)[:2])
        return (f"it would join the colonies on {first} and on {second}; two colonies may "
                f"never merge")

    def size(self, g: int) -> str:
        tb = self.st.table
        return (f"it would make a group of {g.bit_count()} ({tb.list_names(tb.cells_of(g))}); "
                f"a group holds at most {self.st.ruleset.colony_max} satellites")


# --- a written move, rule by rule ----------------------------------------------------------


def check_written(st: State, written: Written) -> int:
    """The legal action ``written`` names in ``st``, or :class:`IllegalAction` saying why."""
    tb = st.table
    rs = st.ruleset
    x = st.to_move
    who = COLOURS[x]
    if is_over(st):
        raise IllegalAction(f"the game is already over ({end_message(st)})")
    if written.is_pass:
        moves = legal_actions(st)
        if moves:
            raise IllegalAction(f"{who} may pass only with no legal move (rule S-36), and {who} "
                                f"has {plural(len(moves), 'legal move')}")
        return PASS
    assert written.frm is not None and written.to is not None
    places = []
    for rc in (written.frm, written.to, written.push):
        if rc is None:
            places.append(-1)
            continue
        i = tb.index(*rc)
        if i is None:
            raise IllegalAction(f"{cell_name(*rc)} is not on the board (columns "
                                f"a to {column_name(tb.cols - 1)}, rows 1 to {tb.rows})")
        places.append(i)
    o, t, p = places
    name_o, name_t = tb.names[o], tb.names[t]
    own, opp = (st.red, st.blue) if x == RED_SEAT else (st.blue, st.red)
    if not (own | opp) >> o & 1:
        raise IllegalAction(f"there is no satellite on {name_o}")
    if opp >> o & 1:
        if st.finished == 1 - x:
            other = COLOURS[1 - x]
            raise IllegalAction(
                f"{other} has all {rs.colour(other).count} satellites connected and moves no "
                f"more (rule S-40); {who} is making its grace moves ({st.grace_left} left)")
        raise IllegalAction(f"{st.token(o)} is {COLOURS[1 - x]}, and it is {who}'s turn")
    if st.conn >> o & 1:
        raise IllegalAction(f"{st.token(o)} is connected (to {_touching(st, o)}); connected "
                            f"satellites are locked and never move")
    line = tb.line(o, t)
    if line is None:
        if o == t:
            raise IllegalAction(f"the move starts and ends on {name_o}")
        raise IllegalAction(f"{name_o} to {name_t} is not a straight line; satellites move "
                            f"along a row, a column or a diagonal")
    v = value_at(st.vals, o)
    k = line[1]
    if k > v:
        raise IllegalAction(f"{name_o} to {name_t} is {k} cells, and {st.satellite(o)} moves at "
                            f"most {v}")
    occupied = (own | opp) >> t & 1
    if not occupied and p >= 0:
        raise IllegalAction(f"{name_t} is empty, so there is nothing to push away; write "
                            f"{name_o}-{name_t}")
    if occupied:
        _check_displacement(st, o, t, p, k, v)
    reason = problem(st, o, t, p, k, explain=Why)
    if reason is not None:
        raise IllegalAction(reason)
    code = action(o, t, p)
    if written.plus and not connects(st, code):
        raise IllegalAction(f"the move is marked + (a connection), but {st.satellite(o)} ends on "
                            f"{name_t} touching no {COLOURS[1 - x]} satellite; write "
                            f"{name_o}-{name_t}")
    return code


def check(st: State, code: int) -> int:
    """``code`` if it is legal in ``st``, else :class:`IllegalAction` saying why."""
    if code == PASS:
        return check_written(st, Written("pass", None))
    o, t, p = parts(code)
    tb = st.table
    return check_written(st, Written(move_text(tb, code), tb.rc(o), tb.rc(t),
                                     tb.rc(p) if p >= 0 else None))


def pushes(st: State, o: int, t: int) -> list[int]:
    """The legal displacements of the satellite on ``t`` by the one on ``o`` (S-34)."""
    tb = st.table
    free = tb.full & ~(st.red | st.blue) | 1 << o
    return [action(o, t, p) for p in tb.cells_of(tb.reach(st.ruleset.push_reach)[t] & free)
            if problem(st, o, t, p) is None]


def _check_displacement(st: State, o: int, t: int, p: int, k: int, v: int) -> None:
    """S-31 to S-34 for a move onto an occupied cell, before the position after it."""
    tb, x = st.table, st.to_move
    own = st.red if x == RED_SEAT else st.blue
    name_t = tb.names[t]
    held = f"{name_t} is occupied by {st.satellite(t)}"
    if own >> t & 1:
        raise IllegalAction(f"{held}; a move never ends on an occupied cell")
    if st.conn >> t & 1:
        raise IllegalAction(f"{held}, which is connected; a move never ends on an occupied "
                            f"cell, and only an unconnected satellite can be displaced")
    if not tb.around_mask[t] & own & st.conn:
        raise IllegalAction(f"{held}; a move never ends on an occupied cell, and {st.satellite(t)} "
                            f"cannot be displaced because {name_t} is not next to a connected "
                            f"{COLOURS[x]} satellite")
    if k != v:
        raise IllegalAction(f"{held}; a displacement is a connection move and goes exactly {v} "
                            f"cells ({st.satellite(o)}'s value), this one goes {k}")
    if p < 0:
        options = pushes(st, o, t)
        if options:
            shown = ", ".join(tb.names[parts(c)[2]] for c in options)
            raise IllegalAction(f"{held}: to displace it, write where it goes, "
                                f"{tb.names[o]}-{name_t}>CELL with CELL one of {shown}")
        raise IllegalAction(f"{held}, and no push of it leaves a legal position")
    line = tb.line(t, p)
    pushed = st.satellite(t)
    if line is None:
        raise IllegalAction(f"{name_t} to {tb.names[p]} is not a straight line; the displaced "
                            f"{pushed} goes along a row, a column or a diagonal")
    if line[1] > st.ruleset.push_reach:
        raise IllegalAction(f"{name_t} to {tb.names[p]} is {line[1]} cells; the displaced "
                            f"{pushed} goes at most {st.ruleset.push_reach}")
    if (st.red | st.blue) >> p & 1 and p != o:
        raise IllegalAction(f"the displaced {pushed} cannot go to {tb.names[p]}: it is "
                            f"occupied by {st.satellite(p)}")


def _touching(st: State, cell: int) -> str:
    other = st.blue if st.red >> cell & 1 else st.red
    return " and ".join(st.token(u) for u in st.table.orth[cell] if other >> u & 1)

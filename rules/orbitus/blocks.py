"""Closed blocks: the bounded faces of a system's route graph, drawn at the hex centres.

The graph's nodes are a system's sectors; an edge joins two adjacent sectors
whose facing sides are both routes. Drawn with every node at its hex centre,
edges are sides of the triangular lattice of hex centres, so the drawing is
planar and a cell's six sides (N, NE, SE, S, SW, NW) are already its edges in
clockwise order: the rotation system comes for free.

Nodes are numbered and their neighbours looked up once (``near``), so the walk
itself touches only lists. Every face is traced once by following half-edges:
after arriving at a node, leave by the next edge counter-clockwise from the one
arrived by. With that
rule (and screen y pointing down) every bounded face is walked clockwise on the
table, which is a positive shoelace area in axial ``(q, r)`` coordinates (an
orientation-preserving linear image of the plane), and each component's outer
face comes out negative, or zero for a tree. So the bounded faces are exactly
the walks of positive area: ``E - V + C`` of them (Euler).

A bounded face's walk also runs along everything hanging into the face (dead
ends go out and back; a loop hanging inward from one sector, or joined by a
bridge, is walked the other way round). Cutting the walk into simple loops at
each repeated sector leaves the enclosing loop as the one of positive, largest
area; dead ends come out as two-sector pieces of zero area and inward loops
with negative area. Its sectors are the block. Everything is linear in the
number of edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.hexgeo import DIRECTIONS, Hex


@dataclass(frozen=True, slots=True)
class Loop:
    """The loop of sectors enclosing one bounded face, clockwise from its smallest cell."""

    sectors: tuple[Hex, ...]

    @property
    def size(self) -> int:
        return len(self.sectors)


def _area2(cells: list[Hex]) -> int:
    """Twice the signed shoelace area of a closed polygon, in axial coordinates."""
    total = 0
    q0, r0 = cells[-1]
    for q1, r1 in cells:
        total += q0 * r1 - q1 * r0
        q0, r0 = q1, r1
    return total


def _enclosing(walk: list[int], cells: Sequence[Hex], position: list[int]) -> list[int]:
    """Split a closed walk into simple loops at repeated nodes; the largest positive one.

    ``position`` is scratch space, -1 for every node, and is left so.
    """
    stack: list[int] = []
    best: list[int] = []
    best_area = 0
    for node in (*walk, walk[0]):
        at = position[node]
        if at < 0:
            position[node] = len(stack)
            stack.append(node)
            continue
        piece = stack[at:]
        if len(piece) >= 3:
            area = _area2([cells[i] for i in piece])
            if area > best_area:
                best, best_area = piece, area
        for other in piece[1:]:
            position[other] = -1
        del stack[at + 1:]
    for node in stack:
        position[node] = -1
    return best


def loops_of(nodes: Iterable[int], cells: Sequence[Hex], near: Sequence[int],
             joined: Sequence[int]) -> list[Loop]:
    """The enclosing loop of every bounded face of a graph on numbered nodes.

    ``cells[i]`` is node ``i``'s cell, ``near[6 * i + s]`` the node across its side
    ``s`` (negative: none), ``joined[i]`` the bitmask of the sides across which it is
    joined to that node (symmetric: the neighbour is joined back across the opposite
    side). Only ``nodes`` and what they are joined to are looked at. Loops come sorted
    by their first cell.
    """
    seen = bytearray(len(cells))
    position = [-1] * len(cells)
    loops: list[Loop] = []
    for start in nodes:
        mask = joined[start]
        for side in range(6):
            if not mask >> side & 1 or seen[start] >> side & 1:
                continue
            walk: list[int] = []
            area = 0
            node, out = start, side
            q, r = cells[node]
            while True:
                seen[node] |= 1 << out
                walk.append(node)
                node = near[6 * node + out]
                q1, r1 = cells[node]
                area += q * r1 - q1 * r
                q, r = q1, r1
                out = _NEXT[(out + 3) % 6][joined[node]]
                if node == start and out == side:
                    break
            if area > 0:
                loop = [cells[i] for i in _enclosing(walk, cells, position)]
                first = loop.index(min(loop))
                loops.append(Loop(tuple(loop[first:] + loop[:first])))
    loops.sort(key=lambda lp: lp.sectors)
    return loops


def closed_loops(edges: Mapping[Hex, int]) -> list[Loop]:
    """The enclosing loop of every bounded face of the graph ``edges`` describes.

    ``edges[cell]`` is a bitmask of the sides (bit ``s`` for side ``s``) across
    which ``cell`` is joined to another cell of the graph; the graph must be
    symmetric (``cell`` joined across ``s`` means the neighbour is joined across
    the opposite side). Loops come sorted by their first cell.
    """
    cells = list(edges)
    index = {c: i for i, c in enumerate(cells)}
    near = [-1] * (6 * len(cells))
    for i, (q, r) in enumerate(cells):
        for side, (dq, dr) in enumerate(DIRECTIONS):
            near[6 * i + side] = index.get((q + dq, r + dr), -1)
    return loops_of(range(len(cells)), cells, near, [edges[c] for c in cells])


def _next_table() -> list[list[int]]:
    """``table[back][mask]``: the side to leave a cell with edges ``mask`` by, having
    arrived across side ``back``: the next edge counter-clockwise from ``back``."""
    table = [[-1] * 64 for _ in range(6)]
    for back in range(6):
        for mask in range(64):
            for k in range(1, 7):
                side = (back - k) % 6
                if mask >> side & 1:
                    table[back][mask] = side
                    break
    return table


_NEXT = _next_table()

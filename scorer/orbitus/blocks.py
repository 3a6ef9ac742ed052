"""Closed blocks: the bounded faces of a system's route graph, drawn at the hex centres.

The graph's nodes are a system's sectors; an edge joins two adjacent sectors
whose facing sides are both routes. Drawn with every node at its hex centre,
edges are sides of the triangular lattice of hex centres, so the drawing is
planar and a cell's six sides (N, NE, SE, S, SW, NW) are already its edges in
clockwise order: the rotation system comes for free.

Every face is traced once by following half-edges: after arriving at a node,
leave by the next edge counter-clockwise from the one arrived by. With that
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

from collections.abc import Mapping
from dataclasses import dataclass

from cards.hexgeo import DIRECTIONS, Hex


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


def _enclosing(walk: list[Hex]) -> list[Hex]:
    """Split a closed walk into simple loops at repeated cells; the largest positive one."""
    stack: list[Hex] = []
    position: dict[Hex, int] = {}
    best: list[Hex] = []
    best_area = 0
    for cell in (*walk, walk[0]):
        at = position.get(cell)
        if at is None:
            position[cell] = len(stack)
            stack.append(cell)
            continue
        piece = stack[at:]
        if len(piece) >= 3:
            area = _area2(piece)
            if area > best_area:
                best, best_area = piece, area
        for other in piece[1:]:
            del position[other]
        del stack[at + 1:]
    return best


def closed_loops(edges: Mapping[Hex, int]) -> list[Loop]:
    """The enclosing loop of every bounded face of the graph ``edges`` describes.

    ``edges[cell]`` is a bitmask of the sides (bit ``s`` for side ``s``) across
    which ``cell`` is joined to another cell of the graph; the graph must be
    symmetric (``cell`` joined across ``s`` means the neighbour is joined across
    the opposite side). Loops come sorted by their first cell.
    """
    seen: dict[Hex, int] = {}
    loops: list[Loop] = []
    for start in sorted(edges):
        mask = edges[start]
        for side in range(6):
            if not mask >> side & 1 or seen.get(start, 0) >> side & 1:
                continue
            walk: list[Hex] = []
            area = 0
            cell, out = start, side
            while True:
                seen[cell] = seen.get(cell, 0) | (1 << out)
                walk.append(cell)
                dq, dr = DIRECTIONS[out]
                q, r = cell
                nxt = (q + dq, r + dr)
                area += q * nxt[1] - nxt[0] * r
                back = (out + 3) % 6
                out = _NEXT[back][edges[nxt]]
                cell = nxt
                if cell == start and out == side:
                    break
            if area > 0:
                loop = _enclosing(walk)
                first = loop.index(min(loop))
                loops.append(Loop(tuple(loop[first:] + loop[:first])))
    loops.sort(key=lambda lp: lp.sectors)
    return loops


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

"""Satellites positions drawn as text, for tests and benchmarks: a 10 x 10 board row by
row, each cell ``.`` or a colour (``R`` red, ``B`` blue) and a size (``R3``).

The endgames are the first positions with at most two free satellites of the seed-1 games
that ``tactics:16`` did not win against greedy (``pnp sim satellites --bots
tactics:16,greedy --games 200 --jobs 1 --seed 1``), as docs/sim.md describes them."""

from __future__ import annotations

from typing import Any

from cards.ruleset_cache import load_ruleset


def position(text: str, to_move: int) -> Any:
    """The position the text draws, ``to_move`` (0 red, 1 blue) to move."""
    from rules.satellites.engine import start

    cells = [(1 if token[0] == "R" else -1) * int(token[1]) if token != "." else 0
             for token in text.split()]
    return start(load_ruleset("satellites"), 10, cells, to_move=to_move)


# Game 102 of `pnp sim satellites --bots tactics:16,greedy --seed 1`, after move 100: red (the
# tactics bot) to move, ahead on the board with 22 satellites connected; free are red's R1 on
# g6 and blue's B3 on j5. Greedy found B3's connection 386 moves later and won.
GAME_102 = """
.  .  .  .  .  .  .  .  .  .
.  .  .  .  B4 R1 .  .  .  .
.  .  .  .  R3 .  .  .  B2 .
.  B1 R1 .  B3 .  R4 B1 R2 .
.  .  .  B4 R2 .  .  R4 B1 B3
.  .  .  .  .  .  R1 .  .  .
.  .  .  B3 R3 B4 .  R3 B2 .
.  .  .  R4 B2 .  .  .  .  .
.  .  .  .  R2 .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
"""

# Game 109, after move 152: red (greedy) to move, behind on the board; free are red's R2 on i9
# and blue's B1 on i3. Red connected 131 moves later and won.
GAME_109 = """
.  .  .  .  .  .  .  .  .  .
.  .  .  .  .  B3 .  .  .  .
.  .  .  .  .  R1 B4 R1 B1 .
B2 R3 .  .  .  .  .  .  R4 .
.  B4 R2 .  B3 R3 B1 B1 .  .
.  .  .  B2 .  .  R3 B2 R4 .
.  .  .  R4 B3 R2 .  .  .  .
.  .  .  .  .  B4 .  .  .  .
.  .  .  .  .  R1 .  .  R2 .
.  .  .  .  .  .  .  .  .  .
"""

# Game 141, after move 139: blue (the tactics bot) to move, behind on the board; free are
# red's R1 on c1 and blue's B1 on e5. The game was drawn.
GAME_141 = """
.  .  R1 .  .  B4 R3 .  .  .
.  R4 .  .  .  .  B4 .  .  .
.  B2 R1 .  .  .  .  B3 R2 .
B1 R3 .  .  .  .  .  R2 .  .
.  .  .  .  B1 .  .  .  .  .
.  .  .  .  .  .  .  .  R4 B3
.  .  .  .  .  .  .  .  B3 R2
R4 B1 .  .  .  .  .  .  .  B2
B4 R3 B2 R1 .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
"""

# the same, by the label the endgame benchmark prints, with the side to move
TWO_FREE: dict[str, tuple[int, str]] = {
    "seed-1 game 102 after move 100": (0, GAME_102),
    "seed-1 game 109 after move 152": (0, GAME_109),
    "seed-1 game 141 after move 139": (1, GAME_141),
}


# Game 152 of `pnp sim satellites --bots tactics:16,greedy --games 200 --seed 2`, after move
# 518: red (the tactics bot) to move, ahead on the board with 18 satellites connected. It
# played d5-e4, and greedy answered b1-e1+ (B3 joins the colony of R3 d1, a gain); greedy
# won 4 : 1.
SEED2_GAME_152 = """
.  B3 .  R3 .  R3 .  R1 .  .
.  .  R1 B2 .  B3 B3 .  .  R1
.  B1 .  .  .  .  .  .  .  .
B2 R4 .  .  .  .  .  .  .  .
R4 .  .  R2 .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
.  .  .  .  B4 .  .  .  .  B1
.  B1 R2 .  R4 .  .  .  B4 R3
.  B2 .  .  B4 R2 .  .  .  .
.  .  .  .  .  .  .  .  .  .
"""

# Game 8 of `pnp sim satellites --bots tactics:16,greedy --seed 2`, after move 464: red (the
# tactics bot) to move, ahead on the board, its R4 on f3 its last free satellite; f3-b3+
# connects it and hands blue its three grace moves, after which a perfect blue would win.
# The bot played f3-f1 and shuffled; greedy connected and won at move 474.
SEED2_GAME_8 = """
B3 .  .  .  .  .  .  .  .  .
R4 B4 R1 .  .  .  .  .  .  .
.  .  .  .  .  R4 .  .  .  .
.  .  B2 .  .  .  .  .  .  .
B1 B3 R4 .  .  B2 .  .  .  .
.  .  .  .  .  .  .  .  .  .
R3 B1 R3 .  .  .  R3 .  R2 B3
.  .  .  .  .  R2 B2 .  B1 R2
.  B4 .  .  R1 B4 R1 .  .  .
.  .  .  .  .  .  .  .  .  .
"""

# Game 21 of `pnp sim satellites --bots tactics:16,greedy --games 200 --seed 2`, after move
# 31: blue (the tactics bot) to move, ahead on the board with 19 satellites connected; its
# last free satellite is B2 on b4, red has four free. b4-d6+ connects it and hands red the
# three grace moves, which a perfect red turns into a win; the bot played b4-c3, and the
# game ended 180 moves later at 23 connected, 3 : 3 in colonies, red winning the tie-break.
SEED2_GAME_21 = """
.  .  B3 R1 .  .  B2 .  .  .
.  R3 .  B3 .  .  R1 .  .  .
.  .  .  .  .  .  .  .  R1 .
.  B2 .  .  .  .  .  .  .  .
.  .  .  .  .  R4 .  .  .  .
.  .  .  .  .  .  B2 R4 B3 .
.  .  .  R3 .  .  .  B4 R3 .
.  .  R2 .  B4 .  .  .  B1 .
.  .  B1 .  R2 .  B1 R2 .  .
.  .  .  .  B4 .  R4 .  .  .
"""

# Game 10 of `pnp sim satellites --bots closer:16,greedy --games 200 --seed 4`, after move
# 64 (replayed with closer:16 at ca41b59): red (the closer bot) to move, eight satellites
# free, behind on the board (blue's colonies ahead). closer:16 then judged the middle game
# by the search alone and played b3-a4, a quiet move; the game was lost 20 moves later.
SEED4_GAME_10 = """
.  .  .  .  .  .  .  .  .  .
.  .  B2 R3 B2 .  .  .  .  .
.  R3 .  .  .  R1 .  R2 B1 .
.  .  .  .  R2 .  .  B2 .  .
.  .  .  .  B3 R4 .  .  B3 .
.  B1 R4 B4 .  R3 .  .  .  .
.  .  B1 .  .  .  .  .  .  B4
B3 .  .  .  .  .  R2 B4 .  .
.  .  R1 .  .  R4 .  R1 .  .
.  .  .  .  .  .  .  .  .  .
"""

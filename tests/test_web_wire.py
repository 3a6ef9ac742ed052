"""The text the server sends its pages (web.wire): with orjson installed, the very text the
standard library writes, for every value of every message of whole games of both games."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from web import games, wire
from web.app import Context
from web.games import Watcher
from web.store import Store

NAMES = ["Zoë", "Łukasz", "東京 Tokyo", "Ana \"Q\" \\ Ñ"]


def play_out(context: Context, game: str, seats: int, seed: int,
             rng: random.Random) -> list[str]:
    """A whole game of people (names beyond ASCII), every seat and a spectator watching;
    the texts every page was sent."""
    sent: list[str] = []

    async def run() -> None:
        session, _, _ = context.games.create(
            game, [{"name": n, "kind": "human"} for n in NAMES[:seats]], seed)

        async def send(text: str) -> None:
            sent.append(text)

        for seat in range(seats):
            await context.games.watch(session, Watcher(send, "seat", seat))
        await context.games.watch(session, Watcher(send, "watch", None))
        play = session.adapter
        while session.status == "active":
            legal = play.game.legal_actions(session.state)
            action = legal[rng.randrange(len(legal))]
            text = play.text(session.state, action)
            await context.games.move(session, session.to_move, text)

    asyncio.run(run())
    return sent


@pytest.mark.skipif(wire.orjson is None, reason="orjson is not installed (pip install "
                                                 "'orbitus-pnp[fast]')")
def test_orjson_writes_the_standard_librarys_text(tmp_path: Path, monkeypatch) -> None:
    values: list[Any] = []

    def both(value: Any) -> str:
        values.append(value)
        return wire.dumps(value)

    monkeypatch.setattr(games, "_dumps", both)
    context = Context(Store(tmp_path), bot_delay=0)
    rng = random.Random(22)
    sent = [*play_out(context, "orbitus", 4, 5, rng),
            *play_out(context, "satellites", 2, 6, rng)]
    assert len(sent) > 400 and len(values) > 1000
    differ = [v for v in values if wire.dumps(v) != wire.standard(v)]
    assert not differ, f"{len(differ)} values written differently, e.g. {differ[0]!r}"
    # and what the pages get is JSON that reads back to the same message
    last = json.loads(sent[-1])
    assert last["status"] == "finished" and last["players"][0]["name"] == "Zoë"
    assert "Zoë" in sent[-1]  # sent as UTF-8 text, not \u-escaped


def test_the_standard_text_is_compact_utf8() -> None:
    assert wire.standard({"name": "Zoë", "at": 1733450000.25, "seats": [1, None, True]}) == \
        '{"name":"Zoë","at":1733450000.25,"seats":[1,null,true]}'
    assert wire.dumps({1: "a"}) == '{"1":"a"}'  # a whole-number key, as the stdlib writes it
    assert wire.dumps({"seed": 2 ** 70}) == '{"seed":1180591620717411303424}'  # beyond 64 bits

"""The JSON text of what the server sends its pages over the WebSocket.

One function, :func:`dumps`: compact JSON (no spaces), text as it is (a name like Zoë is
sent as UTF-8, not as ``\\u00eb``; the WebSocket's text frames are UTF-8). Where the
optional ``orjson`` package is installed (``pip install 'orbitus-pnp[fast]'``) it writes
the text, about five times faster than the standard library's encoder, which writes it
otherwise; both give the same text for everything the server sends (strings, whole
numbers, booleans, None, lists, tuples, dicts with string or whole-number keys, and the
floats of :func:`time.time`), which ``tests/test_web_wire.py`` checks on every message of
many games. A value ``orjson`` refuses (a number beyond 64 bits) is written by the
standard library.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

standard: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":"),
                                                  ensure_ascii=False).encode

try:
    import orjson
except ImportError:  # the standard library writes it
    orjson = None


def _fast(value: Any) -> str:
    try:
        return str(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS), "utf-8")
    except TypeError:  # orjson.JSONEncodeError: e.g. a whole number beyond 64 bits
        return standard(value)


dumps: Callable[[Any], str] = standard if orjson is None else _fast
ENCODER = "stdlib json" if orjson is None else f"orjson {orjson.__version__}"

__all__ = ["ENCODER", "dumps", "standard"]

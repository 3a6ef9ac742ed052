"""Device CMYK of an RGB colour by the plain formula, within a vendor's ink limit.

K = 1 - max(R, G, B), and C, M, Y from what remains: not a colour-managed conversion
through an ICC profile, but the same on every machine and good enough for a prototype
(proof a printed sample before a large order). A translucent colour is first flattened
onto white paper (PDF/X-1a has no transparency); ink above ``max_ink`` (C+M+Y+K) is taken
out of C, M and Y evenly.
"""

from __future__ import annotations


def cmyk_of(hex_colour: str, opacity: float = 1.0, max_ink: float = 3.0) -> tuple[
        float, float, float, float]:
    """``#rrggbb`` (drawn at ``opacity`` over white paper) as device C, M, Y, K in 0..1,
    at most ``max_ink`` in all (3.0 = 300 %)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
    if opacity < 1.0:
        r, g, b = (1.0 - opacity * (1.0 - v) for v in (r, g, b))
    k = 1.0 - max(r, g, b)
    if k >= 1.0:
        return (0.0, 0.0, 0.0, 1.0)
    c, m, y = ((1.0 - v - k) / (1.0 - k) for v in (r, g, b))
    total = c + m + y + k
    if total > max_ink:
        room = max(0.0, max_ink - k)
        scale = room / (c + m + y)
        c, m, y = c * scale, m * scale, y * scale
    return tuple(round(v, 4) for v in (c, m, y, k))  # type: ignore[return-value]

"""Each game's printables: its ``products`` adapter (:func:`rules.adapter`), by convention
``generator.products.<game>``.

A product module offers:

- ``TITLE``: the game's name as progress lines print it;
- ``load(cards)``: the game's validated definitions from a folder (default: shipped);
- ``steps(defs, opts)``: the build steps of its printables (PDFs, SVGs, aids);
- ``components(defs, words=None)``: every distinct component as a standalone drawing (SVG,
  PNG), its words from ``words`` (the kit's labels, :mod:`cards.labels`; default English);
- ``tts_files(defs, root, words=None, lang="en")``: the Tabletop Simulator export.
"""

from __future__ import annotations

from types import ModuleType

import rules


def product(game: str) -> ModuleType:
    """The product module of ``game`` (:class:`rules.NoAdapter`, a ``LookupError``, for a
    game that does not exist or prints nothing)."""
    return rules.adapter(game, "products")

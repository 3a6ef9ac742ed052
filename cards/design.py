"""The design version of a game's definitions: the designer's ``version:`` and a content hash.

Every build, score, record and playtest names the definitions it was made with by a short
*design hash*: six hex digits of a SHA-256 over the validated, normalised data of every
definition that shapes the printed kit (sectors, planets, station, rule numbers, the
labels of every language, the booklets and player aids) and nothing else (not the output
options, not comments, not how the YAML is laid out). Two folders with the same hash print
the same kit; any printed value changed changes it.

The data hashed is each file's model as validated (:mod:`cards.models`), with its
defaults filled in, dumped to JSON with sorted keys: so reordering keys, flow against block
style, quoting, comments, ``50`` against ``50.0`` or a default written out change nothing,
while list order (the deck's order deals other games) and every value do. Booklet and
player-aid texts are hashed as text with line endings and trailing spaces normalised. The
designer's ``version:`` (``rules.yaml`` of each game) is not part of the hash; it is printed
beside it: ``v0.7.2·3fa9c1``.

The hash needs validated definitions (pydantic, ~150 ms), so
:func:`cards.design_cache.design` keeps the hash of each exact set of input bytes in the
ruleset cache folder, like the rulesets themselves.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cards.files import definitions_of

if TYPE_CHECKING:
    from cards.definitions import OrbitusDefinitions, SatellitesDefinitions

HASH_DIGITS = 6
HASH_FORMAT = 1  # bump when what is hashed changes (every hash changes with it)
STAMP_SEPARATOR = "·"
_HASH_RE = re.compile(f"[0-9a-f]{{{HASH_DIGITS}}}")
_STAMP_RE = re.compile(r"(?:v(?P<version>[A-Za-z0-9][A-Za-z0-9._+-]*)[·_ ])?"
                       f"(?P<hash>[0-9a-fA-F]{{{HASH_DIGITS}}})")
TEXT_KINDS = ("rules", "player-aid")  # the booklet texts hashed (labels are data)


@dataclass(frozen=True)
class Design:
    """Which design a kit, score or record belongs to."""

    game: str
    hash: str  # HASH_DIGITS lower-case hex digits
    version: str | None = None

    @property
    def stamp(self) -> str:
        """As printed on every component: ``v0.7.2·3fa9c1``, or the hash alone."""
        return f"v{self.version}{STAMP_SEPARATOR}{self.hash}" if self.version else self.hash

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "hash": self.hash, "stamp": self.stamp}

    def same(self, other: Design | Stamp) -> bool:
        return self.hash == other.hash


@dataclass(frozen=True)
class Stamp:
    """A design as a file names it (``design: v0.7.2·3fa9c1``): the hash, maybe a version."""

    hash: str
    version: str | None = None

    @property
    def text(self) -> str:
        return f"v{self.version}{STAMP_SEPARATOR}{self.hash}" if self.version else self.hash


def parse_stamp(text: object) -> Stamp | None:
    """The stamp in ``text`` (``v0.7.2·3fa9c1``, ``3fa9c1``), or None when it is none."""
    if not isinstance(text, str):
        return None
    found = _STAMP_RE.fullmatch(text.strip())
    if found is None:
        return None
    return Stamp(found.group("hash").lower(), found.group("version"))


def is_hash(text: str) -> bool:
    return _HASH_RE.fullmatch(text) is not None


# --- what is hashed ---------------------------------------------------------------------------


def _text(text: str) -> str:
    """A booklet text as it prints: line endings and trailing spaces do not matter."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n")
             .removeprefix("\ufeff").split("\n")]
    return "\n".join(lines).strip("\n") + "\n"


def text_files(cards: Path | None, game: str) -> dict[str, Path]:
    """The booklet and player-aid texts a build of ``game`` may read, by file name."""
    from cards.text_files import text_folder

    folder = text_folder(cards, game)
    out: dict[str, Path] = {}
    for kind in TEXT_KINDS:
        for path in sorted(folder.glob(f"{kind}-*.md")):
            out[path.name] = path
    return out


def label_languages(cards: Path | None, game: str) -> list[str]:
    """The languages whose labels a build of ``game`` may print."""
    from cards.text_files import languages

    return languages(cards, game, "labels") or languages(None, game, "labels")


def game_of(defs: Any) -> str:
    """The game validated definitions are of (their ruleset names it)."""
    game = getattr(defs.ruleset, "GAME", None)
    if isinstance(game, str):
        return game
    return "orbitus" if hasattr(defs, "sectors") else "satellites"


def normalised(defs: Any) -> dict[str, Any]:
    """Everything of ``defs`` that shapes the printed kit, as plain JSON data: each
    definitions file's validated model (a game whose definitions have no models: its
    ruleset's data), the labels of every language, the booklet and player-aid texts."""
    from cards.loader import read_text
    from cards.reading import MAX_TEXT_BYTES

    game = game_of(defs)
    files: dict[str, Any] = {}
    for role in definitions_of(game).FILES:
        model = getattr(defs, role, None)
        if hasattr(model, "model_dump"):
            files[role] = model.model_dump(mode="json", exclude={"version"} if role == "rules"
                                           else None)
    if not files:
        files["ruleset"] = defs.ruleset.to_data()
    cards = defs.folder
    languages = label_languages(cards, game)
    labels: dict[str, Any] = {}
    if languages:
        from cards.labels import load_labels

        labels = {lang: load_labels(cards, game, lang).model_dump(mode="json")
                  for lang in languages}
    texts = {name: _text(read_text(path, f"the {game} text {name}", MAX_TEXT_BYTES))
             for name, path in text_files(cards, game).items()}
    return {"format": HASH_FORMAT, "game": game, "files": files, "labels": labels,
            "texts": texts}


def canonical(data: Any) -> bytes:
    """``data`` as the bytes hashed: JSON, keys sorted, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def hash_of(data: Any) -> str:
    return hashlib.sha256(canonical(data)).hexdigest()[:HASH_DIGITS]


def design_of(defs: OrbitusDefinitions | SatellitesDefinitions) -> Design:
    """The design of validated definitions."""
    data = normalised(defs)
    version = getattr(getattr(defs, "rules", None), "version", None)
    return Design(data["game"], hash_of(data), None if version is None else str(version))

"""The design hash of a definitions folder, fast: remembered by the bytes of its files.

:func:`design` is what the commands call (the scorers, setups and replays name the design
of the definitions they use). Its hash needs validated definitions (pydantic, ~150 ms), so
the hash of each exact set of input bytes is kept in the cache folder as an entry of
:mod:`cards.cache`, like the rulesets themselves; a miss validates
(:func:`cards.design.design_of`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cards.design import HASH_FORMAT, Design, design_of, is_hash, label_languages, text_files
from cards.files import DEFAULT_CARDS, definitions_of, game_files


def _inputs(game: str, cards: Path | None) -> list[Path]:
    """Every file whose bytes decide the hash of ``game`` in ``cards``."""
    from cards.text_files import labels_path

    root = (cards or DEFAULT_CARDS).resolve()
    paths = list(game_files(game, root).values())
    paths += list(text_files(root, game).values())
    paths += [labels_path(root, game, lang) for lang in label_languages(root, game)]
    return paths


def _bytes_key(game: str, cards: Path | None) -> str | None:
    from cards.reading import MAX_DEFINITION_BYTES, UnreadableInput, read_bytes_safely

    digest = hashlib.sha256(f"design:{HASH_FORMAT}:{game}".encode())
    here = Path(__file__).resolve().parent
    for name in ("design.py", "models.py", "labels.py"):
        digest.update((here / name).read_bytes())
    for path in _inputs(game, cards):
        role = path.stem
        if role in definitions_of(game).OPTIONAL and path.parent.name == game \
                and not path.exists() and not path.is_symlink():
            digest.update(b"\0missing")
            continue
        try:
            data = read_bytes_safely(path, "", MAX_DEFINITION_BYTES)
        except UnreadableInput:
            return None
        digest.update(f"\0{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:40]


MAX_ENTRY_BYTES = 4_000  # an entry is about 150 bytes: the hash and the version


def design(game: str, cards: Path | None = None) -> Design:
    """The design of ``game``'s definitions in ``cards`` (default: shipped).

    Raises :class:`cards.loader.DefinitionError` when they do not validate, exactly as
    loading them would. The entry is read and written as every cache entry is
    (:mod:`cards.cache`: checked on every read, made again with one note when it fails,
    only the tool's own entries ever evicted)."""
    from cards import cache
    from cards.ruleset_cache import CACHE_KEEP, load_definitions

    key = _bytes_key(game, cards)
    kind = f"design-{game}"
    payload = cache.read_entry(kind, key, "json", MAX_ENTRY_BYTES) if key is not None else None
    if payload is not None:
        try:
            data = json.loads(payload.decode("utf-8"))
            if data.get("format") == HASH_FORMAT and is_hash(data.get("hash", "")):
                version = data.get("version")
                return Design(game, data["hash"], version if isinstance(version, str) else None)
        except (ValueError, AttributeError, RecursionError):
            pass
        folder = cache.cache_folder()
        if folder is not None:
            cache.note(cache.entry_path(folder, kind, str(key), "json"),
                       "its content is not a design of this version")
    found = design_of(load_definitions(game, cards))
    if key is not None:
        cache.write_entry(kind, key, "json", json.dumps(
            {"format": HASH_FORMAT, "hash": found.hash, "version": found.version},
            separators=(",", ":")).encode("utf-8"), CACHE_KEEP)
    return found

"""A design's definitions kept as data, and made a definitions folder again.

:func:`cards.design.normalised` gives everything of a game's definitions that shapes its kit
as plain data; a build keeps it (``<game>/design.json``) and so does the playtest log, so
that ``pnp diff`` can compare with a build whose definitions have changed since, and a
report can simulate the version a playtest played. :func:`materialise` writes such data
back as a definitions folder (JSON is YAML, so each file is the data as JSON) that loads to
the same design hash.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import rules
from cards.files import definitions_of

SNAPSHOT_FORMAT = 1


class SnapshotError(Exception):
    """Kept design data that cannot be made a folder again (one line saying why)."""


def snapshot_of(defs: Any) -> dict[str, Any]:
    """The data to keep for validated definitions: the design and its version."""
    from cards.design import design_of, normalised

    found = design_of(defs)
    return {"snapshot": SNAPSHOT_FORMAT, "hash": found.hash, "version": found.version,
            "design": normalised(defs)}


def materialise(data: dict[str, Any], folder: Path) -> Path:
    """Write kept design data (:func:`snapshot_of`) as a definitions folder under
    ``folder``; the folder."""
    try:
        design = data["design"]
        game = design["game"]
        files = design["files"]
        if game not in rules.names("cards") or set(files) != set(definitions_of(game).FILES):
            raise KeyError("files")
    except (KeyError, TypeError):
        raise SnapshotError("the kept design data is not complete (it names no game or "
                            "lacks a definitions file)") from None
    home = folder / game
    (home / "text").mkdir(parents=True, exist_ok=True)
    for role, content in files.items():
        content = dict(content)
        if role == "rules" and data.get("version"):
            content["version"] = data["version"]
        (home / f"{role}.yaml").write_text(json.dumps(content, ensure_ascii=False, indent=1)
                                           + "\n", encoding="utf-8")
    for lang, labels in design.get("labels", {}).items():
        (home / "text" / f"labels-{lang}.yaml").write_text(
            json.dumps(labels, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for name, text in design.get("texts", {}).items():
        if "/" in name or "\\" in name or name.startswith("."):
            raise SnapshotError(f"the kept design data names a text {name!r} outside its "
                                f"folder")
        (home / "text" / name).write_text(text, encoding="utf-8")
    return folder

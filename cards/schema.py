"""Write the JSON Schemas of the definitions files: ``python -m cards.schema``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cards.models import SCHEMAS as DEFINITION_SCHEMAS
from cards.preset_models import PresetFile

# every editor schema: the definitions files, and the presets (cards/presets/*.yaml)
SCHEMAS = {**DEFINITION_SCHEMAS, "preset": PresetFile}

SCHEMA_DIR = Path(__file__).resolve().parent / "schema"


def schema_text(name: str) -> str:
    """The JSON Schema for one kind of file, as shipped (stable key order)."""
    schema = SCHEMAS[name].model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"{name}.schema.json"
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write_all(folder: Path = SCHEMA_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in sorted(SCHEMAS):
        path = folder / f"{name}.schema.json"
        path.write_text(schema_text(name), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_all():
        sys.stdout.write(f"wrote {p}\n")

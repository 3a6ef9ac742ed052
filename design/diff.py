"""``pnp diff OLD NEW``: what changed between two versions of a design.

For each game both versions hold: the design stamps; the components added, removed and
changed (compared as printed, without their stamps: :mod:`generator.compare`), each
changed one with the definition values behind it; the rule numbers changed (``end_connected
23 → 21``, a planet-scoring row); every other definition value; the booklet and player-aid
texts as a word diff per language, and the printed labels; and which tests of the rules
play differently: the deals of the first seeds of every player count, and the records given
(``--records``, or the project file's ``records``), replayed with each version.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.sources import Source

SETUP_SEEDS = (1, 2, 3)
WORD_CONTEXT = 4  # words shown either side of a change


@dataclass
class Change:
    """One value that differs: where, before, after, and in words."""

    path: str
    old: Any
    new: Any

    @property
    def text(self) -> str:
        return f"{self.path}: {_shown(self.old)} → {_shown(self.new)}"

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "old": self.old, "new": self.new, "text": self.text}


def _shown(value: Any) -> str:
    if value is _MISSING:
        return "(none)"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Missing:
    def __repr__(self) -> str:
        return "(none)"


_MISSING: Any = _Missing()


def _item_key(item: Any, index: int) -> str:
    """How a list item is named in a path: by its id, seat count, band or colour."""
    if isinstance(item, dict):
        if "id" in item:
            return str(item["id"])
        if "players" in item and "start_lines" in item:
            return f"{item['players']} players"
        if "colour" in item and "value" in item:
            return f"{item['colour']} {item['value']}"
        if "min" in item and "points" in item:
            return f"{item['min']}+" if item.get("max") is None else (
                str(item["min"]) if item["max"] == item["min"] else f"{item['min']}–{item['max']}")
    return str(index + 1)


def _keyed(items: list[Any]) -> dict[str, Any] | None:
    keys = [_item_key(v, i) for i, v in enumerate(items)]
    if all(isinstance(v, dict) for v in items) and len(set(keys)) == len(keys) and \
            any(not k.isdigit() for k in keys):
        return dict(zip(keys, items, strict=True))
    return None


def changes(old: Any, new: Any, path: str = "") -> list[Change]:
    """Every value that differs between two pieces of data, by path (``sectors[S05].routes``,
    ``scoring.planet_groups[6+].points``)."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in [*old, *(k for k in new if k not in old)]:
            sub = f"{path}.{key}" if path else str(key)
            out += changes(old.get(key, _MISSING), new.get(key, _MISSING), sub)
        return out
    if isinstance(old, list) and isinstance(new, list) and old and new and \
            all(isinstance(v, dict) for v in old + new):
        a, b = _keyed(old), _keyed(new)
        if a is not None and b is not None:
            out = []
            for key in [*a, *(k for k in b if k not in a)]:
                out += changes(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}[{key}]")
            return out
        if len(old) == len(new):
            out = []
            for i, (x, y) in enumerate(zip(old, new, strict=True)):
                out += changes(x, y, f"{path}[{i + 1}]")
            return out
    return [Change(path, old, new)]


# --- texts ------------------------------------------------------------------------------------


def word_diff(old: str, new: str) -> list[dict[str, str]]:
    """The changes between two texts, word by word, each with a few words around it."""
    a, b = old.split(), new.split()
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    out = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        out.append({"before": " ".join(a[max(0, a0 - WORD_CONTEXT):a0]),
                    "old": " ".join(a[a0:a1]), "new": " ".join(b[b0:b1]),
                    "after": " ".join(a[a1:a1 + WORD_CONTEXT])})
    return out


def _language(name: str) -> tuple[str, str]:
    found = re.fullmatch(r"(rules|player-aid)-(\w+)\.md", name)
    return (found.group(1), found.group(2)) if found else (name, "")


# --- playing -----------------------------------------------------------------------------------


def setups(game: str, old_rules: Any, new_rules: Any) -> list[dict[str, Any]]:
    """The deals (the first seeds of each player count) that differ between the rulesets."""
    import rules

    core = rules.get(game)
    counts_old = set(getattr(old_rules, "player_counts", (2,)))
    counts_new = set(getattr(new_rules, "player_counts", (2,)))
    out = []
    for players in sorted(counts_old | counts_new):
        if players not in counts_old or players not in counts_new:
            gone = players in counts_old
            out.append({"players": players, "seeds": list(SETUP_SEEDS),
                        "text": f"{players} players: {'no longer dealt' if gone else 'dealt now'}"
                                f" (start lines {'removed' if gone else 'added'})"})
            continue
        names = [f"P{k + 1}" for k in range(players)]
        differ, first = [], ""
        for seed in SETUP_SEEDS:
            try:
                a = core.describe(core.new_game(old_rules, names, seed))
            except Exception as exc:  # noqa: BLE001 - a ruleset that deals no game says so
                a = f"no deal: {exc}"
            try:
                b = core.describe(core.new_game(new_rules, names, seed))
            except Exception as exc:  # noqa: BLE001
                b = f"no deal: {exc}"
            if a != b:
                differ.append(seed)
                if not first:
                    first = next((f"{x.strip()} → {y.strip()}" for x, y in
                                  zip(a.splitlines(), b.splitlines(), strict=False) if x != y),
                                 "")
        if differ:
            seeds = ", ".join(map(str, differ))
            out.append({"players": players, "seeds": differ,
                        "text": f"{players} players: the deal of seed {seeds} differs"
                                + (f" (seed {differ[0]}: {first})" if first else "")})
    return out


def _outcome(path: Path, folder: Path) -> dict[str, Any]:
    from cards.loader import DefinitionError
    from records.record import RecordError, read_record, replay

    try:
        record = read_record(path)
        result = replay(record, folder, override=True)
    except (RecordError, DefinitionError) as exc:
        return {"error": exc.problems[0] if exc.problems else str(exc)}
    data = result.score_json()
    scores = ([p["total"] for p in data["players"]] if "players" in data
              else [data.get("colonies", {}).get(c) for c in ("red", "blue")])
    illegal = None if result.illegal is None else \
        f"move {result.illegal.number} (line {result.illegal.line}) {result.illegal.text} " \
        f"is illegal: {result.illegal.reason}"
    return {"played": result.played, "moves": result.moves, "over": result.over,
            "illegal": illegal, "scores": scores}


def record_game(path: Path) -> str | None:
    """The game a record names in its ``game:`` line (None: unreadable, or none named)."""
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return None
    found = re.search(r"^game:\s*['\"]?(\w+)", head, re.M)
    return None if found is None else found.group(1).lower()


def records(game: str, paths: list[Path], old: Path, new: Path) -> list[dict[str, Any]]:
    """The records of ``game`` among ``paths`` that replay differently with ``new``."""
    from cards.loader import display_path

    out = []
    for path in paths:
        if record_game(path) != game:
            continue
        a, b = _outcome(path, old), _outcome(path, new)
        if a == b:
            continue
        said = []
        for key, label in (("error", "cannot be replayed"), ("illegal", "stops"),
                           ("played", "moves played"), ("over", "game over"),
                           ("scores", "scores")):
            if a.get(key) != b.get(key):
                said.append(f"{label}: {_shown(a.get(key, _MISSING))} → "
                            f"{_shown(b.get(key, _MISSING))}")
        out.append({"file": display_path(path), "old": a, "new": b, "text": "; ".join(said)})
    return out


# --- the whole comparison ----------------------------------------------------------------------


@dataclass
class GameDiff:
    game: str
    old_design: Any
    new_design: Any
    components: Any = None  # generator.compare.ComponentChanges
    component_notes: dict[str, list[str]] = field(default_factory=dict)
    rules: list[Change] = field(default_factory=list)
    definitions: list[tuple[str, Change]] = field(default_factory=list)
    texts: list[dict[str, Any]] = field(default_factory=list)
    labels: list[tuple[str, Change]] = field(default_factory=list)
    setups: list[dict[str, Any]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    replayed: int = 0  # the records of this game replayed with both versions
    old_defs: Any = None
    new_defs: Any = None

    @property
    def changed(self) -> bool:
        return self.old_design.hash != self.new_design.hash


def _component_of(path: str) -> str | None:
    found = re.match(r"sectors\[([^\]]+)\]", path)
    if found:
        return f"sector-{found.group(1)}"
    found = re.match(r"satellites\[(red|blue) (\d)\]", path)
    if found:
        return f"satellite-{found.group(1)}-{found.group(2)}"
    return None


def compare_game(game: str, old: Source, new: Source, record_files: list[Path]) -> GameDiff:
    """Everything that differs in ``game`` between two versions."""
    from cards.design import normalised
    from cards.ruleset_cache import load_definitions
    from generator.compare import compare_components

    old_defs = load_definitions(game, old.folder)
    new_defs = load_definitions(game, new.folder)
    diff = GameDiff(game, old_defs.design, new_defs.design, old_defs=old_defs,
                    new_defs=new_defs)
    if not diff.changed:
        return diff
    a, b = normalised(old_defs), normalised(new_defs)
    for role in b["files"]:
        found = changes(a["files"].get(role, {}), b["files"][role])
        if role == "rules":
            diff.rules = found
        else:
            diff.definitions += [(role, c) for c in found]
    for lang in sorted(set(a["labels"]) | set(b["labels"])):
        diff.labels += [(lang, c) for c in changes(a["labels"].get(lang, {}),
                                                   b["labels"].get(lang, {}))]
    for name in sorted(set(a["texts"]) | set(b["texts"])):
        kind, lang = _language(name)
        before, after = a["texts"].get(name), b["texts"].get(name)
        if before == after:
            continue
        entry: dict[str, Any] = {"file": name, "kind": kind, "lang": lang}
        if before is None or after is None:
            entry["state"] = "added" if before is None else "removed"
            entry["changes"] = []
        else:
            entry["state"] = "changed"
            entry["changes"] = word_diff(before, after)
        diff.texts.append(entry)
    diff.components = compare_components(game, old_defs, new_defs)
    for _role, change in diff.definitions:
        name = _component_of(change.path)
        if name is not None:
            diff.component_notes.setdefault(name, []).append(change.text)
    diff.setups = setups(game, old_defs.ruleset, new_defs.ruleset)
    diff.records = records(game, record_files, old.folder, new.folder)
    diff.replayed = sum(1 for path in record_files if record_game(path) == game)
    return diff


def compare(old: Source, new: Source, games: tuple[str, ...],
            record_files: list[Path]) -> list[GameDiff]:
    return [compare_game(game, old, new, record_files) for game in games]

"""Read YAML definition files safely and turn every problem into one clear line.

Each problem is reported as ``FILE:LINE: CONTEXT: FIELD: MESSAGE``, e.g.::

    cards/orbitus/sectors.yaml:41: sector S17: routes: 'NNE' is not a side (N, NE, SE, S, SW, NW)

YAML is parsed with the safe loader only (the C one when present); line numbers
come from the composed node tree, so they are exact for every field.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

try:  # the C loader is many times faster; fall back to pure Python where absent
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader  # type: ignore[assignment]

Loc = tuple[str | int, ...]
M = TypeVar("M")


class DefinitionError(Exception):
    """One or more problems in definition files; ``problems`` holds one line each."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


class UnreadableInput(DefinitionError):
    """A file that could not be read at all (missing, not YAML, empty)."""


@dataclass
class Document:
    """A parsed YAML file plus the line of every mapping key and list item."""

    path: Path
    display: str
    data: Any
    lines: dict[Loc, int] = field(default_factory=dict)

    def line_of(self, loc: Iterable[str | int]) -> int:
        """Line of the deepest part of ``loc`` that exists in the file (1-based)."""
        parts = tuple(loc)
        while parts:
            if parts in self.lines:
                return self.lines[parts]
            parts = parts[:-1]
        return self.lines.get((), 1)

    def where(self, loc: Iterable[str | int]) -> str:
        return f"{self.display}:{self.line_of(loc)}"


def display_path(path: Path) -> str:
    """A path as the user would recognise it: relative to the working dir when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - different drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def read_text(path: Path, what: str) -> str:
    """Read a file's text, turning every OS problem into an :class:`UnreadableInput`."""
    shown = display_path(path)
    if not path.exists():
        raise UnreadableInput([f"{shown}: file not found (expected {what} here)"])
    if path.is_dir():
        raise UnreadableInput([f"{shown}: is a folder, expected a YAML file with {what}"])
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableInput(
            [f"{shown}: not UTF-8 text (byte {exc.start}); save the file as UTF-8"]
        ) from None
    except OSError as exc:
        raise UnreadableInput([f"{shown}: cannot be read: {exc.strerror}"]) from None


def parse_yaml(text: str, path: Path, what: str) -> Document:
    """Parse YAML text into a :class:`Document`; syntax errors name their line."""
    shown = display_path(path)
    if not text.strip() or all(
        not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()
    ):
        raise UnreadableInput([f"{shown}:1: the file is empty; expected {what}"])
    try:
        node = yaml.compose(text, Loader=SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "not valid YAML"
        raise UnreadableInput([f"{shown}:{line}: YAML syntax error: {problem}"]) from None
    except yaml.YAMLError as exc:
        raise UnreadableInput([f"{shown}: YAML syntax error: {exc}"]) from None
    if node is None:
        raise UnreadableInput([f"{shown}:1: the file is empty; expected {what}"])
    doc = Document(path=path, display=shown, data=None)
    problems: list[str] = []
    doc.data = _construct(node, (), doc, problems, set())
    if problems:
        raise DefinitionError(problems)
    return doc


def load_yaml(path: Path, what: str) -> Document:
    """Read and parse one YAML file."""
    return parse_yaml(read_text(path, what), path, what)


_SCALAR_LOADER = SafeLoader("")


def _construct(node: yaml.Node, loc: Loc, doc: Document, problems: list[str],
               seen: set[int]) -> Any:
    if not isinstance(node, yaml.ScalarNode):
        if id(node) in seen:
            # an alias (*name) to a list or mapping: expanding those can explode in size
            problems.append(
                f"{doc.display}:{node.start_mark.line + 1}: {_loc_text(loc)}: YAML aliases "
                "(*name) of lists or mappings are not accepted; write the value out"
            )
            return None
        seen.add(id(node))
    doc.lines.setdefault(loc, node.start_mark.line + 1)
    # Each child node is dropped from the tree once it is data, so a large file's node
    # tree (several times the size of its data) is freed as it is read, not at the end.
    # Safe: lists and mappings are never shared (aliases of them are refused above).
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        pairs = node.value
        for index, (key_node, value_node) in enumerate(pairs):
            pairs[index] = None
            key = _construct_scalar(key_node)
            if not isinstance(key, (str, int)):
                problems.append(
                    f"{doc.display}:{key_node.start_mark.line + 1}: "
                    f"a key must be a plain name, not {key_node.tag.rsplit(':', 1)[-1]}"
                )
                continue
            sub = (*loc, key)
            if key in result:
                problems.append(
                    f"{doc.display}:{key_node.start_mark.line + 1}: "
                    f"{_loc_text(sub)}: duplicate key (first given on line {doc.lines[sub]})"
                )
                continue
            doc.lines[sub] = key_node.start_mark.line + 1
            result[key] = _construct(value_node, sub, doc, problems, seen)
        return result
    if isinstance(node, yaml.SequenceNode):
        items = []
        children = node.value
        for i, item in enumerate(children):
            children[i] = None
            sub = (*loc, i)
            doc.lines[sub] = item.start_mark.line + 1
            items.append(_construct(item, sub, doc, problems, seen))
        return items
    return _construct_scalar(node)


_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"


def _construct_scalar(node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        # the two kinds that fill definitions and layouts, read without the constructor's
        # bookkeeping: text, and plain decimal whole numbers (the rest takes the full path)
        tag = node.tag
        if tag == _STR_TAG:
            return node.value
        if tag == _INT_TAG:
            text = node.value
            digits = text[1:] if text[:1] in "+-" else text
            if digits.isdecimal() and (digits == "0" or digits[0] != "0"):
                return int(text)
        try:
            return _SCALAR_LOADER.construct_object(node, deep=True)
        finally:
            # the constructor remembers every node it built (for aliases); this one
            # lives as long as the module, so forget the node or it is kept for good
            _SCALAR_LOADER.constructed_objects.pop(node, None)
    return None


def _loc_text(loc: Iterable[str | int]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


# --- turning pydantic errors into lines --------------------------------------------

ITEM_LABELS: dict[str, str] = {
    "sectors": "sector",
    "planet_types": "planet type",
    "satellites": "satellites entry",
    "start_lines": "start lines for",
    "closed_blocks": "closed-block band",
    "planet_groups": "planet-group band",
}


def _item_name(data: Any, loc: Loc) -> tuple[str, Loc]:
    """``("sector S17", rest_of_loc)`` for a loc inside a labelled list, else ``("", loc)``."""
    if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int):
        label = ITEM_LABELS.get(loc[0])
        if label and isinstance(data, dict):
            items = data.get(loc[0])
            item = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else None
            ident = None
            if isinstance(item, dict):
                ident = item.get("id", item.get("players"))
                if ident is None and "colour" in item and "value" in item:
                    ident = f"{item['colour']} {item['value']}"
            name = f"{label} {ident}" if ident is not None else f"{label} #{loc[1] + 1}"
            return name, loc[2:]
    return "", loc


def format_problem(doc: Document, loc: Loc, message: str) -> str:
    """One problem line: ``FILE:LINE: [item: ][field: ]message``."""
    name, rest = _item_name(doc.data, loc)
    parts = [doc.where(loc)]
    if name:
        parts.append(name)
    field_text = ".".join(str(p) for p in rest if isinstance(p, str))
    if field_text:
        parts.append(field_text)
    parts.append(message)
    return ": ".join(parts)


def _message(err: dict[str, Any], doc: Document) -> tuple[Loc, str]:
    loc: Loc = tuple(err.get("loc", ()))
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    given = err.get("input")
    # pydantic puts the failing member of a union or a validator name in loc; drop those
    loc = tuple(p for p in loc if not (isinstance(p, str) and p.startswith("function-")))
    if kind == "extra_forbidden":
        parent = loc[:-1]
        allowed = _allowed_fields(doc, parent)
        hint = f" (known fields: {', '.join(allowed)})" if allowed else ""
        return loc, f"unknown field {loc[-1]!r}{hint}"
    if kind == "missing":
        return loc, "is required but missing"
    if kind in ("value_error", "assertion_error"):
        text = str(ctx.get("error", err.get("msg", "")))
        return loc, text
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return loc, f"expected a whole number, got {given!r}"
    if kind in ("float_type", "float_parsing"):
        return loc, f"expected a number, got {given!r}"
    if kind in ("string_type",):
        return loc, f"expected text, got {given!r}"
    if kind in ("bool_type", "bool_parsing"):
        return loc, f"expected true or false, got {given!r}"
    if kind in ("list_type",):
        return loc, f"expected a list, got {given!r}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return loc, f"expected a mapping of fields, got {given!r}"
    if kind == "greater_than":
        return loc, f"must be greater than {_num(ctx.get('gt'))}, got {given!r}"
    if kind == "greater_than_equal":
        return loc, f"must be at least {_num(ctx.get('ge'))}, got {given!r}"
    if kind == "less_than_equal":
        return loc, f"must be at most {_num(ctx.get('le'))}, got {given!r}"
    if kind == "literal_error":
        return loc, f"{given!r} is not allowed (expected {ctx.get('expected')})"
    if kind in ("too_short",):
        return loc, f"needs at least {ctx.get('min_length')} item(s)"
    if kind in ("too_long",):
        return loc, f"has too many items (at most {ctx.get('max_length')})"
    if kind in ("string_too_short",):
        return loc, "must not be empty"
    if kind in ("string_too_long",):
        return loc, f"is too long (at most {ctx.get('max_length')} characters)"
    if kind == "string_pattern_mismatch":
        return loc, f"{given!r} does not have the expected form ({ctx.get('pattern')})"
    return loc, str(err.get("msg", "invalid value"))


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _allowed_fields(doc: Document, parent: Loc) -> list[str]:
    model = _MODEL_AT.get(id(doc))
    if model is None:
        return []
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover
        return []
    current: Any = model
    for part in parent:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        info = current.model_fields.get(str(part))
        if info is None:
            return []
        current = _inner_model(info.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _inner_model(annotation: Any) -> Any:
    from typing import get_args

    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


_MODEL_AT: dict[int, Any] = {}


def validate(doc: Document, model: type[M]) -> M:
    """Validate ``doc.data`` against a pydantic model; raise one line per problem."""
    from pydantic import ValidationError

    _MODEL_AT[id(doc)] = model
    try:
        if not isinstance(doc.data, dict):
            raise DefinitionError(
                [f"{doc.display}:1: expected a mapping of fields at the top level, "
                 f"got {type(doc.data).__name__}"]
            )
        return model.model_validate(doc.data)  # type: ignore[attr-defined,no-any-return]
    except ValidationError as exc:
        lines = []
        for err in exc.errors(include_url=False):
            loc, text = _message(dict(err), doc)
            lines.append(format_problem(doc, loc, text))
        raise DefinitionError(_unique(lines)) from None
    finally:
        _MODEL_AT.pop(id(doc), None)


def _unique(lines: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for line in lines:
        seen.setdefault(line, None)
    return list(seen)


def collect(*steps: Callable[[], Any]) -> list[Any]:
    """Run each step, gathering the problems of all that fail before raising them together."""
    results: list[Any] = []
    problems: list[str] = []
    unreadable = False
    for step in steps:
        try:
            results.append(step())
        except DefinitionError as exc:
            unreadable = unreadable or isinstance(exc, UnreadableInput)
            problems.extend(exc.problems)
            results.append(None)
    if problems:
        raise (UnreadableInput if unreadable else DefinitionError)(problems)
    return results

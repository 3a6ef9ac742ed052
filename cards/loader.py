"""Read YAML definition files safely and turn every problem into one clear line.

Each problem is reported as ``FILE:LINE: CONTEXT: FIELD: MESSAGE``, e.g.::

    cards/orbitus/sectors.yaml:41: sector S17: routes: 'NNE' is not a side (N, NE, SE, S, SW, NW)

YAML is parsed with the safe loader only (the C one when present); line numbers
come from the composed node tree, so they are exact for every field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

try:  # the C loader is many times faster; fall back to pure Python where absent
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader  # type: ignore[assignment]

from cards.reading import (  # re-exported: the loader's callers import them from here
    MAX_DEFINITION_BYTES,
    DefinitionError,
    UnreadableInput,
    display_path,
    read_bytes_safely,
)

Loc = tuple[str | int, ...]
M = TypeVar("M")


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
        """``FILE:LINE`` of ``loc``, as a problem line starts."""
        return f"{self.display}:{self.line_of(loc)}"

    def place(self, loc: Iterable[str | int]) -> str:
        """Where ``loc`` is, in the words of a sentence: ``line 54``."""
        return f"line {self.line_of(loc)}"


# Characters that some programs count as a line break and others do not: YAML 1.1
# (PyYAML) and Python's str.splitlines() break lines at them, editors and YAML 1.2 do not,
# so every line number after one would be off. They have no use in these files.
LINE_SEPARATORS = {"\u2028": "U+2028 LINE SEPARATOR", "\u2029": "U+2029 PARAGRAPH SEPARATOR",
                   "\x85": "U+0085 NEXT LINE"}
_SEPARATOR_RE = re.compile("[\u2028\u2029\x85]")


def decode_text(data: bytes, shown: str) -> str:
    """UTF-8 text of a file's bytes (a leading byte-order mark dropped), or one clear line:
    not UTF-8, or holding a character that would make line numbers disagree."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableInput(
            [f"{shown}: not UTF-8 text (byte {exc.start}); save the file as UTF-8 text"]
        ) from None
    text = text.removeprefix("\ufeff")
    refuse_line_separators(text, shown)
    return text


def refuse_line_separators(text: str, shown: str) -> None:
    """:class:`UnreadableInput` naming the line of the first character of
    :data:`LINE_SEPARATORS` in ``text``, if there is one."""
    found = _SEPARATOR_RE.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise UnreadableInput([
            f"{shown}:{line}: holds the invisible character {LINE_SEPARATORS[found.group()]}, "
            "which some programs take for a line break and others do not (so line numbers "
            "would disagree); delete it"])


def read_text(path: Path, what: str, max_bytes: int = MAX_DEFINITION_BYTES,
              folder: Path | None = None) -> str:
    """Read a file's UTF-8 text through :func:`read_bytes_safely`; every problem becomes an
    :class:`UnreadableInput` with one line."""
    data = read_bytes_safely(path, what, max_bytes, folder)
    return decode_text(data, display_path(path))


def parse_yaml(text: str, path: Path, what: str) -> Document:
    """Parse YAML text into a :class:`Document`; syntax errors name their line."""
    shown = display_path(path)
    refuse_line_separators(text, shown)
    if not text.strip() or all(
        not ln.strip() or ln.lstrip().startswith("#") for ln in text.split("\n")
    ):
        raise UnreadableInput([f"{shown}:1: the file is empty; expected {what}"])
    try:
        node = yaml.compose(text, Loader=SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        tab = _tab_at(text, mark, exc.problem or "")
        if tab is not None:
            raise UnreadableInput([
                f"{shown}:{line}:{tab + 1}: a tab character; YAML indents with spaces only "
                "(replace the tab with spaces)"]) from None
        problem = exc.problem or exc.context or "not valid YAML"
        raise UnreadableInput([f"{shown}:{line}: YAML syntax error: {problem}"]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else 1
        code = exc.character if isinstance(exc.character, int) else 0
        raise UnreadableInput([f"{shown}:{line}: YAML syntax error: the character U+{code:04X} "
                               "is not allowed in YAML (a control character); delete it"]) from None
    except yaml.YAMLError as exc:
        first = str(exc).split("\n", 1)[0]
        raise UnreadableInput([f"{shown}: YAML syntax error: {first}"]) from None
    except RecursionError:
        raise UnreadableInput([f"{shown}: the YAML is nested too deeply to be {what}"]) from None
    if node is None:
        raise UnreadableInput([f"{shown}:1: the file is empty; expected {what}"])
    doc = Document(path=path, display=shown, data=None)
    problems: list[str] = []
    try:
        doc.data = _construct(node, (), doc, problems, set())
    except RecursionError:
        raise UnreadableInput([f"{shown}: the YAML is nested too deeply to be {what}"]) from None
    if problems:
        raise DefinitionError(problems)
    return doc


def _tab_at(text: str, mark: Any, problem: str) -> int | None:
    """The column (0-based) of the tab a YAML syntax error stopped at, or None: PyYAML says
    "found character that cannot start any token" or "a tab character that violates
    indentation", pointing at it."""
    if mark is None:
        return None
    lines = text.split("\n")
    if not 0 <= mark.line < len(lines):
        return None
    row = lines[mark.line]
    if mark.column < len(row) and row[mark.column] == "\t":
        return int(mark.column)
    if "tab" in problem and "\t" in row:
        return row.index("\t")
    return None


def load_yaml(path: Path, what: str, max_bytes: int = MAX_DEFINITION_BYTES) -> Document:
    """Read (at most ``max_bytes``) and parse one YAML file."""
    return parse_yaml(read_text(path, what, max_bytes), path, what)


# --- turning YAML nodes into data --------------------------------------------------------
#
# Only plain YAML is accepted: text, numbers, true/false, null, lists and mappings. YAML
# 1.1 (PyYAML) and YAML 1.2 (the editors' YAML language server) read some plain words
# differently: ``no`` is false to one and text to the other, ``010`` is 8 to one and 10 to
# the other, ``2001-02-03`` a date or text, ``1_000`` a number or text. Such a value is read
# as :class:`Ambiguous` text: where text is expected (an ID, a name) it is that text,
# whatever it looks like; where a number or true/false is expected it is refused with
# the reason (see :func:`validate`, and the scorers' own readers). ``.inf``, ``.nan``,
# numbers too long to be real, explicit tags (``!!binary``, ``!!python/...``) and merge
# keys (``<<``) are refused where they stand, with their line.

MAX_NUMBER_DIGITS = 30  # longer numbers are no real value (Python refuses ints > 4,300 digits)


class Ambiguous(str):
    """Text that YAML readers disagree about; ``why`` says how (for messages)."""

    why: str

    def __new__(cls, value: str, why: str = "") -> Ambiguous:
        obj = super().__new__(cls, value)
        obj.why = why
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ambiguous, (str(self), self.why))


class _Refused(Exception):
    """A scalar that is no plain value; the message says why."""


_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NULL_TAG = "tag:yaml.org,2002:null"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"

_DECIMAL_RE = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_HEX_RE = re.compile(r"[-+]?0x[0-9a-fA-F]+")
_OCTAL_RE = re.compile(r"[-+]?0[0-7]+")
_FLOAT_RE = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?")
_INF_NAN_RE = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}")
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")
_NULLS = ("", "~", "null", "Null", "NULL")


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:30] + "…"


def _tag_name(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("+-"))
    if digits > MAX_NUMBER_DIGITS:
        raise _Refused(f"a number of {digits} digits ({_short(text)}) is no real value here; "
                       f"numbers have at most {MAX_NUMBER_DIGITS} digits")
    return int(text, 16 if "x" in text else 10)


def _scalar(tag: str, text: str) -> Any:
    """The value of one scalar of ``tag``, an :class:`Ambiguous` text, or :class:`_Refused`."""
    if tag == _STR_TAG or tag == _VALUE_TAG:
        return text
    if tag == _INT_TAG:
        if _DECIMAL_RE.fullmatch(text) or _HEX_RE.fullmatch(text):
            return _whole_number(text)
        plain = text.replace("_", "")
        if _OCTAL_RE.fullmatch(plain):
            sign = "-" if plain.startswith("-") else ""
            ten = sign + (plain.lstrip("+-").lstrip("0") or "0")
            eight = (str(int(plain, 8)) if len(plain) <= MAX_NUMBER_DIGITS else "?")
            if eight == ten:
                why = (f"{text} is the number {ten} to YAML readers, so a leading zero is lost; "
                       f"write {ten} for the number, or '{text}' in quotes for text")
            else:
                why = (f"{text} starts with a zero, so YAML 1.1 readers (PyYAML) take it for "
                       f"the octal number {eight} and YAML 1.2 readers (editors) for {ten}; "
                       f"write {ten}, or '{text}' in quotes for text")
            return Ambiguous(text, why)
        if re.fullmatch(r"[-+]?[0-9][0-9_]*", text) or re.fullmatch(r"[-+]?0b[01_]+", text) \
                or re.fullmatch(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+", text):
            return Ambiguous(text, (
                f"{text} is a number to YAML 1.1 readers (PyYAML) and text to YAML 1.2 readers "
                f"(editors); write the number in plain digits, or '{text}' in quotes for text"))
        raise _Refused(f"!!int {_short(text)}: {_short(text)!r} is not a whole number")
    if tag == _FLOAT_TAG:
        if _INF_NAN_RE.fullmatch(text):
            raise _Refused(f"{text} is not a finite number; write an ordinary number "
                           f"(e.g. 12 or 0.5)")
        if _FLOAT_RE.fullmatch(text):
            if len(text) > MAX_NUMBER_DIGITS + 10:
                raise _Refused(f"{_short(text)} is far too long to be a real value here")
            value = float(text)
            if not math.isfinite(value):
                raise _Refused(f"{text} is too large to be a number here")
            return value
        if re.fullmatch(r"[-+]?[0-9._:]+(?:[eE][-+][0-9]+)?", text) and any(
                c.isdigit() for c in text):
            return Ambiguous(text, (
                f"{text} is a number to YAML 1.1 readers (PyYAML) and text to YAML 1.2 readers "
                f"(editors); write the number in plain digits, or '{text}' in quotes for text"))
        raise _Refused(f"!!float {_short(text)}: {_short(text)!r} is not a number")
    if tag == _BOOL_TAG:
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        if text.lower() in ("yes", "no", "on", "off"):
            meaning = "true" if text.lower() in ("yes", "on") else "false"
            return Ambiguous(text, (
                f"{text} means {meaning} to YAML 1.1 readers (PyYAML) and is text to YAML 1.2 "
                f"readers (editors); write {meaning} for true/false, or '{text}' in quotes for "
                "text"))
        raise _Refused(f"!!bool {_short(text)}: {_short(text)!r} is not true or false")
    if tag == _NULL_TAG:
        if text in _NULLS:
            return None
        raise _Refused(f"!!null {_short(text)}: {_short(text)!r} is not null")
    if tag == _TIMESTAMP_TAG:
        if not _DATE_RE.match(text):
            raise _Refused(f"!!timestamp {_short(text)}: {_short(text)!r} is not a date")
        return Ambiguous(text, (
            f"{text} is a date to YAML 1.1 readers (PyYAML) and text to YAML 1.2 readers "
            f"(editors); write '{text}' in quotes for text"))
    if tag == _MERGE_TAG:
        raise _Refused("merge keys (<<) are not accepted; write the fields out")
    if tag == "!":
        return text
    raise _Refused(f"the YAML tag {_tag_name(tag)} is not accepted here; write plain text, "
                   "numbers, true or false, lists and mappings")


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
        if node.tag != _MAP_TAG:
            problems.append(f"{doc.display}:{node.start_mark.line + 1}: {_loc_text(loc)}: "
                            f"the YAML tag {_tag_name(node.tag)} is not accepted here; write a "
                            "plain mapping")
            return None
        result: dict[Any, Any] = {}
        pairs = node.value
        for index, (key_node, value_node) in enumerate(pairs):
            pairs[index] = None
            key = _construct_key(key_node, loc, doc, problems)
            if key is _NO_KEY:
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
        if node.tag != _SEQ_TAG:
            problems.append(f"{doc.display}:{node.start_mark.line + 1}: {_loc_text(loc)}: "
                            f"the YAML tag {_tag_name(node.tag)} is not accepted here; write a "
                            "plain list")
            return None
        items = []
        children = node.value
        for i, item in enumerate(children):
            children[i] = None
            sub = (*loc, i)
            doc.lines[sub] = item.start_mark.line + 1
            items.append(_construct(item, sub, doc, problems, seen))
        return items
    tag = node.tag
    if tag == _STR_TAG:  # the common case first, without a call
        return node.value
    text = node.value
    if tag == _INT_TAG and len(text) < 10 and _DECIMAL_RE.fullmatch(text):
        return int(text)
    try:
        return _scalar(tag, text)
    except _Refused as exc:
        problems.append(f"{doc.display}:{node.start_mark.line + 1}: {_loc_text(loc)}: {exc}")
        return None


_NO_KEY = object()


def _construct_key(node: yaml.Node, loc: Loc, doc: Document, problems: list[str]) -> Any:
    """A mapping key: text or a whole number; anything else is one problem."""
    where = f"{doc.display}:{node.start_mark.line + 1}"
    if not isinstance(node, yaml.ScalarNode):
        kind = "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"
        problems.append(f"{where}: {_loc_text(loc)}: a key must be a plain name, not {kind}")
        return _NO_KEY
    try:
        key = _scalar(node.tag, node.value)
    except _Refused as exc:
        problems.append(f"{where}: {_loc_text(loc)}: {exc}")
        return _NO_KEY
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        shown = "null" if key is None else repr(node.value)
        problems.append(f"{where}: {_loc_text(loc)}: a key must be a plain name, not {shown}")
        return _NO_KEY
    return key


def _loc_text(loc: Iterable[str | int]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + _key_text(part)
    return out or "(top level)"


def _key_text(key: object) -> str:
    """A key as a message shows it: on one line, control characters escaped."""
    text = str(key)
    return text if text.isprintable() else repr(text)[1:-1]


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
            name = (f"{label} {_key_text(ident)}" if ident is not None
                    else f"{label} #{loc[1] + 1}")
            return name, loc[2:]
    return "", loc


def format_problem(doc: Document, loc: Loc, message: str) -> str:
    """One problem line: ``FILE:LINE: [item: ][field: ]message``."""
    name, rest = _item_name(doc.data, loc)
    parts = [doc.where(loc)]
    if name:
        parts.append(name)
    field_text = ".".join(_key_text(p) for p in rest if isinstance(p, str))
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
        from cards.spelling import did_you_mean

        parent = loc[:-1]
        allowed = _allowed_fields(doc, parent)
        hint = f" (known fields: {', '.join(allowed)})" if allowed else ""
        return loc, (f"unknown field {loc[-1]!r}{hint}"
                     f"{did_you_mean(str(loc[-1]), allowed, quote=True)}")
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
        problems: list[str] = []
        doc.data = _fit_scalars(doc.data, model, (), doc, problems)
        if problems:
            raise DefinitionError(problems)
        return model.model_validate(doc.data)  # type: ignore[attr-defined,no-any-return]
    except ValidationError as exc:
        lines = []
        for err in exc.errors(include_url=False):
            loc, text = _message(dict(err), doc)
            lines.append(format_problem(doc, loc, text))
        raise DefinitionError(_unique(lines)) from None
    finally:
        _MODEL_AT.pop(id(doc), None)


# --- scalars against the field they fill ----------------------------------------------------
#
# A field that holds text (an ID, a name, a colour) takes a plain scalar as the text it is
# written as: ``id: 07`` is "07", ``name: no`` is "no", ``name: 2024`` is "2024". A field that
# holds a number or true/false refuses a value YAML readers disagree about (an
# :class:`Ambiguous` one) with the reason, and any value that is not a finite number.

_TEXT, _NUMBER, _OTHER = "text", "number", "other"


_KINDS_OF: dict[int, tuple[Any, frozenset[str]]] = {}


def _kinds(annotation: Any) -> frozenset[str]:
    """What a field's annotation accepts at a scalar: text, numbers (incl. true/false)."""
    known = _KINDS_OF.get(id(annotation))
    if known is not None and known[0] is annotation:
        return known[1]
    found = frozenset(_kinds_of(annotation))
    _KINDS_OF[id(annotation)] = (annotation, found)
    return found


def _kinds_of(annotation: Any) -> set[str]:
    import types
    from typing import Annotated, Literal, Union, get_args, get_origin

    origin = get_origin(annotation)
    if origin is Annotated:
        return _kinds_of(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        found: set[str] = set()
        for arg in get_args(annotation):
            if arg is not type(None):
                found |= _kinds_of(arg)
        return found
    if origin is Literal:
        return {_TEXT if isinstance(a, str) else _NUMBER for a in get_args(annotation)}
    if annotation is str:
        return {_TEXT}
    if annotation in (int, float, bool):
        return {_NUMBER}
    return {_OTHER}


def _fit_scalars(data: Any, model: Any, loc: Loc, doc: Document,
                 problems: list[str]) -> Any:
    """``data`` with each scalar made what its field in ``model`` expects (see above);
    problems are added to ``problems``."""
    import types
    from typing import Annotated, Union, get_args, get_origin

    from pydantic import BaseModel

    def is_model(annotation: Any) -> bool:
        return isinstance(annotation, type) and issubclass(annotation, BaseModel)

    def fit(data: Any, annotation: Any, loc: Loc) -> Any:
        origin = get_origin(annotation)
        while origin is Annotated:
            annotation = get_args(annotation)[0]
            origin = get_origin(annotation)
        union = origin is Union or origin is types.UnionType
        if isinstance(data, dict):
            if is_model(annotation):
                fields = annotation.model_fields
                return {key: (fit(value, fields[key].annotation, (*loc, key))
                              if key in fields else value) for key, value in data.items()}
            if origin is dict:
                key_type, value_type = get_args(annotation)
                text_keys = _kinds(key_type) == {_TEXT}
                return {(str(key) if text_keys and isinstance(key, int) else key):
                        fit(value, value_type, (*loc, key)) for key, value in data.items()}
            if union:
                models = [a for a in get_args(annotation) if is_model(a)]
                if len(models) == 1:
                    return fit(data, models[0], loc)
            return data
        if isinstance(data, list):
            if origin in (list, tuple, set, frozenset):
                args = [a for a in get_args(annotation) if a is not Ellipsis]
                if len(args) == 1:
                    return [fit(v, args[0], (*loc, i)) for i, v in enumerate(data)]
            if union:
                lists = [a for a in get_args(annotation) if get_origin(a) is list]
                if len(lists) == 1:
                    return fit(data, lists[0], loc)
            return data
        return _fit_scalar(data, _kinds(annotation), loc, doc, problems)

    return fit(data, model, loc)


def _fit_scalar(data: Any, kinds: frozenset[str], loc: Loc, doc: Document,
                problems: list[str]) -> Any:
    if kinds == {_TEXT}:
        if type(data) is str:
            return data
        if isinstance(data, Ambiguous):
            return str(data)
        if isinstance(data, bool):
            return "true" if data else "false"
        if isinstance(data, int | float):
            return str(data)
        return data
    if _NUMBER in kinds and _TEXT not in kinds and isinstance(data, str):
        if isinstance(data, Ambiguous):
            problems.append(format_problem(doc, loc, data.why))
            return data
        try:
            number = float(data)
        except ValueError:
            return data
        if not math.isfinite(number):
            problems.append(format_problem(
                doc, loc, f"{data!r} is not a finite number; write an ordinary number "
                "(e.g. 12 or 0.5)"))
    return data


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

"""Change the values of a YAML file and keep everything else of it, byte for byte.

:func:`patch` takes a file's text, the data it holds and the data it should hold, and
rewrites only what differs: a changed value in place (its quotes, the comment after it and
the spacing around it stay), a new key after its last sibling, a removed list item or key
with its lines, a new list item in the style of its neighbours. Data that is the same
gives back the very same text. What is written for a new value goes through
:func:`cards.yaml_out.flow`, so it reads back as the value.

Values are compared as a reader would take them: ``50`` and ``50.0`` are the same number,
the text ``'123'`` and the number 123 are the same cell of a spreadsheet (the field decides
what it is when the file is read), so neither is rewritten.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

import yaml

from cards.yaml_out import flow


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    text: str


def same(old: Any, new: Any) -> bool:
    """Whether ``new`` says what ``old`` says, as a definitions field reads it."""
    if isinstance(old, dict) and isinstance(new, dict):
        return old.keys() == new.keys() and all(same(old[k], new[k]) for k in old)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(same(a, b) for a, b in zip(old, new, strict=True))
    if isinstance(old, dict | list) or isinstance(new, dict | list):
        return False
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new or _text(old) == _text(new)
    if old == new and type(old) in (int, float) and type(new) in (int, float):
        return True
    return _text(old) == _text(new)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class _Patcher:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)
        self.edits: list[_Edit] = []

    # positions ---------------------------------------------------------------------------

    def pos(self, mark: yaml.Mark) -> int:
        line = min(mark.line, len(self.starts) - 1)
        return self.starts[line] + mark.column

    def line_start(self, line: int) -> int:
        return self.starts[line] if line < len(self.starts) else len(self.text)

    def end_of(self, node: yaml.Node) -> int:
        """Where ``node`` really ends: its last character of content (a block collection's
        end mark lies at the start of what follows, after any comments)."""
        if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
            return self.end_of(node.value[-1][1])
        if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
            return self.end_of(node.value[-1])
        return self.pos(node.end_mark)

    def line_of(self, index: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def lines_span(self, start: int, end: int) -> tuple[int, int]:
        """From the start of ``start``'s line to past the end of ``end``'s line."""
        first = self.line_of(start)
        last = self.line_of(max(start, end - 1))
        return self.line_start(first), self.line_start(last + 1)

    def indent_of(self, index: int) -> str:
        start = self.line_start(self.line_of(index))
        return self.text[start:index] if self.text[start:index].strip() == "" else \
            " " * (index - start)

    # edits -------------------------------------------------------------------------------

    def replace(self, start: int, end: int, text: str) -> None:
        self.edits.append(_Edit(start, end, text))

    def result(self) -> str:
        out = self.text
        for edit in sorted(self.edits, key=lambda e: (e.start, e.end), reverse=True):
            out = out[:edit.start] + edit.text + out[edit.end:]
        return out

    # walking -----------------------------------------------------------------------------

    def patch(self, node: yaml.Node, old: Any, new: Any) -> None:
        if same(old, new):
            return
        if isinstance(node, yaml.ScalarNode) and not isinstance(new, dict | list):
            self.replace(self.pos(node.start_mark), self.pos(node.end_mark),
                         scalar_text(new, node.style))
        elif isinstance(node, yaml.MappingNode) and isinstance(new, dict) \
                and isinstance(old, dict):
            if node.flow_style:
                self.flow_mapping(node, old, new)
            else:
                self.block_mapping(node, old, new)
        elif isinstance(node, yaml.SequenceNode) and isinstance(new, list) \
                and isinstance(old, list):
            if node.flow_style and len(old) == len(new) == len(node.value):
                for item, a, b in zip(node.value, old, new, strict=True):
                    self.patch(item, a, b)  # item by item: quotes and spacing stay
            elif node.flow_style or not node.value:
                self.replace(self.pos(node.start_mark), self.pos(node.end_mark), flow(new))
            else:
                self.block_sequence(node, old, new)
        else:  # another kind of value: write it anew, on one line
            self.replace(self.pos(node.start_mark), self.end_of(node), flow(new))

    def flow_mapping(self, node: yaml.MappingNode, old: dict[Any, Any],
                     new: dict[Any, Any]) -> None:
        if list(old) != [k for k in new if k in old] or set(new) != set(old):
            ordered = {k: new[k] for k in old if k in new} | {k: v for k, v in new.items()
                                                              if k not in old}
            self.replace(self.pos(node.start_mark), self.pos(node.end_mark), flow(ordered))
            return
        for key_node, value_node in node.value:
            key = _key(key_node)
            self.patch(value_node, old[key], new[key])

    def block_mapping(self, node: yaml.MappingNode, old: dict[Any, Any],
                      new: dict[Any, Any]) -> None:
        last_end = None
        indent = None
        for key_node, value_node in node.value:
            key = _key(key_node)
            start = self.pos(key_node.start_mark)
            indent = self.indent_of(start)
            end = self.end_of(value_node)
            last_end = end
            if key not in new:
                first, past = self.lines_span(start, end)
                self.replace(first, past, "")
            else:
                self.patch(value_node, old.get(key), new[key])
        added = [k for k in new if k not in old]
        if added and last_end is not None:
            at = self.lines_span(last_end, last_end)[1]
            text = "".join(block_pair(k, new[k], indent or "") for k in added)
            if at > 0 and not self.text[:at].endswith("\n"):
                text = "\n" + text
            self.replace(at, at, text)

    def block_sequence(self, node: yaml.SequenceNode, old: list[Any], new: list[Any]) -> None:
        items = node.value
        matcher = difflib.SequenceMatcher(a=[_identity(v) for v in old],
                                          b=[_identity(v) for v in new], autojunk=False)
        first_start = self.pos(items[0].start_mark)
        dash_indent = self.indent_of(first_start)
        dash_indent = dash_indent[:-2] if dash_indent.endswith("- ") else \
            self.text[self.line_start(self.line_of(first_start)):first_start].split("-")[0]
        style_node = items[0]
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal" or (op == "replace" and a1 - a0 == b1 - b0):
                for i, j in zip(range(a0, a1), range(b0, b1), strict=True):
                    self.patch(items[i], old[i], new[j])
                continue
            if op in ("delete", "replace"):
                for i in range(a0, a1):
                    first, past = self.lines_span(self.pos(items[i].start_mark),
                                                  self.end_of(items[i]))
                    self.replace(first, past, "")
            if op in ("insert", "replace"):
                if a0 > 0:
                    at = self.lines_span(self.end_of(items[a0 - 1]),
                                         self.end_of(items[a0 - 1]))[1]
                else:
                    at = self.lines_span(first_start, first_start)[0]
                text = "".join(list_item(v, dash_indent, style_node) for v in new[b0:b1])
                if at > 0 and not self.text[:at].endswith("\n"):
                    text = "\n" + text
                self.replace(at, at, text)


def _key(node: yaml.Node) -> Any:
    """A mapping key as the definitions' loader reads it (plain text or a whole number)."""
    from cards.loader import _Refused, _scalar

    if not isinstance(node, yaml.ScalarNode):
        return None
    try:
        return _scalar(node.tag, node.value)
    except _Refused:
        return node.value


def _identity(value: Any) -> str:
    """How list items are matched: by ``id`` where they have one, else by their content."""
    if isinstance(value, dict) and "id" in value and not isinstance(value["id"], dict | list):
        return "id:" + _text(value["id"])
    return json.dumps(value, sort_keys=True, default=str)


def scalar_text(value: Any, style: str | None) -> str:
    """A new value where an old one stood: in the old one's quotes if it was quoted text."""
    if isinstance(value, str) and style in ("'", '"'):
        dumped = yaml.dump(value, default_style=style, allow_unicode=True,
                           width=float("inf"))
        return dumped.strip().removesuffix("...").strip()
    return flow(value)


def block_pair(key: Any, value: Any, indent: str) -> str:
    return f"{indent}{flow(key)}: {flow(value)}\n"


def list_item(value: Any, dash_indent: str, neighbour: yaml.Node) -> str:
    """A new list item, in the style of an item beside it (a flow mapping on one line, or a
    block mapping)."""
    if isinstance(value, dict) and isinstance(neighbour, yaml.MappingNode) \
            and not neighbour.flow_style:
        lines = [f"{flow(k)}: {flow(v)}" for k, v in value.items()]
        inner = dash_indent + "  "
        return dash_indent + "- " + ("\n" + inner).join(lines) + "\n"
    return f"{dash_indent}- {flow(value)}\n"


def patch(text: str, old: Any, new: Any) -> str:
    """``text`` (a YAML file holding ``old``) changed to hold ``new``; the same text when
    ``new`` is the same as ``old``."""
    if same(old, new):
        return text
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if node is None:
        return dump(new)
    patcher = _Patcher(text)
    patcher.patch(node, old, new)
    return patcher.result()


def dump(data: dict[str, Any], header: str = "") -> str:
    """A new file holding ``data``: nested mappings as blocks, lists of mappings one flow
    mapping per line (as the shipped files are written), other values on one line."""
    lines = [header.rstrip("\n")] if header else []

    def emit(mapping: dict[str, Any], indent: str) -> None:
        for key, value in mapping.items():
            if isinstance(value, dict) and value:
                lines.append(f"{indent}{flow(key)}:")
                emit(value, indent + "  ")
            elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                lines.append(f"{indent}{flow(key)}:")
                lines.extend(f"{indent}  - {flow(v)}" for v in value)
            else:
                lines.append(f"{indent}{flow(key)}: {flow(value)}")

    emit(data, "")
    return "\n".join(lines) + "\n"

"""A broken rule found on a table: which rule, where on the table, and a plain sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Violation:
    """One broken rule: which rule, where on the table, and a plain sentence."""

    rule: str
    cell: Any
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "cell": self.cell, "message": self.message}

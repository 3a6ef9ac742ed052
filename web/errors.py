"""The one kind of error the server answers with: an HTTP status and clear sentences."""

from __future__ import annotations

from collections.abc import Sequence


class WebError(Exception):
    """A request the server refuses: ``status`` (4xx) and one sentence per problem."""

    def __init__(self, status: int, problems: str | Sequence[str]) -> None:
        lines = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(lines))
        self.status = status
        self.problems = lines

    def to_json(self) -> dict[str, object]:
        return {"error": self.problems[0] if len(self.problems) == 1 else
                f"{len(self.problems)} problems", "problems": self.problems,
                "status": self.status}

    def __reduce__(self) -> tuple[type[WebError], tuple[int, list[str]]]:
        """Pickled as its status and sentences (a refusal made in a worker process)."""
        return (WebError, (self.status, self.problems))

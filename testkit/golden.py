"""Moments of the golden game records (``tests/fixtures/records/``) that tests and tools
replay in a live game, so that no search through random games can come up empty: when a
rules change moves the moment, the record's playthrough shows what changed and this
says which record no longer gets there."""

from __future__ import annotations

from pathlib import Path

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "records"
# a whole random game dealt from seed 27: red has every satellite connected first, and blue
# makes its grace moves
GRACE_RECORD = RECORDS / "satellites" / "random_game_seed27.yaml"


def moves_to_grace(path: Path = GRACE_RECORD) -> tuple[int, list[str]]:
    """The seed of a Satellites record dealt from a seed, and its moves (as written) up to
    the one after which a player has every satellite connected and the other's grace
    moves begin (S-39). ``ValueError`` naming the record if it never gets there."""
    from records.record import read_record, replay

    shown = f"{path.parent.name}/{path.name}"
    record = read_record(path, shown)
    seed = record.data.get("seed")
    if record.game != "satellites" or not isinstance(seed, int):
        raise ValueError(f"{shown}: not a Satellites record dealt from a seed")
    replayed = replay(record)
    for k, step in enumerate(replayed.history):
        state = step.state
        if state.finished is not None and state.ended is None:
            return seed, [s.text for s in replayed.history[:k + 1]]
    raise ValueError(f"{shown}: no player has every satellite connected before the game ends "
                     f"({replayed.message}); read its playthrough for what changed")

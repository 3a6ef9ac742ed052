"""Rules engines for both games: start positions, legal moves, and replaying game records.

Modules:

* :mod:`.satellites_setup` - ``pnp-setup satellites``: the start position the rules
  core (:mod:`rules.satellites`) deals from the definitions in ``cards/`` and a seed;
* :mod:`.satellites_replay` - a Satellites game record replayed move by move with the
  rules core;
* :mod:`.records` - the game-record file (YAML) common to both games, and the
  dispatch to a game by its ``game:`` key;
* :mod:`.setup_cli`, :mod:`.replay_cli` - the ``pnp-setup`` and ``pnp-replay``
  commands.

A game plugs into the two commands with two modules, imported only when that
game is asked for:

* ``scorer.engine.<game>_setup`` with ``run(args: list[str], prog: str) -> int``
  (``pnp-setup <game> ...``; returns the exit code, never raises);
* ``scorer.engine.<game>_replay`` with ``FIELDS`` (the record's top-level keys
  the game accepts besides ``game``, ``players``, ``moves`` and ``note``) and
  ``replay(record: Record, cards: Path | None, until: int | None) -> Replay`` (see
  :mod:`.records`; ``until``: replay only that many moves): it raises
  :class:`~.records.RecordError` for a record that cannot be replayed at all
  (exit 2) and returns a :class:`~.records.Replay` otherwise, which either ran to
  the end of the record or stopped at the first illegal move.
"""

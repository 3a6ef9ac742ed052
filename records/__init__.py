"""Game records of both games: dealing a start position (``pnp setup``), the record
file, and replaying a record move by move (``pnp replay``). The rules themselves are the
rules core's (:mod:`rules`); this package reads and writes what players keep of a game.

Modules:

* :mod:`.orbitus_setup`, :mod:`.satellites_setup` - ``pnp setup <game>``: the start
  position the rules core deals from the definitions in ``cards/`` and a seed;
* :mod:`.orbitus_replay`, :mod:`.satellites_replay` - a record replayed move by move with
  the rules core;
* :mod:`.record` - the game-record file (YAML) common to both games, and the
  dispatch to a game by its ``game:`` key;
* :mod:`.playthrough` - a replayed record as text after every move (the golden
  playthroughs);
* :mod:`.setup_cli`, :mod:`.replay_cli` - the ``pnp setup`` and ``pnp replay``
  commands.

A game plugs into the two commands with two modules, imported only when that
game is asked for:

* ``records.<game>_setup`` with ``run(args: list[str], prog: str) -> int``
  (``pnp-setup <game> ...``; returns the exit code, never raises);
* ``records.<game>_replay`` with ``FIELDS`` (the record's top-level keys
  the game accepts besides ``game``, ``players``, ``moves`` and ``note``) and
  ``replay(record: Record, cards: Path | None, until: int | None) -> Replay`` (see
  :mod:`.record`; ``until``: replay only that many moves): it raises
  :class:`~.record.RecordError` for a record that cannot be replayed at all
  (exit 2) and returns a :class:`~.record.Replay` otherwise, which either ran to
  the end of the record or stopped at the first illegal move.
"""

"""The Satellites scorer: read a transcribed board, score it, report it (``pnp-score satellites``).

Modules: :mod:`.board` reads the input, :mod:`.score` hands it to the rules core's
scoring (:mod:`rules.satellites.score`, pure), :mod:`.report` renders the summary and
JSON, :mod:`.picture` the SVG/PNG, :mod:`.cli` is the command.
"""

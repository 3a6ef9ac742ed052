"""The ``pnp`` command: one front door to every tool of the project (:mod:`pnp.cli`)."""

from pnp.cli import entry

entry()

"""Iterating on a design: ``pnp diff`` between versions, the reprint of what changed, the
playtest log and its report beside the simulator, and the spreadsheet commands."""

"""Scorers for finished games: ``pnp-score orbitus`` and ``pnp-score satellites``."""

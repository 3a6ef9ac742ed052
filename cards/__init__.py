"""Component definitions (YAML) and the Python that loads and validates them."""

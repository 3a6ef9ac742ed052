"""The two files every preset build writes beside the vendor's: what it holds and the preset
it follows (kept apart so the preflight reads them without the renderers)."""

MANIFEST = "manifest.csv"
PRESET_COPY = "preset.yaml"
MANIFEST_FIELDS = ("file", "page", "component", "name", "copies", "side", "product")

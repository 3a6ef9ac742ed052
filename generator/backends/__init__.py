"""Backends that render a :class:`generator.drawing.Drawing`: PDF, SVG and PNG."""

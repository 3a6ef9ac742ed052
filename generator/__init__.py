"""Turns the definitions in ``cards/`` into printable PDFs and SVG files."""

"""Opt-in exports, registered as build steps of each game: PNG images and Tabletop Simulator.

Both rasterise, which costs far more than the PDFs and SVGs (see docs/benchmarks.md),
so a plain ``pnp-build`` leaves them out: ``--png`` / ``--dpi`` and
``--tts`` ask for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.options import BuildOptions, Step


def export_steps(game: str, defs: Any, opts: BuildOptions) -> list[Step]:
    from generator.products import product

    title = product(game).TITLE
    steps: list[Step] = []
    if opts.png_dpi is not None:
        dpi = opts.png_dpi

        def png() -> dict[str, bytes]:
            from cards.labels import load_labels
            from generator.export_png import component_pngs

            return component_pngs(game, defs, dpi, load_labels(defs.folder, game, opts.lang))

        steps.append((f"{title} PNG", png))
    if opts.tts:
        if opts.out_root is None and opts.tts_base_url is None:
            raise ValueError("the Tabletop Simulator export needs the absolute output folder "
                             "(BuildOptions.out_root)")
        root: Any = opts.tts_base_url or opts.out_root

        def tts() -> dict[str, bytes]:
            from cards.labels import load_labels

            files: dict[str, bytes] = product(game).tts_files(
                defs, root, load_labels(defs.folder, game, opts.lang), opts.lang)
            return files

        steps.append((f"{title} TTS", tts))
    return steps

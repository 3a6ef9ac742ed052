"""Kits for tests, benchmarks and tools, not shipped in the wheel: synthetic photos and
their evaluation (:mod:`testkit.photo_synth`, :mod:`testkit.photo_evaluate`), the random
Orbitus table grower (:mod:`testkit.grow`), the readers' fuzzer (:mod:`testkit.fuzzing`)
and the searches for random games that reach a given moment (:mod:`testkit.searches`).

Nothing of the product imports it (a test over the imports checks that).
"""

"""Kits for tests, benchmarks and tools, not shipped in the wheel: synthetic photos and
their evaluation (:mod:`testkit.photo_synth`, :mod:`testkit.photo_evaluate`), the random
Orbitus table grower (:mod:`testkit.grow`), the readers' fuzzer (:mod:`testkit.fuzzing`),
the photos of golden tables the tests and pictures share (:mod:`testkit.photo_examples`)
and moments of the golden game records replayed in live games (:mod:`testkit.golden`).

Nothing of the product imports it (a test over the imports checks that).
"""

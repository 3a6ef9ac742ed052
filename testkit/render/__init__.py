"""Physically rendered photos of finished tables (Blender Cycles): the photo readers' harder
test and benchmark data (:mod:`testkit.render.shoot`)."""

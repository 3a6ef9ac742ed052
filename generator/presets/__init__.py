"""Print-shop and virtual-table builds from a preset (``pnp build --preset NAME``): the
pieces of each game (:mod:`.pieces`), how each lies on a vendor's product (:mod:`.place`),
the files of each format (:mod:`.build`), the words' boxes an image carries for the
preflight (:mod:`.textboxes`) and the virtual-table kits (:mod:`.virtual`)."""

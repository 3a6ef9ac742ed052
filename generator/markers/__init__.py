"""The marker plan of the printed kit, standard library only: the ArUco 4 x 4 codes
(:mod:`generator.markers.codes`) and which marker is printed on which component, where
(:mod:`generator.markers.plan`, written by every build as ``<game>/markers.json``).

The printables draw the markers from this plan (:mod:`generator.components.markers`), and
the photo reader (:mod:`photo`) reads a photo against the plan a build wrote; neither
needs the other.
"""

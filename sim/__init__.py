"""``pnp-sim``: plays thousands of games between bots over the rules core and tells a
designer what a rule or deck change did (win rate per seat, the first-player advantage,
score components, game length, actions, cards).

Modules that run inside worker processes (and on Ray nodes) import only the standard
library and :mod:`rules`: :mod:`sim.bots`, :mod:`sim.play`, :mod:`sim.orbitus`,
:mod:`sim.satellites`. The report (:mod:`sim.summary`, :mod:`sim.report`,
:mod:`sim.plots`) and the command (:mod:`sim.cli`) run in the main process only.
"""

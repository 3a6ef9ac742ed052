"""``pnp-web``: the browser companion.

A local ASGI server (Starlette, served by uvicorn) with plain JavaScript and CSS pages in
``web/static/`` (no build step, nothing fetched from the network):

* transcribe a finished table by clicking and see ``pnp-score``'s breakdown live
  (:mod:`web.orbitus_table`, :mod:`web.satellites_board`);
* play either game in the browser, each seat a person (on their own device, through a
  seat link) or a bot of the simulator (:mod:`web.games`; what each game shows and
  accepts: :mod:`web.play_orbitus`, :mod:`web.play_satellites`);
* everything kept in SQLite (:mod:`web.store`).

The rules come from the rules core (:mod:`rules`), the scores and the texts a user
imports or exports from the scorers' readers and reports: this package decides no rule.
Nothing outside this package imports it, so ``pnp-score`` and the other commands never
load the server's dependencies (the ``[web]`` extra).
"""

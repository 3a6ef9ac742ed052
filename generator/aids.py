"""Score pads, player aids and rule booklets as build steps.

The texts are files in ``<cards>/<game>/text/``: ``rules-<lang>.md`` becomes
``output/<game>/rules-<lang>.pdf`` and ``player-aid-<lang>.md`` becomes
``output/<game>/player-aid-<lang>.pdf`` (one page). A definitions folder given
with ``--cards`` that has no ``text/`` folder of its own uses the shipped texts,
still filled with that folder's numbers. The markup is described in
:mod:`generator.typeset`; the ``{values}``, ``[table: ...]`` and
``[diagram: ...]`` names each game offers are listed below.

Each step reads, checks and typesets its own texts when it runs. A mistake in a
text raises :class:`~generator.typeset.markup.TextError` with one line per problem (file,
line, what is wrong, what would be right); ``pnp-build`` reports it and writes
nothing, ``--watch`` reports it and keeps watching. Steps read the definitions only
while they run, so ``--watch`` sees which parts each one depends on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cards.definitions import (
    DEFAULT_CARDS,
    OrbitusDefinitions,
    SatellitesDefinitions,
    inside,
)
from cards.labels import languages, load_labels, resolve
from cards.loader import DefinitionError, display_path, read_text
from cards.reading import MAX_TEXT_BYTES, UnreadableInput
from generator import aid_sizes, prose
from generator.backends.pdf import render_pdf
from generator.components import diagrams
from generator.components.orbitus import planet_disc
from generator.components.pads import orbitus_pad, satellites_pad
from generator.sheets import page_size
from generator.stamp import stamp_items
from generator.typeset.markup import (
    Art,
    DiagramFn,
    Document,
    Table,
    TableFn,
    TextError,
    data_table,
    icon_run,
    parse,
    signed,
)
from generator.typeset.pages import PageSetup, typeset
from generator.typeset.setting import Typography
from rules.hexgeo import SIDES
from rules.orbitus.ruleset import Band
from rules.satellites.table import column_name

Step = tuple[str, Callable[[], dict[str, bytes]]]
KINDS = ("rules", "player-aid")
AID_MIN_BODY = 7.0 * 25.4 / 72.0  # mm: no aid sets its text smaller than 7 pt
ART_MIN_TEXT = 6.0 * 25.4 / 72.0  # mm: a diagram's labels in an aid, 6 pt or more
AID_CARD_BODY = AID_MIN_BODY  # the aid's text on its cards: 7 pt


# --- the texts ------------------------------------------------------------------------------


def text_folder(cards: Path, game: str) -> tuple[Path, Path]:
    """(the folder holding ``game``'s texts, the folder they must stay inside)."""
    own = cards / game / "text"
    if own.is_dir():
        return own, cards
    return DEFAULT_CARDS / game / "text", DEFAULT_CARDS


def text_files(cards: Path, game: str) -> list[Path]:
    folder, _ = text_folder(cards, game)
    return sorted(p for kind in KINDS for p in folder.glob(f"{kind}-*.md"))


def load_texts(cards: Path, game: str, kind: str, values: Mapping[str, str],
               tables: Callable[[str], Mapping[str, TableFn]],
               art: Mapping[str, DiagramFn],
               langs: Sequence[str] | None = None) -> list[tuple[str, Document]]:
    """The ``kind`` texts of ``game`` parsed, as ``(file stem, document)``; every problem of
    every file raised together as one :class:`TextError`. ``tables(lang)`` gives the data
    tables in the text's language (``rules-ru.md`` is Russian); ``langs``: only these
    languages (default: every one there is)."""
    _, root = text_folder(cards, game)
    problems: list[str] = []
    unreadable = False
    docs: list[tuple[str, Document]] = []
    for path in text_files(cards, game):
        if not path.stem.startswith(kind + "-"):
            continue
        if langs is not None and path.stem[len(kind) + 1:] not in langs:
            continue
        try:
            text = read_text(inside(root, path), f"the {game} text {path.name}",
                             MAX_TEXT_BYTES, folder=root)
            lang = path.stem.rsplit("-", 1)[-1]
            docs.append((path.stem, parse(text, display_path(path), values, tables(lang), art,
                                          facts=prose.FACTS.get(game, {}))))
        except DefinitionError as exc:
            problems += exc.problems
            unreadable = unreadable or isinstance(exc, UnreadableInput)
    if problems:
        raise (UnreadableText if unreadable else TextError)(problems)
    return docs


class UnreadableText(TextError, UnreadableInput):
    """A text file that could not be read at all (a pipe, not UTF-8 ...): the definitions'
    rule for unreadable files (:func:`pnp.common.definitions_failed`: exit 2)."""


def prose_warnings(game: str, defs: OrbitusDefinitions | SatellitesDefinitions,
                   lang: str) -> list[str]:
    """Every hand-written sentence of ``game``'s booklet and aid in ``lang`` whose fact the
    definitions no longer hold (:mod:`generator.prose`), one message each naming the file,
    its line and the language. A text that cannot be read is left to the build to report."""
    def tables(lg: str) -> Mapping[str, TableFn]:
        return orbitus_tables(defs, lg) if isinstance(defs, OrbitusDefinitions) \
            else satellites_tables(defs)

    if isinstance(defs, OrbitusDefinitions):
        values, art = orbitus_values(defs), orbitus_art(defs, lang)
    else:
        values, art = satellites_values(defs), satellites_art(defs)
    out: list[str] = []
    for kind in KINDS:
        chosen = resolve(defs.folder, game, kind, lang).lang
        try:
            docs = load_texts(defs.folder, game, kind, values, tables, art, [chosen])
        except DefinitionError:
            continue
        for _, doc in docs:
            out += prose.check(game, defs, doc.source, chosen, list(doc.facts))
    return out


def _memo(fn: Callable[[], Art]) -> Callable[[], Art]:
    """Draw a diagram once per build even when several texts use it."""
    cache: list[Art] = []

    def get() -> Art:
        if not cache:
            cache.append(fn())
        return cache[0]

    return get


def _render_texts(game: str, docs: Sequence[tuple[str, Document]], kind: str, page: str,
                  typo: Typography, art: Mapping[str, DiagramFn],
                  defs: Any = None) -> dict[str, bytes]:
    size = page_size(page)
    out: dict[str, bytes] = {}
    for stem, doc in docs:
        if kind == "player-aid":
            setup = PageSetup(size, margin=12.0, top=11.0, bottom=14.0, gap=6.0)
            aid = replace(typo, body=3.8, title=2.1, rule_refs=False,  # the numbers: booklet
                          min_art_text=ART_MIN_TEXT)
            pages = typeset(doc, setup, aid, art, max_pages=1, min_body=AID_MIN_BODY,
                            max_art_fraction=0.42)
            # the same aid on half the paper, two to a sheet, and on poker-size cards
            # (generator.aid_sizes); never below 7 pt
            half = typeset(doc, aid_sizes.half_setup(size), aid, art, max_pages=2,
                           min_body=AID_MIN_BODY, max_art_fraction=0.42)
            out[f"{game}/{stem}-2up.pdf"] = render_pdf(
                [aid_sizes.two_up(half, size, doc.meta.get("fold", ""))], doc.title,
                "player aid, 2-up")
            card = replace(aid, body=AID_CARD_BODY, title=1.6)
            numbered = replace(doc, meta={**doc.meta, "page": "{n} / {total}"})
            cards = typeset(numbered, aid_sizes.card_setup(), card, art, max_art_fraction=0.9)
            out[f"{game}/{stem}-cards.pdf"] = render_pdf(
                aid_sizes.card_sheets(cards, size), doc.title, "player aid, cards")
        else:
            setup = PageSetup(size)
            pages = typeset(doc, setup, typo, art)
        for drawing in pages:  # the design stamp in the middle of every page's footer
            drawing.extend(stamp_items(defs, size[0] / 2.0, size[1] - setup.bottom + setup.footer,
                                       min(typo.body * 0.82, 2.8) * 0.8, fill=typo.muted))
        subject = "player aid" if kind == "player-aid" else "rules of play"
        out[f"{game}/{stem}.pdf"] = render_pdf(pages, doc.title, subject)
    return out


# --- Orbitus --------------------------------------------------------------------------------


def orbitus_values(defs: OrbitusDefinitions) -> dict[str, str]:
    rules = defs.ruleset
    scoring = rules.scoring
    counts = rules.player_counts
    return {
        "hand_size": str(rules.hand_size),
        "min_hand": str(rules.min_hand),
        "pirate": signed(scoring.pirate),
        "open_route": signed(scoring.open_route),
        "deck_size": str(rules.deck_size),
        "planet_types": str(len(defs.planets.planet_types)),
        "players_min": str(counts[0]),
        "players_max": str(counts[-1]),
        "block_3": signed(scoring.block_points(3)),
        "block_6": signed(scoring.block_points(6)),
        "hub_total": signed(6 * scoring.block_points(3)),
        # the last row of the planet table (O-55): the group size from which on all score alike
        "planet_top": str(max(scoring.planet_groups, key=lambda b: b.min).min),
    }


def side_names(defs: OrbitusDefinitions, lang: str) -> tuple[str, ...]:
    """The station's six sides as the kit's language names them (N, NE, ... in English;
    С, СВ, ... in Russian), from its labels."""
    words = load_labels(defs.folder, "orbitus", lang)
    return tuple(words.directions or SIDES)


def _bands_table(bands: Sequence[Band], head: Sequence[str]) -> Table:
    if len(head) != 2:
        raise ValueError(f"give two column headings (size, points), not {len(head)}")
    rows = [(b.label, signed(b.points)) for b in sorted(bands, key=lambda b: b.min)]
    return data_table(head, rows, ["middle", "middle"])


def orbitus_tables(defs: OrbitusDefinitions, lang: str = "en") -> dict[str, TableFn]:
    scoring = defs.ruleset.scoring

    def start_lines(head: Sequence[str]) -> Table:
        if len(head) != 3:
            raise ValueError(f"give three column headings (players, start lines, barriers), "
                             f"not {len(head)}")
        rows = []
        names = side_names(defs, lang)
        for setup in defs.ruleset.start_lines:
            seats = " · ".join(f"P{k + 1}: {' '.join(names[s] for s in lines)}"
                               for k, lines in enumerate(setup.start_lines))
            rows.append((str(setup.players), seats,
                         " ".join(names[s] for s in setup.barriers) or "—"))
        return data_table(head, rows, ["middle", "start", "middle"])

    def planets(head: Sequence[str]) -> Table:
        if len(head) != 2:
            raise ValueError(f"give two column headings (symbol, planet), not {len(head)}")
        table = data_table(head, [("", p.names.get(lang, p.name))
                                  for p in defs.planets.planet_types], ["middle", "start"])
        # the planet as printed, disc and symbol, in the symbol column
        discs = [(icon_run(planet_disc(p, 0.95)),) for p in defs.planets.planet_types]
        return replace(table, rows=tuple((disc, row[1])
                                         for disc, row in zip(discs, table.rows, strict=True)))

    return {
        "planet-groups": lambda head: _bands_table(scoring.planet_groups, head),
        "closed-blocks": lambda head: _bands_table(scoring.closed_blocks, head),
        "start-lines": start_lines,
        "planets": planets,
    }


def orbitus_art(defs: OrbitusDefinitions, lang: str = "en") -> dict[str, DiagramFn]:
    """The Orbitus diagrams; the station's sides named in ``lang``."""
    names = side_names(defs, lang)
    return {
        "closed-blocks": _memo(lambda: diagrams.closed_blocks(defs)),
        "closed-block-hub": _memo(lambda: diagrams.closed_block_hub(defs)),
        "setup": _memo(lambda: diagrams.setups(defs, names)),
        "open-routes": _memo(lambda: diagrams.open_routes(defs, names)),
    }


def orbitus_typography(defs: OrbitusDefinitions) -> Typography:
    return Typography(accent=defs.station.colour, highlight=defs.station.accent)


def orbitus_texts(defs: OrbitusDefinitions, kind: str, page: str,
                  langs: Sequence[str] | None = None) -> dict[str, bytes]:
    """The Orbitus ``kind`` texts ("rules" or "player-aid") as PDFs: those in ``langs``
    (default: every language there is)."""
    out: dict[str, bytes] = {}
    for lang in langs if langs is not None else languages(defs.folder, "orbitus", kind):
        art = orbitus_art(defs, lang)  # the diagrams name the station's sides in the text's
        docs = load_texts(defs.folder, "orbitus", kind, orbitus_values(defs),
                          lambda lg: orbitus_tables(defs, lg), art, [lang])
        out.update(_render_texts("orbitus", docs, kind, page, orbitus_typography(defs), art,
                                 defs))
    return out


def orbitus_aid_steps(defs: OrbitusDefinitions, page: str, lang: str = "en") -> list[Step]:
    """Score pad, player aid and rule booklet of Orbitus in ``lang`` (a text the game has
    no such file for is built in English: :func:`cards.labels.resolve`)."""

    def pad() -> dict[str, bytes]:
        words = load_labels(defs.folder, "orbitus", lang)
        return {"orbitus/score-pad.pdf": render_pdf(
            orbitus_pad(defs, page_size(page), words, lang), "Orbitus score pad", "score pad")}

    return [
        ("Orbitus score pad", pad),
        ("Orbitus player aids", lambda: orbitus_texts(
            defs, "player-aid", page, [resolve(defs.folder, "orbitus", "player-aid", lang).lang])),
        ("Orbitus rules", lambda: orbitus_texts(
            defs, "rules", page, [resolve(defs.folder, "orbitus", "rules", lang).lang])),
    ]


# --- Satellites -----------------------------------------------------------------------------


def satellites_values(defs: SatellitesDefinitions) -> dict[str, str]:
    """Every number the Satellites texts state, from the ruleset (and the trackers' look)."""
    rules = defs.ruleset
    n = rules.size
    zone = rules.setup_zone_cells
    first = (n - zone) // 2
    last = first + zone - 1
    copies = sorted({rules.colour(c).copies(v) for c in ("red", "blue") for v in rules.values})
    return {
        "board_size": str(n),
        "min_board": str(zone + 4),  # the setup zones and inward cells fit without overlap
        "last_col": column_name(n - 1),
        "last_row": str(n),
        "zone_cells": str(zone),
        "zone_cols": f"{column_name(first)}–{column_name(last)}",
        "zone_rows": f"{first + 1}–{last + 1}",
        "inner_col_w": column_name(1),
        "inner_col_e": column_name(n - 2),
        "inner_row_n": "2",
        "inner_row_s": str(n - 1),
        "inward_values": ", ".join(str(v) for v in rules.inward_values),
        "per_player": str(rules.red.count),
        "value_min": str(rules.values[0]),
        "value_max": str(rules.values[-1]),
        "copies": str(copies[0]) if len(copies) == 1 else f"{copies[0]}–{copies[-1]}",
        "colony_min": str(rules.colony_min),
        "colony_max": str(rules.colony_max),
        "push_reach": str(rules.push_reach),
        "stall_moves": str(rules.stall_moves),
        "end_connected": str(rules.end_connected),
        "grace_moves": str(rules.grace_moves),
        "track_max": str(defs.trackers.connected.max),
        "grace_symbol": defs.trackers.grace.symbol,
    }


def satellites_art(defs: SatellitesDefinitions) -> dict[str, DiagramFn]:
    return {
        "colony": _memo(lambda: diagrams.colony(defs)),
        "setup": _memo(lambda: diagrams.satellites_setup(defs)),
    }


def satellites_tables(defs: SatellitesDefinitions) -> dict[str, TableFn]:
    """``colony-written``: the corner of the colony diagram as a board of its own, written
    down the way :doc:`score-satellites` reads it (one line a row, ``.`` an empty cell)."""

    def written(head: Sequence[str]) -> Table:
        if len(head) != 2:
            raise ValueError(f"give two column headings (row, as written), not {len(head)}")
        size = diagrams.COLONY_BOARD
        grid = [["."] * size for _ in range(size)]
        for row, col, colour, value in diagrams.COLONY + diagrams.PAIR + diagrams.LONE:
            grid[row][col] = f"{'R' if colour == 'red' else 'B'}{value}"
        rows = [(str(k + 1), "  ".join(line)) for k, line in enumerate(grid)]
        return data_table(head, rows, ["middle", "start"])

    return {"colony-written": written}


def satellites_typography(defs: SatellitesDefinitions) -> Typography:
    return Typography(accent=defs.board.blue.colour, highlight=defs.board.red.colour,
                      note_fill="#eef2f7")


def satellites_texts(defs: SatellitesDefinitions, kind: str, page: str,
                     langs: Sequence[str] | None = None) -> dict[str, bytes]:
    """The Satellites ``kind`` texts ("rules" or "player-aid") as PDFs: those in ``langs``
    (default: every language there is)."""
    art = satellites_art(defs)
    docs = load_texts(defs.folder, "satellites", kind, satellites_values(defs),
                      lambda lang: satellites_tables(defs), art, langs)
    return _render_texts("satellites", docs, kind, page, satellites_typography(defs), art,
                         defs)


def satellites_aid_steps(defs: SatellitesDefinitions, page: str,
                         lang: str = "en") -> list[Step]:
    """Score pad, player aid and rule booklet of Satellites in ``lang`` (a text the game has
    no such file for is built in English: :func:`cards.labels.resolve`)."""

    def pad() -> dict[str, bytes]:
        words = load_labels(defs.folder, "satellites", lang)
        return {"satellites/score-pad.pdf": render_pdf(
            satellites_pad(defs, page_size(page), words), "Satellites score pad", "score pad")}

    def texts(kind: str) -> dict[str, bytes]:
        chosen = resolve(defs.folder, "satellites", kind, lang).lang
        return satellites_texts(defs, kind, page, [chosen])

    return [
        ("Satellites score pad", pad),
        ("Satellites player aids", lambda: texts("player-aid")),
        ("Satellites rules", lambda: texts("rules")),
    ]

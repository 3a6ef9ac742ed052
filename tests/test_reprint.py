"""pnp build --since: a reprint kit of only what changed (generator/reprint.py)."""

from __future__ import annotations

import io
from pathlib import Path

from design_helpers import copy_cards, edit
from pypdf import PdfReader

from cards.ruleset_cache import load_definitions
from generator.options import BuildOptions
from generator.reprint import reprint, sheet_name

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"






def _kit(mine: Path, games: tuple[str, ...] = ("orbitus",)):
    old = {g: load_definitions(g) for g in games}
    new = {g: load_definitions(g, mine) for g in games}
    return reprint(games, old, new, BuildOptions(), "the shipped cards")


def _text(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


def test_nothing_changed_writes_nothing(tmp_path):
    files, parts = _kit(copy_cards(tmp_path / "mine"), ("orbitus", "satellites"))
    assert files == {} and not any(p.any for p in parts)


def test_three_changed_sectors_print_on_one_sheet_with_their_backs(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    deck = mine / "orbitus" / "sectors.yaml"
    edit(deck, "{id: S05, routes: [SE, S, SW], planet: ice}",
          "{id: S05, routes: [N, S, SW], planet: ice}")
    edit(deck, "{id: S17, routes: [N, SE, S, SW], planet: lava}",
          "{id: S17, routes: [N, SE, SW, NW], planet: lava}")
    edit(deck, "{id: S40, routes: [N, S], planet: ocean}",
          "{id: S40, routes: [N, NE, S], planet: ocean}")
    files, (part,) = _kit(mine)
    # the booklet draws deck cards in its diagrams, so it may change with them; nothing else
    assert set(files) - {"reprint/orbitus/rules-en.pdf"} == {"reprint/orbitus/sectors.pdf",
                                                              "reprint/take-out.pdf"}
    pages = _text(files["reprint/orbitus/sectors.pdf"])
    assert len(pages) == 2  # one sheet of fronts, its backs behind it
    ids = {w for w in pages[0].split() if w.startswith("S") and w[1:].isdigit()}
    assert ids == {"S05", "S17", "S40"}
    assert "sheet 1 of 1" in pages[0]
    assert part.take_out[:3] == [f"{s}: 1 copy ({load_definitions('orbitus').design.stamp})"
                                 for s in ("S05", "S17", "S40")]
    sheet = _text(files["reprint/take-out.pdf"])[0]
    assert "S05: 1 copy" in sheet and "Take out" in sheet and "Put in" in sheet


def test_the_same_sheets_as_a_full_build(tmp_path):
    from generator.products.orbitus import sector_sheets

    mine = copy_cards(tmp_path / "mine")
    edit(mine / "orbitus" / "sectors.yaml", "{id: S01, routes: [N], planet: ice}",
          "{id: S01, routes: [NE], planet: ice}")
    files, _ = _kit(mine)
    full = sector_sheets(load_definitions("orbitus", mine), BuildOptions())
    reader = PdfReader(io.BytesIO(files["reprint/orbitus/sectors.pdf"]))
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (595, 842)
    crop = [i for i in full[0].items if getattr(i, "cls", None) == "crop-mark"]
    assert crop  # a full sheet has crop marks: so has the reprint, at the first slot's
    assert "S01" in (page.extract_text() or "")


def test_a_new_back_reprints_every_sector_and_says_so(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    edit(mine / "orbitus" / "sectors.yaml", 'colour: "#1b2440"', 'colour: "#203050"')
    files, (part,) = _kit(mine)
    pages = _text(files["reprint/orbitus/sectors.pdf"])
    assert len(pages) == 2 * 4  # 72 sectors: four sheets, each with its backs
    assert part.notes == ["the card back changed, so every sector is reprinted: a new back on "
                          "some cards only would mark them in a hand"]


def test_more_copies_print_only_the_extra_ones_fewer_only_take_out(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    deck = mine / "orbitus" / "sectors.yaml"
    edit(deck, "{id: S40, routes: [N, S], planet: ocean}",
          "{id: S40, routes: [N, S], planet: ocean, count: 3}")
    last = [line for line in deck.read_text(encoding="utf-8").splitlines()
            if line.startswith("  - {id: S")][-1] + "\n"
    edit(deck, last, "")  # the last sector: no other card's marker number moves
    files, (part,) = _kit(mine)
    fronts = _text(files["reprint/orbitus/sectors.pdf"])[0]
    assert fronts.split().count("S40") == 2
    # the booklet says how many cards the deck holds: it is printed anew, and nothing else
    assert part.put_in == ["S40: 2 copies more (now 3)", "the new rule booklet (en) "
                                                         "(rules-en.pdf)"]
    assert part.take_out == [f"{last.split(',')[0].split()[-1]}: 1 copy (no longer in the "
                             f"deck)", "the old rule booklet (en)"]
    assert part.notes == []


def test_removing_a_sector_early_in_the_deck_says_why_the_rest_reprint(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    edit(mine / "orbitus" / "sectors.yaml", "  - {id: S01, routes: [N], planet: ice}\n", "")
    files, (part,) = _kit(mine)
    assert part.notes == ["71 sector(s) print another photo marker only: the markers are "
                          "numbered in deck order, so a sector added or removed before them "
                          "moves their numbers (add new sectors at the end of the deck to "
                          "keep them)"]


def test_a_changed_satellite_value_reprints_those_tokens_only(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    edit(mine / "satellites" / "board.yaml", 'colour: "#1565c0"', 'colour: "#0d47a1"')
    files, (part,) = _kit(mine, ("satellites",))
    assert "reprint/satellites/tokens.pdf" in files
    assert [line.split(":")[0] for line in part.put_in[:4]] == [
        "blue 1", "blue 2", "blue 3", "blue 4"]
    assert "reprint/satellites/board.pdf" in files  # the blue setup zones are on the board


def test_a_rule_number_reprints_the_sheets_that_print_it(tmp_path):
    mine = copy_cards(tmp_path / "mine")
    edit(mine / "orbitus" / "rules.yaml", "{min: 6, points: 9}", "{min: 6, points: 10}")
    files, _ = _kit(mine)
    assert "reprint/orbitus/sectors.pdf" not in files  # no card shows the scoring table
    assert "reprint/orbitus/score-pad.pdf" in files and "reprint/orbitus/rules-en.pdf" in files


def test_the_take_out_sheet_names_every_form_of_the_aids():
    # issue 20's 2-up and card aids are sheets the player holds, named like the others
    assert [sheet_name(f) for f in ("rules-ru.pdf", "player-aid-en.pdf",
                                    "player-aid-en-2up.pdf", "player-aid-it-cards.pdf",
                                    "score-pad.pdf")] == [
        "rule booklet (ru)", "player aid (en)", "player aid 2-up (en)",
        "player aid cards (it)", "score pad (its unused sheets)"]

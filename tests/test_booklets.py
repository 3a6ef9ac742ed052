"""Rule booklets and player aids: language, paper, diagrams, data-driven numbers, the markup."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from cards.definitions import DEFAULT_CARDS, load_orbitus
from generator.build import BuildOptions, build
from generator.components import diagrams
from generator.drawing import Group, Text, text_width, walk
from generator.typeset.markup import TextError, parse
from generator.typeset.pages import Frame, PageSetup, flow, typeset
from generator.typeset.setting import Box, Typography, wrap
from testkit.commands import run_build

SIZES = {"a4": (595, 842), "letter": (612, 792)}
BOOKLETS = [f"{game}/rules-{lang}.pdf" for game in ("orbitus", "satellites")
            for lang in ("en", "ru", "it")]
AIDS = [f"{game}/player-aid-{lang}.pdf" for game in ("orbitus", "satellites")
        for lang in ("en", "ru", "it")]
PADS = ["orbitus/score-pad.pdf", "satellites/score-pad.pdf"]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _every_language(tmp_path_factory, page: str) -> Path:
    """The English kit, with the booklets and aids of the Russian and Italian kits beside
    its own (each kit is built in one language: pnp-build --lang)."""
    out = tmp_path_factory.mktemp(page)
    build(out, opts=BuildOptions(page=page))
    for lang in ("ru", "it"):
        other = tmp_path_factory.mktemp(f"{page}-{lang}")
        build(other, opts=BuildOptions(page=page, lang=lang))
        for path in other.glob(f"*/*-{lang}.pdf"):
            shutil.copy(path, out / path.parent.name / path.name)
    return out


@pytest.fixture(scope="module")
def a4(tmp_path_factory) -> Path:
    return _every_language(tmp_path_factory, "a4")


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    return _every_language(tmp_path_factory, "letter")


def _fills(page) -> set[str]:
    """The fill colours a PDF page paints with, as ``#rrggbb``."""
    stream = page.get_contents().get_data().decode("latin-1")
    return {"#" + "".join(f"{round(float(v) * 255):02x}" for v in m.groups())
            for m in re.finditer(r"([\d.]+) ([\d.]+) ([\d.]+) rg", stream)}


def _text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(path).pages)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_is_the_chosen_paper_size(paper, request):
    out = request.getfixturevalue(paper)
    for rel in BOOKLETS + AIDS + PADS:
        reader = PdfReader(out / rel)
        assert len(reader.pages) >= 1, rel
        for page in reader.pages:
            box = page.mediabox
            assert (round(float(box.width)), round(float(box.height))) == SIZES[paper], rel
    for rel in AIDS:
        assert len(PdfReader(out / rel).pages) == 1, f"{rel} is not one page"
    for rel in BOOKLETS:
        assert len(PdfReader(out / rel).pages) >= 2, rel


def test_booklets_number_their_pages(a4):
    reader = PdfReader(a4 / "orbitus/rules-en.pdf")
    n = len(reader.pages)
    for i, page in enumerate(reader.pages, start=1):
        assert f"page {i} of {n}" in page.extract_text()
    it = PdfReader(a4 / "satellites/rules-it.pdf")
    assert f"pagina 1 di {len(it.pages)}" in it.pages[0].extract_text()
    ru = PdfReader(a4 / "orbitus/rules-ru.pdf")
    assert f"страница 1 из {len(ru.pages)}" in ru.pages[0].extract_text()


def test_russian_texts_are_in_russian(a4):
    rules = _text(a4 / "orbitus/rules-ru.pdf")
    assert len(CYRILLIC.findall(rules)) > 3000
    for phrase in ("Правила игры", "Подготовка", "Совпадение сторон", "Нейтральные зоны",
                   "Замкнутые блоки", "Решение проекта (правило O-"):
        assert phrase in rules, phrase
    aid = _text(a4 / "orbitus/player-aid-ru.pdf")
    assert "памятка игрока" in aid and len(CYRILLIC.findall(aid)) > 1000
    english = _text(a4 / "orbitus/rules-en.pdf")
    assert "Setting up" in english and "Closed blocks" in english
    # the only Cyrillic in the English booklet is the station's name
    assert set(re.findall(r"[А-Яа-яЁё]+", english)) == {"Орбитус"}


def test_italian_texts_have_their_accents(a4):
    rules = _text(a4 / "satellites/rules-it.pdf")
    for ch in "èàùò":
        assert ch in rules, ch
    for phrase in ("Regole del gioco", "Preparazione", "Gruppi e colonie", "Spareggio",
                   "Scelta del progetto (regola S-"):
        assert phrase in rules, phrase
    aid = _text(a4 / "satellites/player-aid-it.pdf")
    assert "Il tuo turno" in aid and "più" in aid and "è" in aid
    english = _text(a4 / "satellites/rules-en.pdf")
    assert "Setting up" in english and "Tie-break" in english and "è" not in english


def test_every_decision_players_meet_is_in_a_box_of_each_booklet(a4):
    """Read back from the PDFs: the decision boxes of every booklet, in every language,
    name exactly the decisions the rules pages tag for the booklet (tests/test_texts.py
    checks the same in the sources)."""
    from test_texts import rule_tags

    header = re.compile(r"(?:Project decisions?|Решени[ея] проекта|Scelt[ae] del progetto) "
                        r"\((?:rules?|правил[оа]|regol[ae]) ([^)]*)\)")
    for game in ("orbitus", "satellites"):
        want = {n for n, tag in rule_tags(game).items() if tag.decision and tag.sections}
        assert len(want) >= 16, game
        for lang in ("en", "ru", "it"):
            text = " ".join(_text(a4 / game / f"rules-{lang}.pdf").split())
            boxed = {n for m in header.finditer(text) for n in re.findall(r"[OS]-\d+",
                                                                          m.group(1))}
            assert boxed == want, (game, lang, sorted(want - boxed), sorted(boxed - want))


def test_each_decision_box_names_the_decisions_of_the_rules_page_it_states():
    """The reasons live on the rules page; a booklet's box says the decision and its
    number, so that the number leads to them (and every language cites the same ones)."""
    root = Path(__file__).resolve().parent.parent
    for game, letter in (("orbitus", "O"), ("satellites", "S")):
        page = (root / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
        decisions = set(re.findall(rf"\*\*({letter}-\d+)\*\* (?:<span[^>]*>[^<]*</span> )?"
                                   r"\*Decision:\*", page))
        cited_by_language = {}
        for text in sorted((DEFAULT_CARDS / game / "text").glob("rules-*.md")):
            boxes = [line for line in text.read_text(encoding="utf-8").splitlines()
                     if line.startswith("> **")]
            cited = [re.findall(rf"{letter}-\d+", box.split("**")[1]) for box in boxes]
            assert boxes and all(cited), (text.name, boxes)
            assert {n for c in cited for n in c} <= decisions, text.name
            cited_by_language[text.name] = cited
        assert len({str(c) for c in cited_by_language.values()}) == 1, cited_by_language


def test_diagrams_are_drawn_into_the_booklets(a4):
    defs = load_orbitus()
    deck = {s.id for s in defs.sectors.sectors}
    rules = _text(a4 / "orbitus/rules-en.pdf")
    # the diagrams draw pieces as they lie on the table, without the codes a table is written
    # down with (the sector IDs, the station's name): the one ID is the text's example
    assert set(re.findall(r"\bS\d\d\b", rules)) == {"S07"} and "S07" in deck
    # the setup diagram: the station for every player count, every seat's colour on it
    # (start lines) and the face-down hand in the sector back's colour
    reader = PdfReader(a4 / "orbitus/rules-en.pdf")
    setup = next(page for page in reader.pages if "for 2 to 6 players" in page.extract_text())
    drawn = _fills(setup)
    assert {c.lower() for c in defs.station.player_colours} <= drawn
    assert defs.sectors.back.colour.lower() in drawn
    assert rules.count("P6") >= 2  # the start-line table and the six-player station
    # the sector diagrams draw real planets: every planet's colour is on some page
    assert {p.colour.lower() for p in defs.planets.by_id().values()} <= set().union(
        *(_fills(page) for page in reader.pages))
    # the closed-block examples print their points from the scoring table
    assert "3 → +1" in rules and "6 → +3" in rules and "6 × (3 → +1) = +6" in rules
    for rel in ("satellites/rules-en.pdf", "satellites/rules-it.pdf",
                "satellites/player-aid-en.pdf"):
        text = _text(a4 / rel)
        assert "3 + 1 = 4" in text and "2 + 4 = 6" in text, rel  # colony totals
    setup = _text(a4 / "satellites/rules-en.pdf")
    for col in "abcdefghij":
        assert re.search(rf"^{col}$", setup, re.M), col  # the board's coordinates


def test_diagram_sectors_really_have_the_routes_drawn():
    defs = load_orbitus()
    used: dict[str, int] = {}
    # a ring position needs two routes two sides apart; the deck holds such cards
    sector, rot, real = diagrams.pick_sector(defs, frozenset({2, 4}), used)
    assert real and {(s + rot) % 6 for s in sector.route_sides} == {2, 4}
    # when every card with five routes in a row is used up, a stand-in without an ID is drawn
    sector, _, real = diagrams.pick_sector(defs, frozenset({0, 1, 2, 3, 4}),
                                           {"S60": 1, "S61": 1, "S71": 1})
    assert not real and sector.route_sides == frozenset({0, 1, 2, 3, 4})


def test_numbers_in_the_texts_come_from_the_definitions(cards_copy, tmp_path):
    rules = cards_copy / "orbitus" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    text = text.replace("pirate: -3", "pirate: -5").replace("hand_size: 4", "hand_size: 6")
    text = text.replace("    - {min: 6, points: 9}          # 6 or more",
                        "    - {min: 6, max: 6, points: 9}\n    - {min: 7, points: 14}")
    rules.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    build(out, games=("orbitus",), cards=cards_copy)
    build(tmp_path / "ru", games=("orbitus",), cards=cards_copy, opts=BuildOptions(lang="ru"))
    english = _text(out / "orbitus/rules-en.pdf")
    lines = [ln.strip() for ln in english.splitlines()]
    assert "−5" in lines and "−3" not in english  # "Each pirate sector ... scores −5"
    assert "7+" in lines and "+14" in lines  # the planet-group table
    assert "every player’s hand of 6 face-down sectors." in re.sub(r"\s+", " ", english)
    russian = _text(tmp_path / "ru" / "orbitus/rules-ru.pdf")
    assert "−5" in russian and "+14" in russian
    aid = _text(out / "orbitus/player-aid-en.pdf")
    assert "Deal 6 sectors to each player" in re.sub(r"\s+", " ", aid)


def test_a_definitions_folder_can_bring_its_own_texts(cards_copy, tmp_path):
    text_dir = cards_copy / "orbitus" / "text"
    shutil.copytree(DEFAULT_CARDS / "orbitus" / "text", text_dir)
    en = text_dir / "rules-en.md"
    en.write_text(en.read_text(encoding="utf-8").replace("title: Orbitus",
                                                         "title: Orbitus Deluxe"),
                  encoding="utf-8")
    (text_dir / "rules-de.md").write_text(
        "title: Orbitus\nsubtitle: Spielregeln\npage: Seite {n} von {total}\n---\n"
        "## Aufbau\n\nJeder Spieler erhält **{hand_size}** Sektoren.\n\n"
        "[table: closed-blocks | Größe | Punkte]\n", encoding="utf-8")
    out = tmp_path / "out"
    files = build(out, games=("orbitus",), cards=cards_copy, opts=BuildOptions(lang="de"))
    assert "orbitus/rules-de.pdf" in files
    german = _text(out / "orbitus/rules-de.pdf")
    assert "Spielregeln" in german and "Größe" in german and "Seite 1 von 1" in german
    # no German labels or player aid: those parts of the German kit are English
    assert "orbitus/player-aid-en.pdf" in files
    build(out, games=("orbitus",), cards=cards_copy)
    assert "Orbitus Deluxe" in _text(out / "orbitus/rules-en.pdf")
    assert not (out / "orbitus/rules-de.pdf").exists()  # one kit, one language
    # satellites has no text folder in the copy: the shipped texts are used
    files = build(out, games=("satellites",), cards=cards_copy, opts=BuildOptions(lang="it"))
    assert "satellites/rules-it.pdf" in files


def test_a_mistake_in_a_text_stops_the_build_with_file_and_line(cards_copy, tmp_path):
    text_dir = cards_copy / "orbitus" / "text"
    shutil.copytree(DEFAULT_CARDS / "orbitus" / "text", text_dir)
    bad = text_dir / "rules-en.md"
    lines = bad.read_text(encoding="utf-8").splitlines()
    lines[6] = "The deck holds {decksize} sectors and **bold without end."
    lines.append("[diagram: spaceship] nope")
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = run_build(["--cards", str(cards_copy), "--out", str(out),
                                      "--game", "orbitus", "-q"])
    assert result.exit_code == 1
    err = result.output
    where = f"{bad}"
    assert re.search(re.escape(where.split("/cards/")[-1]) + r":7: unknown value \{decksize\}; "
                     r"known values: .*\{deck_size\}", err)
    assert ":7: a ** (bold) is not closed on this line; write **bold text**" in err
    assert (f":{len(lines)}: unknown diagram 'spaceship'; this game has: closed-block-hub, "
            "closed-blocks, open-routes, setup") in err
    assert "nothing was written" in err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.rglob("*.pdf"))


# --- the markup and the typesetter --------------------------------------------------------


def _parse(text: str, **values: str):
    return parse(text, "t.md", values, {}, {})


def test_markup_problems_name_the_line():
    with pytest.raises(TextError) as err:
        _parse("title: X\ncolour: red\n---\n# Big\n[table: nope]\n[oops]\n")
    assert err.value.problems == [
        "t.md:2: 'colour: red' is not a front-matter line; write one of title: ..., "
        "subtitle: ..., footer: ..., page: ..., fold: ... before the '---'",
        "t.md:4: a heading is '## Heading' or '### Smaller heading' (the title goes in the "
        "front matter as 'title: ...')",
        "t.md:5: unknown table 'nope'; this game has: none",
        "t.md:6: a line starting with '[' must be [table: NAME ...] or [diagram: NAME] caption",
    ]
    with pytest.raises(TextError) as err:
        _parse("---\n| a | b |\n| 1 |\n")
    assert err.value.problems == [
        "t.md:1: no title; start the file with 'title: ...' and a line '---'",
        "t.md:3: this table row has 1 cells, the header has 2",
    ]


def test_markup_blocks():
    doc = _parse("title: T {v}\n---\n## Head\nOne\ntwo **three**.\n\n- a\n- b\n  c\n"
                 "1. first\n> **Note.** x\n> - y\n| h | k |\n|---|--:|\n| 1 | 2 |\n", v="7")
    assert doc.title == "T 7"
    kinds = [type(b).__name__ for b in doc.blocks]
    assert kinds == ["Heading", "Paragraph", "ListItem", "ListItem", "ListItem", "Note",
                     "Table"]
    para = doc.blocks[1]
    assert [(r.text, r.bold) for r in para.runs] == [("One two ", False), ("three", True),
                                                      (".", False)]
    assert [r.text for r in doc.blocks[3].runs] == ["b c"]
    assert doc.blocks[4].marker == "1."
    assert doc.blocks[6].align == ("start", "end")


def test_wrap_keeps_lines_inside_the_width():
    runs = _parse("title: t\n---\n" + "Lorem ipsum dolor sit amet, **consectetur** "
                  "adipiscing elit — supercalifragilisticexpialidocious. " * 8).blocks[0].runs
    for width in (20.0, 35.0, 60.0, 85.0):
        lines = wrap(runs, 3.4, width, text_width)
        assert len(lines) > 1
        for line in lines:
            assert sum(text_width(r.text.rstrip(), 3.4, r.bold) for r in line) <= width + 1e-6
        # nothing lost, nothing added: only the spaces at the breaks go
        joined = "".join(r.text for line in lines for r in line)
        assert re.sub(r"\s", "", joined) == re.sub(r"\s", "", "".join(r.text for r in runs))


def test_flow_keeps_headings_with_text_and_repeats_table_headers():
    head = Box(5.0, keep_with_next=True)
    line = Box(4.0)
    boxes = [Box(4.0) for _ in range(9)] + [head, line, Box(4.0)]
    placed = flow(boxes, lambda k: Frame(0.0, 0.0, 40.0))
    where = {id(p.box): p.frame for p in placed}
    assert where[id(head)] == where[id(line)] == 1  # not left alone at the foot of frame 0
    header = Box(5.0, keep_with_next=True)
    rows = [Box(6.0, header=header) for _ in range(10)]
    placed = flow([header, *rows], lambda k: Frame(0.0, 0.0, 30.0))
    frames = sorted({p.frame for p in placed})
    for k in frames:
        first = next(p for p in placed if p.frame == k)
        assert first.box is header  # every column of the table starts with its header


def test_one_page_texts_shrink_to_fit_or_say_they_cannot():
    setup = PageSetup((210.0, 297.0))
    body = "\n\n".join("Words that fill the page, again and again, line after line." * 3
                       for _ in range(40))
    doc = _parse("title: Aid\n---\n" + body)
    pages = typeset(doc, setup, Typography(body=3.8), {}, max_pages=1)
    assert len(pages) == 1
    sizes = {i.size for i in walk(pages[0].items) if isinstance(i, Text) and i.cls is None}
    assert max(sizes) < 3.8  # shrunk
    with pytest.raises(ValueError, match=r"t\.md: does not fit on 1 page\(s\) even with 2.2 mm "
                                         r"text; shorten it"):
        typeset(_parse("title: Aid\n---\n" + body * 4), setup, Typography(), {}, max_pages=1)


def test_diagram_groups_are_tagged_in_the_pages():
    from generator.aids import orbitus_art, orbitus_tables, orbitus_typography, orbitus_values

    defs = load_orbitus()
    text = (DEFAULT_CARDS / "orbitus" / "text" / "rules-en.md").read_text(encoding="utf-8")
    art = orbitus_art(defs)
    doc = parse(text, "rules-en.md", orbitus_values(defs), orbitus_tables(defs), art)
    pages = typeset(doc, PageSetup((210.0, 297.0)), orbitus_typography(defs), art)
    found = {i.cls for p in pages for i in walk(p.items)
             if isinstance(i, Group) and (i.cls or "").startswith("diagram ")}
    assert found == {"diagram setup", "diagram open-routes", "diagram closed-blocks",
                     "diagram closed-block-hub"}

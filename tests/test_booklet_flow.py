"""The booklets read as a printed booklet should, checked on the PDFs
themselves (the text read back with its place and size, in reading order: page by page,
column by column, top to bottom).

- a diagram never splits a sentence: the text before it ends a block of the source
  (a paragraph, an item, a note, a table) and the text after it starts one;
- every line stays inside the page margins (bold headings did not, on Letter);
- a note box ("Project decision") stays in one column;
- no line of running text is a lone short word ("−3.");
- the last page is not nearly empty;
- a printed booklet stands alone: no README, no digital board, no commands.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pixels import MM_PER_PT, Line, open_pdf, text_lines, window

from cards.definitions import DEFAULT_CARDS, load_orbitus, load_satellites
from generator import aids
from generator.glyphs import SYMBOLS
from generator.typeset.markup import DiagramRef, Heading, ListItem, Note, Paragraph, Table, parse

BOOKLETS = [(game, lang) for game in ("orbitus", "satellites") for lang in ("en", "ru", "it")]


def _norm(text: str) -> str:
    """Without white space, and without the symbols drawn as paths (no text in the PDF)."""
    return re.sub(r"\s+", "", "".join(ch for ch in text if ch not in SYMBOLS))


def _runs_text(runs) -> str:
    return "".join(r.text for r in runs)


def _document(game: str, lang: str, kind: str = "rules"):
    if game == "orbitus":
        defs = load_orbitus()
        values, tables = aids.orbitus_values(defs), aids.orbitus_tables(defs, lang)
        art = aids.orbitus_art(defs)
    else:
        defs = load_satellites()
        values, tables, art = (aids.satellites_values(defs), aids.satellites_tables(defs),
                               aids.satellites_art(defs))
    path = DEFAULT_CARDS / game / "text" / f"{kind}-{lang}.md"
    return parse(path.read_text(encoding="utf-8"), str(path), values, tables, art)


def _block_texts(doc) -> list[tuple[str, str]]:
    """(kind, normalised text) of every block."""
    out = []
    for block in doc.blocks:
        if isinstance(block, Heading):
            out.append(("heading", _norm(_runs_text(block.runs))))
        elif isinstance(block, Paragraph | ListItem):
            out.append(("text", _norm(_runs_text(block.runs))))
        elif isinstance(block, Note):
            out.append(("note", _norm("".join(_runs_text(b.runs) for b in block.blocks))))
        elif isinstance(block, Table):
            out.append(("table", ""))
        elif isinstance(block, DiagramRef):
            out.append(("diagram", _norm(_runs_text(block.caption))))
    return out


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory) -> tuple[str, dict[tuple[str, str], bytes]]:
    paper = request.param
    out: dict[tuple[str, str], bytes] = {}
    for game, lang in BOOKLETS:
        defs = load_orbitus() if game == "orbitus" else load_satellites()
        files = (aids.orbitus_texts if game == "orbitus" else aids.satellites_texts)(
            defs, "rules", paper)
        out[(game, lang)] = files[f"{game}/rules-{lang}.pdf"]
    return paper, out


def _reading_order(doc) -> tuple[list[tuple[int, int, Line]], float]:
    """Every line with its page and column, in reading order, and the body text size."""
    lines: list[tuple[int, int, Line]] = []
    for n in range(len(doc)):
        half = doc[n].get_width() * MM_PER_PT / 2
        for ln in text_lines(doc, n):
            lines.append((n, 0 if (ln.x0 + ln.x1) / 2 < half else 1, ln))
    body = Counter(round(ln.size, 2) for _, _, ln in lines).most_common(1)[0][0]
    lines.sort(key=lambda t: (t[0], t[1], t[2].y1, t[2].x0))
    return lines, body


def test_diagrams_sit_between_blocks(built):
    paper, pdfs = built
    for (game, lang), data in pdfs.items():
        doc = open_pdf(data)
        lines, body = _reading_order(doc)
        blocks = _block_texts(_document(game, lang))
        ends = [t[-24:] for kind, t in blocks if kind in ("text", "note") and t]
        starts = [t[:16] for kind, t in blocks if kind in ("text", "note", "heading") and t]
        flow_sizes = {round(body, 2), round(body * 1.42, 2), round(body * 1.12, 2)}
        flow = [(i, ln) for i, (_, _, ln) in enumerate(lines)
                if any(abs(ln.size - s) < 0.005 for s in flow_sizes)]
        caption_size = body * 0.86
        for kind, caption in blocks:
            if kind != "diagram" or not caption:
                continue
            first = next(i for i, (_, _, ln) in enumerate(lines)
                         if abs(ln.size - caption_size) < 0.05
                         and caption.startswith(_norm(ln.text)[:12]))
            before = _norm("".join(ln.text for i, ln in flow if i < first))
            after = _norm("".join(ln.text for i, ln in flow if i > first))
            after = re.sub(r"^(•|\d{1,3}\.)", "", after)  # a list item's marker
            where = f"{game}-{lang} {paper}, the diagram '{caption[:30]}'"
            assert any(before.endswith(e) for e in ends), (
                f"{where} follows a broken block: …{before[-40:]}")
            assert not after or any(after.startswith(s) for s in starts), (
                f"{where} is followed by the middle of a block: {after[:40]}…")


def test_every_line_stays_inside_the_margins(built):
    paper, pdfs = built
    for (game, lang), data in pdfs.items():
        doc = open_pdf(data)
        for n in range(len(doc)):
            width = doc[n].get_width() * MM_PER_PT
            for ln in text_lines(doc, n):
                assert 15.0 - 0.3 <= ln.x0 and ln.x1 <= width - 15.0 + 0.3, (
                    game, lang, paper, n + 1, ln.text)


def test_notes_stay_in_one_column(built):
    paper, pdfs = built
    for (game, lang), data in pdfs.items():
        lines, _ = _reading_order(open_pdf(data))
        notes = [t for kind, t in _block_texts(_document(game, lang)) if kind == "note"]
        for note in notes:
            # the note's first line: where the text read on from there starts like the note
            # (several notes begin alike: "Project decisions (rules ...")
            where = [k for k, (_, _, ln) in enumerate(lines)
                     if _norm(ln.text).startswith(note[:14])
                     and _norm("".join(x.text for _, _, x in lines[k:k + 4])).startswith(
                         note[:50])]
            assert where, note[:30]
            k = where[0]
            text, places = "", set()
            while len(_norm(text)) < len(note) and k < len(lines):
                page, col, ln = lines[k]
                text += ln.text
                places.add((page, col))
                k += 1
            assert len(places) == 1, (game, lang, paper, note[:40], places)


def test_no_lone_short_word_ends_a_paragraph(built):
    paper, pdfs = built
    for (game, lang), data in pdfs.items():
        lines, body = _reading_order(open_pdf(data))
        for page, _, ln in lines:
            if abs(ln.size - body) < 0.005:
                assert len(ln.text) > 5 or " " in ln.text, (game, lang, paper, page + 1, ln)


def test_the_last_page_is_not_nearly_empty(built):
    """The last page's two columns, measured in a rendering (text and diagrams alike),
    fill at least a quarter of the page's body (Letter's page 4 was 85 % empty)."""
    paper, pdfs = built
    for (game, lang), data in pdfs.items():
        doc = open_pdf(data)
        if len(doc) < 2:
            continue
        last = len(doc) - 1
        width = doc[last].get_width() * MM_PER_PT
        height = doc[last].get_height() * MM_PER_PT
        top, bottom = 14.0, height - 17.0  # the body, between the margins, without the footer
        img = window(doc, last, 0.0, 0.0, int(width), int(height), 25.4).convert("L")
        used = 0.0
        for x0, x1 in ((15, width / 2 - 3), (width / 2 + 3, width - 15)):
            rows = [y for y in range(int(top), int(bottom))
                    if img.crop((int(x0), y, int(x1), y + 1)).getextrema()[0] < 200]
            if rows:
                used += max(rows) - min(rows) + 1
        fill = used / (2 * (bottom - top))
        assert fill >= 0.25, (game, lang, paper, round(fill, 2))


FORBIDDEN = re.compile(r"README|digital|pnp-|https?://|docs/|\.md\b|orange|computer|scorer|"
                       r"для программы", re.IGNORECASE)


@pytest.mark.parametrize("game,lang", BOOKLETS)
def test_printed_texts_stand_alone(game, lang):
    """A printed booklet or aid sends the players nowhere else and describes
    nothing that is not on the table."""
    for kind in ("rules", "player-aid"):
        path = Path(DEFAULT_CARDS / game / "text" / f"{kind}-{lang}.md")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            assert not FORBIDDEN.search(line), f"{path.name}:{n}: {line}"

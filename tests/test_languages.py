"""``pnp-build --lang en|ru|it`` builds a whole kit in one language, every printed
word coming from the definitions (``<game>/text/labels-<lang>.yaml`` beside the booklet and
aid of that language); planets carry symbols, not initials of English names.

Read back from the PDFs of whole kits built by the command."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pixels import open_pdf, text_lines

from cards.definitions import load_orbitus
from cards.labels import load_labels
from testkit.commands import run_build

ROOT = Path(__file__).resolve().parent.parent
SHEETS = ["orbitus/sectors.pdf", "orbitus/station.pdf", "orbitus/score-pad.pdf",
          "satellites/tokens.pdf", "satellites/board.pdf", "satellites/score-pad.pdf",
          "calibration.pdf"]
# words of the English kit that no other language's kit may print
ENGLISH = re.compile(r"\b(print|fronts|start|BARRIER|score pad|Player|Pirates|Open routes|"
                     r"Closed blocks|Total|Calibration|Connected|Grace|glue|Draw|Winner|Red|"
                     r"Blue|colonies|piece|trackers|players|barriers|sheet)\b")


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    out = {}
    for lang in ("en", "ru", "it"):
        folder = tmp_path_factory.mktemp(lang)
        result = run_build(["--out", str(folder), "--lang", lang, "-q"])
        assert result.exit_code == 0, result.output
        out[lang] = (folder, result.output)
    return out


def _words(path: Path) -> str:
    doc = open_pdf(path.read_bytes())
    return " ".join(ln.text for n in range(len(doc)) for ln in text_lines(doc, n))


@pytest.mark.parametrize("lang", ["ru", "it"])
def test_every_sheet_speaks_the_kit_language(kits, lang):
    folder, _ = kits[lang]
    for rel in SHEETS:
        text = _words(folder / rel)
        found = ENGLISH.findall(text)
        assert not found, f"{lang} {rel} prints English: {found[:5]}"
    station = _words(folder / "orbitus/station.pdf")
    pads = _words(folder / "orbitus/score-pad.pdf") + _words(folder / "satellites/score-pad.pdf")
    table = station[station.index("P1:"):]  # the start lines by player count
    if lang == "ru":
        assert "P1 · старт" in station and "БАРЬЕР" in station
        assert "P2: Ю ЮЗ СЗ" in table and not re.search(r"\b(NE|SE|SW|NW)\b", table)
        assert "бланк подсчёта" in pads and "Пираты" in pads and "Лёд" in pads
    else:  # the marker's words on two lines: «● P1» over «partenza»
        seats = sum(load_orbitus().ruleset.marker_counts()[0])
        assert "P1" in station and station.count("partenza") >= seats + 2  # + the captions
        assert "BARRIERA" in station
        assert "P2: S SO NO" in table and not re.search(r"\b(SW|NW)\b", table)
        assert "segnapunti" in pads and "Pirati" in pads and "Ghiaccio" in pads


def test_the_english_kit_is_english(kits):
    folder, output = kits["en"]
    text = " ".join(_words(folder / rel) for rel in SHEETS)
    assert "P1 · start" in text and "BARRIER" in text and "Calibration sheet" in text
    assert not re.search(r"[А-Яа-яЁё]", text.replace("Орбитус", ""))
    assert output == ""  # nothing had to fall back


def test_every_kit_carries_its_own_language_booklets_and_aids(kits):
    """Point 8 of issue 20: a Russian kit carries Russian Satellites texts, an Italian kit
    Italian Orbitus texts; nothing falls back to English."""
    for lang in ("ru", "it"):
        folder, output = kits[lang]
        for game in ("orbitus", "satellites"):
            texts = sorted(p.name for p in (folder / game).glob("*.pdf")
                           if p.name.startswith(("rules-", "player-aid-")))
            assert texts == [f"player-aid-{lang}-2up.pdf", f"player-aid-{lang}-cards.pdf",
                             f"player-aid-{lang}.pdf", f"rules-{lang}.pdf"], (lang, game)
        assert output == "", output  # no note that something is in English


def test_planets_carry_symbols_not_letters(kits):
    """No planet initial (I, L, J, D, O, G) is printed on a sector; the symbols are drawn,
    the same in every language's kit."""
    for lang in ("en", "ru"):
        folder, _ = kits[lang]
        doc = open_pdf((folder / "orbitus/sectors.pdf").read_bytes())
        words = {ln.text for ln in text_lines(doc, 0)}
        for line in words:
            assert not re.fullmatch(r"[ILJDOG]", line), line
    en = (kits["en"][0] / "orbitus/svg/sector-S01.svg").read_text(encoding="utf-8")
    ru = (kits["ru"][0] / "orbitus/svg/sector-S01.svg").read_text(encoding="utf-8")
    assert 'class="planet-symbol"' in en and en == ru


def test_an_unknown_language_is_refused(tmp_path):
    result = run_build(["--out", str(tmp_path / "out"), "--lang", "de"])
    assert result.exit_code == 2
    assert "--lang de: no texts in that language" in result.output
    assert "labels-de.yaml" in result.output
    assert not (tmp_path / "out").exists()


def test_a_wrong_label_is_reported_with_file_and_line(tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards, ignore=shutil.ignore_patterns("schema"))
    labels = cards / "satellites" / "text" / "labels-it.yaml"
    text = labels.read_text(encoding="utf-8").replace("pezzo {name} ({cells})",
                                                      "pezzo {nome} ({cells})")
    labels.write_text(text.replace("  draw: \"Patta\"\n", ""), encoding="utf-8")
    result = run_build(["--cards", str(cards), "--out", str(tmp_path / "out"),
                                      "--lang", "it"])
    assert result.exit_code == 1, result.output
    assert re.search(r"labels-it\.yaml:\d+: board\.piece: unknown value \{nome\}; this text "
                     r"may use: \{name\}, \{cells\}", result.output), result.output
    assert re.search(r"labels-it\.yaml:\d+: pad\.draw: is required but missing", result.output)
    assert not (tmp_path / "out").exists()


def test_every_language_file_has_every_text():
    for game in ("orbitus", "satellites"):
        for lang in ("en", "ru", "it"):
            load_labels(None, game, lang)  # raises with file and line otherwise


def test_a_text_folder_without_labels_uses_the_shipped_ones(tmp_path):
    """A definitions folder made before there were labels files (its text/ holds only the
    booklets) still builds: the shipped labels of the language fill in."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards, ignore=shutil.ignore_patterns("schema", "labels-*"))
    result = run_build(["--cards", str(cards), "--out", str(tmp_path / "out"),
                                      "--lang", "ru", "--game", "orbitus", "-q"])
    assert result.exit_code == 0, result.output
    assert "БАРЬЕР" in _words(tmp_path / "out" / "orbitus/station.pdf")

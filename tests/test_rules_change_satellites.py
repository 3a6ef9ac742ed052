"""A designer changes the Satellites rule numbers in a copy of the definitions, then builds,
scores, deals and replays: the board's tracks, the booklets, the player aids, the score pad,
the scorer and the engine all use the new numbers (no second copy of a rule number)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from pypdf import PdfReader

from generator.build import BuildOptions, build
from records.replay_cli import main as replay_main
from records.setup_cli import main as setup_main
from scorer.cli import main as score_main

ROOT = Path(__file__).resolve().parent.parent
GRACE_RECORD = ROOT / "tests" / "fixtures" / "records" / "satellites" / "grace_moves.yaml"


def _text(pdf: Path) -> str:
    """The words of a PDF on one line (list bullets left out: the extraction may put them
    in the middle of a sentence)."""
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    return " ".join(text.replace("•", " ").split())


def _change(cards_copy: Path, **numbers: int) -> Path:
    rules = cards_copy / "satellites" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    for key, value in numbers.items():
        text, n = re.subn(rf"^{key}: *\d+", f"{key}: {value}", text, flags=re.M)
        assert n == 1, key
    rules.write_text(text, encoding="utf-8")
    return cards_copy


# 21 connected: three rows of three pairs and a group of three
TWENTY_ONE = """\
.  .  .  .  .  .  .  .  .  .
R1 B1 .  R2 B2 .  R3 B3 .  .
.  .  .  .  .  .  .  .  .  .
R4 B4 .  R1 B1 .  R2 B2 .  .
.  .  .  .  .  .  .  .  .  .
R3 B3 .  R4 B4 .  R1 B1 .  .
.  .  .  .  .  .  .  .  .  .
R2 B2 R3 .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
"""

# 20 connected; R3 on f8 goes 3 cells west to c8, next to B2: the 21st connection
TWENTY_RECORD = """\
game: satellites
cards: {cards}
players: {{red: Ines, blue: Jon}}
setup: |
  .  .  .  .  .  .  .  .  .  .
  R1 B1 .  R2 B2 .  R3 B3 .  .
  .  .  .  .  .  .  .  .  .  .
  R4 B4 .  R1 B1 .  R2 B2 .  .
  .  .  .  .  .  .  .  .  .  .
  R3 B3 .  R4 B4 .  R1 B1 .  .
  .  .  .  .  .  .  .  .  .  .
  R2 B2 .  .  .  R3 .  .  .  .
  .  .  .  .  .  .  .  .  .  .
  .  .  .  .  .  .  .  .  .  B4
moves:
  - f8-c8+
  - j10-j9
"""


def test_satellites_end_count_21_and_2_grace_moves(cards_copy, tmp_path, capsys):
    cards = _change(cards_copy, end_connected=21, grace_moves=2)

    # the printables: the board's tracks, the booklets, the player aids, the pad
    out = tmp_path / "out"
    build(out, games=("satellites",), cards=cards, opts=BuildOptions())
    svg = ET.parse(out / "satellites" / "svg" / "board.svg")
    texts = ["".join(t.itertext()).strip() for t in svg.iter() if t.tag.endswith("text")]
    assert "21 connected: the game ends at once" in texts
    assert "23 connected: the game ends at once" not in texts
    # the grace track: a box per grace move left (⚡ drawn as a glyph beside the number)
    # and one for the end
    grace = texts.index("Grace moves left (after one player has all 12 connected)")
    assert texts[grace + 1:grace + 4] == ["2", "1", "end"]
    boxes = [r for r in svg.iter() if r.get("class") == "track-grace"]
    assert len(boxes) == 3
    marked = [r for r in svg.iter() if "marked" in (r.get("class") or "")]
    assert len(marked) == 1
    board = _text(out / "satellites" / "board.pdf")
    assert "21 connected: the game ends at once" in board
    rules = _text(out / "satellites" / "rules-en.pdf")
    assert "The moment 21 satellites in all (both colours) are connected" in rules
    assert "exactly 2 more moves" in rules and "with 21 marked" in rules
    assert not re.search(r"(?<!S-)\b23\b", rules)  # (rule S-23 is cited)
    italian_kit = tmp_path / "it"
    build(italian_kit, games=("satellites",), cards=cards, opts=BuildOptions(lang="it"))
    italian = _text(italian_kit / "satellites" / "rules-it.pdf")
    assert "Appena i satelliti connessi sono 21 in tutto" in italian
    assert "esattamente 2 mosse" in italian
    italian_pad = _text(italian_kit / "satellites" / "score-pad.pdf")
    assert ("La partita finisce subito con 21 satelliti connessi, oppure quando un giocatore "
            "ha connesso tutti i suoi 12 e l'altro ha esaurito le mosse di grazia (2).") \
        in italian_pad
    aid = _text(out / "satellites" / "player-aid-en.pdf")
    assert "21 satellites connected" in aid and "makes 2 grace moves" in aid
    pad = _text(out / "satellites" / "score-pad.pdf")
    assert ("The game ends at once at 21 connected satellites, or when a player has all 12 "
            "connected and the other has used up the grace moves (2).") in pad

    # the scorer: 21 connected end the game with these definitions, not with the shipped ones
    grid = tmp_path / "board.txt"
    grid.write_text(TWENTY_ONE, encoding="utf-8")
    assert score_main(["satellites", str(grid), "--json", "--cards", str(cards)]) == 0
    end = json.loads(capsys.readouterr().out)["end"]
    assert (end["connected"], end["over"], end["reason"]) == (21, True, "21-connected")
    assert end["message"] == ("game over: 21 satellites are connected (the game ends at once "
                              "at 21)")
    assert score_main(["satellites", str(grid), "--json"]) == 0
    end = json.loads(capsys.readouterr().out)["end"]
    assert end["over"] is False and end["message"].endswith(
        "it ends at 23, or 3 moves after a player has all 12 connected")
    # grace_moves_left counts up to the new grace moves only
    grace = tmp_path / "grace.yaml"
    grace.write_text("game: satellites\ngrace_moves_left: 3\nboard: |\n"
                     + "".join(f"  {line}\n" for line in TWENTY_ONE.splitlines()),
                     encoding="utf-8")
    assert score_main(["satellites", str(grace), "--cards", str(cards)]) == 2
    assert "grace_moves_left: must be 0, 1 or 2" in capsys.readouterr().err

    # dealing: the same deal (the board did not change), from the changed folder
    assert setup_main(["satellites", "--seed", "42", "--cards", str(cards)]) == 0
    dealt = capsys.readouterr().out
    assert setup_main(["satellites", "--seed", "42"]) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == dealt.split("\n", 1)[1]

    # the engine: a record (naming the folder with cards:) that reaches 21 connected ends
    # there; the shipped rules would let it go on
    record = tmp_path / "game.yaml"
    record.write_text(TWENTY_RECORD.format(cards=cards.name), encoding="utf-8")
    assert replay_main([str(record)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "ILLEGAL: move 2 (blue, line 17): j10-j9"
    assert lines[2] == ("  the game is already over (21 satellites are connected, and the game "
                        "ends at once at 21)")
    shipped = tmp_path / "shipped.yaml"
    shipped.write_text("\n".join(line for line in TWENTY_RECORD.format(cards="-").splitlines()
                                 if not line.startswith("cards:")) + "\n", encoding="utf-8")
    assert replay_main([str(shipped)]) == 0
    assert "The game goes on after move 2" in capsys.readouterr().out
    # two grace moves: the third move of blue's grace is refused
    assert replay_main([str(GRACE_RECORD), "--cards", str(cards)]) == 1
    out = capsys.readouterr().out
    assert ("ILLEGAL: move 4 (blue, line 21): a10-a9" in out
            and "blue has made its 2 grace moves" in out)
    assert replay_main([str(GRACE_RECORD)]) == 0  # the shipped 3 grace moves
    capsys.readouterr()


def test_every_number_of_the_texts_follows_the_ruleset(cards_copy, tmp_path):
    """Colony sizes, push reach, satellites and track length reach the booklets too."""
    cards = _change(cards_copy, colony_min=2, colony_max=5, push_reach=3)
    trackers = cards / "satellites" / "trackers.yaml"
    trackers.write_text(trackers.read_text(encoding="utf-8").replace("max: 24", "max: 25"),
                        encoding="utf-8")
    out = tmp_path / "out"
    build(out, games=("satellites",), cards=cards, opts=BuildOptions())
    rules = _text(out / "satellites" / "rules-en.pdf")
    for phrase in ("a group of 2 or more is a colony", "A group of 2 or more satellites is a "
                   "colony", "at most 5 satellites; a colony of 5 is crowned",
                   "No move may make a group of more than 5", "at most 3 cells away",
                   "(0 to 25, with 23 marked)"):
        assert phrase in rules, phrase
    italian = tmp_path / "it"
    build(italian, games=("satellites",), cards=cards, opts=BuildOptions(lang="it"))
    aid = _text(italian / "satellites" / "player-aid-it.pdf")
    for phrase in ("2 o più formano", "Al massimo 5 in un gruppo; una colonia di 5",
                   "in un gruppo di 2 o più senza quello spostato", "di 1–3 caselle"):
        assert phrase in aid, phrase


def test_a_sentence_the_change_made_untrue_is_named_by_the_build(cards_copy, tmp_path):
    """Issue 20, point 4a: colony_min 2 makes the colony diagram's pair a colony; the build
    still builds, and names every sentence that says otherwise, by file, line and language.
    The stall count of S-62 prints as the ruleset has it."""
    from testkit.commands import run_build

    cards = _change(cards_copy, colony_min=2, stall_moves=500)
    for lang in ("en", "ru", "it"):
        ran = run_build(["satellites", "--cards", str(cards), "--out", str(tmp_path / lang),
                         "--lang", lang])
        assert ran.exit_code == 0, ran.output
        warnings = [ln for ln in ran.stderr.splitlines() if "warning:" in ln]
        # the booklet's and the aid's colony diagram caption, in the kit's language
        for name in (f"rules-{lang}.md", f"player-aid-{lang}.md"):
            hits = [w for w in warnings if f"{name}:" in w and f"({lang})" in w]
            assert hits and all("colony_min is 2, so the diagram's pair is a colony" in w
                                for w in hits), (name, warnings)
        assert all("S-27" in w for w in warnings), warnings
        text = _text(tmp_path / lang / "satellites" / f"rules-{lang}.pdf")
        assert "500" in text and "1000" not in text
    # the definitions as shipped: no warning at all
    ran = run_build(["satellites", "--out", str(tmp_path / "shipped")])
    assert ran.exit_code == 0 and "warning:" not in ran.stderr, ran.stderr

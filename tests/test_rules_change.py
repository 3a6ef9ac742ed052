"""A designer changes rule numbers in a copy of the definitions, then builds, scores, deals and
replays: every printed thing and every command uses the new numbers (no second copy of a
rule number anywhere)."""

from __future__ import annotations

import json
from pathlib import Path

from pypdf import PdfReader

from generator.build import BuildOptions, build
from records.replay_cli import main as replay_main
from records.setup_cli import main as setup_main
from scorer.cli import main as score_main


def _text(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def _changed_orbitus(cards_copy: Path) -> Path:
    rules = cards_copy / "orbitus" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert "hand_size: 4" in text and "{min: 3, max: 3, points: 2}" in text
    rules.write_text(text.replace("hand_size: 4", "hand_size: 5")
                     .replace("{min: 3, max: 3, points: 2}", "{min: 3, max: 3, points: 4}"),
                     encoding="utf-8")
    return cards_copy


THREE_ICE = """\
game: orbitus
players: [Anna, Boris]
sectors:
  - {at: [0, -1], routes: [S, N], planet: ice}
  - {at: [0, -2], routes: [S, N], planet: ice}
  - {at: [0, -3], routes: [S], planet: ice}
"""


def test_orbitus_hand_size_and_a_planet_row(cards_copy, tmp_path, capsys):
    cards = _changed_orbitus(cards_copy)
    # the printables
    out = tmp_path / "out"
    build(out, games=("orbitus",), cards=cards, opts=BuildOptions())
    booklet = _text(out / "orbitus" / "rules-en.pdf")
    assert "Every player's hand limit starts at 5" in " ".join(booklet.split())
    assert "hand of 5 face-down" in " ".join(booklet.split())
    aid = " ".join(_text(out / "orbitus" / "player-aid-en.pdf").split())
    assert "Deal 5 sectors to each player" in aid
    pad = _text(out / "orbitus" / "score-pad.pdf")
    assert "3 → +4" in pad and "3 → +2" not in pad
    # the scorer
    layout = tmp_path / "table.yaml"
    layout.write_text(THREE_ICE, encoding="utf-8")
    assert score_main(["orbitus", str(layout), "--json", "--cards", str(cards)]) == 0
    anna = json.loads(capsys.readouterr().out)["players"][0]
    ice = anna["planets"]["ice"]
    assert ice["count"] == 3 and ice["points"] == 4 and anna["total"] == 4
    assert score_main(["orbitus", str(layout), "--json"]) == 0  # the shipped rules: +2
    assert json.loads(capsys.readouterr().out)["players"][0]["total"] == 2
    # dealing
    assert setup_main(["orbitus", "--names", "Anna,Boris", "--seed", "3", "--json", "--cards",
                       str(cards)]) == 0
    deal = json.loads(capsys.readouterr().out)
    assert deal["hand_size"] == 5 and [len(h) for h in deal["hands"].values()] == [5, 5]
    # replaying a record that names the definitions folder
    record = tmp_path / "game.yaml"
    record.write_text(f"game: orbitus\ncards: {cards.name}\nplayers: [Anna, Boris]\nseed: 3\n"
                      f"moves:\n  - discard {deal['hands']['Anna'][0]}\n", encoding="utf-8")
    assert replay_main(["--json", str(record)]) == 0
    position = json.loads(capsys.readouterr().out)["position"]
    assert position["hand_limits"] == {"Anna": 5, "Boris": 5}
    assert [len(h) for h in position["hands"].values()] == [5, 5]


def test_the_planet_table_s_last_row_in_the_prose(cards_copy, tmp_path):
    """Issue 20, point 4a: the booklet's sentence on the planet table's last row follows the
    table (5 or more, once the table ends at 5); when the last row gets an upper bound the
    sentence would be untrue, and the build names it in the booklet and the aid, in the
    kit's language."""
    from testkit.commands import run_build

    rules = cards_copy / "orbitus" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    shorter = text.replace("    - {min: 5, max: 5, points: 7}\n", "").replace(
        "{min: 6, points: 9}", "{min: 5, points: 9}")
    rules.write_text(shorter, encoding="utf-8")
    out = tmp_path / "out"
    ran = run_build(["orbitus", "--cards", str(cards_copy), "--out", str(out)])
    assert ran.exit_code == 0 and "warning:" not in ran.stderr, ran.output
    booklet = " ".join(_text(out / "orbitus" / "rules-en.pdf").split())
    assert "5 or more planets of one type all score like 5" in booklet
    assert "6 or more" not in booklet
    # a bounded last row: 6 or more ice would score nothing, and no sentence says so
    rules.write_text(text.replace("{min: 6, points: 9}", "{min: 6, max: 8, points: 9}"),
                     encoding="utf-8")
    for lang in ("en", "ru"):
        ran = run_build(["orbitus", "--cards", str(cards_copy), "--out",
                         str(tmp_path / lang), "--lang", lang])
        assert ran.exit_code == 0, ran.output
        warnings = [ln for ln in ran.stderr.splitlines() if "warning:" in ln]
        for name in (f"rules-{lang}.md", f"player-aid-{lang}.md"):
            assert any(f"{name}:" in w and f"({lang})" in w and "6–8" in w and "O-55" in w
                       for w in warnings), (name, warnings)

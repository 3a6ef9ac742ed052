"""Issue 24 on the command line: pnp build --preset NAME, --preflight DIR, --tts-base-url;
exit codes and messages as a user sees them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from PIL import Image

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_an_unknown_preset_lists_them_with_exit_2(tmp_path, capsys):
    assert main(["--preset", "tgc", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--preset tgc: no such preset (there are: drivethrucards, makeplayingcards, " \
           "playingcards-io, printshop, screentop, thegamecrafter)" in err
    assert not any(tmp_path.iterdir())


def test_preset_then_preflight_of_the_folder(tmp_path, capsys):
    assert main(["--preset", "printshop", "--game", "satellites", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith("no problems")
    folder = tmp_path / "printshop"
    assert (folder / "satellites/board.pdf").is_file() and (folder / "manifest.csv").is_file()
    assert not (tmp_path / "satellites").exists()  # the home kit is not built
    assert main(["--preflight", str(folder)]) == 0
    assert capsys.readouterr().out.strip().endswith("no problems")


def test_a_broken_build_folder_is_exit_1_one_line_per_problem(tmp_path, capsys):
    assert main(["--preset", "thegamecrafter", "--game", "satellites", "--out",
                 str(tmp_path), "-q"]) == 0
    name = tmp_path / "thegamecrafter/satellites/LargeCircleChit/satellite-red-1-front.png"
    with Image.open(name) as image:
        image.resize((188, 188)).save(name)
    capsys.readouterr()
    assert main(["--preflight", str(tmp_path / "thegamecrafter")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == "1 problem(s):"
    assert lines[-1].startswith("satellites/LargeCircleChit/satellite-red-1-front.png: "
                                "satellites.satellite: 150 dpi (188 × 188 px")


def test_preflight_of_a_folder_that_is_no_preset_build_is_exit_2(tmp_path, capsys):
    assert main(["--preflight", str(tmp_path)]) == 2
    assert "preset.yaml: not found; is this the folder of a preset build" in \
        capsys.readouterr().out


def test_a_component_too_large_for_its_product_is_exit_1_nothing_written(tmp_path, capsys):
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards" / "satellites", cards / "satellites")
    shutil.copytree(ROOT / "cards" / "orbitus", cards / "orbitus")
    (cards / "presets").mkdir()
    text = (ROOT / "cards/presets/thegamecrafter.yaml").read_text(encoding="utf-8")
    (cards / "presets/small.yaml").write_text(text.replace(
        "name: thegamecrafter", "name: small").replace(
        "satellites.board: {product: QuadFoldBoard}",
        "satellites.board: {product: LargeSquareChit}"), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["--preset", "small", "--cards", str(cards), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "preset small: satellites.board (324 × 364 mm) does not fit on The Game Crafter " \
           "Large Square Chit (25.4 × 25.4 mm cut)" in err
    assert "nothing was written" in err and not out.exists()


def test_preset_and_preflight_together_is_misuse(tmp_path, capsys):
    assert main(["--preset", "printshop", "--preflight", str(tmp_path)]) == 2
    assert main(["--preset", "printshop", "--tts"]) == 2
    err = capsys.readouterr().err
    assert "--tts: for the home kit, not with --preset" in err


def test_tts_base_url_names_every_image_by_url(tmp_path, capsys):
    assert main(["--game", "satellites", "--out", str(tmp_path), "-q",
                 "--tts-base-url", "https://example.org/kit"]) == 0
    save = json.loads((tmp_path / "satellites/tts/Satellites.json").read_text(encoding="utf-8"))
    objects = save["ObjectStates"]
    urls = {o["CustomImage"]["ImageURL"] for o in objects if "CustomImage" in o}
    assert "https://example.org/kit/satellites/tts/board.png" in urls
    assert all(u.startswith("https://example.org/kit/satellites/tts/") for u in urls)
    # the booklet and the aid, TTS PDF objects, by URL too
    pdfs = {o["CustomPDF"]["PDFUrl"] for o in objects if "CustomPDF" in o}
    assert pdfs == {"https://example.org/kit/satellites/rules-en.pdf",
                    "https://example.org/kit/satellites/player-aid-en.pdf"}
    assert all("CustomImage" in o or "CustomPDF" in o for o in objects)
    assert main(["--tts-base-url", "example.org/kit", "--out", str(tmp_path)]) == 2
    assert "expected an http:// or https:// address" in capsys.readouterr().err

"""pnp diff OLD NEW: folders, build folders and git revisions; text, JSON and a page with
pictures; exit 0 no change, 1 changes, 2 unreadable."""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from design_helpers import copy_cards, edit

from design.diff_cli import main

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
RECORDS = ROOT / "tests" / "fixtures" / "records" / "orbitus"






def _three_sectors_and_a_row(folder: Path) -> None:
    deck = folder / "orbitus" / "sectors.yaml"
    edit(deck, "{id: S05, routes: [SE, S, SW], planet: ice}",
          "{id: S05, routes: [N, S, SW], planet: ice}")
    edit(deck, "{id: S17, routes: [N, SE, S, SW], planet: lava}",
          "{id: S17, routes: [N, SE, S, SW], planet: ice}")
    edit(deck, "{id: S40, routes: [N, S], planet: ocean}",
          "{id: S40, routes: [N, NE, S], planet: ocean}")
    edit(folder / "orbitus" / "rules.yaml", "{min: 6, points: 9}", "{min: 6, points: 10}")


def test_two_identical_folders_are_no_change(tmp_path, capsys):
    assert main([str(CARDS), str(copy_cards(tmp_path / "mine"))]) == 0
    out = capsys.readouterr().out
    assert out.count("  no change") == 2


def test_three_sectors_and_a_scoring_row(tmp_path, capsys):
    mine = copy_cards(tmp_path / "mine")
    _three_sectors_and_a_row(mine)
    assert main([str(CARDS), str(mine), "--game", "orbitus"]) == 1
    out = capsys.readouterr().out
    assert "  components: 3 changed, 0 added, 0 removed" in out
    assert "    changed  sector-S05  (sectors[S05].routes: [SE, S, SW] → [N, S, SW])" in out
    assert "    changed  sector-S17  (sectors[S17].planet: lava → ice)" in out
    assert "  rule numbers:\n    scoring.planet_groups[6+].points: 9 → 10" in out
    assert "  deals alike: seeds 1–3 of every player count\n" in out
    assert ("  records: none replayed (name game records with --records FILE..., or records "
            "in pnp.toml)\n") in out  # nothing replayed is not said to replay alike
    assert main([str(CARDS), str(mine), "--game", "orbitus", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    _valid(data, "diff")
    (game,) = data["games"]
    assert [c["name"] for c in game["components"]["changed"]] == [
        "sector-S05", "sector-S17", "sector-S40"]
    assert game["rules"] == [{"path": "scoring.planet_groups[6+].points", "old": 9, "new": 10,
                              "text": "scoring.planet_groups[6+].points: 9 → 10"}]
    assert game["old"]["hash"] != game["new"]["hash"]


def _valid(data: object, name: str) -> None:
    """``data`` is what the published schema docs/schemas/NAME.schema.json says."""
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text("utf-8"))
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(data)]
    assert not errors, errors


def test_build_since_json_follows_its_schema(tmp_path, capsys, monkeypatch):
    from generator.cli import main as build_main

    mine = copy_cards(tmp_path / "mine")
    _three_sectors_and_a_row(mine)
    monkeypatch.setenv("PNP_NO_PROJECT", "1")
    assert build_main(["--cards", str(mine), "--since", str(CARDS), "--game", "orbitus",
                       "--out", str(tmp_path / "out"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    _valid(data, "build-since")
    assert "reprint/orbitus/sectors.pdf" in data["files"]
    assert (tmp_path / "out" / "reprint" / "take-out.pdf").is_file()


def _images(page: str) -> dict[str, object]:
    from PIL import Image

    found = {}
    for alt, data in re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([^"]+)"',
                                page):
        found[alt] = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
    return found


def test_the_page_shows_each_changed_card_old_and_new_with_the_change_outlined(tmp_path,
                                                                               capsys):
    mine = copy_cards(tmp_path / "mine")
    _three_sectors_and_a_row(mine)
    page = tmp_path / "diff.html"
    assert main([str(CARDS), str(mine), "--html", str(page)]) == 1
    text = page.read_text(encoding="utf-8")
    images = _images(text)
    assert sorted(images) == sorted(f"sector-{s} {w}" for s in ("S05", "S17", "S40")
                                    for w in ("before", "after"))
    before, after = images["sector-S17 before"], images["sector-S17 after"]
    w, h = after.size
    centre = after.getpixel((w // 2, h // 2))
    assert before.getpixel((w // 2, h // 2)) != centre  # lava became ice in the middle
    red = [(x, y) for x in range(w) for y in range(h) if after.getpixel((x, y)) == (214, 39, 40)]
    assert red, "the changed region is outlined in red"
    xs, ys = [x for x, _ in red], [y for _, y in red]
    assert min(xs) < w // 2 < max(xs) and min(ys) < h // 2 < max(ys)  # around the centre
    corner = (w // 10, h // 2)  # the unchanged left corner of the hex is not outlined
    assert after.getpixel(corner) != (214, 39, 40)
    assert "<td><code>scoring.planet_groups[6+].points</code></td><td>9</td><td>10</td>" in text
    assert main([str(CARDS), str(mine), "--html", str(page)]) == 1  # its own page: replaced
    other = tmp_path / "notes.html"
    other.write_text("<p>mine</p>")
    assert main([str(CARDS), str(mine), "--html", str(other)]) == 2
    assert "is not a page pnp diff wrote; it is left alone" in capsys.readouterr().err
    assert other.read_text() == "<p>mine</p>"


def test_texts_are_a_word_diff_per_language_and_labels_are_named(tmp_path, capsys):
    mine = copy_cards(tmp_path / "mine")
    ru = mine / "orbitus" / "text" / "rules-ru.md"
    text = ru.read_text(encoding="utf-8")
    word = re.search(r"[А-Яа-я]{6,}", text).group(0)
    ru.write_text(text.replace(word, "ПРОБА", 1), encoding="utf-8")
    record = RECORDS / "random_game_3p_seed5.yaml"
    assert main([str(CARDS), str(mine), "--game", "orbitus", "--records", str(record)]) == 1
    assert "  records: 1 of 1 replay alike\n" in capsys.readouterr().out
    assert main([str(CARDS), str(mine), "--game", "orbitus", "--json"]) == 1
    (game,) = json.loads(capsys.readouterr().out)["games"]
    assert game["plays"] == {"setups": [], "records": [], "replayed": 0}
    (entry,) = game["texts"]
    _valid({"old": {"spec": "a", "label": "a", "kind": "folder"},
            "new": {"spec": "b", "label": "b", "kind": "folder"}, "changed": True,
            "games": [game]}, "diff")
    assert (entry["file"], entry["lang"], entry["state"]) == ("rules-ru.md", "ru", "changed")
    (change,) = entry["changes"]
    assert change["old"].startswith(word[:6]) and change["new"].startswith("ПРОБА")
    assert game["components"]["changed"] == []  # the booklet is no component


def test_a_deck_change_deals_other_games_and_records_play_differently(tmp_path, capsys):
    mine = copy_cards(tmp_path / "mine")
    edit(mine / "orbitus" / "sectors.yaml", "{id: S40, routes: [N, S], planet: ocean}",
          "{id: S40, routes: [N, S], planet: ocean, count: 2}")
    record = RECORDS / "random_game_3p_seed5.yaml"
    assert main([str(CARDS), str(mine), "--game", "orbitus", "--records", str(record)]) == 1
    out = capsys.readouterr().out
    assert "    copies   sector-S40: sectors[S40].count: 1 → 2" in out
    assert "    deal: 3 players: the deal of seed 1, 2, 3 differs" in out
    assert "random_game_3p_seed5.yaml: stops: null → move " in out
    assert "moves played: 98 → " in out
    assert "deals alike" not in out and "replay alike" not in out
    assert main([str(CARDS), str(mine), "--game", "orbitus", "--json", "--records",
                 str(record)]) == 1
    plays = json.loads(capsys.readouterr().out)["games"][0]["plays"]
    assert plays["replayed"] == 1 and len(plays["records"]) == 1


def test_a_build_folder_is_compared_by_the_definitions_it_kept(tmp_path, capsys):
    from generator.build import build

    mine = copy_cards(tmp_path / "mine")
    out = tmp_path / "out"
    build(out, ("orbitus",), mine)
    assert (out / "orbitus" / "design.json").is_file()
    _three_sectors_and_a_row(mine)
    assert main([str(out), str(mine), "--game", "orbitus"]) == 1
    said = capsys.readouterr().out
    assert "the build in" in said and "3 changed" in said
    shutil.rmtree(mine)  # the build stands alone
    assert main([str(out), str(out), "--game", "orbitus"]) == 0


def test_an_old_build_without_its_definitions_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "orbitus").mkdir(parents=True)
    (out / ".pnp-build.json").write_text("{}")
    assert main([str(out), str(CARDS)]) == 2
    assert "a build folder made before builds kept their definitions" in \
        capsys.readouterr().err


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
                        "PATH": "/usr/bin:/bin", "HOME": str(repo)})


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_revisions_of_the_definitions(tmp_path, capsys):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    mine = copy_cards(repo / "mine")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "v0.7.1")
    _git(repo, "tag", "v0.7.1")
    _three_sectors_and_a_row(mine)
    _git(repo, "commit", "-qam", "three sectors")
    assert main(["v0.7.1", "HEAD", "--cards", str(mine), "--game", "orbitus"]) == 1
    out = capsys.readouterr().out
    assert "(v0.7.1 (git " in out and "3 changed" in out
    assert main(["v0.7.1", "HEAD~0", "--cards", str(mine), "--game", "satellites"]) == 0
    capsys.readouterr()
    assert main(["v9.9", "HEAD", "--cards", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "v9.9: no such folder, and no revision 'v9.9' in the git repository" in err


def test_unreadable_definitions_are_exit_2_with_the_file(tmp_path, capsys):
    mine = copy_cards(tmp_path / "mine")
    (mine / "orbitus" / "rules.yaml").write_text("scoring: [\n")
    assert main([str(CARDS), str(mine), "--game", "orbitus"]) == 2
    err = capsys.readouterr().err
    assert "rules.yaml:" in err and "YAML syntax error" in err


def test_a_folder_that_is_neither(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main([str(tmp_path / "empty"), str(CARDS)]) == 2
    assert "neither a definitions folder" in capsys.readouterr().err

"""pnp sheet export/import: the definitions as a spreadsheet and back, byte for byte when
nothing changed, every problem at its cell with the words of the YAML loader."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from cards.sheet_files import read_file, render
from cards.spreadsheet import Sheet, export_sheets
from design.sheet_cli import main

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
FILES = [(g, p.stem) for g in ("orbitus", "satellites") for p in sorted((CARDS / g).glob("*.yaml"))]


def _sheets() -> dict[str, Sheet]:
    return {s.name: s for s in export_sheets(None, ["orbitus", "satellites"])}


def _write(target: Path, sheets: dict[str, Sheet] | list[Sheet]) -> list[Path]:
    listed = list(sheets.values()) if isinstance(sheets, dict) else sheets
    files = render(target, listed)
    for path, data in files.items():
        path.write_bytes(data)
    return list(files)


def _row(sheet: Sheet, ident: str) -> list:
    return next(r for r in sheet.rows if r and r[0] == ident)


@pytest.mark.parametrize("ext", [".xlsx", ".ods", ".csv"])
def test_every_shipped_file_round_trips_byte_for_byte_into_an_empty_folder(tmp_path, ext,
                                                                           capsys):
    files = _write(tmp_path / f"kit{ext}", _sheets())
    target = tmp_path / "mine"
    target.mkdir()
    assert main(["import", *map(str, files), "--cards", str(target)]) == 0
    for game, role in FILES:
        written = target / game / f"{role}.yaml"
        assert written.read_bytes() == (CARDS / game / f"{role}.yaml").read_bytes(), \
            f"{game}/{role}.yaml differs after {ext}"
    assert "8 file(s) written" in capsys.readouterr().err


@pytest.mark.parametrize("ext", [".xlsx", ".ods", ".csv"])
def test_an_unchanged_sheet_rewrites_nothing(tmp_path, ext, cards_copy, capsys):
    files = _write(tmp_path / f"kit{ext}", _sheets())
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in cards_copy.rglob("*.yaml")}
    assert main(["import", *map(str, files), "--cards", str(cards_copy)]) == 0
    assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in cards_copy.rglob("*.yaml")} \
        == before
    err = capsys.readouterr().err
    assert "0 file(s) written, 8 unchanged" in err


def _changed_lines(old: str, new: str) -> list[str]:
    return [line for line in difflib.unified_diff(old.splitlines(), new.splitlines(),
                                                   lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("ext", [".xlsx", ".ods", ".csv"])
def test_three_sectors_and_a_scoring_row_change_only_their_lines(tmp_path, ext, cards_copy):
    sheets = _sheets()
    deck = sheets["orbitus-sectors"]
    _row(deck, "S05")[1] = "N, S, SW"
    _row(deck, "S17")[2] = "ice"
    _row(deck, "S40")[4] = 2
    sheets["orbitus-planet_groups"].rows[6][2] = 10  # 6+ planets: 9 -> 10 points
    files = _write(tmp_path / f"kit{ext}", sheets)
    old_deck = (cards_copy / "orbitus" / "sectors.yaml").read_text(encoding="utf-8")
    old_rules = (cards_copy / "orbitus" / "rules.yaml").read_text(encoding="utf-8")
    assert main(["import", *map(str, files), "--cards", str(cards_copy)]) == 1  # no --force
    assert (cards_copy / "orbitus" / "sectors.yaml").read_text(encoding="utf-8") == old_deck
    assert main(["import", *map(str, files), "--cards", str(cards_copy), "--force"]) == 0
    new_deck = (cards_copy / "orbitus" / "sectors.yaml").read_text(encoding="utf-8")
    s40 = next(line for line in old_deck.splitlines() if "id: S40" in line)
    assert _changed_lines(old_deck, new_deck) == [
        "-  - {id: S05, routes: [SE, S, SW], planet: ice}",
        "+  - {id: S05, routes: [N, S, SW], planet: ice}",
        "-  - {id: S17, routes: [N, SE, S, SW], planet: lava}",
        "+  - {id: S17, routes: [N, SE, S, SW], planet: ice}",
        "-" + s40,
        "+" + s40.rstrip("}").rstrip() + ", count: 2}",
    ]
    new_rules = (cards_copy / "orbitus" / "rules.yaml").read_text(encoding="utf-8")
    assert _changed_lines(old_rules, new_rules) == [
        "-    - {min: 6, points: 9}          # 6 or more",
        "+    - {min: 6, points: 10}          # 6 or more",
    ]
    assert not list(cards_copy.rglob(".*.tmp"))  # written through temporary files


@pytest.mark.parametrize("ext", [".xlsx", ".csv"])
def test_a_tune_range_whose_key_has_dots_is_read_as_one_key(tmp_path, ext, cards_copy):
    # tune's keys name a number by its dotted path (scoring.planet_groups.1): the setting
    # tune.scoring.planet_groups.1 is that key of tune, and its cell a range
    sheets = _sheets()
    rules = sheets["orbitus-rules"]
    assert _row(rules, "tune.scoring.planet_groups.1")[1] == "-3, 0"
    _row(rules, "tune.scoring.planet_groups.1")[1] = "-4, 0"
    files = _write(tmp_path / f"kit{ext}", sheets)
    old = (cards_copy / "orbitus" / "rules.yaml").read_text(encoding="utf-8")
    assert main(["import", *map(str, files), "--cards", str(cards_copy), "--force"]) == 0
    new = (cards_copy / "orbitus" / "rules.yaml").read_text(encoding="utf-8")
    assert _changed_lines(old, new) == ["-  scoring.planet_groups.1: [-3, 0]",
                                        "+  scoring.planet_groups.1: [-4, 0]"]


def test_rows_added_and_removed_and_settings_changed(tmp_path, cards_copy):
    sheets = _sheets()
    deck = sheets["orbitus-sectors"]
    deck.rows.append(["S73", "N, S", "gas", None, None])
    deck.rows.remove(_row(deck, "S10"))
    sheets["orbitus-rules"].rows.insert(1, ["version", "0.7.2"])
    station = sheets["orbitus-station"]
    next(r for r in station.rows if r[0] == "player_colours")[1] = \
        "#000000, #1f77b4, #2ca02c, #ff7f0e, #9467bd, #8c564b"
    files = _write(tmp_path / "kit.xlsx", sheets)
    assert main(["import", *map(str, files), "--cards", str(cards_copy), "--force"]) == 0
    text = (cards_copy / "orbitus" / "sectors.yaml").read_text(encoding="utf-8")
    assert "  - {id: S73, routes: [N, S], planet: gas}\n" in text and "id: S10," not in text
    assert "\nversion: 0.7.2\n" in (cards_copy / "orbitus" / "rules.yaml").read_text("utf-8")
    assert 'player_colours: ["#000000", "#1f77b4",' in \
        (cards_copy / "orbitus" / "station.yaml").read_text(encoding="utf-8")
    from cards.design_cache import design

    assert design("orbitus", cards_copy).version == "0.7.2"


# --- problems at their cells, in the loader's words ------------------------------------------


def _yaml_problem(cards_copy: Path, old: str, new: str, file: str = "orbitus/sectors.yaml"
                  ) -> str:
    """The loader's line for the same mistake made in the YAML, without its FILE:LINE."""
    from cards.definitions import load_orbitus
    from cards.loader import DefinitionError

    path = cards_copy / file
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    try:
        with pytest.raises(DefinitionError) as caught:
            load_orbitus(cards_copy)
    finally:
        path.write_text(text, encoding="utf-8")
    return caught.value.problems[0].split(": ", 1)[1]


@pytest.mark.parametrize("ext", [".xlsx", ".ods", ".csv"])
def test_a_wrong_side_is_named_by_sheet_and_cell_as_the_loader_says_it(tmp_path, ext,
                                                                        cards_copy, capsys):
    sheets = _sheets()
    deck = sheets["orbitus-sectors"]
    row = _row(deck, "S17")
    row[1] = "N, NNE"
    files = _write(tmp_path / f"kit{ext}", sheets)
    assert main(["import", *map(str, files), "--cards", str(cards_copy), "--force"]) == 1
    err = capsys.readouterr().err.splitlines()
    number = deck.rows.index(row) + 1
    assert err[0] == (f"orbitus-sectors!B{number}: sector S17: routes: 'NNE' is not a side "
                      f"(N, NE, SE, S, SW, NW)")
    assert err[0].split(": ", 1)[1] == _yaml_problem(
        cards_copy, "{id: S17, routes: [N, SE, S, SW]", "{id: S17, routes: [N, NNE]")
    assert err[-1] == "pnp sheet import: 1 problem(s); nothing was written"


@pytest.mark.parametrize(("column", "value", "yaml_old", "yaml_new"), [
    (4, "abc", "{id: S17, routes: [N, SE, S, SW], planet: lava}",
     "{id: S17, routes: [N, SE, S, SW], planet: lava, count: abc}"),
    (4, "07", "{id: S17, routes: [N, SE, S, SW], planet: lava}",
     "{id: S17, routes: [N, SE, S, SW], planet: lava, count: 07}"),
    (2, "rock", "planet: lava}\n  - {id: S18", "planet: rock}\n  - {id: S18"),
    (0, "S16", "{id: S17,", "{id: S16,"),
])
def test_each_mistake_is_the_loaders_sentence_at_its_cell(tmp_path, cards_copy, capsys,
                                                          column, value, yaml_old, yaml_new):
    sheets = _sheets()
    deck = sheets["orbitus-sectors"]
    row = _row(deck, "S17")
    row[column] = value
    files = _write(tmp_path / "kit.csv", [deck])
    assert main(["import", *map(str, files), "--cards", str(cards_copy)]) == 1
    line = capsys.readouterr().err.splitlines()[0]
    number = deck.rows.index(row) + 1
    ref, message = line.split(": ", 1)
    assert ref == f"orbitus-sectors!{'ABCDE'[column]}{number}"
    expected = _yaml_problem(cards_copy, yaml_old, yaml_new)
    if value == "S16":  # the first use is named by its place: a line in YAML, a cell here
        first = deck.rows.index(_row(deck, "S16")) + 1
        expected = expected.replace("line 53", f"cell orbitus-sectors!A{first}")
    assert message == expected


def test_an_unknown_column_is_an_unknown_field_at_its_cell(tmp_path, cards_copy, capsys):
    deck = _sheets()["orbitus-sectors"]
    header = next(i for i, r in enumerate(deck.rows) if r and r[0] == "id")
    deck.rows[header].append("colour")
    deck.rows[header + 3] += [None] * (5 - len(deck.rows[header + 3])) + ["#ff0000"]
    files = _write(tmp_path / "kit.csv", [deck])
    assert main(["import", *map(str, files), "--cards", str(cards_copy)]) == 1
    line = capsys.readouterr().err.splitlines()[0]
    assert line.startswith(f"orbitus-sectors!F{header + 4}: sector S03: colour: unknown field "
                           f"'colour' (known fields: id, routes, planet, pirate, count)")


def test_a_rules_table_sheet_names_its_cells(tmp_path, cards_copy, capsys):
    sheets = _sheets()
    sheets["orbitus-closed_blocks"].rows[2][1] = 2  # 5-2: max below min
    files = _write(tmp_path / "kit.ods", sheets)
    assert main(["import", str(files[0]), "--cards", str(cards_copy)]) == 1
    line = capsys.readouterr().err.splitlines()[0]
    # the row of the band, in the words the loader has for the same mistake in rules.yaml
    assert line == "orbitus-closed_blocks!A3: scoring.closed_blocks: max 2 is below min 5"
    assert line.split(": ", 1)[1] == _yaml_problem(
        cards_copy, "{min: 5, max: 9, points: 3}", "{min: 5, max: 2, points: 3}",
        "orbitus/rules.yaml")


def test_one_published_csv_sheet_into_an_existing_folder(tmp_path, cards_copy, capsys):
    deck = _sheets()["orbitus-sectors"]
    _row(deck, "S01")[3] = "true"
    _row(deck, "S01")[2] = None
    download = tmp_path / "export.csv"  # as a browser names a published sheet
    download.write_bytes(render(tmp_path / "x.csv", [deck])[tmp_path / "x.orbitus-sectors.csv"])
    assert main(["import", str(download), "--cards", str(cards_copy)]) == 2
    err = capsys.readouterr().err  # 'export' names no sheet
    assert "sheet 'export' is not a definitions sheet" in err and "--sheet NAME" in err
    assert main(["import", str(download), "--sheet", "orbitus-sectors", "--cards",
                 str(cards_copy), "--force"]) == 0
    assert "  - {id: S01, routes: [N], pirate: true}\n" in \
        (cards_copy / "orbitus" / "sectors.yaml").read_text(encoding="utf-8")


# --- files: refused, never overwritten, deterministic -------------------------------------------


def test_export_is_deterministic_and_never_replaces_a_file_without_force(tmp_path, capsys):
    out = tmp_path / "kit.xlsx"
    assert main(["export", str(out)]) == 0
    first = out.read_bytes()
    assert main(["export", str(out)]) == 1
    assert "exists; it is left alone (pass --force" in capsys.readouterr().err
    assert main(["export", str(out), "--force"]) == 0
    assert out.read_bytes() == first
    ods = tmp_path / "kit.ods"
    assert main(["export", str(ods)]) == 0
    assert [s.name for s in read_file(ods)][:3] == ["orbitus-planets", "orbitus-sectors",
                                                   "orbitus-station"]


def test_export_csv_writes_a_file_per_sheet(tmp_path, capsys):
    assert main(["export", str(tmp_path / "mine.csv"), "--game", "satellites"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mine.satellites-board.csv", "mine.satellites-rules.csv",
        "mine.satellites-satellites.csv", "mine.satellites-trackers.csv"]
    assert (tmp_path / "mine.satellites-satellites.csv").read_text().splitlines()[:4] == [
        "field,value", "diameter_mm,25", "markers,true", ""]


@pytest.mark.parametrize(("name", "data", "message"), [
    ("kit.xlsx", b"not a zip", "kit.xlsx: not a .xlsx workbook (it is no zip file)"),
    ("kit.ods", b"PK\x03\x04broken", "kit.ods: not a .ods workbook"),
    ("kit.csv", b"\xff\xfe", "kit.csv: not UTF-8 text (byte 0)"),
    ("kit.txt", b"x", "kit.txt: not a spreadsheet this tool reads or writes"),
])
def test_unreadable_files_are_one_line_and_exit_2(tmp_path, cards_copy, capsys, monkeypatch,
                                                  name, data, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_bytes(data)
    assert main(["import", name, "--cards", str(cards_copy)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_formula_without_a_value_is_refused_at_its_cell(tmp_path, cards_copy, capsys):
    from openpyxl import Workbook

    book = Workbook()
    page = book.active
    page.title = "orbitus-rules"
    page.append(["field", "value"])
    page.append(["hand_size", "=2+2"])
    book.save(tmp_path / "f.xlsx")
    assert main(["import", str(tmp_path / "f.xlsx"), "--cards", str(cards_copy)]) == 2
    assert "orbitus-rules!B2: a formula (=2+2) without a computed value" in \
        capsys.readouterr().err


def test_the_shipped_folder_is_never_written(tmp_path, capsys):
    files = _write(tmp_path / "kit.xlsx", _sheets())
    assert main(["import", str(files[0]), "--cards", str(CARDS)]) == 2
    assert "the shipped definitions folder, which is never written" in capsys.readouterr().err
    assert main(["import", str(files[0])]) == 2


def test_dry_run_writes_nothing(tmp_path, cards_copy, capsys):
    sheets = _sheets()
    _row(sheets["orbitus-sectors"], "S05")[1] = "N"
    files = _write(tmp_path / "kit.xlsx", sheets)
    before = (cards_copy / "orbitus" / "sectors.yaml").read_bytes()
    assert main(["import", str(files[0]), "--cards", str(cards_copy), "--dry-run"]) == 0
    assert (cards_copy / "orbitus" / "sectors.yaml").read_bytes() == before
    assert "sectors.yaml: 1 line(s) changed" in capsys.readouterr().err


def test_import_into_a_folder_that_is_a_project_file(tmp_path, cards_copy, monkeypatch, capsys):
    shutil.move(str(cards_copy), str(tmp_path / "defs"))
    (tmp_path / "pnp.toml").write_text('cards = "defs"\n')
    monkeypatch.chdir(tmp_path)
    files = _write(tmp_path / "kit.xlsx", _sheets())
    assert main(["import", str(files[0]), "-v"]) == 0
    assert "pnp sheet: project file pnp.toml; definitions defs" in capsys.readouterr().err

"""What the commands write besides a build: pictures never replace an input or a file the
tool did not write, and records are written by a YAML emitter."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

import generator.output as output
from cards.loader import parse_yaml
from cards.yaml_out import flow
from records.replay_cli import main as replay_main
from records.setup_cli import main as setup_main
from scorer.cli import main as score_main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
INPUTS = {
    "orbitus": FIXTURES / "orbitus" / "two-players.yaml",
    "satellites": FIXTURES / "satellites" / "contested.txt",
    "replay": FIXTURES / "records" / "orbitus" / "opening_seed42.yaml",
}


def command(kind: str, path: Path | None, *extra: str) -> tuple:
    if kind == "replay":
        return replay_main, [str(path), *extra]
    if kind in ("orbitus", "satellites"):
        return score_main, [kind, str(path), *extra]
    game = kind.removeprefix("setup-")
    return setup_main, [game, "--seed", "3", *(["--players", "3"] if game == "orbitus" else []),
                        *extra]


ALL = ["orbitus", "satellites", "replay", "setup-orbitus", "setup-satellites"]
PROGS = {"orbitus": "pnp-score orbitus", "satellites": "pnp-score satellites",
         "replay": "pnp-replay", "setup-orbitus": "pnp-setup orbitus",
         "setup-satellites": "pnp-setup satellites"}


def copy_input(kind: str, folder: Path) -> Path | None:
    if kind not in INPUTS:
        return None
    target = folder / INPUTS[kind].name
    target.write_bytes(INPUTS[kind].read_bytes())
    return target


def refused(kind: str, capsys, extra: list[str], path: Path | None = None) -> str:
    main, args = command(kind, path, *extra)
    code = main(args)
    out = capsys.readouterr()
    assert code == 2 and out.out == "", (code, out)
    assert out.err.count("\n") == 1
    return out.err.rstrip("\n")


@pytest.mark.parametrize("kind", ["orbitus", "satellites", "replay"])
@pytest.mark.parametrize("flag", ["svg", "png"])
def test_a_picture_never_replaces_the_input(kind, flag, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    path = copy_input(kind, tmp_path)
    assert path is not None
    before = path.read_bytes()
    err = refused(kind, capsys, [f"--{flag}", path.name], Path(path.name))
    assert err.startswith(f"{PROGS[kind]}: --{flag} {path.name}: is the input file {path.name}; "
                          "give the picture a name of its own")
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", ALL)
def test_picture_targets_are_checked_before_anything_is_printed(kind, tmp_path, monkeypatch,
                                                                capsys):
    monkeypatch.chdir(tmp_path)
    path = copy_input(kind, tmp_path)
    prog = PROGS[kind]
    Path("notes.txt").write_text("my notes")
    Path("pics").mkdir()
    cases = {
        ("--svg", "-"): f"{prog}: --svg: give a file name, not '-', e.g. ",
        ("--svg", "pics"): f"{prog}: --svg pics: is a folder; give a file name, e.g. pics/",
        ("--png", "typo/a/b/x.png"): f"{prog}: --png typo/a/b/x.png: the folder typo/a/b does "
                                     "not exist; create it first",
        ("--svg", "notes.txt"): f"{prog}: --svg notes.txt: already exists and is not an SVG "
                                "picture this tool wrote; it is left alone: give a new name "
                                "(or delete the file first)",
        ("--png", "/dev/null"): f"{prog}: --png /dev/null: is not a regular file",
        ("--svg", "same.svg", "--png", "same.svg"): f"{prog}: --svg same.svg: is also the "
                                                    "other picture's file",
    }
    for extra, start in cases.items():
        err = refused(kind, capsys, list(extra), path and Path(path.name))
        assert err.startswith(start), err
    assert Path("notes.txt").read_text() == "my notes"
    assert not Path("typo").exists() and not Path("-").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["notes.txt", "pics", *([path.name] if path else [])])


@pytest.mark.parametrize("kind", ALL)
def test_a_failed_write_names_the_users_file(kind, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    path = copy_input(kind, tmp_path)
    real = output.write_atomic

    def full(target: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device",
                      str(target.parent / f".{target.name}.x7y8z9ab.tmp"))

    monkeypatch.setattr(output, "write_atomic", full)
    main, args = command(kind, path and Path(path.name), "--svg", "table.svg")
    assert main(args) == 2
    out = capsys.readouterr()
    assert out.err.splitlines()[-1] == (f"{PROGS[kind]}: cannot write the picture table.svg: "
                                        "No space left on device")
    assert ".tmp" not in out.err
    monkeypatch.setattr(output, "write_atomic", real)
    assert main(args) in (0, 1)
    assert Path("table.svg").read_bytes().startswith(b"<?xml")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


def test_an_existing_picture_is_replaced(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    path = copy_input("orbitus", tmp_path)
    assert score_main(["orbitus", str(path), "--svg", "t.svg", "--png", "t.png"]) == 0
    assert score_main(["orbitus", str(path), "--svg", "t.svg", "--png", "t.png"]) == 0
    capsys.readouterr()


# --- records through a YAML emitter ----------------------------------------------------------

SPECIAL = ["- Bob", "Anna, Bob", "#1", "&anchor", "*alias", "!tag", "|pipe", ">fold",
           "'quote", '"double', "%percent", "@at", "`tick", "{brace}", "[bracket]",
           "key: value", "? query", "no", "yes", "on", "off", "true", "null", "~", "07", "010",
           "1e3", "0o17", "0x1f", ".inf", "2024-05-01", "1_000", "1:30", "=", "<<", " lead",
           "trail ", "Zoë", "Пётр", "日本", "a#b", "a #b", "tab\there"]


@pytest.mark.parametrize("name", SPECIAL)
def test_flow_round_trips_every_yaml_special_name(name):
    for value in (name, [name, "x"], {name: [name]}):
        text = f"v: {flow(value)}\n"
        assert parse_yaml(text, Path("t.yaml"), "a test").data["v"] == value, text


def test_a_setup_record_with_special_names_replays(tmp_path, capsys):
    names = ["- Bob", "Anna, Jr.", "#1", "no", "07", "'Q'"]
    for pair in (names[:3], names[3:]):
        arg = ",".join(n for n in pair if "," not in n)
        code = setup_main(["orbitus", "--names", arg, "--seed", "5", "--record"])
        record = capsys.readouterr().out
        assert code == 0
        path = tmp_path / "game.yaml"
        path.write_text(record, encoding="utf-8")
        assert replay_main([str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert [p["name"] for p in replayed["players"]] == arg.split(",")


def test_an_engine_written_record_keeps_names(tmp_path, capsys):
    from cards.definitions import load_orbitus
    from records.orbitus_replay import record_text
    from records.orbitus_setup import dealt

    names = ["- Bob", "Anna: x", "no"]
    start = dealt(load_orbitus().ruleset, names, 7)
    text = record_text(start, [], 7, "a note\nwith a second line\x1b[2J")
    data = parse_yaml(text, Path("r.yaml"), "a record").data
    assert data["players"] == names
    assert list(data["start_lines"]) == names
    assert "\x1b" not in text and "# with a second line\\x1b[2J" in text

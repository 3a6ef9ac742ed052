"""``pnp-score orbitus`` as a user meets it: exit codes, messages, JSON, options, imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.cli import main
from scorer.orbitus.cli import run

ROOT = Path(__file__).resolve().parent.parent
VALID = textwrap.dedent("""\
    game: orbitus
    players: [Anna, Boris]
    sectors:
      - {at: [0, -1], routes: [S, N, NE], planet: ice}
      - {at: [0, -2], routes: [S, SE], planet: ice}
      - {at: [1, -2], routes: [SW, NW], planet: ice}
      - {at: [0, 1], card: S04, rot: 0}
    """)


def write(tmp_path: Path, text: str, name: str = "table.yaml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_valid_table_prints_the_breakdown_and_exits_0(tmp_path, capsys):
    path = write(tmp_path, VALID)
    assert main(["orbitus", str(path)]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    lines = out.out.splitlines()
    assert lines[0].endswith("— 4 sector(s) — valid")
    assert "Anna (start lines: N NE SE) — 3 sector(s) in the system" in lines
    assert any(line.split() == ["planets", "ice", "×", "3", "+2"] for line in lines)
    assert any(line.split()[:6] == ["closed", "block", "of", "3", "from", "[0,"]
               and line.split()[-1] == "+1" for line in lines)
    assert any(line.split() == ["total", "3"] for line in lines)
    # Boris: one ice (S04) and an open route at its S side
    assert any(line.split() == ["open", "routes", "at", "[0,", "1]S"] for line in lines)
    assert "Winner: Anna wins with 3 point(s)" in lines
    assert "Neutral zones: none" in lines


def test_json_has_the_keys_the_issue_names(tmp_path, capsys):
    path = write(tmp_path, VALID)
    assert run([str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"game", "valid", "violations", "players", "neutral", "winners"} <= set(out)
    assert out["game"] == "orbitus" and out["valid"] is True and out["violations"] == []
    anna, boris = out["players"]
    assert [p["name"] for p in out["players"]] == ["Anna", "Boris"]
    for p in out["players"]:
        assert {"name", "sectors", "planets", "pirates", "open_routes", "closed_blocks",
                "total"} <= set(p)
        for group in p["planets"].values():
            assert {"count", "points"} <= set(group)
        assert {"count", "points"} <= set(p["pirates"]) and {"count", "points"} <= set(
            p["open_routes"])
    assert anna["sectors"] == [[0, -2], [0, -1], [1, -2]]
    assert anna["planets"]["ice"]["count"] == 3 and anna["planets"]["ice"]["points"] == 2
    assert anna["closed_blocks"] == [{"size": 3, "points": 1,
                                      "sectors": [[0, -2], [1, -2], [0, -1]]}]
    assert anna["total"] == 3
    assert boris["total"] == -2 - 1
    assert out["neutral"] == [] and out["winners"] == ["Anna"]


def test_output_is_deterministic(tmp_path, capsys):
    path = write(tmp_path, VALID)
    outputs = []
    for _ in range(2):
        run([str(path), "--json"])
        outputs.append(capsys.readouterr().out)
        run([str(path)])
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[2] and outputs[1] == outputs[3]


def test_help_explains_every_option(capsys):
    assert run(["--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--json", "--svg FILE", "--png FILE", "--lenient", "--cards DIR", "LAYOUT"):
        assert option in text
    assert "exit codes: 0" in text and "rot:" in text and "start_lines" in text


@pytest.mark.parametrize("args,message", [
    ([], "the following arguments are required: LAYOUT (or --photo FILE)"),
    (["a.yaml", "b.yaml"], "unrecognized arguments: b.yaml"),
    (["--bogus", "a.yaml"], "unrecognized arguments: --bogus"),
    (["--jsn", "a.yaml"], "unrecognized arguments: --jsn; did you mean --json?"),
    (["a.yaml", "--svg"], "--svg: expected one argument"),
])
def test_misuse_is_one_line_pointing_to_help(args, message, capsys):
    assert run(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"pnp-score orbitus: {message} (see pnp-score orbitus --help)\n"


@pytest.mark.parametrize("text,message", [
    ("players: [A, B]\nsectors:\n  - {at: [0, 1]\n",
     "table.yaml:4: YAML syntax error: did not find expected ',' or '}'"),
    ("# nothing here\n", "table.yaml:1: the file is empty; expected an Orbitus layout"),
    ("- 1\n- 2\n", "table.yaml:1: expected a mapping with players and sectors at the top level "
                   "(see 'pnp-score orbitus --help'), got a list"),
    ("sectors: []\n", "table.yaml:1: players: is required but missing (e.g. players: "
                      "[Anna, Boris])"),
    ("players: [A, B]\n", "table.yaml:1: sectors: is required but missing (e.g. sectors: "
                          "[{at: [0, -1], card: S07, rot: 2}])"),
    ("players: [A, B]\nsectors: 3\n", "table.yaml:2: sectors: expected a list, got a number "
                                      "(e.g. sectors: [{at: [0, -1], card: S07, rot: 2}])"),
    ("players: A\nsectors: []\n", "table.yaml:1: players: expected a list, got text (e.g. "
                                  "players: [Anna, Boris])"),
    ("game: satellites\nplayers: [A, B]\nsectors: []\n",
     "table.yaml:1: game: this is a layout for 'satellites', not for orbitus; score it with "
     "'pnp-score satellites'"),
    ("players: [A, B]\ncards: 5\nsectors: []\n",
     "table.yaml:2: cards: expected a definitions folder or a deck file next to the layout "
     "(e.g. cards: my-game or cards: my-deck.yaml), got 5"),
    ("players: [A, B]\ncards: deck.yaml\nsectors: []\n",
     "table.yaml:2: cards: 'deck.yaml': file not found (deck.yaml); expected a definitions "
     "folder or a deck file laid out like cards/orbitus/sectors.yaml"),
    ("players: [A, B]\nsectors: []\nplayers: [C]\n",
     "table.yaml:3: players: duplicate key (first given on line 1)"),
])
def test_unreadable_layouts_exit_2_with_file_and_line(tmp_path, monkeypatch, capsys, text,
                                                      message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, text)
    assert run(["table.yaml"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.splitlines() == [message]


def test_missing_file_and_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(["nope.yaml"]) == 2
    assert capsys.readouterr().err == "nope.yaml: file not found; expected an Orbitus " \
                                      "layout\n"
    assert run(["."]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_not_utf8(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "table.yaml").write_bytes(b"players: [\xff]\n")
    assert run(["table.yaml"]) == 2
    assert capsys.readouterr().err == "table.yaml: not UTF-8 text (byte 10); save the file as " \
                                      "UTF-8 text\n"


@pytest.mark.parametrize("cards", ["../deck.yaml", "sub/../../deck.yaml", "/etc/hostname"])
def test_deck_path_may_not_leave_the_layouts_folder(tmp_path, monkeypatch, capsys, cards):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.yaml").write_text("sectors: [{id: X, routes: [N]}]\n", encoding="utf-8")
    write(tmp_path, f"players: [A, B]\ncards: {cards}\nsectors: []\n", "game/table.yaml")
    assert run(["game/table.yaml"]) == 2
    err = capsys.readouterr().err
    folder = (tmp_path / "game").resolve()
    assert err == (f"game/table.yaml:2: cards: '{cards}' lies outside the layout's folder "
                   f"{folder}; put the definitions in that folder (or below it) and name them "
                   f"relative to it\n")


def test_symlink_out_of_the_folder_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.yaml").write_text("sectors: [{id: X, routes: [N]}]\n", encoding="utf-8")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "deck.yaml").symlink_to(tmp_path / "deck.yaml")
    write(tmp_path, "players: [A, B]\ncards: deck.yaml\nsectors: []\n", "game/table.yaml")
    assert run(["game/table.yaml"]) == 2
    assert "lies outside the layout's folder" in capsys.readouterr().err


def test_a_layouts_own_deck_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, """\
        sectors:
          - {id: HUB, routes: [N, NE, SE, S, SW, NW], planet: gas, count: 2}
          - {id: END, routes: [S], pirate: true}
        """, "game/decks/mine.yaml")
    write(tmp_path, """\
        players: [Anna, Boris]
        cards: decks/mine.yaml
        sectors:
          - {at: [0, -1], card: END, rot: 0}
          - {at: [0, 1], card: HUB}
          - {at: [5, 5], card: HUB}
          - {at: [7, 5], card: HUB}
          - {at: [9, 9], card: S04}
        """, "game/table.yaml")
    assert run(["game/table.yaml", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["deck"] == "game/decks/mine.yaml"
    assert [(v["rule"], v["cell"]) for v in out["violations"]] == [
        ("too-many-copies", [7, 5]), ("unknown-card", [9, 9])]
    anna, boris = out["players"]
    assert anna["pirates"] == {"count": 1, "points": -3, "sectors": [[0, -1]]}
    assert boris["planets"]["gas"]["count"] == 1
    assert boris["open_routes"]["count"] == 5


def test_a_broken_deck_file_exits_1_with_its_own_lines(tmp_path, monkeypatch, capsys):
    """The deck is part of the definitions: the one rule of every command (a definition
    that breaks a rule: exit 1; one that cannot be read at all: exit 2)."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "sectors:\n  - {id: X1, routes: [N, Q]}\n  - {id: X1, routes: [S]}\n",
          "deck.yaml")
    write(tmp_path, "players: [A, B]\ncards: deck.yaml\nsectors: []\n")
    assert run(["table.yaml"]) == 1
    assert capsys.readouterr().err == (
        "deck.yaml:2: sector X1: routes: 'Q' is not a side (N, NE, SE, S, SW, NW)\n"
        "pnp-score orbitus: 1 problem(s) in the definitions; nothing was scored\n")
    write(tmp_path, "sectors:\n  - {id: X1,\troutes: [N]}\n\t- {id: X2, routes: [S]}\n",
          "deck.yaml")
    assert run(["table.yaml"]) == 2
    assert capsys.readouterr().err == (
        "deck.yaml:3:1: a tab character; YAML indents with spaces only (replace the tab with "
        "spaces)\n"
        "pnp-score orbitus: 1 problem(s) in the definitions; nothing was scored\n")


def test_another_definitions_folder(tmp_path, cards_copy, capsys):
    rules = cards_copy / "orbitus" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "- {min: 3, max: 4, points: 1}", "- {min: 3, max: 4, points: 5}"), encoding="utf-8")
    path = write(tmp_path, VALID)
    assert run([str(path), "--json", "--cards", str(cards_copy)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"][0]["closed_blocks"][0]["points"] == 5
    assert out["players"][0]["total"] == 7


def test_picture_svg_and_png(tmp_path, capsys):
    path = write(tmp_path, VALID)
    svg, png = tmp_path / "out" / "table.svg", tmp_path / "out" / "table.png"
    (tmp_path / "out").mkdir()
    assert run([str(path), "--svg", str(svg), "--png", str(png)]) == 0
    capsys.readouterr()
    text = svg.read_text(encoding="utf-8")
    assert text.count('class="closed-block"') == 1
    assert text.count('class="open-route"') == 1  # Boris's S04, south side
    assert text.count('class="sector seat-0"') == 3 and text.count('class="sector seat-1"') == 1
    for coords in ("0,-1", "0,-2", "1,-2", "0,1"):
        assert f">{coords}<" in text
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["table.png", "table.svg"]


def test_picture_is_drawn_for_an_invalid_table_too(tmp_path, capsys):
    path = write(tmp_path, VALID.replace("rot: 0", "rot: 1"))
    svg = tmp_path / "table.svg"
    assert run([str(path), "--svg", str(svg)]) == 1
    assert 'class="violation"' in svg.read_text(encoding="utf-8")
    assert "match-start-line" in capsys.readouterr().out


def test_picture_that_cannot_be_written_exits_2(tmp_path, capsys):
    path = write(tmp_path, VALID)
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert run([str(path), "--svg", str(blocker / "table.svg")]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == f"pnp-score orbitus: --svg {blocker / 'table.svg'}: {blocker} is a file, " \
                      "not a folder\n"


def test_no_picture_of_a_huge_table(tmp_path, capsys):
    sectors = "".join(f"  - {{at: [{q}, 40], routes: [N]}}\n" for q in range(2001))
    path = write(tmp_path, "players: [Anna, Boris]\nsectors:\n" + sectors)
    assert run([str(path), "--png", str(tmp_path / "big.png")]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "has 2001 sectors; pictures are drawn for tables of up to 2000" \
        in out.err
    assert not (tmp_path / "big.png").exists()
    assert run([str(path)]) == 0


def test_scoring_imports_no_rendering_and_no_pydantic(tmp_path):
    """With the validated ruleset in the cache (the first run puts it there), scoring imports
    neither the models nor anything that draws."""
    path = write(tmp_path, VALID)
    cold = (
        "import sys, io, contextlib\n"
        "from scorer.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['orbitus', {str(path)!r}])\n"
        "print(code, 'pydantic' in sys.modules)\n"
    )
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, "-c", cold], capture_output=True, text=True,
                           cwd=ROOT, check=True, env=env).stdout
    assert first.strip() == "0 True"  # a cold cache: validated through the models once
    code = (
        "import sys, io, contextlib\n"
        "from scorer.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['orbitus', {str(path)!r}])\n"
        "heavy = ('pydantic', 'reportlab', 'svgwrite', 'pypdfium2', 'PIL', 'typer', 'generator')\n"
        "print(code, sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True, env=env).stdout
    assert out.strip() == "0 []"


def test_the_installed_command_runs(tmp_path):
    path = write(tmp_path, VALID)
    done = subprocess.run([sys.executable, "-m", "scorer", "orbitus", str(path), "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["winners"] == ["Anna"]


# --- odd inputs never give a traceback -----------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 8), st.floats(allow_nan=False),
                    st.sampled_from(["N", "ne", "S07", "ice", "Anna", "x", "", "0", "-1"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["at", "card", "rot", "routes", "planet", "pirate", "Anna",
                                     "Boris", "q"]), inner, max_size=4)), max_leaves=12)
sector = st.fixed_dictionaries({}, optional={
    "at": st.one_of(st.tuples(st.integers(-3, 3), st.integers(-3, 3)).map(list), values),
    "card": st.one_of(st.sampled_from(["S01", "S04", "S62", "S72", "S7"]), values),
    "rot": st.one_of(st.integers(-1, 7), values),
    "routes": st.one_of(st.lists(st.sampled_from(["N", "NE", "SE", "S", "SW", "NW", "X"])),
                        values),
    "planet": st.one_of(st.sampled_from(["ice", "gas", "icee"]), values),
    "pirate": st.one_of(st.booleans(), values),
})
layouts = st.fixed_dictionaries({}, optional={
    "game": st.one_of(st.just("orbitus"), values),
    "players": st.one_of(st.lists(st.sampled_from(["Anna", "Boris", "Carla", ""]), max_size=7),
                         values),
    "start_lines": st.one_of(st.dictionaries(st.sampled_from(["Anna", "Boris", "Zed"]),
                                             st.lists(st.sampled_from(["N", "S", "SE", "Q"]))),
                             values),
    "barriers": st.one_of(st.lists(st.sampled_from(["N", "S", "NW", "Q"])), values),
    "cards": values,
    "sectors": st.one_of(st.lists(sector, max_size=8), values),
    "extra": values,
})


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layouts)
def test_odd_layouts_get_a_clear_answer_never_a_traceback(tmp_path, capsys, layout):
    path = tmp_path / "odd.yaml"
    path.write_text(yaml.safe_dump(layout), encoding="utf-8")
    for extra in ([], ["--json"]):
        code = run([str(path), *extra])
        out = capsys.readouterr()
        assert code in (0, 1, 2)
        assert "internal error" not in out.err and "Traceback" not in out.err
        if code == 2:
            assert out.out == "" and out.err.strip()
        else:
            assert out.err == ""
            if extra:
                assert json.loads(out.out)["valid"] is (code == 0)

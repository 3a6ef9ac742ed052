"""The cache folder cannot lie and cannot hurt: every entry is checked on every read (its
mark, format, key and checksum, then its content), anything that fails is made again with
one line saying so, and eviction removes only the cache's own entries.

Each attack is made as a user (or a bad day) would make it: ``PNP_CACHE_DIR`` pointed at a
folder of the user's, an entry copied from other definitions or edited by hand, a named
pipe, a folder or ``/dev/zero`` where an entry should be, an entry cut short."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cards.cache as cache
import cards.ruleset_cache as ruleset_cache
from cards.definitions import load_orbitus
from cards.ruleset_cache import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"
RECORD = ROOT / "tests" / "fixtures" / "records" / "orbitus" / "opening_seed42.yaml"


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(where))
    return where


def pnp(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """A command as a user runs it (its own process: a hang shows as a timeout)."""
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def shipped_entry(folder: Path) -> Path:
    load_ruleset("orbitus")
    (entry,) = folder.glob("ruleset-orbitus-*.json")
    return entry


def forged(entry: Path, payload: bytes) -> bytes:
    """An entry holding ``payload`` with a checksum that matches it (what only someone who
    read the code could write): the checks after the checksum must still hold."""
    kind, key = "ruleset-orbitus", entry.stem.removeprefix("ruleset-orbitus-")
    return cache._header(kind, key, payload) + payload


# --- point 3: eviction removes only the cache's own entries -------------------------------


def test_a_cache_folder_pointed_at_a_users_folder_loses_none_of_the_users_files(
        tmp_path, monkeypatch, cards_copy):
    docs = tmp_path / "Documents"
    docs.mkdir()
    mine = {"orbitus-notes.json": b'{"mine": true}', "satellites-2024.json": b"{}",
            "ruleset-orbitus-budget.json": b"my budget", "faces-orbitus-x.npz": b"PK",
            "orbitus-a-b.json": b"[]"}
    for name, data in mine.items():
        (docs / name).write_bytes(data)
        os.utime(docs / name, (1, 1))  # older than any entry
    monkeypatch.setenv("PNP_CACHE_DIR", str(docs))
    monkeypatch.setattr(ruleset_cache, "CACHE_KEEP", 2)
    rules = cards_copy / "orbitus" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    for points in range(-5, 0):  # five different definitions: five entries, two kept
        rules.write_text(text.replace("pirate: -3", f"pirate: {points}"), encoding="utf-8")
        load_ruleset("orbitus", cards_copy)
    assert {p.name: p.read_bytes() for p in docs.iterdir() if p.name in mine} == mine
    entries = sorted(p.name for p in docs.iterdir() if p.name not in mine)
    assert len(entries) == 2 and all(n.startswith("ruleset-orbitus-") for n in entries)
    assert all(cache.is_entry(docs / n) for n in entries)


# --- point 5: an entry that lies is never believed -------------------------------------------


def winner(out: str) -> str:
    found = re.search(r"^Winner: (.*)$", out, re.MULTILINE)
    assert found, out
    return found.group(1)


def test_an_entry_of_other_numbers_under_the_right_key_does_not_change_the_winner(
        folder, cards_copy):
    honest = pnp("score", "orbitus", str(LAYOUT))
    assert honest.returncode == 0 and honest.stderr == ""
    entry = shipped_entry(folder)
    # the same table under definitions where a pirate is worth +30: Boris would win
    rules = cards_copy / "orbitus" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("pirate: -3", "pirate: 30"),
                     encoding="utf-8")
    other = pnp("score", "orbitus", str(LAYOUT), "--cards", str(cards_copy))
    assert winner(other.stdout) != winner(honest.stdout)
    (theirs,) = [p for p in folder.glob("ruleset-orbitus-*.json") if p != entry]
    # 1. the other definitions' entry copied over the shipped one's
    entry.write_bytes(theirs.read_bytes())
    copied = pnp("score", "orbitus", str(LAYOUT))
    assert copied.stdout == honest.stdout
    assert copied.stderr == (f"{entry}: note: the entry of other definitions (its key is not "
                             "its name's); not used, made again\n")
    # 2. the shipped entry edited by hand: its pirate made +30
    text = entry.read_bytes()
    assert b'"pirate":-3' in text
    entry.write_bytes(text.replace(b'"pirate":-3', b'"pirate":30'))
    edited = pnp("score", "orbitus", str(LAYOUT))
    assert edited.stdout == honest.stdout
    assert edited.stderr == (f"{entry}: note: damaged (its checksum does not match its "
                             "content); not used, made again\n")
    # made again: the next command reads it silently
    again = pnp("score", "orbitus", str(LAYOUT))
    assert (again.stdout, again.stderr) == (honest.stdout, "")


def test_a_poisoned_deck_count_does_not_hang_setup(folder):
    honest = pnp("setup", "orbitus", "--players", "3", "--seed", "7")
    entry = shipped_entry(folder)
    data = json.loads(entry.read_bytes().split(b"\n", 1)[1])
    data["ruleset"]["deck"][0][4] = 10 ** 12  # a card in a trillion copies
    entry.write_bytes(forged(entry, json.dumps(data).encode()))
    done = pnp("setup", "orbitus", "--players", "3", "--seed", "7", timeout=30)
    assert (done.returncode, done.stdout) == (0, honest.stdout)
    assert done.stderr == (f"{entry}: note: its content is not a ruleset of this version; not "
                           "used, made again\n")


def fifo(path: Path) -> None:
    os.mkfifo(path)


def folder_there(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("x")


def dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def huge(path: Path) -> None:
    with path.open("wb") as handle:
        handle.truncate(ruleset_cache.MAX_ENTRY_BYTES + 10_000)


def cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-40])


def nested(path: Path) -> None:
    path.write_bytes(forged(path, b"[" * 200_000 + b"]" * 200_000))


def not_utf8(path: Path) -> None:
    path.write_bytes(forged(path, b'{"format": 2, "game": "orbitus", "ruleset": "\xff\xfe"}'))


def wrong_shape(path: Path) -> None:
    path.write_bytes(forged(path, b'{"format": 2, "game": "orbitus", "ruleset": {"deck": '
                                  b'[["S01", "N", null, "no", 1]]}}'))


def garbage(path: Path) -> None:
    path.write_bytes(hashlib.sha256(b"x").digest() * 100)


DAMAGE = {
    fifo: "is a named pipe (FIFO), not a regular file",
    folder_there: "is a folder, not a file",
    dev_zero: "is a device, not a regular file",
    huge: "is 4.0 MB, more than the 4.0 MB allowed for a cache entry",
    cut_short: "cut short or grown (its length is not the header's)",
    nested: "its content is nested too deeply",
    not_utf8: "its content is not a ruleset of this version",
    wrong_shape: "its content is not a ruleset of this version",
    garbage: "not a cache entry of this tool (no header)",
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=[d.__name__ for d in DAMAGE])
def test_every_kind_of_damage_is_one_note_and_never_stops_a_command(folder, damage):
    """Each command goes on as if there were no cache (same output), says once which entry
    it did not use, and the entry is made again where it can be (a folder of the user's at
    the entry's name is left alone)."""
    honest = {args: pnp(*args) for args in COMMANDS}
    entry = shipped_entry(folder)
    if damage in (fifo, folder_there, dev_zero):
        entry.unlink()
    damage(entry)
    for args in COMMANDS:
        done = pnp(*args, timeout=30)
        assert (done.returncode, done.stdout) == (honest[args].returncode, honest[args].stdout)
        lines = done.stderr.splitlines()
        if damage is folder_there or args == COMMANDS[0]:
            why = DAMAGE[damage]
            if damage is huge:
                why = "is 4.0 MB, more than the 4.0 MB allowed for a cache entry"
            assert lines[:1] == [f"{entry}: note: {why}; not used, made again"], lines
        else:  # the first command made it again
            assert not any("note:" in line for line in lines), lines
    if damage is folder_there:
        assert (entry / "inside").read_text() == "x"
    else:
        assert cache.is_entry(entry)


COMMANDS = [
    ("score", "orbitus", str(LAYOUT)),
    ("setup", "orbitus", "--players", "3", "--seed", "2"),
    ("replay", str(RECORD)),
]


def test_the_checks_of_an_entry(folder):
    entry = shipped_entry(folder)
    good = entry.read_bytes()
    kind, key = "ruleset-orbitus", entry.stem.removeprefix("ruleset-orbitus-")
    assert cache.check(good, kind, key) is None
    assert cache.check(good, kind, "0" * len(key)) == (
        "the entry of other definitions (its key is not its name's)")
    assert cache.check(good.replace(b" 2 ruleset", b" 1 ruleset", 1), kind, key) == (
        "an entry of another format (1; this version reads 2)")
    assert cache.check(good + b" ", kind, key) == (
        "cut short or grown (its length is not the header's)")
    flipped = bytearray(good)
    flipped[-5] ^= 1
    assert cache.check(bytes(flipped), kind, key) == (
        "damaged (its checksum does not match its content)")
    assert load_ruleset("orbitus") == load_orbitus().ruleset


def test_the_design_cache_follows_the_same_rules(tmp_path, monkeypatch, capsys, cards_copy):
    """The design hashes (cards/design_cache.py, merged from main) are entries like the
    rulesets: a user's file at their names is never evicted, a FIFO is one note, no hang."""
    from cards.design_cache import design

    docs = tmp_path / "Documents"
    docs.mkdir()
    mine = docs / "design-orbitus-mine.json"
    mine.write_bytes(b'{"mine": true}')
    os.utime(mine, (1, 1))
    monkeypatch.setenv("PNP_CACHE_DIR", str(docs))
    monkeypatch.setattr(ruleset_cache, "CACHE_KEEP", 1)
    honest = design("orbitus")
    rules = cards_copy / "orbitus" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("pirate: -3", "pirate: -4"),
                     encoding="utf-8")
    design("orbitus", cards_copy)  # a second entry of the kind: the first is evicted
    assert mine.read_bytes() == b'{"mine": true}'
    capsys.readouterr()
    (entry,) = [p for p in docs.glob("design-orbitus-*.json") if cache.is_entry(p)]
    entry.unlink()
    os.mkfifo(entry)
    assert design("orbitus", cards_copy).hash != honest.hash
    assert capsys.readouterr().err == (f"{entry}: note: is a named pipe (FIFO), not a regular "
                                       "file; not used, made again\n")

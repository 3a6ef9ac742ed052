"""pnp-web in a real browser: Playwright drives Debian's headless Chromium against a real
server (uvicorn in a thread of this process, a fresh data folder).

Covered: transcribing the README's example table by clicks and keys and getting the CLI's
score; every violation of a table listed with the CLI's sentence and drawn on its cell; a
whole Satellites game against the random bot; a 3-seat Orbitus game on three browser
contexts, each seeing only its own hand (the DOM and the WebSocket frames are inspected);
a reload mid-game; two tabs on one seat; keyboard-only play; a phone-width page; the
playtest form (a wrong entry refused, a game of another design logged).

Needs ``apt-get install chromium`` (``.ci/run`` installs it); skipped without it.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run does)",
                allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from testkit.browser import FLAGS, serving  # noqa: E402
from testkit.golden import GRACE_RECORD, moves_to_grace  # noqa: E402
from testkit.web import http_game, seat_url  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
README_TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("web-data")) as base:
        yield base


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def post(server: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req))


def get(server: str, path: str) -> dict:
    return json.load(urllib.request.urlopen(server + path))


def cli(game: str, path: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "scorer", game, "--json", "--lenient", str(path)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def sectors_of(path: Path) -> list[tuple[int, int, str, str]]:
    out = []
    for line in path.read_text().splitlines():
        m = re.match(r"\s*- \{at: \[(-?\d+), (-?\d+)\], card: (\w+), rot: (\w+)\}", line)
        if m:
            out.append((int(m[1]), int(m[2]), m[3], m[4]))
    return out


# --- transcription ------------------------------------------------------------------------------


def test_the_readme_table_transcribed_by_clicks_scores_as_the_cli(server, page: Page, tmp_path):
    page.goto(server + "/transcribe/orbitus")
    page.wait_for_selector("#table .cell")
    page.evaluate("localStorage.clear()")
    page.click("#clear")
    sides = ["N", "NE", "SE", "S", "SW", "NW"]
    for q, r, card, rot in sectors_of(README_TABLE):
        page.click(f'#table [data-k="{q},{r}"]')
        page.keyboard.type(card)
        expect(page.locator(f"#match-{card}")).to_be_visible()
        page.keyboard.press("Enter")
        turns = sides.index(rot) if rot in sides else int(rot)
        if turns == 5:
            page.keyboard.press("Shift+R")  # one step anticlockwise
        else:
            for _ in range(turns):
                page.keyboard.press("r")
        expect(page.locator("#rot-name")).to_contain_text(f"{card} rot {turns}")
    expected = cli("orbitus", README_TABLE)
    for p in expected["players"]:
        expect(page.locator(f'table[data-player="{p["name"]}"] [data-total]')).to_have_text(
            str(p["total"]))
    expect(page.locator("#winners")).to_have_text("Winner: Anna wins with -1 point(s)")
    # the exported layout is read by pnp-score to the same report
    with page.expect_download() as got:
        page.click('[data-export="yaml"]')
    exported = tmp_path / "exported.yaml"
    got.value.save_as(exported)
    assert {k: v for k, v in cli("orbitus", exported).items() if k != "file"} == \
        {k: v for k, v in expected.items() if k != "file"}
    # every cell the CLI scored carries its owner's tint
    for seat, p in enumerate(expected["players"]):
        for q, r in p["sectors"]:
            assert page.locator(f'#table g.sector.seat-{seat}[data-k="{q},{r}"]').count() == 1
    assert page.locator("#table .closed-block").count() == 2
    assert page.locator("#table .open-route").count() == 3


BROKEN = """\
game: orbitus
players: [Anna, Boris, Anna]
start_lines: {Anna: [N, NE], Boris: [S], Carla: [SW], Anna2: N}
barriers: [S, Q]
sectors:
  - {at: [0, -1], routes: [S, N], planet: ice}
  - {at: [0, -2], routes: [NE]}
  - {at: [0, 0], card: S04}
  - {at: [3, 3], card: Q1}
  - {at: [1, 1], card: S05, rot: 9}
  - {at: [1, 2], card: S05, rot: up}
  - {at: [2, 2], routes: [N, NNE], planet: marsh}
  - {at: [2, 3], routes: [N], pirate: maybe}
  - {at: [0, 1], routes: [S]}
  - {at: [0, 1], routes: [N]}
  - {at: "a", card: S06}
  - {at: [1, -1], card: S06, rot: 0, colour: red}
  - {at: [4, 4], card: S05}
  - {at: [5, 5], card: S05}
  - {at: [6, 6], card: S05}
"""


def test_every_violation_is_listed_and_drawn_on_its_cell(server, page: Page, tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    expected = cli("orbitus", path)["violations"]
    assert len({v["rule"] for v in expected}) >= 10
    page.goto(server + "/transcribe/orbitus")
    page.wait_for_selector("#table .cell")
    page.locator("details:has(#paste) summary").click()
    page.fill("#paste", BROKEN)
    page.click("#paste-import")
    items = page.locator("#violations li")
    expect(items).to_have_count(len(expected))
    for i, v in enumerate(expected):
        expect(items.nth(i)).to_have_attribute("data-rule", v["rule"])
        expect(items.nth(i)).to_contain_text(v["message"])
        if v["cell"] is not None:
            q, r = v["cell"]
            assert page.locator(f'#table polygon.violation[data-k="{q},{r}"]').count() == 1, v


def test_a_satellites_board_by_keyboard(server, page: Page):
    page.goto(server + "/transcribe/satellites")
    page.wait_for_selector("#board .hit")
    page.evaluate("localStorage.clear()")
    page.click("#clear")
    page.click('#board .hit[data-cell="c2"]')
    # c2 R1, d2 B2, c3 B1: a colony of three, blue controls it
    page.keyboard.type("r1")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("b2")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("b1")
    expect(page.locator("#colonies-blue")).to_have_text("1")
    expect(page.locator("#connected-red")).to_have_text("1")
    page.keyboard.type("b1")  # now two blue 1s side by side? no: c3 only changes value
    page.keyboard.press("ArrowRight")
    page.keyboard.type("r1")  # d3 red 1 next to c3 blue 1 and d2 blue 2: the colony grows
    expect(page.locator("#decision")).to_contain_text("blue")
    page.keyboard.press("Control+z")
    expect(page.locator('#board use[data-cell="d3"]')).to_have_count(0)
    page.keyboard.press("Control+y")  # redo puts it back
    expect(page.locator('#board use[data-cell="d3"]')).to_have_count(1)
    page.click("#undo")
    expect(page.locator('#board use[data-cell="d3"]')).to_have_count(0)


def test_the_playtest_form_logs_a_game_and_refuses_a_wrong_one(server, page: Page):
    from cards.design_cache import design

    page.goto(server + "/playtests")
    expect(page.locator("#design")).to_have_text(design("orbitus").stamp)
    page.fill("#players", "Anna, Boris")
    page.fill("#scores", "7, 9, 3")  # three scores for two players
    page.click("button[type=submit]")
    expect(page.locator("#status")).to_contain_text("--scores gives 3 score(s) for 2 players")
    expect(page.locator("#logged tbody tr")).to_have_count(0)  # nothing logged
    page.fill("#scores", "7, 9")
    page.fill("#minutes", "40")
    page.fill("#version", "v0.7.1·abc123")
    page.fill("#date", "2024-05-03")
    page.click("button[type=submit]")
    expect(page.locator("#status")).to_have_text(
        "Logged: orbitus v0.7.1·abc123, 2024-05-03, won by Boris")
    row = page.locator("#logged tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("orbitus v0.7.1·abc123")
    expect(row).to_contain_text("Anna 7, Boris 9")
    expect(page.locator("#version")).to_have_value("")  # the form is ready for the next


# --- from a photo ---------------------------------------------------------------------------------

STATES = """() => { window.photoStates = [];
  new MutationObserver(() => window.photoStates.push(document.getElementById('photo-state')
    .textContent)).observe(document.getElementById('photo-state'), {childList: true,
    characterData: true, subtree: true}); }"""


def orbitus_photo_with_a_covered_card() -> tuple[bytes, dict]:
    """The example table photographed with one card's marker under a finger ([1, -1], S05
    turned 0: test_web_photo.py checks that this photo leaves that cell unread)."""
    pytest.importorskip("cv2")
    from testkit.photo_evaluate import Bench
    from testkit.photo_examples import ORBITUS_COVERED, TWO, orbitus_photo

    return orbitus_photo(Bench("orbitus", 2026, 2), ORBITUS_COVERED, covers=1), TWO


def test_an_orbitus_photo_is_read_corrected_by_typing_and_scored(server, page: Page, tmp_path):
    from testkit.photo_evaluate import orbitus_totals

    data, layout = orbitus_photo_with_a_covered_card()
    covered = {"at": [1, -1], "card": "S05", "rot": 0}
    assert covered in layout["sectors"]
    rest = {**layout, "sectors": [s for s in layout["sectors"] if s != covered]}
    page.goto(server + "/transcribe/orbitus")
    page.wait_for_selector("#table .cell")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#table .cell")
    expect(page.get_by_text("Read a photo…")).to_be_visible()
    page.evaluate(STATES)
    page.set_input_files("#photo-file", files=[{"name": "table.jpg", "mimeType": "image/jpeg",
                                                "buffer": data}])
    # reading a photo takes seconds (5 to 7 on a loaded 2-core machine): the page says
    # "Reading the photo…" meanwhile, checked below
    expect(page.locator("#photo-summary")).to_have_text(
        "table.jpg: 13 cards read, 1 cell seen but not read — click one and put its card "
        "there (or clear it if nothing is there).", timeout=60_000)
    assert "Reading the photo…" in page.evaluate("window.photoStates")
    expect(page.locator("#photo-state")).to_have_text("")
    # the table read: 13 cards on the page, scored as the layout without the covered card
    expect(page.locator("#table g.sector")).to_have_count(13)
    for name, total in zip(layout["players"], orbitus_totals(rest), strict=True):
        expect(page.locator(f'table[data-player="{name}"] [data-total]')).to_have_text(str(total))
    # the unread cell: hatched with a "?" on the table, listed with the CLI's sentence
    mark = page.locator('#table polygon.mark.unread[data-unread="1,-1"]')
    expect(mark).to_have_count(1)
    expect(page.locator("#photo-pending")).to_have_text(
        "NOT COMPLETE: 1 cell from the photo not read (hatched red); fill them in, the scores "
        "count only what was read")
    expect(page.locator("#winners")).to_have_text(
        "So far, without the cells not read: Anna wins with -5 point(s)")
    assert page.locator("#table text.unread-q").count() == 1
    item = page.locator('#photo-findings li[data-rule="photo-unread"]')
    expect(item).to_have_attribute("data-cell", "1,-1")
    expect(item).to_contain_text("a card lies on [1, -1] but its marker cannot be read in the "
                                 "photo")
    # the photo as read, to compare
    expect(page.locator("#photo-view img")).to_be_visible()
    assert page.locator("#photo-view img").get_attribute("src").startswith(
        "data:image/jpeg;base64,")
    page.screenshot(path=str(tmp_path / "photo.png"))
    # fill it in: click the finding (the cursor goes there), type the card, Enter
    item.click()
    expect(page.locator("#cell-name")).to_have_text("[1, -1]")
    expect(page.locator("#card-input")).to_be_focused()
    page.keyboard.type("S05")
    expect(page.locator("#match-S05")).to_be_visible()
    page.keyboard.press("Enter")
    expect(mark).to_have_count(0)
    expect(page.locator("#photo-pending")).to_have_count(0)
    expect(page.locator("#table g.sector")).to_have_count(14)
    for name, total in zip(layout["players"], orbitus_totals(layout), strict=True):
        expect(page.locator(f'table[data-player="{name}"] [data-total]')).to_have_text(str(total))
    expect(page.locator("#winners")).to_have_text("Winner: Anna wins with -1 point(s)")
    expect(page.locator("#photo-result")).to_contain_text("Every cell seen in the photo is "
                                                          "filled in")
    # undo brings the mark back with the empty cell; nothing was saved anywhere
    page.locator("#table").focus()
    page.keyboard.press("Control+z")
    expect(mark).to_have_count(1)
    page.keyboard.press("Control+Shift+z")  # and redo fills the cell again
    expect(mark).to_have_count(0)
    page.click("#undo")
    expect(mark).to_have_count(1)
    assert get(server, "/api/tables/orbitus") == []


def test_two_photos_chosen_at_once_are_read_together(server, page: Page):
    """The file input takes several photos: one with a finger over a card and one
    without are read together, so nothing is left to fill in; both debug images show."""
    from test_web_photo import orbitus_photo

    from testkit.photo_evaluate import Bench

    covered, _ = orbitus_photo_with_a_covered_card()
    clean = orbitus_photo(Bench("orbitus", 2026, 2), 5)
    page.goto(server + "/transcribe/orbitus")
    page.wait_for_selector("#table .cell")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#table .cell")
    page.set_input_files("#photo-file", files=[
        {"name": "finger.jpg", "mimeType": "image/jpeg", "buffer": covered},
        {"name": "clean.jpg", "mimeType": "image/jpeg", "buffer": clean}])
    expect(page.locator("#photo-summary")).to_have_text(
        "finger.jpg + clean.jpg: 14 cards read.", timeout=60_000)  # two photos read
    expect(page.locator("#table g.sector")).to_have_count(14)
    expect(page.locator("#photo-pending")).to_have_count(0)
    expect(page.locator("#photo-view img")).to_have_count(2)
    expect(page.locator("#photo-view summary")).to_contain_text("The photos as read")


def test_a_satellites_photo_is_read_corrected_by_typing_and_scored(server, page: Page):
    pytest.importorskip("cv2")
    from testkit.photo_evaluate import Bench
    from testkit.photo_examples import SATELLITES_COVERED, crowned_grid, satellites_photo

    data = satellites_photo(Bench("satellites", 2026, 2), SATELLITES_COVERED, covers=1)
    grid = crowned_grid()
    assert grid[7][7] == "R3"
    before = [row[:] for row in grid]
    before[7][7] = "."
    want_before = post(server, "/api/satellites/score", {"board": {"rows": before}})["report"]
    want_after = post(server, "/api/satellites/score", {"board": {"rows": grid}})["report"]
    assert want_before["connected"] != want_after["connected"]
    page.goto(server + "/transcribe/satellites")
    page.wait_for_selector("#board .hit")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#board .hit")
    page.evaluate(STATES)
    page.set_input_files("#photo-file", files=[{"name": "board.jpg", "mimeType": "image/jpeg",
                                                "buffer": data}])
    expect(page.locator("#photo-summary")).to_contain_text(
        "board.jpg: 7 satellites read, 1 cell seen but not read", timeout=60_000)
    assert "Reading the photo…" in page.evaluate("window.photoStates")
    expect(page.locator("#board use[data-token]")).to_have_count(7)
    for colour in ("red", "blue"):
        expect(page.locator(f"#connected-{colour}")).to_have_text(
            str(want_before["connected"][colour]))
    mark = page.locator('#board rect.unread[data-cell="h8"]')
    expect(mark).to_have_count(1)
    expect(page.locator("#photo-pending")).to_contain_text("NOT COMPLETE: 1 cell from the photo")
    expect(page.locator('#photo-findings li[data-rule="photo-unread"]')).to_contain_text(
        "something stands in h8 but no satellite's marker can be read there")
    expect(page.locator("#photo-view img")).to_be_visible()
    page.locator('#photo-findings li[data-rule="photo-unread"]').click()
    expect(page.locator("#cell-name")).to_have_text("h8")
    page.keyboard.type("r3")
    expect(mark).to_have_count(0)
    expect(page.locator("#photo-pending")).to_have_count(0)
    expect(page.locator('#board use[data-cell="h8"]')).to_have_attribute("data-token", "R3")
    expect(page.locator("#board use[data-token]")).to_have_count(8)
    for colour in ("red", "blue"):
        expect(page.locator(f"#connected-{colour}")).to_have_text(
            str(want_after["connected"][colour]))
    expect(page.locator("#decision")).to_contain_text(want_after["winner"])


def test_a_photo_that_cannot_be_read_changes_nothing_on_the_page(server, page: Page):
    page.goto(server + "/transcribe/satellites")
    page.wait_for_selector("#board .hit")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#board .hit")
    page.click('#board .hit[data-cell="c2"]')
    page.keyboard.type("r1")
    expect(page.locator('#board use[data-cell="c2"]')).to_have_count(1)
    page.set_input_files("#photo-file", files=[{"name": "notes.jpg", "mimeType": "image/jpeg",
                                                "buffer": b"not a photo"}])
    expect(page.locator("#status")).to_have_text(
        "notes.jpg: not an image (or a format this version does not read); expected a photo "
        "as JPEG or PNG")
    expect(page.locator('#board use[data-cell="c2"]')).to_have_count(1)
    expect(page.locator("#photo-view")).to_be_hidden()
    assert page.locator("#photo-findings").count() == 0


# --- playing --------------------------------------------------------------------------------------


def click_cell(page: Page, name: str) -> None:
    page.click(f'#board .hit[data-cell="{name}"]', force=True)


def test_a_whole_satellites_game_against_the_random_bot(server, page: Page, tmp_path):
    game, tokens = http_game(server, "satellites", ["human", "random"], 8, ["Anna", "Rnd"])
    page.goto(seat_url(server, tokens[0]))
    rng = random.Random(1)
    moves = 0
    while True:
        page.wait_for_function(
            "() => document.querySelector('#banner:not(.hidden)') || "
            "(document.querySelector('#you-h').textContent === 'Your turn' && "
            "document.querySelector('[data-mark=movable], #pass'))", timeout=30000)
        if page.locator("#banner:not(.hidden)").count():
            break
        before = len(page.locator("#history li").all())
        if page.locator("#pass").count():
            page.click("#pass")
        else:
            movable = page.locator("#board [data-mark=movable]").evaluate_all(
                "nodes => nodes.map(n => n.dataset.cell)")
            click_cell(page, rng.choice(movable))
            reach = page.locator("#board [data-mark=reach]").evaluate_all(
                "nodes => nodes.map(n => n.dataset.cell)")
            click_cell(page, rng.choice(reach))
            pushes = page.locator("#board [data-mark=push]").evaluate_all(
                "nodes => nodes.map(n => n.dataset.cell)")
            if pushes:  # a displacement: the orange cells are where the pushed one may go
                click_cell(page, rng.choice(pushes))
        page.wait_for_function(f"() => document.querySelectorAll('#history li').length > "
                               f"{before}")
        moves += 1
        assert moves < 600
    state = get(server, f"/api/link/{tokens[0]}")
    assert state["status"] == "finished"
    expect(page.locator("#banner")).to_contain_text("Game over")
    end = state["view"]["connected"]["end"]
    expect(page.locator("#connected-count")).to_contain_text(f"/ {end}")
    record = tmp_path / "game.yaml"
    with page.expect_download() as got:
        page.click("#after a[download]")
    got.value.save_as(record)
    done = subprocess.run([sys.executable, "-m", "records.replay_cli", "--json",
                           str(record)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    replayed = json.loads(done.stdout)
    assert replayed["replay"]["played"] == len(state["history"])
    assert replayed["colonies"] == state["view"]["score"]["colonies"]
    winners = state["result"]["winners"]
    assert replayed["winner"] == (["red", "blue"][winners[0]] if winners else None)
    # the replay viewer steps through the saved game
    total = len(state["history"])
    page.goto(f"{server}/replay/{game['id']}")
    expect(page.locator("#where")).to_contain_text(f"Move {total} of {total}")
    page.keyboard.press("ArrowLeft")
    before_last = state["history"][total - 2]
    mover = state["players"][before_last["seat"]]["name"]
    expect(page.locator("#where")).to_contain_text(
        f"Move {total - 1} of {total}: {mover} — {before_last['text']}")
    page.keyboard.press("Home")
    expect(page.locator("#where")).to_have_text("The deal")
    assert page.locator("#board use[data-token]").count() == 24


def test_the_grace_indicator_counts_down(server, page: Page):
    """A position where red has all 12 connected: blue's ⚡ grace moves show and count down.
    The game is a golden record's (random_game_seed27.yaml) played on the server up to its
    grace moves."""
    seed, moves = moves_to_grace(GRACE_RECORD)
    game, tokens = http_game(server, "satellites", ["human", "human"], seed, ["Red", "Blue"])
    for text in moves:
        seat = get(server, f"/api/link/{tokens[0]}")["view"]["to_move"]
        post(server, f"/api/link/{tokens[seat]}/move", {"action": text})
    msg = get(server, f"/api/link/{tokens[0]}")
    grace_player = msg["view"]["grace"]["player"]
    seat = ["red", "blue"].index(grace_player)
    page.goto(seat_url(server, tokens[seat]))
    grace = page.locator("#grace")
    expect(grace).to_have_attribute("data-left", "3")
    expect(grace).to_contain_text(f"{grace_player} has 3 grace moves left")
    expect(page.locator("#grace .bolt:not(.used)")).to_have_count(3)
    # one grace move made on the page: the indicator counts down
    movable = page.locator("#board [data-mark=movable]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.cell)")
    click_cell(page, movable[0])
    reach = page.locator("#board [data-mark=reach]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.cell)")
    click_cell(page, reach[0])
    pushes = page.locator("#board [data-mark=push]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.cell)")
    if pushes:
        click_cell(page, pushes[0])
    expect(grace).to_have_attribute("data-left", "2")
    expect(page.locator("#grace .bolt.used")).to_have_count(1)


def seat_pages(browser, server, tokens):
    pages = []
    for seat in sorted(tokens):
        ctx = browser.new_context(viewport={"width": 1100, "height": 850})
        pg = ctx.new_page()
        frames: list[str] = []
        pg.on("websocket", lambda ws, frames=frames: ws.on(
            "framereceived", lambda payload, frames=frames: frames.append(str(payload))))
        pg.goto(seat_url(server, tokens[seat]))
        pg.wait_for_selector("#hand button")
        pages.append((ctx, pg, frames))
    return pages


def test_three_seats_on_three_browsers_see_only_their_own_hands(server, browser):
    game, by_seat = http_game(server, "orbitus", ["human", "human", "human"], 21)
    seats = seat_pages(browser, server, by_seat)
    tokens = [by_seat[s] for s in sorted(by_seat)]
    try:
        for turn in range(6):
            hands = [get(server, f"/api/link/{t}")["private"]["hand"] for t in tokens]
            for seat, (_, pg, frames) in enumerate(seats):
                shown = pg.locator("#hand button").evaluate_all(
                    "nodes => nodes.map(n => n.dataset.card)")
                expect(pg.locator("#history li")).to_have_count(turn)
                assert shown == hands[seat]
                others = {c for s, h in enumerate(hands) if s != seat for c in h} - set(
                    hands[seat])
                visible = get(server, f"/api/link/{tokens[seat]}")["view"]
                others -= {b[2] for b in visible["board"]} | set(visible["out"])
                # what the page shows: its text, the cards it draws (every card face of the
                # deck is in the page's <defs>, the deck's make-up being public), the hand
                shown_text = pg.evaluate("""() => {
                    const copy = document.body.cloneNode(true);
                    copy.querySelectorAll('defs').forEach(d => d.remove());
                    return [copy.textContent,
                    ...[...copy.querySelectorAll('use')].map(u => u.getAttribute('href')),
                    ...[...copy.querySelectorAll('[data-card]')].map(n => n.dataset.card),
                    ...[...copy.querySelectorAll('[title]')].map(n => n.title)
                    ].join(' ')}""")
                assert not [c for c in others if re.search(rf"\b{c}\b", shown_text)]
                assert frames and not [c for c in others if any(
                    re.search(rf"\b{c}\b", f) for f in frames)]
            mover = turn % 3
            _, pg, _ = seats[mover]
            msg = get(server, f"/api/link/{tokens[mover]}")
            card, cells = next(iter(msg["legal"]["place"].items()))
            cell = next(iter(cells))
            pg.click(f'#hand button[data-card="{card}"]')
            q, r = cell.split(",")
            where = f"on [{q}, {r}]"
            if where not in pg.locator("#place-here").inner_text():
                pg.click(f'#board [data-k="{cell}"]')  # the cursor goes there (a second
            expect(pg.locator("#place-here")).to_contain_text(f"{card} r")  # click places)
            expect(pg.locator("#place-here")).to_contain_text(where)
            pg.click("#place-here")
            for _, other, _ in seats:
                expect(other.locator("#history li")).to_have_count(turn + 1)
    finally:
        for ctx, _, _ in seats:
            ctx.close()


def test_a_reload_and_a_second_tab_lose_nothing(server, browser):
    game, tokens = http_game(server, "orbitus", ["human", "greedy"], 5, ["Anna", "Bot"])
    url = seat_url(server, tokens[0])
    ctx = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        one, two = ctx.new_page(), ctx.new_page()
        for pg in (one, two):
            pg.goto(url)
            pg.wait_for_selector("#hand button")
        # keyboard only: focus the table, 1 chooses the first card, Enter places it where
        # the page moved the cursor (a cell where it fits)
        one.focus("#board")
        one.keyboard.press("1")
        one.keyboard.press("Enter")
        expect(one.locator("#history li")).to_have_count(2)  # Anna's move and the bot's
        expect(two.locator("#history li")).to_have_count(2)
        hand = one.locator("#hand button").evaluate_all("n => n.map(x => x.dataset.card)")
        assert two.locator("#hand button").evaluate_all("n => n.map(x => x.dataset.card)") == hand
        history = one.locator("#history").inner_text()
        one.reload()
        one.wait_for_selector("#hand button")
        assert one.locator("#history").inner_text() == history
        assert one.locator("#hand button").evaluate_all("n => n.map(x => x.dataset.card)") == hand
        # an illegal attempt shows the engine's reason, and nothing changes
        one.fill("#move-text", f"place {hand[0]} @4,4 r0")
        one.click("#move-send")
        expect(one.locator("#status")).to_contain_text("is not next to the station or a placed "
                                                       "sector")
        expect(two.locator("#history li")).to_have_count(2)
        # the placement drew a card: it is never taken back (the card has been seen)
        assert one.locator("#undo").count() == 0
        assert get(server, f"/api/link/{tokens[0]}")["can_undo"] is False
    finally:
        ctx.close()


def test_pages_fit_a_phone(server, browser):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    try:
        pg = ctx.new_page()
        game, tokens = http_game(server, "satellites", ["human", "random"], 2, ["Anna", "Bot"])
        for url in (server + "/", server + "/transcribe/orbitus", server + "/transcribe/satellites",
                    seat_url(server, tokens[0]), game["links"]["host"],
                    game["links"]["join"]):
            pg.goto(url)
            pg.wait_for_load_state("networkidle")
            width = pg.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, (url, width)
    finally:
        ctx.close()

"""pnp web at a real playtest, in Debian's Chromium (issue 22): every QR code the pages show
is read by OpenCV's QR detector at desktop and phone sizes; a page of another site (another
loopback port) cannot write, create games or open a game's WebSocket, and a name pointed at
this machine (DNS rebinding) reads nothing; removals and discards are confirmed and a move
is taken back; on a phone the board pinch-zooms and pans, the hand sits over the board, the
turn shows in the title (and buzzes), who is connected shows, and a closed tab finds its way
back to its seat; the cosmetic slips (a seed above 2^53, a stale status line, the host link
against bots, a bad link saying "Your turn") are gone.

Needs ``apt-get install chromium`` (``.ci/run`` installs it) and OpenCV (the ``photo``
extra, for the QR detector); skipped without them.
"""

from __future__ import annotations

import http.server
import json
import random
import threading
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")
cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from testkit.browser import CHROMIUM, FLAGS, ports, serving  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run does)",
                allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from testkit.web import http_game, http_get, http_post, seat_url  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "fixtures" / "orbitus" / "two-players.yaml"

PORT, ATTACKER = ports(2)  # the server and the other site
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("web-data"), port=PORT, rate=0) as base:
        yield base


@pytest.fixture(scope="module")
def pw():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(pw):
    b = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
    yield b
    b.close()


def open_game(server: str, game: str, kinds: list[str]) -> dict:
    """A new game whose seats nobody has taken yet."""
    names = ["Anna", "Boris", "Carla", "Dmitri"]
    return http_post(server, "/api/games", {"game": game, "players": [
        {"name": names[i], "kind": k} for i, k in enumerate(kinds)], "me": None})


def new_page(browser, **options) -> tuple[object, Page, list[str]]:
    ctx = browser.new_context(**options)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())
    return ctx, pg, errors


def decode(png: bytes) -> str:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


def qr_codes(pg: Page) -> list[str]:
    """What every QR code on the page says, read from a screenshot of each as shown."""
    codes = pg.locator(".qr")
    expect(codes.first).to_be_visible()
    return [decode(codes.nth(i).screenshot()) for i in range(codes.count())]


# --- point 3: QR codes that scan ---------------------------------------------------------------


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_qr_code_the_pages_show_is_read(server, browser, size):
    game = open_game(server, "orbitus", ["human", "human", "human"])
    links = game["links"]
    ctx, pg, errors = new_page(browser, **size)
    try:
        pg.goto(links["host"])
        expect(pg.locator("#host-code")).to_have_text(game["code"])
        read = qr_codes(pg)
        assert read == [links["join"], links["spectator"]]
        # the QR code a seat shows to move to another device
        pg.goto(f"{server}/j/{game['code']}")
        pg.click('[data-take="0"]')
        pg.wait_for_selector("#hand button")
        pg.click("#hand-on")
        expect(pg.locator("#handon-code")).to_have_text(game["code"])
        assert qr_codes(pg) == [links["join"]]
    finally:
        ctx.close()
    assert not errors, errors


# --- point 7: another site's page and a name pointed at this machine ---------------------------

ATTACK = """<!doctype html><html><body><script>
const target = "%(target)s";
window.results = {};
(async () => {
  const send = async (name, url, init) => {
    try { await fetch(url, init); window.results[name] = "sent"; }
    catch (err) { window.results[name] = "blocked: " + err; }
  };
  // no preflight: a text/plain body, and a form's body
  await send("overwrite", target + "/api/tables/orbitus", { method: "POST", mode: "no-cors",
    headers: { "Content-Type": "text/plain" },
    body: JSON.stringify({ name: "pwned", text: %(text)s, id: %(ident)s }) });
  await send("form", target + "/api/games", { method: "POST", mode: "no-cors",
    headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "game=satellites" });
  await send("plain-game", target + "/api/games", { method: "POST", mode: "no-cors",
    headers: { "Content-Type": "text/plain" },
    body: JSON.stringify({ game: "satellites", players: [{ name: "A", kind: "mcts" },
                                                        { name: "B", kind: "mcts" }] }) });
  // JSON: the browser asks the server first, and the server does not allow it
  await send("json", target + "/api/games", { method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: "satellites", players: [{ name: "A" }, { name: "B" }] }) });
  // a game's live connection, with a spectators' link the attacker got hold of
  await new Promise((done) => {
    const ws = new WebSocket("%(ws)s");
    window.results.frames = [];
    ws.onmessage = (e) => window.results.frames.push(e.data);
    ws.onclose = (e) => { window.results.closed = e.code; done(); };
    setTimeout(done, 5000);
  });
  window.results.done = true;
})();
</script></body></html>"""


@pytest.fixture
def attacker_site():
    """A page of another origin: http://127.0.0.1:ATTACKER/ (another loopback port)."""
    pages: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            body = pages.get(self.path, b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", ATTACKER), Handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{ATTACKER}", pages
    site.shutdown()
    site.server_close()


def test_a_page_of_another_site_cannot_write_or_listen(server, browser, attacker_site):
    site, pages = attacker_site
    saved = http_post(server, "/api/tables/orbitus", {"name": "mine", "text": TABLE.read_text()})
    ident = saved["id"]
    game, _ = http_game(server, "satellites", ["human", "human"])
    spectator = game["links"]["spectator"].rsplit("/", 1)[1]
    before = len(http_get(server, "/api/games"))
    pages["/attack.html"] = (ATTACK % {
        "target": server, "text": json.dumps("game: orbitus\nplayers: [X, Y]\nsectors: []\n"),
        "ident": ident, "ws": f"ws://127.0.0.1:{PORT}/ws/{spectator}"}).encode()
    ctx, pg, errors = new_page(browser, **DESKTOP)
    try:
        pg.goto(f"{site}/attack.html")
        pg.wait_for_function("() => window.results && window.results.done", timeout=30000)
        results = pg.evaluate("window.results")
    finally:
        ctx.close()
    assert results["json"].startswith("blocked")  # the server allows no other origin
    assert results["frames"] == [] and results["closed"] == 1006  # refused before it opened
    # nothing changed on the server
    assert http_get(server, f"/api/tables/orbitus/{ident}")["name"] == "mine"
    assert len(http_get(server, "/api/games")) == before


def test_a_name_pointed_at_this_machine_reads_nothing(server, pw):
    b = pw.chromium.launch(executable_path=str(CHROMIUM), args=[
        *FLAGS, "--host-resolver-rules=MAP rebound.test 127.0.0.1"])
    try:
        pg = b.new_page()
        answer = pg.goto(f"http://rebound.test:{PORT}/api/games")
        assert answer is not None and answer.status == 400
        assert "this server answers to" in pg.content()
        pg.goto(f"http://rebound.test:{PORT}/")
        status = pg.evaluate("fetch('/api/tables/orbitus').then(r => r.status)")
        assert status == 400
    finally:
        b.close()


# --- point 10: removals and discards confirmed, a move taken back ------------------------------


def a_removal(server, tokens, rng):
    """Random placements in a 2-person game until the seat to move may remove a sector."""
    for _ in range(200):
        seat = http_get(server, f"/api/link/{tokens[0]}")["view"]["to_move"]
        msg = http_get(server, f"/api/link/{tokens[seat]}")
        if msg["legal"]["remove"] and msg["legal"]["discard"]:
            return seat, msg
        options = [f"place {c} @{cell} r{rots[0]}" for c, cells in msg["legal"]["place"].items()
                   for cell, rots in cells.items()] or ["pass"]
        http_post(server, f"/api/link/{tokens[seat]}/move", {"action": rng.choice(options)})
    raise AssertionError("no removal came up")


def test_a_removal_is_confirmed_and_taken_back(server, browser):
    game, tokens = http_game(server, "orbitus", ["human", "human"], seed=17)
    seat, msg = a_removal(server, tokens, random.Random(31))
    q, r = msg["legal"]["remove"][0]
    card = next(c for qq, rr, c, _ in msg["view"]["board"] if (qq, rr) == (q, r))
    moves = len(msg["history"])
    ctx, pg, errors = new_page(browser, **DESKTOP)
    try:
        pg.goto(seat_url(server, tokens[seat]))
        pg.wait_for_selector("#hand button")
        sector = pg.locator(f'#board g.sector[data-k="{q},{r}"]')
        sector.click(force=True)
        expect(pg.locator("#confirm")).to_contain_text(
            f"Remove {card} from [{q}, {r}]? It leaves the game for good.")
        assert pg.locator("#history li").count() == moves  # one tap removed nothing
        pg.click("#confirm-no")
        expect(pg.locator("#confirm")).to_have_count(0)
        assert pg.locator("#history li").count() == moves
        # a discard is asked too
        discard = msg["legal"]["discard"][0]
        pg.click(f'#hand button[data-card="{discard}"]')
        pg.click("#discard")
        expect(pg.locator("#confirm")).to_contain_text(f"Discard {discard}? It leaves the game")
        pg.click("#confirm-no")
        pg.click(f'#hand button[data-card="{discard}"]')  # let the card go again
        # removed when confirmed; taken back, as no card was drawn and no one has moved since
        sector.click(force=True)
        pg.click("#confirm-yes")
        expect(pg.locator("#history li")).to_have_count(moves + 1)
        expect(pg.locator(f'#board g.sector[data-k="{q},{r}"]')).to_have_count(0)
        pg.click("#undo")
        expect(pg.locator("#history li")).to_have_count(moves)
        expect(pg.locator(f'#board g.sector[data-k="{q},{r}"]')).to_have_count(1)
    finally:
        ctx.close()
    assert not errors, errors


# --- point 11: a phone at the table -------------------------------------------------------------


def test_on_a_phone_the_board_zooms_and_pans_and_the_hand_is_in_reach(server, browser):
    game, tokens = http_game(server, "orbitus", ["human", "human", "human"], seed=21)
    rng = random.Random(2)
    for _ in range(12):  # a table of some size
        seat = http_get(server, f"/api/link/{tokens[0]}")["view"]["to_move"]
        legal = http_get(server, f"/api/link/{tokens[seat]}")["legal"]
        options = [f"place {c} @{cell} r{rots[0]}" for c, cells in legal["place"].items()
                   for cell, rots in cells.items()] or ["pass"]
        http_post(server, f"/api/link/{tokens[seat]}/move", {"action": rng.choice(options)})
    seat = http_get(server, f"/api/link/{tokens[0]}")["view"]["to_move"]
    ctx, pg, errors = new_page(browser, **PHONE)
    try:
        pg.goto(seat_url(server, tokens[seat]))
        pg.wait_for_selector("#hand button")
        # the hand and the board are both on the first screen, the hand over the board's foot
        hand = pg.locator("#hand").bounding_box()
        board = pg.locator("#board").bounding_box()
        assert hand and board
        assert hand["y"] >= 0 and hand["y"] + hand["height"] <= 740, hand
        assert board["y"] < 300 and board["height"] > 250, board
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360
        # pinch with two fingers: the board, not the page, zooms
        cdp = ctx.new_cdp_session(pg)
        cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2

        def touch(kind: str, points: list[tuple[float, float]]) -> None:
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

        touch("touchStart", [(cx - 30, cy), (cx + 30, cy)])
        for step in range(1, 11):
            touch("touchMove", [(cx - 30 - 10 * step, cy), (cx + 30 + 10 * step, cy)])
        touch("touchEnd", [])
        zoom = float(pg.locator("#board").get_attribute("data-zoom"))
        assert zoom > 2.5, zoom
        assert pg.evaluate("visualViewport.scale") == 1
        # one finger drags the zoomed board
        before = pg.locator("#board .zoom-root").get_attribute("transform")
        touch("touchStart", [(cx, cy)])
        for step in range(1, 8):
            touch("touchMove", [(cx + 12 * step, cy + 6 * step)])
        touch("touchEnd", [])
        after = pg.locator("#board .zoom-root").get_attribute("transform")
        assert before != after and "scale" in after
        # a tap on a card of the hand still chooses it (a moment after the drag, as a finger
        # lifts and comes down again); the whole table comes back at a tap
        pg.wait_for_timeout(800)
        pg.locator("#hand button").first.tap()
        expect(pg.locator("#hand button").first).to_have_attribute("aria-pressed", "true")
        pg.locator(".zoom-buttons button[aria-label='the whole table']").tap()
        assert pg.locator("#board").get_attribute("data-zoom") == "1.00"
    finally:
        ctx.close()
    assert not errors, errors


BUZZ = "navigator.vibrate = (p) => { (window.buzz = window.buzz || []).push(p); return true; };"


def test_the_turn_shows_in_the_title_and_who_is_connected(server, browser):
    game, tokens = http_game(server, "orbitus", ["human", "human"], seed=6)
    anna_ctx, anna, errors = new_page(browser, **PHONE)
    boris_ctx, boris, more = new_page(browser, **PHONE)
    try:
        boris_ctx.add_init_script(BUZZ)
        boris.goto(seat_url(server, tokens[1]))
        boris.wait_for_selector("#hand button")
        expect(boris.locator('[data-seat="0"] [data-presence]')).to_have_attribute(
            "data-presence", "away")
        anna.goto(seat_url(server, tokens[0]))
        anna.wait_for_selector("#hand button")
        expect(boris.locator('[data-seat="0"] [data-presence]')).to_have_attribute(
            "data-presence", "here")
        expect(anna).to_have_title("▶ Your turn · Orbitus · pnp-web")
        expect(boris).to_have_title("Orbitus · pnp-web")
        boris.locator("#players-h").tap()  # the page was touched: it may buzz
        msg = http_get(server, f"/api/link/{tokens[0]}")
        card, cells = next(iter(msg["legal"]["place"].items()))
        cell, rots = next(iter(cells.items()))
        http_post(server, f"/api/link/{tokens[0]}/move", {"action": f"place {card} @{cell} "
                                                                    f"r{rots[0]}"})
        expect(boris).to_have_title("▶ Your turn · Orbitus · pnp-web")
        expect(anna).to_have_title("Orbitus · pnp-web")
        assert boris.evaluate("window.buzz") == [[120, 60, 120]]
        anna_ctx.close()
        expect(boris.locator('[data-seat="0"] [data-presence]')).to_have_attribute(
            "data-presence", "away")
    finally:
        boris_ctx.close()
    assert not errors and not more, errors + more


def test_a_closed_tab_finds_its_way_back_to_its_seat(server, browser):
    game = open_game(server, "orbitus", ["human", "human"])
    ctx, pg, errors = new_page(browser, **PHONE)
    try:
        pg.goto(f"{server}/j/{game['code']}")
        pg.click('[data-take="1"]')
        pg.wait_for_selector("#hand button")
        url = pg.url
        hand = pg.locator("#hand button").evaluate_all("n => n.map(x => x.dataset.card)")
        pg.close()
        pg = ctx.new_page()
        pg.goto(server + "/")
        back = pg.locator(f'[data-my-seat="{game["id"]}"]')
        expect(back).to_have_text("Boris in orbitus")
        back.click()
        pg.wait_for_selector("#hand button")
        assert pg.url == url
        assert pg.locator("#hand button").evaluate_all("n => n.map(x => x.dataset.card)") == hand
        pg.goto(f"{server}/j/{game['code']}")
        expect(pg.locator("#back-link")).to_have_text("back to Boris's seat")
        assert pg.locator('[data-take="1"]').count() == 0
    finally:
        ctx.close()
    assert not errors, errors


# --- point 12: the cosmetic slips ----------------------------------------------------------------


def test_a_seed_above_2_to_the_53_is_shown_exactly(server, browser):
    seed = 2**53 + 1
    game, _ = http_game(server, "satellites", ["human", "human"], seed=seed)
    http_post(server, f"/api/link/{game['links']['host'].rsplit('/', 1)[1]}/abandon", {})
    ctx, pg, errors = new_page(browser, **DESKTOP)
    try:
        pg.goto(f"{server}/replay/{game['id']}")
        expect(pg.locator("#title")).to_contain_text(f"(seed {seed}, abandoned)")
    finally:
        ctx.close()
    assert not errors, errors


def test_no_stale_status_line_once_the_game_is_over(server, browser):
    game, tokens = http_game(server, "orbitus", ["human", "human"], seed=3)
    ctx, pg, errors = new_page(browser, **DESKTOP)
    try:
        pg.goto(seat_url(server, tokens[0]))
        pg.wait_for_selector("#hand button")
        pg.locator("#hand button").first.click()
        expect(pg.locator("#status")).to_contain_text("fits on")
        http_post(server, f"/api/link/{game['links']['host'].rsplit('/', 1)[1]}/abandon", {})
        expect(pg.locator("#status")).to_have_text("The host abandoned this game; it can be "
                                                   "replayed.")
        expect(pg.locator("#you-h")).to_have_text("The game is over")
    finally:
        ctx.close()
    assert not errors, errors


def test_against_bots_no_host_page_line(server, browser):
    ctx, pg, errors = new_page(browser, **DESKTOP)
    try:
        pg.goto(server + "/")
        pg.select_option("#game", "satellites")
        pg.select_option('[name="kind-1"]', "random")
        pg.click("#start")
        pg.wait_for_url("**/s/**")
        pg.wait_for_selector("#board .hit")
        expect(pg.locator("#status")).to_have_text("You play Anna.")
        assert pg.locator("#host-link").count() == 0
        assert "host page" not in pg.locator("body").inner_text()
    finally:
        ctx.close()
    assert not errors, errors


def test_a_bad_link_does_not_say_your_turn(server, browser):
    ctx, pg, errors = new_page(browser, **PHONE)
    try:
        pg.goto(f"{server}/s/not-a-link-of-any-game")
        expect(pg.locator("#status")).to_contain_text("this link belongs to no game here")
        expect(pg.locator("#title")).to_have_text("this link does not open a game")
        assert "Your turn" not in pg.locator("body").inner_text()
        assert pg.locator("#you-panel").is_hidden()
    finally:
        ctx.close()
    assert not errors, errors


def test_a_chosen_seed_is_told_only_where_something_is_hidden(server, browser):
    """Orbitus hides hands: a seed chosen by the creator is told on every seat's page and
    on the join page. Satellites hides nothing: no such note (it would be untrue)."""
    orbitus, o_tokens = http_game(server, "orbitus", ["human", "human"], seed=12)
    satellites, s_tokens = http_game(server, "satellites", ["human", "human"], seed=12)
    note = "Whoever created this game chose its seed, so they can know every hand"
    ctx, pg, errors = new_page(browser, **PHONE)
    try:
        pg.goto(seat_url(server, o_tokens[1]))
        expect(pg.locator("#dealt-note")).to_contain_text(note)
        pg.goto(orbitus["links"]["join"])
        expect(pg.locator("#dealt")).to_contain_text(note)
        pg.goto(seat_url(server, s_tokens[1]))
        expect(pg.locator("#you-h")).not_to_have_text("")
        expect(pg.locator("#dealt-note")).to_have_count(0)
        pg.goto(satellites["links"]["join"])
        expect(pg.locator("#seats")).to_contain_text("Anna")
        expect(pg.locator("#dealt")).to_have_text("")
    finally:
        ctx.close()
    assert not errors, errors

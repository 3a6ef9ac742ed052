// A game's page: a seat's (/s/SECRET), the spectators' (/w/TOKEN) or the host's (/h/TOKEN).
// The server sends the position as this link may see it, at once and after every move (a
// WebSocket); moves go back the same way. Nothing is kept in the page that a reload would lose;
// this device remembers the seat it took, so its home page leads back to it.
import { api, el, say, sayError, plural, hostedGames, rememberSeat, forgetSeat, qrBox } from "./common.js";
import { OrbitusPlay } from "./play-orbitus.js";
import { SatellitesPlay } from "./play-satellites.js";
import { Zoom } from "./zoom.js";

const $ = (id) => document.getElementById(id);
const token = location.pathname.split("/")[2];
const GAMES = { orbitus: "Orbitus", satellites: "Satellites" };
let socket = null, view = null, zoom = null, last = null, links = null, pending = new Map(), nextId = 1, retry = 500;
let wasMine = null, seenEvents = null, handedOn = false, keptSeat = false;

const gameName = (msg) => GAMES[msg.game] || msg.game;

// Send a move (or a take-back) over the WebSocket, or over HTTP when it is not open.
export async function send(type, action) {
  if (!last) return false;
  const version = last.version;
  if (socket && socket.readyState === WebSocket.OPEN) {
    const id = nextId++;
    const done = new Promise((resolve) => pending.set(id, resolve));
    socket.send(JSON.stringify({ type, action, version, id }));
    const reply = await done;
    if (reply.type === "error") { sayError(reply); return false; }
    return true;
  }
  try {
    update(await api(`/api/link/${token}/${type}`, { method: "POST", json: { action, version } }));
    return true;
  } catch (err) {
    sayError(err);
    return false;
  }
}

function presence(p, seat, msg) {
  if (p.kind !== "human") return el("span", { class: "muted" }, `bot: ${p.kind}`);
  const you = msg.role === "seat" && msg.seat === seat;
  const state = !p.taken ? ["free", "not taken yet"] : p.connected ? ["here", "connected"] : ["away", "not connected"];
  return el("span", { class: `presence ${state[0]}`, "data-presence": state[0], title: state[1] }, you ? `you · ${state[1]}` : state[1]);
}

function renderPlayers(msg) {
  $("players").replaceChildren(...msg.players.map((p, seat) => el("div", { class: "row", "data-seat": seat },
    view.swatch(seat),
    el("span", { class: `seat-name${msg.view.to_move === seat ? " turn" : ""}` }, p.name),
    presence(p, seat, msg),
    view.playerNote(msg, seat))));
  $("events").replaceChildren(...msg.events.slice(-6).map((e) => el("li", {}, e.text)));
  if (seenEvents !== null && msg.events.length > seenEvents) say(msg.events[msg.events.length - 1].text, "info");
  seenEvents = msg.events.length;
}

// The design the game is played by (v0.7.2·3fa9c1, as the components print it), and a
// note when the server's definitions have moved on since the game began.
function renderDesign(msg) {
  $("design").textContent = msg.design?.stamp ? `design ${msg.design.stamp}` : "";
  const note = $("design-note");
  note.textContent = msg.design?.note ?? "";
  note.classList.toggle("hidden", !msg.design?.note);
}

function renderHistory(msg) {
  $("history").replaceChildren(...msg.history.map((h) => el("li", {}, `${msg.players[h.seat].name}: ${h.text}`)));
  const list = $("history");
  list.scrollTop = list.scrollHeight;
  const after = [];
  if (msg.status !== "active") {
    after.push(el("a", { href: `/api/games/${msg.id}/record`, download: `${msg.game}-${msg.id}.yaml` }, "Download the game record"),
      " (pnp-replay replays it) · ", el("a", { href: `/replay/${msg.id}` }, "Replay it here"));
  }
  $("after").replaceChildren(...after);
}

function joinBlock(l, who) {
  const parts = [el("p", { class: "code", id: `${who}-code` }, l.code),
    qrBox(l.join_qr, `QR code of the join link ${l.join}`),
    el("input", { readonly: true, value: l.join, "aria-label": "the join link", onfocus: (e) => e.target.select() })];
  if (!l.reachable) {
    parts.push(el("p", { class: "error-text" }, "This server listens on this machine only, so no other device can open the link: start it with pnp web --host 0.0.0.0."));
  }
  return parts;
}

async function hostAct(what, seat, done) {
  try {
    update(await api(`/api/link/${token}/${what}`, { method: "POST", json: { seat } }));
    say(done, "ok");
  } catch (err) { sayError(err); }
}

function renderHost(msg) {
  if (msg.role !== "host" || !links) return;
  $("host-panel").classList.remove("hidden");
  if (!$("join").childElementCount) {
    $("join").replaceChildren(
      el("p", { class: "muted" }, "Each person opens the join link (or scans the code) on their own device and takes their seat there; the seat's secret goes to that device only, never to this page."),
      ...joinBlock(links, "host"),
      el("h3", {}, "Spectators"),
      el("div", { class: "seat-link" }, qrBox(links.spectator_qr, `QR code of the spectators' link ${links.spectator}`),
        el("input", { readonly: true, value: links.spectator, "aria-label": "the spectators' link", onfocus: (e) => e.target.select() })));
  }
  const rows = msg.players.map((p, seat) => {
    if (p.kind !== "human") return null;
    const buttons = [];
    if (p.taken && p.connected) buttons.push(el("button", { "data-ask": seat, onclick: () => hostAct("ask", seat, `${p.name} is asked to hand the seat on`) }, "Ask to move device"));
    if (p.taken && !p.connected) {
      buttons.push(el("button", { class: "danger", "data-free": seat, onclick: () => {
        if (confirm(`Free ${p.name}'s seat? Its device's link stops working, every player is told, and the seat can be taken again with the code.`)) hostAct("free", seat, `${p.name}'s seat is free; it is taken again with the code`);
      } }, "Free the seat"));
    }
    return el("div", { class: "row", "data-host-seat": seat }, el("b", {}, p.name), presence(p, seat, msg), ...buttons);
  }).filter(Boolean);
  $("host-seats").replaceChildren(...rows);
  $("abandon").disabled = msg.status !== "active";
}

function renderSeat(msg) {
  const notices = [];
  if (msg.role === "seat" && msg.dealt === "chosen" && msg.hides) {
    notices.push(el("div", { class: "notice", id: "dealt-note" }, "Whoever created this game chose its seed, so they can know every hand (a random deal keeps the hands hidden from everyone)."));
  }
  if (msg.role === "seat" && msg.asked && !keptSeat && msg.status === "active") {
    notices.push(el("div", { class: "notice", id: "asked" }, "The host asks you to move this seat to another device. ",
      el("button", { id: "asked-yes", onclick: () => handOn(false) }, "Hand it on"), " ",
      el("button", { id: "asked-no", onclick: () => { keptSeat = true; renderSeat(last); } }, "Keep it here")));
  }
  $("notices").replaceChildren(...notices);
  if (msg.role !== "seat" || !links || msg.status !== "active") { $("seat-panel").classList.add("hidden"); return; }
  $("seat-panel").classList.remove("hidden");
  if (!$("seat-join").childElementCount) {
    $("seat-join").replaceChildren(
      el("p", { class: "muted" }, `Others take their seats with the code `, el("b", { id: "seat-code" }, links.code), "."),
      el("div", { class: "row" }, el("button", { id: "hand-on", onclick: () => handOn(true) }, "Move this seat to another device")));
  }
}

async function handOn(ask) {
  if (ask && !confirm("Move this seat to another device? This page stops working; on the other device open the join link (or scan its code) and take the seat there.")) return;
  handedOn = true;
  try {
    const out = await api(`/api/link/${token}/handon`, { method: "POST" });
    forgetSeat(location.href);
    $("seat-join").replaceChildren(el("p", {}, `On the other device, open ${out.join} (or scan the code) and take the seat.`), ...joinBlock(out, "handon"));
    $("you-panel").classList.add("hidden");
    say("You handed this seat on; take it again on the other device with the code " + out.code + ".", "ok");
  } catch (err) { handedOn = false; sayError(err); }
}

function turnSignal(msg, mine) {
  const base = `${gameName(msg)} · pnp-web`;
  document.title = mine ? `▶ Your turn · ${base}` : base;
  // a buzz when the turn comes (not at the page's first look; the browser allows it only
  // once the page has been tapped)
  const tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (mine && wasMine === false && navigator.vibrate && tapped) {
    try { navigator.vibrate([120, 60, 120]); } catch { /* not allowed here */ }
  }
  wasMine = mine;
}

export function update(msg) {
  if (last && msg.version < last.version) return; // an older message
  if (msg.links) links = msg.links;
  const ended = last && last.status === "active" && msg.status !== "active";
  last = msg;
  $("title").textContent = `${gameName(msg)}: ${msg.players.map((p) => p.name).join(", ")}`;
  view.update(msg);
  if (zoom) zoom.apply();
  renderDesign(msg);
  renderPlayers(msg);
  renderHistory(msg);
  renderHost(msg);
  renderSeat(msg);
  const banner = $("banner");
  if (msg.result) {
    banner.textContent = msg.status === "abandoned" ? `The host abandoned the game. ${msg.result.reason}.` : `Game over: ${msg.result.reason}.`;
    banner.classList.remove("hidden");
  } else {
    banner.classList.add("hidden");
  }
  if (ended || (msg.status !== "active" && $("status").dataset.final !== "1")) {
    say(msg.status === "abandoned" ? "The host abandoned this game; it can be replayed." : `The game is over: ${msg.result ? msg.result.reason : ""}.`, "info");
    $("status").dataset.final = "1";
  }
  const mine = msg.role === "seat" && msg.view.to_move === msg.seat && msg.status === "active";
  turnSignal(msg, mine);
  $("you-panel").classList.toggle("hidden", msg.role !== "seat" || handedOn);
  $("you-panel").classList.toggle("mine", mine);
  $("you-h").textContent = msg.role !== "seat" ? "" : mine ? "Your turn"
    : msg.status !== "active" ? "The game is over" : `Waiting for ${msg.players[msg.view.to_move]?.name ?? "…"}${msg.thinking ? " (thinking)" : ""}`;
  for (const node of [$("move-text"), $("move-send")]) node.disabled = !mine;
  $("help").classList.toggle("hidden", msg.role !== "seat" || msg.status !== "active");
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  socket.addEventListener("open", () => { retry = 500; $("connection").textContent = "live"; });
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "state") {
      update(msg);
      // the answer to this page's move rides in the state after it ("ok": the move's id)
      if (msg.ok !== undefined && pending.has(msg.ok)) { pending.get(msg.ok)({ type: "ok", id: msg.ok, version: msg.version }); pending.delete(msg.ok); }
    } else if (msg.id && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id); }
    else if (msg.type === "error" && !handedOn) sayError(msg);
  });
  socket.addEventListener("close", (event) => {
    for (const resolve of pending.values()) resolve({ type: "error", problems: ["the connection to the server was lost; the page shows the game again when it is back"] });
    pending.clear();
    if (event.code >= 4400 && event.code < 4500) {
      $("connection").textContent = "closed";
      if (event.code === 4410) forgetSeat(location.href);
      if (!handedOn && event.reason) sayError({ problems: [event.reason] });
      return;
    }
    $("connection").textContent = "reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

async function main() {
  let msg;
  try {
    msg = await api(`/api/link/${token}`);
  } catch (err) {
    sayError(err);
    if (err.status === 404 || err.status === 410) forgetSeat(location.href);
    $("title").textContent = "this link does not open a game";
    document.title = "No game · pnp-web";
    $("game-section").classList.add("hidden");
    $("after").replaceChildren(el("a", { href: "/" }, "The home page"), " lists the seats this device holds and takes a join code.");
    return;
  }
  const pieces = await api(`/api/${msg.game}/pieces`);
  const Kind = msg.game === "orbitus" ? OrbitusPlay : SatellitesPlay;
  view = new Kind({ svg: $("board"), controls: $("controls"), help: $("help"), indicator: $("indicator"), pieces, send, stationSvg: msg.station_svg });
  zoom = new Zoom($("board"), $("board-wrap"));
  if (msg.role === "seat") {
    rememberSeat({ id: msg.id, game: msg.game, seat: msg.seat, name: msg.players[msg.seat].name, url: location.href });
    const hosted = hostedGames().find((h) => h.id === msg.id);
    const others = msg.players.filter((p, s) => p.kind === "human" && s !== msg.seat).length;
    if (hosted && others) $("players").after(el("p", { class: "muted", id: "host-link" }, el("a", { href: hosted.host }, "The host page"), " (the join code, who holds which seat)"));
  }
  $("move-send").addEventListener("click", async () => {
    const text = $("move-text").value.trim();
    if (text && await send("move", text)) $("move-text").value = "";
  });
  $("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") $("move-send").click(); });
  $("abandon").addEventListener("click", async () => {
    if (!confirm("Abandon this game? It is kept, and can be replayed, but not played on.")) return;
    try { update(await api(`/api/link/${token}/abandon`, { method: "POST" })); } catch (err) { sayError(err); }
  });
  update(msg);
  if (msg.status === "active") {
    say(msg.role === "seat" ? `You play ${msg.players[msg.seat].name}.` : msg.role === "host" ? "You host this game." : "You watch this game.", "info");
  }
  connect();
}

main();
export { plural };

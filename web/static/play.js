// A game's page: a seat's (/s/TOKEN), the spectators' (/w/TOKEN) or the host's (/h/TOKEN).
// The server sends the position as this link may see it, at once and after every move (a
// WebSocket); moves go back the same way. Nothing is kept in the page that a reload would lose.
import { api, el, say, sayError, plural } from "./common.js";
import { OrbitusPlay } from "./play-orbitus.js";
import { SatellitesPlay } from "./play-satellites.js";

const $ = (id) => document.getElementById(id);
const token = location.pathname.split("/")[2];
let socket = null, view = null, last = null, pending = new Map(), nextId = 1, retry = 500;

function hostLink(id) {
  try {
    const found = JSON.parse(localStorage.getItem("pnp-web.hosted") || "[]").find((h) => h.id === id);
    return found ? found.host : null;
  } catch { return null; }
}

// Send a move (or undo) over the WebSocket, or over HTTP when it is not open.
export async function send(type, action) {
  if (!last) return;
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
    const out = await api(`/api/link/${token}/${type}`, { method: "POST", json: { action, version } });
    update(out);
    return true;
  } catch (err) {
    sayError(err);
    return false;
  }
}

function renderPlayers(msg) {
  $("players").replaceChildren(...msg.players.map((p, seat) => el("div", { class: "row", "data-seat": seat },
    view.swatch(seat),
    el("span", { class: `seat-name${msg.view.to_move === seat ? " turn" : ""}` }, p.name),
    el("span", { class: "muted" }, p.kind === "human" ? (msg.role === "seat" && msg.seat === seat ? "(you)" : "") : `bot: ${p.kind}`),
    view.playerNote(msg, seat))));
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

function renderLinks(msg) {
  if (!msg.links) return;
  $("links-panel").classList.remove("hidden");
  const rows = msg.links.seats.filter((s) => s.url).map((s) => el("div", { class: "seat-link", "data-seat": s.seat },
    el("div", { class: "qr", "aria-hidden": "true" }),
    el("div", {}, el("b", {}, `${s.name}'s seat`), el("input", { readonly: true, value: s.url, "aria-label": `${s.name}'s link`, onfocus: (e) => e.target.select() }),
      el("div", { class: "row" }, el("a", { href: s.url, target: "_blank" }, "open here"),
        el("button", { onclick: async () => { try { const out = await api(`/api/link/${token}/relink`, { method: "POST", json: { seat: s.seat } }); update(out); say(`${s.name} has a new link; the old one no longer works`, "ok"); } catch (err) { sayError(err); } } }, "New link")))));
  rows.forEach((row, i) => { row.querySelector(".qr").innerHTML = msg.links.seats.filter((s) => s.url)[i].qr; });
  const spectator = el("div", { class: "seat-link" }, el("div", { class: "qr" }),
    el("div", {}, el("b", {}, "Spectators"), el("input", { readonly: true, value: msg.links.spectator, "aria-label": "the spectators' link", onfocus: (e) => e.target.select() })));
  spectator.querySelector(".qr").innerHTML = msg.links.spectator_qr;
  $("links").replaceChildren(...rows, spectator);
  $("abandon").disabled = msg.status !== "active";
}

export function update(msg) {
  if (last && msg.version < last.version && msg.links === undefined) return; // an older message
  if (last && msg.links === undefined && last.links) msg.links = last.links;
  last = msg;
  $("title").textContent = `${msg.game === "orbitus" ? "Orbitus" : "Satellites"}: ${msg.players.map((p) => p.name).join(", ")}`;
  document.title = `${msg.game === "orbitus" ? "Orbitus" : "Satellites"} · pnp-web`;
  view.update(msg);
  renderDesign(msg);
  renderPlayers(msg);
  renderHistory(msg);
  renderLinks(msg);
  const banner = $("banner");
  if (msg.result) {
    const names = msg.result.winners.map((s) => msg.players[s].name);
    banner.textContent = msg.status === "abandoned" ? `The host abandoned the game. ${msg.result.reason}.`
      : names.length ? `Game over: ${msg.result.reason}.` : `Game over: ${msg.result.reason}.`;
    banner.classList.remove("hidden");
  } else {
    banner.classList.add("hidden");
  }
  const mine = msg.role === "seat" && msg.view.to_move === msg.seat && msg.status === "active";
  $("you-h").textContent = msg.role !== "seat" ? (msg.role === "host" ? "Host" : "Spectator")
    : mine ? "Your turn" : msg.status !== "active" ? "The game is over" : `Waiting for ${msg.players[msg.view.to_move]?.name ?? "…"}${msg.thinking ? " (thinking)" : ""}`;
  for (const node of [$("move-text"), $("move-send")]) node.disabled = !mine;
  $("move-text").closest(".row").classList.toggle("hidden", msg.role !== "seat");
  $("help").classList.toggle("hidden", msg.role !== "seat");
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  socket.addEventListener("open", () => { retry = 500; $("connection").textContent = "live"; });
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "state") update(msg);
    else if (msg.id && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id); }
    else if (msg.type === "error") sayError(msg);
  });
  socket.addEventListener("close", (event) => {
    $("connection").textContent = "reconnecting…";
    for (const resolve of pending.values()) resolve({ type: "error", problems: ["the connection to the server was lost; the page shows the game again when it is back"] });
    pending.clear();
    if (event.code >= 4400 && event.code < 4500) { $("connection").textContent = "closed"; return; }
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
    $("title").textContent = "this link does not open a game";
    return;
  }
  const pieces = await api(`/api/${msg.game}/pieces`);
  const Kind = msg.game === "orbitus" ? OrbitusPlay : SatellitesPlay;
  view = new Kind({ svg: $("board"), controls: $("controls"), help: $("help"), indicator: $("indicator"), pieces, send, stationSvg: msg.station_svg });
  const host = msg.role === "seat" ? hostLink(msg.id) : null;
  if (host) $("players").after(el("p", { class: "muted" }, el("a", { href: host }, "the host page (links for the others)")));
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
  say(msg.role === "seat" ? `You play ${msg.players[msg.seat].name}.` : msg.role === "host" ? "You host this game." : "You watch this game.", "info");
  connect();
}

main();
export { plural };

// Taking a seat with a game's join code (/j/CODE): the people's seats, who holds them, and a
// button for each free one. The seat's secret link comes back once, to this device only.
import { api, el, say, sayError, seatsHere, rememberSeat } from "./common.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/")[2] || "");
const GAMES = { orbitus: "Orbitus", satellites: "Satellites" };

async function take(seat, name) {
  try {
    const out = await api(`/api/join/${encodeURIComponent(code)}`, { method: "POST", json: { seat } });
    rememberSeat({ id: out.id, game: out.game, seat: out.seat, name: out.name, url: out.url });
    say(`You are ${name}; opening your seat…`, "ok");
    location.href = out.url;
  } catch (err) {
    sayError(err);
    load();
  }
}

async function load() {
  let game;
  try {
    game = await api(`/api/join/${encodeURIComponent(code)}`);
  } catch (err) {
    sayError(err);
    $("title").textContent = "no game with this code";
    return;
  }
  $("title").textContent = `${GAMES[game.game] || game.game}: ${game.players.map((p) => p.name).join(", ")}`;
  const mine = seatsHere().find((s) => s.id === game.id);
  $("back-panel").hidden = !mine;
  if (mine) $("back").replaceChildren(`This device holds ${mine.name}'s seat: `, el("a", { href: mine.url, id: "back-link" }, `back to ${mine.name}'s seat`), ".");
  $("seats-panel").hidden = false;
  $("watch").href = game.spectator;
  $("dealt").textContent = game.dealt === "chosen" && game.hides ? "Whoever created this game chose its seed, so they can know every hand." : "";
  $("seats").replaceChildren(...game.players.map((p) => {
    if (p.kind !== "human") return el("div", { class: "row muted" }, `${p.name}: bot (${p.kind})`);
    if (p.taken) return el("div", { class: "row" }, el("b", {}, p.name), el("span", { class: "muted" }, `taken${p.connected ? ", connected" : ""}`));
    return el("div", { class: "row" }, el("button", { class: "primary", "data-take": p.seat, onclick: () => take(p.seat, p.name), disabled: game.status !== "active" }, `I am ${p.name}`));
  }));
  const free = game.players.filter((p) => p.kind === "human" && !p.taken).length;
  if (game.status !== "active") say(`This game is ${game.status}; its seats cannot be taken any more.`, "info");
  else say(free ? `${free} seat${free === 1 ? "" : "s"} free: choose yours.` : "Every seat is taken; you can watch.", "info");
}

load();

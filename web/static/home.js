// The home page: start a game (each seat a person or a bot), find the games started here.
import { api, el, say, sayError } from "./common.js";

const $ = (id) => document.getElementById(id);
const MINE = "pnp-web.hosted";
const DEFAULT_NAMES = ["Anna", "Boris", "Carla", "Dmitri", "Elena", "Fyodor"];

function counts() {
  return $("game").value === "satellites" ? [2] : [2, 3, 4, 5, 6];
}

function renderSeats() {
  const n = Number($("seats-count").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat")].map((row) => ({
    name: row.querySelector("input").value, kind: row.querySelector("select").value }));
  box.replaceChildren();
  for (let seat = 0; seat < n; seat++) {
    const label = $("game").value === "satellites" ? ["red", "blue"][seat] : `P${seat + 1}`;
    const keep = old[seat] || { name: DEFAULT_NAMES[seat], kind: seat === 0 ? "human" : "greedy" };
    box.append(el("div", { class: "row seat" },
      el("span", { class: "seat-name", style: "min-width:2.6rem" }, label),
      el("input", { value: keep.name, "aria-label": `${label}: name`, size: 12, name: `name-${seat}` }),
      el("select", { "aria-label": `${label}: who plays`, name: `kind-${seat}` },
        ["human", "random", "greedy", "mcts"].map((k) => el("option", { value: k, selected: k === keep.kind ? true : null },
          k === "human" ? "a person" : `bot: ${k}`)))));
  }
}

function renderCounts() {
  const select = $("seats-count");
  const was = Number(select.value) || 2;
  select.replaceChildren(...counts().map((n) => el("option", { value: String(n), selected: n === was ? true : null }, String(n))));
  renderSeats();
}

function hosted() {
  try { return JSON.parse(localStorage.getItem(MINE) || "[]"); } catch { return []; }
}

async function renderGames() {
  const games = await api("/api/games");
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  const mine = hosted().filter((h) => byId[h.id]);
  $("mine").replaceChildren(...mine.map((h) => {
    const g = byId[h.id];
    return el("li", {}, el("a", { href: h.host }, `${g.game}: ${g.players.join(", ")}`), ` — ${g.status}, ${g.plies} move(s)`);
  }));
  if (!mine.length) $("mine").append(el("li", { class: "muted" }, "none yet"));
  const done = games.filter((g) => g.status !== "active");
  $("finished").replaceChildren(...done.map((g) => el("li", {},
    `${g.game}: ${g.players.join(", ")} (${g.status}, ${g.plies} moves) `,
    el("a", { href: `/replay/${g.id}` }, "replay"), " · ",
    el("a", { href: `/api/games/${g.id}/record`, download: `${g.game}-${g.id}.yaml` }, "record"))));
  if (!done.length) $("finished").append(el("li", {}, "none yet"));
}

async function start(e) {
  e.preventDefault();
  const players = [...document.querySelectorAll("#seats .seat")].map((row) => ({
    name: row.querySelector("input").value, kind: row.querySelector("select").value }));
  const seed = $("seed").value.trim();
  try {
    $("start").disabled = true;
    const out = await api("/api/games", { method: "POST", json: { game: $("game").value, players, seed: seed || null } });
    const list = hosted();
    list.unshift({ id: out.id, host: out.links.host });
    localStorage.setItem(MINE, JSON.stringify(list.slice(0, 50)));
    const humans = out.links.seats.filter((s) => s.url);
    // one person against bots plays at once; otherwise the host page hands out the links
    location.href = humans.length === 1 ? humans[0].url : out.links.host;
  } catch (err) {
    sayError(err);
  } finally {
    $("start").disabled = false;
  }
}

$("game").addEventListener("change", renderCounts);
$("seats-count").addEventListener("change", renderSeats);
$("new-game").addEventListener("submit", start);
renderCounts();
renderGames().catch((err) => say(String(err), "error"));

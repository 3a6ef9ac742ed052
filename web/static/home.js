// The home page: start a game (each seat a person or a bot), join one with its code, find the
// seats this device holds and the games started here.
import { api, el, say, sayError, hostedGames, rememberHosted, rememberSeat, seatsHere } from "./common.js";

const $ = (id) => document.getElementById(id);
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
  renderMe();
}

// "You play": one of the people's seats, or none (this device only hosts).
function renderMe() {
  const select = $("me");
  const was = select.dataset.chosen === "1" ? select.value : null; // the first person by default
  const seats = [...document.querySelectorAll("#seats .seat")].map((row, seat) => ({ seat,
    name: row.querySelector("input").value, kind: row.querySelector("select").value })).filter((s) => s.kind === "human");
  select.replaceChildren(...seats.map((s) => el("option", { value: String(s.seat), selected: String(s.seat) === was ? true : null }, s.name || `seat ${s.seat + 1}`)),
    el("option", { value: "", selected: was === "" ? true : null }, "nobody: I only host"));
}

function renderCounts() {
  const select = $("seats-count");
  const was = Number(select.value) || 2;
  select.replaceChildren(...counts().map((n) => el("option", { value: String(n), selected: n === was ? true : null }, String(n))));
  renderSeats();
}

async function renderGames() {
  const games = await api("/api/games");
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  const seats = seatsHere().filter((s) => byId[s.id] && byId[s.id].status === "active");
  $("my-seats").replaceChildren(...seats.map((s) => el("li", {}, el("a", { href: s.url, "data-my-seat": s.id }, `${s.name} in ${s.game}`),
    ` (${byId[s.id].players.join(", ")}, ${byId[s.id].plies} move(s))`)));
  if (!seats.length) $("my-seats").append(el("li", { class: "muted" }, "none: a seat taken here is listed until its game ends"));
  const mine = hostedGames().filter((h) => byId[h.id]);
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
  const me = $("me").value === "" ? null : Number($("me").value);
  try {
    $("start").disabled = true;
    const out = await api("/api/games", { method: "POST", json: { game: $("game").value, players, seed: seed || null, me } });
    rememberHosted(out.id, out.links.host);
    if (out.seat) rememberSeat({ id: out.id, game: $("game").value, seat: out.seat.seat, name: out.seat.name, url: out.seat.url });
    const humans = players.filter((p) => p.kind === "human").length;
    // one person against bots plays at once; otherwise the host page shows the join code
    location.href = humans === 1 && out.seat ? out.seat.url : out.links.host;
  } catch (err) {
    sayError(err);
  } finally {
    $("start").disabled = false;
  }
}

$("game").addEventListener("change", renderCounts);
$("seats-count").addEventListener("change", renderSeats);
$("seats").addEventListener("change", renderMe);
$("me").addEventListener("change", () => { $("me").dataset.chosen = "1"; });
$("seats").addEventListener("input", renderMe);
$("new-game").addEventListener("submit", start);
$("join-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = $("join-code").value.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (code) location.href = `/j/${code}`;
  else say("type the game's code, as its host page shows it (e.g. K7M2QX)", "error");
});
renderCounts();
renderGames().catch((err) => say(String(err), "error"));

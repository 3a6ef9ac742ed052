// The playtest page: log a game people played (scores, or the scored file), see the log.
import { api, el, say, sayError } from "./common.js";

const $ = (id) => document.getElementById(id);
let designs = {};

function list(text) {
  return text.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function hint() {
  const game = $("game").value;
  $("seats-hint").textContent = game === "satellites" ? "red, then blue" : "in seat order: P1, P2 …";
  $("design").textContent = designs[game] ? designs[game].stamp : "";
}

async function refresh() {
  const data = await api("/api/playtests");
  designs = data.designs;
  hint();
  const rows = data.playtests.slice().reverse().map((p) => el("tr", {},
    el("td", {}, p.played),
    el("td", {}, `${p.game} ${p.version ? `v${p.version}·` : ""}${p.design}`),
    el("td", {}, p.players.map((n, k) => `${n} ${p.scores[k]}`).join(", ")),
    el("td", {}, p.winners.length ? p.winners.map((w) => p.players[w]).join(", ") : "a draw")));
  $("logged").querySelector("tbody").replaceChildren(...rows);
}

async function submit(event) {
  event.preventDefault();
  const body = { game: $("game").value, players: list($("players").value) };
  const scores = list($("scores").value);
  if (scores.length) {
    const numbers = scores.map(Number);
    if (numbers.some((n) => !Number.isInteger(n))) {
      say("Scores: give a whole number per player, separated by commas", "error");
      return;
    }
    body.scores = numbers;
  }
  const file = $("file").files[0];
  if (file) body.file = { name: file.name, text: await file.text() };
  if ($("winner").value.trim()) body.winner = list($("winner").value);
  if ($("date").value) body.date = $("date").value;
  if ($("minutes").value.trim()) body.minutes = $("minutes").value.trim();
  if ($("notes").value.trim()) body.notes = $("notes").value;
  if ($("version").value.trim()) body.version = $("version").value.trim();
  try {
    const logged = await api("/api/playtests", { method: "POST", json: body });
    const won = logged.winners.length ? logged.winners.map((w) => logged.players[w]).join(" and ") : "a draw";
    say(`Logged: ${logged.game} ${logged.version ? `v${logged.version}·` : ""}${logged.design}, ${logged.played}, won by ${won}`, "ok");
    $("playtest").reset();
    await refresh();
  } catch (err) {
    sayError(err);
  }
}

$("game").addEventListener("change", hint);
$("playtest").addEventListener("submit", submit);
refresh().catch(sayError);

// Step through a finished or abandoned game: every position with the move that led to it
// (the hands too, now that the game is over).
import { api, el, sayError, say } from "./common.js";
import { OrbitusPlay } from "./play-orbitus.js";
import { SatellitesPlay } from "./play-satellites.js";
import { cardSvg } from "./orbitus-draw.js";

const $ = (id) => document.getElementById(id);
const ident = location.pathname.split("/")[2];
let data, view, pieces, at = 0;

function show(k) {
  at = Math.max(0, Math.min(k, data.steps.length - 1));
  const step = data.steps[at];
  $("step").value = String(at);
  const history = data.steps.slice(1, at + 1).map((s) => ({ seat: s.seat, text: s.text }));
  const msg = { role: "spectator", status: data.status, view: step.view, history, legal: null, private: null,
    players: data.players.map((name, i) => ({ name, kind: data.kinds[i] })) };
  view.update(msg);
  $("where").textContent = at === 0 ? "The deal" : `Move ${at} of ${data.steps.length - 1}: ${data.players[step.seat]} — ${step.text}`;
  $("history").replaceChildren(...data.steps.slice(1).map((s, i) => el("li", { class: i + 1 === at ? "turn mine" : "", onclick: () => show(i + 1) }, `${data.players[s.seat]}: ${s.text}`)));
  $("players").replaceChildren(...data.players.map((name, seat) => el("div", { class: "row" }, view.swatch(seat), el("span", { class: "seat-name" }, name), el("span", { class: "muted" }, data.kinds[seat] === "human" ? "" : `bot: ${data.kinds[seat]}`), view.playerNote(msg, seat))));
  if (data.game === "orbitus") {
    $("hands").replaceChildren(...step.view.hands.map((hand, seat) => el("div", {}, el("b", {}, data.players[seat]), el("div", { class: "hand" }, hand.map((c) => el("span", { title: c }, cardSvg(pieces, c, 0, 48)))))));
  } else {
    $("hands-panel").classList.add("hidden");
  }
}

async function main() {
  try {
    data = await api(`/api/games/${ident}/replay`);
  } catch (err) {
    sayError(err);
    return;
  }
  pieces = await api(`/api/${data.game}/pieces`);
  $("title").textContent = `${data.game === "orbitus" ? "Orbitus" : "Satellites"}: ${data.players.join(", ")} (seed ${data.seed}, ${data.status})`;
  const Kind = data.game === "orbitus" ? OrbitusPlay : SatellitesPlay;
  const stationSvg = data.station_svg || null;
  view = new Kind({ svg: $("board"), controls: null, help: null, indicator: $("indicator"), pieces, send: null, stationSvg, readOnly: true });
  $("step").max = String(data.steps.length - 1);
  $("step").addEventListener("input", (e) => show(Number(e.target.value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(data.steps.length - 1));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowLeft") { e.preventDefault(); show(at - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); show(at + 1); }
    if (e.key === "Home") show(0);
    if (e.key === "End") show(data.steps.length - 1);
  });
  $("record").href = `/api/games/${ident}/record`;
  $("record").setAttribute("download", `${data.game}-${ident}.yaml`);
  $("result").textContent = data.result.reason;
  say(`${data.steps.length - 1} moves; ← and → step through them`, "info");
  show(data.steps.length - 1);
}

main();

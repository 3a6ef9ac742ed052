// Transcribe an Orbitus table by clicking: the page holds the layout file's data and the server
// scores it after every edit, exactly as pnp-score orbitus scores the exported file.
import { api, download, el, key, unkey, SIDES, say, sayError, signed, arrowStep, plural } from "./common.js";
import { OrbitusTable, cardSvg, seatSwatch } from "./orbitus-draw.js";
import { notePhoto, photoPending, renderPhotoPanel, showPhotoImage, wirePhotoInput } from "./photo.js";
import { editing } from "./history.js";

const $ = (id) => document.getElementById(id);
const STORE_KEY = "pnp-web.orbitus.table";

let pieces, table;
let model = { players: ["Anna", "Boris"], sectors: [] };
let scored = null;
let cursor = [0, -1];
let request = 0;
let matches = [], chosen = 0;
let savedId = null;
// the last photo read: {file, read, findings, how, image, unread: Set of "q,r" still to fill}
let photo = null;

const rotOf = (value) => {
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    const i = SIDES.indexOf(value.trim().toUpperCase());
    if (i >= 0) return i;
    if (/^\d+$/.test(value.trim())) return Number(value.trim());
  }
  return 0;
};
const sameCell = (s, q, r) => s && Array.isArray(s.at) && s.at[0] === q && s.at[1] === r;
const sectorAt = (q, r) => model.sectors.findIndex((s) => sameCell(s, q, r));

// every change of the page's table goes through edit(), so undo and redo can bring it back
const { edit, undo, redo, key: undoKey } = editing({
  state: () => ({ model, photo }),
  setModel: (m) => { model = m; },
  refresh: () => refresh(),
  say,
});

// a card put on a cell the photo could not read (or the cell cleared): its mark goes
const filled = (q, r) => { if (photo) photo.unread.delete(key(q, r)); };

// --- scoring ------------------------------------------------------------------------------------

async function refresh() {
  const kept = photo ? { ...photo, image: undefined, images: undefined, unread: [...photo.unread] } : null;
  localStorage.setItem(STORE_KEY, JSON.stringify({ model, savedId, photo: kept }));
  const mine = ++request;
  draw();
  renderPhoto();
  try {
    const out = await api("/api/orbitus/score", { method: "POST", json: { table: model } });
    if (mine !== request) return; // a later edit is on its way
    scored = out;
    draw();
    showScore();
    renderPlayers();
  } catch (err) {
    if (mine === request) sayError(err);
  }
}

function sectorsForDrawing() {
  if (scored) {
    // what the scorer placed (a sector it could not place is not drawn)
    return scored.sectors.map(([q, r, card, rot, routes, planet, pirate]) => ({ q, r, card, rot, routes, planet, pirate }));
  }
  return [];
}

function draw() {
  table.render({
    sectors: sectorsForDrawing(),
    owner: scored ? scored.owner : {},
    stationSvg: scored ? scored.station_svg : null,
    report: scored ? scored.report : null,
    cursor,
    marks: photo ? Object.fromEntries([...photo.unread].map((k) => [k, "unread"])) : {},
    extra: model.sectors.filter((s) => Array.isArray(s.at) && s.at.length === 2).map((s) => s.at),
  });
  $("cell-name").textContent = `[${cursor[0]}, ${cursor[1]}]`;
  const i = sectorAt(...cursor);
  const s = model.sectors[i];
  $("rot-name").textContent = s && s.card !== undefined ? `${s.card} rot ${rotOf(s.rot)} (${SIDES[rotOf(s.rot) % 6] || "?"})` : s ? "inline sector" : "empty";
}

function showScore() {
  const box = $("score");
  const report = scored.report;
  const parts = [];
  const pending = photoPending(photo);
  if (pending) parts.push(el("p", { class: "error-text", id: "photo-pending" }, pending));
  if (!pending || !report.valid) {
    parts.push(el("p", { class: report.valid ? "ok" : "error-text" },
      `${plural(scored.sectors.length, "sector")} — ${report.valid ? "valid" : `NOT VALID: ${plural(report.violations.length, "violation")}, scores best-effort`}`));
  }
  report.players.forEach((p, seat) => {
    const rows = [];
    for (const [type, g] of Object.entries(p.planets)) if (g.count) rows.push([`planets ${type} × ${g.count}`, g.points]);
    rows.push([`pirates × ${p.pirates.count}`, p.pirates.points]);
    rows.push([`open routes × ${p.open_routes.count}`, p.open_routes.points]);
    if (!p.closed_blocks.length) rows.push(["closed blocks: none", 0]);
    for (const b of p.closed_blocks) rows.push([`closed block of ${b.size} from [${b.sectors[0].join(", ")}]`, b.points]);
    const win = report.winners.includes(p.name);
    parts.push(el("table", { class: "score", "data-player": p.name },
      el("caption", { class: "muted", style: "text-align:left" }, seatSwatch(pieces, seat),
        el("span", { class: "seat-name" }, p.name), ` — start lines ${p.start_lines.join(" ") || "none"}, ${plural(p.sectors.length, "sector")}`),
      rows.map(([label, pts]) => el("tr", {}, el("td", {}, label), el("td", { class: "pts" }, pts ? signed(pts) : "0"))),
      el("tr", { class: "total" }, el("td", {}, "total"), el("td", { class: `pts${win ? " winner" : ""}`, "data-total": p.total }, String(p.total)))));
  });
  parts.push(el("p", {}, `Neutral zones: ${report.neutral_zones.length ? `${report.neutral_zones.length} (${plural(report.neutral.length, "sector")}, score nothing)` : "none"}`));
  if (report.winners.length) {
    const best = report.players.find((p) => p.name === report.winners[0]).total;
    const who = `${report.winners.join(" and ")} ${report.winners.length === 1 ? "wins" : "share the win"} with ${best} point(s)`;
    parts.push(el("p", { class: "winner", id: "winners" }, pending ? `So far, without the cells not read: ${who}` : `Winner: ${who}`));
  }
  if (report.violations.length) {
    parts.push(el("h3", {}, `Violations (${report.violations.length})`));
    parts.push(el("ul", { class: "violations", id: "violations" }, report.violations.map((v) =>
      el("li", { tabindex: 0, "data-rule": v.rule, "data-cell": v.cell ? v.cell.join(",") : "",
        onclick: () => { if (v.cell) { cursor = v.cell; draw(); $("table").focus(); } },
        onkeydown: (e) => { if (e.key === "Enter" && v.cell) { cursor = v.cell; draw(); } } },
      `line ${v.line ?? "-"}: ${v.rule}: ${v.message}`))));
  }
  box.replaceChildren(...parts);
  if (report.valid) say(`Scored: ${report.players.map((p) => `${p.name} ${p.total}`).join(", ")}`, "ok");
  else say(`${plural(report.violations.length, "violation")}: ${report.violations[0].message}`, "error");
  notePhoto(photo);
}

// --- players and station -----------------------------------------------------------------------

function renderPlayers() {
  const box = $("players");
  box.replaceChildren(...model.players.map((name, seat) => el("div", { class: "row" },
    seatSwatch(pieces, seat),
    el("input", { value: typeof name === "string" ? name : String(name), "aria-label": `Player ${seat + 1}'s name`, size: 12,
      onchange: (e) => renamePlayer(seat, e.target.value) }),
    el("button", { "aria-label": `Remove ${name}`, disabled: model.players.length <= 2 ? true : null, onclick: () => removePlayer(seat) }, "✕"))));
  $("add-player").disabled = model.players.length >= 6;
  const station = scored ? scored.station : {};
  $("station").replaceChildren(...SIDES.map((side) => el("label", { class: "row" }, `${side} `,
    el("select", { "aria-label": `Station side ${side}`, "data-side": side, onchange: (e) => setSide(side, e.target.value) },
      el("option", { value: "" , selected: station[side] === undefined ? true : null }, "barrier"),
      model.players.map((name, seat) => el("option", { value: String(seat), selected: station[side] === seat ? true : null }, `${name}'s start line`))))));
}

function renamePlayer(seat, value) {
  const name = value.trim();
  if (!name) { renderPlayers(); return; }
  edit(() => {
    const old = model.players[seat];
    model.players[seat] = name;
    if (model.start_lines && typeof model.start_lines === "object" && old in model.start_lines) {
      const lines = {};
      for (const [k, v] of Object.entries(model.start_lines)) lines[k === old ? name : k] = v;
      model.start_lines = lines;
    }
  }, `${name} is player ${seat + 1}`);
}

function removePlayer(seat) {
  edit(() => {
    const [name] = model.players.splice(seat, 1);
    if (model.start_lines && typeof model.start_lines === "object") delete model.start_lines[name];
  });
}

function setSide(side, value) {
  edit(() => {
    const station = scored ? scored.station : {};
    const lines = {};
    model.players.forEach((name) => { lines[name] = []; });
    for (const [s, seat] of Object.entries(station)) if (s !== side && model.players[seat] !== undefined) lines[model.players[seat]].push(s);
    if (value !== "") lines[model.players[Number(value)]].push(side);
    for (const name of Object.keys(lines)) lines[name].sort((a, b) => SIDES.indexOf(a) - SIDES.indexOf(b));
    model.start_lines = lines;
    delete model.barriers;
  }, `Station side ${side}: ${value === "" ? "barrier" : `${model.players[Number(value)]}'s start line`}`);
}

// --- cards ----------------------------------------------------------------------------------------

function findCards(query) {
  const tokens = query.trim().split(/[\s,;]+/).filter(Boolean);
  const sides = new Set(), words = [];
  for (const t of tokens) {
    const i = SIDES.indexOf(t.toUpperCase());
    if (i >= 0) sides.add(i); else words.push(t.toLowerCase());
  }
  const planetNames = Object.fromEntries(pieces.planets.map((p) => [p.id, p.name.toLowerCase()]));
  const out = [];
  for (const card of pieces.cards) {
    const id = card.id.toLowerCase();
    let ok = true, exact = false;
    for (const w of words) {
      if (id === w) { exact = true; continue; }
      if (id.startsWith(w) || (/\d/.test(w) && id.includes(w))) continue;
      const centre = card.planet || (card.pirate ? "pirate" : "void");
      if (centre.startsWith(w) || (card.planet && planetNames[card.planet] && planetNames[card.planet].startsWith(w))) continue;
      ok = false;
      break;
    }
    if (!ok) continue;
    let rot = null;
    if (sides.size) {
      for (let k = 0; k < 6; k++) {
        const turned = new Set(card.routes.map((s) => (s + k) % 6));
        if (turned.size === sides.size && [...sides].every((s) => turned.has(s))) { rot = k; break; }
      }
      if (rot === null) continue;
    }
    out.push({ card, rot, exact });
  }
  out.sort((a, b) => (b.exact - a.exact));
  return out.slice(0, 40);
}

function showMatches() {
  const query = $("card-input").value;
  const list = $("card-list");
  if (!query.trim()) { list.classList.add("hidden"); matches = []; return; }
  matches = findCards(query);
  chosen = 0;
  list.classList.toggle("hidden", !matches.length);
  renderMatches();
}

function renderMatches() {
  $("card-list").replaceChildren(...matches.map((m, i) => el("li", {
    role: "option", id: `match-${m.card.id}`, "aria-selected": i === chosen ? "true" : "false",
    onmousedown: (e) => { e.preventDefault(); chosen = i; placeChosen(); },
  }, cardSvg(pieces, m.card.id, m.rot || 0, 44), el("b", {}, m.card.id),
  ` ${m.card.planet || (m.card.pirate ? "pirate" : "void")} · routes ${m.card.routes.map((s) => SIDES[s]).join(" ") || "none"}${m.rot ? ` · turned r${m.rot}` : ""}`)));
  const active = matches[chosen];
  $("card-input").setAttribute("aria-activedescendant", active ? `match-${active.card.id}` : "");
  const node = active && document.getElementById(`match-${active.card.id}`);
  if (node) node.scrollIntoView({ block: "nearest" });
}

function placeChosen() {
  const typed = $("card-input").value.trim();
  let pick = matches[chosen];
  if (!pick && typed) pick = { card: { id: typed }, rot: 0 }; // not in the deck: the scorer says so
  if (!pick) return;
  const [q, r] = cursor;
  edit(() => {
    const i = sectorAt(q, r);
    const keepRot = i >= 0 && model.sectors[i].card === pick.card.id ? rotOf(model.sectors[i].rot) : 0;
    const sector = { at: [q, r], card: pick.card.id, rot: pick.rot ?? keepRot };
    if (i >= 0) model.sectors[i] = sector; else model.sectors.push(sector);
    filled(q, r);
  }, `${pick.card.id} on [${q}, ${r}]`);
  $("card-input").value = "";
  showMatches();
  $("table").focus();
}

function rotate(delta) {
  const [q, r] = cursor;
  const i = sectorAt(q, r);
  if (i < 0) { say(`No sector on [${q}, ${r}] to turn`, "info"); return; }
  edit(() => {
    const s = model.sectors[i];
    if (s.card !== undefined) s.rot = (((rotOf(s.rot) + delta) % 6) + 6) % 6;
    else if (Array.isArray(s.routes)) s.routes = s.routes.map((side) => SIDES[(SIDES.indexOf(String(side).toUpperCase()) + delta + 6) % 6] || side);
  });
}

function removeHere() {
  const [q, r] = cursor;
  const i = sectorAt(q, r);
  if (i < 0 && photo && photo.unread.has(key(q, r))) { clearUnread(key(q, r)); return; }
  if (i < 0) return;
  edit(() => model.sectors.splice(i, 1), `Removed the sector on [${q}, ${r}]`);
}

// --- inline sectors -------------------------------------------------------------------------------

const inlineSides = new Set();
function renderInline() {
  $("inline-sides").replaceChildren(...SIDES.map((side, i) => el("button", {
    "aria-pressed": inlineSides.has(i) ? "true" : "false", "data-side": side,
    onclick: () => { if (inlineSides.has(i)) inlineSides.delete(i); else inlineSides.add(i); renderInline(); },
  }, side)));
}

function placeInline() {
  const [q, r] = cursor;
  const centre = $("inline-centre").value;
  edit(() => {
    const sector = { at: [q, r], routes: [...inlineSides].sort().map((s) => SIDES[s]) };
    if (centre === "pirate") sector.pirate = true;
    else if (centre !== "void") sector.planet = centre;
    const i = sectorAt(q, r);
    if (i >= 0) model.sectors[i] = sector; else model.sectors.push(sector);
    filled(q, r);
  }, `Inline sector on [${q}, ${r}]`);
}

// --- a photo -----------------------------------------------------------------------------------------

function clearUnread(k) {
  edit(() => filled(...unkey(k)), `[${k.replace(",", ", ")}]: nothing there (the photo's mark removed)`);
}

function renderPhoto() {
  renderPhotoPanel($("photo-result"), photo, {
    what: "card",
    keyOf: (f) => (Array.isArray(f.cell) ? key(...f.cell) : null),
    label: (k) => `[${k.replace(",", ", ")}]`,
    go: (k, unread) => { cursor = unkey(k); draw(); if (unread && sectorAt(...cursor) < 0) $("card-input").focus(); else $("table").focus(); },
    clear: clearUnread,
    dismiss: () => { photo = null; showPhotoImage($("photo-view"), null); refresh(); },
  });
}

function loadPhoto(out) {
  edit(() => {
    model = out.model;
    photo = { ...out.photo, unread: new Set(out.photo.unread.map((c) => key(...c))) };
    cursor = out.photo.unread.length ? out.photo.unread[0] : [0, -1];
    savedId = null;
  }, `Read ${out.photo.file}`);
  showPhotoImage($("photo-view"), photo);
}

// --- files ------------------------------------------------------------------------------------------

async function importText(text, name) {
  try {
    const out = await api(`/api/orbitus/import?name=${encodeURIComponent(name)}`, { method: "POST", body: text, headers: { "Content-Type": "application/octet-stream" } });
    edit(() => { model = out.model; photo = null; }, `Imported ${name}`);
    showPhotoImage($("photo-view"), null);
  } catch (err) {
    sayError(err);
  }
}

async function refreshSaved() {
  const list = await api("/api/tables/orbitus");
  $("saved").replaceChildren(...list.map((t) => el("li", {},
    el("a", { href: "#", onclick: async (e) => { e.preventDefault(); const found = await api(`/api/tables/orbitus/${t.id}`); savedId = t.id; $("save-name").value = found.name; await importText(found.text, found.name + ".yaml"); } }, t.name),
    " ", el("button", { "aria-label": `Delete ${t.name}`, onclick: async () => { await api(`/api/tables/orbitus/${t.id}`, { method: "DELETE" }); refreshSaved(); } }, "✕"))));
}

// --- keys and clicks ----------------------------------------------------------------------------

function onKey(e) {
  if (e.ctrlKey || e.metaKey) {
    undoKey(e);
    return;
  }
  if (e.key.startsWith("Arrow")) {
    e.preventDefault();
    cursor = arrowStep(cursor[0], cursor[1], e.key);
    draw();
    return;
  }
  if (e.key === "r" || e.key === "R") { e.preventDefault(); rotate(e.shiftKey ? -1 : 1); return; }
  if (e.key === "Delete" || e.key === "Backspace") { e.preventDefault(); removeHere(); return; }
  if (e.key === "Enter") { e.preventDefault(); $("card-input").focus(); return; }
  if (/^[a-zA-Z0-9]$/.test(e.key)) {
    e.preventDefault();
    $("card-input").value = e.key;
    $("card-input").focus();
    showMatches();
  }
}

function cellOf(target) {
  const node = target.closest("[data-k]");
  return node ? node.dataset.k.split(",").map(Number) : null;
}

async function main() {
  try {
    pieces = await api("/api/orbitus/pieces");
  } catch (err) {
    sayError(err);
    return;
  }
  table = new OrbitusTable($("table"), pieces);
  const kept = localStorage.getItem(STORE_KEY);
  if (kept) {
    try {
      const k = JSON.parse(kept);
      model = k.model || model;
      savedId = k.savedId || null;
      if (k.photo && Array.isArray(k.photo.unread) && Array.isArray(k.photo.findings)) photo = { ...k.photo, unread: new Set(k.photo.unread) };
    } catch { /* a damaged copy: start afresh */ }
  }
  const svg = $("table");
  svg.addEventListener("click", (e) => {
    const cell = cellOf(e.target);
    if (!cell || (cell[0] === 0 && cell[1] === 0)) return;
    cursor = cell;
    draw();
    if (sectorAt(...cell) < 0) $("card-input").focus(); else svg.focus();
  });
  svg.addEventListener("wheel", (e) => {
    const cell = cellOf(e.target);
    if (!cell || sectorAt(...cell) < 0) return;
    e.preventDefault();
    cursor = cell;
    rotate(e.deltaY > 0 ? 1 : -1);
  }, { passive: false });
  svg.addEventListener("keydown", onKey);
  const input = $("card-input");
  input.addEventListener("input", showMatches);
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown") { e.preventDefault(); chosen = Math.min(chosen + 1, matches.length - 1); renderMatches(); }
    else if (e.key === "ArrowUp") { e.preventDefault(); chosen = Math.max(chosen - 1, 0); renderMatches(); }
    else if (e.key === "Enter") { e.preventDefault(); placeChosen(); }
    else if (e.key === "Escape") { input.value = ""; showMatches(); svg.focus(); }
  });
  $("place").addEventListener("click", placeChosen);
  $("rot-left").addEventListener("click", () => rotate(-1));
  $("rot-right").addEventListener("click", () => rotate(1));
  $("delete").addEventListener("click", removeHere);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("clear").addEventListener("click", () => {
    edit(() => { model = { players: model.players.slice(), sectors: [] }; savedId = null; photo = null; }, "A new, empty table");
    showPhotoImage($("photo-view"), null);
  });
  // the photo shows no seats: the page's players and station are kept
  wirePhotoInput($("photo-file"), $("photo-state"), "orbitus",
    () => ({ table: JSON.stringify({ players: model.players, start_lines: model.start_lines, barriers: model.barriers }) }),
    pieces.max_photo, loadPhoto);
  $("add-player").addEventListener("click", () => edit(() => {
    let n = model.players.length + 1;
    while (model.players.includes(`Player ${n}`)) n++;
    model.players.push(`Player ${n}`);
  }));
  $("station-default").addEventListener("click", () => edit(() => { delete model.start_lines; delete model.barriers; }, "The default start lines for this player count"));
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", async () => {
      const kind = button.dataset.export;
      try { await download(`/api/orbitus/export/${kind}?name=${encodeURIComponent($("save-name").value || "table")}`, { table: model }, `table.${kind}`); }
      catch (err) { sayError(err); }
    });
  }
  $("import-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 1_000_000) { sayError({ problems: [`${file.name} is ${Math.round(file.size / 1000)} kB; a layout is a few kB, is this the right file?`] }); return; }
    await importText(await file.text(), file.name);
    e.target.value = "";
  });
  $("paste-import").addEventListener("click", () => importText($("paste").value, "pasted.yaml"));
  $("save").addEventListener("click", async () => {
    try {
      const out = await api("/api/tables/orbitus", { method: "POST", json: { name: $("save-name").value, text: scored ? scored.text : "", id: savedId } });
      savedId = out.id;
      say(`Saved as ${$("save-name").value}`, "ok");
      refreshSaved();
    } catch (err) { sayError(err); }
  });
  const centre = $("inline-centre");
  for (const option of ["void", "pirate", ...pieces.planets.map((p) => p.id)]) centre.append(el("option", { value: option }, option));
  $("inline-place").addEventListener("click", placeInline);
  renderInline();
  renderPlayers();
  refreshSaved().catch(() => {});
  await refresh();
}

main();

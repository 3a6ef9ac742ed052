// Transcribe a Satellites board: the page holds the board as rows of tokens; the server scores
// the board text after every edit, exactly as pnp-score satellites scores the exported file.
import { api, download, el, say, sayError, plural } from "./common.js";
import { SatellitesBoard, cellName, groupsOf, parseName } from "./satellites-draw.js";
import { notePhoto, photoPending, renderPhotoPanel, showPhotoImage, wirePhotoInput } from "./photo.js";
import { editing } from "./history.js";

const $ = (id) => document.getElementById(id);
const STORE_KEY = "pnp-web.satellites.board";
let pieces, board;
let model = null;
let scored = null;
let cursor = [0, 0];
let request = 0;
let pending = "";
let savedId = null;
// the last photo read: {file, read, findings, how, image, unread: Set of "row,col" still to fill}
let photo = null;

const emptyRows = (n) => Array.from({ length: n }, () => Array(n).fill("."));

// every change of the page's table goes through edit(), so undo and redo can bring it back
const { edit, undo, redo, key: undoKey } = editing({
  state: () => ({ model, photo }),
  setModel: (m) => { model = m; },
  refresh: () => refresh(),
  say,
});

async function refresh() {
  const kept = photo ? { ...photo, image: undefined, images: undefined, unread: [...photo.unread] } : null;
  localStorage.setItem(STORE_KEY, JSON.stringify({ model, savedId, photo: kept }));
  const mine = ++request;
  draw();
  renderPhoto();
  try {
    const out = await api("/api/satellites/score", { method: "POST", json: { board: model } });
    if (mine !== request) return;
    scored = out;
    draw();
    showScore();
  } catch (err) {
    if (mine === request) sayError(err);
  }
}

function draw() {
  board.render({
    tokens: model.rows,
    groups: scored ? groupsOf(scored.report, scored.groups) : [],
    links: scored ? scored.links : [],
    violations: scored ? scored.violation_cells.flat() : [],
    marks: photo ? Object.fromEntries([...photo.unread].map((k) => [k, "unread"])) : {},
    cursor,
  });
  $("cell-name").textContent = cellName(...cursor);
  $("grace").value = model.grace_moves_left === null || model.grace_moves_left === undefined ? "" : String(model.grace_moves_left);
}

function showScore() {
  const r = scored.report;
  const pending = photoPending(photo);
  const parts = [];
  if (pending) parts.push(el("p", { class: "error-text", id: "photo-pending" }, pending));
  if (!pending || !r.valid) parts.push(el("p", { class: r.valid ? "ok" : "error-text" }, r.valid ? "Valid: no rule is broken." : `NOT VALID: ${plural(r.violations.length, "violation")}`));
  parts.push(el("table", { class: "score" },
    el("tr", {}, el("th", {}, ""), el("th", { class: "pts" }, "red"), el("th", { class: "pts" }, "blue")),
    el("tr", {}, el("td", {}, "connected"), el("td", { class: "pts", id: "connected-red" }, r.connected.red), el("td", { class: "pts", id: "connected-blue" }, r.connected.blue)),
    el("tr", {}, el("td", {}, "colonies controlled"), el("td", { class: "pts", id: "colonies-red" }, r.colonies.red), el("td", { class: "pts", id: "colonies-blue" }, r.colonies.blue)),
    el("tr", {}, el("td", {}, "lowest controlled colony"), el("td", { class: "pts" }, r.lowest_controlled.red ?? "–"), el("td", { class: "pts" }, r.lowest_controlled.blue ?? "–"))));
  const head = r.end.over === true ? (r.winner ? `Winner: ${r.winner}${r.tiebreak ? ", on the tie-break" : ""}` : "Draw")
    : (r.winner ? `If the game ended now: ${r.winner} would win${r.tiebreak ? ", on the tie-break" : ""}` : "If the game ended now: a draw");
  parts.push(el("p", { class: "winner", id: "decision" }, pending ? `So far, without the cells not read: ${head}` : head), el("p", { class: "muted" }, r.decision), el("p", { class: "muted", id: "end" }, `End: ${r.end.message}`));
  if (r.groups.length) {
    parts.push(el("h3", {}, `Groups (${r.groups.length})`));
    parts.push(el("ul", { class: "muted" }, r.groups.map((g) => el("li", {},
      `${g.label}: ${g.colony ? "colony" : g.size === 2 ? "pair" : "group"} of ${g.size}, red ${g.red} blue ${g.blue}, ${g.controller ? `controlled by ${g.controller}` : g.contested ? "contested" : "nobody's"}${g.crowned ? ", crowned" : ""} — ${g.cells.join(" ")}`))));
  }
  if (r.violations.length) {
    parts.push(el("h3", {}, `Violations (${r.violations.length})`));
    parts.push(el("ul", { class: "violations", id: "violations" }, r.violations.map((v) => el("li", {
      tabindex: 0, "data-rule": v.rule, "data-cell": v.cell || "",
      onclick: () => { if (v.cell) { cursor = parseName(v.cell); draw(); $("board").focus(); } },
    }, `${v.cell || "board"}: ${v.rule}: ${v.message}`))));
  }
  $("score").replaceChildren(...parts);
  if (r.valid) say(`${head}. Connected: red ${r.connected.red}, blue ${r.connected.blue}`, "ok");
  else say(`${plural(r.violations.length, "violation")}: ${r.violations[0].message}`, "error");
  notePhoto(photo);
}

function put(token) {
  const [row, col] = cursor;
  const marked = photo && photo.unread.has(`${row},${col}`);
  if (model.rows[row][col] === token && !marked) return;
  // a satellite put on a cell the photo could not read, or the cell emptied: its mark goes
  edit(() => { model.rows[row][col] = token; if (marked) photo.unread.delete(`${row},${col}`); },
    `${token === "." ? "emptied" : token} on ${cellName(row, col)}`);
}

// --- a photo -----------------------------------------------------------------------------------------

function renderPhoto() {
  const name = (k) => cellName(...k.split(",").map(Number));
  renderPhotoPanel($("photo-result"), photo, {
    what: "satellite",
    keyOf: (f) => (Array.isArray(f.at) ? f.at.join(",") : null),
    label: name,
    go: (k) => { cursor = k.split(",").map(Number); draw(); $("board").focus(); },
    clear: (k) => { cursor = k.split(",").map(Number); put("."); },
    dismiss: () => { photo = null; showPhotoImage($("photo-view"), null); refresh(); },
  });
}

function loadPhoto(out) {
  edit(() => {
    model = out.model;
    photo = { ...out.photo, unread: new Set(out.photo.unread.map((c) => c.join(","))) };
    cursor = out.photo.unread.length ? out.photo.unread[0] : [0, 0];
    savedId = null;
  }, `Read ${out.photo.file}`);
  showPhotoImage($("photo-view"), photo);
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey) {
    undoKey(e);
    return;
  }
  const n = model.rows.length;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[e.key]) {
    e.preventDefault();
    cursor = [Math.min(n - 1, Math.max(0, cursor[0] + moves[e.key][0])), Math.min(n - 1, Math.max(0, cursor[1] + moves[e.key][1]))];
    pending = "";
    draw();
    return;
  }
  const k = e.key.toLowerCase();
  if (k === "." || e.key === "Delete" || e.key === "Backspace") { e.preventDefault(); pending = ""; put("."); return; }
  if (k === "r" || k === "b") { e.preventDefault(); pending = k.toUpperCase(); say(`${pending === "R" ? "red" : "blue"}: now its value`, "info"); return; }
  if (/^[0-9]$/.test(k) && pending) {
    e.preventDefault();
    const token = pending + k;
    pending = "";
    if (!pieces.values.includes(Number(k))) { say(`${token}: the satellites have values ${pieces.values.join(", ")}`, "error"); return; }
    put(token);
  }
}

async function importText(text, name) {
  try {
    const out = await api(`/api/satellites/import?name=${encodeURIComponent(name)}`, { method: "POST", body: text, headers: { "Content-Type": "application/octet-stream" } });
    edit(() => { model = out.model; cursor = [0, 0]; photo = null; }, `Read ${name}`);
    showPhotoImage($("photo-view"), null);
    const problems = out.import_report.violations;
    if (problems.some((v) => ["unknown-token", "ragged-rows", "board-not-square", "board-size"].includes(v.rule))) {
      sayError({ problems: [`${name} was read with problems (the board below is as read):`, ...problems.map((v) => `${v.cell || "board"}: ${v.message}`)] });
    }
  } catch (err) {
    sayError(err);
  }
}

async function refreshSaved() {
  const list = await api("/api/tables/satellites");
  $("saved").replaceChildren(...list.map((t) => el("li", {},
    el("a", { href: "#", onclick: async (e) => { e.preventDefault(); const found = await api(`/api/tables/satellites/${t.id}`); savedId = t.id; $("save-name").value = found.name; await importText(found.text, found.name); } }, t.name),
    " ", el("button", { "aria-label": `Delete ${t.name}`, onclick: async () => { await api(`/api/tables/satellites/${t.id}`, { method: "DELETE" }); refreshSaved(); } }, "✕"))));
}

async function main() {
  try {
    pieces = await api("/api/satellites/pieces");
  } catch (err) {
    sayError(err);
    return;
  }
  board = new SatellitesBoard($("board"), pieces);
  model = { rows: emptyRows(pieces.size), grace_moves_left: null };
  const kept = localStorage.getItem(STORE_KEY);
  if (kept) {
    try {
      const k = JSON.parse(kept);
      if (k.model && Array.isArray(k.model.rows)) { model = k.model; savedId = k.savedId || null; }
      if (k.photo && Array.isArray(k.photo.unread) && Array.isArray(k.photo.findings)) photo = { ...k.photo, unread: new Set(k.photo.unread) };
    } catch { /* start afresh */ }
  }
  const palette = $("palette");
  for (const colour of ["R", "B"]) {
    for (const v of pieces.values) {
      palette.append(el("button", { class: colour === "R" ? "red" : "blue", "data-token": `${colour}${v}`, "aria-label": `${colour === "R" ? "red" : "blue"} ${v}`, onclick: () => put(`${colour}${v}`) }, `${colour}${v}`));
    }
  }
  palette.append(el("button", { "data-token": ".", "aria-label": "empty the cell", onclick: () => put(".") }, "·"));
  for (let k = 0; k <= pieces.grace_moves; k++) $("grace").append(el("option", { value: String(k) }, String(k)));
  $("grace").addEventListener("change", (e) => edit(() => { model.grace_moves_left = e.target.value === "" ? null : Number(e.target.value); }));
  const svg = $("board");
  svg.addEventListener("click", (e) => {
    const hit = e.target.closest("[data-row]");
    if (!hit) return;
    cursor = [Number(hit.dataset.row), Number(hit.dataset.col)];
    draw();
    svg.focus();
  });
  svg.addEventListener("keydown", onKey);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("clear").addEventListener("click", () => {
    edit(() => { model = { rows: emptyRows(pieces.size), grace_moves_left: null }; savedId = null; photo = null; }, "An empty board");
    showPhotoImage($("photo-view"), null);
  });
  wirePhotoInput($("photo-file"), $("photo-state"), "satellites", () => ({}), pieces.max_photo, loadPhoto);
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", async () => {
      try { await download(`/api/satellites/export/${button.dataset.export}?name=${encodeURIComponent($("save-name").value || "board")}`, { board: model }, "board"); }
      catch (err) { sayError(err); }
    });
  }
  $("import-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 100_000) { sayError({ problems: [`${file.name} is ${Math.round(file.size / 1000)} kB; a Satellites board is a few lines of text, is this the right file?`] }); return; }
    await importText(await file.text(), file.name);
    e.target.value = "";
  });
  $("paste-import").addEventListener("click", () => importText($("paste").value, "pasted board"));
  $("save").addEventListener("click", async () => {
    try {
      const out = await api("/api/tables/satellites", { method: "POST", json: { name: $("save-name").value, text: scored ? scored.text : "", id: savedId } });
      savedId = out.id;
      say(`Saved as ${$("save-name").value}`, "ok");
      refreshSaved();
    } catch (err) { sayError(err); }
  });
  refreshSaved().catch(() => {});
  await refresh();
}

main();

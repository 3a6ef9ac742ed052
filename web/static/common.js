// Shared by every page of pnp-web: requests, messages, small DOM and SVG helpers, hex maths.
// Plain ES modules, no build step, nothing fetched from outside this server.

export const SVGNS = "http://www.w3.org/2000/svg";
export const SIDES = ["N", "NE", "SE", "S", "SW", "NW"];
export const DIRS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.problems = (body && body.problems) || [this.message];
  }
}

// A JSON request to the server; a 4xx/5xx answer raises ApiError with the server's sentences.
// A request that changes something is always JSON (an empty object when it carries nothing)
// or a file with its own type: the server takes nothing else (no other site can send those).
export async function api(path, { method = "GET", json, body, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (json === undefined && body === undefined && method !== "GET") json = {};
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers["Content-Type"] = "application/json";
  } else if (body !== undefined) {
    init.body = body;
  }
  const res = await fetch(path, init);
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("application/json") ? await res.json() : await res.text();
  if (!res.ok) throw new ApiError(res.status, typeof data === "object" ? data : { error: data });
  return data;
}

// Ask the server for a file and hand it to the browser as a download.
export async function download(path, json, fallbackName) {
  const res = await fetch(path, { method: "POST", body: JSON.stringify(json),
                                  headers: { "Content-Type": "application/json" } });
  if (!res.ok) {
    const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    throw new ApiError(res.status, body);
  }
  const blob = await res.blob();
  const disposition = res.headers.get("Content-Disposition") || "";
  const match = /filename="([^"]+)"/.exec(disposition);
  const a = el("a", { href: URL.createObjectURL(blob), download: match ? match[1] : fallbackName });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// el("div", {class: "x", onclick: f}, child, "text") -> an element (text is always text).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The hatching of an unread cell, for an <svg>'s <defs> (units: the drawing's millimetres).
export function hatchPattern() {
  return svgEl("pattern", { id: "hatch-unread", patternUnits: "userSpaceOnUse", width: 2.6, height: 2.6, patternTransform: "rotate(45)" },
    svgEl("rect", { width: 2.6, height: 2.6, fill: "#fde1e4" }),
    svgEl("rect", { width: 1.1, height: 2.6, fill: "#d0021b" }));
}

// Parse an SVG fragment the server drew (the printables' components) into a <g>.
export function fragment(markup) {
  const doc = new DOMParser().parseFromString(
    `<svg xmlns="${SVGNS}">${markup}</svg>`, "image/svg+xml");
  const g = document.createElementNS(SVGNS, "g");
  for (const child of [...doc.documentElement.childNodes]) g.append(document.importNode(child, true));
  return g;
}

// A message in the page's status line (role=status, so screen readers hear it too).
export function say(text, kind = "info") {
  const box = document.getElementById("status");
  if (!box) return;
  box.textContent = text;
  box.className = `status ${kind}`;
}

export function sayError(err) {
  const problems = err && err.problems ? err.problems : [String(err)];
  const box = document.getElementById("status");
  if (!box) return;
  box.replaceChildren(...problems.slice(0, 12).map((p) => el("div", {}, p)));
  box.className = "status error";
}

// --- flat-top hexes in axial coordinates, as rules/hexgeo.py ---------------------------------

export function hexCentre(q, r, flats) {
  const size = flats / Math.sqrt(3);
  return [size * 1.5 * q, size * Math.sqrt(3) * (r + q / 2)];
}

export function hexPoints(flats, cx = 0, cy = 0, scale = 1) {
  const size = (flats / Math.sqrt(3)) * scale;
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * 60 * i;
    pts.push(`${(cx + size * Math.cos(a)).toFixed(3)},${(cy + size * Math.sin(a)).toFixed(3)}`);
  }
  return pts.join(" ");
}

export function sideMidpoint(flats, side, cx = 0, cy = 0) {
  const a = (Math.PI / 180) * (-90 + 60 * side);
  return [cx + (flats / 2) * Math.cos(a), cy + (flats / 2) * Math.sin(a)];
}

export const key = (q, r) => `${q},${r}`;
export const unkey = (k) => k.split(",").map(Number);

// The cell an arrow key leads to from (q, r): up N, down S, left and right zig-zag so that a
// row of cells is walked (NW/SW to the left, NE/SE to the right).
export function arrowStep(q, r, arrow) {
  const odd = ((q % 2) + 2) % 2 === 1;
  switch (arrow) {
    case "ArrowUp": return [q, r - 1];
    case "ArrowDown": return [q, r + 1];
    case "ArrowLeft": return odd ? [q - 1, r + 1] : [q - 1, r];
    case "ArrowRight": return odd ? [q + 1, r] : [q + 1, r - 1];
    default: return [q, r];
  }
}

export function mix(colour, amount) {
  const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return "#" + rgb.map((c) => Math.round(255 + (c - 255) * amount).toString(16).padStart(2, "0")).join("");
}

export const plural = (n, word, many = word + "s") => `${n} ${n === 1 ? word : many}`;
export const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

// --- what this device remembers: the games it created, the seats it took -------------------

const HOSTED = "pnp-web.hosted";
const SEATS = "pnp-web.seats";

function stored(name) {
  try { const v = JSON.parse(localStorage.getItem(name) || "[]"); return Array.isArray(v) ? v : []; } catch { return []; }
}

export function hostedGames() { return stored(HOSTED); }

export function rememberHosted(id, host) {
  const list = hostedGames().filter((h) => h.id !== id);
  list.unshift({ id, host });
  localStorage.setItem(HOSTED, JSON.stringify(list.slice(0, 50)));
}

// The seats taken on this device: {id, game, seat, name, url}, the newest first.
export function seatsHere() { return stored(SEATS); }

export function rememberSeat(entry) {
  const list = seatsHere().filter((s) => s.id !== entry.id);
  list.unshift(entry);
  localStorage.setItem(SEATS, JSON.stringify(list.slice(0, 50)));
}

export function forgetSeat(url) {
  localStorage.setItem(SEATS, JSON.stringify(seatsHere().filter((s) => s.url !== url)));
}

// A QR code the server drew (an <svg> with a viewBox) in a box the page sizes.
export function qrBox(markup, label) {
  const box = el("div", { class: "qr", role: "img", "aria-label": label });
  box.innerHTML = markup;
  return box;
}

// Draws an Orbitus table into an <svg>: the cards are the server's fragments of the printables'
// own components (pnp-build draws the same), placed and turned at their cells; the score's
// findings (owners, closed blocks, open route ends, neutral zones, violations) on top.
import { DIRS, fragment, hatchPattern, hexCentre, hexPoints, key, mix, sideMidpoint, svgEl, unkey } from "./common.js";

export const NEUTRAL = "#9a9a9a";

export class OrbitusTable {
  constructor(svg, pieces) {
    this.svg = svg;
    this.pieces = pieces;
    this.flats = pieces.flats;
    this.cards = Object.fromEntries(pieces.cards.map((c) => [c.id, c]));
    svg.classList.add("orbitus-table");
    const defs = svgEl("defs");
    for (const [id, markup] of Object.entries(pieces.faces)) {
      const g = fragment(markup);
      g.id = `card-${id}`;
      defs.append(g);
    }
    const parts = pieces.inline;
    for (const [name, markup] of [["face", parts.face], ["route", parts.route], ["outline", parts.outline]]) {
      const g = fragment(markup);
      g.id = `inline-${name}`;
      defs.append(g);
    }
    for (const [centre, markup] of Object.entries(parts.hubs)) {
      const g = fragment(markup);
      g.id = `hub-${centre}`;
      defs.append(g);
    }
    defs.append(hatchPattern());
    const back = fragment(pieces.back);
    back.id = "card-back";
    defs.append(back);
    this.defs = defs;
    this.layers = {};
    svg.replaceChildren(defs);
    for (const name of ["cells", "sectors", "station", "marks", "overlay", "ghost", "cursor"]) {
      this.layers[name] = svgEl("g", { class: `layer-${name}` });
      svg.append(this.layers[name]);
    }
  }

  seatColour(seat) {
    const colours = this.pieces.seat_colours;
    return colours[seat % colours.length];
  }

  // A sector's drawing: a deck card (its printed face, turned) or an inline sector's parts.
  sectorGroup(sector) {
    const g = svgEl("g", { class: "sector" });
    if (sector.card && this.cards[sector.card]) {
      g.append(svgEl("use", { href: `#card-${sector.card}`, transform: `rotate(${60 * (sector.rot || 0)})` }));
    } else {
      g.append(svgEl("use", { href: "#inline-face" }));
      for (const side of sector.routes || []) {
        g.append(svgEl("use", { href: "#inline-route", transform: `rotate(${60 * side})` }));
      }
      const centre = sector.planet ? (this.pieces.inline.hubs[sector.planet] ? sector.planet : "unknown")
        : sector.pirate ? "pirate" : "void";
      g.append(svgEl("use", { href: `#hub-${centre}` }));
      g.append(svgEl("use", { href: "#inline-outline" }));
    }
    return g;
  }

  // Draw everything. ``t``: {sectors: [{q, r, card, rot, routes, planet, pirate}], owner:
  // {"q,r": seat}, stationSvg, report (pnp-score's JSON), cursor: [q, r], marks: {"q,r":
  // class}, ghost: {q, r, card, rot, ok}, extra: [[q, r]] cells to show}.
  render(t) {
    const flats = this.flats;
    const L = this.layers;
    for (const layer of Object.values(L)) layer.replaceChildren();
    const taken = new Set(t.sectors.map((s) => key(s.q, s.r)));
    const shown = new Set(["0,0", ...taken]);
    for (const k of [...shown]) {
      const [q, r] = unkey(k);
      for (const [dq, dr] of DIRS) shown.add(key(q + dq, r + dr));
    }
    for (const [q, r] of t.extra || []) shown.add(key(q, r));
    if (t.cursor) shown.add(key(...t.cursor));
    for (const k of Object.keys(t.marks || {})) shown.add(k);
    const violations = new Set();
    const report = t.report;
    if (report) for (const v of report.violations) if (v.cell) violations.add(key(...v.cell));
    // the empty cells (what can be clicked), labelled with their coordinates
    for (const k of shown) {
      if (taken.has(k) || k === "0,0") continue;
      const [q, r] = unkey(k);
      const [x, y] = hexCentre(q, r, flats);
      const mark = (t.marks || {})[k];
      L.cells.append(svgEl("g", { class: `cell empty${mark ? " " + mark : ""}`, "data-k": k, transform: `translate(${x.toFixed(3)},${y.toFixed(3)})` },
        svgEl("polygon", { points: hexPoints(flats, 0, 0, 0.97), class: "cell-shape" }),
        svgEl("text", { class: "coords", y: (flats * 0.36).toFixed(2), "text-anchor": "middle" }, `${q},${r}`)));
    }
    // the sectors, tinted by their owner (neutral zones grey)
    const neutral = new Set();
    if (report) for (const c of report.neutral || []) neutral.add(key(...c));
    for (const s of t.sectors) {
      const k = key(s.q, s.r);
      const [x, y] = hexCentre(s.q, s.r, flats);
      const g = this.sectorGroup(s);
      g.setAttribute("transform", `translate(${x.toFixed(3)},${y.toFixed(3)})`);
      g.dataset.k = k;
      const seat = t.owner ? t.owner[k] : undefined;
      if (seat !== undefined) {
        g.classList.add(`seat-${seat}`);
        g.append(svgEl("polygon", { points: hexPoints(flats), class: "tint", fill: this.seatColour(seat) }));
      } else if (neutral.has(k)) {
        g.classList.add("neutral");
        g.append(svgEl("polygon", { points: hexPoints(flats), class: "tint neutral", fill: NEUTRAL }));
      }
      const mark = (t.marks || {})[k];
      if (mark) g.classList.add(...mark.split(" "));
      g.append(svgEl("text", { class: "coords on-card", y: (-flats * 0.3).toFixed(2), x: (flats * 0.3).toFixed(2), "text-anchor": "middle" }, `${s.q},${s.r}`));
      L.sectors.append(g);
    }
    // the station with its start lines and barriers
    if (t.stationSvg) {
      const st = fragment(t.stationSvg);
      st.classList.add("station");
      st.dataset.k = "0,0";
      L.station.append(st);
    }
    if (report) this.overlay(report, violations);
    for (const [k, cls] of Object.entries(t.marks || {})) {
      if (!cls.includes("legal") && !cls.includes("removable") && !cls.includes("last")) continue;
      const [q, r] = unkey(k);
      const [x, y] = hexCentre(q, r, flats);
      L.marks.append(svgEl("polygon", { points: hexPoints(flats, x, y, 0.9), class: `mark ${cls}` }));
    }
    // cells a photo showed a card on but could not read: hatched red with a "?"
    for (const [k, cls] of Object.entries(t.marks || {})) {
      if (!cls.split(" ").includes("unread")) continue;
      const [q, r] = unkey(k);
      const [x, y] = hexCentre(q, r, flats);
      L.marks.append(svgEl("polygon", { points: hexPoints(flats, x, y, 0.9), class: "mark unread", "data-unread": k }));
      L.marks.append(svgEl("text", { class: "unread-q", x: x.toFixed(2), y: (y + flats * 0.12).toFixed(2), "font-size": (flats * 0.36).toFixed(1) }, "?"));
    }
    if (t.ghost) {
      const [x, y] = hexCentre(t.ghost.q, t.ghost.r, flats);
      const g = this.sectorGroup({ card: t.ghost.card, rot: t.ghost.rot });
      g.setAttribute("transform", `translate(${x.toFixed(3)},${y.toFixed(3)})`);
      g.setAttribute("class", `ghost ${t.ghost.ok ? "fits" : "does-not-fit"}`);
      L.ghost.append(g);
    }
    if (t.cursor) {
      const [x, y] = hexCentre(t.cursor[0], t.cursor[1], flats);
      L.cursor.append(svgEl("polygon", { points: hexPoints(flats, x, y, 1.0), class: "cursor" }));
    }
    this.fit(shown);
  }

  overlay(report, violations) {
    const flats = this.flats;
    const L = this.layers;
    report.players.forEach((player, seat) => {
      const colour = this.seatColour(seat);
      for (const block of player.closed_blocks) {
        const pts = block.sectors.map(([q, r]) => hexCentre(q, r, flats));
        L.overlay.append(svgEl("polygon", { class: "closed-block", points: pts.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "), stroke: colour }));
        const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
        const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
        const label = `${block.size}: ${block.points > 0 ? "+" : ""}${block.points}`;
        L.overlay.append(svgEl("g", { class: "block-label", transform: `translate(${cx.toFixed(2)},${cy.toFixed(2)})` },
          svgEl("rect", { x: -7, y: -3, width: 14, height: 6, rx: 1, stroke: colour }),
          svgEl("text", { "text-anchor": "middle", y: 1.3, fill: colour }, label)));
      }
      for (const route of player.open_routes.routes) {
        const [x, y] = hexCentre(route.at[0], route.at[1], flats);
        const [mx, my] = sideMidpoint(flats, ["N", "NE", "SE", "S", "SW", "NW"].indexOf(route.side), x, y);
        L.overlay.append(svgEl("circle", { class: "open-route", cx: mx.toFixed(2), cy: my.toFixed(2), r: 2.6 }));
      }
    });
    for (const k of violations) {
      const [q, r] = unkey(k);
      const [x, y] = hexCentre(q, r, flats);
      L.overlay.append(svgEl("polygon", { class: "violation", points: hexPoints(flats, x, y, 0.94), "data-k": k }));
    }
  }

  fit(cells) {
    const flats = this.flats;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const k of cells) {
      const [x, y] = hexCentre(...unkey(k), flats);
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
    const pad = flats * 0.62;
    this.svg.setAttribute("viewBox", `${(x0 - pad).toFixed(1)} ${(y0 - pad).toFixed(1)} ${(x1 - x0 + 2 * pad).toFixed(1)} ${(y1 - y0 + 2 * pad).toFixed(1)}`);
  }
}

// A single card face as a small standalone <svg> (hands, the autocomplete list).
export function cardSvg(pieces, id, rot = 0, size = 64) {
  const flats = pieces.flats;
  const w = (flats * 2) / Math.sqrt(3);
  const svg = svgEl("svg", { viewBox: `${-w / 2} ${-flats / 2} ${w} ${flats}`, width: size, height: (size * flats) / w, class: "card-face", "aria-hidden": "true" });
  const g = fragment(pieces.faces[id] || pieces.back);
  if (rot) g.setAttribute("transform", `rotate(${60 * rot})`);
  svg.append(g);
  return svg;
}

export function seatSwatch(pieces, seat) {
  const colour = pieces.seat_colours[seat % pieces.seat_colours.length];
  return svgEl("svg", { width: 14, height: 14, class: "swatch", "aria-hidden": "true" },
    svgEl("rect", { width: 14, height: 14, rx: 3, fill: mix(colour, 0.45), stroke: colour, "stroke-width": 2 }));
}

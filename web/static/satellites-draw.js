// Draws a Satellites board into an <svg>: the printed board and tokens (the server's fragments
// of the printables' components), connections, colonies in their controller's colour,
// violations ringed in orange, and the highlights of the play mode.
import { fragment, hatchPattern, svgEl } from "./common.js";

// Cells are [row, col], 0-based, as in the rules core (rules/satellites/table.py); their
// names (S-4: column letter, then row number, "c3") are made here and nowhere else.
export const COLUMNS = "abcdefghijklmnopqrstuvwxyz";
export const cellName = (row, col) => `${COLUMNS[col]}${row + 1}`;
export function parseName(name) {
  const col = COLUMNS.indexOf(name[0]);
  return [Number(name.slice(1)) - 1, col];
}

export class SatellitesBoard {
  constructor(svg, pieces) {
    this.svg = svg;
    this.pieces = pieces;
    svg.classList.add("sat-board");
    const defs = svgEl("defs");
    for (const [token, markup] of Object.entries(pieces.tokens)) {
      const g = fragment(markup);
      g.id = `tok-${token}`;
      defs.append(g);
    }
    defs.append(hatchPattern());
    this.layers = {};
    svg.replaceChildren(defs, fragment(pieces.board));
    for (const name of ["groups", "marks", "links", "tokens", "over", "hits", "cursor"]) {
      this.layers[name] = svgEl("g", { class: `layer-${name}` });
      svg.append(this.layers[name]);
    }
    this.resize(pieces.size);
  }

  resize(size) {
    this.size = size;
    const p = this.pieces;
    const w = p.label * 2 + size * p.cell;
    this.svg.setAttribute("viewBox", `0 0 ${w} ${w}`);
    const hits = this.layers.hits;
    hits.replaceChildren();
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const [x, y] = this.origin(row, col);
        hits.append(svgEl("rect", { class: "hit", x, y, width: p.cell, height: p.cell, "data-cell": cellName(row, col), "data-row": row, "data-col": col }));
      }
    }
  }

  origin(row, col) {
    const p = this.pieces;
    return [p.label + col * p.cell, p.label + row * p.cell];
  }

  centre(row, col) {
    const [x, y] = this.origin(row, col);
    return [x + this.pieces.cell / 2, y + this.pieces.cell / 2];
  }

  // ``b``: {tokens: rows of ".", "R1" ...; groups: [{cells: [[row, col]], label, controller,
  // colony, contested}]; links: [[[r, c], [r, c]]]; violations: [[row, col]]; marks:
  // {"row,col": class}; cursor: [row, col]}
  render(b) {
    const L = this.layers;
    const p = this.pieces;
    const cell = p.cell;
    for (const name of ["groups", "marks", "links", "tokens", "over", "cursor"]) L[name].replaceChildren();
    if (b.tokens.length !== this.size) this.resize(b.tokens.length);
    for (const group of b.groups || []) {
      if (!group.colony) continue;
      const colour = group.controller ? p.colours[group.controller] : "#8a8a8a";
      for (const [row, col] of group.cells) {
        const [x, y] = this.origin(row, col);
        L.groups.append(svgEl("rect", { class: "colony", x: x + 0.8, y: y + 0.8, width: cell - 1.6, height: cell - 1.6, fill: colour, stroke: colour, "stroke-dasharray": group.controller ? null : "2 1.5" }));
      }
      const [row, col] = group.cells[0];
      const [x, y] = this.origin(row, col);
      L.over.append(svgEl("text", { class: "group-label", x: x + 2, y: y + 5, fill: colour }, group.label + (group.crowned ? " ♛" : "") + (group.contested ? " =" : "")));
    }
    for (const [k, cls] of Object.entries(b.marks || {})) {
      const [row, col] = k.split(",").map(Number);
      const [x, y] = this.origin(row, col);
      L.marks.append(svgEl("rect", { class: cls, x: x + 1.5, y: y + 1.5, width: cell - 3, height: cell - 3, rx: 2, "data-mark": cls, "data-cell": cellName(row, col) }));
      if (cls.split(" ").includes("unread")) {
        L.over.append(svgEl("text", { class: "unread-q", x: x + cell / 2, y: y + cell * 0.66, "font-size": cell * 0.5 }, "?"));
      }
    }
    for (const [[r1, c1], [r2, c2]] of b.links || []) {
      const [x1, y1] = this.centre(r1, c1);
      const [x2, y2] = this.centre(r2, c2);
      L.links.append(svgEl("line", { class: "link", x1, y1, x2, y2 }));
    }
    b.tokens.forEach((rowTokens, row) => rowTokens.forEach((token, col) => {
      if (token === "." || !p.tokens[token]) return;
      const [x, y] = this.centre(row, col);
      L.tokens.append(svgEl("use", { href: `#tok-${token}`, transform: `translate(${x},${y})`, "data-token": token, "data-cell": cellName(row, col) }));
    }));
    for (const [row, col] of b.violations || []) {
      const [x, y] = this.centre(row, col);
      L.over.append(svgEl("circle", { class: "violation", cx: x, cy: y, r: cell * 0.47, "data-cell": cellName(row, col) }));
    }
    if (b.cursor) {
      const [x, y] = this.origin(...b.cursor);
      L.cursor.append(svgEl("rect", { class: "cursor", x: x + 0.7, y: y + 0.7, width: cell - 1.4, height: cell - 1.4 }));
    }
  }
}

// The position of the rules core (signed values per cell) as rows of tokens.
export function tokensOf(cells, size) {
  const rows = [];
  for (let row = 0; row < size; row++) {
    const line = [];
    for (let col = 0; col < size; col++) {
      const v = cells[row * size + col];
      line.push(v === 0 ? "." : v > 0 ? `R${v}` : `B${-v}`);
    }
    rows.push(line);
  }
  return rows;
}

// The scorer's groups (report JSON) with their cells as [row, col].
export function groupsOf(report, cells) {
  return report.groups.map((g, i) => ({ ...g, cells: cells[i] }));
}

// Satellites on a game page, as the game's own digital board: the ⚡ grace-move indicator at
// the top once a player has every satellite connected, the connected count towards the end
// always in view, the cells a chosen satellite can reach, and for a displacement the cells
// the pushed satellite may go to in orange. Also the read-only board of the replay viewer.
import { el, say, svgEl } from "./common.js";
import { SatellitesBoard, cellName, groupsOf, parseName, tokensOf } from "./satellites-draw.js";

export class SatellitesPlay {
  constructor({ svg, controls, help, indicator, pieces, send, readOnly = false }) {
    this.pieces = pieces;
    this.board = new SatellitesBoard(svg, pieces);
    this.controls = controls;
    this.indicator = indicator;
    this.send = send;
    this.readOnly = readOnly;
    this.selected = null; // the cell name of the satellite chosen
    this.target = null; // a displacement's target, waiting for the push
    this.cursor = [0, 0];
    this.msg = null;
    if (help) help.textContent = "Click one of your satellites outlined in green: the cells it can reach are green. Click one to move there; a displacement then shows in orange where the pushed satellite may go. Arrow keys and Enter work too; Esc lets go.";
    svg.setAttribute("aria-label", "Satellites board: arrow keys move, Enter chooses a satellite or a cell");
    if (!readOnly) {
      svg.addEventListener("click", (e) => {
        const hit = e.target.closest("[data-row]");
        if (hit) this.pick(Number(hit.dataset.row), Number(hit.dataset.col));
      });
      svg.addEventListener("keydown", (e) => this.onKey(e));
    }
  }

  swatch(seat) {
    const colour = this.pieces.colours[["red", "blue"][seat]];
    return svgEl("svg", { width: 14, height: 14, class: "swatch", "aria-hidden": "true" },
      svgEl("circle", { cx: 7, cy: 7, r: 6, fill: colour }));
  }

  playerNote(msg, seat) {
    const v = msg.view;
    const colour = ["red", "blue"][seat];
    return el("span", { class: "muted" }, ` ${colour} · ${v.connected[colour]} connected · ${v.score.colonies[colour]} colonies`);
  }

  get mine() {
    const m = this.msg;
    return m && m.role === "seat" && m.status === "active" && m.view.to_move === m.seat && m.legal;
  }

  update(msg) {
    this.msg = msg;
    if (!this.mine) { this.selected = null; this.target = null; }
    this.draw();
    this.renderIndicator();
    this.renderControls();
  }

  draw() {
    const v = this.msg.view;
    const marks = {};
    const legal = this.mine ? this.msg.legal : null;
    const at = (name) => parseName(name).join(",");
    if (legal) {
      for (const from of Object.keys(legal.moves)) marks[at(from)] = "movable";
      if (this.selected && legal.moves[this.selected]) {
        marks[at(this.selected)] = "selected";
        for (const to of Object.keys(legal.moves[this.selected])) marks[at(to)] = "reach";
        if (this.target) for (const push of legal.moves[this.selected][this.target] || []) marks[at(push)] = "push";
      }
    }
    const history = this.msg.history;
    if (history.length && !this.selected) {
      const lastMove = history[history.length - 1].text.match(/^([a-z]+\d+)-([a-z]+\d+)/);
      if (lastMove) marks[at(lastMove[2])] = marks[at(lastMove[2])] || "last";
    }
    this.board.render({
      tokens: tokensOf(v.cells, v.size),
      groups: groupsOf(v.score, v.groups),
      links: v.links,
      marks,
      cursor: this.readOnly ? null : this.cursor,
    });
  }

  renderIndicator() {
    const box = this.indicator;
    if (!box) return;
    const v = this.msg.view;
    const c = v.connected;
    const parts = [el("span", { class: "count", id: "connected-count" }, "Connected ", el("b", {}, String(c.all)), ` / ${c.end}`, el("span", { class: "muted" }, ` (red ${c.red}, blue ${c.blue} of ${c.per_colour} each)`))];
    const g = v.grace;
    if (g.finished) {
      const bolts = [];
      for (let k = 0; k < g.moves; k++) bolts.push(el("span", { class: k < g.left ? "bolt" : "bolt used" }, "⚡"));
      parts.unshift(el("span", { class: "grace", id: "grace", "data-left": g.left }, ...bolts,
        ` ${g.player} has ${g.left} grace move${g.left === 1 ? "" : "s"} left (${g.finished} has all ${c.per_colour} connected)`));
    }
    box.replaceChildren(...parts);
    box.classList.remove("hidden");
  }

  renderControls() {
    const box = this.controls;
    if (!box) return;
    const msg = this.msg;
    const v = msg.view;
    const turn = v.to_move >= 0 ? `${msg.players[v.to_move].name} (${["red", "blue"][v.to_move]}) to move` : v.message;
    const parts = [el("p", { class: "muted", id: "game-message" }, `${turn}.`)];
    if (this.mine) {
      const legal = msg.legal;
      const n = Object.values(legal.moves).reduce((a, t) => a + Object.keys(t).length, 0);
      parts.push(el("p", {}, this.selected ? (this.target ? `${this.selected}-${this.target}: choose where the pushed satellite goes (orange)` : `${this.selected}: choose where it goes (green)`)
        : `${Object.keys(legal.moves).length} satellites can move, ${n} moves in all.`));
      const row = el("div", { class: "row" });
      if (legal.pass) row.append(el("button", { id: "pass", onclick: () => this.send("move", "pass") }, "Pass (no legal move)"));
      if (this.selected) row.append(el("button", { onclick: () => { this.selected = null; this.target = null; this.draw(); this.renderControls(); } }, "Choose another"));
      parts.push(row);
    }
    if (msg.can_undo) parts.push(el("div", { class: "row" }, el("button", { id: "undo", onclick: () => this.send("undo") }, "Take back my move")));
    box.replaceChildren(...parts);
  }

  async pick(row, col) {
    this.cursor = [row, col];
    if (!this.mine) { this.draw(); return; }
    const name = cellName(row, col);
    const moves = this.msg.legal.moves;
    if (this.target && this.selected) {
      const pushes = moves[this.selected][this.target] || [];
      if (pushes.includes(name) || name !== this.target) {
        const text = `${this.selected}-${this.target}>${name}`;
        this.target = null;
        const selected = this.selected;
        this.selected = null;
        if (!(await this.send("move", text))) { this.selected = selected; }
        this.draw(); this.renderControls();
        return;
      }
    }
    if (moves[name] && name !== this.selected) {
      this.selected = name;
      this.target = null;
      say(`${name}: ${Object.keys(moves[name]).length} cells it can reach`, "info");
    } else if (this.selected) {
      const reach = moves[this.selected] || {};
      if (reach[name] && reach[name].length) {
        this.target = name;
        say(`${this.selected}-${name} displaces a satellite: choose where it goes (orange)`, "info");
      } else {
        const text = `${this.selected}-${name}`;
        const ok = await this.send("move", text); // an illegal try gets the engine's reason
        if (ok) this.selected = null;
      }
    } else {
      // not a satellite of ours that can move: ask the engine why (it explains)
      const v = this.msg.view;
      const mine = v.cells[row * v.size + col] * (this.msg.seat === 0 ? 1 : -1) > 0;
      say(mine ? `${name} cannot move: it is connected, or every cell it could reach is taken` : `${name}: choose one of your satellites outlined in green`, "info");
    }
    this.draw();
    this.renderControls();
  }

  onKey(e) {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const n = this.msg.view.size;
    if (moves[e.key]) {
      e.preventDefault();
      this.cursor = [Math.min(n - 1, Math.max(0, this.cursor[0] + moves[e.key][0])), Math.min(n - 1, Math.max(0, this.cursor[1] + moves[e.key][1]))];
      this.draw();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.pick(...this.cursor);
    } else if (e.key === "Escape") {
      this.selected = null;
      this.target = null;
      this.draw();
      this.renderControls();
    }
  }
}

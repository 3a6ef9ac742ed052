// Orbitus on a game page: the table (as the printables draw it), this seat's hand, the cells
// where the chosen card fits (from the rules core's legal actions), placing, removing,
// discarding, passing. Also the read-only table of the replay viewer.
import { el, key, SIDES, say, arrowStep, plural } from "./common.js";
import { OrbitusTable, cardSvg, seatSwatch } from "./orbitus-draw.js";

export class OrbitusPlay {
  constructor({ svg, controls, help, pieces, send, stationSvg, readOnly = false }) {
    this.pieces = pieces;
    this.table = new OrbitusTable(svg, pieces);
    this.svg = svg;
    this.controls = controls;
    this.send = send;
    this.stationSvg = stationSvg;
    this.readOnly = readOnly;
    this.card = null; // the hand card chosen
    this.rot = 0;
    this.cursor = [0, -1];
    this.mode = "place";
    this.confirming = null; // a removal or discard waiting for "yes": {kind, cell, card, text}
    this.msg = null;
    if (help) help.textContent = "Choose a card of your hand: the cells where it fits are outlined in green. Click a cell (or move with the arrow keys), turn the card with R / Shift-R or the wheel, click again or press Enter to place it. 1-9 choose a card, Esc lets it go.";
    svg.setAttribute("aria-label", "Orbitus table: arrow keys move, R turns the card, Enter places it");
    if (!readOnly) {
      svg.addEventListener("click", (e) => this.onClick(e));
      svg.addEventListener("keydown", (e) => this.onKey(e));
      svg.addEventListener("wheel", (e) => {
        if (!this.card || e.ctrlKey) return; // Ctrl + wheel zooms
        e.preventDefault();
        this.turn(e.deltaY > 0 ? 1 : -1);
      }, { passive: false });
    }
  }

  swatch(seat) { return seatSwatch(this.pieces, seat); }

  playerNote(msg, seat) {
    const v = msg.view;
    const total = v.score.players[seat] ? v.score.players[seat].total : 0;
    return el("span", { class: "muted", "data-hand-size": v.hand_sizes[seat] },
      ` ${total} pts · ${plural(v.hand_sizes[seat], "card")} in hand (limit ${v.limits[seat]})${v.passed[seat] ? " · passed" : ""}`);
  }

  get mine() {
    const m = this.msg;
    return m && m.role === "seat" && m.status === "active" && m.view.to_move === m.seat && m.legal;
  }

  legalRots(card, k) {
    const legal = this.msg && this.msg.legal;
    if (!legal || !legal.place[card]) return [];
    return legal.place[card][k] || [];
  }

  update(msg) {
    const moved = !this.msg || this.msg.version !== msg.version;
    this.msg = msg;
    const hand = msg.private ? msg.private.hand : [];
    if (this.card && !hand.includes(this.card)) this.card = null;
    if (moved || !this.mine) this.confirming = null;
    this.draw();
    this.renderControls();
  }

  draw() {
    const msg = this.msg;
    if (!msg) return;
    const v = msg.view;
    const marks = {};
    const legal = this.mine ? msg.legal : null;
    if (legal && this.mode === "place" && this.card && legal.place[this.card]) {
      for (const k of Object.keys(legal.place[this.card])) marks[k] = "legal";
    }
    if (legal && this.mode === "remove") for (const [q, r] of legal.remove) marks[key(q, r)] = "removable";
    let ghost = null;
    const k = key(...this.cursor);
    const occupied = v.board.some(([q, r]) => q === this.cursor[0] && r === this.cursor[1]);
    if (this.card && this.mode === "place" && !occupied && !this.readOnly) {
      ghost = { q: this.cursor[0], r: this.cursor[1], card: this.card, rot: this.rot, ok: this.legalRots(this.card, k).includes(this.rot) };
    }
    this.table.render({
      sectors: v.board.map(([q, r, card, rot]) => ({ q, r, card, rot })),
      owner: v.owner,
      stationSvg: this.stationSvg,
      report: v.score,
      cursor: this.readOnly ? null : this.cursor,
      marks,
      ghost,
    });
  }

  renderControls() {
    const msg = this.msg;
    const box = this.controls;
    if (!box) return;
    const v = msg.view;
    const parts = [];
    parts.push(el("p", { class: "muted", id: "game-message" }, `${v.message}.${v.out.length ? ` Out of the game: ${v.out.join(" ")}.` : ""}`));
    if (msg.role === "seat") {
      const hand = msg.private.hand;
      parts.push(el("h3", {}, `Your hand (${hand.length}, limit ${v.limits[msg.seat]})`));
      parts.push(el("div", { class: "hand", id: "hand", role: "group", "aria-label": "your hand" }, hand.map((card, i) => {
        const fits = this.mine && msg.legal.place[card] ? Object.keys(msg.legal.place[card]).length : 0;
        return el("button", { "aria-pressed": this.card === card ? "true" : "false", "data-card": card,
          title: `${card}: ${fits ? `fits on ${plural(fits, "cell")}` : "fits nowhere now"} (key ${i + 1})`,
          onclick: () => this.choose(card) }, cardSvg(this.pieces, card, this.card === card ? this.rot : 0, 62), `${card}${this.mine ? ` · ${fits}` : ""}`);
      })));
      if (this.mine) {
        const legal = msg.legal;
        const row = el("div", { class: "row" });
        row.append(el("button", { onclick: () => this.turn(-1), disabled: !this.card }, "⟲"), el("button", { onclick: () => this.turn(1), disabled: !this.card }, "⟳"));
        row.append(el("button", { class: "primary", id: "place-here", disabled: !this.card, onclick: () => this.place() }, this.card ? `Place ${this.card} r${this.rot} on [${this.cursor.join(", ")}]` : "Place"));
        parts.push(row);
        const more = el("div", { class: "row" });
        more.append(el("button", { "aria-pressed": this.mode === "remove" ? "true" : "false", id: "remove-mode", disabled: !legal.remove.length,
          onclick: () => { this.mode = this.mode === "remove" ? "place" : "remove"; this.update(this.msg); } }, `Remove a sector (${legal.remove.length})`));
        if (this.card && legal.discard.includes(this.card)) more.append(el("button", { id: "discard", onclick: () => this.ask({ kind: "discard", card: this.card }) }, `Discard ${this.card}`));
        more.append(el("button", { id: "pass", disabled: !legal.pass, onclick: () => this.send("move", "pass") }, "Pass"));
        parts.push(more);
        if (this.confirming) {
          const c = this.confirming;
          const question = c.kind === "remove" ? `Remove ${c.card} from [${c.cell.join(", ")}]? It leaves the game for good.`
            : `Discard ${c.card}? It leaves the game, and you draw a card in its place.`;
          parts.push(el("div", { class: "confirm", id: "confirm", role: "alertdialog", "aria-label": question },
            el("span", {}, question), " ",
            el("button", { class: "danger", id: "confirm-yes", onclick: () => this.confirm() }, c.kind === "remove" ? "Remove it" : "Discard it"), " ",
            el("button", { id: "confirm-no", onclick: () => { this.confirming = null; this.renderControls(); this.draw(); } }, "Keep it")));
        }
      }
      if (msg.can_undo) parts.push(el("div", { class: "row" }, el("button", { id: "undo", onclick: () => this.send("undo") }, "Take back my move")));
    }
    box.replaceChildren(...parts);
  }

  choose(card) {
    this.card = this.card === card ? null : card;
    this.mode = "place";
    if (this.card) {
      const k = key(...this.cursor);
      const rots = this.legalRots(card, k);
      if (rots.length) this.rot = rots[0];
      else {
        // move to the first cell where it fits
        const cells = this.msg.legal && this.msg.legal.place[card] ? Object.keys(this.msg.legal.place[card]) : [];
        if (cells.length) { this.cursor = cells[0].split(",").map(Number); this.rot = this.legalRots(card, cells[0])[0]; }
      }
      say(`${card}: ${this.msg.legal && this.msg.legal.place[card] ? `fits on ${plural(Object.keys(this.msg.legal.place[card]).length, "cell")}` : "fits nowhere now"}`, "info");
    }
    this.draw();
    this.renderControls();
  }

  turn(delta) {
    if (!this.card) return;
    this.rot = (((this.rot + delta) % 6) + 6) % 6;
    this.draw();
    this.renderControls();
  }

  // a removal or a discard is asked first ("Remove it" / "Keep it"): a tap alone never
  // takes a card out of the game
  ask(what) {
    if (what.kind === "remove") {
      const placed = this.msg.view.board.find(([q, r]) => q === what.cell[0] && r === what.cell[1]);
      what.card = placed ? placed[2] : "the sector";
    }
    this.confirming = what;
    this.draw();
    this.renderControls();
    const yes = document.getElementById("confirm-yes");
    if (yes) yes.focus();
  }

  async confirm() {
    const c = this.confirming;
    if (!c) return;
    this.confirming = null;
    const ok = await this.send("move", c.kind === "remove" ? `remove ${c.cell[0]},${c.cell[1]}` : `discard ${c.card}`);
    if (ok) { this.mode = "place"; if (c.kind === "discard") this.card = null; }
    this.renderControls();
  }

  async place() {
    if (!this.card) return;
    const [q, r] = this.cursor;
    const ok = await this.send("move", `place ${this.card} @${q},${r} r${this.rot}`);
    if (ok) this.card = null;
  }

  onClick(e) {
    const node = e.target.closest("[data-k]");
    if (!node) return;
    const [q, r] = node.dataset.k.split(",").map(Number);
    if (q === 0 && r === 0) return;
    const occupied = this.msg.view.board.some(([a, b]) => a === q && b === r);
    if (occupied) {
      this.cursor = [q, r];
      if (this.mine && (this.mode === "remove" || !this.card) && this.msg.legal.remove.some(([a, b]) => a === q && b === r)) {
        this.ask({ kind: "remove", cell: [q, r] });
        return;
      }
      this.draw();
      return;
    }
    const again = this.cursor[0] === q && this.cursor[1] === r;
    this.cursor = [q, r];
    if (this.card && again) { this.place(); return; }
    if (this.card) {
      const rots = this.legalRots(this.card, key(q, r));
      if (rots.length && !rots.includes(this.rot)) this.rot = rots[0];
    }
    this.draw();
    this.renderControls();
  }

  onKey(e) {
    if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      this.cursor = arrowStep(this.cursor[0], this.cursor[1], e.key);
      this.draw();
      this.renderControls();
    } else if (e.key === "r" || e.key === "R") {
      e.preventDefault();
      this.turn(e.shiftKey ? -1 : 1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (this.confirming) this.confirm();
      else if (this.mode === "remove") this.ask({ kind: "remove", cell: [...this.cursor] });
      else this.place();
    } else if (e.key === "Escape") {
      this.card = null;
      this.confirming = null;
      this.mode = "place";
      this.draw();
      this.renderControls();
    } else if (/^[1-9]$/.test(e.key) && this.msg.private) {
      const card = this.msg.private.hand[Number(e.key) - 1];
      if (card) { e.preventDefault(); this.choose(card); }
    }
  }
}

export { SIDES };

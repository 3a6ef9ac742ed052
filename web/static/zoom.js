// Zoom and pan for a game's board (an <svg> drawn by orbitus-draw.js or satellites-draw.js):
// pinch with two fingers, drag with one once zoomed in, Ctrl + wheel (a trackpad's pinch) on
// a desktop, and the + / − / fit buttons. The drawing's own viewBox stays the whole table; a
// transform on one group around everything but the <defs> shows a part of it larger. A tap
// is still a tap (a cell chosen); a drag that pans is not taken for one.
import { el, svgEl } from "./common.js";

const MAX = 8;

export class Zoom {
  constructor(svg, wrap) {
    this.svg = svg;
    this.root = svgEl("g", { class: "zoom-root" });
    for (const node of [...svg.childNodes]) if (node.nodeName !== "defs") this.root.append(node);
    svg.append(this.root);
    this.k = 1;
    this.x = 0;
    this.y = 0;
    this.pointers = new Map();
    this.moved = false;
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) svg.addEventListener(type, (e) => this.up(e));
    svg.addEventListener("click", (e) => { if (this.moved) { e.stopPropagation(); e.preventDefault(); this.moved = false; } }, true);
    svg.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      const [px, py] = this.point(e.clientX, e.clientY);
      this.zoomAt(px, py, Math.exp(-e.deltaY / 200));
    }, { passive: false });
    if (wrap) {
      const button = (label, title, act) => el("button", { type: "button", title, "aria-label": title, onclick: act }, label);
      // in a row above the drawing, so they never cover a cell, a label or a corner marker
      wrap.prepend(el("div", { class: "zoom-buttons" },
        button("+", "zoom in", () => this.step(1.5)),
        button("−", "zoom out", () => this.step(1 / 1.5)),
        button("⤢", "the whole table", () => this.reset())));
    }
    this.apply();
  }

  box() {
    const vb = this.svg.viewBox.baseVal;
    return vb && vb.width ? vb : { x: 0, y: 0, width: 100, height: 100 };
  }

  point(clientX, clientY) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  step(factor) {
    const b = this.box();
    this.zoomAt(b.x + b.width / 2, b.y + b.height / 2, factor);
  }

  zoomAt(px, py, factor) {
    const k = Math.min(MAX, Math.max(1, this.k * factor));
    const f = k / this.k;
    this.x = px - (px - this.x) * f;
    this.y = py - (py - this.y) * f;
    this.k = k;
    this.apply();
  }

  reset() { this.k = 1; this.x = 0; this.y = 0; this.apply(); }

  // keep the table covering the whole view (no panning off into nothing)
  clamp() {
    const b = this.box();
    const k = this.k;
    this.x = Math.min(b.x * (1 - k), Math.max((b.x + b.width) * (1 - k), this.x));
    this.y = Math.min(b.y * (1 - k), Math.max((b.y + b.height) * (1 - k), this.y));
  }

  apply() {
    this.clamp();
    if (this.k === 1) this.root.removeAttribute("transform");
    else this.root.setAttribute("transform", `translate(${this.x.toFixed(2)} ${this.y.toFixed(2)}) scale(${this.k.toFixed(3)})`);
    this.svg.dataset.zoom = this.k.toFixed(2);
  }

  down(e) {
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
    if (this.pointers.size === 2) this.moved = true; // a pinch is never a tap
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    const before = [...this.pointers.values()].map((q) => ({ x: q.x, y: q.y }));
    p.x = e.clientX;
    p.y = e.clientY;
    if (this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const [a0, b0] = before;
      const d0 = Math.hypot(a0.x - b0.x, a0.y - b0.y) || 1;
      const d1 = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const [m0x, m0y] = this.point((a0.x + b0.x) / 2, (a0.y + b0.y) / 2);
      const [m1x, m1y] = this.point((a.x + b.x) / 2, (a.y + b.y) / 2);
      this.x += m1x - m0x;
      this.y += m1y - m0y;
      this.zoomAt(m1x, m1y, d1 / d0);
      e.preventDefault();
      return;
    }
    if (this.k > 1 && (this.moved || Math.hypot(p.x - p.x0, p.y - p.y0) > 6)) {
      const [x0, y0] = this.point(before[0].x, before[0].y);
      const [x1, y1] = this.point(p.x, p.y);
      this.x += x1 - x0;
      this.y += y1 - y0;
      this.moved = true;
      this.apply();
      e.preventDefault();
    }
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    if (!this.pointers.size && this.moved) setTimeout(() => { this.moved = false; }, 0);
  }
}

// "Read a photo…" on the transcription pages: the photo is sent to the server, which reads it
// with pnp-score --photo's reader; the table read loads as an import does, and this panel lists
// the cells seen but not read (hatched red with a "?" on the table, as in the CLI's debug image)
// and the photo's other findings, with the debug image to compare. The page's own edits do the
// rest: putting a card or satellite on an unread cell, or clearing it, removes its mark.
import { api, el, plural, say, sayError } from "./common.js";

// Send ``files`` (one photo, or several of one table: another angle, the lamp moved) to
// /api/GAME/photo; the answer (the page's table as an import gives it, and ``photo``: the
// photos' readings merged cell by cell) or an ApiError with the server's sentence. ``busy``
// shows "Reading the photo…".
export async function readPhoto(game, files, query, maxBytes, busy) {
  const size = files.reduce((n, f) => n + f.size, 0);
  if (maxBytes && size > maxBytes) {
    throw { problems: [`${files.map((f) => f.name).join(" + ")}: the upload is ${Math.round(size / 1e6)} MB; the largest this page takes is ${Math.round(maxBytes / 1e6)} MB (save the photo as a JPEG of 12-24 megapixels)`] };
  }
  busy(true);
  say(files.length > 1 ? `Reading ${files.length} photos…` : "Reading the photo…", "info");
  try {
    const params = new URLSearchParams(query);
    for (const f of files) params.append("name", f.name);
    if (files.length > 1) params.set("sizes", files.map((f) => f.size).join(","));
    const body = files.length > 1 ? new Blob(files) : files[0];
    return await api(`/api/${game}/photo?${params}`, { method: "POST", body, headers: { "Content-Type": files.length > 1 ? "application/octet-stream" : (files[0].type || "application/octet-stream") } });
  } finally {
    busy(false);
  }
}

// The panel of a photo's reading. ``photo``: the server's ``photo`` with ``unread`` as a Set of
// keys; ``o``: {what: "card"|"satellite", keyOf(finding), label(key), go(key, unread),
// clear(key), dismiss()}.
export function renderPhotoPanel(box, photo, o) {
  if (!photo) { box.replaceChildren(); return; }
  const left = photo.findings.filter((f) => f.rule !== "photo-unread" || photo.unread.has(o.keyOf(f)));
  const filled = photo.findings.filter((f) => f.rule === "photo-unread").length - photo.unread.size;
  const parts = [el("p", { id: "photo-summary" },
    `${photo.file}: ${plural(photo.read, `${o.what} read`, `${o.what}s read`)}`,
    photo.unread.size ? `, ${plural(photo.unread.size, "cell")} seen but not read — click one and put its ${o.what} there (or clear it if nothing is there)` : "",
    filled > 0 ? `; ${filled} filled in` : "",
    ".")];
  for (const note of photo.notes || []) parts.push(el("p", { class: "muted" }, note));
  if (left.length) {
    parts.push(el("ul", { class: "violations", id: "photo-findings" }, left.map((f) => {
      const k = o.keyOf(f);
      const unread = f.rule === "photo-unread";
      return el("li", { tabindex: 0, "data-rule": f.rule, "data-cell": k || "",
        onclick: () => { if (k) o.go(k, unread); },
        onkeydown: (e) => { if (e.key === "Enter" && k) o.go(k, unread); } },
      `${k ? o.label(k) : "photo"}: ${f.rule}: ${f.message} `,
      unread ? el("button", { class: "small", "data-clear": k, title: "Nothing stands there: remove the mark",
        onclick: (e) => { e.stopPropagation(); o.clear(k); } }, "nothing there") : null);
    })));
  } else {
    parts.push(el("p", { class: "ok" }, "Every cell seen in the photo is filled in; check the table against the photo."));
  }
  parts.push(el("div", { class: "row" }, el("button", { id: "photo-dismiss", onclick: o.dismiss }, "Done with the photo")));
  box.replaceChildren(...parts);
}

// The debug image (collapsible) of each photo read, or nothing.
export function showPhotoImage(details, photo) {
  const img = details.querySelector("img");
  details.querySelectorAll("img.more").forEach((extra) => extra.remove());
  if (!photo || !photo.image) { details.classList.add("hidden"); img.removeAttribute("src"); return; }
  details.classList.remove("hidden");
  details.querySelector("summary").textContent = `The photo${(photo.images || []).length > 1 ? "s" : ""} as read: ${photo.file} (green: read; red ?: seen, not read; yellow: glare; orange: a problem)`;
  if (img.getAttribute("src") !== photo.image) img.setAttribute("src", photo.image);
  const files = photo.files || [photo.file];
  img.setAttribute("alt", `${files[0]} with what was read drawn over it`);
  (photo.images || []).slice(1).forEach((src, i) => {
    details.append(el("img", { class: "more", src, alt: `${files[i + 1]} with what was read drawn over it` }));
  });
}

// Wire a page's "Read a photo…" input. ``load(out)`` takes the server's answer.
export function wirePhotoInput(input, state, game, query, maxBytes, load) {
  input.addEventListener("change", async () => {
    const files = [...input.files];
    if (!files.length) return;
    const busy = (on) => {
      input.disabled = on;
      state.textContent = on ? "Reading the photo…" : "";
      state.classList.toggle("busy", on);
    };
    try {
      const out = await readPhoto(game, files, query(), maxBytes, busy);
      load(out);
    } catch (err) {
      sayError(err);
    } finally {
      input.value = "";
    }
  });
}

// After the score's line in the status: how many cells the photo left to fill in.
export function notePhoto(photo) {
  const box = document.getElementById("status");
  if (!photo || !photo.unread.size || !box) return;
  box.append(` · ${plural(photo.unread.size, "cell")} from the photo still to fill in (hatched red)`);
  if (box.classList.contains("ok")) box.className = "status info";
}

// The score panel's first line while the photo left cells unread: the table is not
// complete, whatever the rules say of the cards read so far.
export function photoPending(photo) {
  if (!photo || !photo.unread.size) return null;
  return `NOT COMPLETE: ${plural(photo.unread.size, "cell")} from the photo not read (hatched red); fill them in, the scores count only what was read`;
}

"""``pnp diff``'s three forms: the text a designer reads, ``--json`` for programs, and
``--html`` a page with pictures (each changed component old and new side by side, the
changed regions outlined in red)."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import Any

from cards.sources import Source
from design.diff import GameDiff


def _copies(diff: GameDiff) -> list[str]:
    """Components whose drawing is the same but whose number of copies changed."""
    changed = set(diff.components.changed) if diff.components else set()
    return [f"{name}: {'; '.join(notes)}" for name, notes in diff.component_notes.items()
            if name not in changed and name in (diff.components.new if diff.components
                                                else {})]


def to_json(diffs: Sequence[GameDiff], old: Source, new: Source) -> dict[str, Any]:
    games = []
    for d in diffs:
        c = d.components
        games.append({
            "game": d.game, "changed": d.changed,
            "old": d.old_design.to_json(), "new": d.new_design.to_json(),
            "components": None if c is None else {
                "added": c.added, "removed": c.removed,
                "changed": [{"name": n, "changes": d.component_notes.get(n, [])}
                            for n in c.changed],
                "copies": _copies(d)},
            "rules": [ch.to_json() for ch in d.rules],
            "definitions": [{"file": f"{d.game}/{role}.yaml", **ch.to_json()}
                            for role, ch in d.definitions],
            "texts": d.texts,
            "labels": [{"file": f"{d.game}/text/labels-{lang}.yaml", **ch.to_json()}
                       for lang, ch in d.labels],
            "plays": {"setups": d.setups, "records": d.records, "replayed": d.replayed},
        })
    return {"old": {"spec": old.spec, "label": old.label, "kind": old.kind},
            "new": {"spec": new.spec, "label": new.label, "kind": new.kind},
            "changed": any(d.changed for d in diffs), "games": games}


def plays_alike(d: GameDiff) -> list[str]:
    """What was checked and plays alike: the deals, and the records replayed (or that none
    were given, so that no one reads "alike" into records never replayed)."""
    from design.diff import SETUP_SEEDS

    out = []
    if not d.setups:
        out.append(f"deals alike: seeds {SETUP_SEEDS[0]}–{SETUP_SEEDS[-1]} of every player "
                   f"count")
    if d.replayed == 0:
        out.append("records: none replayed (name game records with --records FILE..., or "
                   "records in pnp.toml)")
    elif len(d.records) < d.replayed:
        out.append(f"records: {d.replayed - len(d.records)} of {d.replayed} replay alike")
    return out


def text(diffs: Sequence[GameDiff], old: Source, new: Source) -> str:
    lines: list[str] = []
    for d in diffs:
        title = f"{d.game.capitalize()}: {d.old_design.stamp} ({old.label}) → " \
                f"{d.new_design.stamp} ({new.label})"
        lines.append(title)
        if not d.changed:
            lines.append("  no change")
            lines.append("")
            continue
        c = d.components
        if c is not None:
            lines.append(f"  components: {len(c.changed)} changed, {len(c.added)} added, "
                         f"{len(c.removed)} removed")
            for name in c.changed:
                notes = list(d.component_notes.get(name, []))
                if name in c.marker_only:
                    notes.append("its photo marker only: markers are numbered in deck order")
                lines.append(f"    changed  {name}" + (f"  ({'; '.join(notes)})" if notes
                                                          else ""))
            lines += [f"    added    {name}" for name in c.added]
            lines += [f"    removed  {name}" for name in c.removed]
            lines += [f"    copies   {line}" for line in _copies(d)]
        if d.rules:
            lines.append("  rule numbers:")
            lines += [f"    {ch.text}" for ch in d.rules]
        others = [(role, ch) for role, ch in d.definitions
                  if not ch.path.startswith(("sectors[", "satellites["))]
        if others:
            lines.append("  definitions:")
            lines += [f"    {role}.yaml {ch.text}" for role, ch in others]
        if d.texts:
            lines.append("  texts (word diff: [-old-]{+new+}):")
            for t in d.texts:
                if t["state"] != "changed":
                    lines.append(f"    {t['file']}: {t['state']}")
                    continue
                lines.append(f"    {t['file']} ({t['lang']}): {len(t['changes'])} change(s)")
                for w in t["changes"][:12]:
                    lines.append(f"      …{w['before']} "
                                 + (f"[-{w['old']}-]" if w["old"] else "")
                                 + (f"{{+{w['new']}+}}" if w["new"] else "")
                                 + f" {w['after']}…")
                if len(t["changes"]) > 12:
                    lines.append(f"      and {len(t['changes']) - 12} more")
        if d.labels:
            lines.append("  printed labels:")
            lines += [f"    labels-{lang}.yaml {ch.text}" for lang, ch in d.labels]
        if d.setups or d.records:
            lines.append("  plays differently:")
            lines += [f"    deal: {s['text']}" for s in d.setups]
            lines += [f"    {r['file']}: {r['text']}" for r in d.records]
        if d.changed:
            lines += [f"  {line}" for line in plays_alike(d)]
        lines.append("")
    return "\n".join(lines)


# --- the page ---------------------------------------------------------------------------------


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


STYLE = """
body { font-family: "DejaVu Sans", sans-serif; margin: 2em; color: #1d1d1f; max-width: 72em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1em; }
.pair { display: flex; gap: 2em; align-items: flex-start; margin: 0.5em 0 1.5em; }
figure { margin: 0; } figcaption { font-size: 0.85em; color: #555; text-align: center; }
img { border: 1px solid #ccc; background: white; }
table { border-collapse: collapse; } td, th { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd;
text-align: left; vertical-align: top; }
del { background: #fbd6d6; text-decoration: line-through; } ins { background: #d6f5d6;
text-decoration: none; } .note { color: #555; font-size: 0.9em; } code { font-size: 0.95em; }
"""


def page(diffs: Sequence[GameDiff], old: Source, new: Source) -> str:
    """The HTML page: self-contained (pictures inline), every text escaped."""
    from generator.compare import changed_regions, outlined, picture, png_bytes

    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>pnp diff: {_e(old.label)} → {_e(new.label)}</title>",
             f"<style>{STYLE}</style></head><body>",
             f"<h1>{_e(old.label)} → {_e(new.label)}</h1>",
             '<p class="note">Components are drawn without their version stamps; the changed '
             'regions of each changed component are outlined in red.</p>']
    for d in diffs:
        parts.append(f"<h2>{_e(d.game.capitalize())}: <code>{_e(d.old_design.stamp)}</code> → "
                     f"<code>{_e(d.new_design.stamp)}</code></h2>")
        if not d.changed:
            parts.append("<p>No change.</p>")
            continue
        c = d.components
        if c is not None and (c.changed or c.added or c.removed):
            parts.append(f"<h3>Components: {len(c.changed)} changed, {len(c.added)} added, "
                         f"{len(c.removed)} removed</h3>")
            for name in c.changed:
                before, after = picture(c.old[name]), picture(c.new[name])
                boxes = changed_regions(before, after)
                notes = d.component_notes.get(name, [])
                parts.append(f"<h3>{_e(name)}</h3>")
                if notes:
                    parts.append(f'<p class="note">{_e("; ".join(notes))}</p>')
                parts.append('<div class="pair">'
                             f'<figure><img alt="{_e(name)} before" src="'
                             f'{_data_uri(png_bytes(outlined(before, boxes)))}">'
                             f"<figcaption>before ({_e(d.old_design.stamp)})</figcaption>"
                             "</figure>"
                             f'<figure><img alt="{_e(name)} after" src="'
                             f'{_data_uri(png_bytes(outlined(after, boxes)))}">'
                             f"<figcaption>after ({_e(d.new_design.stamp)})</figcaption>"
                             "</figure></div>")
            for label, names, drawings in (("added", c.added, c.new),
                                           ("removed", c.removed, c.old)):
                for name in names:
                    image = picture(drawings[name])
                    parts.append(f"<h3>{_e(name)} ({label})</h3><div class=\"pair\"><figure>"
                                 f'<img alt="{_e(name)}" src="{_data_uri(png_bytes(image))}">'
                                 "</figure></div>")
        copies = _copies(d)
        if copies:
            parts.append("<h3>Copies</h3><ul>" + "".join(f"<li>{_e(x)}</li>" for x in copies)
                         + "</ul>")
        if d.rules:
            parts.append("<h3>Rule numbers</h3><table><tr><th>number</th><th>before</th>"
                         "<th>after</th></tr>")
            parts += [f"<tr><td><code>{_e(ch.path)}</code></td><td>{_e(_v(ch.old))}</td>"
                      f"<td>{_e(_v(ch.new))}</td></tr>" for ch in d.rules]
            parts.append("</table>")
        others = [(role, ch) for role, ch in d.definitions
                  if not ch.path.startswith(("sectors[", "satellites["))]
        if others:
            parts.append("<h3>Definitions</h3><ul>" + "".join(
                f"<li><code>{_e(role)}.yaml</code> {_e(ch.text)}</li>" for role, ch in others)
                + "</ul>")
        for t in d.texts:
            parts.append(f"<h3>{_e(t['file'])} ({_e(t['lang'])})</h3>")
            if t["state"] != "changed":
                parts.append(f"<p>{_e(t['state'])}</p>")
                continue
            parts.append("<ul>" + "".join(
                f"<li>…{_e(w['before'])} "
                + (f"<del>{_e(w['old'])}</del> " if w["old"] else "")
                + (f"<ins>{_e(w['new'])}</ins> " if w["new"] else "")
                + f"{_e(w['after'])}…</li>" for w in t["changes"]) + "</ul>")
        if d.labels:
            parts.append("<h3>Printed labels</h3><ul>" + "".join(
                f"<li><code>labels-{_e(lang)}.yaml</code> {_e(ch.text)}</li>"
                for lang, ch in d.labels) + "</ul>")
        if d.setups or d.records:
            parts.append("<h3>Plays differently</h3><ul>"
                         + "".join(f"<li>deal: {_e(s['text'])}</li>" for s in d.setups)
                         + "".join(f"<li><code>{_e(r['file'])}</code>: {_e(r['text'])}</li>"
                                   for r in d.records) + "</ul>")
        if d.changed:
            parts.append("<p>" + "; ".join(_e(line) for line in plays_alike(d)) + "</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _v(value: Any) -> str:
    from design.diff import _shown

    return _shown(value)

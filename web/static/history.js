// Undo and redo of a transcription page: snapshots of what the page holds (the table or
// board and the photo's cells still unread), taken before each edit. One history for both
// transcription pages; each page says how to take a snapshot and how to bring one back.
export class History {
  constructor(take, bring, limit = 300) {
    this.take = take;     // () => string: the page's state now
    this.bring = bring;   // (string) => void: put that state back
    this.limit = limit;
    this.undos = [];
    this.redos = [];
  }

  // call before changing the page's state
  record() {
    this.undos.push(this.take());
    if (this.undos.length > this.limit) this.undos.shift();
    this.redos = [];
  }

  undo() { return this.#step(this.undos, this.redos); }
  redo() { return this.#step(this.redos, this.undos); }

  #step(from, to) {
    if (!from.length) return false;
    to.push(this.take());
    this.bring(from.pop());
    return true;
  }

  // Ctrl-Z undoes, Ctrl-Y or Ctrl-Shift-Z redoes (Cmd on a Mac); then ``after()`` if a
  // step was taken. Other keys are left to the browser.
  key(e, after) {
    const k = e.key.toLowerCase();
    let done;
    if (k === "z" && !e.shiftKey) done = this.undo();
    else if (k === "y" || (k === "z" && e.shiftKey)) done = this.redo();
    else return;
    e.preventDefault();
    if (done) after();
  }
}

// The edits of a transcription page, undoable: ``state()`` gives the page's {model, photo},
// ``setModel(m)`` puts a model back, ``refresh()`` redraws and scores, ``say`` shows a line.
// A snapshot is the model and the photo's cells still marked unread.
export function editing({ state, setModel, refresh, say }) {
  const history = new History(
    () => {
      const { model, photo } = state();
      return JSON.stringify({ model, unread: photo ? [...photo.unread] : null });
    },
    (text) => {
      const back = JSON.parse(text);
      setModel(back.model);
      const { photo } = state();
      if (photo) photo.unread = new Set(back.unread || []);
    });
  return {
    edit(change, message) {
      history.record();
      change();
      if (message) say(message, "info");
      refresh();
    },
    undo() { if (history.undo()) refresh(); },
    redo() { if (history.redo()) refresh(); },
    key(e) { history.key(e, refresh); },
  };
}

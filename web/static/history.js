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

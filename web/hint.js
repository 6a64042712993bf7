// @ts-check
// hint.js is a worksheet's "show me" hint. While the learner's timeline
// does not tell the correct engine from the broken one, the hint offers to
// find one that does: the explorer (engine.js loadExplorer, an engine of
// its own in a Web Worker, so the page's engine stays free) searches for
// the shortest timeline on which the two engines part ways, and the hint
// reveals it a step at a time, each step with the notes above it. The
// host may take the whole timeline into its editor (onOpen).

import { h } from './render.js';

/** @typedef {import('./i18n.js').Strings} Strings */

/**
 * A timeline's text cut for revealing: the head (everything before the
 * first step and its notes: the title, lease, job lines) and each step
 * with the comment lines right above it. A step line starts with its time
 * (a digit, or + for a relative time).
 * @param {string} text
 * @returns {{head: string[], steps: string[][]}}
 */
export function timelineChunks(text) {
  const lines = text.replace(/\n+$/, '').split('\n');
  const isStep = (/** @type {string} */ l) => /^\s*[+0-9]/.test(l);
  /** @type {string[][]} */
  const steps = [];
  /** @type {string[]} */
  let notes = [];
  /** @type {string[]} */
  const head = [];
  for (const l of lines) {
    if (isStep(l)) {
      steps.push([...notes, l]);
      notes = [];
    } else if (steps.length === 0 && !/^\s*#/.test(l)) {
      head.push(...notes, l);
      notes = [];
    } else {
      notes.push(l);
    }
  }
  if (notes.length) {
    if (steps.length) steps[steps.length - 1].push(...notes);
    else head.push(...notes);
  }
  return { head, steps };
}

/**
 * @typedef {object} Found what the explorer found for one mutant
 * @property {string} mutant
 * @property {string} timeline "" when nothing was found within the scope
 * @property {number} states
 * @property {{head: string[], steps: string[][]}} chunks
 * @property {number} shown how many steps are revealed
 */

/** The explorer's answer, as engine.js explore() resolves it (JSON). */
/** @typedef {{found: boolean, timeline: string, steps: number, states: number}} Report */

/**
 * Loads the explorer: an engine in a worker of its own (engine.js).
 * @returns {Promise<{explore: (goal: object, opts?: object) => Promise<string>}>}
 */
async function loadExplorer() {
  const mod = await import(new URL('engine.js', import.meta.url).href);
  return mod.loadExplorer();
}

/** A worksheet's hint: its element, and what it found. */
export class Hint {
  /** @type {Found | null} */
  #found = null;
  /** @type {AbortController | null} */
  #search = null;
  #mutant = '';

  /**
   * @param {Strings} t
   * @param {((text: string) => void) | undefined} onOpen takes the found timeline into the host's editor
   */
  constructor(t, onOpen) {
    this.t = t;
    this.onOpen = onOpen;
    this.body = h('div', { class: 'hint-body' });
    // What the hint found is said here once, as it is found or revealed.
    this.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.root = h('div', { class: 'hint', hidden: true }, this.body, this.live);
    this.root.addEventListener('click', (e) => this.#click(e));
  }

  /**
   * Shows the hint for a worksheet of mutant whose engines do (differs) or
   * do not yet part ways; hides it, and stops a search, outside one.
   * @param {string} mutant "" outside a worksheet
   * @param {boolean} differs
   */
  update(mutant, differs) {
    if (mutant !== this.#mutant) {
      this.#stop();
      this.#found = null;
      this.#mutant = mutant;
    }
    this.root.hidden = !mutant || (differs && !this.#found);
    if (!this.root.hidden) this.#draw();
  }

  /** @param {Strings} t */
  setWords(t) {
    this.t = t;
    if (!this.root.hidden) this.#draw();
  }

  #stop() {
    this.#search?.abort();
    this.#search = null;
  }

  /** @param {Event} e */
  #click(e) {
    const b = /** @type {HTMLElement} */ (e.target).closest('button');
    if (!b) return;
    const act = b.dataset.hint;
    if (act === 'search') this.#start();
    else if (act === 'stop') {
      this.#stop();
      this.#draw();
    } else if (act === 'next' && this.#found) {
      this.#found.shown = Math.min(this.#found.shown + 1, this.#found.chunks.steps.length);
      this.#draw();
      this.live.textContent = this.#found.chunks.steps[this.#found.shown - 1].join('\n');
    } else if (act === 'all' && this.#found) {
      this.#found.shown = this.#found.chunks.steps.length;
      this.#draw();
    } else if (act === 'open' && this.#found) {
      this.onOpen?.(this.#found.timeline);
    }
  }

  async #start() {
    const mutant = this.#mutant;
    const search = new AbortController();
    this.#search = search;
    this.#draw({ states: 0 });
    try {
      const explorer = await loadExplorer();
      const raw = await explorer.explore(
        { mutant },
        {
          signal: search.signal,
          onProgress: (/** @type {{states: number}} */ p) => {
            if (this.#search === search) this.#draw(p);
          },
        },
      );
      if (this.#search !== search) return;
      /** @type {Report} */
      const r = JSON.parse(raw);
      this.#found = { mutant, timeline: r.timeline, states: r.states, chunks: timelineChunks(r.timeline), shown: 1 };
    } catch (err) {
      if (this.#search !== search) return;
      this.#draw({ error: String(/** @type {Error} */ (err)?.message || err) });
      this.#search = null;
      return;
    }
    this.#search = null;
    this.#draw();
    const f = this.#found;
    if (!f) return;
    this.live.textContent = f.timeline
      ? `${this.t.hintFound(f.chunks.steps.length, f.states)} ${[...f.chunks.head, ...f.chunks.steps[0]].join('\n')}`
      : this.t.hintNone(f.states);
  }

  /** @param {{states?: number, error?: string}} [busy] a search under way, or its failure */
  #draw(busy) {
    // The parts are drawn anew: a button under focus hands it to the one
    // of the same kind, else to the next sensible one, never to the page.
    const active = /** @type {Document | ShadowRoot} */ (this.root.getRootNode()).activeElement;
    const held = active instanceof HTMLElement && this.body.contains(active) ? active.dataset.hint || '' : null;
    this.#drawParts(busy);
    if (held === null) return;
    for (const act of [held, 'next', 'open', 'stop', 'search']) {
      const b = /** @type {HTMLElement | null} */ (this.body.querySelector(`[data-hint="${act}"]`));
      if (b) {
        b.focus();
        return;
      }
    }
    const status = /** @type {HTMLElement | null} */ (this.body.querySelector('.hint-status'));
    status?.setAttribute('tabindex', '-1');
    status?.focus();
  }

  /** @param {{states?: number, error?: string}} [busy] */
  #drawParts(busy) {
    const t = this.t;
    const f = this.#found;
    if (busy?.error !== undefined) {
      this.body.replaceChildren(
        h('p', { class: 'hint-status', text: t.hintFailed(busy.error) }),
        this.#button('search', t.showMe),
      );
      return;
    }
    if (busy || this.#search) {
      this.body.replaceChildren(
        h('p', { class: 'hint-status', text: t.hintSearching(busy?.states ?? 0) }),
        this.#button('stop', t.hintStop),
      );
      return;
    }
    if (!f) {
      this.body.replaceChildren(this.#button('search', t.showMe));
      return;
    }
    if (!f.timeline) {
      this.body.replaceChildren(h('p', { class: 'hint-status', text: t.hintNone(f.states) }));
      return;
    }
    const n = f.chunks.steps.length;
    const lines = [...f.chunks.head, ...f.chunks.steps.slice(0, f.shown).flat()];
    const buttons = [];
    if (f.shown < n) buttons.push(this.#button('next', t.hintNext(f.shown + 1, n)), this.#button('all', t.hintAll));
    if (this.onOpen) buttons.push(this.#button('open', t.hintOpen));
    this.body.replaceChildren(
      h('p', { class: 'hint-status', text: t.hintFound(n, f.states) }),
      h('pre', { class: 'hint-lines', translate: 'no', text: lines.join('\n') }),
      h('p', { class: 'hint-buttons' }, ...buttons),
    );
  }

  /** @param {string} act @param {string} text */
  #button(act, text) {
    return h('button', { type: 'button', class: 'link', 'data-hint': act, text });
  }
}

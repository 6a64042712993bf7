// @ts-check
// break.js is a player's "break it" mode: at the cursor's instant a
// learner pauses, crashes or delays a worker, or jumps the lock service's
// clock, and sees what changes. Each action writes one line of the
// timeline language into the text (or arrives=+D into the worker's next
// message), in time order at the cursor; the host runs the new text on
// the engine, which alone decides: a text its parser refuses is not kept,
// and the learner reads the parser's message. The steps whose outcome the
// break changed are marked on the lanes and said; undo (its button, or
// Ctrl/Cmd+Z outside a text field) puts the text before the break back,
// byte for byte.
//
// A crash in the language is a restart too: the worker's next step is a
// new process under the same name, so there is no separate restart.
//
// The first part of the module is pure (node --test): where a break goes,
// the line it writes, the steps it changed, the undo stack.

import { h } from './render.js';
import { ms } from './trace.js';

/** @typedef {import('./trace.js').Trace} Trace */
/** @typedef {import('./trace.js').Step} Step */
/** @typedef {import('./i18n.js').Strings} Strings */

/** The operations a worker may send as a message in flight (arrives=). */
export const DELAYABLE = ['renew', 'complete', 'release', 'deliver', 'write'];

/** The durations a learner picks from (ms): a pause's, a delay's, a jump's. */
export const DURATIONS = [500, 1000, 2000, 5000];

/** The duration picked before the learner picks one (ms). */
export const DEFAULT_DURATION = 2000;

/**
 * A duration as the timeline language writes it: 2s, 1500ms.
 * @param {number} d ms
 */
export const duration = (d) => (d % 1000 === 0 ? `${d / 1000}s` : `${d}ms`);

/**
 * Each step line's TIME by its line number (1-based): a message in
 * flight's the instant it was sent, else its first step's.
 * @param {Trace} trace
 * @returns {Map<number, number>}
 */
export function lineTimes(trace) {
  const out = new Map();
  for (const s of trace.steps) if (!out.has(s.line)) out.set(s.line, s.sent ?? s.time);
  return out;
}

/**
 * Where a break at the cursor goes: after the text's line `after` (the
 * last line among the steps played; 0: before the first step line and its
 * note), at the cursor's instant `at` (the first step's before it).
 * @param {Trace} trace
 * @param {number} cursor
 */
export function breakPoint(trace, cursor) {
  const steps = trace.steps;
  if (steps.length === 0) return { after: 0, at: 0 };
  if (cursor <= 0) return { after: 0, at: Math.min(...lineTimes(trace).values()) };
  const k = Math.min(cursor, steps.length);
  let after = 0;
  for (const s of steps.slice(0, k)) after = Math.max(after, s.line);
  return { after, at: steps[k - 1].time };
}

const STEP_LINE = /^\s*[+\d]/;
const COMMENT = /^\s*#/;
const BLANK = /^\s*$/;

/**
 * The text with the step line `TIME words` written at point (breakPoint),
 * TIME absolute. The step line after it, if written relative to the one
 * before (+D), is written at its own instant instead (lines: lineTimes),
 * so that nothing else moves. serviceClock: the text gets a `service
 * clock +0ms` header after its headers when it has no service clock.
 * @param {string} text
 * @param {Map<number, number>} lines
 * @param {{after: number, at: number}} point
 * @param {string} words
 * @param {{serviceClock?: boolean}} [o]
 */
export function insertStep(text, lines, { after, at }, words, { serviceClock = false } = {}) {
  const rows = text.split('\n');
  const cr = rows[0]?.endsWith('\r') ? '\r' : '';
  let first = rows.findIndex((r) => STEP_LINE.test(r));
  if (first < 0) first = rows.length;
  let at0 = first;
  while (at0 > 0 && COMMENT.test(rows[at0 - 1])) at0--;
  const idx = after > 0 ? after : at0;
  const next = rows.findIndex((r, i) => i >= idx && STEP_LINE.test(r));
  const abs = lines.get(next + 1);
  if (next >= 0 && abs !== undefined && /^\s*\+/.test(rows[next])) {
    rows[next] = rows[next].replace(/^(\s*)\+\S+/, `$1${abs}ms`);
  }
  rows.splice(idx, 0, `${at}ms  ${words}${cr}`);
  if (serviceClock && !rows.some((r) => /^\s*service\s+clock\s/.test(r))) {
    let hdr = at0;
    while (hdr > 0 && BLANK.test(rows[hdr - 1])) hdr--;
    rows.splice(hdr, 0, `service clock +0ms${cr}`);
  }
  return rows.join('\n');
}

/**
 * The text with arrives=+D written into the step at line (1-based), after
 * its words and before its expectation or comment; null when the step is
 * a message in flight already.
 * @param {string} text
 * @param {number} line
 * @param {number} d ms
 */
export function delayLine(text, line, d) {
  const rows = text.split('\n');
  const row = rows[line - 1];
  if (row === undefined || /\sarrives=/.test(row)) return null;
  const tail = /\s(->|#)/.exec(row);
  const body = (tail ? row.slice(0, tail.index) : row).replace(/\s+$/, '');
  rows[line - 1] = `${body} arrives=+${duration(d)}${row.slice(body.length)}`;
  return rows.join('\n');
}

/**
 * @typedef {{ok: true, step: number, line: number, op: string, job: string} |
 *   {ok: false, why: 'none'} | {ok: false, why: 'op' | 'inflight', step: number, op: string}} NextMessage
 */

/**
 * The worker's next step after the cursor, if it is a message a delay
 * can make arrive later (DELAYABLE, written as that verb, not yet in
 * flight); else why not.
 * @param {Trace} trace
 * @param {number} cursor
 * @param {string} actor
 * @returns {NextMessage}
 */
export function nextMessage(trace, cursor, actor) {
  for (let i = Math.max(0, cursor); i < trace.steps.length; i++) {
    const s = trace.steps[i];
    if (!s.actors.includes(actor)) continue;
    const verb = s.source.trim().split(/\s+/)[2] || s.op;
    if (!DELAYABLE.includes(s.op) || verb !== s.op) return { ok: false, why: 'op', step: i, op: verb };
    if (s.sent !== undefined) return { ok: false, why: 'inflight', step: i, op: s.op };
    return { ok: true, step: i, line: s.line, op: s.op, job: s.job };
  }
  return { ok: false, why: 'none' };
}

/**
 * A step's outcome as an expectation writes it: "ok", "refused held".
 * @param {Step} s
 */
const outcomeOf = (s) => (s.outcome.reason ? `${s.outcome.kind} ${s.outcome.reason}` : s.outcome.kind);

/**
 * The steps of after whose outcome differs from the same step's in
 * before: a step is the same when its line says the same (its time and
 * any arrives= aside), counted in order; the line the break wrote
 * (newLine) is no step of before.
 * @param {Trace} before
 * @param {Trace} after
 * @param {number} newLine 1-based, 0: none
 * @returns {{step: number, was: string, now: string}[]}
 */
export function changedSteps(before, after, newLine) {
  const key = (/** @type {Step} */ s) =>
    s.source
      .trim()
      .replace(/^\S+\s+/, '')
      .replace(/\s+arrives=\S+/, '')
      .replace(/\s+/g, ' ');
  /** @type {Map<string, Step[]>} */
  const was = new Map();
  for (const s of before.steps) {
    const k = key(s);
    const list = was.get(k);
    if (list) list.push(s);
    else was.set(k, [s]);
  }
  /** @type {Map<string, number>} */
  const seen = new Map();
  const out = [];
  for (const [i, s] of after.steps.entries()) {
    if (s.line === newLine) continue;
    const k = key(s);
    const n = seen.get(k) || 0;
    seen.set(k, n + 1);
    const old = was.get(k)?.[n];
    if (old && outcomeOf(old) !== outcomeOf(s)) out.push({ step: i, was: outcomeOf(old), now: outcomeOf(s) });
  }
  return out;
}

/** The texts before each break, undone last first while the text is the one the break left. */
export class UndoStack {
  /** @type {{before: string, after: string}[]} */
  #entries = [];

  /** @param {number} [limit] how many breaks are kept */
  constructor(limit = 50) {
    this.limit = limit;
  }

  /** @param {string} before @param {string} after */
  push(before, after) {
    this.#entries.push({ before, after });
    if (this.#entries.length > this.limit) this.#entries.shift();
  }

  /** Whether current is the text the last break left. @param {string} current */
  canUndo(current) {
    return this.#entries.at(-1)?.after === current;
  }

  /** The text before the last break, taken off the stack; null when current is not what it left. @param {string} current */
  undo(current) {
    if (!this.canUndo(current)) return null;
    return /** @type {{before: string}} */ (this.#entries.pop()).before;
  }

  clear() {
    this.#entries = [];
  }

  get size() {
    return this.#entries.length;
  }
}

// ---- the mode's controls ----

/**
 * @typedef {{status: 'ran'} | {status: 'failed', error: any} | {status: 'stale'}} Applied
 */

/**
 * @typedef {object} BreakHost what the mode asks of its player
 * @property {() => Trace | null} trace the run on screen's (the correct engine's in a worksheet)
 * @property {() => string} text the text of the run on screen
 * @property {() => number} cursor
 * @property {(text: string) => Promise<Applied>} apply runs text and, when it ran, makes it the text
 * @property {(marked: Set<number>) => void} mark marks the steps (0-based) whose outcome changed
 * @property {() => HTMLElement | null} lanes the lanes' region (focus goes there when no opener stays)
 */

let menus = 0;

/** A player's break-it controls: a button per lane (and the service), the menu they open, undo, and what changed. */
export class Breaker {
  undo = new UndoStack();
  /** @type {string} the lane whose menu is open ("" none; "service": the lock service) */
  who = '';
  busy = false;
  /** @type {Map<string, HTMLButtonElement>} */
  #openers = new Map();
  /** @type {Strings | null} */
  #t = null;

  /** @param {BreakHost} host */
  constructor(host) {
    this.host = host;
    const id = `break-menu-${++menus}`;
    this.root = h('div', { class: 'break', role: 'group', hidden: true });
    this.label = h('span', { class: 'break-at', id: `${id}-at` });
    this.root.setAttribute('aria-labelledby', `${id}-at`);
    this.openers = h('span', { class: 'break-openers' });
    this.undoButton = /** @type {HTMLButtonElement} */ (
      h('button', { type: 'button', class: 'break-undo', disabled: true })
    );
    this.menu = h('div', { class: 'break-menu', role: 'group', id, hidden: true, 'aria-labelledby': `${id}-title` });
    this.menuTitle = h('p', { class: 'break-menu-title', id: `${id}-title` });
    this.forLabel = h('span', {});
    this.for = /** @type {HTMLSelectElement} */ (
      h('select', { class: 'break-for' }, ...DURATIONS.map((d) => h('option', { value: d, text: ms(d) })))
    );
    this.for.value = String(DEFAULT_DURATION);
    const b = (/** @type {string} */ act) =>
      /** @type {HTMLButtonElement} */ (h('button', { type: 'button', 'data-break': act }));
    this.buttons = { pause: b('pause'), crash: b('crash'), delay: b('delay'), ahead: b('ahead'), back: b('back') };
    this.why = h('p', { class: 'break-why', id: `${id}-why`, hidden: true });
    this.close = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'link break-close' }));
    const bt = this.buttons;
    this.menu.append(
      this.menuTitle,
      h('label', { class: 'field break-for-field' }, this.forLabel, this.for),
      h('span', { class: 'break-actions' }, bt.pause, bt.crash, bt.delay, bt.ahead, bt.back, this.close),
      this.why,
    );
    this.status = h('p', { class: 'break-status', role: 'status' });
    this.root.append(this.label, this.openers, this.undoButton, this.menu, this.status);
    this.#wire();
  }

  #wire() {
    this.openers.addEventListener('click', (e) => {
      const o = /** @type {HTMLElement} */ (e.target).closest('button[data-lane]');
      if (!(o instanceof HTMLElement)) return;
      const lane = o.dataset.lane || '';
      if (this.who === lane && !this.menu.hidden) this.hide(false);
      else this.open(lane, true);
    });
    this.menu.addEventListener('click', (e) => {
      const act = /** @type {HTMLElement} */ (e.target).closest('button[data-break]');
      if (act instanceof HTMLElement) this.act(act.dataset.break || '');
    });
    this.menu.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      this.hide(true);
    });
    this.for.addEventListener('change', () => this.#fill());
    this.close.addEventListener('click', () => this.hide(true));
    this.undoButton.addEventListener('click', () => this.undoLast());
  }

  /** The trace, or null when there is nothing to break. */
  #trace() {
    const tr = this.host.trace();
    return tr && tr.steps.length > 0 ? tr : null;
  }

  /**
   * Draws the controls for the run and the cursor on screen in t's words.
   * @param {Strings} t
   * @param {boolean} shown whether the lanes are shown
   */
  draw(t, shown) {
    this.#t = t;
    const tr = this.#trace();
    this.root.hidden = !tr || !shown;
    if (!tr || this.root.hidden) return;
    const w = t.brk;
    const at = ms(breakPoint(tr, this.host.cursor()).at);
    this.label.textContent = w.at(at);
    const lanes = [...tr.actors, 'service'];
    if ([...this.#openers.keys()].join('\n') !== lanes.join('\n')) {
      const kept = new Map(lanes.map((a) => [a, this.#openers.get(a) || this.#opener(a)]));
      this.#openers = kept;
      this.openers.replaceChildren(...kept.values());
      if (this.who && !kept.has(this.who)) this.hide(false);
    }
    for (const [a, o] of this.#openers) {
      o.textContent = a === 'service' ? w.service : a;
      o.setAttribute('aria-label', w.open(a === 'service' ? w.service : a, at));
      o.setAttribute('aria-expanded', String(this.who === a && !this.menu.hidden));
    }
    this.undoButton.textContent = w.undo;
    // Undo that disables itself under the keyboard's focus hands it to the first lane's button.
    const focused = /** @type {Document | ShadowRoot} */ (this.root.getRootNode()).activeElement;
    this.undoButton.disabled = !this.undo.canUndo(this.host.text());
    if (focused === this.undoButton && this.undoButton.disabled) this.#openers.values().next().value?.focus();
    this.close.textContent = w.close;
    this.forLabel.textContent = w.duration;
    if (!this.menu.hidden) this.#fill();
  }

  /** @param {string} lane */
  #opener(lane) {
    const o = /** @type {HTMLButtonElement} */ (
      h('button', {
        type: 'button',
        class: 'break-opener',
        'data-lane': lane,
        'aria-expanded': 'false',
        'aria-controls': this.menu.id,
        translate: lane === 'service' ? null : 'no',
      })
    );
    return o;
  }

  /**
   * Opens the menu of a lane ("service": the lock service's clock); nothing while the controls are hidden.
   * @param {string} lane
   * @param {boolean} focus whether the focus goes into it
   */
  open(lane, focus) {
    if (this.root.hidden || !this.#trace() || !this.#openers.has(lane)) return;
    this.who = lane;
    this.menu.hidden = false;
    for (const [a, o] of this.#openers) o.setAttribute('aria-expanded', String(a === lane));
    this.#fill();
    if (focus) {
      const first = [...this.menu.querySelectorAll('button')].find((x) => !x.hidden && !x.disabled);
      /** @type {HTMLElement | undefined} */ (first)?.focus();
    }
  }

  /**
   * Closes the menu; refocus: the focus goes back to its opener.
   * @param {boolean} refocus
   */
  hide(refocus) {
    this.menu.hidden = true;
    for (const o of this.#openers.values()) o.setAttribute('aria-expanded', 'false');
    if (refocus) this.#focusOpener();
  }

  #focusOpener() {
    const o = this.#openers.get(this.who);
    if (o?.isConnected && !this.root.hidden) o.focus();
    else this.host.lanes()?.focus();
  }

  /** Fills the menu for its lane at the cursor. */
  #fill() {
    const t = this.#t;
    const tr = this.#trace();
    if (!t || !tr) return;
    const w = t.brk;
    const at = ms(breakPoint(tr, this.host.cursor()).at);
    const d = ms(Number(this.for.value));
    const service = this.who === 'service';
    const bt = this.buttons;
    this.menuTitle.textContent = w.menu(service ? w.service : this.who, at);
    bt.pause.hidden = bt.crash.hidden = bt.delay.hidden = service;
    bt.ahead.hidden = bt.back.hidden = !service;
    bt.pause.textContent = w.pause(this.who, d);
    bt.crash.textContent = w.crash(this.who);
    bt.ahead.textContent = w.jumpAhead(d);
    bt.back.textContent = w.jumpBack(d);
    const next = nextMessage(tr, this.host.cursor(), this.who);
    bt.delay.textContent = next.ok ? w.delay(this.who, next.op, d) : w.delayOff(this.who);
    // A focused control that turns disabled hands the focus to the menu's close button.
    const focused = /** @type {Document | ShadowRoot} */ (this.root.getRootNode()).activeElement;
    bt.delay.disabled = !next.ok;
    if (focused === bt.delay && bt.delay.disabled) this.close.focus();
    this.why.hidden = service || next.ok;
    this.why.textContent = next.ok
      ? ''
      : next.why === 'none'
        ? w.delayNone(this.who)
        : next.why === 'op'
          ? w.delayOp(this.who, next.op)
          : w.delayInflight(this.who, next.op);
    if (this.why.hidden) bt.delay.removeAttribute('aria-describedby');
    else bt.delay.setAttribute('aria-describedby', this.why.id);
  }

  /**
   * Does a menu's action at the cursor: pause, crash, delay, ahead, back.
   * @param {string} act
   */
  async act(act) {
    const tr = this.#trace();
    const t = this.#t;
    if (!tr || !t || this.busy) return;
    const text = this.host.text();
    const point = breakPoint(tr, this.host.cursor());
    const d = Number(this.for.value);
    if (act === 'delay') {
      const next = nextMessage(tr, this.host.cursor(), this.who);
      const delayed = next.ok ? delayLine(text, next.line, d) : null;
      if (!next.ok || delayed === null) return;
      this.#commit(text, delayed, 0, t.brk.delayed(next.line, (delayed.split('\n')[next.line - 1] || '').trim()));
      return;
    }
    const words = {
      pause: `${this.who} pause ${duration(d)}`,
      crash: `${this.who} crash`,
      ahead: `service jump +${duration(d)}`,
      back: `service jump -${duration(d)}`,
    }[act];
    if (!words) return;
    const serviceClock = act === 'ahead' || act === 'back';
    const broken = insertStep(text, lineTimes(tr), point, words, { serviceClock });
    const row = `${point.at}ms  ${words}`;
    const line = broken.split('\n').findIndex((r, i) => i >= point.after && r.replace(/\r$/, '') === row) + 1;
    this.#commit(text, broken, line, t.brk.broke(line, row));
  }

  /**
   * Runs the broken text; once it ran, the break can be undone.
   * @param {string} text the text before
   * @param {string} broken
   * @param {number} line the line the break wrote (0: none)
   * @param {string} said what the break did
   */
  async #commit(text, broken, line, said) {
    this.hide(true);
    await this.#run(broken, line, () => {
      this.undo.push(text, broken);
      return said;
    });
  }

  /** Puts the text before the last break back and runs it. */
  async undoLast() {
    const t = this.#t;
    const before = this.undo.canUndo(this.host.text()) ? this.undo.undo(this.host.text()) : null;
    if (before === null || !t) return false;
    const after = this.host.text();
    await this.#run(
      before,
      -1,
      () => t.brk.undone,
      () => this.undo.push(before, after),
    );
    return true;
  }

  /**
   * Runs text through the host; says what changed or why the engine refused it.
   * @param {string} text
   * @param {number} newLine the line the break wrote (0: none; -1: an undo, which compares nothing)
   * @param {() => string} ran what to say when it ran (and do: the undo's record)
   * @param {() => void} [refused] what to do when it was refused
   */
  async #run(text, newLine, ran, refused) {
    const t = /** @type {Strings} */ (this.#t);
    const before = this.host.trace();
    this.busy = true;
    this.root.dataset.busy = 'true';
    this.status.textContent = t.brk.running;
    let res;
    try {
      res = await this.host.apply(text);
    } finally {
      this.busy = false;
      delete this.root.dataset.busy;
    }
    const w = (this.#t || t).brk;
    if (res.status !== 'ran') {
      if (res.status === 'failed') {
        const err = res.error;
        const first = Array.isArray(err?.errors) && err.errors.length ? err.errors[0].msg : String(err?.message || err);
        this.status.textContent = w.refused(first);
        refused?.();
      }
      return false;
    }
    const said = ran();
    if (newLine < 0) {
      this.status.textContent = said;
      this.root.dataset.changed = '0';
      return true;
    }
    const after = this.host.trace();
    const changed = before && after ? changedSteps(before, after, newLine) : [];
    this.host.mark(new Set(changed.map((c) => c.step)));
    const list = changed.map((c) => {
      const s = /** @type {Trace} */ (after).steps[c.step];
      return w.changedOne(c.step + 1, [...s.actors, s.op, s.job].filter(Boolean).join(' '), c.was, c.now);
    });
    this.status.textContent = `${said} ${list.length ? w.changed(list.join('; ')) : w.same}`;
    this.root.dataset.changed = String(changed.length);
    return true;
  }
}

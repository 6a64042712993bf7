// @ts-check
// player.js is the one timeline player every leaselab page runs: the
// simulator page (app.js) puts its editor and chrome around it, the
// <lease-timeline> element (lease-timeline.js) its header and source, the
// embed frame and the worksheets run it through that element. It plays one
// run of the engine — one trace, or in a worksheet the correct engine's and
// a mutant's side by side — on a virtual clock: the lanes, the transport
// (play, step, scrub), the explanation of the current step, the jobs table,
// the fenced storage, the SQL, the verdicts, the worksheet's verdict and the
// exports. It asks the engine for runs (runOn) but decides nothing the
// engine decides.

import { Breaker } from './break.js';
import { Hint } from './hint.js';
import { Quiz } from './predict.js';
import { drawTable, h, nextTask, standaloneSVG, timeAt } from './render.js';
import { cursorAtTime, cursorTime, ms, outcomeText } from './trace.js';
import { setText, TraceView } from './view.js';

/** @typedef {import('./trace.js').Trace} Trace */
/** @typedef {import('./trace.js').Step} Step */
/** @typedef {import('./trace.js').Difference} Difference */
/** @typedef {import('./i18n.js').Strings} Strings */
/** @typedef {import('./grade-run.js').StudentRun} StudentRun */
/** @typedef {import('./student-view.js').StudentView} StudentView */

/**
 * @typedef {object} Engine the engine's API (engine.js's loadEngine); every method may answer through a Promise
 * @property {(text: string, opts: {name: string, mutant?: string, lang?: string}) => Promise<string> | string} run
 * @property {(text: string, opts: {name: string, mutant: string, lang?: string}) => Promise<string> | string} worksheet
 * @property {(text: string, opts: {name: string}) => Promise<string> | string} goTest
 * @property {(lang?: string) => Promise<{name: string, breaks: string}[]> | {name: string, breaks: string}[]} mutants
 * @property {() => Promise<{name: string, title: string, text: string}[]> | {name: string, title: string, text: string}[]} library
 * @property {() => Promise<string[]> | string[]} invariants
 * @property {(text: string) => Promise<string>} [history] a concurrent history checked (the tools' call)
 * @property {string | Promise<string>} version
 */

/**
 * @typedef {object} Run what the player plays: one run of the engine
 * @property {Trace[]} traces one trace, or [correct, mutant] in a worksheet
 * @property {string} raw the JSON as the engine gave it (what exportTrace returns)
 * @property {Difference | null} diff a worksheet's first difference
 * @property {string} mutant the mutant's name in a worksheet, else ""
 * @property {string} breaks the rule the mutant breaks, in the player's language
 */

/** The parts a player can show; a host picks some (`show`). */
export const PARTS = ['lanes', 'explain', 'table', 'sql', 'verdicts', 'export'];

/** Real time per step at 1x speed, in ms. */
export const STEP_MS = 1400;

const reducedMotion = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

const ICONS = {
  first: 'M6 5h2v14H6zM20 5v14l-10-7z',
  back: 'M16 5v14L6 12z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  forward: 'M8 5v14l10-7z',
  last: 'M16 5h2v14h-2zM4 5v14l10-7z',
};

/**
 * @param {Record<string, string>} paths class -> path data ("_": no class)
 */
function icon(paths) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  for (const [cls, d] of Object.entries(paths)) {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    if (cls !== '_') p.setAttribute('class', cls);
    svg.append(p);
  }
  return svg;
}

/**
 * The player action a key press asks for — toggle, forward, back, first,
 * last — or "" when the key is not the player's: a modifier is held, or
 * the focused control uses the key itself (a text field, a select, a
 * button's Space and Enter, a slider's arrows, Home and End).
 * @param {KeyboardEvent} e
 */
export function keyAction(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return '';
  const target = e.composedPath()[0];
  if (isTextEntry(target)) return '';
  const tag = target instanceof Element ? target.tagName : '';
  if (tag === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return '';
  if (tag === 'INPUT' && ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return '';
  const actions = { ' ': 'toggle', ArrowRight: 'forward', ArrowLeft: 'back', Home: 'first', End: 'last' };
  return actions[/** @type {keyof typeof actions} */ (e.key)] || '';
}

/** The reading pace: real time per word of what a step says, in ms (about 150 words a minute). */
const READ_MS_PER_WORD = 400;

/** The speed control's value for the reading pace. */
export const READ_PACE = 'read';

/**
 * How long a step stays at the reading pace: the time to read what it
 * says, or to hear a screen reader say it, at READ_MS_PER_WORD a word
 * (words are what spaces part, in Korean as in English); never less than
 * a step at 1x.
 * @param {string} text
 */
export function readingMs(text) {
  const words = text.split(/\s+/u).filter(Boolean).length;
  return Math.max(STEP_MS, words * READ_MS_PER_WORD);
}

/**
 * Plays one step of the virtual clock: moves it from `from` to `to` (ms of
 * virtual time), calling onFrame(clock) on each animation frame, then calls
 * onDone once the step's real time (dur ms) has passed. With reduced
 * motion, or when the clock does not move, there are no frames: the clock
 * jumps. Returns a function that cancels the step.
 * @param {{from: number, to: number, dur: number, reduced: boolean,
 *   onFrame: (clock: number) => void, onDone: () => void}} step
 */
export function playStep({ from, to, dur, reduced, onFrame, onDone }) {
  let frame = 0;
  const moves = !reduced && to > from;
  if (moves) {
    const t0 = performance.now();
    /** @param {number} now */
    const animate = (now) => {
      const f = Math.min(1, (now - t0) / (dur * 0.6));
      onFrame(from + (to - from) * f);
      if (f < 1) frame = requestAnimationFrame(animate);
    };
    frame = requestAnimationFrame(animate);
  }
  const timer = setTimeout(
    () => {
      cancelAnimationFrame(frame);
      onDone();
    },
    moves ? dur : dur * 0.6,
  );
  return () => {
    clearTimeout(timer);
    cancelAnimationFrame(frame);
  };
}

/**
 * Saves text as a file named filename.
 * @param {string} filename
 * @param {string} text
 * @param {string} type
 */
export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * A file name from a timeline's name: "01-late-courier.tl" -> "01-late-courier".
 * @param {string} name
 */
export function baseName(name) {
  return (
    name
      .replace(/^.*\//, '')
      .replace(/\.tl$/, '')
      .replace(/[^\p{L}\p{N}_-]+/gu, '-') || 'timeline'
  );
}

/**
 * @typedef {object} PlayerOptions
 * @property {Strings} t the words
 * @property {Set<string>} show the parts to show (PARTS)
 * @property {'h2' | 'h3' | 'h4' | 'h5' | 'h6'} [heading] the heading level of the views' titles, their panels and the final table (default h4)
 * @property {boolean} [speed] whether the transport has a speed control (default: 1x, no control)
 * @property {boolean} [fold] whether the SQL and the invariants start folded, a click away (default: open)
 * @property {(player: Player) => void} [onChange] called after a run is loaded and after every move of the cursor
 * @property {(text: string, name: string) => Promise<string>} [goTest] the Go test of a timeline (its export)
 * @property {(err: unknown) => void} [onError] shows what went wrong with an export
 * @property {(text: string) => void} [openTimeline] takes a worksheet hint's timeline into the host's editor
 *   (without it, the hint shows the timeline and offers no button to open it)
 * @property {boolean} [predict] whether the player starts in its prediction mode (setPredict)
 * @property {(a: import('./predict.js').Answered) => void} [onAnswer] called after each answer the learner gives
 *   in the prediction mode, once its step is shown
 * @property {(text: string) => Promise<RunResult>} [apply] runs a text and, when it ran, makes it the host's
 *   text: given, the lanes offer to break a worker at the cursor (break.js)
 */

/**
 * @typedef {object} RunRequest what runOn asks the engine for
 * @property {string} text the timeline
 * @property {string} name its source name
 * @property {string} [mutant] a mutant's name ("" : the correct engine)
 * @property {string} [lang] the language of the explanations
 * @property {boolean} [worksheet] the correct engine and the mutant side by side
 * @property {number} [cursor] where the cursor goes once the run is on screen (default: it stays)
 */

/**
 * @typedef {{status: 'ran', raw: string, took: number} | {status: 'failed', error: any} | {status: 'stale'}} RunResult
 * ran: the run is on screen; failed: the engine refused the text (error.errors lists {line, col, msg}) and
 * the last good run stays; stale: a later runOn overtook this one
 */

/**
 * A timeline player: build it into a host element, hand it runs (load, or
 * runOn an engine), and it plays them on a virtual clock. Its parts
 * (sheet, views, transport, foot, final) are the host's to move; they are
 * built in that order.
 */
export class Player {
  /** @type {Run | null} the run on screen */
  run = null;
  /** the timeline's name (the exports' file names) */
  name = 'timeline.tl';
  /** the timeline's text of the run on screen (the Go test export's input) */
  text = '';
  /** @type {Set<number>} the 0-based steps whose outcome the last break changed (marked on the lanes) */
  marked = new Set();
  #cursor = 0;
  #clock = 0;
  #playing = false;
  #cancelStep = () => {};
  #seq = 0;
  /** @type {TraceView[]} */
  #views = [];
  /** @type {StudentView | null} a grading report's run of the student's code, beside the engine's */
  #student = null;
  /** @type {Map<Element, number>} the width each view's lanes were drawn at */
  #widths = new Map();
  #resizeFrame = 0;
  #finalTimer = 0;
  #resize = new ResizeObserver(() => this.#onResize());

  /**
   * @param {HTMLElement} host where the player's parts go
   * @param {PlayerOptions} opts
   */
  constructor(host, opts) {
    this.opts = opts;
    this.t = opts.t;
    this.show = opts.show;
    this.parts = buildParts(Boolean(opts.speed), opts.heading || 'h4');
    this.hint = new Hint(opts.t, opts.openTimeline);
    this.parts.verdict.after(this.hint.root);
    this.quiz = new Quiz(
      (step) => this.seek(step + 1),
      (a) => this.opts.onAnswer?.(a),
    );
    this.quiz.on = Boolean(opts.predict);
    const apply = opts.apply;
    /** @type {Breaker | null} the break-it controls, when the host can apply a text */
    this.breaker = apply
      ? new Breaker({
          trace: () => this.run?.traces[0] ?? null,
          text: () => this.text,
          cursor: () => this.#cursor,
          apply: async (text) => {
            this.pause();
            const res = await apply(text);
            return res.status === 'ran' ? { status: 'ran' } : res;
          },
          mark: (marked) => {
            this.marked = marked;
            this.redraw();
          },
          lanes: () => this.#views[0]?.lanes ?? null,
        })
      : null;
    host.append(
      this.parts.sheet,
      this.parts.views,
      this.parts.transport,
      this.quiz.root,
      this.parts.foot,
      this.parts.final,
    );
    this.#wire();
    this.connect();
    this.setViews(1);
    this.setWords(opts.t);
  }

  /** @type {AbortController | null} the page-wide listeners' (connect) */
  #page = null;

  /**
   * Listens to the page (printing) and watches the lanes' size; the
   * constructor does, and a player disconnect() stopped does again.
   */
  connect() {
    if (this.#page) return;
    this.#page = new AbortController();
    const signal = this.#page.signal;
    // Printing, and a print emulated (which fires no beforeprint), wants
    // the final table whole.
    window.addEventListener('beforeprint', () => this.#drawFinal(true), { signal });
    window.matchMedia?.('print').addEventListener(
      'change',
      (e) => {
        if (e.matches) this.#drawFinal(true);
      },
      { signal },
    );
    for (const v of this.#views) this.#resize.observe(v.lanes);
  }

  /** Pauses, and leaves no listener nor observer on the page (connect() takes them up again). */
  disconnect() {
    this.pause();
    this.#page?.abort();
    this.#page = null;
    this.#resize.disconnect();
  }

  /**
   * Turns the prediction mode on or off (predict.js): while on, the cursor
   * stops before each question not yet answered, and the lanes draw no step
   * after it.
   * @param {boolean} on
   */
  setPredict(on) {
    if (this.quiz.on === on) return;
    this.quiz.on = on;
    if (on && this.#cursor > this.quiz.gate) this.seek(this.quiz.gate);
    else this.redraw();
  }

  /** The cursor: 0 before the first step, k after the k-th. */
  get cursor() {
    return this.#cursor;
  }

  /** The number of steps of the run on screen (0 before any run). */
  get steps() {
    return this.run ? this.run.traces[0].steps.length : 0;
  }

  /** Whether the clock is playing. */
  get playing() {
    return this.#playing;
  }

  /** The views, in order: the correct engine's first in a worksheet. */
  get views() {
    return this.#views;
  }

  /** The student's view beside the engine's, when a grading report's link opened the player. */
  get student() {
    return this.#student;
  }

  /**
   * Makes count views (1, or 2 for a worksheet); the transport sits under
   * a single view's lanes, above two views.
   * @param {number} count
   */
  setViews(count) {
    if (this.#views.length === count) return;
    for (const v of this.#views) this.#resize.unobserve(v.lanes);
    this.#views = Array.from({ length: count }, (_, i) => {
      const v = new TraceView({ heading: this.opts.heading || 'h4', live: i === 0, fold: Boolean(this.opts.fold) });
      v.svg.addEventListener('click', (e) => this.#clickLanes(v, e));
      v.svg.addEventListener('contextmenu', (e) => this.#breakAt(v, e));
      v.lanes.addEventListener('keydown', (e) => {
        // The context-menu key (or Shift+F10) on the lanes opens the first lane's break menu.
        const menuKey = e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey);
        if (!menuKey || !this.breaker || e.target !== v.lanes) return;
        e.preventDefault();
        this.breaker.open(this.run?.traces[0].actors[0] ?? '', true);
      });
      this.#resize.observe(v.lanes);
      v.setWords(this.t);
      return v;
    });
    this.#layout();
  }

  #studentSeq = 0;

  /**
   * Shows a grading report's run of the student's code beside the
   * engine's, step by step with the same cursor, or why the link's run
   * was refused (error); neither: no student's view. The view's module
   * is loaded the first time (only such a link needs it); a later call
   * overtakes an earlier one still loading it.
   * @param {StudentRun | null} run
   * @param {string} [error]
   */
  async setStudent(run, error = '') {
    const seq = ++this.#studentSeq;
    if (!run && !error) {
      if (!this.#student) return;
      this.#student = null;
    } else {
      if (!this.#student) {
        const { StudentView } = await import('./student-view.js');
        if (seq !== this.#studentSeq) return;
        this.#student ??= new StudentView({ heading: this.opts.heading || 'h4', seek: (c) => this.seek(c) });
      }
      this.#student.set(run, error);
    }
    this.#layout();
    this.redraw();
  }

  /** Puts the views side by side (a worksheet's two, or the engine's beside the student's), the transport above. */
  #layout() {
    const roots = this.#views.map((v) => v.root);
    if (this.#student) roots.push(this.#student.root);
    this.parts.views.replaceChildren(...roots);
    if (roots.length === 1) this.#views[0].legend.after(this.parts.transport);
    else this.parts.views.before(this.parts.transport);
    if (this.breaker) this.parts.transport.after(this.breaker.root);
    this.parts.views.classList.toggle('side-by-side', roots.length > 1);
    this.applyShow();
  }

  /**
   * Puts every word of the player in t's language; the trace's own words
   * (the engine's explanations) come with the next run.
   * @param {Strings} t
   */
  setWords(t) {
    this.t = t;
    const p = this.parts;
    p.transport.setAttribute('aria-label', t.clock);
    for (const k of /** @type {const} */ (['first', 'back', 'forward', 'last'])) p[k].setAttribute('aria-label', t[k]);
    p.play.setAttribute('aria-label', this.#playing ? t.pause : t.play);
    p.clock.setAttribute('aria-label', t.clock);
    p.scrubLabel.textContent = t.step;
    p.speedLabel.textContent = t.speed;
    /** @type {HTMLOptionElement} */ (p.speed.querySelector(`option[value="${READ_PACE}"]`)).textContent = t.readPace;
    p.exportLabel.textContent = `${t.exportLabel}:`;
    p.exportJSON.textContent = t.exportJSON;
    p.exportSVG.textContent = t.exportSVG;
    p.exportGo.textContent = t.exportGo;
    p.finalTitle.textContent = t.jobsFinal;
    p.task.textContent = t.task;
    this.hint?.setWords(t);
    for (const v of this.#views) v.setWords(t);
    if (this.run) for (const [i, v] of this.#views.entries()) v.setTrace(this.run.traces[i], t);
    this.redraw();
  }

  /**
   * Shows the parts in show (PARTS); the views, the transport and the
   * exports only once a run is on screen.
   * @param {Set<string>} [show]
   */
  applyShow(show = this.show) {
    this.show = show;
    const ran = this.run !== null;
    const p = this.parts;
    p.views.hidden = !ran;
    p.transport.hidden = !ran;
    p.foot.hidden = !ran;
    p.exports.hidden = !show.has('export');
    p.sheet.hidden = !ran || !this.run?.mutant;
    for (const v of this.#views) v.applyShow(show);
  }

  /**
   * Puts a run on screen; the cursor stays where it was (within the new
   * run's steps), or goes to `cursor` when given.
   * @param {Run} run
   * @param {{cursor?: number}} [o]
   */
  load(run, { cursor } = {}) {
    this.setViews(run.traces.length);
    this.run = run;
    this.marked = new Set();
    for (const [i, v] of this.#views.entries()) v.setTrace(run.traces[i], this.t);
    this.quiz.setTrace(run.traces[0]);
    this.#cursor = Math.max(0, Math.min(cursor ?? this.#cursor, this.steps, this.quiz.gate));
    this.#clock = cursorTime(run.traces[0], this.#cursor);
    this.parts.scrub.max = String(this.steps);
    this.applyShow();
    this.redraw();
    // The final table is for print only (hidden on screen): drawn a slice
    // at a time after this task, and whole when the page is printed.
    clearTimeout(this.#finalTimer);
    this.#finalTimer = window.setTimeout(() => this.#drawFinal(false), 0);
  }

  /**
   * Draws the final table of the run on screen; whole: every row at once
   * (to print), else a slice at a time.
   * @param {boolean} whole
   */
  #drawFinal(whole) {
    clearTimeout(this.#finalTimer);
    this.#finalTimer = 0;
    drawTableFinal(this, whole);
  }

  /**
   * Runs a timeline on the engine and puts the run on screen, unless a
   * later runOn has started meanwhile. The last good run stays on screen
   * when the engine refuses the text.
   * @param {Engine} engine
   * @param {RunRequest} req
   * @returns {Promise<RunResult>}
   */
  async runOn(engine, req) {
    const seq = ++this.#seq;
    const started = performance.now();
    try {
      const raw = await askEngine(engine, req);
      if (seq !== this.#seq) return { status: 'stale' };
      if (this.run && raw === this.run.raw) {
        // The very bytes on screen (the trace computed ahead of time, or
        // the same run again): nothing to parse or draw again.
        this.text = req.text;
        this.name = req.name;
        if (req.cursor !== undefined && req.cursor !== this.#cursor) this.#moveTo(req.cursor);
        return { status: 'ran', raw, took: performance.now() - started };
      }
      // A long timeline's trace takes tens of milliseconds to parse and as
      // many to draw: each in a task of its own, neither holds the page long.
      const run = await runOf(engine, raw, req);
      await nextTask();
      if (seq !== this.#seq) return { status: 'stale' };
      this.text = req.text;
      this.name = req.name;
      this.load(run, { cursor: req.cursor });
      return { status: 'ran', raw: run.raw, took: performance.now() - started };
    } catch (error) {
      if (seq !== this.#seq) return { status: 'stale' };
      return { status: 'failed', error };
    }
  }

  /**
   * Moves the cursor to step c (clamped), stopping the clock unless
   * keepPlaying.
   * @param {number} c
   * @param {boolean} [keepPlaying]
   */
  seek(c, keepPlaying = false) {
    if (!this.run) return;
    if (!keepPlaying) this.pause();
    this.#moveTo(c);
  }

  /**
   * Puts the cursor at step c (clamped) and the clock at its time, and
   * draws; the clock keeps playing or not.
   * @param {number} c
   */
  #moveTo(c) {
    if (!this.run) return;
    const gate = this.quiz.gate;
    if (c > gate) this.pause(); // the question before the step asks first
    this.#cursor = Math.max(0, Math.min(c, this.steps, gate));
    this.#clock = cursorTime(this.run.traces[0], this.#cursor);
    this.redraw();
    // A learner who came to a question by the transport is taken to it.
    const root = /** @type {Document | ShadowRoot} */ (this.parts.play.getRootNode());
    const asking = this.#cursor === gate && gate < this.steps;
    if (asking && root.activeElement && this.parts.transport.contains(root.activeElement)) this.quiz.focus();
  }

  /** Plays from the cursor (from the start when at the end) to the last step. */
  play() {
    if (!this.run || this.steps === 0) return;
    if (this.#cursor >= this.steps) this.seek(0);
    this.#playing = true;
    this.parts.play.classList.add('playing');
    this.parts.play.setAttribute('aria-label', this.t.pause);
    this.#tick();
  }

  /** Stops the clock where it is. */
  pause() {
    this.#playing = false;
    this.#cancelStep();
    this.parts.play.classList.remove('playing');
    this.parts.play.setAttribute('aria-label', this.t.play);
  }

  /** Plays, or pauses when playing. */
  toggle() {
    if (this.#playing) this.pause();
    else this.play();
  }

  // The real time the current step stays before the next: STEP_MS at the
  // chosen speed, or at the reading pace the time to read (or hear) what
  // the step says, as the page shows it.
  #stepMs() {
    const pace = this.opts.speed ? this.parts.speed.value : '1';
    if (pace !== READ_PACE) return STEP_MS / Number(pace);
    const v = this.#views[0];
    return readingMs(`${v.explain.textContent} ${v.note.hidden ? '' : v.note.textContent}`);
  }

  // Moves the clock from the current step's time to the next step's, then
  // makes the next step current, and on.
  #tick() {
    if (!this.run || !this.#playing) return;
    if (this.#cursor >= this.steps || this.#cursor >= this.quiz.gate) {
      this.pause();
      return;
    }
    const tr = this.run.traces[0];
    const dur = this.#stepMs();
    this.parts.transport.dataset.stepMs = String(dur); // the step's real time, for whoever watches the transport
    this.#cancelStep = playStep({
      from: cursorTime(tr, this.#cursor),
      to: tr.steps[this.#cursor].time,
      dur,
      reduced: Boolean(reducedMotion?.matches),
      onFrame: (clock) => {
        this.#clock = clock;
        this.parts.clock.textContent = ms(Math.round(clock));
        this.#drawLanes();
      },
      onDone: () => {
        this.seek(this.#cursor + 1, true);
        this.#tick();
      },
    });
  }

  /**
   * Does what a key press asks of the player (keyAction); returns whether
   * it did, having then prevented the key's default.
   * @param {KeyboardEvent} e
   */
  handleKey(e) {
    if (this.breaker && isUndoKey(e) && this.breaker.undo.canUndo(this.text)) {
      e.preventDefault();
      this.breaker.undoLast();
      return true;
    }
    const action = keyAction(e);
    if (!action || !this.run) return false;
    const to = { forward: this.#cursor + 1, back: this.#cursor - 1, first: 0, last: this.steps };
    if (action === 'toggle') this.toggle();
    else this.seek(to[/** @type {keyof typeof to} */ (action)]);
    e.preventDefault();
    return true;
  }

  /** Draws everything at the cursor, then tells the host (onChange). */
  redraw() {
    const run = this.run;
    if (!run) return;
    // The lanes first: they read their width, which costs a layout of the
    // whole page unless nothing changed since the last one.
    this.#drawLanes();
    const t = this.t;
    const p = this.parts;
    const c = this.#cursor;
    const n = this.steps;
    const st = c > 0 ? run.traces[0].steps[c - 1] : null;
    p.scrub.value = String(c);
    p.scrub.setAttribute('aria-valuetext', st ? `${t.stepOf(c, n)}, ${ms(st.time)}` : t.start);
    p.clock.textContent = ms(Math.round(this.#clock));
    p.count.textContent = t.stepOf(c, n);
    // A button that disables itself under the keyboard's focus hands it to
    // Play, which stays enabled: focus never falls to the page.
    const focused = /** @type {Document | ShadowRoot} */ (p.play.getRootNode()).activeElement;
    p.first.disabled = p.back.disabled = c === 0;
    p.forward.disabled = p.last.disabled = c >= Math.min(n, this.quiz.gate);
    if (focused instanceof HTMLButtonElement && focused.disabled && p.transport.contains(focused)) p.play.focus();
    const main = run.traces[run.traces.length - 1];
    setText(p.summary, [t.summary(main.summary), ...(main.warnings ?? [])].join(' · '));
    p.summary.classList.toggle('pass', main.summary.passed);
    p.summary.classList.toggle('fail', !main.summary.passed);
    const student = this.#student;
    const studentDiff = student?.run ? student.run.diff : -1;
    this.quiz.draw(c, t);
    this.#views.forEach((v, i) => {
      v.root.classList.toggle('predicting', this.quiz.on && c < n);
      v.drawStep(c, t);
      drawViewTitle(v, i, run, t, Boolean(student));
      v.root.classList.toggle('at-diff', (Boolean(run.diff) && c === (run.diff?.step ?? -2) + 1) || c === studentDiff);
    });
    student?.draw(c, t);
    // No break while questions remain: a break rewrites the story the
    // learner is predicting, and its controls name lanes (the service's
    // clock) before the lesson has.
    this.breaker?.draw(t, this.show.has('lanes') && this.quiz.gate === Number.POSITIVE_INFINITY);
    drawSheet(this);
    this.opts.onChange?.(this);
  }

  #drawLanes() {
    const ringed = this.run?.diff ? this.run.diff.step : -1;
    const at = { cursor: this.#cursor, clock: this.#clock, ringed, t: this.t, marked: this.marked };
    for (const v of this.#views) v.drawLanes(at);
  }

  /** Redraws the lanes whose width changed (their height follows the drawing). */
  #onResize() {
    cancelAnimationFrame(this.#resizeFrame);
    this.#resizeFrame = requestAnimationFrame(() => {
      const changed = this.#views.some((v) => this.#widths.get(v.lanes) !== v.lanes.clientWidth);
      for (const v of this.#views) this.#widths.set(v.lanes, v.lanes.clientWidth);
      if (changed) this.#drawLanes();
    });
  }

  /** @param {TraceView} v @param {MouseEvent} e */
  #clickLanes(v, e) {
    if (!this.run) return;
    const name = /** @type {Element} */ (e.target).closest('text.actor[data-actor]');
    if (name && this.breaker) {
      this.breaker.open(name.getAttribute('data-actor') || '', true);
      return;
    }
    const mark = /** @type {Element} */ (e.target).closest('[data-step]');
    if (mark) this.seek(Number(/** @type {HTMLElement} */ (mark).dataset.step));
    else this.seek(cursorAtTime(this.run.traces[0], timeAt(v.svg, e.clientX)));
  }

  /**
   * A right click (or a long press) on a lane moves the cursor to its
   * time and opens the lane's break menu.
   * @param {TraceView} v
   * @param {MouseEvent} e
   */
  #breakAt(v, e) {
    const lane = /** @type {Element} */ (e.target).closest('[data-actor]')?.getAttribute('data-actor');
    if (!this.run || !this.breaker || !lane) return;
    e.preventDefault();
    if (!(/** @type {Element} */ (e.target).closest('text.actor'))) {
      this.seek(cursorAtTime(this.run.traces[0], timeAt(v.svg, e.clientX)));
    }
    this.breaker.open(lane, true);
  }

  #wire() {
    const p = this.parts;
    p.play.addEventListener('click', () => this.toggle());
    p.first.addEventListener('click', () => this.seek(0));
    p.back.addEventListener('click', () => this.seek(this.#cursor - 1));
    p.forward.addEventListener('click', () => this.seek(this.#cursor + 1));
    p.last.addEventListener('click', () => this.seek(this.steps));
    p.scrub.addEventListener('input', () => this.seek(Number(p.scrub.value)));
    p.verdict.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-step]');
      if (b) this.seek(Number(/** @type {HTMLElement} */ (b).dataset.step));
    });
    p.exports.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-export]');
      if (b) this.#export(/** @type {HTMLElement} */ (b).dataset.export || '');
    });
  }

  // ---- exports ----

  /** The run as JSON, as the engine gave it (a worksheet: both traces and their first difference). */
  async exportTrace() {
    if (!this.run) throw new Error(this.t.nothingRun);
    return this.run.raw;
  }

  /** The lanes as a standalone SVG file (a worksheet: both engines, one above the other). */
  async exportSVG() {
    const views = this.#views.filter((v) => v.svg.viewBox.baseVal?.width);
    if (views.length === 0) throw new Error(this.t.nothingDrawn);
    if (views.length === 1) return standaloneSVG(views[0].svg);
    let y = 0;
    let w = 0;
    const files = views.map((v) => {
      const vb = v.svg.viewBox.baseVal;
      const inner = standaloneSVG(v.svg)
        .replace(/^<\?xml[^>]*>\n/, '')
        .replace('<svg ', `<svg y="${y + 22}" `);
      const title = v.titleText.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
      const label = `<text x="8" y="${y + 16}" font-family="sans-serif" font-size="13" font-weight="700">${title}</text>`;
      y += vb.height + 30;
      w = Math.max(w, vb.width);
      return label + inner;
    });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${y}" viewBox="0 0 ${w} ${y}">${files.join('')}</svg>\n`;
  }

  /** A Go test file that replays the timeline on the engine with its expectations. */
  async exportGoTest() {
    if (!this.opts.goTest) throw new Error(this.t.nothingRun);
    return this.opts.goTest(this.text, this.name);
  }

  /** @param {string} kind json, svg or go */
  async #export(kind) {
    const base = baseName(this.name);
    const files = {
      json: async () =>
        download(
          `${base}.${this.run?.mutant ? 'worksheet' : 'trace'}.json`,
          await this.exportTrace(),
          'application/json',
        ),
      svg: async () => download(`${base}.svg`, await this.exportSVG(), 'image/svg+xml'),
      go: async () => download(`${base.replaceAll('-', '_')}_test.go`, await this.exportGoTest(), 'text/x-go'),
    };
    try {
      await files[/** @type {keyof typeof files} */ (kind)]?.();
    } catch (err) {
      this.opts.onError?.(err);
    }
  }
}

/**
 * Asks the engine for a run as JSON: the trace, or a worksheet's two
 * traces and their first difference (runOf reads it).
 * @param {Engine} engine
 * @param {RunRequest} req
 * @returns {Promise<string>}
 */
async function askEngine(engine, { text, name, mutant = '', lang = 'en', worksheet = false }) {
  if (worksheet && mutant) return engine.worksheet(text, { name, mutant, lang });
  return engine.run(text, { name, mutant, lang });
}

/**
 * The run that raw, the engine's answer to req, holds; a worksheet's with
 * the rule its mutant breaks.
 * @param {Engine} engine
 * @param {string} raw
 * @param {RunRequest} req
 * @returns {Promise<Run>}
 */
async function runOf(engine, raw, { mutant = '', lang = 'en', worksheet = false }) {
  if (worksheet && mutant) {
    const w = JSON.parse(raw);
    const rules = await engine.mutants(lang);
    const rule = rules.find((m) => m.name === mutant);
    return { traces: [w.correct, w.mutant], raw, diff: w.difference, mutant, breaks: rule ? rule.breaks : '' };
  }
  return { traces: [JSON.parse(raw)], raw, diff: null, mutant: '', breaks: '' };
}

/**
 * A worksheet view's title: which engine, and whether its expectations held.
 * @param {TraceView} v
 * @param {number} i
 * @param {Run} run
 * @param {Strings} t
 * @param {boolean} student whether the student's view is beside it
 */
function drawViewTitle(v, i, run, t, student) {
  const tr = run.traces[i];
  v.title.hidden = run.traces.length < 2 && !student;
  v.titleText = i === 0 ? t.correctEngine : t.mutantEngine(run.mutant);
  v.title.replaceChildren(
    v.titleText,
    h('span', { class: `pass ${tr.summary.passed ? 'pass' : 'fail'}`, text: ` · ${t.summary(tr.summary)}` }),
  );
  v.root.classList.toggle('correct', run.traces.length > 1 && i === 0);
  v.root.classList.toggle('mutant', run.traces.length > 1 && i === 1);
}

/**
 * The worksheet's verdict: where the engines part ways, or that they do not.
 * @param {Player} player
 */
function drawSheet(player) {
  const run = player.run;
  const p = player.parts;
  const t = player.t;
  player.hint.update(run && run.traces.length > 1 ? run.mutant : '', Boolean(run?.diff));
  if (!run || run.traces.length < 2) return;
  p.breaks.textContent = run.breaks ? t.breaks(run.breaks) : '';
  const d = run.diff;
  p.verdict.classList.toggle('differs', Boolean(d));
  p.verdict.classList.toggle('same', !d);
  if (!d) {
    setChildren(p.verdict, [h('p', { text: t.noDiff })]);
    return;
  }
  const [a, b] = run.traces.map((tr) => tr.steps[d.step]);
  const cells = d.cells
    .slice(0, 6)
    .map((c) =>
      h(
        'li',
        {},
        h('code', { translate: 'no', text: `${c.job}.${c.column}` }),
        `: ${t.cellDiff(c.a || '—', c.b || '—')}`,
      ),
    );
  /** @type {HTMLElement[]} */
  const shown = [
    h('p', { class: 'solved' }, h('strong', { text: t.solved })),
    h(
      'p',
      {},
      h('strong', { text: t.diffAt(d.step + 1, d.line) }),
      ' ',
      h('code', { translate: 'no', text: d.source }),
    ),
    h('p', { class: 'sides', text: t.sideBy(outcomeText(a), outcomeText(b)) }),
    h('p', {
      class: 'aspects',
      text: d.aspects.map((k) => t.aspects[/** @type {keyof Strings['aspects']} */ (k)] || k).join(', '),
    }),
  ];
  if (cells.length) shown.push(h('ul', { class: 'cells' }, ...cells));
  if (player.cursor !== d.step + 1) {
    shown.push(h('button', { type: 'button', class: 'link', 'data-step': d.step + 1, text: t.goToStep(d.step + 1) }));
  }
  const focused = /** @type {Document | ShadowRoot} */ (p.verdict.getRootNode()).activeElement;
  setChildren(p.verdict, shown);
  // "Go to step" is gone once there: focus moves to the player's Play.
  if (focused && !focused.isConnected) p.play.focus();
}

/**
 * Replaces el's children with nodes only when they read differently: el
 * is a live region, which speaks on every change.
 * @param {HTMLElement} el
 * @param {Node[]} nodes
 */
function setChildren(el, nodes) {
  const next = h('div', {}, ...nodes);
  if (next.innerHTML !== el.innerHTML) el.replaceChildren(...next.childNodes);
}

/**
 * The jobs table after the last step, for print.
 * @param {Player} player
 * @param {boolean} whole every row at once, else a slice at a time
 */
function drawTableFinal(player, whole) {
  const tr = player.run?.traces[0];
  if (tr) drawTable(player.parts.finalTable, tr.final, [], Number.POSITIVE_INFINITY, player.t, undefined, { whole });
}

/**
 * Builds a player's parts: the worksheet's sheet, the views' box, the
 * transport, the foot (summary, exports) and the final table (print).
 * @param {boolean} speed whether the transport has a speed control
 * @param {'h2' | 'h3' | 'h4' | 'h5' | 'h6'} heading the final table's heading
 */
function buildParts(speed, heading) {
  const btn = (/** @type {string} */ cls, /** @type {Record<string, string>} */ d, /** @type {string} */ key) =>
    h('button', { type: 'button', class: `icon ${cls}`, 'aria-keyshortcuts': key }, icon(d));
  const p = {
    sheet: h('div', { class: 'sheet', hidden: true }),
    breaks: h('p', { class: 'breaks' }),
    verdict: h('div', { class: 'sheet-verdict', 'aria-live': 'polite' }),
    task: h('p', { class: 'task' }),
    views: h('div', { class: 'views', hidden: true }),
    transport: h('div', { class: 'transport', role: 'group', hidden: true }),
    first: btn('first', { _: ICONS.first }, 'Home'),
    back: btn('back', { _: ICONS.back }, 'ArrowLeft'),
    play: btn('primary play', { 'i-play': ICONS.play, 'i-pause': ICONS.pause }, 'Space'),
    forward: btn('forward', { _: ICONS.forward }, 'ArrowRight'),
    last: btn('last', { _: ICONS.last }, 'End'),
    clock: h('span', { class: 'clock-value', text: ms(0) }),
    count: h('span', { class: 'step-count' }),
    scrubLabel: h('span', { class: 'visually-hidden' }),
    scrub: h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1 }),
    speedLabel: h('span', {}),
    speed: h(
      'select',
      { class: 'speed-select' },
      ...[0.5, 1, 2, 4].map((v) => h('option', { value: v, text: `${v}×` })),
      h('option', { value: READ_PACE }),
    ),
    foot: h('div', { class: 'player-foot', hidden: true }),
    summary: h('p', { class: 'summary', 'aria-live': 'polite' }),
    exports: h('span', { class: 'exports' }),
    exportLabel: h('span', { class: 'label' }),
    exportJSON: h('button', { type: 'button', class: 'link', 'data-export': 'json' }),
    exportSVG: h('button', { type: 'button', class: 'link', 'data-export': 'svg' }),
    exportGo: h('button', { type: 'button', class: 'link', 'data-export': 'go' }),
    final: h('section', { class: 'final' }),
    finalTitle: h(heading, {}),
    finalTable: h('table', { class: 'jobs-table' }, h('thead', {}, h('tr')), h('tbody')),
  };
  p.speed.value = '1';
  p.sheet.append(p.breaks, p.verdict, p.task);
  p.transport.append(p.first, p.back, p.play, p.forward, p.last, h('div', { class: 'clock' }, p.clock, p.count));
  p.transport.append(h('label', { class: 'scrub' }, p.scrubLabel, p.scrub));
  if (speed) p.transport.append(h('label', { class: 'field speed' }, p.speedLabel, p.speed));
  p.exports.append(p.exportLabel, p.exportJSON, p.exportSVG, p.exportGo);
  p.foot.append(p.summary, p.exports);
  p.final.append(
    p.finalTitle,
    h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'jobs' }, p.finalTable),
  );
  return p;
}

/**
 * Loads the engine (engine.js: one per page, shared by every player) and
 * resolves to its API. engine.js is imported by its URL: whether it runs
 * the engine on the page's thread or in a Web Worker is its own business;
 * the players rely on the Engine contract above, and await every answer.
 * @returns {Promise<Engine>}
 */
export async function loadEngine() {
  const mod = await import(new URL('engine.js', import.meta.url).href);
  return mod.loadEngine();
}

/**
 * Runs text on the page's engine (engine.js's runSoon, which starts it):
 * unlike the API's run, it may be called before loadEngine resolves, and
 * the engine runs it as soon as it is up.
 * @param {string} text
 * @param {{name: string, mutant?: string, lang?: string}} opts
 * @returns {Promise<string>}
 */
export async function runSoon(text, opts) {
  const mod = await import(new URL('engine.js', import.meta.url).href);
  return mod.runSoon(text, opts);
}

/**
 * Whether a key press asks to undo: Ctrl+Z (Cmd+Z on a Mac), not in a
 * text field (which undoes its own typing).
 * @param {KeyboardEvent} e
 */
export function isUndoKey(e) {
  const z = e.key === 'z' || e.key === 'Z';
  return z && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && !isTextEntry(e.composedPath()[0]);
}

/**
 * Whether a key press in el goes to text: a text field, a text area or a
 * select (they use the keys themselves).
 * @param {EventTarget | null} el
 */
export function isTextEntry(el) {
  const tag = el instanceof Element ? el.tagName : '';
  return (
    tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && /** @type {HTMLInputElement} */ (el).type !== 'range')
  );
}

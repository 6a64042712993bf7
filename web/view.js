// @ts-check
// view.js is one engine's drawing of a trace in the player (player.js): its
// lanes and their legend, the explanation of the current step, the jobs
// table, the fenced storage (when the timeline writes to it), the SQL and
// the invariant verdicts. A worksheet has two views side by side.

import { textLang } from './i18n.js';
import { laneModel, lanesWindow, windowOf } from './lanes.js';
import { drawLanes, drawSQL, drawStorage, drawTable, drawVerdicts, h, layoutMeasured } from './render.js';
import { clockOffset, ms, storageAt, storageChanged, tableAt, writesStorage } from './trace.js';

/** @typedef {import('./trace.js').Trace} Trace */
/** @typedef {import('./trace.js').Step} Step */
/** @typedef {import('./trace.js').ExpectResult} ExpectResult */
/** @typedef {import('./lanes.js').LaneModel} LaneModel */
/** @typedef {import('./lanes.js').LanesLayout} LanesLayout */
/** @typedef {import('./i18n.js').Strings} Strings */

const LEGEND = /** @type {const} */ ([
  ['lease', 'sw-lease'],
  ['ends', 'sw-expire'],
  ['ok', 'sw-ok'],
  ['refused', 'sw-refused'],
  ['pause', 'sw-pause'],
  ['crash', 'sw-crash'],
  ['forgotten', 'sw-forgotten'],
  ['believes', 'sw-believes'],
  ['lockDelay', 'sw-lock-delay'],
  ['watch', 'sw-watch'],
]);

/** One engine's drawing: lanes, the step, the tables. */
export class TraceView {
  /** @type {Trace | null} */
  trace = null;
  /** @type {LaneModel | null} */
  model = null;
  /**
   * The lanes laid out for a width, a language and a window of the steps.
   * @type {{width: number, t: Strings, window: number, model: LaneModel, layout: LanesLayout} | null}
   */
  #laidOut = null;
  /** The legend's key to the axis's break marks, shown while the drawing has one. @type {HTMLElement | null} */
  #breakKey = null;

  /**
   * @param {{heading: 'h2' | 'h3' | 'h4' | 'h5' | 'h6', live: boolean, fold?: boolean}} o heading: the view's
   *   title's and its panels' heading level; live: whether the explanation is an aria-live region (one per player); fold: whether the
   *   SQL and the invariants are folded, their headings the buttons that unfold them
   */
  constructor({ heading, live, fold = false }) {
    this.root = h('section', { class: 'view' });
    this.title = h(heading, { class: 'view-title', hidden: true });
    this.titleText = '';
    this.lanes = h('div', { class: 'lanes-scroll', tabindex: 0, role: 'region' });
    this.svg = /** @type {SVGSVGElement} */ (document.createElementNS('http://www.w3.org/2000/svg', 'svg'));
    this.svg.setAttribute('class', 'lanes');
    // A group, not an image: a screen reader reaches each lease's and
    // mark's own title inside it.
    this.svg.setAttribute('role', 'group');
    this.svg.setAttribute('focusable', 'false');
    this.lanesWindow = h('p', { class: 'lanes-window', hidden: true });
    this.lanes.append(this.svg);
    this.legend = h('div', { class: 'legend', 'aria-hidden': 'true' });
    // The lanes' shorthand (A#1 vs B#2, superseded), decoded where it appears.
    this.decode = h('p', { class: 'decode', hidden: true });
    this.stepSource = h('p', { class: 'step-source' });
    // The sentence is there to read at leisure; what a screen reader says
    // as the cursor moves is the short announcement: the step, its call and
    // its outcome, about ten words, so playback as read can keep up.
    this.explain = h('p', { class: 'explain' });
    this.announce = h('p', {
      class: 'announce visually-hidden',
      'aria-live': live ? 'polite' : 'off',
      'aria-atomic': 'true',
    });
    this.note = h('p', { class: 'step-note', hidden: true });
    this.expect = h('p', { class: 'expect', hidden: true });
    this.explainBox = h(
      'div',
      { class: 'explain-box' },
      this.announce,
      this.stepSource,
      this.explain,
      this.note,
      this.expect,
    );
    this.jobsAt = h('span', { class: 'at' });
    this.table = h('table', { class: 'jobs-table' }, h('thead', {}, h('tr')), h('tbody'));
    this.storageAt = h('span', { class: 'at' });
    this.storage = h('table', { class: 'jobs-table storage-table' }, h('thead', {}, h('tr')), h('tbody'));
    this.sql = h('ol', { class: 'sql' });
    this.verdicts = h('ul', { class: 'verdicts' });
    this.headings = {
      jobs: h(heading, {}, h('span', { translate: 'no', text: 'jobs' }), ' ', this.jobsAt),
      storage: h(heading, {}, h('span', { class: 'storage-name' }), ' ', this.storageAt),
      sql: h(heading, {}),
      verdicts: h(heading, {}),
    };
    const scroll = (/** @type {HTMLTableElement} */ t) =>
      h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'jobs' }, t);
    this.tablePanel = h('section', { class: 'panel table-panel' }, this.headings.jobs, scroll(this.table));
    this.storagePanel = h('section', { class: 'panel storage-panel' }, this.headings.storage, scroll(this.storage));
    const folded = (/** @type {string} */ cls, /** @type {HTMLElement} */ head, /** @type {HTMLElement} */ body) =>
      fold ? h('details', { class: cls }, h('summary', {}, head), body) : h('section', { class: cls }, head, body);
    this.sqlPanel = folded('panel sql-panel', this.headings.sql, this.sql);
    this.verdictsPanel = folded('panel verdicts-panel', this.headings.verdicts, this.verdicts);
    this.panels = h('div', { class: 'panels' }, this.tablePanel, this.storagePanel, this.sqlPanel, this.verdictsPanel);
    this.root.append(this.title, this.lanesWindow, this.lanes, this.legend, this.decode, this.explainBox, this.panels);
  }

  /**
   * Puts the view's words in t's language (headings, legend); the trace's
   * own words come with its next run.
   * @param {Strings} t
   */
  setWords(t) {
    /** @type {HTMLElement} */ (this.headings.storage.firstChild).textContent = t.storageTitle;
    this.headings.sql.textContent = t.sqlTitle;
    this.lanes.setAttribute('aria-label', t.lanesLabel);
    /** @type {HTMLElement} */ (this.storage.parentElement).setAttribute('aria-label', t.storageTitle);
    this.headings.verdicts.textContent = t.verdictsTitle;
    this.#laidOut = null;
    this.#drawLegend(t);
  }

  /**
   * Shows trace (a new run: the lanes are read again).
   * @param {Trace} trace
   * @param {Strings} t
   */
  setTrace(trace, t) {
    this.trace = trace;
    this.model = laneModel(trace, t);
    this.#laidOut = null;
    this.#drawLegend(t);
  }

  /** @param {Strings} t */
  #drawLegend(t) {
    const m = this.model;
    /** @type {Record<string, boolean>} */
    const has = {
      pause: Boolean(m?.pauses.length),
      crash: Boolean(m?.marks.some((k) => k.kind === 'crash')),
      forgotten: Boolean(m?.leases.some((l) => l.forgotAt !== null)),
      believes: Boolean(m?.leases.some((l) => l.believes !== null)),
      lockDelay: Boolean(m?.delays.length),
      watch: Boolean(m?.watches.length),
    };
    this.#breakKey = h('span', { class: 'legend-break' }, h('b', { class: 'break-mark', text: '//' }), t.legend.breaks);
    this.#breakKey.hidden = !this.#laidOut?.layout.scale.breaks.length;
    this.legend.replaceChildren(
      ...LEGEND.filter(([key]) => has[key] !== false).map(([key, sw]) =>
        h('span', {}, h('i', { class: `sw ${sw}` }), t.legend[key]),
      ),
      this.#breakKey,
    );
    const rej = this.trace?.steps.find(
      (st) => st.rejection?.reason === 'superseded' && st.rejection.current,
    )?.rejection;
    this.decode.textContent = rej
      ? t.decode(rej.presented.owner, rej.presented.token, rej.current.owner || t.nobody, rej.current.token)
      : '';
    this.#showDecode();
  }

  #showDecode() {
    this.decode.hidden = this.legend.hidden || this.decode.textContent === '';
  }

  /**
   * Shows the parts of show: lanes, explain, table, sql, verdicts.
   * @param {Set<string>} show
   */
  applyShow(show) {
    this.lanes.hidden = !show.has('lanes');
    this.legend.hidden = !show.has('lanes');
    this.#showDecode();
    this.lanesWindow.hidden = !show.has('lanes') || !this.trace || lanesWindow(this.trace.steps.length, 0).count === 1;
    this.explainBox.hidden = !show.has('explain');
    this.tablePanel.hidden = !show.has('table');
    this.storagePanel.hidden = !show.has('table') || !this.trace || !writesStorage(this.trace);
    this.sqlPanel.hidden = !show.has('sql');
    this.verdictsPanel.hidden = !show.has('verdicts');
    this.panels.hidden = !show.has('table') && !show.has('sql') && !show.has('verdicts');
  }

  /**
   * Draws the lanes at the clock: the window of the steps that holds the
   * cursor (lanes.js lanesWindow; a timeline of up to WINDOW_STEPS steps
   * is one window). The layout is kept while the width, the language and
   * the window stay.
   * @param {{cursor: number, clock: number, ringed: number, t: Strings}} at
   */
  drawLanes(at) {
    if (!this.trace || !this.model || this.lanes.hidden) return;
    const width = Math.round(this.lanes.clientWidth) || 600;
    const n = this.trace.steps.length;
    const win = lanesWindow(n, at.cursor);
    const kept = this.#laidOut;
    if (!kept || kept.width !== width || kept.t !== at.t || kept.window !== win.index) {
      const part = windowOf(this.trace, this.model, win);
      const layout = layoutMeasured(this.svg, part.trace, part.model, width, at.t);
      this.#laidOut = { width, t: at.t, window: win.index, model: part.model, layout };
    }
    this.lanesWindow.hidden = win.count === 1;
    this.lanesWindow.textContent = win.count === 1 ? '' : at.t.lanesWindow(win.from + 1, win.to, n);
    const laid = this.#laidOut;
    if (laid) drawLanes(this.svg, laid.layout, laid.model, at);
    if (this.#breakKey) this.#breakKey.hidden = !laid?.layout.scale.breaks.length;
  }

  /**
   * Draws the step at the cursor: its line, the engine's sentence, the
   * author's note, the expectation, the tables, the SQL, the verdicts.
   * @param {number} cursor
   * @param {Strings} t
   */
  drawStep(cursor, t) {
    const tr = this.trace;
    if (!tr) return;
    const n = tr.steps.length;
    const st = cursor > 0 ? tr.steps[cursor - 1] : null;
    if (st) {
      this.stepSource.replaceChildren(
        h('span', { class: 'line-no', text: t.line(st.line) }),
        h('code', { translate: 'no', text: st.source }),
      );
      if (st.now !== st.time && st.actors.length === 1) {
        const clock = tr.service ? t.serviceClock(ms(st.now)) : t.ownClock(st.actors[0], ms(st.now));
        this.stepSource.append(h('span', { class: 'own-clock', text: clock }));
      }
      setText(this.explain, t.stepExplain(cursor, n, ms(st.time), st.explain));
      setText(this.announce, t.stepAnnounce(cursor, n, ms(st.time), callOf(st.source), outcomeOf(st)));
    } else {
      this.stepSource.replaceChildren(
        h('span', { class: 'line-no', text: t.start }),
        h('code', { translate: 'no', text: tr.title || tr.name, lang: textLang(tr.title || tr.name, t.lang) }),
      );
      setText(this.explain, t.beforeFirst(n));
      setText(this.announce, t.beforeFirst(n));
    }
    this.note.hidden = !st?.note;
    this.note.replaceChildren(h('span', { class: 'visually-hidden', text: t.note }), st?.note || '');
    this.#drawExpect(st?.expect || null, t);
    this.#drawPanels(tr, cursor, st, t);
  }

  /**
   * @param {Trace} tr
   * @param {number} cursor
   * @param {Step | null} st
   * @param {Strings} t
   */
  #drawPanels(tr, cursor, st, t) {
    const at = st ? t.jobsAt(cursor, ms(st.time)) : t.jobsAt(0, '');
    this.jobsAt.textContent = at;
    const offset = (/** @type {string} */ w) => clockOffset(tr, w);
    drawTable(this.table, st ? tableAt(tr, cursor) : tr.start, st ? st.changed : [], st ? st.time : 0, t, offset);
    if (writesStorage(tr)) {
      this.storageAt.textContent = at;
      drawStorage(this.storage, storageAt(tr, cursor), storageChanged(st), t);
    }
    drawSQL(this.sql, st ? st.sql : tr.setup, t);
    drawVerdicts(this.verdicts, st ? st.verdicts : [], t);
  }

  /** @param {ExpectResult | null} ex @param {Strings} t */
  #drawExpect(ex, t) {
    this.expect.hidden = !ex;
    if (!ex) return;
    this.expect.className = `expect ${ex.ok ? 'ok' : 'bad'}`;
    this.expect.textContent = ex.ok ? t.expectOk(ex.text) : t.expectBad(ex.expected, ex.got);
  }
}

/**
 * Sets el's text only when it differs: a live region speaks on every
 * change, even to the same words.
 * @param {HTMLElement} el
 * @param {string} text
 */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * A step's call as its line writes it, without its time, its expectation
 * or its comment: "B claim order-7".
 * @param {string} source
 */
export function callOf(source) {
  const call = source.split('->')[0].split(/\s#/)[0].trim();
  return call.replace(/^\S+\s+/, '');
}

/** Ops that have no outcome to say: what happens to a worker or a clock. */
const SILENT = new Set(['pause', 'crash', 'wait', 'jump', 'drift', 'leader-change']);

/**
 * A step's outcome in the timeline's words ("ok", "refused superseded"), or
 * "" for a step that has none to say.
 * @param {Step} st
 */
export function outcomeOf(st) {
  if (SILENT.has(st.op)) return '';
  return st.outcome.reason ? `${st.outcome.kind} ${st.outcome.reason}` : st.outcome.kind;
}

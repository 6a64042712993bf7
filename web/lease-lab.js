// @ts-check
// lease-lab.js defines <lease-lab>, a lease lab embedded in any page: the
// lab's text (the .lab format of leaselab lab) is the element's text, a
// <script type="text/plain"> child's, or the text property; a course
// site's ```lease-lab fence becomes one (fences.js).
//
//   <script type="module" src="lease-lab.js"></script>
//   <lease-lab name="lease-length.lab">
//   # How long should a lease be?
//   ...
//   sweep lease 1s 2s 4s 8s
//   </lease-lab>
//
// It shows the lab's plot (the engine's own SVG, Result.WriteSVG: the
// same picture leaselab lab -svg writes) with a data table beside it, each
// point's mean and 95% interval per plotted measure. The points are
// keyboard reachable (Tab to the plot, the arrow keys from point to point)
// and labelled for screen readers; activating one (a click, Enter or
// Space), or a run button in the table, replays the worst run behind it (or
// its typical one) on the engine as a timeline in a <lease-timeline> below.
// The reader may edit the lab and run it again: the runs go in the
// explorer's worker (engine.js loadExplorer), off the page's main thread,
// with a progress bar and a Cancel button (which ends that worker).
//
// On a course site the result and the plot `leaselab prerender` computed
// ahead of time, or the npm plugins embedded in its data-prerendered, are
// drawn at once (prerendered.js prerenderedLab), and no
// WebAssembly loads until the reader asks for a story or a rerun; else the
// lab runs on the engine when the element comes near the viewport.
//
// Attributes, each reflected by a property of the same name: lang (en or
// ko; default the nearest lang attribute, or the page's) and name (the
// lab's name in messages; default lab.lab). State on the element:
// data-state (waiting, running, ready, error), data-source (prerendered,
// engine), data-points. Events (bubbling, composed): ready {points,
// source}, story {point, run, which}; error {message, errors} does not
// bubble. The result property is the Result (format leaselab-lab/1) on
// screen, or null; openRun(point, which) opens a point's worst or typical
// run. Colors are currentColor, so the lab draws in the page's text
// colour; data-scheme (light or dark: scheme.js pageScheme, followed as
// the site switches it) sets its color-scheme, so its controls and the
// halo of a heat map's numbers (Canvas) match the page's background.
// The story's title is a heading one level below the nearest heading
// of the page before the element (outline.js headingLevel), and the
// story's player's title one below that, whatever their level: the lab
// continues the page's outline. define(name?) registers the element
// (the module does it under lease-lab when it is free). Disconnected, it
// keeps no observer and cancels what it runs.

import { dedent } from './fences.js';
import { langOf, strings } from './i18n.js';
import { define as defineTimeline } from './lease-timeline.js';
import { headingLevel, headingTag } from './outline.js';
import { prerenderedLab } from './prerendered.js';
import { h } from './render.js';
import { pageScheme, watchScheme } from './scheme.js';

/** @typedef {{mean: number, lo: number, hi: number, n: number}} Stat */
/** @typedef {{index: number, values: number[], stats: Record<string, Stat>, worst: number, typical: number}} PointResult */
/** @typedef {{param: string, unit: string, values: number[]}} Axis */
/** @typedef {{name: string, unit: string, label: {en: string, ko?: string}}} Metric */
/**
 * A lab's Result as the engine gives it (format leaselab-lab/1).
 * @typedef {object} Result
 * @property {string} format
 * @property {string} name
 * @property {{en: string, ko?: string}} title
 * @property {string} seed
 * @property {number} runs
 * @property {Axis[]} sweeps
 * @property {string[]} plot
 * @property {Metric[]} metrics
 * @property {PointResult[]} points
 */
/** @typedef {'worst' | 'typical'} Which */

const CSS = `
:host { display: block; margin: 1em 0; color: inherit; }
:host([hidden]) { display: none; }
:host(:lang(ko)), [lang|="ko"] { word-break: keep-all; overflow-wrap: break-word; }
:host([data-scheme="light"]) { color-scheme: light; }
@media screen { :host([data-scheme="dark"]) { color-scheme: dark; } }
.title { font-weight: 600; margin: 0 0 .5em; }
.lab { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.plot { flex: 3 1 420px; min-width: 0; }
.plot svg { max-width: 100%; height: auto; }
.data { flex: 2 1 460px; min-width: 0; overflow-x: auto; }
td:last-child { white-space: nowrap; }
svg [data-point] { cursor: pointer; }
svg [data-point]:focus { outline: none; }
svg [data-point]:focus-visible, svg [data-point]:hover { stroke: currentColor; stroke-width: 3; }
table { border-collapse: collapse; font-size: .85em; font-variant-numeric: tabular-nums; }
caption { text-align: start; font-weight: 600; padding-bottom: .3em; }
th, td { padding: .2em .45em; text-align: end; border-bottom: 1px solid color-mix(in srgb, currentColor 25%, transparent); }
button { font: inherit; color: inherit; background: transparent; cursor: pointer;
  border: 1px solid color-mix(in srgb, currentColor 50%, transparent); border-radius: 4px; padding: .1em .5em; }
button:disabled { opacity: .5; cursor: default; }
button:focus-visible, textarea:focus-visible { outline: 2px solid currentColor; outline-offset: 1px; }
textarea { display: block; width: 100%; box-sizing: border-box; margin: .3em 0; color: inherit; background: transparent;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85em; }
.controls { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; }
.status, .hint { font-size: .85em; opacity: .85; margin: .3em 0; }
.story-title { margin: 1em 0 .3em; font-size: 1.1em; }
.story-title:focus { outline: none; }
`;

/** @type {CSSStyleSheet | null} */
let sheet = null;

/** How near the viewport a lab starts to run, in px. */
const NEAR_PX = 300;

/**
 * A parameter's value as a lab writes it (the engine's paramValue).
 * @param {string} param
 * @param {number} v
 */
export function paramText(param, v) {
  if (param === 'max_attempts') return String(v);
  if ((param === 'margin' && v < 0) || (param !== 'lease' && param !== 'margin' && v === 0)) return 'off';
  return v >= 1000 && v % 1000 === 0 ? `${v / 1000}s` : `${v}ms`;
}

/**
 * Where a point is, in words: each swept parameter and its value.
 * @param {Result} r
 * @param {number} point
 */
export function pointWhere(r, point) {
  const p = r.points[point];
  return r.sweeps.map((s, i) => `${s.param}=${paramText(s.param, p.values[i])}`).join(' ') || `#${point}`;
}

/**
 * A stat as the table writes it: the mean and its 95% interval, each to 3
 * significant digits (the result holds them to 3 decimals).
 * @param {Stat | undefined} s
 * @param {string} [lang]
 */
export function statText(s, lang = 'en') {
  if (!s || s.n === 0) return '–';
  const f = new Intl.NumberFormat(lang, { maximumSignificantDigits: 3 });
  return s.lo === s.hi ? f.format(s.mean) : `${f.format(s.mean)} [${f.format(s.lo)}–${f.format(s.hi)}]`;
}

export class LeaseLab extends HTMLElement {
  static observedAttributes = ['lang', 'name'];

  /** @type {ReturnType<typeof buildUI> | null} */
  #ui = null;
  /** the story's heading level (outline.js headingLevel), fixed when the element is built */
  #level = 2;
  #t = strings('en');
  /** @type {Result | null} */
  #result = null;
  /** the text the result on screen was run from (its stories replay it) */
  #ranText = '';
  /** @type {string | null} */
  #given = null;
  /** @type {AbortController | null} */
  #running = null;
  /** @type {AbortController | null} */
  #storyRun = null;
  /** @type {(() => void) | null} */
  #whenNear = null;
  #near = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) this.#arrived();
    },
    { rootMargin: `${NEAR_PX}px 0px` },
  );
  #textWatch = new MutationObserver(() => this.#load());
  /** @type {(() => void) | null} ends the watch on the page's scheme */
  #unwatchScheme = null;

  connectedCallback() {
    if (!this.#ui) this.#build();
    this.#unwatchScheme?.();
    this.#unwatchScheme = watchScheme(this, () => this.#applyScheme());
    this.#applyScheme();
    this.#textWatch.observe(this, { childList: true, characterData: true, subtree: true });
    this.#near.observe(this);
    if (!this.#result && !this.#running) this.#load();
  }

  disconnectedCallback() {
    this.#textWatch.disconnect();
    this.#near.disconnect();
    this.#unwatchScheme?.();
    this.#unwatchScheme = null;
    this.#running?.abort();
    this.#storyRun?.abort();
  }

  /** @param {string} _name @param {string | null} old @param {string | null} value */
  attributeChangedCallback(_name, old, value) {
    if (this.#ui && old !== value) this.#load();
  }

  get lang() {
    return this.getAttribute('lang') || '';
  }
  set lang(v) {
    this.#reflect('lang', v);
  }
  get name() {
    return this.getAttribute('name') || '';
  }
  set name(v) {
    this.#reflect('name', v);
  }
  /** The lab's text. */
  get text() {
    if (this.#given !== null) return this.#given;
    const script = this.querySelector(':scope > script[type="text/plain"]');
    return dedent((script || this).textContent || '');
  }
  set text(v) {
    this.#given = v === null || v === undefined ? null : dedent(String(v));
    if (this.#ui) this.#load();
  }
  /** The Result on screen (format leaselab-lab/1), or null. */
  get result() {
    return this.#result ? structuredClone(this.#result) : null;
  }

  #applyScheme() {
    const scheme = pageScheme(this);
    if (this.dataset.scheme !== scheme) this.dataset.scheme = scheme;
  }

  /** @param {string} k @param {unknown} v */
  #reflect(k, v) {
    if (v === null || v === undefined || v === '') this.removeAttribute(k);
    else this.setAttribute(k, String(v));
  }

  /** The element's parts (it is built once connected). */
  #parts() {
    if (!this.#ui) throw new Error('lease-lab: not connected yet');
    return this.#ui;
  }

  #lang() {
    return this.lang ? (this.lang.toLowerCase().startsWith('ko') ? 'ko' : 'en') : langOf(this);
  }

  #nameOf() {
    return this.name || 'lab.lab';
  }

  #build() {
    const root = this.attachShadow({ mode: 'open' });
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
    }
    root.adoptedStyleSheets = [sheet];
    this.#level = headingLevel(this);
    this.#ui = buildUI(this.#level);
    root.append(this.#ui.frame);
    this.#ui.runButton.addEventListener('click', () => this.#run(this.#ui?.editor.value || ''));
    this.#ui.cancel.addEventListener('click', () => this.#running?.abort());
    this.#ui.table.addEventListener('click', (e) => {
      const b = /** @type {Element} */ (e.target).closest('button[data-run]');
      if (b instanceof HTMLElement) this.openRun(Number(b.dataset.point), /** @type {Which} */ (b.dataset.run));
    });
    this.#ui.other.addEventListener('click', () => {
      const { point, which } = this.#ui?.other.dataset || {};
      this.openRun(Number(point), which === 'typical' ? 'typical' : 'worst');
    });
  }

  #arrived() {
    const f = this.#whenNear;
    this.#whenNear = null;
    f?.();
  }

  /** Draws the prerendered result, or runs the lab once it is near the viewport. */
  async #load() {
    const ui = this.#parts();
    const lang = this.#lang();
    this.#t = strings(lang);
    this.lang && this.setAttribute('lang', this.lang);
    applyWords(ui, this.#t);
    const text = this.text;
    ui.editor.value = text;
    const pre = await prerenderedLab(text, this.#nameOf(), lang, this.getAttribute('data-prerendered'));
    if (text !== this.text) return; // changed meanwhile: a later load draws it
    if (!this.isConnected) return; // removed meanwhile: connecting again loads it
    if (pre) {
      this.#ranText = text;
      this.#draw(pre.result, pre.svg, 'prerendered');
      ui.status.textContent = this.#t.lab.prerendered;
      return;
    }
    this.dataset.state = 'waiting';
    ui.status.textContent = this.#t.lab.waiting;
    this.#whenNear = () => this.#run(text);
    const r = this.getBoundingClientRect();
    if (r.top < innerHeight + NEAR_PX && r.bottom > -NEAR_PX) this.#arrived();
  }

  /**
   * Runs text on the engine (the explorer's worker), with progress and a
   * Cancel button, and draws its result.
   * @param {string} text
   */
  async #run(text) {
    const ui = this.#parts();
    const t = this.#t;
    this.#running?.abort();
    const stop = new AbortController();
    this.#running = stop;
    this.dataset.state = 'running';
    ui.progress.hidden = ui.cancel.hidden = false;
    ui.progress.removeAttribute('value');
    ui.runButton.disabled = true;
    ui.status.textContent = t.engineLoading;
    const lang = this.#lang();
    const t0 = performance.now();
    let total = 0;
    try {
      const { loadExplorer } = await import('./engine.js');
      const engine = await loadExplorer();
      ui.status.textContent = t.engineRunning;
      const raw = await engine.lab(text, {
        name: this.#nameOf(),
        signal: stop.signal,
        onProgress: (/** @type {{done: number, total: number}} */ p) => {
          total = p.total;
          ui.progress.max = p.total;
          ui.progress.value = p.done;
          ui.progress.setAttribute('aria-valuetext', t.lab.progress(p.done, p.total));
        },
      });
      const svg = await engine.labSVG(raw, lang);
      if (stop.signal.aborted) return;
      this.#ranText = text;
      this.#draw(raw, svg, 'engine');
      ui.status.textContent = t.lab.ranIn(total, ((performance.now() - t0) / 1000).toFixed(1));
    } catch (err) {
      if (stop.signal.aborted) {
        ui.status.textContent = t.lab.cancelled;
        if (!this.#result) this.dataset.state = 'waiting';
        else this.dataset.state = 'ready';
        return;
      }
      const e = /** @type {Error & {errors?: {line: number, col: number, msg: string}[]}} */ (err);
      const where = (e.errors || []).map((m) => (m.line ? `${m.line}:${m.col}: ${m.msg}` : m.msg)).join('\n');
      ui.status.textContent = t.lab.failed(where || e.message);
      this.dataset.state = 'error';
      this.dispatchEvent(new CustomEvent('error', { detail: { message: e.message, errors: e.errors || [] } }));
    } finally {
      if (this.#running === stop) {
        this.#running = null;
        ui.progress.hidden = ui.cancel.hidden = true;
        ui.runButton.disabled = false;
      }
    }
  }

  /**
   * Puts a result and its plot on screen.
   * @param {string} raw the Result as JSON
   * @param {string} svg its plot
   * @param {string} source prerendered or engine
   */
  #draw(raw, svg, source) {
    const ui = this.#parts();
    const t = this.#t;
    const r = /** @type {Result} */ (JSON.parse(raw));
    const lang = this.#lang();
    this.#result = r;
    const title = (lang === 'ko' && r.title.ko) || r.title.en || r.name;
    ui.title.textContent = title;
    const plot = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
    if (plot.tagName !== 'svg') throw new Error('lease-lab: the engine gave no SVG plot');
    const root = /** @type {SVGElement} */ (/** @type {unknown} */ (document.importNode(plot, true)));
    // Its points are controls: the plot is a group of them, not one image.
    root.setAttribute('role', 'group');
    root.setAttribute('aria-describedby', 'hint');
    const points = /** @type {SVGElement[]} */ ([...root.querySelectorAll('[data-point]')]);
    points.forEach((el, i) => {
      el.setAttribute('tabindex', i === 0 ? '0' : '-1');
      el.setAttribute('role', 'button');
      const words = el.querySelector('title')?.textContent || pointWhere(r, Number(el.dataset.point));
      el.setAttribute('aria-label', t.lab.pointLabel(words, true));
    });
    /** @param {Event} e */
    const pointOf = (e) => /** @type {Element} */ (e.target).closest('[data-point]');
    root.addEventListener('click', (e) => {
      const el = pointOf(e);
      if (el instanceof SVGElement) this.openRun(Number(el.dataset.point), 'worst');
    });
    root.addEventListener('keydown', (e) => {
      const el = pointOf(e);
      const i = points.indexOf(/** @type {SVGElement} */ (el));
      if (i < 0) return;
      const moves = {
        ArrowRight: i + 1,
        ArrowDown: i + 1,
        ArrowLeft: i - 1,
        ArrowUp: i - 1,
        Home: 0,
        End: points.length - 1,
      };
      const to = moves[/** @type {keyof typeof moves} */ (e.key)];
      if (to !== undefined) {
        const next = points[Math.max(0, Math.min(points.length - 1, to))];
        el?.setAttribute('tabindex', '-1');
        next.setAttribute('tabindex', '0');
        next.focus();
        e.preventDefault();
      } else if (e.key === 'Enter' || e.key === ' ') {
        this.openRun(Number(points[i].dataset.point), 'worst');
        e.preventDefault();
      }
    });
    ui.plot.replaceChildren(root);
    ui.table.replaceChildren(...tableOf(r, t, lang));
    this.dataset.state = 'ready';
    this.dataset.source = source;
    this.dataset.points = String(r.points.length);
    this.dispatchEvent(
      new CustomEvent('ready', { detail: { points: r.points.length, source }, bubbles: true, composed: true }),
    );
  }

  /**
   * Replays the worst (or typical) run behind a point on the engine and
   * shows it as a timeline below the plot.
   * @param {number} point from 0, as the result numbers its points
   * @param {Which} [which]
   */
  async openRun(point, which = 'worst') {
    const ui = this.#parts();
    const r = this.#result;
    const p = r?.points[point];
    if (!r || !p) return;
    const t = this.#t;
    const run = which === 'worst' ? p.worst : p.typical;
    ui.story.hidden = false;
    ui.storyTitle.textContent = t.lab.storyTitle(t.lab[which], pointWhere(r, point));
    const other = which === 'worst' ? 'typical' : 'worst';
    ui.other.textContent = t.lab[other];
    ui.other.dataset.point = String(point);
    ui.other.dataset.which = other;
    ui.storyTitle.focus();
    if (run < 0) {
      ui.storyStatus.textContent = t.lab.noRun(r.plot[0]);
      return;
    }
    this.#storyRun?.abort();
    const stop = new AbortController();
    this.#storyRun = stop;
    ui.storyStatus.textContent = t.lab.storyLoading;
    try {
      const { loadEngine } = await import('./engine.js');
      const engine = await loadEngine();
      const text = await engine.labStory(this.#ranText, { name: this.#nameOf(), point, run, signal: stop.signal });
      let tl = ui.story.querySelector('lease-timeline');
      if (!tl) {
        tl = document.createElement('lease-timeline');
        tl.setAttribute('height', '520');
        tl.setAttribute('heading-level', String(Math.min(this.#level + 1, 6)));
        ui.story.append(tl);
      }
      tl.setAttribute('name', `${this.#nameOf().replace(/\.lab$/, '')}-point${point}-run${run}.tl`);
      tl.setAttribute('lang', this.#lang());
      /** @type {any} */ (tl).text = text;
      ui.storyStatus.textContent = '';
      this.dispatchEvent(new CustomEvent('story', { detail: { point, run, which }, bubbles: true, composed: true }));
    } catch (err) {
      if (!stop.signal.aborted) ui.storyStatus.textContent = t.lab.failed(String(/** @type {Error} */ (err).message));
    }
  }
}

/**
 * The data table's caption, head and rows: a row a point, its swept
 * values, each plotted measure's mean and interval, and its runs.
 * @param {Result} r
 * @param {ReturnType<typeof strings>} t
 * @param {string} lang
 */
function tableOf(r, t, lang) {
  const metric = (/** @type {string} */ name) => r.metrics.find((m) => m.name === name);
  const label = (/** @type {string} */ name) => {
    const m = metric(name);
    return m ? t.lab.measure((lang === 'ko' && m.label.ko) || m.label.en, m.unit) : name;
  };
  const title = (lang === 'ko' && r.title.ko) || r.title.en || r.name;
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, t.lab.point),
    r.sweeps.map((s) => h('th', { scope: 'col' }, s.param)),
    r.plot.map((name) => h('th', { scope: 'col' }, label(name))),
    h('th', { scope: 'col' }, t.lab.runs),
  );
  const rows = r.points.map((p, i) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, String(i)),
      r.sweeps.map((s, k) => h('td', {}, paramText(s.param, p.values[k]))),
      r.plot.map((name) => h('td', {}, statText(p.stats[name], lang))),
      h(
        'td',
        {},
        h(
          'button',
          { type: 'button', 'data-run': 'worst', 'data-point': String(i), disabled: p.worst < 0 },
          t.lab.worst,
        ),
        ' ',
        h(
          'button',
          { type: 'button', 'data-run': 'typical', 'data-point': String(i), disabled: p.typical < 0 },
          t.lab.typical,
        ),
      ),
    ),
  );
  return [h('caption', {}, t.lab.tableCaption(title)), h('thead', {}, head), h('tbody', {}, rows)];
}

/**
 * The element's parts, built once.
 * @param {number} level the story's heading level
 */
function buildUI(level) {
  const title = h('p', { class: 'title' });
  const plot = h('div', { class: 'plot' });
  const table = h('table');
  const hint = h('p', { class: 'hint', id: 'hint' });
  const status = h('p', { class: 'status', role: 'status' });
  const progress = h('progress', { hidden: true });
  const runButton = h('button', { type: 'button' });
  const cancel = h('button', { type: 'button', hidden: true });
  const editor = h('textarea', { rows: 12, spellcheck: 'false', id: 'text' });
  const editLabel = h('label', { for: 'text' });
  const summary = h('summary');
  const storyTitle = h(headingTag(level), { class: 'story-title', tabindex: -1 });
  const storyStatus = h('p', { class: 'status', role: 'status' });
  const other = h('button', { type: 'button' });
  const story = h('section', { class: 'story', hidden: true }, storyTitle, other, storyStatus);
  const frame = h(
    'div',
    { part: 'frame' },
    title,
    h('div', { class: 'lab' }, plot, h('div', { class: 'data' }, table)),
    hint,
    h('div', { class: 'controls' }, progress, cancel),
    status,
    h('details', {}, summary, editLabel, editor, h('div', { class: 'controls' }, runButton)),
    story,
  );
  return {
    frame,
    title,
    plot,
    table,
    hint,
    status,
    progress,
    runButton,
    cancel,
    editor,
    editLabel,
    summary,
    story,
    storyTitle,
    storyStatus,
    other,
  };
}

/**
 * Puts the words of t on the parts that do not change with a result.
 * @param {ReturnType<typeof buildUI>} ui
 * @param {ReturnType<typeof strings>} t
 */
function applyWords(ui, t) {
  ui.hint.textContent = t.lab.plotHint;
  ui.runButton.textContent = t.lab.run;
  ui.cancel.textContent = t.lab.cancel;
  ui.editLabel.textContent = t.lab.textLabel;
  ui.summary.textContent = t.lab.edit;
}

/**
 * Registers the element under name (lease-lab by default), and
 * <lease-timeline>, which shows its stories; a name already taken is left
 * alone. Returns the class registered under the name.
 * @param {string} [name]
 * @returns {CustomElementConstructor}
 */
export function define(name = 'lease-lab') {
  defineTimeline();
  const known = customElements.get(name);
  if (known) return known;
  // A class is registered once: another name gets a subclass of its own.
  const cls = customElements.getName?.(LeaseLab) ? class extends LeaseLab {} : LeaseLab;
  customElements.define(name, cls);
  return cls;
}

define();

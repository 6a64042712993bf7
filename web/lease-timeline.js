// lease-timeline.js defines <lease-timeline>, a leaselab timeline embedded
// in any page by one script tag:
//
//   <script type="module" src="lease-timeline.js"></script>
//   <link rel="stylesheet" href="lease-timeline.css">   (the text before the script runs, and print)
//   <lease-timeline step="3">
//   # Late courier: the stale stamp is refused
//   lease 1000ms
//   job order-7 qty=2
//   0ms     A claim order-7     -> ok token=1
//   1000ms  B claim order-7     -> ok token=2
//   1001ms  A complete order-7  -> refused superseded
//   </lease-timeline>
//
// The timeline is the element's text, or the file src= names. Attributes:
//   show      which parts to draw, space-separated: lanes explain table sql
//             verdicts editor export (default "lanes explain table export";
//             a worksheet adds editor)
//   step      the step the cursor starts at (0: before the first)
//   autoplay  play once the trace is drawn
//   height    the element's height (a number of px, or a CSS length); it scrolls inside
//   theme     light, dark, or auto (the default: prefers-color-scheme)
//   lang      en or ko (default: the nearest lang attribute, or the page's)
//   mutant    a named mutant: worksheet mode, the correct and the broken
//             engine side by side, with the first step where they differ
//   name      the timeline's name in messages and exports (default: src's file name)
//
// Every element on a page shares one engine (engine.js), loaded when the
// first of them comes near the viewport; each run has an in-memory database
// of its own and each element its own cursor and clock. Until the engine
// has run, the element shows its timeline as text. It reflects its state on
// itself for the page's CSS and scripts: data-state (text, loading, ready,
// error), data-steps, data-cursor, and in a worksheet data-differs (yes or
// no), data-diff-step and data-diff-line. exportTrace(), exportSVG() and
// exportGoTest() return what the export buttons download.

import { h, ms, cursorTime, laneModel, tableAt, drawLanes, timeAt, drawTable, drawSQL, drawVerdicts, playStep, standaloneSVG } from './render.js';
import { strings, langOf } from './i18n.js';
import { loadEngine } from './engine.js';
import { timelineParams } from './share.js';

const here = new URL('.', import.meta.url);
const SHOW_DEFAULT = ['lanes', 'explain', 'table', 'export'];
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
const NEAR = Symbol('near');

async function styleSheet(file) {
  const r = await fetch(new URL(file, here));
  if (!r.ok) throw new Error(`${file}: HTTP ${r.status}`);
  const sheet = new CSSStyleSheet();
  await sheet.replace(await r.text());
  return sheet;
}

// The shared styles: parsed once, adopted by every element's shadow root.
let sharedSheets = [];
try {
  sharedSheets = await Promise.all([styleSheet('trace.css'), styleSheet('lease-timeline-shadow.css')]);
} catch (err) {
  console.warn('lease-timeline: styles not loaded:', err);
}

// One observer for all elements: the first that comes within 300 px of the
// viewport loads the engine; each runs its timeline when it comes near.
const near = new IntersectionObserver((entries) => {
  for (const e of entries) {
    if (e.isIntersecting) {
      near.unobserve(e.target);
      e.target[NEAR]();
    }
  }
}, { rootMargin: '300px 0px' });

/** The timeline text of an element's content: common indentation and blank edges removed. */
function dedent(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indents = lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n') + '\n';
}

/** The first comment line: the timeline's title, as the engine reads it. */
function titleOf(text) {
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l) continue;
    if (l.startsWith('#')) return l.replace(/^#+\s*/, '');
    if (!/^(lease|job)\b/.test(l)) return '';
  }
  return '';
}

function baseName(name) {
  return name.replace(/^.*\//, '').replace(/\.tl$/, '').replace(/[^\p{L}\p{N}_-]+/gu, '-') || 'timeline';
}

function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

const ICONS = {
  first: 'M6 5h2v14H6zM20 5v14l-10-7z',
  back: 'M16 5v14L6 12z',
  forward: 'M8 5v14l10-7z',
  last: 'M16 5h2v14h-2zM4 5v14l10-7z',
};

function icon(d) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  for (const [cls, path] of Object.entries(d)) {
    const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    p.setAttribute('d', path);
    if (cls !== '_') p.setAttribute('class', cls);
    svg.append(p);
  }
  return svg;
}

export class LeaseTimeline extends HTMLElement {
  static observedAttributes = ['lang', 'mutant', 'show', 'src', 'step', 'height', 'theme', 'name'];

  #built = false;
  #ui = null;
  #views = [];
  #t = strings('en');
  #lang = 'en';
  #text = '';
  #name = 'timeline.tl';
  #mutant = '';
  #engine = null;
  #nearSeen = false;
  #srcError = null; // why src= could not be read: nothing runs until it can
  #textReady = Promise.resolve(); // settles once the text (or src=) is read
  #seq = 0;
  #debounce = 0;

  #traces = [];     // the last good run: one trace, or [correct, mutant] in a worksheet
  #raw = '';        // its JSON as the engine gave it
  #models = [];
  #diff = null;     // the worksheet's first difference, or null
  #breaks = '';     // the rule the mutant breaks
  #cursor = 0;
  #clock = 0;
  #playing = false;
  #cancelStep = () => {};
  #sizeSheet = new CSSStyleSheet();
  #resize = null; // redraws the lanes at a new width

  connectedCallback() {
    if (!this.#built) this.#build();
    near.observe(this);
  }

  disconnectedCallback() {
    this.#pause();
    near.unobserve(this);
  }

  attributeChangedCallback(name, old, value) {
    if (!this.#built || old === value) return;
    switch (name) {
      case 'lang': this.#setLang(); this.#rerun(); break;
      case 'mutant': this.#mutant = value || ''; this.#applyShow(); this.#rerun(); break;
      case 'show': this.#applyShow(); this.#redraw(); break;
      case 'height': this.#applyHeight(); break;
      case 'step': this.#seek(this.#startStep()); break;
      case 'src': this.#textReady = this.#readText(); this.#rerun(); break;
      case 'name': this.#name = this.#nameOf(); this.#rerun(); break;
      default: break;
    }
  }

  // ---- the public exports ----

  /** The trace as JSON (a worksheet: both traces and their first difference). */
  async exportTrace() {
    if (!this.#raw) throw new Error('lease-timeline: nothing has run yet');
    return this.#raw;
  }

  /** The lanes as a standalone SVG file (a worksheet: both engines, one above the other). */
  async exportSVG() {
    const svgs = this.#views.map((v) => v.svg).filter((s) => s.viewBox.baseVal && s.viewBox.baseVal.width);
    if (svgs.length === 0) throw new Error('lease-timeline: nothing is drawn yet');
    if (svgs.length === 1) return standaloneSVG(svgs[0]);
    // Stack the views' files into one.
    let y = 0;
    let w = 0;
    const parts = svgs.map((s, i) => {
      const vb = s.viewBox.baseVal;
      const inner = standaloneSVG(s).replace(/^<\?xml[^>]*>\n/, '').replace('<svg ', `<svg y="${y + 22}" `);
      const label = `<text x="8" y="${y + 16}" font-family="sans-serif" font-size="13" font-weight="700">${this.#views[i].titleText.replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</text>`;
      y += vb.height + 30;
      w = Math.max(w, vb.width);
      return label + inner;
    });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${y}" viewBox="0 0 ${w} ${y}">${parts.join('')}</svg>\n`;
  }

  /** A Go test file that replays the timeline on the engine with its expectations. */
  async exportGoTest() {
    const engine = this.#engine || await loadEngine();
    return engine.goTest(this.#text, { name: this.#name });
  }

  // ---- building ----

  #build() {
    this.#built = true;
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [...sharedSheets, this.#sizeSheet];
    const btn = (cls, d) => h('button', { type: 'button', class: `icon ${cls}` }, icon(d));
    const ui = {
      frame: h('div', { class: 'lt', part: 'frame' }),
      title: h('p', { class: 'lt-title' }),
      summary: h('p', { class: 'lt-summary' }),
      status: h('p', { class: 'lt-status', role: 'status' }),
      sheet: h('div', { class: 'lt-sheet', hidden: true }),
      breaks: h('p', { class: 'lt-breaks' }),
      verdict: h('div', { class: 'lt-verdict', 'aria-live': 'polite' }),
      task: h('p', { class: 'lt-task' }),
      edit: h('div', { class: 'lt-edit', hidden: true }),
      editorLabel: h('span', { class: 'lt-label' }),
      editor: h('textarea', { spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', wrap: 'off', rows: 8 }),
      error: h('div', { class: 'lt-error', role: 'alert', hidden: true }),
      source: h('pre', { class: 'lt-source' }),
      views: h('div', { class: 'lt-views', hidden: true }),
      transport: h('div', { class: 'transport', role: 'group', hidden: true }),
      first: btn('first', { _: ICONS.first }),
      back: btn('back', { _: ICONS.back }),
      play: btn('primary play', { 'i-play': 'M7 4v16l13-8z', 'i-pause': 'M6 4h4v16H6zM14 4h4v16h-4z' }),
      forward: btn('forward', { _: ICONS.forward }),
      last: btn('last', { _: ICONS.last }),
      clock: h('output', { class: 'clock-value' }),
      count: h('span', { class: 'step-count' }),
      scrub: h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1 }),
      foot: h('div', { class: 'lt-foot' }),
      exportBox: h('span', { class: 'lt-export' }),
      exportLabel: h('span', { class: 'lt-label' }),
      exportJSON: h('button', { type: 'button', class: 'lt-link', 'data-export': 'json' }),
      exportSVG: h('button', { type: 'button', class: 'lt-link', 'data-export': 'svg' }),
      exportGo: h('button', { type: 'button', class: 'lt-link', 'data-export': 'go' }),
      open: h('a', { class: 'lt-open', target: '_blank', rel: 'noopener' }),
      final: h('section', { class: 'lt-final' }),
      finalTitle: h('h4', {}),
      finalTable: h('table', { class: 'jobs-table' }, h('thead', {}, h('tr')), h('tbody')),
    };
    this.#ui = ui;
    ui.sheet.append(ui.breaks, ui.verdict, ui.task);
    ui.edit.append(h('label', {}, ui.editorLabel, ui.editor), ui.error);
    ui.transport.append(ui.first, ui.back, ui.play, ui.forward, ui.last,
      h('div', { class: 'clock' }, ui.clock, ui.count),
      h('label', { class: 'scrub' }, ui.scrub));
    ui.exportBox.append(ui.exportLabel, ui.exportJSON, ui.exportSVG, ui.exportGo);
    ui.foot.append(ui.summary, ui.exportBox, ui.open);
    ui.final.append(ui.finalTitle, h('div', { class: 'table-scroll' }, ui.finalTable));
    ui.frame.append(
      h('div', { class: 'lt-head' }, ui.title, ui.status),
      ui.sheet, ui.edit, ui.source, ui.views, ui.transport, ui.foot, ui.final,
    );
    root.append(ui.frame);

    this.#mutant = this.getAttribute('mutant') || '';
    this.#setLang();
    this.#applyHeight();
    this.#wire();
    // Redraw the lanes when the width changes (their height follows the
    // drawing, so a change of height alone is not a reason).
    let width = 0;
    let frame = 0;
    this.#resize = new ResizeObserver((entries) => {
      const w = Math.round(entries[entries.length - 1].contentRect.width);
      if (w === width) return;
      width = w;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => this.#drawLanes());
    });
    this.#resize.observe(ui.frame);
    this.dataset.state = 'text';
    this.#textReady = this.#readText().then(() => this.#applyShow());
    // The author may change the text later.
    new MutationObserver(() => {
      if (this.hasAttribute('src')) return;
      const text = dedent(this.textContent);
      if (text !== this.#text) { this.#setText(text); this.#rerun(); }
    }).observe(this, { childList: true, characterData: true, subtree: true });
  }

  async #readText() {
    this.#name = this.#nameOf();
    const src = this.getAttribute('src');
    this.#srcError = null;
    if (!src) {
      this.#setText(dedent(this.textContent));
      return;
    }
    try {
      const r = await fetch(new URL(src, document.baseURI));
      if (!r.ok) throw new Error(`${src}: HTTP ${r.status}`);
      this.#setText(await r.text());
    } catch (err) {
      this.#srcError = err;
      this.#setText(dedent(this.textContent));
      this.#showError(err);
      this.dataset.state = 'error';
    }
  }

  #nameOf() {
    const given = this.getAttribute('name');
    if (given) return given;
    const src = this.getAttribute('src');
    return src ? src.replace(/[?#].*$/, '').replace(/^.*\//, '') || 'timeline.tl' : 'timeline.tl';
  }

  #setText(text) {
    this.#text = text;
    const ui = this.#ui;
    ui.source.textContent = text;
    if (ui.editor.value !== text) ui.editor.value = text;
    ui.editor.rows = Math.min(Math.max(text.split('\n').length, 6), 22);
    if (!this.#traces.length) ui.title.textContent = titleOf(text) || this.#t.timeline;
    this.#updateOpenLink();
  }

  #setLang() {
    this.#lang = langOf(this);
    const t = strings(this.#lang);
    this.#t = t;
    const ui = this.#ui;
    ui.frame.lang = this.#lang;
    ui.transport.setAttribute('aria-label', t.clock);
    ui.first.setAttribute('aria-label', t.first);
    ui.back.setAttribute('aria-label', t.back);
    ui.forward.setAttribute('aria-label', t.forward);
    ui.last.setAttribute('aria-label', t.last);
    ui.play.setAttribute('aria-label', this.#playing ? t.pause : t.play);
    ui.clock.setAttribute('aria-label', t.clock);
    ui.editorLabel.textContent = t.editorLabel;
    ui.exportLabel.textContent = `${t.exportLabel}:`;
    ui.exportJSON.textContent = t.exportJSON;
    ui.exportSVG.textContent = t.exportSVG;
    ui.exportGo.textContent = t.exportGo;
    ui.open.textContent = `${t.openSimulator} ↗`;
    ui.finalTitle.textContent = t.jobsFinal;
    ui.task.textContent = t.task;
    if (!this.#engine) ui.status.textContent = this.#nearSeen ? t.loading : t.waiting;
    this.#buildViews();
    this.#redraw();
  }

  #show() {
    const given = this.getAttribute('show');
    const set = new Set(given ? given.split(/[\s,]+/).filter(Boolean) : SHOW_DEFAULT);
    if (this.#mutant && !given) set.add('editor');
    return set;
  }

  #applyShow() {
    const show = this.#show();
    const ui = this.#ui;
    const ran = this.#traces.length > 0;
    ui.edit.hidden = !show.has('editor');
    ui.source.hidden = show.has('editor') || (ran && show.has('lanes'));
    ui.views.hidden = !ran;
    ui.transport.hidden = !ran;
    ui.exportBox.hidden = !show.has('export') || !ran;
    ui.sheet.hidden = !this.#mutant || !ran;
    for (const v of this.#views) {
      v.lanes.hidden = !show.has('lanes');
      v.explainBox.hidden = !show.has('explain');
      v.tablePanel.hidden = !show.has('table');
      v.sqlPanel.hidden = !show.has('sql');
      v.verdictsPanel.hidden = !show.has('verdicts');
      v.panels.hidden = !show.has('table') && !show.has('sql') && !show.has('verdicts');
    }
    this.classList.toggle('worksheet', Boolean(this.#mutant));
    ui.frame.classList.toggle('lt-worksheet', Boolean(this.#mutant));
  }

  #applyHeight() {
    const v = (this.getAttribute('height') || '').trim();
    let css = '';
    if (/^\d+(\.\d+)?$/.test(v)) css = `${v}px`;
    else if (/^\d+(\.\d+)?(px|em|rem|vh|svh|dvh|%)$/.test(v)) css = v;
    this.#sizeSheet.replaceSync(css ? `:host { height: ${css}; overflow: auto; }` : '');
  }

  #startStep() {
    const n = Number.parseInt(this.getAttribute('step') || '0', 10);
    return Number.isFinite(n) && n > 0 ? n : 0;
  }

  // A view is one engine's drawing: lanes, the step, the tables.
  #buildViews() {
    const t = this.#t;
    const count = this.#mutant ? 2 : 1;
    const views = [];
    for (let i = 0; i < count; i++) {
      const v = {
        root: h('section', { class: 'lt-view' }),
        title: h('h4', { class: 'lt-view-title' }),
        titleText: '',
        lanes: h('div', { class: 'lanes-scroll', tabindex: '0' }),
        svg: document.createElementNS('http://www.w3.org/2000/svg', 'svg'),
        legend: h('div', { class: 'legend', 'aria-hidden': 'true' },
          ...['sw-lease', 'sw-expire', 'sw-ok', 'sw-refused'].map((c, k) => h('span', {}, h('i', { class: `sw ${c}` }), t.legend[k]))),
        explainBox: h('div', { class: 'explain-box' }),
        stepSource: h('p', { class: 'step-source' }),
        explain: h('p', { class: 'explain', 'aria-live': i === 0 ? 'polite' : 'off', 'aria-atomic': 'true' }),
        expect: h('p', { class: 'expect', hidden: true }),
        panels: h('div', { class: 'lt-panels' }),
        tablePanel: h('section', { class: 'panel table-panel' }),
        jobsAt: h('span', { class: 'at' }),
        table: h('table', { class: 'jobs-table' }, h('thead', {}, h('tr')), h('tbody')),
        sqlPanel: h('section', { class: 'panel sql-panel' }),
        sql: h('ol', { class: 'sql' }),
        verdictsPanel: h('section', { class: 'panel verdicts-panel' }),
        verdicts: h('ul', { class: 'verdicts' }),
      };
      v.svg.setAttribute('class', 'lanes');
      v.svg.setAttribute('role', 'img');
      v.svg.setAttribute('focusable', 'false');
      v.lanes.append(v.svg, v.legend);
      v.explainBox.append(v.stepSource, v.explain, v.expect);
      v.tablePanel.append(h('h4', {}, 'jobs ', v.jobsAt), h('div', { class: 'table-scroll' }, v.table));
      v.sqlPanel.append(h('h4', { text: t.sqlTitle }), v.sql);
      v.verdictsPanel.append(h('h4', { text: t.verdictsTitle }), v.verdicts);
      v.panels.append(v.tablePanel, v.sqlPanel, v.verdictsPanel);
      if (count > 1) {
        v.root.classList.add(i === 0 ? 'lt-correct' : 'lt-mutant');
        v.root.append(v.title);
      }
      v.root.append(v.lanes, v.explainBox, v.panels);
      // One engine: the clock sits under its lanes. Two: above both.
      if (count === 1) v.lanes.after(this.#ui.transport);
      v.svg.addEventListener('click', (e) => this.#clickLanes(v, e));
      views.push(v);
    }
    this.#views = views;
    if (count > 1) this.#ui.views.before(this.#ui.transport);
    this.#ui.views.replaceChildren(...views.map((v) => v.root));
    this.#applyShow();
  }

  #wire() {
    const ui = this.#ui;
    ui.play.addEventListener('click', () => (this.#playing ? this.#pause() : this.#play()));
    ui.first.addEventListener('click', () => this.#seek(0));
    ui.back.addEventListener('click', () => this.#seek(this.#cursor - 1));
    ui.forward.addEventListener('click', () => this.#seek(this.#cursor + 1));
    ui.last.addEventListener('click', () => this.#seek(this.#steps()));
    ui.scrub.addEventListener('input', () => this.#seek(Number(ui.scrub.value)));
    ui.editor.addEventListener('input', () => {
      this.#text = ui.editor.value;
      ui.source.textContent = this.#text;
      this.#updateOpenLink();
      clearTimeout(this.#debounce);
      this.#debounce = setTimeout(() => this.#run(), 200);
    });
    ui.error.addEventListener('click', (e) => {
      const b = e.target.closest('button.linecol');
      if (b) this.#selectLineCol(Number(b.dataset.line), Number(b.dataset.col));
    });
    ui.verdict.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-step]');
      if (b) this.#seek(Number(b.dataset.step));
    });
    ui.foot.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-export]');
      if (b) this.#export(b.dataset.export);
    });
    ui.frame.addEventListener('keydown', (e) => this.#onKey(e));
  }

  #onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tgt = e.composedPath()[0];
    const tag = tgt && tgt.tagName;
    if (tag === 'TEXTAREA' || (tag === 'INPUT' && tgt.type !== 'range')) return;
    if (tag === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return;
    if (tag === 'INPUT' && ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    switch (e.key) {
      case ' ': this.#playing ? this.#pause() : this.#play(); break;
      case 'ArrowRight': this.#seek(this.#cursor + 1); break;
      case 'ArrowLeft': this.#seek(this.#cursor - 1); break;
      case 'Home': this.#seek(0); break;
      case 'End': this.#seek(this.#steps()); break;
      default: return;
    }
    e.preventDefault();
  }

  // ---- the engine ----

  [NEAR]() {
    this.#nearSeen = true;
    if (this.#engine) { this.#run(); return; }
    this.dataset.state = 'loading';
    this.#ui.status.textContent = this.#t.loading;
    loadEngine().then((engine) => {
      this.#engine = engine;
      return this.#run();
    }).catch((err) => {
      this.dataset.state = 'error';
      this.#ui.status.textContent = this.#t.unavailable(err.message);
    });
  }

  #rerun() {
    if (this.#engine && this.#nearSeen) this.#run();
  }

  async #run() {
    const engine = this.#engine;
    if (!engine) return;
    await this.#textReady;
    if (this.#srcError) {
      this.#ui.status.textContent = '';
      this.dataset.state = 'error';
      return;
    }
    const seq = ++this.#seq;
    const t = this.#t;
    const first = this.#traces.length === 0;
    this.#ui.status.textContent = t.running;
    const opts = { name: this.#name, lang: this.#lang };
    try {
      let raw;
      if (this.#mutant) {
        raw = await engine.worksheet(this.#text, { ...opts, mutant: this.#mutant });
        if (seq !== this.#seq) return;
        const w = JSON.parse(raw);
        const info = engine.mutants(this.#lang).find((m) => m.name === this.#mutant);
        this.#breaks = info ? info.breaks : '';
        this.#setTraces([w.correct, w.mutant], w.difference, raw);
      } else {
        raw = await engine.run(this.#text, opts);
        if (seq !== this.#seq) return;
        this.#setTraces([JSON.parse(raw)], null, raw);
      }
      this.#showError(null);
      this.#ui.status.textContent = '';
      this.dataset.state = 'ready';
      if (first && this.hasAttribute('autoplay')) this.#play();
    } catch (err) {
      if (seq !== this.#seq) return;
      this.#showError(err);
      this.#ui.status.textContent = '';
      if (first) this.dataset.state = 'error';
    }
  }

  #setTraces(traces, diff, raw) {
    const first = this.#traces.length === 0;
    if (traces.length !== this.#views.length) this.#buildViews();
    this.#traces = traces;
    this.#raw = raw;
    this.#diff = diff;
    this.#models = traces.map((tr) => laneModel(tr, this.#t));
    if (first) this.#cursor = this.#startStep();
    const n = this.#steps();
    this.#cursor = Math.min(this.#cursor, n);
    this.#clock = cursorTime(traces[0], this.#cursor);
    this.#ui.scrub.max = String(n);
    this.dataset.steps = String(n);
    const main = traces[0];
    this.#ui.title.textContent = main.title || titleOf(this.#text) || this.#t.timeline;
    if (this.#mutant) {
      this.dataset.differs = diff ? 'yes' : 'no';
      if (diff) {
        this.dataset.diffStep = String(diff.step + 1);
        this.dataset.diffLine = String(diff.line);
      } else {
        delete this.dataset.diffStep;
        delete this.dataset.diffLine;
      }
    }
    this.#applyShow();
    this.#drawFinal();
    this.#redraw();
  }

  #steps() {
    return this.#traces.length ? this.#traces[0].steps.length : 0;
  }

  // ---- drawing ----

  #redraw() {
    if (!this.#traces.length || !this.#ui) return;
    const t = this.#t;
    const ui = this.#ui;
    const c = this.#cursor;
    const n = this.#steps();
    this.dataset.cursor = String(c);
    ui.scrub.value = String(c);
    ui.clock.textContent = ms(Math.round(this.#clock));
    ui.count.textContent = t.stepOf(c, n);
    ui.scrub.setAttribute('aria-valuetext', c ? `${t.stepOf(c, n)}, ${ms(this.#traces[0].steps[c - 1].time)}` : t.start);
    ui.first.disabled = ui.back.disabled = c === 0;
    ui.forward.disabled = ui.last.disabled = c >= n;
    const sm = this.#traces[this.#traces.length > 1 ? 1 : 0].summary;
    ui.summary.textContent = this.#traces.length > 1 ? '' : t.summary(sm);
    ui.summary.className = `lt-summary ${sm.passed ? 'pass' : 'fail'}`;
    this.#views.forEach((v, i) => {
      const tr = this.#traces[i];
      if (!tr) return;
      const st = c > 0 ? tr.steps[c - 1] : null;
      v.titleText = i === 0 ? t.correctEngine : t.mutantEngine(this.#mutant);
      v.title.replaceChildren(v.titleText, h('span', { class: `lt-pass ${tr.summary.passed ? 'pass' : 'fail'}`, text: ` · ${t.summary(tr.summary)}` }));
      if (st) {
        v.stepSource.replaceChildren(h('span', { class: 'line-no', text: t.line(st.line) }), h('code', { text: st.source }));
        v.explain.textContent = t.stepExplain(c, n, ms(st.time), st.explain);
        drawTable(v.table, tableAt(tr, c), st.changed, st.time, t);
        drawSQL(v.sql, st.sql, t);
        drawVerdicts(v.verdicts, st.verdicts, t);
        v.jobsAt.textContent = t.jobsAt(c, ms(st.time));
        this.#drawExpect(v, st.expect);
      } else {
        v.stepSource.replaceChildren(h('span', { class: 'line-no', text: t.start }), h('code', { text: tr.title || tr.name }));
        v.explain.textContent = t.beforeFirst(n);
        drawTable(v.table, tr.start, [], 0, t);
        drawSQL(v.sql, tr.setup, t);
        drawVerdicts(v.verdicts, [], t);
        v.jobsAt.textContent = t.jobsAt(0, '');
        this.#drawExpect(v, null);
      }
      v.root.classList.toggle('at-diff', Boolean(this.#diff) && c === this.#diff.step + 1);
    });
    this.#drawVerdict();
    this.#drawLanes();
    this.#updateOpenLink();
  }

  #drawLanes() {
    if (!this.#traces.length) return;
    const mark = this.#diff ? this.#diff.step : -1;
    this.#views.forEach((v, i) => {
      if (!this.#traces[i] || v.lanes.hidden) return;
      const width = v.lanes.clientWidth || 600;
      drawLanes(v.svg, this.#traces[i], this.#models[i], this.#cursor, this.#clock, width, this.#t, mark);
    });
  }

  #drawExpect(v, ex) {
    if (!ex) { v.expect.hidden = true; return; }
    v.expect.hidden = false;
    v.expect.className = `expect ${ex.ok ? 'ok' : 'bad'}`;
    v.expect.textContent = ex.ok ? this.#t.expectOk(ex.text) : this.#t.expectBad(ex.expected, ex.got);
  }

  #drawFinal() {
    const tr = this.#traces[0];
    drawTable(this.#ui.finalTable, tr.final, [], Infinity, this.#t);
  }

  // The worksheet's verdict: where the engines part ways, or that they do not.
  #drawVerdict() {
    const ui = this.#ui;
    if (!this.#mutant || this.#traces.length < 2) return;
    const t = this.#t;
    ui.breaks.textContent = this.#breaks ? t.breaks(this.#breaks) : '';
    const d = this.#diff;
    ui.verdict.className = `lt-verdict ${d ? 'differs' : 'same'}`;
    if (!d) {
      ui.verdict.replaceChildren(h('p', { text: t.noDiff }));
      return;
    }
    const [a, b] = this.#traces.map((tr) => tr.steps[d.step]);
    const cells = d.cells.slice(0, 6).map((c) => h('li', {}, h('code', { text: `${c.job}.${c.column}` }), `: ${t.cellDiff(c.a || '—', c.b || '—')}`));
    ui.verdict.replaceChildren(...[
      h('p', {}, h('strong', { text: t.diffAt(d.step + 1, d.line) }), ' ', h('code', { text: d.source })),
      h('p', { class: 'lt-sides', text: t.sideBy(outcomeText(a), outcomeText(b)) }),
      h('p', { class: 'lt-aspects', text: d.aspects.map((k) => t.aspects[k] || k).join(', ') }),
      cells.length ? h('ul', { class: 'lt-cells' }, ...cells) : null,
      this.#cursor === d.step + 1 ? null : h('button', { type: 'button', class: 'lt-link', 'data-step': d.step + 1, text: t.goToStep(d.step + 1) }),
    ].filter(Boolean));
  }

  #updateOpenLink() {
    const p = timelineParams({ text: this.#text, name: this.#name, mutant: this.#mutant, lang: this.#lang, step: this.#cursor });
    this.#ui.open.href = `${new URL('index.html', here)}#${p}`;
  }

  // ---- the clock ----

  #seek(c, keepPlaying = false) {
    if (!this.#traces.length) return;
    if (!keepPlaying) this.#pause();
    this.#cursor = Math.max(0, Math.min(c, this.#steps()));
    this.#clock = cursorTime(this.#traces[0], this.#cursor);
    this.#redraw();
  }

  #play() {
    if (!this.#traces.length || this.#steps() === 0) return;
    if (this.#cursor >= this.#steps()) this.#seek(0);
    this.#playing = true;
    this.#ui.play.classList.add('playing');
    this.#ui.play.setAttribute('aria-label', this.#t.pause);
    this.#tick();
  }

  #pause() {
    this.#playing = false;
    this.#cancelStep();
    if (!this.#ui) return;
    this.#ui.play.classList.remove('playing');
    this.#ui.play.setAttribute('aria-label', this.#t.play);
  }

  #tick() {
    if (!this.#playing) return;
    if (this.#cursor >= this.#steps()) { this.#pause(); return; }
    const tr = this.#traces[0];
    this.#cancelStep = playStep({
      from: cursorTime(tr, this.#cursor),
      to: tr.steps[this.#cursor].time,
      speed: 1,
      reduced: reducedMotion.matches,
      onFrame: (clock) => {
        this.#clock = clock;
        this.#ui.clock.textContent = ms(Math.round(clock));
        this.#drawLanes();
      },
      onDone: () => {
        this.#seek(this.#cursor + 1, true);
        if (this.#cursor >= this.#steps()) this.#pause(); else this.#tick();
      },
    });
  }

  #clickLanes(v, e) {
    if (!this.#traces.length) return;
    const mark = e.target.closest('[data-step]');
    if (mark) { this.#seek(Number(mark.dataset.step)); return; }
    const at = timeAt(v.svg, e.clientX);
    let c = 0;
    this.#traces[0].steps.forEach((st, i) => { if (st.time <= at) c = i + 1; });
    this.#seek(c);
  }

  // ---- errors and exports ----

  #showError(err) {
    const ui = this.#ui;
    if (!err) {
      ui.error.hidden = true;
      ui.error.replaceChildren();
      ui.editor.removeAttribute('aria-invalid');
      return;
    }
    const list = Array.isArray(err.errors) && err.errors.length ? err.errors : [{ line: 0, col: 0, msg: err.message || String(err) }];
    ui.error.hidden = false;
    ui.editor.setAttribute('aria-invalid', 'true');
    const rows = list.slice(0, 4).map((e) => {
      const row = h('span', { class: 'err-row' });
      if (e.line) row.append(h('button', { type: 'button', class: 'linecol', 'data-line': e.line, 'data-col': e.col, text: `${e.line}:${e.col}` }), ' ');
      row.append(e.msg);
      return row;
    });
    if (this.#traces.length) rows.push(h('span', { class: 'err-keep', text: this.#t.errKeep }));
    ui.error.replaceChildren(...rows);
    if (!this.#show().has('editor')) ui.source.after(ui.error);
  }

  #selectLineCol(line, col) {
    const lines = this.#ui.editor.value.split('\n');
    let pos = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
    pos += Math.max(0, col - 1);
    this.#ui.editor.focus();
    this.#ui.editor.setSelectionRange(pos, pos);
  }

  async #export(kind) {
    const base = baseName(this.#name);
    try {
      switch (kind) {
        case 'json': download(`${base}.${this.#mutant ? 'worksheet' : 'trace'}.json`, await this.exportTrace(), 'application/json'); break;
        case 'svg': download(`${base}.svg`, await this.exportSVG(), 'image/svg+xml'); break;
        case 'go': download(`${base.replaceAll('-', '_')}_test.go`, await this.exportGoTest(), 'text/x-go'); break;
        default: break;
      }
    } catch (err) {
      this.#showError(err);
    }
  }
}

/** A step's outcome in the timeline's words: "ok token=2 lease_until=2000", "refused held". */
function outcomeText(st) {
  if (!st) return '';
  let out = st.outcome.kind + (st.outcome.reason ? ` ${st.outcome.reason}` : '');
  if (st.lease) out += ` token=${st.lease.token} lease_until=${st.lease.lease_until}`;
  if (st.receipt) out += ` delivered=${st.receipt.delivered} total=${st.receipt.total}`;
  return out;
}

if (!customElements.get('lease-timeline')) customElements.define('lease-timeline', LeaseTimeline);

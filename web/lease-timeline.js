// @ts-check
// lease-timeline.js defines <lease-timeline>, a leaselab timeline embedded
// in any page by one script tag:
//
//   <script type="module" src="lease-timeline.js"></script>
//   <link rel="stylesheet" href="lease-timeline.css">   (the text before the script runs, and print)
//   <lease-timeline step="3">
//   # Late courier: the stale token is refused
//   lease 1000ms
//   job order-7 qty=2
//   0ms     A claim order-7     -> ok token=1
//   1000ms  B claim order-7     -> ok token=2
//   1001ms  A complete order-7  -> refused superseded
//   </lease-timeline>
//
// The timeline is the element's text, or the file src= names, or a
// <script type="text/plain"> child's text (a framework's template keeps
// its whitespace, where it collapses an element's), or the text property.
// Attributes, each reflected by a property of the same name (step a
// number, autoplay and predict booleans, the others strings):
//   show      which parts to draw, space-separated: lanes explain table sql
//             verdicts editor export (default "lanes explain table export";
//             a worksheet adds editor)
//   step      the step the cursor starts at (0: before the first)
//   autoplay  play once the trace is drawn
//   predict   prediction mode (predict.js): the learner says what happens
//             at each step the timeline marks `-> ?` (or, with no mark, at
//             each step with an expectation) before it is shown; the lanes
//             draw nothing after the cursor
//   height    the element's height (a number of px, or a CSS length); it scrolls inside
//   theme     light, dark, or auto (the default: the page's scheme, as
//             <lease-lab> and <lease-exercise> take it — scheme.js pageScheme:
//             the site's switch where it sets one, else its text colour)
//   lang      en or ko (default: the nearest lang attribute, or the page's)
//   mutant    a named mutant: worksheet mode, the correct and the broken
//             engine side by side, with the first step where they differ
//   name      the timeline's name in messages and exports (default: src's file name)
//
// Its headings continue the page's outline at any level: its title is a
// role=heading one level below the nearest h1–h6 of the page before it
// (outline.js headingLevel; the attribute heading-level="1" to "6" sets
// it), and its views' titles, panels and final table are real headings
// one level below the title, the same size at every level.
//
// Every element on a page shares one engine (engine.js), loaded when the
// first of them comes near the viewport; each run has an in-memory database
// of its own and each element its own player (player.js): its own cursor
// and clock. Until the engine has run, the element shows its timeline as
// text; in prediction mode without what follows each `-> ?` mark (with no
// mark, without the expectations it will ask about: predict.js
// maskAnswers), and the editor waits for the run. It reflects its state on itself for the page's CSS and scripts:
// data-state (text, loading, ready, error), data-steps, data-cursor, and in
// a worksheet data-differs (yes or no), data-diff-step and data-diff-line;
// data-source says where the run on screen came from (prerendered, engine).
// An element that ends up with no timeline text (none inside it, only
// whitespace, an empty <pre>, an empty src= file) is in state error: it
// says so in place, warns once on the console naming itself, and runs
// once text is put in it.
// exportTrace(), exportSVG() and exportGoTest() return what the export
// buttons download.
//
// On a course site (leaselab.js), a timeline whose trace `leaselab
// prerender` computed ahead of time, or an npm plugin embedded in the
// element as the site was built (data-prerendered), is drawn from it at
// once, and the engine is fetched only when the reader asks for what no
// prerendered trace holds: an edit, another mutant, a Go test
// (prerendered.js).
//
// The API for the page around it (see the guide, guide.html):
//   events   ready   a run is on screen: detail {steps, cursor, source}
//            step    the cursor moved: detail {cursor, steps}
//            error   the text was refused, there is none, or the engine
//                    could not start:
//                    detail {line, col, message, errors} (does not bubble)
//            solved  a worksheet's reader wrote a timeline that tells the
//                    mutant apart: detail {mutant, step, line, text}
//            predicted  in prediction mode, the learner answered a
//                    question, its step now shown: detail {step (1-based),
//                    choice, answer, right, answered, questions}; answered
//                    equals questions once every question is answered
//            ready, step, solved and predicted bubble and cross shadow roots.
//   methods  play(), pause(), seek(n) (the cursor to step n), reset() (the
//            author's text again and the cursor where it started); called
//            before the first run, they wait for it. No method shares a
//            name with an attribute: React and Vue set a known name as a
//            property.
//   define(name?) registers the element (the module does it under
//            lease-timeline when it is free).
//
// Disconnected, the element keeps no listener nor observer on the page;
// connected again it takes them up.

import { ErrorView, fitRows } from './editor.js';
import { dedent } from './fences.js';
import { cspAdvice, langOf, strings, textLang } from './i18n.js';
import { headingLevel, headingTag } from './outline.js';
import { loadEngine, Player } from './player.js';
import { maskAnswers } from './predict.js';
import { courseEngine } from './prerendered.js';
import { h } from './render.js';
import { pageScheme, siteScheme, watchScheme } from './scheme.js';
import { timelineParams } from './share.js';

export { dedent, siteScheme };

/** @typedef {import('./player.js').Engine} Engine */

const here = new URL('.', import.meta.url);
const SHOW_DEFAULT = ['lanes', 'explain', 'table', 'export'];
const NEAR = Symbol('near');
/** How near the viewport a timeline runs, in px. */
const NEAR_PX = 300;

/** @param {string} file */
async function styleSheet(file) {
  const r = await fetch(new URL(file, here));
  if (!r.ok) throw new Error(`${file}: HTTP ${r.status}`);
  const sheet = new CSSStyleSheet();
  await sheet.replace(await r.text());
  return sheet;
}

// The shared styles: parsed once, adopted by every element's shadow root.
/** @type {CSSStyleSheet[]} */
let sharedSheets = [];
try {
  sharedSheets = await Promise.all([styleSheet('trace.css'), styleSheet('lease-timeline-shadow.css')]);
} catch (err) {
  console.warn('lease-timeline: styles not loaded:', err);
}

/** @param {Element} el */
function isNear(el) {
  const r = el.getBoundingClientRect();
  return (r.width > 0 || r.height > 0) && r.top < innerHeight + NEAR_PX && r.bottom > -NEAR_PX;
}

// The elements not yet near the viewport. The first that comes within
// NEAR_PX of it loads the engine; each runs its timeline when it comes near.
// The observer tells of most arrivals, but Chromium was seen (1 course page
// in 60, under test) to leave an element that layout moved into view
// unreported for good, its text saying "starts when this scrolls into view"
// while in view: so a scroll, a resize of the window or a change of the
// page's height (a timeline above drawn) also looks, once a frame, at the
// elements still waiting.
/** @type {Set<LeaseTimeline>} */
const waiting = new Set();
/** @param {LeaseTimeline} el */
function arrive(el) {
  waiting.delete(el);
  near.unobserve(el);
  el[NEAR]();
}
const near = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      const el = /** @type {LeaseTimeline} */ (e.target);
      if (e.isIntersecting && waiting.has(el)) arrive(el);
    }
  },
  { rootMargin: `${NEAR_PX}px 0px` },
);
let lookQueued = false;
function lookAtWaiting() {
  if (lookQueued || waiting.size === 0) return;
  lookQueued = true;
  requestAnimationFrame(() => {
    lookQueued = false;
    for (const el of [...waiting]) if (isNear(el)) arrive(el);
  });
}
addEventListener('scroll', lookAtWaiting, { passive: true, capture: true });
addEventListener('resize', lookAtWaiting, { passive: true });
new ResizeObserver(lookAtWaiting).observe(document.documentElement);

/**
 * The first comment line: the timeline's title, as the engine reads it.
 * @param {string} text
 */
export function titleOf(text) {
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l) continue;
    if (l.startsWith('#')) return l.replace(/^#+\s*/, '');
    if (!/^(lease|job|clock)\b/.test(l)) return '';
  }
  return '';
}

export class LeaseTimeline extends HTMLElement {
  static observedAttributes = ['lang', 'mutant', 'show', 'src', 'step', 'height', 'theme', 'name', 'predict'];

  /** @type {ReturnType<typeof buildChrome> | null} */
  #ui = null;
  /** @type {Player | null} */
  #player = null;
  /** @type {ErrorView | null} */
  #errors = null;
  #t = strings('en');
  #lang = 'en';
  #text = '';
  #name = 'timeline.tl';
  #mutant = '';
  /** @type {ReturnType<typeof courseEngine> | null} */
  #engine = null;
  /** the author's text (reset() puts it back) */
  #authored = '';
  #lastCursor = -1;
  #solved = false;
  /** what play(), seek(n) and reset() asked before the first run */
  #pending = { play: false, step: /** @type {number | null} */ (null) };
  #nearSeen = false;
  /** whether the console was told the element holds no timeline */
  #warnedEmpty = false;
  /** @type {Error | null} why src= could not be read: nothing runs until it can */
  #srcError = null;
  #textReady = Promise.resolve(); // settles once the text (or src=) is read
  #debounce = 0;
  #sizeSheet = new CSSStyleSheet();
  #schemeSheet = new CSSStyleSheet();
  #schemeCSS = '';
  /** the element's own text changing (the author's script) */
  #textWatch = new MutationObserver(() => this.#textChanged());
  /** @type {(() => void) | null} ends the watch on the site's scheme (its dark-mode switch) */
  #unwatchScheme = null;
  /** @type {string | null} a text given by the text property (over the element's) */
  #given = null;

  constructor() {
    super();
    // A framework may set a property before the element is defined: it
    // then sits on the instance, over the accessor; set it again through it.
    for (const k of PROPERTIES) {
      if (Object.hasOwn(this, k)) {
        const v = /** @type {any} */ (this)[k];
        delete (/** @type {any} */ (this)[k]);
        /** @type {any} */ (this)[k] = v;
      }
    }
  }

  connectedCallback() {
    if (!this.#ui) this.#build();
    else this.#player?.connect();
    this.#textWatch.observe(this, { childList: true, characterData: true, subtree: true });
    this.#unwatchScheme?.();
    this.#unwatchScheme = watchScheme(this, () => this.#applyScheme());
    this.#applyScheme();
    // Near the viewport already (the first timelines of a page): run now,
    // not a frame later when the observer would say so.
    if (isNear(this)) this[NEAR]();
    else {
      waiting.add(this);
      near.observe(this);
    }
  }

  disconnectedCallback() {
    this.#player?.disconnect();
    this.#textWatch.disconnect();
    this.#unwatchScheme?.();
    this.#unwatchScheme = null;
    clearTimeout(this.#debounce);
    waiting.delete(this);
    near.unobserve(this);
  }

  /**
   * @param {string} name
   * @param {string | null} old
   * @param {string | null} value
   */
  attributeChangedCallback(name, old, value) {
    if (!this.#ui || old === value) return;
    const changes = {
      lang: () => this.#setLang(),
      mutant: () => {
        this.#mutant = value || '';
        this.#applyShow();
      },
      show: () => this.#applyShow(),
      height: () => this.#applyHeight(),
      step: () => this.#player?.seek(this.#startStep()),
      src: () => {
        this.#textReady = this.#readText();
      },
      name: () => {
        this.#name = this.#nameOf();
      },
      theme: () => this.#applyScheme(),
      predict: () => {
        this.#player?.setPredict(value !== null);
        this.#showSource();
        this.#applyShow();
      },
    };
    changes[/** @type {keyof typeof changes} */ (name)]?.();
    if (['lang', 'mutant', 'src', 'name'].includes(name)) this.#rerun();
  }

  // ---- the public exports ----

  /** The trace as JSON (a worksheet: both traces and their first difference). */
  exportTrace() {
    return this.#playerOrThrow().exportTrace();
  }

  /** The lanes as a standalone SVG file (a worksheet: both engines, one above the other). */
  exportSVG() {
    return this.#playerOrThrow().exportSVG();
  }

  /** A Go test file that replays the timeline on the engine with its expectations. */
  async exportGoTest() {
    const engine = this.#engine || (await loadEngine());
    return engine.goTest(this.#text, { name: this.#name });
  }

  #playerOrThrow() {
    if (!this.#player) throw new Error(`lease-timeline: ${this.#t.nothingRun}`);
    return this.#player;
  }

  // ---- building ----

  #build() {
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [...sharedSheets, this.#sizeSheet, this.#schemeSheet];
    const ui = buildChrome();
    this.#ui = ui;
    root.append(ui.frame);
    this.#mutant = this.getAttribute('mutant') || '';
    this.#t = strings(langOf(this));
    // The element is a region named by its title, a heading one level
    // below the host's (heading-level="N" sets it); its panels one below.
    const level = titleLevel(this);
    ui.title.setAttribute('aria-level', String(level));
    this.#player = new Player(ui.frame, {
      t: this.#t,
      show: this.#show(),
      heading: /** @type {'h3'} */ (headingTag(level, 1)),
      onChange: (p) => this.#reflect(p),
      onAnswer: (a) => this.#emit('predicted', a, true),
      predict: this.hasAttribute('predict'),
      goTest: (text, name) => this.#goTest(text, name),
      onError: (err) => this.#showError(err),
      openTimeline: (text) => this.#openFound(text),
      apply: (text) => this.#apply(text),
    });
    ui.head.after(this.#player.parts.sheet);
    this.#player.parts.foot.append(ui.open);
    this.#errors = new ErrorView(ui.error, ui.editor);
    this.#setLang();
    this.#applyHeight();
    this.#wire(ui);
    this.dataset.state = 'text';
    this.#textReady = this.#readText().then(() => this.#applyShow());
  }

  /** The author changed the element's text (or its text/plain script's). */
  #textChanged() {
    if (this.hasAttribute('src') || this.#given !== null) return;
    const text = this.#ownText();
    if (text !== this.#authored) {
      this.#setAuthored(text);
      this.#rerun();
    }
  }

  /** The element's own text: a <script type="text/plain"> child's, else its text, dedented. */
  #ownText() {
    const script = [...this.children].find(
      (c) => c.tagName === 'SCRIPT' && /** @type {HTMLScriptElement} */ (c).type === 'text/plain',
    );
    return dedent((script || this).textContent || '');
  }

  /**
   * Takes theme="light|dark", else (auto, or absent) the page's scheme as
   * <lease-lab> and <lease-exercise> take it (scheme.js pageScheme, from the
   * text the element sits in: its own is the player's ink), and says it in
   * data-scheme.
   */
  #applyScheme() {
    const theme = this.getAttribute('theme');
    const around = this.parentElement ?? /** @type {ShadowRoot} */ (this.getRootNode()).host ?? this;
    const scheme = theme === 'light' || theme === 'dark' ? theme : pageScheme(around);
    if (this.dataset.scheme !== scheme) this.dataset.scheme = scheme;
    // On screen only: in print a player is light whatever the site shows.
    const css = `@media screen { :host { color-scheme: ${scheme}; } }`;
    if (css === this.#schemeCSS) return;
    this.#schemeCSS = css;
    this.#schemeSheet.replaceSync(css);
  }

  /**
   * Takes a worksheet hint's timeline into the editor and runs it.
   * @param {string} text
   */
  #openFound(text) {
    const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
    ui.editor.value = text;
    ui.editor.dispatchEvent(new Event('input'));
    ui.editor.focus();
  }

  /** @param {ReturnType<typeof buildChrome>} ui */
  #wire(ui) {
    ui.editor.addEventListener('input', () => {
      this.#text = ui.editor.value;
      this.#showSource();
      this.#updateOpenLink();
      clearTimeout(this.#debounce);
      this.#debounce = setTimeout(() => this.#run(), 200);
    });
    ui.frame.addEventListener('keydown', (e) => {
      // Esc leaves the editor for the lanes, where the player's keys work.
      const lanes = ui.frame.querySelector('.lanes-scroll');
      if (e.key === 'Escape' && e.composedPath()[0] === ui.editor && lanes instanceof HTMLElement) {
        lanes.focus();
        e.preventDefault();
        return;
      }
      this.#player?.handleKey(e);
    });
  }

  /**
   * Runs a text the player's break wrote (or its undo put back) on the
   * element's engine (the real one loads now if no prerendered trace
   * holds it) and, once it ran, makes it the element's text.
   * @param {string} text
   */
  async #apply(text) {
    const player = this.#player;
    this.#engine ??= courseEngine(this.getAttribute('data-prerendered'));
    const engine = this.#engine;
    if (!player) return /** @type {const} */ ({ status: 'stale' });
    clearTimeout(this.#debounce);
    const req = { text, name: this.#name, mutant: this.#mutant, lang: this.#lang, worksheet: true };
    const res = await player.runOn(/** @type {Engine} */ (/** @type {unknown} */ (engine)), req);
    if (res.status !== 'ran') return res;
    this.#setText(text);
    this.#errors?.clear();
    this.dataset.source = engine.source;
    this.#checkSolved();
    return res;
  }

  /** @param {string} text @param {string} name */
  async #goTest(text, name) {
    const engine = this.#engine || (await loadEngine());
    return engine.goTest(text, { name });
  }

  async #readText() {
    this.#name = this.#nameOf();
    const src = this.getAttribute('src');
    this.#srcError = null;
    if (this.#given !== null) {
      this.#setAuthored(this.#given);
      return;
    }
    if (!src) {
      this.#setAuthored(this.#ownText());
      return;
    }
    try {
      const r = await fetch(new URL(src, document.baseURI));
      if (!r.ok) throw new Error(`${src}: HTTP ${r.status}`);
      this.#setAuthored(await r.text());
    } catch (err) {
      this.#srcError = err instanceof Error ? err : new Error(String(err));
      this.#setAuthored(this.#ownText());
      this.#showError(this.#srcError);
      this.dataset.state = 'error';
    }
  }

  #nameOf() {
    const given = this.getAttribute('name');
    if (given) return given;
    const src = this.getAttribute('src');
    return src ? src.replace(/[?#].*$/, '').replace(/^.*\//, '') || 'timeline.tl' : 'timeline.tl';
  }

  /**
   * The author's text: the element's, or src='s (reset() puts it back).
   * @param {string} text
   */
  #setAuthored(text) {
    this.#authored = text;
    this.#setText(text);
  }

  /** @param {string} text */
  #setText(text) {
    this.#text = text;
    const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
    this.#showSource();
    if (ui.editor.value !== text) ui.editor.value = text;
    ui.editor.rows = fitRows(text, 6, 22);
    if (!this.#player?.run) this.#setTitle(titleOf(text) || this.#t.timeline);
    this.#updateOpenLink();
  }

  /**
   * Shows the text in the source view; in prediction mode without what
   * follows each `-> ?` mark (maskAnswers), so the text shown while the
   * engine loads tells no answer.
   */
  #showSource() {
    const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
    ui.source.textContent = this.hasAttribute('predict') ? maskAnswers(this.#text) : this.#text;
  }

  /**
   * Shows the story's title, marked with its own language (textLang) when
   * it is not the element's.
   * @param {string} title
   */
  #setTitle(title) {
    const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
    ui.title.textContent = title;
    const lang = textLang(title, this.#lang);
    if (lang) ui.title.lang = lang;
    else ui.title.removeAttribute('lang');
  }

  #setLang() {
    const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
    this.#lang = langOf(this);
    const t = strings(this.#lang);
    this.#t = t;
    ui.frame.lang = this.#lang;
    ui.editorLabel.textContent = t.editorLabel;
    ui.source.setAttribute('aria-label', t.editorText);
    ui.open.textContent = `${t.openSimulator} ↗`;
    if (!this.#engine) ui.status.textContent = this.#nearSeen ? t.loading : t.waiting;
    if (!this.#player?.run) this.#setTitle(titleOf(this.#text) || t.timeline);
    this.#player?.setWords(t);
  }

  /** The parts to show: show=, or the default (a worksheet adds the editor). */
  #show() {
    const given = this.getAttribute('show');
    const set = new Set(given ? given.split(/[\s,]+/).filter(Boolean) : SHOW_DEFAULT);
    if (this.#mutant && !given) set.add('editor');
    return set;
  }

  #applyShow() {
    const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
    const show = this.#show();
    const ran = Boolean(this.#player?.run);
    // The text a reader may have tabbed to before the first run is hidden
    // under the lanes now: focus follows to what takes its place, so it
    // never falls to the page's <body>.
    const focused = this.shadowRoot?.activeElement;
    // In prediction mode the editor, which holds the answers, waits for
    // the run: until then the source shows the text without them.
    const editor = show.has('editor') && (ran || !this.hasAttribute('predict'));
    ui.edit.hidden = !editor;
    ui.source.hidden = editor || (ran && show.has('lanes'));
    if (!editor) ui.source.after(ui.error);
    else ui.edit.append(ui.error);
    this.#player?.applyShow(show);
    if (focused === ui.source && ui.source.hidden) this.#focusInPlace(ui);
    this.classList.toggle('worksheet', Boolean(this.#mutant));
    ui.frame.classList.toggle('lt-worksheet', Boolean(this.#mutant));
  }

  /**
   * Focuses what shows the timeline now: the editor when it is shown, else
   * the lanes, else the frame.
   * @param {ReturnType<typeof buildChrome>} ui
   */
  #focusInPlace(ui) {
    const lanes = ui.frame.querySelector('.lanes-scroll');
    const target = !ui.edit.hidden
      ? ui.editor
      : lanes instanceof HTMLElement && lanes.checkVisibility()
        ? lanes
        : ui.frame;
    if (target === ui.frame) ui.frame.tabIndex = -1;
    target.focus({ preventScroll: true });
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

  // ---- the engine ----

  [NEAR]() {
    this.#nearSeen = true;
    if (!this.#engine) {
      const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
      this.dataset.state = 'loading';
      ui.status.textContent = this.#t.loading;
      this.#engine = courseEngine(this.getAttribute('data-prerendered'));
    }
    this.#run();
  }

  #rerun() {
    if (this.#engine && this.#nearSeen) this.#run();
  }

  async #run() {
    const engine = this.#engine;
    const player = this.#player;
    const ui = this.#ui;
    if (!engine || !player || !ui) return;
    await this.#textReady;
    if (this.#srcError) {
      ui.status.textContent = '';
      this.dataset.state = 'error';
      return;
    }
    const first = !player.run;
    // A fence fences.js could not read (data-fence-error): said, not run
    // as a trace of no step.
    const unreadable = this.dataset.fenceError;
    if (unreadable && this.#text === this.#authored) {
      ui.status.textContent = '';
      this.#failed(new Error(unreadable), first);
      return;
    }
    // No text at all (an empty element, an empty <pre>, an empty src=
    // file): said in place, not run as a trace of no step. While the page
    // is still parsed its children may yet come; the text's watch runs it
    // again when they do, and so does the end of parsing.
    if (!this.#text.trim() && this.#text === this.#authored) {
      ui.status.textContent = '';
      if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', () => this.#rerun(), { once: true });
        return;
      }
      this.#holdsNothing(first);
      return;
    }
    ui.status.textContent = this.#t.running;
    const req = { text: this.#text, name: this.#name, mutant: this.#mutant, lang: this.#lang, worksheet: true };
    if (first) Object.assign(req, { cursor: this.#startStep() });
    const res = await player.runOn(/** @type {Engine} */ (/** @type {unknown} */ (engine)), req);
    if (res.status === 'stale') return;
    ui.status.textContent = '';
    if (res.status === 'failed') {
      this.#failed(res.error, first);
      return;
    }
    this.#errors?.clear();
    this.#setTitle(player.run?.traces[0].title || titleOf(this.#text) || this.#t.timeline);
    this.#applyShow();
    this.dataset.state = 'ready';
    this.dataset.source = engine.source;
    this.#emit('ready', { steps: player.steps, cursor: player.cursor, source: engine.source }, true);
    this.#checkSolved();
    if (first) this.#afterFirstRun();
  }

  /**
   * Shows why a run failed and tells the page (the error event).
   * @param {any} err
   * @param {boolean} first whether no run is on screen
   */
  #failed(err, first) {
    const ui = /** @type {ReturnType<typeof buildChrome>} */ (this.#ui);
    if (err?.unavailable) {
      const csp = cspAdvice(String(err.message), this.#t);
      ui.status.textContent = this.#t.unavailable(err.message) + (csp ? ` ${csp}` : '');
      if (csp) this.dataset.blocked = 'csp';
    } else this.#showError(err);
    if (first || err?.unavailable) this.dataset.state = 'error';
    const errors = Array.isArray(err?.errors) ? err.errors : [{ line: 0, col: 0, msg: String(err?.message || err) }];
    const detail = { line: errors[0].line, col: errors[0].col, message: String(err?.message || err), errors };
    this.#emit('error', detail, false);
  }

  /**
   * Says the element holds no timeline, in place and (once) on the console
   * naming the element; it runs once it is given text.
   * @param {boolean} first whether no run is on screen
   */
  #holdsNothing(first) {
    const src = this.getAttribute('src') || '';
    if (!this.#warnedEmpty) {
      this.#warnedEmpty = true;
      const all = [...document.querySelectorAll(this.localName)];
      const which = this.id ? `#${this.id}` : `number ${all.indexOf(this) + 1}`;
      console.warn(`lease-timeline: ${which} on ${location.pathname}: ${strings('en').noTimeline(src)}`);
    }
    this.#failed(new Error(this.#t.noTimeline(src)), first);
  }

  /** Autoplay, and what play() and seek(n) asked before the first run. */
  #afterFirstRun() {
    const p = this.#pending;
    if (p.step !== null) this.#player?.seek(p.step);
    if (p.play || this.hasAttribute('autoplay')) this.#player?.play();
    this.#pending = { play: false, step: null };
  }

  /** A worksheet's solved event: the reader's text tells the mutant apart (once per solution). */
  #checkSolved() {
    const run = this.#player?.run;
    if (!this.#mutant || !run || run.traces.length < 2) return;
    const solved = Boolean(run.diff) && this.#text !== this.#authored;
    if (solved && !this.#solved && run.diff) {
      const d = run.diff;
      this.#emit('solved', { mutant: this.#mutant, step: d.step + 1, line: d.line, text: this.#text }, true);
    }
    this.#solved = solved;
  }

  /**
   * Dispatches a CustomEvent on the element.
   * @param {string} type
   * @param {object} detail
   * @param {boolean} bubbles whether it bubbles and crosses shadow roots
   */
  #emit(type, detail, bubbles) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles, composed: bubbles }));
  }

  // ---- the API for the page ----

  /** Plays from the cursor (once the first run is on screen). */
  play() {
    if (this.#player?.run) this.#player.play();
    else this.#pending.play = true;
  }

  /** Stops the clock where it is. */
  pause() {
    this.#pending.play = false;
    this.#player?.pause();
  }

  /**
   * Moves the cursor to step n (0: before the first step), clamped.
   * @param {number} n
   */
  seek(n) {
    const c = Math.trunc(Number(n)) || 0;
    if (this.#player?.run) this.#player.seek(c);
    else this.#pending.step = c;
  }

  /** Pauses, puts the author's text back if the reader edited it, and moves the cursor where it started. */
  reset() {
    this.pause();
    this.#pending.step = null;
    if (this.#text !== this.#authored) {
      this.#setText(this.#authored);
      this.#rerun();
    }
    const start = this.#startStep();
    if (this.#player?.run) this.#player.seek(start);
  }

  // ---- the properties: each attribute's, and the text ----

  /** The step the cursor starts at (the step attribute); 0 when absent. */
  get step() {
    return this.#startStep();
  }
  set step(v) {
    this.#reflectAttr('step', v);
  }
  /** The parts shown (the show attribute). */
  get show() {
    return this.getAttribute('show') || '';
  }
  set show(v) {
    this.#reflectAttr('show', v);
  }
  /** A worksheet's mutant (the mutant attribute). */
  get mutant() {
    return this.getAttribute('mutant') || '';
  }
  set mutant(v) {
    this.#reflectAttr('mutant', v);
  }
  /** The timeline's name in messages and exports (the name attribute). */
  get name() {
    return this.getAttribute('name') || '';
  }
  set name(v) {
    this.#reflectAttr('name', v);
  }
  /** The element's height (the height attribute). */
  get height() {
    return this.getAttribute('height') || '';
  }
  set height(v) {
    this.#reflectAttr('height', v);
  }
  /** light, dark or auto (the theme attribute; absent: auto). */
  get theme() {
    const v = this.getAttribute('theme');
    return v === 'light' || v === 'dark' ? v : 'auto';
  }
  set theme(v) {
    this.#reflectAttr('theme', v);
  }
  /** The file the text is read from (the src attribute). */
  get src() {
    return this.getAttribute('src') || '';
  }
  set src(v) {
    this.#reflectAttr('src', v);
  }
  /** Whether it asks the learner before each marked step (the predict attribute). */
  get predict() {
    return this.hasAttribute('predict');
  }
  set predict(v) {
    this.toggleAttribute('predict', Boolean(v));
  }
  /** Whether it plays once drawn (the autoplay attribute). */
  get autoplay() {
    return this.hasAttribute('autoplay');
  }
  set autoplay(v) {
    this.toggleAttribute('autoplay', Boolean(v));
  }
  /**
   * The author's timeline. Set, it replaces the element's text (and its
   * whitespace is kept as given: a framework's way to pass it); null
   * gives the element's text back.
   */
  get text() {
    return this.#ui ? this.#authored : (this.#given ?? this.#ownText());
  }
  set text(v) {
    this.#given = v === null || v === undefined ? null : dedent(String(v));
    if (!this.#ui) return;
    this.#textReady = this.#readText();
    this.#rerun();
  }

  /**
   * Sets attribute name to v; null, undefined or false removes it.
   * @param {string} name
   * @param {unknown} v
   */
  #reflectAttr(name, v) {
    if (v === null || v === undefined || v === false) this.removeAttribute(name);
    else this.setAttribute(name, String(v));
  }

  /** @param {any} err */
  #showError(err) {
    this.#errors?.show(err, { kept: Boolean(this.#player?.run), t: this.#t });
  }

  /**
   * Reflects the player's state on the element.
   * @param {Player} p
   */
  #reflect(p) {
    this.dataset.cursor = String(p.cursor);
    this.dataset.steps = String(p.steps);
    if (p.cursor !== this.#lastCursor) {
      this.#lastCursor = p.cursor;
      this.#emit('step', { cursor: p.cursor, steps: p.steps }, true);
    }
    const run = p.run;
    if (this.#mutant && run && run.traces.length > 1) {
      this.dataset.differs = run.diff ? 'yes' : 'no';
      if (run.diff) {
        this.dataset.diffStep = String(run.diff.step + 1);
        this.dataset.diffLine = String(run.diff.line);
      } else {
        delete this.dataset.diffStep;
        delete this.dataset.diffLine;
      }
    }
    this.#updateOpenLink();
  }

  #updateOpenLink() {
    const ui = this.#ui;
    if (!ui) return;
    const step = this.#player?.cursor ?? 0;
    const p = timelineParams({ text: this.#text, name: this.#name, mutant: this.#mutant, lang: this.#lang, step });
    ui.open.href = `${new URL('index.html', here)}#${p}`;
  }
}

/**
 * The level of the element's title: its heading-level attribute (1 to 6),
 * else one below the nearest heading before it in the host page
 * (outline.js headingLevel).
 * @param {HTMLElement} el
 */
export function titleLevel(el) {
  const given = Number(el.getAttribute('heading-level'));
  if (Number.isInteger(given) && given >= 1 && given <= 6) return given;
  return headingLevel(el);
}

/** The element's own parts around its player: the header, the editor, the source, the link out. */
function buildChrome() {
  const ui = {
    frame: h('div', { class: 'lt', part: 'frame', role: 'region', 'aria-labelledby': 'lt-title' }),
    head: h('div', { class: 'lt-head' }),
    title: h('p', { class: 'lt-title', translate: 'no', role: 'heading', id: 'lt-title' }),
    status: h('p', { class: 'lt-status', role: 'status' }),
    edit: h('div', { class: 'lt-edit', hidden: true }),
    editorLabel: h('span', { class: 'lt-label' }),
    editor: h('textarea', {
      spellcheck: 'false',
      autocapitalize: 'off',
      autocomplete: 'off',
      wrap: 'soft',
      rows: 8,
      translate: 'no',
    }),
    error: h('div', { class: 'lt-error', role: 'alert', hidden: true }),
    source: h('pre', { class: 'lt-source', translate: 'no', tabindex: 0, role: 'region' }),
    open: h('a', { class: 'lt-open', target: '_blank', rel: 'noopener' }),
  };
  ui.head.append(ui.title, ui.status);
  ui.edit.append(h('label', {}, ui.editorLabel, ui.editor), ui.error);
  ui.frame.append(ui.head, ui.edit, ui.source);
  return ui;
}

/** The properties that reflect an attribute (and text). */
const PROPERTIES = ['step', 'show', 'mutant', 'name', 'height', 'theme', 'src', 'autoplay', 'text'];

/**
 * Registers the element under name (lease-timeline by default), for a host
 * that registers its elements itself; a name already taken is left alone.
 * Returns the class registered under the name.
 * @param {string} [name]
 * @returns {CustomElementConstructor}
 */
export function define(name = 'lease-timeline') {
  const known = customElements.get(name);
  if (known) return known;
  // A class is registered once: another name gets a subclass of its own.
  const cls = customElements.getName?.(LeaseTimeline) ? class extends LeaseTimeline {} : LeaseTimeline;
  customElements.define(name, cls);
  return cls;
}

define();

// @ts-check
// app.js is the simulator page: the player (player.js) with the editor and
// the page's chrome around it — the story picker, the engine (mutant) and
// language selects, the engine's status line, the Share / Embed and Keys
// dialogs and the URL hash. It draws the library's trace computed ahead of
// time (web/traces/, by make wasm) at once, loads the engine in the
// background, runs the timeline again on it (the status line says whether
// the bytes are the same) and whenever the reader edits. The engine
// decides every outcome; the page only asks and draws.

import { ErrorView, fitRows, lineCount } from './editor.js';
import { ExplorePanel } from './explore-panel.js';
import { decodeRun, inflateParam, RUN_BYTES, RunError } from './grade-run.js';
import { HistoryView } from './history-view.js';
import { parts, pickLang, strings, textLang } from './i18n.js';
import { isTextEntry, isUndoKey, loadEngine, Player, runSoon } from './player.js';
import { h } from './render.js';
import { b64urlDecode, elementSnippet, findTimeline, iframeSnippet, timelineParams } from './share.js';

/** @typedef {import('./player.js').Engine} Engine */
/** @typedef {import('./i18n.js').Strings} Strings */
/** @typedef {import('./grade-run.js').StudentRun} StudentRun */
/** @typedef {import('./history-view.js').Drawing} Drawing */
/** @typedef {{name: string, title: string, text: string, trace: string}} LibraryEntry */
/** @typedef {{text: string, name: string, mutant: string, lang: string}} RunRequest */
/**
 * A run sent to the engine before it was ready (askEarly).
 * @typedef {object} EarlyRun
 * @property {string} key the request, as JSON
 * @property {Promise<string>} answer the trace as JSON
 * @property {number} asked when it was sent (performance.now())
 * @property {number} answered when its answer came, 0 until then
 */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const ui = {
  picker: /** @type {HTMLSelectElement} */ ($('picker')),
  mutant: /** @type {HTMLSelectElement} */ ($('mutant')),
  lang: /** @type {HTMLSelectElement} */ ($('lang')),
  predict: /** @type {HTMLInputElement} */ ($('predict')),
  mutantNote: $('mutant-note'),
  editor: /** @type {HTMLTextAreaElement} */ ($('editor')),
  editorWrap: /** @type {HTMLElement} */ (document.querySelector('.editor-wrap')),
  fold: $('editor-fold'),
  sourceNote: $('source-note'),
  engineStatus: $('engine-status'),
  version: $('version'),
  keys: /** @type {HTMLDialogElement} */ ($('keys')),
  keysButton: $('keys-button'),
  share: /** @type {HTMLDialogElement} */ ($('share')),
  shareButton: $('share-button'),
  shareCopied: $('share-copied'),
};

const state = {
  /** @type {LibraryEntry[]} from traces/index.json */
  library: [],
  defaultName: '',
  name: '', // the source name the text runs under
  text: '',
  mutant: '',
  lang: 'en',
  t: strings('en'),
  /** @type {'ahead' | 'engine' | ''} where the run on screen came from: make wasm's native run, or the engine here */
  from: /** @type {'ahead' | 'engine' | ''} */ (''),
  /** @type {Engine | null} */
  engine: null,
  /** @type {{name: string, breaks: string}[]} the engine's mutants, with their rules in state.lang */
  mutants: [],
  runSeq: 0,
  /** @type {EarlyRun | null} the first run, asked for before the engine was ready (askEarly) */
  early: /** @type {EarlyRun | null} */ (null),
  readyAt: 0, // when the engine was ready (performance.now())
  /** @type {Error | null} why the link on screen cannot be opened, until another is */
  broken: /** @type {Error | null} */ (null),
  /** @type {number | null} the step a link asked for, until a run is on screen to go to it */
  wantCursor: /** @type {number | null} */ (null),
  folded: 0, // the lines of the text in the editor while it is folded, else 0
  /**
   * A grading report's run of the student's code (impl=): the parameter, the text it came with (the run
   * is shown while that text is), and what it read as.
   */
  impl: {
    param: '',
    text: '',
    run: /** @type {StudentRun | null} */ (null),
    error: /** @type {RunError | null} */ (null),
  },
  /**
   * A concurrent history's link (history=): the parameter, and what the view shows of it: the drawing, or the
   * message saying why there is none (error: a message of a failure, not of progress).
   */
  hist: {
    param: '',
    drawing: /** @type {Drawing | null} */ (null),
    message: /** @type {((t: Strings) => string) | null} */ (null),
    error: false,
  },
};

const historyView = new HistoryView();
document.querySelector('main.layout')?.prepend(historyView.root);

const errors = new ErrorView($('editor-error'), ui.editor, () => unfold());
const player = new Player($('player'), {
  t: state.t,
  show: new Set(['lanes', 'explain', 'table', 'sql', 'verdicts', 'export']),
  heading: 'h3',
  speed: true,
  fold: true,
  onChange: (p) => {
    reflect(p);
    writeHash();
  },
  goTest: async (text, name) => (await engineOrLoad()).goTest(text, { name }),
  onError: (err) => errors.show(err, { kept: true, t: state.t }),
  openTimeline: (text) => loadExplored(text, state.mutant),
  apply: (text) => applyText(text),
});

/**
 * Runs a text the player's break wrote (or its undo put back) and, once it
 * ran, makes it the editor's; a refused one leaves the editor's text alone.
 * @param {string} text
 */
async function applyText(text) {
  const engine = await engineOrLoad();
  clearTimeout(debounce);
  const res = await player.runOn(engine, { text, name: state.name, mutant: state.mutant, lang: state.lang });
  if (res.status !== 'ran') return res;
  state.runSeq++;
  state.text = text;
  setEditor(text);
  errors.clear();
  state.from = 'engine';
  shown();
  writeHash();
  return res;
}
$('summary-slot').replaceWith(player.parts.summary);

/**
 * Reflects what the player shows on its box, for the page's scripts and
 * tests: data-timeline (the name), data-lang (of the explanations),
 * data-steps and data-cursor.
 * @param {Player} p
 */
function reflect(p) {
  const d = $('player').dataset;
  d.timeline = p.name;
  d.lang = p.run ? p.run.traces[0].lang : '';
  d.steps = String(p.steps);
  d.cursor = String(p.cursor);
}

async function engineOrLoad() {
  return state.engine || loadEngine();
}

// ---- words ----

/**
 * Puts every word of the page in t's language: the elements that name a
 * catalogue key (data-i18n…), the title, the player and the dialogs.
 * @param {Strings} t
 */
function setWords(t) {
  state.t = t;
  document.documentElement.lang = t.lang;
  document.title = t.pageTitle;
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const text = /** @type {string} */ (t[/** @type {keyof Strings} */ (/** @type {HTMLElement} */ (el).dataset.i18n)]);
    el.replaceChildren(...parts(text, el.querySelector('code') || document.createTextNode('')));
  }
  for (const el of document.querySelectorAll('[data-i18n-aria-label]')) {
    el.setAttribute(
      'aria-label',
      String(t[/** @type {keyof Strings} */ (/** @type {HTMLElement} */ (el).dataset.i18nAriaLabel)]),
    );
  }
  for (const el of document.querySelectorAll('[data-i18n-content]')) {
    el.setAttribute(
      'content',
      String(t[/** @type {keyof Strings} */ (/** @type {HTMLElement} */ (el).dataset.i18nContent)]),
    );
  }
  player.setWords(t);
  drawStudent();
  drawHistory();
  drawFold();
  fillPicker();
  drawStartHere();
  fillMutants();
  drawSourceNote();
}

// ---- the URL hash: the timeline, the cursor and the engine settings ----

/** @param {string} name */
function libraryEntry(name) {
  return findTimeline(state.library, name);
}

/** Where the page is: the timeline (a library one as written, or its text), the engine, the language, the step. */
function whereWeAre() {
  const lib = libraryEntry(state.name);
  return {
    text: state.text,
    name: state.name,
    library: lib ? lib.text : null,
    mutant: state.mutant,
    lang: state.lang,
    step: player.cursor,
    impl: state.impl.text === state.text ? state.impl.param : '',
  };
}

/** A link longer than this is written after the frame, once for a burst of steps. */
const LONG_HASH = 8192;
let hashTimer = 0;

function writeHash() {
  clearTimeout(hashTimer);
  hashTimer = 0;
  const p = timelineParams(whereWeAre());
  if (!p.has('lang') && state.lang !== ownLang()) p.set('lang', state.lang);
  if (state.hist.param) p.set('history', state.hist.param);
  if (player.quiz.on) p.set('predict', '1');
  const hash = `#${p.toString()}`;
  if (location.hash === hash) return;
  // replaceState copies the whole URL: with a long timeline in the link,
  // every step would pay for it on the main thread. A link opened in the
  // meantime wins: the late write must not put back the hash it replaced
  // before its hashchange is read.
  if (hash.length > LONG_HASH) {
    const from = location.hash;
    hashTimer = window.setTimeout(() => {
      if (location.hash === from) history.replaceState(null, '', hash);
    }, 100);
  } else {
    history.replaceState(null, '', hash);
  }
}

/** What the hash asks for; text and name are absent when it names no timeline. */
function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  /**
   * @type {{text?: string, name?: string, unknown?: string, unreadable?: boolean, mutant: string, lang: string,
   *   cursor: number | null, impl: string, history: string, predict: boolean}}
   */
  const out = {
    predict: p.get('predict') === '1',
    mutant: p.get('mutant') || '',
    impl: p.get('impl') || '',
    history: p.get('history') ?? '',
    lang: pickLang(p.get('lang'), storedLang(), navigator.languages ?? []),
    cursor: null,
  };
  const lib = libraryEntry(p.get('t') || '');
  if (p.has('src')) {
    try {
      out.text = b64urlDecode(p.get('src') || '');
      out.name = p.get('name') || 'shared.tl';
    } catch {
      out.unreadable = true;
    }
  } else if (lib) {
    out.name = lib.name;
    out.text = lib.text;
  } else if (p.get('t')) {
    out.unknown = String(p.get('t'));
  }
  const step = Number.parseInt(p.get('step') || '', 10);
  out.cursor = Number.isFinite(step) && step >= 0 ? step : null;
  return out;
}

// ---- showing runs ----

/**
 * Reads a grading report's run of the student's code (impl=, for the
 * text on screen) and shows it beside the engine's, or why it is refused.
 * @param {string} param
 */
async function openImpl(param) {
  state.impl = { param, text: state.text, run: null, error: null };
  if (param) {
    try {
      const run = await decodeRun(param);
      if (state.impl.param !== param) return;
      state.impl.run = run;
    } catch (err) {
      if (state.impl.param !== param) return;
      state.impl.error = err instanceof RunError ? err : new RunError('malformed', String(err));
    }
  }
  drawStudent();
}

/**
 * Reads a concurrent history's link (history=), checks it on the engine
 * and draws it above the player, or says why it cannot; "" hides the view.
 * @param {string} param
 */
async function openHistory(param) {
  const hist = state.hist;
  Object.assign(hist, { param, drawing: null, message: null, error: false });
  const settle = (/** @type {Partial<typeof hist>} */ what) => {
    if (state.hist.param !== param) return;
    Object.assign(state.hist, what);
    drawHistory();
  };
  if (!param) return settle({});
  settle({ message: (t) => t.hist.checking });
  try {
    const text = await inflateParam(param, 'history');
    const engine = await engineOrLoad();
    if (!engine.history) throw new Error('this engine cannot check a history');
    const raw = await engine.history(text);
    settle({ drawing: JSON.parse(raw), message: null });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    /** @type {(t: Strings) => string} */
    let message = (t) => t.hist.engineFailed(msg);
    if (err instanceof RunError) {
      message = err.kind === 'tooLarge' ? (t) => t.hist.tooLarge(RUN_BYTES) : (t) => t.hist.malformed;
    } else if (err && typeof err === 'object' && 'line' in err && Number(err.line) > 0) {
      message = (t) => t.hist.badHistory(msg);
    }
    settle({ message, error: true });
  }
}

/** Draws the history's view in the page's words: its drawing, its message, or nothing. */
function drawHistory() {
  const hist = state.hist;
  if (!hist.param) historyView.hide();
  else if (hist.drawing) historyView.draw(hist.drawing, state.t);
  else if (hist.message) historyView.message(state.t, hist.message(state.t), hist.error);
}

/** Shows the student's run beside the engine's while the text on screen is the one it came with. */
function drawStudent() {
  const im = state.impl;
  if (!im.param || im.text !== state.text) {
    player.setStudent(null);
    return;
  }
  const t = state.t;
  const why = im.error ? (im.error.kind === 'tooLarge' ? t.implTooLarge(RUN_BYTES) : t.implMalformed) : '';
  player.setStudent(im.run, why);
}

/**
 * Shows the native trace of a library timeline, computed ahead of time.
 * @param {LibraryEntry} entry
 * @param {number | undefined} cursor
 */
async function showAhead(entry, cursor) {
  // The default timeline's trace is also at traces/default.json, which the page preloads.
  const url = entry.name === state.defaultName ? 'traces/default.json' : entry.trace;
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${entry.trace}: HTTP ${r.status}`);
  const raw = await r.text();
  player.text = entry.text;
  player.name = entry.name;
  drawStudent();
  player.load({ traces: [JSON.parse(raw)], raw, diff: null, mutant: '', breaks: '' }, { cursor });
  state.from = 'ahead';
  shown();
}

/** Marks the first trace drawn (ms since navigation) and says where the run came from. */
function shown() {
  drawSourceNote();
  const root = document.documentElement.dataset;
  if (root.firstTrace === undefined) root.firstTrace = String(Math.round(performance.now()));
}

function drawSourceNote() {
  const t = state.t;
  const run = player.run;
  if (!run) return;
  ui.sourceNote.textContent =
    state.from === 'ahead' ? t.aheadOfTime : state.mutant ? t.inBrowserMutant(state.mutant) : t.inBrowser;
}

/**
 * @param {string} text
 * @param {'loading' | 'running' | 'ready' | 'error'} kind
 */
function setEngineState(text, kind) {
  ui.engineStatus.textContent = text;
  document.body.dataset.engineView = kind;
}

/** @returns {RunRequest} what a run of the editor's text asks the engine */
function runRequest() {
  return { text: state.text, name: state.name, mutant: state.mutant, lang: state.lang };
}

/**
 * Sends the run of the text on screen to the engine before the engine is
 * ready (runSoon): its worker runs it as soon as it is up, and runNow
 * takes the answer instead of asking once the page has heard the engine
 * is ready. Measured on 2 cores, that round trip through the page's main
 * thread, busy drawing while it loads, put the engine's first trace
 * later.
 */
function askEarly() {
  if (state.engine || state.runSeq !== 0) return;
  const req = runRequest();
  /** @type {EarlyRun} */
  const early = { key: JSON.stringify(req), answer: runSoon(req.text, req), asked: performance.now(), answered: 0 };
  early.answer.then(
    () => {
      early.answered = performance.now();
    },
    () => {}, // runNow hears it
  );
  state.early = early;
}

/**
 * Takes the early run if it asked for req; an early run is taken once.
 * @param {RunRequest} req
 */
function takeEarlyRun(req) {
  const early = state.early;
  state.early = null;
  return early && early.key === JSON.stringify(req) ? early : null;
}

/** Runs the editor's text on the engine; the last good run stays on an error. */
async function runNow() {
  drawStudent();
  const t = state.t;
  const engine = state.engine;
  if (!engine) {
    setEngineState(t.engineLoadingEdit, 'loading');
    return;
  }
  const seq = ++state.runSeq;
  setEngineState(t.engineRunning, 'running');
  const ahead = state.from === 'ahead' ? player.run?.raw : undefined;
  const req = runRequest();
  const early = takeEarlyRun(req);
  const runner = early ? { ...engine, run: () => early.answer } : engine;
  const res = await player.runOn(runner, { ...req, cursor: state.wantCursor ?? undefined });
  if (res.status === 'stale' || seq !== state.runSeq) return;
  if (res.status === 'ran') state.wantCursor = null;
  if (res.status === 'failed') {
    errors.show(res.error, { kept: player.run !== null, t: state.t });
    setEngineState(state.t.engineReady, 'ready');
  } else {
    const verified = res.raw === ahead;
    errors.clear();
    state.from = 'engine';
    shown();
    // An early run's time is the engine's, from when it was both asked and up.
    const took = early ? early.answered - Math.max(early.asked, state.readyAt) : res.took;
    setEngineState(state.t.engineRan(Math.round(took), verified), 'ready');
    document.documentElement.dataset.lastRun = verified ? 'verified' : 'engine';
  }
  const root = document.documentElement.dataset;
  if (root.firstRun === undefined) root.firstRun = String(Math.round(performance.now()));
}

// ---- the engine ----

async function startEngine() {
  const started = performance.now();
  const engine = await loadEngine();
  state.readyAt = performance.now();
  document.documentElement.dataset.engineReady = String(Math.round(state.readyAt));
  ui.version.textContent = await engine.version;
  state.engine = engine;
  await fillMutants();
  ui.mutant.disabled = false;
  return performance.now() - started;
}

/** Fills the engine select with the correct engine and every mutant, and names the chosen one's broken rule. */
async function fillMutants() {
  const t = state.t;
  if (state.engine) state.mutants = await state.engine.mutants(state.lang);
  const known = state.mutants.some((m) => m.name === state.mutant);
  ui.mutant.replaceChildren(
    h('option', { value: '', text: t.correctEngineOption }),
    ...state.mutants.map((m) => h('option', { value: m.name, text: t.mutantOption(m.name) })),
  );
  ui.mutant.value = known ? state.mutant : '';
  // A broken engine on screen is never folded away.
  if (state.mutant) /** @type {HTMLDetailsElement} */ ($('engine-more')).open = true;
  const info = state.mutants.find((m) => m.name === state.mutant);
  ui.mutantNote.hidden = !info;
  ui.mutantNote.textContent = info ? t.mutantNote(info.breaks) : '';
}

// ---- the editor and the picker ----

/**
 * The first stories to play, in order, per language: a late worker's
 * stale complete, why a worker comes back late (a pause), when exactly a
 * lease ends, and why a token, not a name, tells a new claim from an old one.
 * @type {Record<string, string[]>}
 */
const START_HERE = {
  en: ['01-late-courier.tl', '11-kleppmann-fencing.tl', '03-lease-boundary.tl', '02-same-name-reclaim.tl'],
  ko: ['10-korean-courier.tl', '16-korean-kleppmann.tl', '03-lease-boundary.tl', '02-same-name-reclaim.tl'],
};

/**
 * The learner's tutorial, per language: the introduction links the
 * reader's.
 * @type {Record<string, string>}
 */
const TUTORIAL = { en: 'tutorial.html', ko: 'tutorial-ko.html' };

const INTRO_KEY = 'leaselab.intro';
const LANG_KEY = 'leaselab.lang';

/** The language the reader chose in the page's language select before, or null. */
function storedLang() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}

/** The language the page opens in when its link names none: the reader's choice, or the browser's. */
function ownLang() {
  return pickLang(null, storedLang(), navigator.languages ?? []);
}

/** Lists the Start here stories as links in the page's language, and links the tutorial and its glossary in it. */
function drawStartHere() {
  const t = state.t;
  $('intro-tutorial').setAttribute('href', TUTORIAL[t.lang] || TUTORIAL.en);
  $('intro-glossary').setAttribute('href', `${TUTORIAL[t.lang] || TUTORIAL.en}#glossary`);
  const names = START_HERE[t.lang] || START_HERE.en;
  $('start-list').replaceChildren(
    ...names
      .map((name) => libraryEntry(name))
      .filter((e) => e !== undefined)
      .map((e) => {
        const title = e.title || e.name;
        const href = `#t=${encodeURIComponent(e.name)}${t.lang === ownLang() ? '' : `&lang=${t.lang}`}`;
        return h('li', {}, h('a', { href, text: title, translate: 'no', lang: textLang(title, t.lang) }));
      }),
  );
}

/**
 * Shows or hides the introduction (remembered in this browser); focus
 * moves to what takes its place.
 * @param {boolean} on
 * @param {boolean} [remember]
 */
function showIntro(on, remember = false) {
  $('intro').hidden = !on;
  $('intro-show').hidden = on;
  if (!remember) return;
  try {
    if (on) localStorage.removeItem(INTRO_KEY);
    else localStorage.setItem(INTRO_KEY, 'hidden');
  } catch {
    // storage is off: the choice lasts for this visit
  }
  $(on ? 'intro-title' : 'lanes-title').focus();
}

/** Whether the reader hid the introduction before. */
function introHidden() {
  try {
    return localStorage.getItem(INTRO_KEY) === 'hidden';
  } catch {
    return false;
  }
}

function fillPicker() {
  const t = state.t;
  ui.picker.replaceChildren(
    ...state.library.map((e) =>
      h('option', {
        value: e.name,
        text: e.title || e.name,
        translate: 'no',
        lang: textLang(e.title || e.name, t.lang),
      }),
    ),
    h('option', { value: '', text: t.ownTimeline, disabled: true }),
  );
  syncPicker();
}

function syncPicker() {
  const lib = libraryEntry(state.name);
  ui.picker.value = lib && lib.text === state.text ? state.name : '';
}

/**
 * A text of more lines than this that a link brings arrives folded: a
 * textarea lays every line out at once when its text is set (2,500 lines
 * took 45 ms alone on 2 cores, twice that while the engine starts), and
 * the page would stall before the reader asked to see them.
 */
const FOLD_LINES = 1000;

/**
 * Puts text in the editor, folded (see FOLD_LINES) when fold is set and
 * the text is that long; the text in the editor already is left as it is.
 * @param {string} text
 * @param {{fold?: boolean}} [o]
 */
function setEditor(text, { fold = false } = {}) {
  // The same text (a link that changes only the engine or the language)
  // stays as the reader left it, folded or shown.
  if (ui.editor.value !== text) {
    const lines = lineCount(text);
    state.folded = fold && lines > FOLD_LINES ? lines : 0;
    drawFold(); // hidden first: a folded text is set without a layout
    ui.editor.value = text;
    ui.editor.rows = fitRows(text, 8, 26);
  }
  syncPicker();
}

/** Shows the editor, or in its place the note that its text is folded. */
function drawFold() {
  const t = state.t;
  ui.fold.hidden = state.folded === 0;
  ui.editorWrap.hidden = state.folded > 0;
  if (state.folded === 0) return;
  /** @type {HTMLElement} */ (ui.fold.firstElementChild).textContent = t.editorFolded(state.folded);
  /** @type {HTMLElement} */ (ui.fold.lastElementChild).textContent = t.showText;
}

/** Shows a folded text in the editor. */
function unfold() {
  state.folded = 0;
  drawFold();
}

/**
 * Turns the prediction mode on or off, the switch with it.
 * @param {boolean} on
 */
function setPredict(on) {
  ui.predict.checked = on;
  player.setPredict(on);
}

/**
 * Opens what the hash asks for (want, read from it): the first time, or
 * when a link changed it.
 * @param {boolean} initial
 * @param {ReturnType<typeof readHash>} want
 */
async function openFromHash(initial, want = readHash()) {
  openHistory(want.history);
  setPredict(want.predict);
  if (want.unknown !== undefined || want.unreadable) {
    if (initial) {
      state.lang = want.lang;
      ui.lang.value = state.lang;
      setWords(strings(state.lang));
    }
    player.pause();
    state.name = 'timeline.tl';
    state.text = '';
    setEditor('');
    state.broken = new Error(
      want.unknown !== undefined ? state.t.unknownTimeline(want.unknown) : state.t.unreadableTimeline,
    );
    errors.show(state.broken, { kept: false, t: state.t });
    return;
  }
  state.broken = null;
  const def = libraryEntry(state.defaultName) || state.library[0];
  state.name = want.name || (def ? def.name : 'timeline.tl');
  state.text = want.text ?? (def ? def.text : '');
  state.mutant = want.mutant;
  openImpl(want.impl);
  if (want.lang !== state.lang || initial) {
    state.lang = want.lang;
    ui.lang.value = state.lang;
    setWords(strings(state.lang));
  }
  await fillMutants();
  setEditor(state.text, { fold: true });
  const lib = libraryEntry(state.name);
  const asWritten = lib && lib.text === state.text;
  if (asWritten && (initial || !state.engine)) await showAhead(lib, want.cursor ?? undefined);
  else state.wantCursor = want.cursor;
  if (state.engine || !(asWritten && !state.mutant && state.lang === 'en')) runNow();
}

// ---- share and embed ----

function openShare() {
  const t = state.t;
  player.pause();
  writeHash();
  const args = {
    ...whereWeAre(),
    base: new URL('.', location.href),
    title: player.run ? player.run.traces[0].title : '',
    comment: t.frameComment,
  };
  /** @type {HTMLInputElement} */ ($('share-link')).value = location.href;
  /** @type {HTMLTextAreaElement} */ ($('share-element')).value = elementSnippet(args);
  /** @type {HTMLTextAreaElement} */ ($('share-iframe')).value = iframeSnippet(args);
  ui.shareCopied.textContent = '';
  ui.share.showModal();
}

/** @param {HTMLInputElement | HTMLTextAreaElement} field */
async function copy(field) {
  const t = state.t;
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select(); // no clipboard permission: the text is selected for the reader to copy
    if (!document.execCommand('copy')) {
      ui.shareCopied.textContent = t.copyByHand;
      return;
    }
  }
  const label = field.labels?.[0]?.textContent || '';
  ui.shareCopied.textContent = t.copied(label.split(':')[0]);
}

function toggleKeys() {
  if (ui.keys.open) ui.keys.close();
  else ui.keys.showModal();
}

// ---- events ----

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (isUndoKey(e) && !ui.share.open && !ui.keys.open && player.handleKey(e)) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.tagName === 'TEXTAREA' && e.key === 'Escape') {
    target.blur();
    $('lanes-title').focus();
    return;
  }
  if (isTextEntry(target) || ui.share.open) return;
  if (e.key === '?') {
    toggleKeys();
    e.preventDefault();
    return;
  }
  if (!ui.keys.open) player.handleKey(e);
}

let debounce = 0;

function wireEditing() {
  ui.editor.addEventListener('input', () => {
    state.text = ui.editor.value;
    syncPicker();
    clearTimeout(debounce);
    debounce = setTimeout(runNow, 180);
  });
  ui.picker.addEventListener('change', async () => {
    const lib = libraryEntry(ui.picker.value);
    if (!lib) return;
    player.pause();
    state.name = lib.name;
    state.text = lib.text;
    setEditor(lib.text);
    errors.clear();
    if (!state.engine && !state.mutant && state.lang === 'en') await showAhead(lib, 0);
    else {
      player.seek(0);
      runNow();
    }
  });
  ui.mutant.addEventListener('change', () => {
    state.mutant = ui.mutant.value;
    fillMutants();
    runNow();
  });
  ui.predict.addEventListener('change', () => {
    setPredict(ui.predict.checked);
    writeHash();
  });
  ui.lang.addEventListener('change', () => {
    state.lang = ui.lang.value;
    try {
      localStorage.setItem(LANG_KEY, state.lang);
    } catch {
      // storage is off: the choice lasts for this visit
    }
    setWords(strings(state.lang));
    runNow();
  });
}

/** Puts a timeline the explorer found in the editor, on the engine it tells apart, and runs it. */
function loadExplored(/** @type {string} */ text, /** @type {string} */ mutant) {
  player.pause();
  state.name = 'explored.tl';
  state.text = text;
  state.mutant = mutant;
  setEditor(text);
  fillMutants();
  runNow();
}

function wireChrome() {
  new ExplorePanel({
    words: () => state.t,
    mutants: async () => (await engineOrLoad()).mutants(state.lang),
    invariants: async () => (await engineOrLoad()).invariants(),
    load: loadExplored,
  });
  ui.fold.lastElementChild?.addEventListener('click', () => {
    unfold();
    ui.editor.focus();
  });
  const keysClose = $('keys-close');
  ui.keysButton.addEventListener('click', () => toggleKeys());
  keysClose.addEventListener('click', () => ui.keys.close());
  ui.keys.addEventListener('close', () => ui.keysButton.focus());
  ui.shareButton.addEventListener('click', () => openShare());
  $('share-close').addEventListener('click', () => ui.share.close());
  ui.share.addEventListener('close', () => ui.shareButton.focus());
  ui.share.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('button[data-copy]');
    if (b instanceof HTMLElement) copy(/** @type {HTMLInputElement} */ ($(b.dataset.copy || '')));
  });
  $('intro-hide').addEventListener('click', () => showIntro(false, true));
  $('intro-show').addEventListener('click', () => showIntro(true, true));
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', () => {
    clearTimeout(hashTimer); // the hash the page was about to write is no longer the one to keep
    hashTimer = 0;
    const want = readHash();
    const lib = libraryEntry(state.name);
    const sameText = want.text === undefined ? lib && lib.text === state.text : want.text === state.text;
    if (want.history !== state.hist.param) openHistory(want.history);
    if (want.predict !== player.quiz.on) setPredict(want.predict);
    if (sameText && want.mutant === state.mutant && want.lang === state.lang && want.impl === state.impl.param) {
      if (want.cursor !== null && want.cursor !== player.cursor) player.seek(want.cursor);
      return;
    }
    player.pause();
    openFromHash(false, want); // a long timeline's link is read once
  });
}

async function main() {
  setWords(state.t);
  wireEditing();
  wireChrome();
  // The engine starts at once, in its worker: its module downloads and
  // compiles while the page fetches the library and draws the trace
  // computed ahead of time.
  const engineStarted = startEngine();
  engineStarted.catch(() => {}); // answered below
  const r = await fetch('traces/index.json');
  if (!r.ok) {
    setEngineState(state.t.tracesMissing, 'error');
    return;
  }
  const index = await r.json();
  state.library = index.timelines;
  state.defaultName = index.default;
  // A first visit (no timeline in the link) opens with the introduction.
  const asked = new URLSearchParams(location.hash.slice(1));
  drawStartHere();
  showIntro(!asked.has('t') && !asked.has('src') && !asked.has('history') && !introHidden());
  await openFromHash(true);
  askEarly();
  try {
    const took = await engineStarted;
    setEngineState(state.t.engineLoaded((took / 1000).toFixed(1)), 'ready');
    // Run what is on screen again on the engine (unless opening it already
    // did): for a library timeline this shows the browser gives the same
    // bytes as the native run. It waits while the clock plays. A link
    // that cannot be opened has nothing to run: its message stays.
    while (player.playing) await new Promise((resolve) => setTimeout(resolve, 250));
    if (state.runSeq === 0 && !state.broken) await runNow();
  } catch (err) {
    setEngineState(state.t.engineUnavailable(err instanceof Error ? err.message : String(err)), 'error');
  }
}

main();

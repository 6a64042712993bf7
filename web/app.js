// app.js is the simulator page's driver: it loads the library and the trace
// computed ahead of time (so the page draws at once), loads the engine
// (leaselab.wasm, see wasm/sim) in the background, runs the timeline again
// on it whenever the reader edits, and plays the trace on a virtual clock.
// The engine decides every outcome; this file only asks and draws.

import { h, ms, cursorTime, laneModel, tableAt, drawLanes, timeAt, drawTable, drawSQL, drawVerdicts, playStep } from './render.js';
import { loadEngine as engine } from './engine.js';
import { b64urlDecode, timelineParams, elementSnippet, iframeSnippet } from './share.js';

const $ = (id) => document.getElementById(id);
const ui = {
  picker: $('picker'), mutant: $('mutant'), lang: $('lang'), mutantNote: $('mutant-note'),
  editor: $('editor'), error: $('editor-error'), summary: $('summary'),
  lanes: $('lanes'), lanesScroll: document.querySelector('.lanes-scroll'), sourceNote: $('source-note'),
  first: $('first'), back: $('back'), play: $('play'), forward: $('forward'), last: $('last'),
  clock: $('clock'), stepCount: $('step-count'), scrub: $('scrub'), speed: $('speed'),
  stepSource: $('step-source'), explain: $('explain'), expect: $('expect'),
  jobs: $('jobs'), jobsAt: $('jobs-at'), sql: $('sql'), verdicts: $('verdicts'),
  engineStatus: $('engine-status'), version: $('version'),
  keys: $('keys'), keysButton: $('keys-button'), keysClose: $('keys-close'),
  share: $('share'), shareButton: $('share-button'), shareClose: $('share-close'),
  shareLink: $('share-link'), shareElement: $('share-element'), shareIframe: $('share-iframe'), shareCopied: $('share-copied'),
};

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

const state = {
  library: [],        // [{name, title, text, trace}] from traces/index.json
  name: '',           // source name the text runs under
  text: '',
  mutant: '',
  lang: 'en',
  trace: null,        // last good trace
  traceRaw: '',       // its JSON as received
  traceFrom: '',      // 'ahead' (computed natively by make wasm) or 'engine'
  model: null,
  cursor: 0,
  clock: 0,           // virtual time shown (ms)
  playing: false,
  engine: null,       // globalThis.leaselab once ready
  runSeq: 0,
};

// ---- URL hash: the timeline, the cursor and the engine settings ----

function libraryEntry(name) {
  return state.library.find((t) => t.name === name);
}

function writeHash() {
  const lib = libraryEntry(state.name);
  const p = timelineParams({
    text: state.text, name: state.name, library: lib ? lib.text : null,
    mutant: state.mutant, lang: state.lang, step: state.cursor,
  });
  const hash = `#${p.toString()}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const out = {};
  if (p.has('src')) {
    try { out.text = b64urlDecode(p.get('src')); } catch { /* a damaged link opens the default */ }
    out.name = p.get('name') || 'shared.tl';
  } else if (p.has('t') && libraryEntry(p.get('t'))) {
    out.name = p.get('t');
    out.text = libraryEntry(out.name).text;
  }
  out.mutant = p.get('mutant') || '';
  out.lang = p.get('lang') === 'ko' ? 'ko' : 'en';
  const step = Number.parseInt(p.get('step') || '', 10);
  out.cursor = Number.isFinite(step) && step >= 0 ? step : null;
  return out;
}

// ---- drawing ----

function stepsCount() { return state.trace ? state.trace.steps.length : 0; }

function setTrace(trace, raw, from) {
  state.trace = trace;
  state.traceRaw = raw;
  state.traceFrom = from;
  state.model = laneModel(trace);
  state.cursor = Math.min(state.cursor, trace.steps.length);
  state.clock = cursorTime(trace, state.cursor);
  ui.scrub.max = String(trace.steps.length);
  drawSummary();
  drawAll();
  const root = document.documentElement.dataset;
  if (root.firstTrace === undefined) root.firstTrace = String(Math.round(performance.now())); // ms since navigation
}

function drawSummary() {
  const sm = state.trace.summary;
  const parts = [`${sm.steps} steps`];
  if (sm.expectations) parts.push(sm.failed ? `${sm.failed} of ${sm.expectations} expectations failed` : `${sm.expectations} expectations held`);
  parts.push(sm.violations ? `${sm.violations} invariant violations` : 'no invariant violated');
  ui.summary.textContent = parts.join(' · ');
  ui.summary.className = `summary ${sm.passed ? 'pass' : 'fail'}`;
  ui.sourceNote.textContent = state.traceFrom === 'ahead'
    ? 'computed ahead of time by the same engine'
    : state.mutant ? `run in your browser on the “${state.mutant}” mutant` : 'run in your browser';
}

function drawLanesNow() {
  const width = ui.lanesScroll.clientWidth || 640;
  drawLanes(ui.lanes, state.trace, state.model, state.cursor, state.clock, width);
}

function drawAll() {
  if (!state.trace) return;
  const tr = state.trace;
  const c = state.cursor;
  const st = c > 0 ? tr.steps[c - 1] : null;
  drawLanesNow();
  ui.scrub.value = String(c);
  ui.scrub.setAttribute('aria-valuetext', st ? `step ${c} of ${tr.steps.length}, ${ms(st.time)}` : 'start, before the first step');
  ui.clock.textContent = ms(Math.round(state.clock));
  ui.stepCount.textContent = `step ${c} / ${tr.steps.length}`;
  ui.jobsAt.textContent = st ? `after step ${c}, at ${ms(st.time)}` : 'as enqueued';
  if (st) {
    ui.stepSource.replaceChildren(h('span', { class: 'line-no', text: `line ${st.line}` }), h('code', { text: st.source }));
    ui.explain.textContent = `Step ${c} of ${tr.steps.length}, ${ms(st.time)}: ${st.explain}`;
    drawTable(ui.jobs, tableAt(tr, c), st.changed, st.time);
    drawSQL(ui.sql, st.sql);
    drawVerdicts(ui.verdicts, st.verdicts);
    drawExpect(st.expect);
  } else {
    ui.stepSource.replaceChildren(h('span', { class: 'line-no', text: 'start' }), h('code', { text: tr.title || tr.name }));
    ui.explain.textContent = `Before the first step: ${tr.steps.length} steps ahead. Press play or → to run the first.`;
    drawTable(ui.jobs, tr.start, [], 0);
    drawSQL(ui.sql, tr.setup);
    drawVerdicts(ui.verdicts, []);
    drawExpect(null);
  }
  ui.back.disabled = c === 0;
  ui.first.disabled = c === 0;
  ui.forward.disabled = c >= tr.steps.length;
  ui.last.disabled = c >= tr.steps.length;
  writeHash();
}

function drawExpect(ex) {
  if (!ex) { ui.expect.hidden = true; return; }
  ui.expect.hidden = false;
  ui.expect.className = `expect ${ex.ok ? 'ok' : 'bad'}`;
  ui.expect.textContent = ex.ok
    ? `✓ as expected: -> ${ex.text}`
    : `✗ expected ${ex.expected}, got ${ex.got}`;
}

// ---- the virtual clock ----

let cancelStep = () => {};

function setCursor(c, { keepPlaying = false } = {}) {
  if (!state.trace) return;
  if (!keepPlaying) pause();
  state.cursor = Math.max(0, Math.min(c, stepsCount()));
  state.clock = cursorTime(state.trace, state.cursor);
  drawAll();
}

function play() {
  if (!state.trace || stepsCount() === 0) return;
  if (state.cursor >= stepsCount()) setCursor(0);
  state.playing = true;
  ui.play.setAttribute('aria-label', 'Pause');
  ui.play.classList.add('playing');
  tick();
}

function pause() {
  state.playing = false;
  cancelStep();
  ui.play.setAttribute('aria-label', 'Play');
  ui.play.classList.remove('playing');
}

// tick moves the clock from the current step's time to the next step's,
// then makes the next step current.
function tick() {
  if (!state.playing) return;
  if (state.cursor >= stepsCount()) { pause(); return; }
  cancelStep = playStep({
    from: cursorTime(state.trace, state.cursor),
    to: state.trace.steps[state.cursor].time,
    speed: Number(ui.speed.value),
    reduced: reducedMotion.matches,
    onFrame: (clock) => {
      state.clock = clock;
      ui.clock.textContent = ms(Math.round(clock));
      drawLanesNow();
    },
    onDone: () => {
      setCursor(state.cursor + 1, { keepPlaying: true });
      if (state.cursor >= stepsCount()) pause(); else tick();
    },
  });
}

// ---- the engine ----

function setEngineState(text, kind) {
  ui.engineStatus.textContent = text;
  document.body.dataset.engineView = kind;
}

async function loadEngine() {
  const started = performance.now();
  state.engine = await engine();
  document.documentElement.dataset.engineReady = String(Math.round(performance.now()));
  ui.version.textContent = state.engine.version;
  const mutants = state.engine.mutants();
  ui.mutant.replaceChildren(h('option', { value: '', text: 'correct engine' }),
    ...mutants.map((m) => h('option', { value: m.name, text: `mutant: ${m.name}` })));
  ui.mutant.disabled = false;
  ui.mutant.value = mutants.some((m) => m.name === state.mutant) ? state.mutant : '';
  showMutantNote();
  return performance.now() - started;
}

/** Runs the editor's text on the engine; keeps the last good trace on an error. */
async function runNow() {
  if (!state.engine) {
    setEngineState('engine loading… (your edit runs when it is ready)', 'loading');
    return;
  }
  const seq = ++state.runSeq;
  setEngineState('running…', 'running');
  await nextFrame(); // let "running…" paint: a cold run holds the main thread while V8 compiles
  if (seq !== state.runSeq) return;
  const t0 = performance.now();
  try {
    const raw = await state.engine.run(state.text, { name: state.name, mutant: state.mutant, lang: state.lang });
    if (seq !== state.runSeq) return;
    const verified = state.traceFrom === 'ahead' && raw === state.traceRaw;
    showError(null);
    setTrace(JSON.parse(raw), raw, 'engine');
    setEngineState(`engine ready · ran in ${Math.round(performance.now() - t0)} ms${verified ? ' · same bytes as ahead of time' : ''}`, 'ready');
    document.documentElement.dataset.lastRun = verified ? 'verified' : 'engine';
  } catch (err) {
    if (seq !== state.runSeq) return;
    showError(err);
    setEngineState('engine ready', 'ready');
  } finally {
    const root = document.documentElement.dataset;
    if (seq === state.runSeq && root.firstRun === undefined) root.firstRun = String(Math.round(performance.now()));
  }
}

// idle resolves once the clock is not playing and the browser is idle.
async function idle() {
  while (state.playing) await new Promise((resolve) => setTimeout(resolve, 250));
  await new Promise((resolve) => (window.requestIdleCallback ? requestIdleCallback(resolve, { timeout: 500 }) : setTimeout(resolve, 50)));
}

// nextFrame resolves after the next paint, or soon in a background tab,
// where requestAnimationFrame does not run.
function nextFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

// showMutantNote names the rule the chosen mutant breaks.
function showMutantNote() {
  const info = state.engine && state.mutant ? state.engine.mutants().find((m) => m.name === state.mutant) : null;
  ui.mutantNote.hidden = !info;
  ui.mutantNote.textContent = info ? `This engine is broken on purpose: it breaks “${info.breaks}”. Watch the expectations and the invariants.` : '';
}

function showError(err) {
  if (!err) {
    ui.error.hidden = true;
    ui.error.replaceChildren();
    ui.editor.removeAttribute('aria-invalid');
    return;
  }
  const list = Array.isArray(err.errors) && err.errors.length ? err.errors : [{ line: 0, col: 0, msg: err.message || String(err) }];
  ui.error.hidden = false;
  ui.editor.setAttribute('aria-invalid', 'true');
  ui.error.replaceChildren(...list.slice(0, 4).map((e) => {
    const where = e.line ? `${e.line}:${e.col}` : '';
    const row = h('span', { class: 'err-row' });
    if (where) {
      const go = h('button', { type: 'button', class: 'linecol', 'data-line': e.line, 'data-col': e.col, text: where, title: 'Go to this place in the text' });
      row.append(go, ' ');
    }
    row.append(e.msg);
    return row;
  }), h('span', { class: 'err-keep', text: 'The last good run stays on screen.' }));
}

function selectLineCol(line, col) {
  const lines = ui.editor.value.split('\n');
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  pos += Math.max(0, col - 1);
  ui.editor.focus();
  ui.editor.setSelectionRange(pos, pos);
}

// ---- loading ----

async function fetchTrace(entry) {
  // The default timeline's trace is also at traces/default.json, which the
  // page preloads.
  const url = entry.name === state.defaultName ? 'traces/default.json' : entry.trace;
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${entry.trace}: HTTP ${r.status}`);
  return r.text();
}

function fillPicker() {
  ui.picker.replaceChildren(...state.library.map((t) => h('option', { value: t.name, text: t.title || t.name })));
  ui.picker.append(h('option', { value: '', text: 'your own (edited)', disabled: true }));
}

// fitEditor sizes the editor to its text, within bounds.
function fitEditor() {
  const lines = ui.editor.value.split('\n').length;
  ui.editor.rows = Math.min(Math.max(lines + 1, 8), 26);
}

function syncPicker() {
  const lib = libraryEntry(state.name);
  ui.picker.value = lib && lib.text === state.text ? state.name : '';
}

async function openFromHash(initial) {
  const want = readHash();
  const def = state.library.find((t) => t.name === state.defaultName) || state.library[0];
  state.name = want.name || (def ? def.name : 'timeline.tl');
  state.text = want.text ?? (def ? def.text : '');
  state.mutant = want.mutant;
  state.lang = want.lang;
  ui.lang.value = state.lang;
  if (state.engine) { ui.mutant.value = state.mutant; showMutantNote(); }
  if (ui.editor.value !== state.text) ui.editor.value = state.text;
  fitEditor();
  syncPicker();
  if (want.cursor !== null) state.cursor = want.cursor;
  const lib = libraryEntry(state.name);
  if (lib && lib.text === state.text && (initial || !state.engine)) {
    const raw = await fetchTrace(lib);
    setTrace(JSON.parse(raw), raw, 'ahead');
  }
  if (state.engine || !(lib && lib.text === state.text && !state.mutant && state.lang === 'en')) runNow();
}

async function main() {
  wireEvents();
  const r = await fetch('traces/index.json');
  if (!r.ok) {
    setEngineState('traces/index.json missing: build the page with make wasm', 'error');
    return;
  }
  const index = await r.json();
  state.library = index.timelines;
  state.defaultName = index.default;
  fillPicker();
  await openFromHash(true);

  try {
    const took = await loadEngine();
    setEngineState(`engine ready (loaded in ${(took / 1000).toFixed(1)} s)`, 'ready');
    // Run what is on screen again on the engine; for a library timeline
    // this shows the browser gives the same bytes as the native run. The
    // first run holds the main thread while V8 compiles, so it waits until
    // the clock is not playing and the page is idle.
    await idle();
    await runNow();
  } catch (err) {
    setEngineState(`engine unavailable: ${err.message}`, 'error');
  }
}

// ---- events ----

let debounce = 0;

function wireEvents() {
  ui.editor.addEventListener('input', () => {
    state.text = ui.editor.value;
    syncPicker();
    clearTimeout(debounce);
    debounce = setTimeout(runNow, 180);
  });
  ui.picker.addEventListener('change', async () => {
    const lib = libraryEntry(ui.picker.value);
    if (!lib) return;
    pause();
    state.name = lib.name;
    state.text = lib.text;
    ui.editor.value = lib.text;
    fitEditor();
    state.cursor = 0;
    showError(null);
    if (!state.engine && !state.mutant && state.lang === 'en') {
      const raw = await fetchTrace(lib);
      setTrace(JSON.parse(raw), raw, 'ahead');
    } else {
      runNow();
    }
  });
  ui.mutant.addEventListener('change', () => {
    state.mutant = ui.mutant.value;
    showMutantNote();
    runNow();
  });
  ui.lang.addEventListener('change', () => { state.lang = ui.lang.value; runNow(); });
  ui.error.addEventListener('click', (e) => {
    const b = e.target.closest('button.linecol');
    if (b) selectLineCol(Number(b.dataset.line), Number(b.dataset.col));
  });

  ui.play.addEventListener('click', () => (state.playing ? pause() : play()));
  ui.back.addEventListener('click', () => setCursor(state.cursor - 1));
  ui.forward.addEventListener('click', () => setCursor(state.cursor + 1));
  ui.first.addEventListener('click', () => setCursor(0));
  ui.last.addEventListener('click', () => setCursor(stepsCount()));
  ui.scrub.addEventListener('input', () => setCursor(Number(ui.scrub.value)));
  ui.lanes.addEventListener('click', (e) => {
    if (!state.trace) return;
    const mark = e.target.closest('[data-step]');
    if (mark) { setCursor(Number(mark.dataset.step)); return; }
    const t = timeAt(ui.lanes, e.clientX);
    let c = 0;
    state.trace.steps.forEach((st, i) => { if (st.time <= t) c = i + 1; });
    setCursor(c);
  });

  ui.keysButton.addEventListener('click', () => toggleKeys());
  ui.shareButton.addEventListener('click', () => openShare());
  ui.shareClose.addEventListener('click', () => ui.share.close());
  ui.share.addEventListener('close', () => ui.shareButton.focus());
  ui.share.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-copy]');
    if (b) copy($(b.dataset.copy));
  });
  ui.keysClose.addEventListener('click', () => ui.keys.close());
  ui.keys.addEventListener('close', () => ui.keysButton.focus());

  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', () => {
    const want = readHash();
    const lib = libraryEntry(state.name);
    const sameText = want.text === undefined ? lib && lib.text === state.text : want.text === state.text;
    if (sameText && want.mutant === state.mutant && want.lang === state.lang) {
      if (want.cursor !== null && want.cursor !== state.cursor) setCursor(want.cursor);
      return;
    }
    pause();
    openFromHash(false);
  });
  new ResizeObserver(() => { if (state.trace) drawLanesNow(); }).observe(ui.lanesScroll);
}

// ---- share and embed ----

function openShare() {
  pause();
  writeHash();
  const base = new URL('.', location.href);
  const lib = libraryEntry(state.name);
  const args = {
    base, text: state.text, name: state.name, library: lib ? lib.text : null,
    mutant: state.mutant, lang: state.lang, step: state.cursor,
    title: state.trace ? state.trace.title : '',
  };
  ui.shareLink.value = location.href;
  ui.shareElement.value = elementSnippet(args);
  ui.shareIframe.value = iframeSnippet(args);
  ui.shareCopied.textContent = '';
  ui.share.showModal();
}

async function copy(field) {
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select(); // no clipboard permission: the text is selected for the reader to copy
    if (!document.execCommand('copy')) {
      ui.shareCopied.textContent = 'Select the text and copy it (Ctrl+C).';
      return;
    }
  }
  ui.shareCopied.textContent = `Copied: ${field.labels[0] ? field.labels[0].textContent.split(':')[0] : 'snippet'}.`;
}

function toggleKeys() {
  if (ui.keys.open) ui.keys.close(); else ui.keys.showModal();
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  const tag = t && t.tagName;
  if (tag === 'TEXTAREA' || (tag === 'INPUT' && t.type !== 'range') || tag === 'SELECT') {
    if (e.key === 'Escape' && tag === 'TEXTAREA') { t.blur(); $('lanes-title').focus(); }
    return;
  }
  if (ui.share.open) return;
  if (ui.keys.open && e.key !== '?') return;
  if (tag === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return; // the button's own action
  if (tag === 'INPUT' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End')) return; // the slider moves itself
  switch (e.key) {
    case ' ': state.playing ? pause() : play(); break;
    case 'ArrowRight': setCursor(state.cursor + 1); break;
    case 'ArrowLeft': setCursor(state.cursor - 1); break;
    case 'Home': setCursor(0); break;
    case 'End': setCursor(stepsCount()); break;
    case '?': toggleKeys(); break;
    default: return;
  }
  e.preventDefault();
}

main();

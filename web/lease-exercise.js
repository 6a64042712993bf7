// @ts-check
// lease-exercise.js defines <lease-exercise>, a worksheet that asks the reader to
// write the fencing lab's functions in JavaScript, in the page, and grades
// them there:
//
//   <lease-exercise></lease-exercise>                (the starting code: SKELETON)
//   <lease-exercise><script type="text/plain">function initDb(db) { … }</script></lease-exercise>
//
// The starting code is a <script type="text/plain"> child's text, in which
// `<\/script` stands for `</script` (HTML would end the script there) and
// `<\script` for `<script` (fences.js unescapeScriptText), or else a <pre>
// child's text (the form a framework's page keeps: Vue drops a script
// from a template, React 18's server escapes a script's text). A
// ```lease-exercise fence becomes the element (fences.js; the npm plugins
// at build time); one it could not read (data-fence-error) says why in
// place of the editor.
//
// The reader writes initDb, enqueue, state, claim, renew, complete, release
// and claimMany, each taking db first: a small synchronous SQL API over the
// page's own SQLite (db.run, db.all, db.get; a fresh database per test).
// Check sends the code to an engine of its own, in a worker (engine.js
// loadGrader), which runs leaselab grade's tests on it step by step beside
// the contract (wasm/jslab) and answers a report: each test's verdict, and
// at the first difference the call, the reader's answer beside the
// contract's, both tables, and the test's calls up to it, each with the
// SQL the reader's code ran and both tables after it. Code that loops
// without end is stopped at TIME_LIMIT_MS: the worker is ended, the next
// Check starts a fresh one, the status names the test and the call
// that never came back (the last the grader announced), and the verdicts
// of the tests that ended before it are shown, that test's failed
// (exercise-run.js).
//
// The reader's code runs in the engine's worker, which needs
// 'unsafe-eval' in the script-src of the policy sent with the worker's
// script (the page's own policy need not have it).
//
// State for the page's CSS and scripts: data-state (idle, checking,
// passed, failed, error), data-first (the first failing test's name) and
// data-scheme (light or dark: the page's, scheme.js pageScheme, followed
// as the site switches it; leaselab.css colours the verdicts by it).
// Attributes, each reflected by a property of the same name: lang (en or
// ko; default the nearest lang); language (javascript, the default, or
// python); lab (fencing, the default, or courier: Python only). In Python
// (language="python") the reader writes the lab as leaselab grade grades
// it natively, on Python's own sqlite3, run by Pyodide in the grader's
// worker (engine.js gradePython, wasm/pylab): Python is fetched when the
// reader first focuses the editor or presses Check, never on a page that
// is only read. Threads run one after another there, so the tests of two
// programs at once are skipped, saying why. Disconnected, it
// keeps no observer on the page. On a page React or Vue hydrates, it
// writes its contents only once the framework has taken it over
// (fences.js afterHydration).
//
// Its contents are the page's own (no shadow root). The one id it writes,
// its editor's (for the label's for=), is leaselab-exercise-N, N counting
// the page's exercises: no id a site generator makes of an author's
// heading. Its results' headings are role=heading paragraphs, not h2–h6
// (the site's style sheet and scripts would take those for its own), at
// one level below the nearest h1–h6 of the page before it, and their
// subheadings one below that (outline.js headingLevel).

import { loadGrader } from './engine.js';
import { PY_COURIER, PY_FENCING } from './exercise-python.js';
import { Heard } from './exercise-run.js';
import { afterHydration, dedent, unescapeScriptText } from './fences.js';
import { langOf, strings } from './i18n.js';
import { headingLevel } from './outline.js';
import { pageScheme, watchScheme } from './scheme.js';
import { el, labTable } from './student-view.js';

/** The starting code when the element holds none. */
export const SKELETON = `// Each function takes db first: a synchronous SQL API over this page's SQLite,
// a fresh database per test:
//   db.run(sql, ...params)  -> {changes, lastInsertRowid}
//   db.all(sql, ...params)  -> every row, an object by column name
//   db.get(sql, ...params)  -> the first row, or undefined
// The table: jobs(id, owner, until, fence, result, done). fence is the
// job's fencing token (the simulator's token, drawn A#1), until its
// lease_until. Throw a RangeError when ttl <= 0.

function initDb(db) {
  // make the table if it is missing; keep every row
}

function enqueue(db, jobId) {
  // add the job (owner NULL, until 0, fence 0, done 0); false if it exists
}

function state(db, jobId) {
  // the row as {id, owner, until, fence, result, done}, or null
}

function claim(db, jobId, owner, now, ttl) {
  // null for a missing or done job, or while until > now;
  // else owner, until = now + ttl, fence + 1, and return the new fence
}

function renew(db, jobId, owner, fence, now, ttl) {
  // true and until = now + ttl, only for the row's owner and fence, not done, until > now
}

function complete(db, jobId, owner, fence, now, result) {
  // the same check as renew; result stored and done = 1
}

function release(db, jobId, owner, fence) {
  // for the row's owner and fence, not done: owner NULL, until 0, the fence kept
}

function claimMany(db, jobId, owners, now, ttl) {
  // every owner's claim; the answers in the owners' order
}
`;

/** How long a Check may take before the worker running the code is ended. */
export const TIME_LIMIT_MS = 60_000;

/** The lab table's columns, in order. */
const COLUMNS = ['id', 'owner', 'until', 'fence', 'result', 'done'];

/**
 * A row is an object by column name (JavaScript's report), or the values
 * in the report's columns' order (Python's, which names its columns).
 * @typedef {Record<string, unknown> | unknown[]} Row
 * @typedef {{sql: string, params: unknown[], error?: string}} Statement
 * @typedef {{call: string, want: string, got: string, sql: Statement[], want_rows: Row[], got_rows: Row[] | null, rows_error?: string}} Step
 * @typedef {{test: string, where: string, call: string, want: string, got: string, detail?: string, broken?: string,
 *   want_rows: Row[], got_rows: Row[], timeline?: string, link?: string, steps: Step[]}} First
 * @typedef {import('./exercise-run.js').Verdict} Verdict
 * @typedef {{cannot_run?: string, line?: number, col?: number, passed: boolean, missing: string[], tests: Verdict[],
 *   first: First | null, text: string, elapsed_ms: number, columns?: string[]}} Report
 */

let serial = 0;

export class LeaseExercise extends HTMLElement {
  /** @type {HTMLTextAreaElement | null} */
  #code = null;
  /** @type {HTMLElement | null} */
  #status = null;
  /** @type {HTMLElement | null} */
  #result = null;
  /** @type {string | null} the starting code the element holds; null: the language's */
  #given = null;
  #pythonAsked = false;
  /** @type {string[]} the columns of the last report's tables */
  #columns = COLUMNS;
  /** @type {(() => void) | null} ends the watch on the page's scheme */
  #unwatchScheme = null;
  /** @type {(() => void) | null} cancels the wait for the page's framework to hydrate the element */
  #unwaitHydration = null;

  connectedCallback() {
    this.#unwatchScheme?.();
    this.#unwatchScheme = watchScheme(this, () => this.#applyScheme());
    this.#applyScheme();
    this.#unwaitHydration?.();
    if (!this.#code) this.#unwaitHydration = afterHydration(this, () => this.#build());
  }

  disconnectedCallback() {
    this.#unwatchScheme?.();
    this.#unwatchScheme = null;
    this.#unwaitHydration?.();
    this.#unwaitHydration = null;
  }

  #applyScheme() {
    const scheme = pageScheme(this);
    if (this.dataset.scheme !== scheme) this.dataset.scheme = scheme;
  }

  static get observedAttributes() {
    return ['language', 'lab'];
  }

  attributeChangedCallback() {
    if (!this.#code) return;
    if (this.#given === null) this.#code.value = this.#start;
    const label = this.querySelector('.ll-label');
    const t = strings(langOf(this));
    if (label) label.textContent = this.language === 'python' ? t.labCodePython(this.lab) : t.labCode;
  }

  /** The language the reader writes: javascript (the default) or python. */
  get language() {
    return this.getAttribute('language')?.trim().toLowerCase() === 'python' ? 'python' : 'javascript';
  }

  set language(v) {
    this.setAttribute('language', String(v));
  }

  /** The lab: fencing (the default) or courier (in Python). */
  get lab() {
    return this.language === 'python' && this.getAttribute('lab')?.trim().toLowerCase() === 'courier'
      ? 'courier'
      : 'fencing';
  }

  set lab(v) {
    this.setAttribute('lab', String(v));
  }

  /** The starting code: the element's own, else the language's and lab's. */
  get #start() {
    if (this.#given !== null) return this.#given;
    if (this.language === 'python') return this.lab === 'courier' ? PY_COURIER : PY_FENCING;
    return SKELETON;
  }

  /** Starts loading Python into the grader's worker, once (a reader about to write it). */
  #askPython() {
    if (this.#pythonAsked || this.language !== 'python') return;
    this.#pythonAsked = true;
    loadGrader()
      .then((g) => g.loadPython())
      .catch(() => {
        this.#pythonAsked = false; // Check says why
      });
  }

  #build() {
    const t = strings(langOf(this));
    const unreadable = this.dataset.fenceError;
    if (unreadable) {
      this.replaceChildren(el('p', { class: 'll-status', role: 'status' }, t.labUnreadable(unreadable)));
      this.dataset.state = 'error';
      return;
    }
    const given = this.#givenText();
    if (given.trim()) this.#given = `${dedent(given).trim()}\n`;
    const id = `leaselab-exercise-${++serial}`;
    this.#code = /** @type {HTMLTextAreaElement} */ (
      el('textarea', { id, class: 'll-code', spellcheck: 'false', rows: '24', autocapitalize: 'off', translate: 'no' })
    );
    this.#code.value = this.#start;
    this.#code.addEventListener('focus', () => this.#askPython());
    const check = el('button', { type: 'button', class: 'll-check' }, t.labCheck);
    const reset = el('button', { type: 'button', class: 'll-reset' }, t.labReset);
    check.addEventListener('click', () => this.check());
    reset.addEventListener('click', () => {
      if (this.#code) this.#code.value = this.#start;
    });
    this.#code.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.check();
      }
    });
    this.#status = el('p', { class: 'll-status', role: 'status', 'aria-live': 'polite' });
    this.#result = el('div', { class: 'll-result' });
    this.replaceChildren(
      el('label', { for: id, class: 'll-label' }, this.language === 'python' ? t.labCodePython(this.lab) : t.labCode),
      this.#code,
      el('p', { class: 'll-actions' }, check, ' ', reset, ' ', el('span', { class: 'll-keys' }, t.labKeys)),
      this.#status,
      this.#result,
    );
    this.dataset.state = 'idle';
  }

  /** The starting code the element holds: its text/plain script's, unescaped, else its pre's; "" for none. */
  #givenText() {
    const script = this.querySelector('script[type="text/plain"]');
    if (script) return unescapeScriptText(script.textContent || '');
    return this.querySelector(':scope > pre')?.textContent ?? '';
  }

  /** The code in the editor. */
  get code() {
    return this.#code ? this.#code.value : this.#start;
  }

  set code(v) {
    if (this.#code) this.#code.value = String(v);
    else this.#given = String(v);
  }

  /** Grades the code in the editor and shows the report. */
  async check() {
    if (!this.#status || !this.#result || this.dataset.state === 'checking') return;
    const lang = langOf(this);
    const t = strings(lang);
    this.dataset.state = 'checking';
    delete this.dataset.first;
    const python = this.language === 'python';
    this.#status.textContent = python && !this.#pythonAsked ? t.labLoadingPython : t.labChecking;
    this.#result.replaceChildren();
    /** What the grader said as it ran: the verdicts so far, the reader's call running last. */
    const heard = new Heard();
    try {
      const grader = await loadGrader();
      const signal = AbortSignal.timeout(TIME_LIMIT_MS);
      const onProgress = (/** @type {unknown} */ p) => heard.hear(p);
      const simulator = new URL('index.html', import.meta.url).href;
      const opts = { lang, lab: this.lab, simulator, signal, onProgress };
      this.#pythonAsked ||= python;
      /** @type {Report} */
      const report = JSON.parse(await (python ? grader.gradePython(this.code, opts) : grader.grade(this.code, opts)));
      this.#show(report, t);
    } catch (err) {
      const e = /** @type {Error} */ (err);
      this.dataset.state = 'error';
      if (e.name !== 'TimeoutError') this.#status.textContent = t.labFailed(String(e.message || e));
      else if (!heard.last) this.#status.textContent = t.labTimeout(TIME_LIMIT_MS / 1000);
      else {
        this.#status.replaceChildren(
          `${t.labTimeout(TIME_LIMIT_MS / 1000)} ${t.labStuck(heard.last.test)} `,
          el('code', { translate: 'no' }, heard.last.call),
        );
        this.dataset.first = heard.last.test;
        this.#result.replaceChildren(...verdictLists(heard.stopped(t.labHung), t, headingLevel(this)));
      }
    }
  }

  /**
   * Shows a report.
   * @param {Report} r
   * @param {ReturnType<typeof strings>} t
   */
  #show(r, t) {
    const status = /** @type {HTMLElement} */ (this.#status);
    const result = /** @type {HTMLElement} */ (this.#result);
    if (r.cannot_run) {
      this.dataset.state = 'error';
      status.textContent = t.labCannotRun;
      const advice = /unsafe-eval|Content Security Policy/i.test(r.cannot_run) ? [el('p', {}, t.labCSP)] : [];
      result.replaceChildren(el('pre', { class: 'll-error', translate: 'no' }, r.cannot_run), ...advice);
      return;
    }
    const count = (/** @type {string} */ s) => r.tests.filter((x) => x.status === s).length;
    this.dataset.state = r.passed ? 'passed' : 'failed';
    if (r.first) this.dataset.first = r.first.test;
    status.textContent = t.labSummary(count('pass'), count('fail'), count('skip'));
    // The first difference is where to start: every later test stands on it.
    if (!r.passed && r.first) status.textContent += ` ${t.labStart(r.first.call)}`;
    const level = headingLevel(this);
    const parts = verdictLists(r.tests, t, level);
    if (r.missing.length) parts.unshift(el('p', { class: 'll-missing' }, t.labMissing(r.missing.join(', '))));
    this.#columns = r.columns?.length ? r.columns : COLUMNS;
    if (r.first) parts.push(this.#first(r.first, t, level));
    parts.push(
      el('details', {}, el('summary', {}, t.labText), el('pre', { class: 'll-text', translate: 'no' }, r.text)),
    );
    result.replaceChildren(...parts);
  }

  /**
   * The first difference.
   * @param {First} f
   * @param {ReturnType<typeof strings>} t
   * @param {number} level its heading's level
   */
  #first(f, t, level) {
    const answers = el(
      'dl',
      { class: 'll-answers' },
      el('dt', {}, t.labCall),
      el('dd', {}, el('code', { translate: 'no' }, f.call)),
      el('dt', {}, t.labContract),
      el('dd', {}, el('code', { class: 'll-want', translate: 'no' }, f.want)),
      el('dt', {}, t.labYours),
      el('dd', {}, el('code', { class: 'll-got', translate: 'no' }, f.got)),
    );
    const section = el(
      'section',
      { class: 'll-first', 'aria-label': t.labFirst(f.test, f.where) },
      heading(level, t.labFirst(f.test, f.where)),
      answers,
    );
    if (f.broken)
      section.append(el('p', { class: 'll-broken' }, t.labBroken, ' ', el('code', { translate: 'no' }, f.broken)));
    if (f.detail) section.append(el('p', { class: 'll-detail', translate: 'no' }, f.detail));
    section.append(tables(f.want_rows || [], f.got_rows || [], t, this.#columns));
    if (f.steps?.length) {
      section.append(
        heading(level + 1, t.labCalls),
        el(
          'ol',
          { class: 'll-calls' },
          ...f.steps.map((s, i) => callItem(s, i === f.steps.length - 1, t, this.#columns)),
        ),
      );
    }
    if (f.link) {
      section.append(
        el(
          'p',
          { class: 'll-link' },
          el('a', { href: f.link, target: '_blank', rel: 'noopener' }, t.labOpenDifference),
        ),
      );
    }
    if (f.timeline) {
      section.append(
        el(
          'details',
          {},
          el('summary', {}, t.labTimeline),
          el('pre', { class: 'll-timeline', translate: 'no' }, f.timeline),
        ),
      );
    }
    return section;
  }
}

/**
 * A heading of the results at level (capped at 6): a p with role=heading,
 * not an h2–h6, which the site's style sheet would size as its own and its
 * scripts (a table of contents, anchor links) take for a section of the
 * page.
 * @param {number} level
 * @param {string} text
 */
function heading(level, text) {
  return el('p', { class: 'll-heading', role: 'heading', 'aria-level': String(Math.min(level, 6)) }, text);
}

/**
 * The tests' verdicts: the lab's steps, then the other tests (folded).
 * @param {Verdict[]} tests
 * @param {ReturnType<typeof strings>} t
 * @param {number} level their heading's level
 */
function verdictLists(tests, t, level) {
  const verdict = (/** @type {Verdict} */ x) =>
    el(
      'li',
      { 'data-status': x.status, ...(x.why ? { title: x.why } : {}) },
      el('span', { class: 'll-verdict' }, t.labVerdicts[/** @type {'pass'|'fail'|'skip'} */ (x.status)] || x.status),
      ' ',
      el('span', { translate: 'no' }, x.name),
    );
  const steps = tests.filter((x) => x.name.startsWith('step '));
  const others = tests.filter((x) => !x.name.startsWith('step '));
  return [
    heading(level, t.labSteps),
    el('ol', { class: 'll-tests' }, ...steps.map(verdict)),
    el(
      'details',
      {},
      el('summary', {}, t.labOthers(others.length)),
      el('ul', { class: 'll-tests' }, ...others.map(verdict)),
    ),
  ];
}

/**
 * One call of the failing test: the call, both answers, and (opened for
 * the last, the difference) the SQL the reader's code ran and both tables.
 * @param {Step} s
 * @param {boolean} last
 * @param {ReturnType<typeof strings>} t
 * @param {string[]} cols
 */
function callItem(s, last, t, cols) {
  const item = el(
    'li',
    last ? { 'data-first': 'yes' } : {},
    el('code', { translate: 'no' }, s.call),
    ' → ',
    t.labContract,
    ' ',
    el('code', { translate: 'no' }, s.want || '…'),
    ', ',
    t.labYours,
    ' ',
    el('code', { translate: 'no' }, s.got),
  );
  const sql = (s.sql || []).map((q) =>
    [
      q.sql.replace(/\s+/g, ' ').trim(),
      q.params.length ? `  -- ${JSON.stringify(q.params)}` : '',
      q.error ? `  -- ${q.error}` : '',
    ].join(''),
  );
  const body = el(
    'div',
    {},
    el('p', {}, t.labSQL((s.sql || []).length)),
    el('pre', { class: 'll-sql', translate: 'no' }, sql.join('\n')),
    s.rows_error ? el('p', {}, s.rows_error) : tables(s.want_rows || [], s.got_rows || [], t, cols),
  );
  item.append(el('details', last ? { open: '' } : {}, el('summary', {}, t.labStepDetails), body));
  return item;
}

/**
 * The contract's table beside the reader's.
 * @param {Row[]} want
 * @param {Row[]} got
 * @param {ReturnType<typeof strings>} t
 * @param {string[]} cols
 */
function tables(want, got, t, cols) {
  /** @param {Row[]} rows @param {string} caption @param {string} cls */
  const table = (rows, caption, cls) =>
    labTable({
      cols,
      rows: rows.map((r) => (Array.isArray(r) ? r : cols.map((c) => r[c]))),
      caption,
      none: t.labNoRows,
      cls,
    });
  return el(
    'div',
    { class: 'll-tables' },
    table(want, t.labContractTable, 'll-want-rows'),
    table(got, t.labYourTable, 'll-got-rows'),
  );
}

/**
 * Registers the element under name (default lease-exercise), unless the name
 * is taken.
 * @param {string} [name]
 */
export function define(name = 'lease-exercise') {
  if (!customElements.get(name)) customElements.define(name, class extends LeaseExercise {});
}

define();

// @ts-check
// explore-panel.js is the simulator page's Explore dialog: the explorer
// (engine/internal/explore, through engine.js's loadExplorer: a worker of its own,
// so the page's runs go on meanwhile) searches every schedule within a
// scope for the shortest timeline that tells a broken engine apart from
// the correct one, or that breaks an invariant. The dialog shows its
// progress (states visited, depth, rate), can cancel it (which ends its
// worker), and loads what it found into the editor, where it plays like
// any timeline.

/** @typedef {import('./i18n.js').Strings} Strings */

/**
 * @typedef {object} Report the explorer's report (engine.js explore)
 * @property {boolean} found
 * @property {string} timeline the found timeline, with the correct engine's expectations
 * @property {number} steps
 * @property {string} why
 * @property {number} states
 * @property {number} depth
 * @property {string} bound
 * @property {number} elapsed_ms
 */

/**
 * @typedef {object} ExploreHost what the page gives the dialog
 * @property {() => Strings} words the page's words now
 * @property {() => Promise<{name: string, breaks: string}[]>} mutants the engine's mutants
 * @property {() => Promise<string[]>} invariants the checker's invariants
 * @property {(text: string, mutant: string) => void} load puts a found timeline in the editor, on that engine
 */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The broken engine a first search looks for: the lease's boundary, whose
 * shortest telling timeline is a story a newcomer can read (a claim, then
 * a claim at the instant its lease ends), where the first in the engine's
 * list is told apart by one reopen of the database.
 */
const FIRST_GOAL = 'claim-boundary';

/** The explorer's engine, loaded on the first search. */
async function explorer() {
  const mod = await import(new URL('engine.js', import.meta.url).href);
  return mod.loadExplorer();
}

export class ExplorePanel {
  #host;
  #dialog = /** @type {HTMLDialogElement} */ ($('explore'));
  #status = $('explore-status');
  #result = $('explore-result');
  #load = $('explore-load');
  #search = /** @type {HTMLButtonElement} */ ($('explore-search'));
  #cancel = /** @type {HTMLButtonElement} */ ($('explore-cancel'));
  /** @type {AbortController | null} */
  #running = null;
  /** @type {{text: string, mutant: string} | null} */
  #found = null;
  /** Where focus goes when the dialog closes: the Explore button, or the editor after a load. */
  #returnTo = 'explore-button';

  /** @param {ExploreHost} host */
  constructor(host) {
    this.#host = host;
    $('explore-button').addEventListener('click', () => this.open());
    $('explore-close').addEventListener('click', () => this.#dialog.close());
    this.#dialog.addEventListener('close', () => {
      $(this.#returnTo).focus();
      this.#returnTo = 'explore-button';
    });
    this.#search.addEventListener('click', () => this.#start());
    this.#cancel.addEventListener('click', () => this.#running?.abort());
    this.#load.addEventListener('click', () => this.#loadFound());
  }

  /** Opens the dialog, its goal choices filled from the engine (the first search: FIRST_GOAL). */
  async open() {
    this.#dialog.showModal();
    await this.#fillGoals();
  }

  async #fillGoals() {
    const t = this.#host.words();
    const [mutants, invariants] = await Promise.all([this.#host.mutants(), this.#host.invariants()]);
    const option = (/** @type {string} */ value, /** @type {string} */ text) => {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      return o;
    };
    const mutantSelect = /** @type {HTMLSelectElement} */ ($('explore-mutant'));
    if (mutantSelect.options.length === 0) {
      mutantSelect.append(...mutants.map((m) => option(m.name, m.name)));
      if (mutants.some((m) => m.name === FIRST_GOAL)) mutantSelect.value = FIRST_GOAL;
    }
    const prop = /** @type {HTMLSelectElement} */ ($('explore-property'));
    prop.replaceChildren(option('', t.exploreAnyInvariant), ...invariants.map((name) => option(name, name)));
    const eng = /** @type {HTMLSelectElement} */ ($('explore-engine'));
    eng.replaceChildren(
      option('', t.correctEngineOption),
      ...mutants.map((m) => option(m.name, t.mutantOption(m.name))),
    );
    if (mutants.length === 0) this.#status.textContent = t.exploreNoMutants;
  }

  /** The goal and the scope the form says. */
  #query() {
    const form = /** @type {HTMLFormElement} */ ($('explore-form'));
    const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
    const num = (/** @type {string} */ id) => Number.parseInt(value(id), 10) || 0;
    const byMutant = /** @type {RadioNodeList} */ (form.elements.namedItem('goal')).value === 'mutant';
    const goal = byMutant
      ? { mutant: value('explore-mutant') }
      : { engine: value('explore-engine'), property: value('explore-property') };
    const scope = {
      workers: num('explore-workers'),
      steps: num('explore-steps'),
      ttl: num('explore-ttl'),
      max_attempts: num('explore-max-attempts'),
      deadline: num('explore-deadline'),
    };
    return { goal, scope, mutant: byMutant ? value('explore-mutant') : value('explore-engine') };
  }

  async #start() {
    const t = this.#host.words();
    const { goal, scope, mutant } = this.#query();
    this.#running?.abort();
    const stop = new AbortController();
    this.#running = stop;
    this.#setRunning(true);
    this.#showResult(null, mutant);
    this.#status.textContent = t.exploreLoading;
    try {
      const engine = await explorer();
      const onProgress = (/** @type {{states: number, depth: number, rate: number}} */ p) => {
        if (this.#running === stop) this.#status.textContent = t.exploreProgress(p.states, p.depth, p.rate);
      };
      const raw = await engine.explore(goal, { scope, signal: stop.signal, onProgress });
      /** @type {Report} */
      const r = JSON.parse(raw);
      this.#status.textContent = r.found
        ? t.exploreFound(r.steps, r.states, r.elapsed_ms)
        : t.exploreNothing(r.depth, r.states, Boolean(r.bound));
      this.#showResult(r.found ? r.timeline : null, mutant);
    } catch (err) {
      const e = /** @type {Error} */ (err);
      this.#status.textContent = e.name === 'AbortError' ? t.exploreCancelled : t.exploreFailed(e.message);
    } finally {
      if (this.#running === stop) {
        this.#running = null;
        this.#setRunning(false);
      }
    }
  }

  /** @param {boolean} on */
  #setRunning(on) {
    // The button under the keyboard's focus may disable itself: focus moves
    // to the one that takes over (Cancel; then the load, or Search again).
    const held = document.activeElement === this.#search || document.activeElement === this.#cancel;
    this.#search.disabled = on;
    this.#cancel.disabled = !on;
    if (held) (on ? this.#cancel : this.#load.hidden ? this.#search : this.#load).focus();
    this.#dialog.dataset.state = on ? 'running' : 'idle';
    // Its progress is not read out while it runs, only what it found.
    this.#status.setAttribute('aria-busy', String(on));
  }

  /**
   * @param {string | null} text the found timeline, or null
   * @param {string} mutant the engine it tells apart or breaks
   */
  #showResult(text, mutant) {
    this.#found = text ? { text, mutant } : null;
    this.#result.hidden = !text;
    this.#load.hidden = !text;
    this.#result.textContent = text || '';
  }

  #loadFound() {
    if (!this.#found) return;
    this.#host.load(this.#found.text, this.#found.mutant);
    this.#returnTo = 'editor';
    this.#dialog.close();
  }
}

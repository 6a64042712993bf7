// @ts-check
// predict.js is a player's prediction mode: a learner says what happens at
// a step before the player shows it. The questions are the steps the
// timeline marks `-> ?` (the trace's step.predict: the choices and the
// answer, the engine's); a timeline with no mark asks at every step with an
// expectation, offering its operation's outcomes (CHOICES, the engine's
// choices for an unmarked step, held to the engine's by a Go test).
//
// While it is on, the cursor stops before the first question not yet
// answered: moving or playing past it asks it instead. The lanes draw no
// step after the cursor (the view's class predicting hides what the
// lanes draw as future), so the ending is never shown before it is
// reached. An answer shows the step, says right or wrong with the engine's
// one-sentence explanation of the step, and moves the focus to that
// verdict; the last step shows the score. Each answer is reported
// (Quiz's answered callback: the element's predicted event), so a page
// can keep its own explanation of a timeline back until the learner has
// answered every question.

import { h } from './render.js';

/** @typedef {import('./i18n.js').Strings} Strings */
/** @typedef {import('./trace.js').Trace} Trace */

/**
 * @typedef {object} Answered an answer given, as Quiz reports it
 * @property {number} step the step asked about, 1-based
 * @property {string} choice the outcome chosen ("refused held")
 * @property {string} answer the step's outcome, the engine's
 * @property {boolean} right whether the choice is the answer
 * @property {number} answered how many of the trace's questions are answered now
 * @property {number} questions how many questions the trace asks
 */

/**
 * The outcomes a learner chooses from at an unmarked step with an
 * expectation, by the step's operation: the engine's Prediction.Choices for
 * a step that ended ok (engine/timeline predict.go), over storage that does
 * not ask the lock service.
 * @type {Record<string, string[]>}
 */
export const CHOICES = {
  claim: ['ok', 'refused done', 'refused held'],
  claim_many: ['ok', 'refused done', 'refused held'],
  claim_next: ['ok', 'empty'],
  renew: ['ok', 'refused superseded', 'refused done', 'refused expired'],
  complete: ['ok', 'refused superseded', 'refused done', 'refused expired'],
  release: ['ok', 'refused superseded', 'refused done'],
  send: ['ok', 'refused superseded', 'refused done', 'refused expired', 'empty', 'failed'],
  deliver: ['ok'],
  enqueue: ['ok'],
  state: ['ok', 'empty'],
  write: ['ok', 'refused fenced'],
  read: ['ok', 'empty'],
  reopen: ['ok'],
};

/**
 * A step's outcome as an expectation writes it: "ok", "refused held".
 * @param {{kind: string, reason: string}} o
 */
export const outcomeWords = (o) => (o.reason ? `${o.kind} ${o.reason}` : o.kind);

/**
 * The questions of a trace, by step index: its marked steps', or, when it
 * marks none, one at every step with an expectation.
 * @param {Trace} trace
 * @returns {Map<number, {choices: string[], answer: string}>}
 */
export function questionsOf(trace) {
  /** @type {Map<number, {choices: string[], answer: string}>} */
  const marked = new Map();
  for (const [i, s] of trace.steps.entries()) if (s.predict) marked.set(i, s.predict);
  if (marked.size > 0) return marked;
  /** @type {Map<number, {choices: string[], answer: string}>} */
  const expected = new Map();
  for (const [i, s] of trace.steps.entries()) {
    const choices = CHOICES[s.op];
    if (!s.expect || !choices) continue;
    const answer = outcomeWords(s.outcome);
    expected.set(i, { choices: choices.includes(answer) ? choices : [...choices, answer], answer });
  }
  return expected;
}

/** A player's prediction mode: its panel, its questions and the answers given. */
export class Quiz {
  /** Whether the mode is on. */
  on = false;
  /** @type {Map<number, {choices: string[], answer: string}>} */
  #questions = new Map();
  /** @type {Map<number, string>} the choice given at each question answered */
  #answers = new Map();
  /** @type {number} the question just answered, whose verdict shows; -1 none */
  #last = -1;
  /** @type {Trace | null} */
  #trace = null;

  /**
   * @param {(step: number) => void} reveal shows the step at index step (the cursor after it)
   * @param {(a: Answered) => void} [answered] told of each answer, after its step is shown
   */
  constructor(reveal, answered) {
    this.reveal = reveal;
    this.answered = answered;
    this.root = h('section', { class: 'predict', hidden: true });
    this.question = h('p', { class: 'predict-question' });
    this.hint = h('p', { class: 'predict-hint' });
    this.choices = h('div', { class: 'predict-choices', role: 'group' });
    this.verdict = h('p', { class: 'predict-verdict', tabindex: -1, 'aria-live': 'polite' });
    this.root.append(this.question, this.hint, this.choices, this.verdict);
    this.choices.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-choice]');
      if (b) this.answer(/** @type {HTMLElement} */ (b).dataset.choice || '');
    });
  }

  /**
   * Takes a run's trace: its questions, none answered.
   * @param {Trace} trace
   */
  setTrace(trace) {
    if (trace === this.#trace) return;
    this.#trace = trace;
    this.#questions = questionsOf(trace);
    this.#answers.clear();
    this.#last = -1;
  }

  /** The index of the first question not answered, or Infinity. */
  get gate() {
    if (!this.on) return Number.POSITIVE_INFINITY;
    for (const i of [...this.#questions.keys()].sort((a, b) => a - b)) if (!this.#answers.has(i)) return i;
    return Number.POSITIVE_INFINITY;
  }

  /** How many questions were answered, and how many of them right. */
  get score() {
    let right = 0;
    for (const [i, chosen] of this.#answers) if (this.#questions.get(i)?.answer === chosen) right++;
    return { right, asked: this.#answers.size, questions: this.#questions.size };
  }

  /** Moves the focus to the question's first choice. */
  focus() {
    /** @type {HTMLElement | null} */ (this.choices.querySelector('button'))?.focus();
  }

  /**
   * Answers the question at the gate with choice, and shows its step.
   * @param {string} choice
   */
  answer(choice) {
    const i = this.gate;
    const q = this.#questions.get(i);
    if (!q?.choices.includes(choice)) return;
    this.#answers.set(i, choice);
    this.#last = i;
    this.reveal(i);
    this.verdict.focus({ preventScroll: true });
    const { asked, questions } = this.score;
    this.answered?.({ step: i + 1, choice, answer: q.answer, right: choice === q.answer, answered: asked, questions });
  }

  /**
   * Draws the panel at cursor: the question at the gate when the cursor
   * waits before it, the verdict of the last answer, the score at the end.
   * @param {number} cursor
   * @param {Strings} t
   */
  draw(cursor, t) {
    const trace = this.#trace;
    this.root.hidden = !this.on || !trace || this.#questions.size === 0;
    if (this.root.hidden || !trace) return;
    const w = t.predict;
    const words = (/** @type {string} */ o) => w.outcomes[o] || o;
    const gate = this.gate;
    const asking = cursor === gate && gate < trace.steps.length;
    this.question.hidden = this.hint.hidden = this.choices.hidden = !asking;
    if (asking) {
      const s = trace.steps[gate];
      const call = [...s.actors, s.op, s.job].filter(Boolean).join(' ');
      this.question.textContent = w.question(gate + 1, trace.steps.length, `${s.time} ms`, call);
      this.hint.textContent = w.choose;
      const q = /** @type {{choices: string[]}} */ (this.#questions.get(gate));
      if (this.choices.dataset.step !== String(gate) || this.choices.dataset.lang !== t.lang) {
        this.choices.replaceChildren(
          ...q.choices.map((c) => h('button', { type: 'button', 'data-choice': c, text: words(c) })),
        );
        this.choices.dataset.step = String(gate);
        this.choices.dataset.lang = t.lang;
      }
      this.choices.setAttribute('aria-label', w.question(gate + 1, trace.steps.length, `${s.time} ms`, call));
    }
    const lines = [];
    const last = this.#questions.get(this.#last);
    const chosen = this.#answers.get(this.#last);
    if (last && chosen !== undefined && cursor === this.#last + 1) {
      lines.push(chosen === last.answer ? w.right(words(last.answer)) : w.wrong(words(chosen), words(last.answer)));
      const why = trace.steps[this.#last].explain;
      if (why) lines.push(why);
    }
    const { right, asked, questions } = this.score;
    if (cursor >= trace.steps.length && asked > 0) lines.push(w.score(right, asked));
    else if (asked > 0 && questions > asked && !asking) lines.push(w.ahead(questions - asked));
    this.verdict.textContent = lines.join(' ');
    this.verdict.className = `predict-verdict${last && chosen !== undefined && cursor === this.#last + 1 ? (chosen === last.answer ? ' right' : ' wrong') : ''}`;
  }
}

/**
 * The column of a line's `->`, or -1: the first one outside a quoted value
 * ("...", with backslash escapes) and before a comment (a `#` that starts a
 * word), as the timeline's lexer reads a line.
 * @param {string} line
 */
function arrowAt(line) {
  let wordStart = true;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\r') {
      wordStart = true;
      continue;
    }
    if (c === '#' && wordStart) return -1;
    if (c === '-' && line[i + 1] === '>') return i;
    wordStart = false;
    if (c !== '"') continue;
    for (i++; i < line.length && line[i] !== '"'; i++) if (line[i] === '\\') i++;
  }
  return -1;
}

/**
 * A timeline's text as a learner in prediction mode may read it before the
 * player shows its run: what follows each `-> ?` mark (the expectation and
 * any comment after it) is cut, the mark kept; a text that marks no step
 * has every expectation cut to `-> ?`, as the player then asks at every
 * step with one (questionsOf). Everything before an arrow, and every other
 * line, is kept, so a line number names the same line in both.
 * @param {string} text
 */
export function maskAnswers(text) {
  const lines = text.split('\n');
  const arrows = lines.map(arrowAt);
  const marked = (/** @type {number} */ i) => /^\?/.test(lines[i].slice(arrows[i] + 2).trimStart());
  const anyMarked = arrows.some((a, i) => a >= 0 && marked(i));
  return lines
    .map((line, i) => {
      const a = arrows[i];
      if (a < 0 || (anyMarked && !marked(i))) return line;
      return `${line.slice(0, a)}-> ?${line.endsWith('\r') ? '\r' : ''}`;
    })
    .join('\n');
}

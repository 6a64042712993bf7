// @ts-check
// student-view.js draws the run of a student's code that a grading
// report's link carries (grade-run.js) as a view beside the engine's in
// the player: at the player's cursor, the calls of the student's
// functions the step made with their answers, and the student's table
// after it; at the step where the code parts from the contract, the view
// says so. Its table (labTable) is the lab table <lease-exercise> draws
// too.

/** @typedef {import('./grade-run.js').StudentRun} StudentRun */
/** @typedef {import('./grade-run.js').Cell} Cell */
/** @typedef {import('./i18n.js').Strings} Strings */

let serial = 0;

/**
 * Makes an element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {...(Node | string)} kids
 */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...kids);
  return e;
}

/**
 * A lab table: a caption, the columns, a row of cells a row (NULL for
 * null), or one row saying none when there are no rows.
 * @param {{cols: string[], rows: unknown[][], caption: string, none: string, cls: string}} o
 */
export function labTable({ cols, rows, caption, none, cls }) {
  const cell = (/** @type {unknown} */ v) => (v === null || v === undefined ? 'NULL' : String(v));
  return el(
    'table',
    { class: cls, translate: 'no' },
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, ...cols.map((c) => el('th', { scope: 'col' }, c)))),
    el(
      'tbody',
      {},
      ...(rows.length
        ? rows.map((r) => el('tr', {}, ...r.map((v) => el('td', {}, cell(v)))))
        : [el('tr', {}, el('td', { colspan: String(cols.length) }, none))]),
    ),
  );
}

/** The student's view: their run at the cursor, or why the link's run was refused. */
export class StudentView {
  /** @type {StudentRun | null} */
  run = null;
  error = '';

  /** @param {{heading: 'h2' | 'h3' | 'h4' | 'h5' | 'h6', seek: (step: number) => void}} o */
  constructor({ heading, seek }) {
    const id = `student-view-${++serial}`;
    this.title = el(heading, { class: 'view-title', id });
    this.root = el('section', { class: 'view student', 'aria-labelledby': id });
    // Spoken when the cursor reaches the step that differs, or leaves it.
    this.status = el('p', { class: 'student-status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.goTo = el('button', { type: 'button', class: 'link student-go' });
    this.goTo.addEventListener('click', () => {
      if (this.run) seek(this.run.diff);
    });
    this.callsTitle = el('p', { class: 'student-calls-title' });
    this.calls = el('ol', { class: 'student-calls', translate: 'no' });
    this.heading = el(heading, {});
    this.tableBox = el('div', { class: 'table-scroll', tabindex: '0', role: 'region' });
    this.root.append(
      this.title,
      el('div', { class: 'explain-box student-box' }, this.status, this.goTo, this.callsTitle, this.calls),
      el('section', { class: 'panel table-panel' }, this.heading, this.tableBox),
    );
  }

  /**
   * Shows run, or error (the message saying why the link's run was refused).
   * @param {StudentRun | null} run
   * @param {string} [error]
   */
  set(run, error = '') {
    this.run = run;
    this.error = error;
  }

  /**
   * Draws the run at cursor (0 before the first step, k after the k-th).
   * @param {number} cursor
   * @param {Strings} t
   */
  draw(cursor, t) {
    const run = this.run;
    this.title.textContent = t.yourCode;
    this.heading.textContent = t.studentTable;
    this.tableBox.setAttribute('aria-label', t.studentTable);
    this.root.classList.toggle('at-diff', Boolean(run) && cursor === run?.diff);
    this.root.classList.toggle('refused', !run);
    if (!run) {
      this.root.dataset.step = '';
      setText(this.status, this.error);
      this.status.setAttribute('role', 'alert');
      this.goTo.hidden = true;
      this.callsTitle.hidden = true;
      this.calls.replaceChildren();
      this.tableBox.replaceChildren();
      this.tableBox.hidden = true;
      return;
    }
    this.status.removeAttribute('role');
    const step = run.steps[cursor];
    this.root.dataset.step = step ? String(cursor) : '';
    if (cursor === run.diff) setText(this.status, t.studentHere);
    else if (cursor > run.diff) setText(this.status, t.studentAfter);
    else setText(this.status, cursor === 0 ? t.studentStart : t.studentDiffers(run.diff));
    this.goTo.hidden = cursor === run.diff;
    this.goTo.textContent = t.goToStep(run.diff);
    this.callsTitle.hidden = !step;
    this.callsTitle.textContent = step?.calls.length ? t.studentCalls : t.studentNoCalls;
    this.calls.replaceChildren(...(step ? step.calls.map((c) => el('li', {}, el('code', {}, c))) : []));
    this.tableBox.hidden = !step;
    this.tableBox.replaceChildren(
      ...(step
        ? [
            labTable({
              cols: run.cols,
              rows: step.rows,
              caption: t.studentTable,
              none: t.labNoRows,
              cls: 'jobs-table student-table',
            }),
          ]
        : []),
    );
    // The panel's heading says what the table is: its caption is for a screen reader's list of tables.
    this.tableBox.querySelector('caption')?.classList.add('visually-hidden');
  }
}

/**
 * Sets el's text only when it differs: a live region speaks on every change.
 * @param {HTMLElement} el
 * @param {string} text
 */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// @ts-check
// history-view.js draws a concurrent history checked for linearizability
// (a grading report's race, leaselab history -link: the page's
// #history=): one lane a client, each call an interval drawn to scale on
// one time axis (milliseconds since the first call was invoked) with its
// answer on its bar, the calls no order fits marked by colour and by a
// mark (! the call no order places, * a call overlapping it), and beside
// the drawing the model's one-at-a-time order, each call with the rows
// after it. The engine checks and says what to draw (leaselab.history,
// engine/history's Drawing as JSON); this module only draws. The drawing
// is an image whose text alternative is the table of the calls below it;
// both scroll in regions of their own, reachable by the keyboard.

import { el } from './student-view.js';

/** @typedef {import('./i18n.js').Strings} Strings */

/**
 * A call as the engine draws it: times on the history's clock
 * (nanoseconds) since the first invocation.
 * @typedef {object} DrawnCall
 * @property {number} n
 * @property {string} client
 * @property {string} call
 * @property {string} answer
 * @property {number} invoke
 * @property {number} return
 * @property {boolean} stuck
 * @property {boolean} overlaps
 * @property {boolean} in_flight
 */

/**
 * @typedef {object} Drawing
 * @property {'linearizable' | 'not linearizable' | 'unknown'} verdict
 * @property {string[]} clients
 * @property {DrawnCall[]} calls
 * @property {number[]} failing
 * @property {{n: number, rows: string[]}[]} order
 * @property {string} report
 */

/**
 * e placed on its track at left (and width, when given), set through the
 * CSS object model: the page's Content-Security-Policy (style-src 'self')
 * ignores a style attribute.
 * @template {HTMLElement} E
 * @param {E} e
 * @param {string} left
 * @param {string} [width]
 * @returns {E}
 */
function at(e, left, width) {
  e.style.left = left;
  if (width) e.style.width = width;
  return e;
}

/** Nanoseconds in a millisecond: the history's clock against the axis. */
const NS_PER_MS = 1e6;

/**
 * Milliseconds as the axis writes them: at most three decimals, fewer when
 * the span is long.
 * @param {number} ms
 * @param {number} span the axis' length, in ms
 */
export function msText(ms, span) {
  const digits = span >= 100 ? 1 : span >= 1 ? 2 : 3;
  return String(Number(ms.toFixed(digits)));
}

/**
 * The ticks of an axis from 0 to span: a round step (1, 2 or 5 times a
 * power of ten) that gives at most six.
 * @param {number} span
 * @returns {number[]}
 */
export function ticks(span) {
  if (!(span > 0)) return [0];
  const raw = span / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
  const out = [];
  for (let t = 0; t <= span + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

/**
 * The mark of a call, as text: "!" no order places it, "*" it overlaps
 * that call, "" neither.
 * @param {DrawnCall} c
 */
export function markOf(c) {
  if (c.stuck) return '!';
  return c.overlaps ? '*' : '';
}

/** The view: shown for a #history= link, hidden otherwise. */
export class HistoryView {
  constructor() {
    this.root = el('section', { class: 'history-view', id: 'history-view', 'aria-labelledby': 'history-title' });
    this.title = el('h2', { id: 'history-title', tabindex: '-1' });
    this.status = el('p', { class: 'history-verdict', role: 'status' });
    this.body = el('div', { class: 'history-body' });
    this.root.append(this.title, this.status, this.body);
    this.root.hidden = true;
  }

  /**
   * Shows a message in place of a drawing: the link's history cannot be
   * read, or is being checked.
   * @param {Strings} t
   * @param {string} msg
   * @param {boolean} [error]
   */
  message(t, msg, error = false) {
    this.root.hidden = false;
    this.title.textContent = t.hist.title;
    this.status.textContent = msg;
    this.status.classList.toggle('history-error', error);
    this.body.replaceChildren();
  }

  /** Hides the view. */
  hide() {
    this.root.hidden = true;
    this.body.replaceChildren();
  }

  /**
   * Draws d in the words of t.
   * @param {Drawing} d
   * @param {Strings} t
   */
  draw(d, t) {
    const h = t.hist;
    this.root.hidden = false;
    this.title.textContent = h.title;
    this.status.classList.remove('history-error');
    this.status.textContent = h.verdict[d.verdict] || d.verdict;
    const span = Math.max(1e-3, ...d.calls.map((c) => c.return / NS_PER_MS));
    const tableId = 'history-calls';
    this.body.replaceChildren(
      el(
        'div',
        { class: 'history-main' },
        el(
          'figure',
          { class: 'history-figure' },
          el(
            'div',
            { class: 'history-scroll', role: 'region', tabindex: '0', 'aria-label': h.drawingRegion },
            this.lanes(d, t, span),
          ),
          el('figcaption', { class: 'history-axis-note' }, h.axis(msText(span, span))),
        ),
        this.order(d, t),
      ),
      el('p', { class: 'history-legend' }, ...legend(t)),
      el(
        'div',
        { class: 'table-scroll', role: 'region', tabindex: '0', 'aria-labelledby': `${tableId}-caption` },
        this.table(d, t, span, tableId),
      ),
      el('details', { class: 'history-report' }, el('summary', {}, h.report), el('pre', { translate: 'no' }, d.report)),
    );
  }

  /**
   * The drawing: a lane a client, each call a bar from its invocation to
   * its return, and the axis under them. An image: the table below is its
   * text.
   * @param {Drawing} d
   * @param {Strings} t
   * @param {number} span the axis' length, in ms
   */
  lanes(d, t, span) {
    const h = t.hist;
    const pct = (/** @type {number} */ ns) => `${((ns / NS_PER_MS / span) * 100).toFixed(3)}%`;
    const lanes = d.clients.map((client) => {
      const bars = d.calls
        .filter((c) => c.client === client)
        .map((c) => {
          const mark = markOf(c);
          const cls = ['history-call'];
          if (c.stuck) cls.push('stuck');
          else if (c.overlaps) cls.push('overlaps');
          if (c.in_flight) cls.push('in-flight');
          const bar = el(
            'div',
            {
              class: cls.join(' '),
              'data-n': String(c.n),
              'data-mark': mark,
              title: `${h.callN(c.n)}: ${c.call} → ${c.answer}`,
            },
            el('span', { class: 'history-call-text', translate: 'no' }, `${mark ? `${mark} ` : ''}${c.answer}`),
          );
          return at(bar, pct(c.invoke), `max(${pct(c.return - c.invoke)}, 4px)`);
        });
      return el(
        'div',
        { class: 'history-lane', 'data-client': client },
        el('span', { class: 'history-lane-name', translate: 'no' }, client),
        el('div', { class: 'history-track' }, ...bars),
      );
    });
    const axis = el(
      'div',
      { class: 'history-lane history-axis' },
      el('span', { class: 'history-lane-name' }, 'ms'),
      el(
        'div',
        { class: 'history-track' },
        ...ticks(span).map((ms) =>
          at(el('span', { class: 'history-tick' }, msText(ms, span)), `${((ms / span) * 100).toFixed(3)}%`),
        ),
      ),
    );
    return el(
      'div',
      { class: 'history-drawing', role: 'img', 'aria-label': h.drawingLabel(d.calls.length, d.clients.length) },
      ...lanes,
      axis,
    );
  }

  /**
   * The model's order: a numbered list of the calls it takes one at a
   * time, each with the rows after it; where no order fits, the sentence
   * that says so.
   * @param {Drawing} d
   * @param {Strings} t
   */
  order(d, t) {
    const h = t.hist;
    const byN = new Map(d.calls.map((c) => [c.n, c]));
    const items = d.order.map((s) => {
      const c = byN.get(s.n);
      const rows = s.rows.length ? s.rows : [h.noRows];
      return el(
        'li',
        { 'data-n': String(s.n) },
        el(
          'span',
          {},
          h.callN(s.n),
          ' ',
          el('code', { translate: 'no' }, c ? `${c.client}: ${c.call} → ${c.answer}` : ''),
        ),
        el('span', { class: 'history-rows-title' }, h.rowsAfter),
        el('ul', { class: 'history-rows', translate: 'no' }, ...rows.map((r) => el('li', {}, r))),
      );
    });
    const stuck = d.calls.find((c) => c.stuck);
    return el(
      'section',
      { class: 'history-order', 'aria-labelledby': 'history-order-title' },
      el('h3', { id: 'history-order-title' }, h.orderTitle),
      items.length ? el('ol', {}, ...items) : el('p', {}, h.orderNone),
      stuck ? el('p', { class: 'history-no-order' }, h.noOrder(stuck.n)) : '',
    );
  }

  /**
   * The table of the calls: the drawing's text.
   * @param {Drawing} d
   * @param {Strings} t
   * @param {number} span
   * @param {string} id
   */
  table(d, t, span, id) {
    const h = t.hist;
    const markText = (/** @type {DrawnCall} */ c) => {
      if (c.stuck) return `! ${h.legendStuck}`;
      return c.overlaps ? `* ${h.legendOverlaps}` : '';
    };
    return el(
      'table',
      { class: 'history-table', id },
      el('caption', { id: `${id}-caption` }, h.tableCaption),
      el('thead', {}, el('tr', {}, ...h.cols.map((c) => el('th', { scope: 'col' }, c)))),
      el(
        'tbody',
        {},
        ...d.calls.map((c) =>
          el(
            'tr',
            { class: markOf(c) ? 'history-marked' : '', 'data-n': String(c.n) },
            el('th', { scope: 'row' }, String(c.n)),
            el('td', { translate: 'no' }, c.client),
            el('td', { translate: 'no' }, c.call),
            el('td', { translate: 'no' }, c.answer),
            el('td', {}, msText(c.invoke / NS_PER_MS, span)),
            el('td', {}, msText(c.return / NS_PER_MS, span)),
            el('td', {}, markText(c)),
          ),
        ),
      ),
    );
  }
}

/**
 * The legend of the marks: each a swatch with its mark, and its words.
 * @param {Strings} t
 */
function legend(t) {
  const h = t.hist;
  return [
    el('span', { class: 'history-swatch stuck', 'aria-hidden': 'true' }, '!'),
    ` ${h.legendStuck} `,
    el('span', { class: 'history-swatch overlaps', 'aria-hidden': 'true' }, '*'),
    ` ${h.legendOverlaps}`,
  ];
}

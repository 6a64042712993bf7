// @ts-check
// render.js draws a leaselab trace into the page: the workers' lanes as SVG
// (laid out by lanes.js), the jobs table, the fenced storage, the SQL of a
// step and the invariant verdicts.
//
// It decides nothing the engine decides. Outcomes, refusal reasons, the
// explanation of each step, the changed cells and the verdicts are read from
// the trace; this file only draws them. The player (player.js) calls it;
// the words around the trace come from the catalogue the caller passes
// (i18n.js).

import { parts } from './i18n.js';
import { estimateText, layoutLanes } from './lanes.js';
import { ms, signedMs } from './trace.js';

/** @typedef {import('./trace.js').Trace} Trace */
/** @typedef {import('./trace.js').Row} Row */
/** @typedef {import('./trace.js').Stored} Stored */
/** @typedef {import('./trace.js').Statement} Statement */
/** @typedef {import('./trace.js').Verdict} Verdict */
/** @typedef {import('./lanes.js').LaneModel} LaneModel */
/** @typedef {import('./lanes.js').LanesLayout} LanesLayout */
/** @typedef {import('./lanes.js').LabelKind} LabelKind */
/** @typedef {import('./lanes.js').TextBox} TextBox */
/** @typedef {import('./lanes.js').Placed} Placed */
/** @typedef {import('./i18n.js').Strings} Strings */

const SVGNS = 'http://www.w3.org/2000/svg';

/**
 * @typedef {Record<string, string | number | boolean | null | undefined>} Attrs attributes; text sets the
 * text, false, null and undefined leave the attribute out, true sets it empty
 */
/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * Creates an HTML element with attributes and children (strings become text).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAll(node, attrs, children);
  return node;
}

/**
 * Creates an SVG element with attributes and children.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVGNS, tag));
  setAll(node, attrs, children);
  return node;
}

/**
 * @param {Element} node
 * @param {Attrs} attrs
 * @param {(Child | Child[])[]} children
 */
function setAll(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') node.textContent = String(v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// ---- measuring and laying out the lanes ----

/** @type {Record<LabelKind, string>} the class that gives each kind of label its font (trace.css) */
const LABEL_CLASS = {
  tick: 'tick',
  actor: 'actor',
  offset: 'actor-offset',
  mark: 'mark-label',
  expiry: 'expiry-label',
  token: 'token',
};

/** @type {Map<string, TextBox>} kind and text -> its box as drawn */
const measured = new Map();
if (typeof document !== 'undefined' && document.fonts) {
  document.fonts.addEventListener('loadingdone', () => measured.clear());
}

/**
 * Lays the lanes out for svg at width, with every label measured as the
 * browser draws it: one pass with the labels measured so far (estimated
 * where not), then, if it used labels not measured yet, those measured at
 * once in svg and a second pass. An svg that is not rendered (hidden) is
 * laid out with estimates.
 * @param {SVGSVGElement} svg
 * @param {Trace} trace
 * @param {LaneModel} model
 * @param {number} width
 * @param {Strings} t
 * @returns {LanesLayout}
 */
export function layoutMeasured(svg, trace, model, width, t) {
  /** @type {[string, LabelKind][]} */
  const missing = [];
  /** @param {string} text @param {LabelKind} kind */
  const measure = (text, kind) => {
    const box = measured.get(`${kind}\u0000${text}`);
    if (box) return box;
    missing.push([text, kind]);
    return estimateText(text, kind);
  };
  const first = layoutLanes(trace, model, { width, t, measure });
  if (missing.length === 0 || !svg.isConnected || svg.getClientRects().length === 0) return first;
  measureTexts(svg, missing);
  return layoutLanes(trace, model, { width, t, measure: (text, kind) => measure(text, kind) });
}

/**
 * Measures labels as svg draws them: all appended at once, read, removed.
 * @param {SVGSVGElement} svg
 * @param {[string, LabelKind][]} labels
 */
function measureTexts(svg, labels) {
  const probe = s('g', { class: 'measure', 'aria-hidden': 'true' });
  const texts = labels.map(([text, kind]) => s('text', { x: 0, y: 0, class: LABEL_CLASS[kind], text }));
  probe.append(...texts);
  svg.append(probe);
  texts.forEach((el, i) => {
    const b = /** @type {SVGTextElement} */ (/** @type {unknown} */ (el)).getBBox();
    const [text, kind] = labels[i];
    measured.set(`${kind}\u0000${text}`, { width: b.width, ascent: -b.y, descent: b.y + b.height });
  });
  probe.remove();
}

// ---- drawing the lanes ----

/**
 * @typedef {object} LanesState where the clock stands
 * @property {number} cursor the cursor (0: before the first step)
 * @property {number} clock the virtual time shown (ms)
 * @property {number} ringed the 0-based step whose marks are ringed (a worksheet's first difference), or -1
 * @property {Strings} t
 * @property {Set<number>} [marked] the 0-based steps whose outcome a break changed (break.js)
 */

/**
 * Draws a layout into svg: the lanes, the axis, the pauses, sends and
 * lease bars, the expiries, the step marks and the clock's cursor; the
 * steps after the cursor drawn as future.
 * @param {SVGSVGElement} svg
 * @param {LanesLayout} layout
 * @param {LaneModel} model
 * @param {LanesState} at
 */
export function drawLanes(svg, layout, model, at) {
  const { width: W, height: H } = layout;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', String(W));
  svg.setAttribute('height', String(H));
  svg.setAttribute('aria-label', at.t.lanesLabel);
  /** @type {{__scale?: unknown}} */ (/** @type {unknown} */ (svg)).__scale = layout.scale;
  const breaks = layout.scale.breaks.length > 0;
  svg.replaceChildren(
    s('desc', { text: breaks ? `${at.t.lanesDesc} ${at.t.lanesToScale}` : at.t.lanesDesc }),
    ...laneRows(layout, at.t),
    axis(layout, at.t),
    ...layout.pauses.map((p) => pauseGap(p, at)),
    ...layout.delays.map((d) => lockDelaySpan(d, at)),
    ...layout.watches.map((w) => watchSpan(w, at)),
    ...layout.sends.map((sd) => sendBar(sd, at)),
    ...layout.bars.map((b) => leaseBar(b, at)),
    ...layout.expiries.map((e) => expiryMark(e, model, at)),
    ...layout.marks.map((m) => stepMark(m, at)),
    cursorLine(layout, at.clock),
  );
}

/**
 * @param {Placed} p
 * @param {string} cls
 * @param {Attrs} [attrs]
 */
function label(p, cls, attrs = {}) {
  return s('text', { x: p.x, y: p.y, class: cls, ...attrs, text: p.text });
}

/** @param {LanesLayout} layout @param {Strings} t */
function laneRows(layout, t) {
  return [...layout.lanes.values()].flatMap((l, i) => [
    s('rect', {
      x: 0,
      y: l.y,
      width: layout.width,
      height: l.height,
      class: i % 2 ? 'lane odd' : 'lane',
      'data-actor': l.actor,
    }),
    label(l.name, 'actor', { translate: 'no', 'data-actor': l.actor }),
    ...(l.offset
      ? [
          s(
            'g',
            { class: 'clock-offset' },
            s('title', { text: t.clockOffsetTitle(l.actor, signedMs(l.offsetMs)) }),
            label(l.offset, 'actor-offset'),
          ),
        ]
      : []),
  ]);
}

/**
 * A tick at each instant something happens, with the labels that keep
 * apart, and a break mark (//) over each stretch drawn wider than the
 * scale, under the labels.
 * @param {LanesLayout} layout
 * @param {Strings} t
 */
function axis(layout, t) {
  const g = s('g', { class: 'axis' });
  for (const k of layout.ticks) {
    g.append(s('line', { x1: k.x, x2: k.x, y1: layout.top - 6, y2: layout.height - 4, class: 'grid' }));
    if (k.label) g.append(label(k.label, 'tick'));
  }
  const y1 = layout.top - 1;
  const y2 = layout.top - 8;
  for (const b of layout.scale.breaks) {
    const x = (layout.scale.x(b.from) + layout.scale.x(b.to)) / 2;
    g.append(
      s(
        'g',
        { class: 'axis-break', 'data-from': String(b.from), 'data-to': String(b.to) },
        s('title', { text: t.axisBreak(ms(b.from), ms(b.to)) }),
        s('path', { d: `M${x - 5} ${y1}L${x - 1} ${y2}M${x + 1} ${y1}L${x + 5} ${y2}` }),
      ),
    );
  }
  return g;
}

/**
 * A span of time on a lane, drawn as a rounded bar with its tooltip.
 * @param {string} cls
 * @param {{x1: number, x2: number, y: number, height: number, rx: number}} at
 * @param {boolean} future
 * @param {string} title
 */
function span(cls, { x1, x2, y, height, rx }, future, title) {
  const attrs = { x: x1, y, width: Math.max(2, x2 - x1), height, rx, class: `${cls}${future ? ' future' : ''}` };
  return s('rect', attrs, s('title', { text: title }));
}

/** A pause: a gap over the worker's lease tracks. @param {LanesLayout['pauses'][number]} p @param {LanesState} at */
function pauseGap(p, at) {
  const box = { x1: p.x1, x2: p.x2, y: p.y1, height: p.y2 - p.y1, rx: 3 };
  return span('pause', box, p.p.step > at.cursor - 1, at.t.pauseTitle(p.p.actor, ms(p.p.start), ms(p.p.end)));
}

/** A lock-delay: the job kept after its lease ran out. @param {LanesLayout['delays'][number]} ld @param {LanesState} at */
function lockDelaySpan(ld, at) {
  const d = ld.d;
  const box = { x1: ld.x1, x2: ld.x2, y: ld.y, height: 14, rx: 3 };
  const title = at.t.lockDelayTitle({ owner: d.actor, job: d.job, token: d.token, from: ms(d.start), to: ms(d.end) });
  return span('lock-delay', box, d.step > at.cursor - 1, title);
}

/** A candidate's stopwatch on a held job's record. @param {LanesLayout['watches'][number]} lw @param {LanesState} at */
function watchSpan(lw, at) {
  const w = lw.w;
  const box = { x1: lw.x1, x2: lw.x2, y: lw.y, height: 4, rx: 2 };
  const title = at.t.watchTitle({
    actor: w.actor,
    holder: w.holder,
    job: w.job,
    token: w.token,
    from: ms(w.start),
    to: ms(w.end),
  });
  return span('watch', box, w.step > at.cursor - 1, title);
}

/** A send in flight. @param {LanesLayout['sends'][number]} sd @param {LanesState} at */
function sendBar(sd, at) {
  const box = { x1: sd.x1, x2: sd.x2, y: sd.y, height: 5, rx: 2 };
  return span('send', box, sd.s.step > at.cursor - 1, at.t.sendTitle(sd.s.actor, ms(sd.s.start), ms(sd.s.end)));
}

/**
 * A lease bar, solid while its holder knows it; after a crash made the
 * holder forget it, an outline until it ends.
 * @param {LanesLayout['bars'][number]} b
 * @param {LanesState} at
 */
function leaseBar(b, at) {
  const l = b.lease;
  const future = l.step > at.cursor - 1;
  const valid = !future && at.clock >= l.start && at.clock < l.end;
  const cls = `lease${future ? ' future' : ''}${valid ? ' valid' : ''}${l.renewal ? ' renewal' : ''}`;
  const g = s('g', { class: cls, 'data-token': l.token, 'data-actor': l.actor });
  const cause = l.cause === 'ends' ? '' : at.t.causes[l.cause];
  const title = {
    actor: l.actor,
    job: l.job,
    token: l.token,
    start: ms(l.start),
    until: ms(l.until),
    cause,
    end: ms(l.end),
  };
  const solidEnd = b.xf ?? b.x2;
  g.append(
    s('rect', { x: b.x1, y: b.y, width: Math.max(3, solidEnd - b.x1), height: 18, rx: 4, class: 'held' }),
    s('title', { text: at.t.leaseTitle(title) }),
  );
  if (b.xf !== null) {
    g.append(
      s(
        'rect',
        { x: b.xf, y: b.y + 1, width: Math.max(2, b.x2 - b.xf), height: 16, rx: 4, class: 'forgotten' },
        s('title', { text: at.t.forgottenTitle(l.actor, ms(/** @type {number} */ (l.forgotAt))) }),
      ),
    );
  }
  if (b.xb !== null && l.believes !== null && l.believesReads !== null) {
    // what its holder believes: a dashed outline from the bar's end to where its own clock says the lease ends
    const from = Math.min(b.x2, b.xb);
    const believed = {
      actor: l.actor,
      job: l.job,
      token: l.token,
      reads: ms(l.believesReads),
      at: ms(l.believes),
    };
    g.append(
      s(
        'g',
        { class: 'belief' },
        s('rect', { x: from, y: b.y + 1, width: Math.max(2, Math.abs(b.xb - b.x2)), height: 16, rx: 4 }),
        s('line', { x1: b.xb, x2: b.xb, y1: b.y - 3, y2: b.y + 21 }),
        s('title', { text: at.t.believesTitle(believed) }),
      ),
    );
  }
  if (b.label) g.append(label(b.label, 'token', { translate: 'no' }));
  return g;
}

/**
 * The instant a lease ended: a line down its holder's lane, a marker and,
 * where it fits, a label.
 * @param {LanesLayout['expiries'][number]} ex
 * @param {LaneModel} model
 * @param {LanesState} at
 */
function expiryMark(ex, model, at) {
  const e = ex.e;
  const past = !e.later && e.step <= at.cursor - 1;
  const g = s('g', { class: `expiry${past ? '' : ' future'}${e.later ? ' later' : ''}`, 'data-token': e.token });
  const off = model.offsets.get(e.owner) || 0;
  const own = off ? ` ${at.t.ownClockEnd(e.owner, ms(e.at + off))}` : '';
  g.append(
    s('line', { x1: ex.x, x2: ex.x, y1: ex.y1 + 2, y2: ex.y2 }),
    s('path', { d: `M${ex.x - 5} ${ex.y1} h10 l-5 7 z` }),
    ...(ex.label ? [label(ex.label, 'expiry-label')] : []),
    s('title', { text: at.t.expiryTitle({ owner: e.owner, job: e.job, token: e.token, at: ms(e.at) }) + own }),
  );
  return g;
}

/**
 * One worker's part in one step: a dot (a cross when refused, a pause
 * sign, a crash square), ringed when it is the current step, the
 * worksheet's first difference or a step that broke an invariant.
 * @param {LanesLayout['marks'][number]} pm
 * @param {LanesState} at
 */
function stepMark(pm, at) {
  const { m, cx, cy } = pm;
  const cls = [
    'mark',
    `k-${m.kind}`,
    m.step > at.cursor - 1 ? 'future' : '',
    m.step === at.cursor - 1 ? 'current' : '',
    m.step === at.ringed ? 'differs' : '',
    m.violation ? `v-${m.violation}` : '',
    at.marked?.has(m.step) ? 'changed' : '',
  ];
  const g = s('g', { class: cls.filter(Boolean).join(' '), 'data-step': m.step + 1, 'data-actor': m.actor });
  if (m.step === at.ringed) g.append(s('circle', { cx, cy, r: 15, class: 'diff-ring' }));
  if (m.step === at.cursor - 1) g.append(s('circle', { cx, cy, r: 12, class: 'halo' }));
  if (m.violation) g.append(s('circle', { cx, cy, r: 10, class: 'violation' }));
  const changed = at.marked?.has(m.step);
  if (changed) g.append(s('rect', { x: cx - 13, y: cy - 13, width: 26, height: 26, class: 'changed-box' }));
  g.append(...glyph(m.kind, cx, cy));
  const clock = m.onService ? at.t.serviceClock(ms(m.now ?? 0)) : at.t.ownClock(m.actor, ms(m.now ?? 0));
  const own = m.now !== null ? `\n${clock}` : '';
  const why = changed ? `\n${at.t.brk.markTitle}` : '';
  g.append(markLabel(pm, at.t.lang), s('title', { text: `${m.source}\n${m.explain}${own}${why}` }));
  return g;
}

/**
 * A mark's label: on a page not in English, the timeline language's code
 * word in it (a refusal's reason) is a tspan marked lang="en".
 * @param {LanesLayout['marks'][number]} pm
 * @param {string} lang the page's
 */
function markLabel(pm, lang) {
  if (lang === 'en' || !pm.parts.some((p) => p.code)) return label(pm.label, 'mark-label');
  const text = s('text', { x: pm.label.x, y: pm.label.y, class: 'mark-label' });
  text.append(...pm.parts.map((p) => (p.code ? s('tspan', { lang: 'en', text: p.text }) : p.text)));
  return text;
}

/** @param {string} kind @param {number} cx @param {number} cy */
function glyph(kind, cx, cy) {
  const cross = (/** @type {number} */ r) =>
    `M${cx - r} ${cy - r} l${2 * r} ${2 * r} M${cx + r} ${cy - r} l${-2 * r} ${2 * r}`;
  switch (kind) {
    case 'refused':
    case 'error':
      return [s('circle', { cx, cy, r: 8, class: 'dot' }), s('path', { d: cross(3.5), class: 'cross' })];
    case 'pause':
      return [
        s('circle', { cx, cy, r: 8, class: 'dot' }),
        s('path', { d: `M${cx - 2.5} ${cy - 4} v8 M${cx + 2.5} ${cy - 4} v8`, class: 'cross' }),
      ];
    case 'crash':
      return [
        s('rect', { x: cx - 7.5, y: cy - 7.5, width: 15, height: 15, rx: 2, class: 'dot' }),
        s('path', { d: cross(3.5), class: 'cross' }),
      ];
    default:
      return [s('circle', { cx, cy, r: 6, class: 'dot' })];
  }
}

/** @param {LanesLayout} layout @param {number} clock */
function cursorLine(layout, clock) {
  const cx = layout.scale.x(clock);
  const top = layout.top;
  return s(
    'g',
    { class: 'cursor' },
    s('line', { x1: cx, x2: cx, y1: top - 4, y2: layout.height - 4 }),
    s('path', { d: `M${cx - 5} ${top - 8} h10 l-5 6 z` }),
  );
}

/**
 * Maps a click's x (CSS pixels within the svg) to a time on the axis.
 * @param {SVGSVGElement} svg
 * @param {number} clientX
 */
export function timeAt(svg, clientX) {
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const px = ((clientX - box.left) / box.width) * vb.width;
  const scale = /** @type {{__scale?: import('./lanes.js').TimeScale}} */ (/** @type {unknown} */ (svg)).__scale;
  return scale ? scale.time(px) : 0;
}

// ---- the tables and lists ----

export const COLUMNS = /** @type {const} */ ([
  'id',
  'owner',
  'token',
  'lease_until',
  'status',
  'attempts',
  'max_attempts',
  'deadline',
  'reason',
  'result',
  'qty',
]);

/**
 * Fills a table's head with column names (the schema's: never translated),
 * each with its meaning in t's language as its description (title), unless
 * it has them in that language. A name may break after each underscore
 * (max_/attempts), so that a table of short values is no wider than its
 * values need.
 * @param {HTMLTableElement} table
 * @param {readonly (keyof Strings['columns'])[]} columns
 * @param {Strings} t
 */
function tableHead(table, columns, t) {
  const head = /** @type {HTMLTableSectionElement} */ (table.tHead).rows[0];
  if (
    head.cells.length !== columns.length ||
    head.cells[0].textContent !== columns[0] ||
    head.dataset.lang !== t.lang
  ) {
    const name = (/** @type {string} */ c) => c.split(/(?<=_)/).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));
    head.replaceChildren(
      ...columns.map((c) => h('th', { scope: 'col', translate: 'no', title: t.columns[c] }, ...name(c))),
    );
    head.dataset.lang = t.lang;
  }
}

/**
 * Fills the jobs table with rows, marking the changed cells; clock is the
 * cursor's time (true time): a lease_until says whether the lease is valid
 * then on its owner's clock, offset(owner) ms off true time.
 * @param {HTMLTableElement} table
 * @param {Row[]} rows
 * @param {{job: string, column: string}[] | null} changed
 * @param {number} clock
 * @param {Strings} t
 * @param {(worker: string) => number} [offset]
 */
export function drawTable(table, rows, changed, clock, t, offset = () => 0, { whole = false } = {}) {
  tableHead(table, COLUMNS, t);
  /** @type {Map<string, Set<string>>} job -> its changed columns */
  const changedOf = new Map();
  for (const c of changed || []) {
    const cols = changedOf.get(c.job) || new Set();
    changedOf.set(c.job, cols.add(c.column));
  }
  const body = table.tBodies[0];
  const keys = rows.map((r) => {
    const cols = changedOf.get(r.id);
    const valid = r.status === 'leased' && r.lease_until > 0 ? String(clock + offset(r.owner) < r.lease_until) : '';
    let key = `${t.lang}\u0000${cols ? [...cols].sort().join() : ''}\u0000${valid}`;
    for (const c of COLUMNS) key += `\u0000${r[c]}`;
    return key;
  });
  const build = (/** @type {Row} */ r) => jobRow(r, changedOf.get(r.id), clock + offset(r.owner), t);
  patchRows(body, rows, keys, build, whole);
}

/**
 * Makes body's rows show rows (keys[i] says what row i shows): a row is
 * built again only when what it shows changed, so a step of a long
 * timeline rewrites the rows it changed, not the whole table. When more
 * rows than a slice are to be built (a new run, a jump over many steps,
 * another language), the outdated rows are hidden at once and built
 * again a slice per painted frame, where they stand: no frame shows rows
 * of two steps side by side, and the table keeps its height, so a reader
 * scrolled down it keeps their place. A later call takes over from an
 * earlier one still at work.
 * @param {HTMLTableSectionElement} body
 * @param {Row[]} rows
 * @param {string[]} keys
 * @param {(r: Row) => HTMLTableRowElement} build
 * @param {boolean} whole every row at once
 */
function patchRows(body, rows, keys, build, whole) {
  stopFilling(body);
  let drawn = rowKeys.get(body);
  if (!drawn || drawn.length !== body.rows.length) {
    body.replaceChildren();
    drawn = [];
  }
  while (body.rows.length > rows.length) body.rows[body.rows.length - 1].remove();
  drawn.length = body.rows.length;
  rowKeys.set(body, drawn);
  /** @type {number[]} */
  const todo = [];
  keys.forEach((k, i) => {
    if (i >= drawn.length || drawn[i] !== k) todo.push(i);
    else body.rows[i].classList.remove('outdated');
  });
  let next = 0;
  const slice = (/** @type {number} */ n) => {
    for (const end = Math.min(todo.length, next + n); next < end; next++) {
      const i = todo[next];
      const row = build(rows[i]);
      if (i < body.rows.length) body.rows[i].replaceWith(row);
      else body.append(row);
      drawn[i] = keys[i];
    }
  };
  if (whole || todo.length <= SLICE) {
    slice(todo.length);
    return;
  }
  for (const i of todo) if (i < body.rows.length) body.rows[i].classList.add('outdated');
  slice(SLICE);
  afterEachPaint(body, () => {
    slice(SLICE);
    return next < todo.length;
  });
}

/** @type {WeakMap<HTMLTableSectionElement, string[]>} what each drawn row of a jobs table shows */
const rowKeys = new WeakMap();

/**
 * The most rows or statements a long list draws in one frame: measured on
 * 2 cores, a jobs table of 500 rows drawn at once took about 100 ms of
 * style and layout; 50 keep a frame's share of it near 10 ms.
 */
const SLICE = 50;

/** @type {WeakMap<Element, () => void>} cancels the filling of a list still being filled */
const filling = new WeakMap();

/**
 * Calls fn once the next frame has been painted; in a background tab,
 * where requestAnimationFrame does not run and timers wait a second or
 * more, after a message to itself instead. Returns a function that
 * cancels the call.
 * @param {() => void} fn
 * @returns {() => void}
 */
export function afterPaint(fn) {
  let live = true;
  let timer = 0;
  let frame = 0;
  const go = () => {
    if (!live) return;
    cancel();
    fn();
  };
  const cancel = () => {
    live = false;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
  if (document.hidden) {
    nextTask().then(go);
    return cancel;
  }
  frame = requestAnimationFrame(() => {
    clearTimeout(timer);
    timer = window.setTimeout(go, 0);
  });
  timer = window.setTimeout(go, 100); // the tab hidden meanwhile
  return cancel;
}

/**
 * Resolves in a task of its own, after what the page has queued: a message
 * to itself, which a background tab does not delay as it does timers.
 * @returns {Promise<void>}
 */
export function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/**
 * Fills parent with an element built from each item: SLICE of them now and
 * SLICE more after each frame painted, so that a list of a thousand
 * statements never holds the page for long: each frame lays out at most
 * SLICE new items. Filling parent again stops an earlier filling.
 * @template T
 * @param {Element} parent
 * @param {T[]} items
 * @param {(item: T) => Element} build
 */
function fillSliced(parent, items, build) {
  stopFilling(parent);
  let from = Math.min(items.length, SLICE);
  parent.replaceChildren(...items.slice(0, from).map(build));
  if (from >= items.length) return;
  afterEachPaint(parent, () => {
    const to = Math.min(items.length, from + SLICE);
    parent.append(...items.slice(from, to).map(build));
    from = to;
    return from < items.length;
  });
}

/**
 * Calls step once after each painted frame (afterPaint) while it returns
 * true: the filling of parent, which the next stopFilling(parent) ends.
 * @param {Element} parent
 * @param {() => boolean} step whether there is more to do
 */
function afterEachPaint(parent, step) {
  filling.set(
    parent,
    afterPaint(() => {
      filling.delete(parent);
      if (step()) afterEachPaint(parent, step);
    }),
  );
}

/** @param {Element} parent */
function stopFilling(parent) {
  filling.get(parent)?.();
  filling.delete(parent);
}

/** @type {HTMLTableRowElement | null} a jobs row of empty cells, each naming its column, that jobRow clones */
let jobRowBlank = null;

/**
 * A jobs table's row for r, its changed columns marked.
 * @param {Row} r
 * @param {Set<string> | undefined} changed the row's changed columns
 * @param {number} clock the owner's clock
 * @param {Strings} t
 */
function jobRow(r, changed, clock, t) {
  // Cloning one blank row costs a fraction of building twelve cells with
  // their attributes: a long timeline's table has hundreds of rows.
  jobRowBlank ||= h(
    'tr',
    {},
    COLUMNS.map((c) =>
      h(c === 'id' ? 'th' : 'td', { 'data-col': c, scope: c === 'id' ? 'row' : null, translate: 'no' }),
    ),
  );
  const row = /** @type {HTMLTableRowElement} */ (jobRowBlank.cloneNode(true));
  row.dataset.job = r.id;
  COLUMNS.forEach((c, i) => {
    fillJobCell(row.cells[i], r, c, Boolean(changed?.has(c)), clock, t);
  });
  return row;
}

/**
 * @param {HTMLTableCellElement} cell
 * @param {Row} r
 * @param {(typeof COLUMNS)[number]} c
 * @param {boolean} changed
 * @param {number} clock the owner's clock
 * @param {Strings} t
 */
function fillJobCell(cell, r, c, changed, clock, t) {
  const v = r[c];
  const empty = v === '' || ((c === 'deadline' || c === 'lease_until') && v === 0);
  const cls = [changed ? 'changed' : '', empty ? 'empty' : '', c === 'status' ? `st-${v}` : ''].filter(Boolean);
  if (cls.length) cell.className = cls.join(' ');
  cell.append(empty ? '—' : String(v));
  if (c === 'max_attempts' && v === 0) cell.title = t.unlimited;
  if (c === 'status' && Object.hasOwn(t.statuses, v))
    cell.title = t.statuses[/** @type {keyof Strings['statuses']} */ (v)];
  if (c === 'lease_until' && r.status === 'leased' && r.lease_until > 0) {
    const valid = clock < r.lease_until;
    cell.append(h('span', { class: `lease-note ${valid ? 'valid' : 'ended'}`, text: valid ? t.valid : t.ended }));
  }
  if (changed) cell.append(h('span', { class: 'visually-hidden', text: t.changed }));
}

export const STORAGE_COLUMNS = /** @type {const} */ (['key', 'value', 'owner', 'token']);

/**
 * Fills the fenced storage's table: every key's value and the lease that
 * wrote it, the key the step wrote marked as changed.
 * @param {HTMLTableElement} table
 * @param {Stored[]} rows
 * @param {string} changedKey
 * @param {Strings} t
 */
export function drawStorage(table, rows, changedKey, t) {
  tableHead(table, STORAGE_COLUMNS, t);
  if (rows.length === 0) {
    table.tBodies[0].replaceChildren(
      h('tr', {}, h('td', { colspan: STORAGE_COLUMNS.length, class: 'empty', text: t.storageEmpty })),
    );
    return;
  }
  table.tBodies[0].replaceChildren(
    ...rows.map((r) =>
      h(
        'tr',
        { 'data-key': r.key },
        STORAGE_COLUMNS.map((c) => {
          const changed = r.key === changedKey && c !== 'key';
          return h(
            c === 'key' ? 'th' : 'td',
            { 'data-col': c, class: changed ? 'changed' : null, scope: c === 'key' ? 'row' : null, translate: 'no' },
            String(r[c]),
            changed ? h('span', { class: 'visually-hidden', text: t.changed }) : null,
          );
        }),
      ),
    ),
  );
}

/**
 * Lists statements, each with its arguments written where its ? stands.
 * @param {HTMLOListElement} list
 * @param {Statement[] | null} statements
 * @param {Strings} t
 */
export function drawSQL(list, statements, t) {
  if (!statements || statements.length === 0) {
    stopFilling(list);
    list.replaceChildren(h('li', { class: 'none', text: t.noSQL }));
    return;
  }
  const build = (/** @type {Statement} */ st) => {
    const control = /^(BEGIN|COMMIT|ROLLBACK)\b/.test(st.sql);
    return h(
      'li',
      { class: control ? 'control' : null },
      h('code', { translate: 'no' }, ...bindArgs(st.sql, st.args || [])),
    );
  };
  fillSliced(list, statements, build);
}

/** @param {string | number | null | undefined} v */
function literal(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  return String(v);
}

/**
 * Splits sql at each ? outside a quoted string and puts the argument there, marked.
 * @param {string} sql
 * @param {Array<string | number | null>} args
 */
function bindArgs(sql, args) {
  /** @type {(string | HTMLElement)[]} */
  const out = [];
  let buf = '';
  let quote = '';
  let n = 0;
  for (const ch of sql.replaceAll('\t', '  ')) {
    if (quote) {
      buf += ch;
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      buf += ch;
    } else if (ch === '?' && n < args.length) {
      out.push(buf, h('mark', { class: 'arg', text: literal(args[n++]) }));
      buf = '';
    } else {
      buf += ch;
    }
  }
  out.push(buf);
  return out;
}

/**
 * Lists the invariant verdicts of a step: one that holds, one violated,
 * and one violated as the timeline announced (violates=), which is drawn
 * apart as expected.
 * @param {HTMLUListElement} list
 * @param {Verdict[] | null} verdicts
 * @param {Strings} t
 */
export function drawVerdicts(list, verdicts, t) {
  if (!verdicts || verdicts.length === 0) {
    list.replaceChildren(h('li', { class: 'none', text: t.checked }));
    return;
  }
  list.replaceChildren(...verdicts.map((v) => verdictItem(v, t)));
}

/** @param {Verdict} v @param {Strings} t */
function verdictItem(v, t) {
  const name = t.invariants[/** @type {keyof Strings['invariants']} */ (v.invariant)] || v.invariant;
  const detail = v.detail ? h('span', { class: 'detail', text: ` — ${v.detail}` }) : null;
  const expected = !v.ok && v.expected;
  const icon = expected ? '!' : v.ok ? '✓' : '✗';
  const text = expected
    ? h(
        'span',
        {},
        t.expectedViolation,
        ...parts(t.brokenOnPurpose, h('code', { translate: 'no', text: v.invariant })),
        detail,
      )
    : h('span', {}, h('span', { class: 'visually-hidden', text: v.ok ? t.holds : t.violated }), name, detail);
  return h(
    'li',
    {
      class: expected ? 'expected' : v.ok ? 'ok' : 'bad',
      title: expected ? name : null,
      'data-invariant': v.invariant,
    },
    h('span', { class: 'verdict-icon', 'aria-hidden': 'true', text: icon }),
    text,
  );
}

// ---- exporting ----

// The properties that make the lanes look as drawn, copied onto each
// element of an exported SVG.
const SVG_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
];

/**
 * Serialises a drawn lanes svg as a file that stands alone: every element
 * carries the computed styles it is drawn with as presentation attributes,
 * so no stylesheet is needed, and the background is painted in.
 * @param {SVGSVGElement} svg
 */
export function standaloneSVG(svg) {
  const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((el, i) => {
    const cs = getComputedStyle(el);
    for (const p of SVG_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v && !(p === 'opacity' && v === '1')) to[i].setAttribute(p, v);
    }
    to[i].removeAttribute('class');
  });
  copy.setAttribute('xmlns', SVGNS);
  for (const a of ['role', 'aria-labelledby', 'aria-label', 'focusable']) copy.removeAttribute(a);
  const vb = svg.viewBox.baseVal;
  const bg = getComputedStyle(svg.parentElement || svg).backgroundColor;
  copy.insertBefore(s('rect', { x: 0, y: 0, width: vb.width, height: vb.height, fill: bg }), copy.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

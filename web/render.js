// render.js draws a leaselab trace (the JSON the engine produces; see
// engine/timeline/trace.go) into the page: the workers' lanes as SVG, the
// jobs table, the SQL of a step and the invariant verdicts.
//
// It decides nothing the engine decides. Outcomes, refusal reasons, the
// explanation of each step, the changed cells and the verdicts are read from
// the trace; this file only lays them out on a time axis. The simulator page
// (app.js) and the <lease-timeline> element (lease-timeline.js) both draw
// with it; the words around the trace come from i18n.js (English unless a
// caller passes another language's strings as t).

import { strings } from './i18n.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const EN = strings('en');

/** Creates an HTML element with attributes and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAll(node, attrs, children);
  return node;
}

/** Creates an SVG element with attributes and children. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  setAll(node, attrs, children);
  return node;
}

function setAll(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.setAttribute('class', v);
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Formats an instant or a duration in milliseconds. */
export function ms(t) {
  if (Math.abs(t) >= 10000 && t % 100 === 0) return `${t / 1000} s`;
  return `${t} ms`;
}

/**
 * The position of the cursor: 0 is before the first step (the jobs as
 * enqueued), k is after the k-th step.
 */
export function cursorTime(trace, cursor) {
  if (cursor <= 0 || trace.steps.length === 0) return 0;
  return trace.steps[Math.min(cursor, trace.steps.length) - 1].time;
}

// Trace format 2 records, per step, only the rows the step changed (and
// the rows it removed); the whole table is given once, before the first
// step. tableAt rebuilds the table at any cursor from checkpoints kept per
// trace every CHECKPOINT steps, so moving the cursor costs at most that
// many steps, whatever the size of the trace.
const CHECKPOINT = 64;
const checkpoints = new WeakMap(); // trace -> [table before step 0, before step 64, ...]

/** The jobs table after step `cursor` (0: as enqueued), in insertion order. */
export function tableAt(trace, cursor) {
  const n = Math.max(0, Math.min(cursor, trace.steps.length));
  let marks = checkpoints.get(trace);
  if (!marks) { marks = [trace.start]; checkpoints.set(trace, marks); }
  const k = Math.floor(n / CHECKPOINT);
  while (marks.length <= k) {
    const i = marks.length;
    marks.push(applySteps(marks[i - 1], trace.steps, (i - 1) * CHECKPOINT, i * CHECKPOINT));
  }
  return applySteps(marks[k], trace.steps, k * CHECKPOINT, n);
}

function applySteps(rows, steps, from, to) {
  let out = rows;
  for (let i = from; i < to; i++) out = applyStep(out, steps[i]);
  return out;
}

/**
 * A table (rows in insertion order) with one step's changes: the rows it
 * removed taken out, the rows it changed put in place, new ones appended.
 * The rows given are not modified.
 */
export function applyStep(rows, st) {
  if (!(st.rows && st.rows.length) && !(st.gone && st.gone.length)) return rows;
  const gone = new Set(st.gone || []);
  const out = gone.size ? rows.filter((r) => !gone.has(r.id)) : rows.slice();
  const at = new Map(out.map((r, i) => [r.id, i]));
  for (const r of st.rows || []) {
    if (at.has(r.id)) out[at.get(r.id)] = r;
    else { at.set(r.id, out.length); out.push(r); }
  }
  return out;
}

/** The fenced storage after step `cursor`: every key's value, in key order. */
export function storageAt(trace, cursor) {
  const vals = new Map();
  for (const st of trace.steps.slice(0, Math.max(0, cursor))) {
    if (st.op === 'write' && st.stored) vals.set(st.stored.key, st.stored);
  }
  return [...vals.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Lays the trace out for the lanes: the lease each grant opened, from its
 * step until it ended (its lease_until, or the complete, release or renew
 * that closed it earlier), every step's mark on the acting workers' lanes,
 * and every expiry event the trace reports.
 */
export function laneModel(trace, t = EN) {
  const actors = [...trace.actors];
  const addActor = (a) => { if (a && !actors.includes(a)) actors.push(a); };
  const leases = [];
  const open = new Map(); // job#token -> lease
  const marks = [];
  const expiries = [];
  const sends = [];
  let tMax = 0;
  const seeTime = (t) => { if (Number.isFinite(t) && t > tMax) tMax = t; };

  const close = (job, token, at, cause) => {
    const key = `${job}#${token}`;
    const l = open.get(key);
    if (!l) return null;
    open.delete(key);
    if (at < l.end) { l.end = at; l.cause = cause; }
    return l;
  };
  const grant = (stepIndex, lease, at, renewed) => {
    addActor(lease.owner);
    const prior = close(lease.job, lease.token, at, renewed ? 'renewed' : 'replaced');
    const l = {
      actor: lease.owner, job: lease.job, token: lease.token, start: at,
      end: lease.lease_until, until: lease.lease_until, cause: 'ends', step: stepIndex,
      renewal: Boolean(renewed && prior),
    };
    leases.push(l);
    open.set(`${lease.job}#${lease.token}`, l);
    seeTime(lease.lease_until);
    return l;
  };

  trace.steps.forEach((st, i) => {
    seeTime(st.time); seeTime(st.end);
    for (const e of st.expired || []) { expiries.push({ ...e, step: i }); seeTime(e.at); }
    if (st.op === 'claim_many') {
      for (const c of st.contenders || []) {
        addActor(c.actor);
        if (c.lease) grant(i, c.lease, st.time, false);
        marks.push(markOf(st, i, c.actor, c.outcome, c.lease, t));
      }
      return;
    }
    if (st.op === 'send' && st.end > st.time && st.lease) {
      sends.push({ actor: st.lease.owner, start: st.time, end: st.end, step: i });
    }
    if (st.lease) grant(i, st.lease, st.time, st.op === 'renew');
    if (st.outcome.kind === 'ok' && st.presented && (st.op === 'complete' || st.op === 'release')) {
      close(st.presented.job, st.presented.token, st.time, st.op === 'complete' ? 'completed' : 'released');
    }
    if (st.op === 'send' && st.outcome.kind === 'ok' && st.lease) {
      close(st.lease.job, st.lease.token, st.end, 'completed');
    }
    if (st.op === 'send' && st.outcome.kind === 'failed' && st.lease) {
      close(st.lease.job, st.lease.token, st.end, 'released');
    }
    for (const a of st.actors.length ? st.actors : ['']) {
      if (a) marks.push(markOf(st, i, a, st.outcome, st.lease, t));
    }
  });
  for (const e of trace.later || []) { expiries.push({ ...e, step: trace.steps.length, later: true }); seeTime(e.at); }
  for (const l of leases) if (Number.isFinite(l.end)) seeTime(l.end);
  return { actors, leases, marks, expiries, sends, tMax: tMax || 1000 };
}

function markOf(st, index, actor, outcome, lease, t) {
  const rej = st.rejection;
  let label = st.op;
  if (lease && (st.op === 'claim' || st.op === 'claim_next' || st.op === 'claim_many' || st.op === 'send') && lease.token > 1) {
    label = st.op === 'send' ? t.sendReclaim : t.reclaim;
  }
  let detail = '';
  if (outcome.kind === 'refused') {
    detail = outcome.reason;
    if (rej && rej.reason === 'superseded' && rej.presented && rej.current) {
      detail += ` · ${rej.presented.owner}#${rej.presented.token} vs ${rej.current.owner || 'nobody'}#${rej.current.token}`;
    }
  } else if (outcome.kind !== 'ok') {
    detail = outcome.kind;
  }
  return { step: index, actor, job: st.job, time: st.time, kind: outcome.kind, reason: outcome.reason, label, detail, source: st.source, explain: st.explain };
}

/**
 * The time axis: piecewise linear through the instants something happens
 * (steps, expiries, lease ends), each stretch at least minGap pixels wide,
 * so steps 1 ms apart stay apart. Ticks are those instants.
 */
function timeScale(model, trace, x0, plotW, minGap) {
  const knots = new Set([0]);
  for (const st of trace.steps) { knots.add(st.time); knots.add(st.end); }
  for (const e of model.expiries) knots.add(e.at);
  for (const l of model.leases) if (Number.isFinite(l.end)) knots.add(l.end);
  const sorted = [...knots].sort((a, b) => a - b);
  const last = sorted[sorted.length - 1];
  const tail = Math.max(1, (last - sorted[0]) * 0.06);
  sorted.push(last + tail);
  const span = sorted[sorted.length - 1] - sorted[0] || 1;
  const widths = [];
  for (let i = 1; i < sorted.length; i++) {
    const raw = ((sorted[i] - sorted[i - 1]) / span) * plotW;
    widths.push(Math.max(raw, minGap));
  }
  const total = widths.reduce((a, b) => a + b, 0);
  const xs = [x0];
  for (const w of widths) xs.push(xs[xs.length - 1] + (w / total) * plotW);
  const x = (t) => {
    if (t <= sorted[0]) return xs[0];
    for (let i = 1; i < sorted.length; i++) {
      if (t <= sorted[i]) return xs[i - 1] + ((t - sorted[i - 1]) / (sorted[i] - sorted[i - 1])) * (xs[i] - xs[i - 1]);
    }
    return xs[xs.length - 1];
  };
  const time = (px) => {
    if (px <= xs[0]) return sorted[0];
    for (let i = 1; i < xs.length; i++) {
      if (px <= xs[i]) return sorted[i - 1] + ((px - xs[i - 1]) / (xs[i] - xs[i - 1])) * (sorted[i] - sorted[i - 1]);
    }
    return sorted[sorted.length - 1];
  };
  return { x, time, ticks: sorted.slice(0, -1), end: sorted[sorted.length - 1] };
}

/**
 * The width in pixels of a label in the lanes' 11.5 px font, near enough
 * to keep labels apart: wide (Hangul, CJK) characters count about twice.
 */
export function textWidth(text) {
  let w = 0;
  for (const ch of text) {
    w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 12 : 7.2;
  }
  return w;
}

/**
 * Draws the lanes into svg, sized to width CSS pixels, with the cursor at
 * clock (ms) and the steps up to cursor drawn as past. mark, if given, is
 * the 0-based index of a step whose marks are ringed (the worksheet's first
 * difference).
 */
export function drawLanes(svg, trace, model, cursor, clock, width, t = EN, mark = -1) {
  const W = Math.max(width, 300);
  const gutter = 56, right = 18, top = 30, barY = 14, rowH = 13;
  const narrow = W < 560;
  const sc = timeScale(model, trace, gutter, W - gutter - right, narrow ? 34 : 60);
  const x = sc.x;
  svg.__scale = sc;
  const cursorIdx = cursor - 1; // index of the current step, -1 before the first

  // Mark labels first: each lane gets as many label rows as it needs.
  const rows = new Map(model.actors.map((a) => [a, []])); // actor -> [right end per row]
  const placed = model.marks.map((m) => {
    const detail = narrow ? m.reason || m.detail.split(' · ')[0] : m.detail;
    const text = m.kind === 'refused' || m.kind === 'error'
      ? `${m.label} ✕${detail ? ` ${detail}` : ''}`
      : m.detail ? `${m.label} (${m.detail})` : m.label;
    const w = textWidth(text);
    const cx = x(m.time);
    const lx = Math.min(Math.max(cx - w / 2, 4), W - w - 4);
    const ends = rows.get(m.actor);
    let row = ends.findIndex((end) => lx >= end + 8);
    if (row < 0) { row = ends.length; ends.push(0); }
    ends[row] = lx + w;
    return { m, text, lx, row };
  });
  // Leases one worker holds at once (of different jobs) stack in tracks.
  const tracks = new Map(model.actors.map((a) => [a, []])); // actor -> [end per track]
  const trackOf = new Map(); // lease -> track
  for (const l of [...model.leases].sort((a, b) => a.start - b.start)) {
    const ends = tracks.get(l.actor);
    let k = ends.findIndex((end) => l.start >= end);
    if (k < 0) { k = ends.length; ends.push(0); }
    ends[k] = l.end;
    trackOf.set(l, k);
  }
  const trackH = 22;
  const extra = (a) => (Math.max(1, tracks.get(a).length) - 1) * trackH;
  const markTrack = (m) => {
    let best = null;
    for (const l of model.leases) {
      if (l.actor === m.actor && l.job === m.job && l.start <= m.time && (!best || l.start >= best.start)) best = l;
    }
    return best ? trackOf.get(best) : 0;
  };
  const laneH = new Map(model.actors.map((a) => [a, 44 + extra(a) + Math.max(1, rows.get(a).length) * rowH]));
  const laneTop = new Map();
  let yAcc = top;
  for (const a of model.actors) { laneTop.set(a, yAcc); yAcc += laneH.get(a); }
  const H = yAcc + 6;
  const laneY = (a) => laneTop.get(a);

  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  let desc = svg.querySelector('desc');
  if (!desc) desc = s('desc', { text: t.lanesDesc });
  svg.replaceChildren(desc);

  // Lanes.
  model.actors.forEach((a, i) => {
    const y = laneY(a);
    svg.append(
      s('rect', { x: 0, y, width: W, height: laneH.get(a), class: i % 2 ? 'lane odd' : 'lane' }),
      s('text', { x: 12, y: y + barY + 14, class: 'actor', text: a }),
    );
  });

  // Axis: a tick at each instant something happens, labels kept apart.
  const axis = s('g', { class: 'axis' });
  let lastLabel = -Infinity;
  for (const tick of sc.ticks) {
    const tx = x(tick);
    axis.append(s('line', { x1: tx, x2: tx, y1: top - 6, y2: H - 4, class: 'grid' }));
    if (tx - lastLabel >= (narrow ? 44 : 52)) {
      axis.append(s('text', { x: tx, y: top - 12, class: 'tick', 'text-anchor': 'middle', text: ms(tick) }));
      lastLabel = tx;
    }
  }
  svg.append(axis);

  // Sends in flight.
  for (const sd of model.sends) {
    const y = laneY(sd.actor);
    svg.append(s('rect', {
      x: x(sd.start), y: y + barY + 21 + extra(sd.actor), width: Math.max(2, x(sd.end) - x(sd.start)), height: 5, rx: 2,
      class: `send${sd.step > cursorIdx ? ' future' : ''}`,
    }, s('title', { text: t.sendTitle(sd, ms) })));
  }

  // Lease bars, labelled by token.
  const multiJob = new Set(model.leases.map((l) => l.job)).size > 1;
  for (const l of model.leases) {
    const y = laneY(l.actor) + trackOf.get(l) * trackH;
    const end = Number.isFinite(l.end) ? l.end : sc.end;
    const x1 = x(l.start), x2 = Math.max(x(end), x1 + 3);
    const future = l.step > cursorIdx;
    const valid = !future && clock >= l.start && clock < l.end;
    const g = s('g', { class: `lease${future ? ' future' : ''}${valid ? ' valid' : ''}${l.renewal ? ' renewal' : ''}`, 'data-token': l.token, 'data-actor': l.actor });
    g.append(
      s('rect', { x: x1, y: y + barY, width: x2 - x1, height: 18, rx: 4 }),
      s('title', { text: t.leaseTitle(l, ms) }),
    );
    const label = multiJob ? `${l.job} #${l.token}` : `#${l.token}`;
    if (!l.renewal && x2 - x1 > textWidth(label) * 1.07 + 10) {
      g.append(s('text', { x: x1 + 10, y: y + barY + 13, class: 'token', text: label }));
    }
    svg.append(g);
  }

  // Expiry events: the instant a lease ended.
  for (const e of model.expiries) {
    if (!model.actors.includes(e.owner)) continue;
    const y = laneY(e.owner);
    const past = !e.later && e.step <= cursorIdx;
    const ex = x(e.at);
    const g = s('g', { class: `expiry${past ? '' : ' future'}${e.later ? ' later' : ''}`, 'data-token': e.token });
    g.append(
      s('line', { x1: ex, x2: ex, y1: y + 6, y2: y + barY + 26 + extra(e.owner) }),
      s('path', { d: `M${ex - 5} ${y + 4} h10 l-5 7 z` }),
      ex + 90 > W
        ? s('text', { x: ex - 8, y: y + 10, 'text-anchor': 'end', class: 'expiry-label', text: e.later ? t.wouldEnd(e.token) : t.ends(e.token) })
        : s('text', { x: ex + 6, y: y + 10, class: 'expiry-label', text: e.later ? t.wouldEnd(e.token) : t.ends(e.token) }),
      s('title', { text: t.expiryTitle(e, ms) }),
    );
    svg.append(g);
  }

  // Steps: one mark per acting worker.
  for (const { m, text, lx, row } of placed) {
    const y = laneY(m.actor);
    const cx = x(m.time), cy = y + barY + 9 + markTrack(m) * trackH;
    const future = m.step > cursorIdx;
    const current = m.step === cursorIdx;
    const ringed = m.step === mark;
    const g = s('g', { class: `mark k-${m.kind}${future ? ' future' : ''}${current ? ' current' : ''}${ringed ? ' differs' : ''}`, 'data-step': m.step + 1, 'data-actor': m.actor });
    if (ringed) g.append(s('circle', { cx, cy, r: 15, class: 'diff-ring' }));
    if (current) g.append(s('circle', { cx, cy, r: 12, class: 'halo' }));
    if (m.kind === 'refused' || m.kind === 'error') {
      g.append(
        s('circle', { cx, cy, r: 8, class: 'dot' }),
        s('path', { d: `M${cx - 3.5} ${cy - 3.5} l7 7 M${cx + 3.5} ${cy - 3.5} l-7 7`, class: 'cross' }),
      );
    } else {
      g.append(s('circle', { cx, cy, r: 6, class: 'dot' }));
    }
    g.append(
      s('text', { x: lx, y: y + barY + 36 + extra(m.actor) + row * rowH, class: 'mark-label', text }),
      s('title', { text: `${m.source}\n${m.explain}` }),
    );
    svg.append(g);
  }

  // The clock's cursor.
  const cx = x(clock);
  svg.append(s('g', { class: 'cursor' },
    s('line', { x1: cx, x2: cx, y1: top - 4, y2: H - 4 }),
    s('path', { d: `M${cx - 5} ${top - 8} h10 l-5 6 z` }),
  ));
}

/** Maps a click's x (CSS pixels within the svg) to a time on the axis. */
export function timeAt(svg, clientX) {
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const px = ((clientX - box.left) / box.width) * vb.width;
  return svg.__scale ? svg.__scale.time(px) : 0;
}

const COLUMNS = ['id', 'owner', 'token', 'lease_until', 'status', 'attempts', 'max_attempts', 'deadline', 'reason', 'result', 'qty'];

/** Fills the jobs table with rows, marking the changed cells; clock is the cursor's time. */
export function drawTable(table, rows, changed, clock, t = EN) {
  const head = table.tHead.rows[0];
  if (head.cells.length !== COLUMNS.length) {
    head.replaceChildren(...COLUMNS.map((c) => h('th', { scope: 'col', text: c })));
  }
  const isChanged = new Set((changed || []).map((c) => `${c.job}\u0000${c.column}`));
  const body = table.tBodies[0];
  body.replaceChildren(...rows.map((r) => h('tr', { 'data-job': r.id },
    COLUMNS.map((c) => {
      const v = r[c];
      const empty = v === '' || ((c === 'deadline' || c === 'lease_until') && v === 0);
      const changedHere = isChanged.has(`${r.id}\u0000${c}`);
      const cell = h(c === 'id' ? 'th' : 'td', {
        'data-col': c,
        class: [changedHere ? 'changed' : '', empty ? 'empty' : '', c === 'status' ? `st-${v}` : ''].filter(Boolean).join(' ') || null,
        scope: c === 'id' ? 'row' : null,
      });
      cell.append(empty ? '—' : String(v));
      if (c === 'max_attempts' && v === 0) cell.title = t.unlimited;
      if (c === 'lease_until' && r.status === 'leased' && v > 0) {
        cell.append(h('span', { class: clock < v ? 'lease-note valid' : 'lease-note ended', text: clock < v ? t.valid : t.ended }));
      }
      if (changedHere) cell.append(h('span', { class: 'visually-hidden', text: t.changed }));
      return cell;
    }),
  )));
}

/** Lists statements, each with its arguments written where its ? stands. */
export function drawSQL(list, statements, t = EN) {
  if (!statements || statements.length === 0) {
    list.replaceChildren(h('li', { class: 'none', text: t.noSQL }));
    return;
  }
  list.replaceChildren(...statements.map((st) => {
    const control = /^(BEGIN|COMMIT|ROLLBACK)\b/.test(st.sql);
    return h('li', { class: control ? 'control' : null }, h('code', {}, ...bindArgs(st.sql, st.args || [])));
  }));
}

function literal(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  return String(v);
}

// bindArgs splits sql at each ? outside a quoted string and puts the
// argument there, marked.
function bindArgs(sql, args) {
  const out = [];
  let buf = '', quote = '', n = 0;
  for (const ch of sql.replaceAll('\t', '  ')) {
    if (quote) { buf += ch; if (ch === quote) quote = ''; continue; }
    if (ch === "'" || ch === '"') { quote = ch; buf += ch; continue; }
    if (ch === '?' && n < args.length) {
      out.push(buf); buf = '';
      out.push(h('mark', { class: 'arg', text: literal(args[n++]) }));
      continue;
    }
    buf += ch;
  }
  out.push(buf);
  return out;
}

/** Lists the invariant verdicts of a step. */
export function drawVerdicts(list, verdicts, t = EN) {
  if (!verdicts || verdicts.length === 0) {
    list.replaceChildren(h('li', { class: 'none', text: t.checked }));
    return;
  }
  list.replaceChildren(...verdicts.map((v) => h('li', { class: v.ok ? 'ok' : 'bad', title: v.invariant },
    h('span', { class: 'verdict-icon', 'aria-hidden': 'true', text: v.ok ? '✓' : '✗' }),
    h('span', { class: 'visually-hidden', text: v.ok ? t.holds : t.violated }),
    h('span', { text: t.invariants[v.invariant] || v.invariant }),
    v.detail ? h('span', { class: 'detail', text: ` — ${v.detail}` }) : null,
  )));
}

// ---- playing ----

/** Real time per step at 1x speed, in ms. */
export const STEP_MS = 1400;

/**
 * Plays one step of the virtual clock: moves it from `from` to `to` (ms of
 * virtual time), calling onFrame(clock) on each animation frame, then calls
 * onDone once the step's real time (STEP_MS / speed) has passed. With
 * reduced motion, or when the clock does not move, there are no frames:
 * the clock jumps. Returns a function that cancels the step.
 */
export function playStep({ from, to, speed, reduced, onFrame, onDone }) {
  const dur = STEP_MS / speed;
  let frame = 0;
  if (!reduced && to > from) {
    const t0 = performance.now();
    const animate = (now) => {
      const f = Math.min(1, (now - t0) / (dur * 0.6));
      onFrame(from + (to - from) * f);
      if (f < 1) frame = requestAnimationFrame(animate);
    };
    frame = requestAnimationFrame(animate);
  }
  const timer = setTimeout(() => {
    cancelAnimationFrame(frame);
    onDone();
  }, reduced || to <= from ? dur * 0.6 : dur);
  return () => { clearTimeout(timer); cancelAnimationFrame(frame); };
}

// ---- exporting ----

// The properties that make the lanes look as drawn, copied onto each
// element of an exported SVG.
const SVG_PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linecap', 'opacity',
  'font-family', 'font-size', 'font-weight'];

/**
 * Serialises a drawn lanes svg as a file that stands alone: every element
 * carries the computed styles it is drawn with as presentation attributes,
 * so no stylesheet is needed, and the background is painted in.
 */
export function standaloneSVG(svg) {
  const copy = svg.cloneNode(true);
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
  copy.removeAttribute('role');
  copy.removeAttribute('aria-labelledby');
  copy.removeAttribute('focusable');
  const vb = svg.viewBox.baseVal;
  const bg = document.createElementNS(SVGNS, 'rect');
  for (const [k, v] of Object.entries({ x: 0, y: 0, width: vb.width, height: vb.height, fill: getComputedStyle(svg.parentElement || svg).backgroundColor })) {
    bg.setAttribute(k, String(v));
  }
  copy.insertBefore(bg, copy.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

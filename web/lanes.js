// @ts-check
// lanes.js lays a trace out as lanes on a time axis, without touching the
// DOM (render.js draws the result): laneModel reads what happened to each
// worker — the leases it held and how they ended, its steps, its pauses,
// its crashes, its clock — and layoutLanes places all of it in CSS pixels
// for a width, so that no two labels overlap. Label widths and heights come
// from a Measure: the browser measures the real text (render.js), tests
// use estimateText.

import { ms, signedMs } from './trace.js';

/** @typedef {import('./trace.js').Trace} Trace */
/** @typedef {import('./trace.js').Step} Step */
/** @typedef {import('./trace.js').Lease} Lease */
/** @typedef {import('./trace.js').Outcome} Outcome */
/** @typedef {import('./trace.js').Expiry} Expiry */
/** @typedef {import('./i18n.js').Strings} Strings */

/**
 * @typedef {object} LeaseBar a lease from the step that granted it until it ended
 * @property {string} actor
 * @property {string} job
 * @property {number} token
 * @property {number} start
 * @property {number} end when it ended (true time): its lease_until on its holder's clock, or the step that
 *   closed it earlier
 * @property {number} until its lease_until (on its holder's clock)
 * @property {'ends' | 'renewed' | 'replaced' | 'completed' | 'released'} cause
 * @property {number} step the 0-based step that granted it
 * @property {boolean} renewal whether a renew granted it (it continues an earlier bar)
 * @property {number | null} forgotAt when a crash made its holder forget it
 * @property {number | null} believes with a service clock, when (true time) its holder believes it ends: its
 *   own clock reads believesReads then
 * @property {number | null} believesReads the instant on its holder's own clock it believes it valid until
 */

/**
 * @typedef {object} Mark one worker's part in one step
 * @property {number} step 0-based
 * @property {string} actor
 * @property {string} job
 * @property {string} op
 * @property {number} time
 * @property {number | null} now the clock the actor's operations are judged on, when it differs from time: its own,
 *   or the lock service's (onService)
 * @property {boolean} [onService] whether now is the lock service's clock (a timeline with a service clock)
 * @property {string} kind the outcome's kind, or "pause" / "crash"
 * @property {string} reason
 * @property {string} label the op, or reclaim
 * @property {string} detail why it was refused, or what it did
 * @property {string} short the detail for a narrow drawing
 * @property {number} [until] a pause's end
 * @property {string} violation "expected" or "unexpected" when a verdict of the step failed, else ""
 * @property {string} source
 * @property {string} explain
 */

/**
 * @typedef {{text: string, code?: boolean}} LabelPart a piece of a mark's
 * label; code marks a word of the timeline language, kept as written
 */

/**
 * @typedef {object} LaneModel
 * @property {string[]} actors the lanes, in order
 * @property {LeaseBar[]} leases
 * @property {Mark[]} marks
 * @property {(Expiry & {step: number, later?: boolean})[]} expiries
 * @property {{actor: string, start: number, end: number, step: number}[]} sends
 * @property {{actor: string, start: number, end: number, step: number}[]} pauses
 * @property {LockDelay[]} delays the service's lock-delay after each lease that ran out, on its owner's lane
 * @property {WatchSpan[]} watches each candidate's stopwatch on a held job's record (takeover observed), on its lane
 * @property {Map<string, number>} offsets each worker's clock offset (ms), for those off true time
 * @property {number | null} service the lock service's clock offset (ms) when the trace has one: it judges every lease
 * @property {number} [origin] the axis's first instant (0 unless the model is a window of a longer one)
 */

/**
 * @typedef {object} LockDelay a job the service keeps after a lease of it ran out
 * @property {string} actor the lease's owner
 * @property {string} job
 * @property {number} token
 * @property {number} start when the lease ran out (true time)
 * @property {number} end when the service grants the job again
 * @property {number} step the step at which the lease ran out (the trace's length for one after the last step)
 */

/**
 * @typedef {object} WatchSpan a candidate waiting to see a held job's record unchanged
 * @property {string} actor the candidate
 * @property {string} job
 * @property {string} holder
 * @property {number} token the holder's token in the record
 * @property {number} start when the candidate first saw the record as it stands (true time)
 * @property {number} end when its wait ends, if the record stays
 * @property {number} step the step at which it first saw it
 */

/**
 * Reads the trace for the lanes: the lease each grant opened, from its
 * step until it ended (its lease_until, or the complete, release, renew or
 * reclaim that closed it earlier), every step's mark on the acting
 * workers' lanes, every expiry, send, pause and crash.
 * @param {Trace} trace
 * @param {Strings} t
 * @returns {LaneModel}
 */
export function laneModel(trace, t) {
  const m = newModel(trace);
  const leases = leaseBook(m);
  // a service clock that jumps or drifts ends a lease when the trace says, not at lease_until less an offset
  const moving = trace.steps.some((st) => st.op === 'jump' || st.op === 'drift');
  trace.steps.forEach((st, i) => {
    for (const e of st.expired || []) {
      m.expiries.push({ ...e, step: i });
      if (moving) leases.close(e.job, e.token, e.at, 'ends');
      if (trace.lock_delay) m.delays.push(lockDelayOf(e, i, trace.lock_delay));
    }
    if (st.op === 'claim_many') {
      for (const c of st.contenders || []) {
        m.addActor(c.actor);
        if (c.lease) leases.grant(i, c.lease, st.time, false);
        m.marks.push({ ...markOf(st, i, c.actor, c.outcome, t), onService: m.service !== null });
      }
      return;
    }
    readStep(m, leases, st, i);
    if (st.watch) addWatch(m.watches, st, i);
    for (const a of st.actors) m.marks.push({ ...markOf(st, i, a, st.outcome, t), onService: m.service !== null });
  });
  for (const e of trace.later || []) {
    m.expiries.push({ ...e, step: trace.steps.length, later: true });
    if (moving) leases.close(e.job, e.token, e.at, 'ends');
    if (trace.lock_delay) m.delays.push(lockDelayOf(e, trace.steps.length, trace.lock_delay));
  }
  const { addActor: _, ...model } = m;
  return model;
}

/**
 * Notes a candidate's stopwatch: one span per record it waited on, from its
 * first sight of that record.
 * @param {WatchSpan[]} watches @param {Step} st @param {number} step
 */
function addWatch(watches, st, step) {
  const w = /** @type {NonNullable<Step['watch']>} */ (st.watch);
  const actor = st.actors[0];
  const same = watches.find((x) => x.actor === actor && x.job === st.job && x.start === w.since);
  if (same) return;
  watches.push({ actor, job: st.job, holder: w.holder, token: w.token, start: w.since, end: w.until, step });
}

/**
 * The lock-delay that follows expiry e.
 * @param {Expiry} e @param {number} step @param {number} delay
 * @returns {LockDelay}
 */
function lockDelayOf(e, step, delay) {
  return { actor: e.owner, job: e.job, token: e.token, start: e.at, end: e.at + delay, step };
}

/** @param {Trace} trace */
function newModel(trace) {
  /** @type {string[]} */
  const actors = [...trace.actors];
  const offsets = new Map();
  for (const c of trace.clocks || []) if (c.offset) offsets.set(c.worker, c.offset);
  return {
    actors,
    leases: /** @type {LeaseBar[]} */ ([]),
    marks: /** @type {Mark[]} */ ([]),
    expiries: /** @type {LaneModel['expiries']} */ ([]),
    sends: /** @type {LaneModel['sends']} */ ([]),
    pauses: /** @type {LaneModel['pauses']} */ ([]),
    delays: /** @type {LockDelay[]} */ ([]),
    watches: /** @type {WatchSpan[]} */ ([]),
    offsets,
    service: trace.service ? trace.service.offset : null,
    /** @param {string} a */
    addActor: (a) => {
      if (a && !actors.includes(a)) actors.push(a);
    },
  };
}

/**
 * The leases open at each point of the walk through the steps: grant opens
 * one (closing the one it renews or replaces), close ends one early.
 * @param {ReturnType<typeof newModel>} m
 */
function leaseBook(m) {
  /** @type {Map<string, LeaseBar>} job#token (job#0@owner for a lock on several nodes) -> its bar */
  const open = new Map();
  // A lock held on a majority of nodes has no token (0), and two clients may
  // both hold it: its bar is the owner's.
  /** @param {string} job @param {number} token @param {string} owner */
  const key = (job, token, owner) => (token === 0 ? `${job}#0@${owner}` : `${job}#${token}`);
  /** @param {string} job @param {number} token @param {number} at @param {LeaseBar['cause']} cause @param {string} [owner] */
  const close = (job, token, at, cause, owner = '') => {
    const k = key(job, token, owner);
    const l = open.get(k);
    if (!l) return null;
    open.delete(k);
    if (at < l.end) {
      l.end = at;
      l.cause = cause;
    }
    return l;
  };
  /** @param {number} step @param {Lease} lease @param {number} at @param {boolean} renewed */
  const grant = (step, lease, at, renewed) => {
    m.addActor(lease.owner);
    const prior = close(lease.job, lease.token, at, renewed ? 'renewed' : 'replaced', lease.owner);
    /** @type {LeaseBar} */
    const l = {
      actor: lease.owner,
      job: lease.job,
      token: lease.token,
      start: at,
      end: lease.lease_until - (m.service ?? (m.offsets.get(lease.owner) || 0)),
      until: lease.lease_until,
      cause: 'ends',
      step,
      renewal: Boolean(renewed && prior),
      forgotAt: prior ? prior.forgotAt : null,
      believes: lease.believes === undefined ? null : lease.believes - (m.offsets.get(lease.owner) || 0),
      believesReads: lease.believes ?? null,
    };
    m.leases.push(l);
    open.set(key(lease.job, lease.token, lease.owner), l);
  };
  /** @param {Lease} lease @param {number} at */
  const forget = (lease, at) => {
    const l = open.get(key(lease.job, lease.token, lease.owner));
    if (l && l.forgotAt === null) l.forgotAt = at;
  };
  return { grant, close, forget };
}

/**
 * What one step (not a concurrent claim) does to the lanes besides its mark.
 * @param {ReturnType<typeof newModel>} m
 * @param {ReturnType<typeof leaseBook>} leases
 * @param {Step} st
 * @param {number} i
 */
function readStep(m, leases, st, i) {
  const ok = st.outcome.kind === 'ok';
  if (st.op === 'send' && st.end > st.time && st.lease) {
    m.sends.push({ actor: st.lease.owner, start: st.time, end: st.end, step: i });
  }
  if (st.op === 'send' && st.heard !== undefined && st.lease) {
    // a slow send others act inside: its courier hears back (a complete or a release) at a later step
    m.sends.push({ actor: st.lease.owner, start: st.time, end: st.heard, step: i });
  }
  if (st.sent !== undefined && st.sent < st.time) {
    // a message in flight (arrives=): drawn as a send, from when it left its sender until it arrives
    m.sends.push({ actor: st.actors[0], start: st.sent, end: st.time, step: i });
  }
  if (st.op === 'pause' && st.args.for) {
    m.pauses.push({ actor: st.actors[0], start: st.time, end: st.time + st.args.for, step: i });
  }
  for (const l of st.forgot || []) leases.forget(l, st.time);
  if (st.lease) leases.grant(i, st.lease, st.time, st.op === 'renew');
  if (ok && st.nodes && st.op === 'release') leases.close(st.job, 0, st.time, 'released', st.actors[0]);
  // a new leader renews every valid lease in its holder's name, dead or alive
  for (const l of st.renewed || []) leases.grant(i, l, st.time, true);
  if (ok && st.presented && (st.op === 'complete' || st.op === 'release')) {
    leases.close(st.presented.job, st.presented.token, st.time, st.op === 'complete' ? 'completed' : 'released');
  }
  if (st.op === 'send' && st.heard === undefined && st.lease && (ok || st.outcome.kind === 'failed')) {
    leases.close(st.lease.job, st.lease.token, st.end, ok ? 'completed' : 'released');
  }
}

/**
 * @param {Step} st
 * @param {number} index
 * @param {string} actor
 * @param {Outcome} outcome
 * @param {Strings} t
 * @returns {Mark}
 */
function markOf(st, index, actor, outcome, t) {
  // The step's own verb, as its line writes it: a claim after an expiry is
  // a claim (its token says which), never a word the timeline does not use.
  const label = t.ops[/** @type {keyof Strings['ops']} */ (st.op)] ?? st.op;
  let kind = outcome.kind;
  const other = t.outcomes[/** @type {keyof Strings['outcomes']} */ (outcome.kind)] ?? outcome.kind;
  let detail = outcome.kind === 'refused' ? outcome.reason : outcome.kind === 'ok' ? '' : other;
  const short = detail;
  const rej = st.rejection;
  if (outcome.kind === 'refused' && rej && rej.reason === 'superseded' && rej.presented && rej.current) {
    const presented = `${rej.presented.owner}#${rej.presented.token}`;
    detail += ` · ${t.versus(presented, `${rej.current.owner || t.nobody}#${rej.current.token}`)}`;
  }
  if (st.op === 'pause') {
    kind = 'pause';
    detail = ms(st.args.for || 0);
  }
  if (st.op === 'crash') {
    kind = 'crash';
    detail = st.forgot?.length ? t.forgets(st.forgot.map((l) => `#${l.token}`).join(' ')) : '';
  }
  const failed = st.verdicts.filter((v) => !v.ok);
  return {
    step: index,
    actor,
    job: st.job,
    op: st.op,
    time: st.time,
    now: st.actors.length === 1 && st.now !== st.time ? st.now : null,
    kind,
    reason: outcome.reason,
    label,
    detail,
    short: st.op === 'pause' ? detail : short,
    until: st.op === 'pause' ? st.time + (st.args.for || 0) : undefined,
    violation: failed.length === 0 ? '' : failed.every((v) => v.expected) ? 'expected' : 'unexpected',
    source: st.source,
    explain: st.explain,
  };
}

/**
 * A mark's label: "complete ✕ superseded · A#1 vs B#2", "claim (failed)",
 * "pause 800 ms"; narrow drawings keep only the reason of a refusal.
 * @param {Mark} m
 * @param {boolean} narrow
 */
export function markText(m, narrow) {
  return markParts(m, narrow)
    .map((p) => p.text)
    .join('');
}

/**
 * A mark's label in pieces, each with the language it is written in: the
 * verb and the words come from the catalogue (the page's language); a
 * refusal's reason is the timeline language's code word (superseded,
 * expired, ...), kept as written, so it is marked English.
 * @param {Mark} m
 * @param {boolean} narrow
 * @returns {LabelPart[]}
 */
export function markParts(m, narrow) {
  const detail = narrow ? m.short : m.detail;
  /** @type {LabelPart[]} */
  const parts = [{ text: m.label }];
  if (m.kind === 'refused' || m.kind === 'error') parts.push({ text: ` ✕${detail ? ' ' : ''}` });
  else if (m.kind === 'pause') parts.push({ text: ' ' });
  else if (detail) parts.push({ text: ' (' });
  else return parts;
  const code = m.kind === 'refused' && m.reason && detail.startsWith(m.reason) ? m.reason : '';
  if (code) parts.push({ text: code, code: true });
  if (detail.length > code.length) parts.push({ text: detail.slice(code.length) });
  if (m.kind !== 'refused' && m.kind !== 'error' && m.kind !== 'pause') parts.push({ text: ')' });
  return parts;
}

/**
 * @typedef {object} TimeScale a piecewise linear time axis
 * @property {(t: number) => number} x the x of an instant
 * @property {(px: number) => number} time the instant at an x
 * @property {number[]} ticks the instants something happens at, ascending
 * @property {number} end the last instant drawn
 * @property {{from: number, to: number}[]} breaks the stretches drawn wider
 *   than the scale (from, to: two neighbouring ticks); every other stretch
 *   is to one scale
 */

// ---- windows of a long timeline ----

/**
 * The most steps the lanes draw at once. A longer timeline is drawn a
 * window at a time, the one holding the cursor: its lanes stay readable
 * and a step redraws a window, never the whole timeline.
 */
export const WINDOW_STEPS = 40;

/**
 * @typedef {object} LanesWindow the steps the lanes draw
 * @property {number} index which window, from 0
 * @property {number} count how many windows the timeline has (1: it is drawn whole)
 * @property {number} from the window's first step, 0-based
 * @property {number} to one past its last step
 */

/**
 * The window of a timeline of n steps that holds the cursor (0: before
 * the first step, which is in the first window): ceil(n / WINDOW_STEPS)
 * windows of equal size, the last one shorter when they do not divide n.
 * @param {number} n
 * @param {number} cursor
 * @returns {LanesWindow}
 */
export function lanesWindow(n, cursor) {
  const count = Math.max(1, Math.ceil(n / WINDOW_STEPS));
  const size = Math.max(1, Math.ceil(n / count));
  const index = Math.min(count - 1, Math.floor(Math.max(cursor - 1, 0) / size));
  return { index, count, from: index * size, to: Math.min(n, (index + 1) * size) };
}

/**
 * The part of the lanes a window shows: the window's steps and marks, and
 * the leases, expiries, sends and pauses that reach into its time, from
 * its first step's instant (0 for the first window) until the next
 * window's first step. A lease granted before the window starts at its
 * left edge. Every worker keeps its lane.
 * @param {Trace} trace
 * @param {LaneModel} model
 * @param {LanesWindow} win
 * @returns {{trace: Trace, model: LaneModel}}
 */
export function windowOf(trace, model, win) {
  if (win.count === 1) return { trace, model };
  const steps = trace.steps;
  const t0 = win.from === 0 ? 0 : steps[win.from].time;
  const t1 = win.to < steps.length ? steps[win.to].time : Number.POSITIVE_INFINITY;
  const meets = (/** @type {number} */ start, /** @type {number} */ end) => start < t1 && end >= t0;
  return {
    trace: { ...trace, steps: steps.slice(win.from, win.to) },
    model: {
      ...model,
      origin: t0,
      marks: model.marks.filter((m) => m.step >= win.from && m.step < win.to),
      leases: model.leases.filter((l) => meets(l.start, l.end)).map((l) => (l.start < t0 ? { ...l, start: t0 } : l)),
      expiries: model.expiries.filter((e) => e.at >= t0 && e.at < t1),
      sends: model.sends.filter((x) => meets(x.start, x.end)),
      pauses: model.pauses.filter((x) => meets(x.start, x.end)),
      delays: model.delays.filter((x) => meets(x.start, x.end)),
      watches: model.watches.filter((x) => meets(x.start, x.end)),
    },
  };
}

/**
 * The time axis: piecewise linear through the instants something happens
 * (steps, expiries, lease ends, pause ends), each stretch at least minGap
 * pixels wide, so steps 1 ms apart stay apart. Ticks are those instants.
 * The stretches whose share of the time is narrower than minGap are the
 * axis's breaks: drawn wider than the scale; all the others share one
 * scale (px per ms), so the drawing is to scale except at its breaks.
 * @param {LaneModel} model
 * @param {Trace} trace
 * @param {number} x0 the x of the first instant
 * @param {number} plotW the width of the axis (px)
 * @param {number} minGap
 * @returns {TimeScale}
 */
export function timeScale(model, trace, x0, plotW, minGap) {
  const sorted = knots(model, trace);
  const last = sorted[sorted.length - 1];
  sorted.push(last + Math.max(1, (last - sorted[0]) * 0.06)); // a tail after the last instant
  const span = sorted[sorted.length - 1] - sorted[0] || 1;
  const widths = [];
  /** @type {{from: number, to: number}[]} */
  const breaks = [];
  for (let i = 1; i < sorted.length; i++) {
    const share = ((sorted[i] - sorted[i - 1]) / span) * plotW;
    widths.push(Math.max(share, minGap));
    if (share < minGap && i < sorted.length - 1) breaks.push({ from: sorted[i - 1], to: sorted[i] });
  }
  const total = widths.reduce((a, b) => a + b, 0);
  const xs = [x0];
  for (const w of widths) xs.push(xs[xs.length - 1] + (w / total) * plotW);
  return {
    x: (t) => interpolate(sorted, xs, t),
    time: (px) => interpolate(xs, sorted, px),
    ticks: sorted.slice(0, -1),
    end: sorted[sorted.length - 1],
    breaks,
  };
}

/** @param {LaneModel} model @param {Trace} trace */
function knots(model, trace) {
  const set = new Set([model.origin ?? 0]);
  for (const st of trace.steps) {
    set.add(st.time);
    set.add(st.end);
  }
  for (const e of model.expiries) set.add(e.at);
  for (const l of model.leases) if (Number.isFinite(l.end)) set.add(l.end);
  for (const l of model.leases) if (l.believes !== null) set.add(l.believes);
  for (const p of model.pauses) set.add(p.end);
  for (const d of model.delays) set.add(d.end);
  for (const w of model.watches) set.add(w.end);
  return [...set].sort((a, b) => a - b);
}

/**
 * The value at v of the piecewise linear function through (from[i], to[i]);
 * from ascending; clamped at both ends.
 * @param {number[]} from
 * @param {number[]} to
 * @param {number} v
 */
function interpolate(from, to, v) {
  if (v <= from[0]) return to[0];
  for (let i = 1; i < from.length; i++) {
    if (v <= from[i]) {
      const f = from[i] === from[i - 1] ? 1 : (v - from[i - 1]) / (from[i] - from[i - 1]);
      return to[i - 1] + f * (to[i] - to[i - 1]);
    }
  }
  return to[to.length - 1];
}

// ---- measuring labels ----

/**
 * The kinds of label the lanes draw; each has its own font (trace.css).
 * @typedef {'tick' | 'actor' | 'offset' | 'mark' | 'expiry' | 'token'} LabelKind
 */

/**
 * A label's box: its width, and how far it reaches above and below its
 * baseline, in CSS pixels.
 * @typedef {{width: number, ascent: number, descent: number}} TextBox
 */

/** @typedef {(text: string, kind: LabelKind) => TextBox} Measure */

/** @type {Record<LabelKind, {size: number, bold: boolean, mono: boolean}>} the fonts of trace.css */
export const FONTS = {
  tick: { size: 11, bold: false, mono: false },
  actor: { size: 15, bold: true, mono: false },
  offset: { size: 11, bold: false, mono: false },
  mark: { size: 11.5, bold: true, mono: false },
  expiry: { size: 11, bold: true, mono: false },
  token: { size: 12, bold: true, mono: true },
};

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/**
 * An estimate of a label's box, generous enough for the common sans-serif
 * fonts: wide (Hangul, CJK) characters count about twice. The browser
 * measures instead (render.js); tests and a hidden drawing use this.
 * @type {Measure}
 */
export function estimateText(text, kind) {
  const f = FONTS[kind];
  let em = 0;
  for (const ch of text) em += f.mono ? 0.62 : WIDE.test(ch) ? 1.05 : f.bold ? 0.68 : 0.62;
  return { width: em * f.size, ascent: f.size * 0.95, descent: f.size * 0.3 };
}

// ---- the layout ----

/** @typedef {{x1: number, y1: number, x2: number, y2: number}} Box */

/**
 * @typedef {object} Placed a label placed: its text drawn from x at baseline y, and the box it covers
 * @property {string} text
 * @property {number} x
 * @property {number} y
 * @property {Box} box
 */

/**
 * @typedef {object} LaneRow one worker's lane
 * @property {string} actor
 * @property {number} y its top
 * @property {number} height
 * @property {number} barTop the top of its first lease track
 * @property {number} tracks how many leases it holds at once, at most (1 at least)
 * @property {number} rowsTop the top of its rows of step labels
 * @property {number} rowH the height of one row
 * @property {Placed} name
 * @property {Placed | null} offset its clock's offset, when off true time
 * @property {number} offsetMs
 */

/**
 * @typedef {object} LanesLayout everything the lanes draw, placed for one width
 * @property {number} width
 * @property {number} height
 * @property {number} top where the lanes begin, under the axis
 * @property {number} gutter the x where the time axis begins
 * @property {TimeScale} scale
 * @property {Map<string, LaneRow>} lanes by actor, in lane order
 * @property {{t: number, x: number, label: Placed | null}[]} ticks
 * @property {{lease: LeaseBar, x1: number, x2: number, xf: number | null, xb: number | null, y: number,
 *   label: Placed | null}[]} bars xb: where its holder believes it ends, with a service clock
 * @property {{e: LaneModel['expiries'][number], x: number, y1: number, y2: number, label: Placed | null}[]} expiries
 * @property {{m: Mark, cx: number, cy: number, label: Placed, parts: LabelPart[]}[]} marks
 * @property {{s: LaneModel['sends'][number], x1: number, x2: number, y: number}[]} sends
 * @property {{p: LaneModel['pauses'][number], x1: number, x2: number, y1: number, y2: number}[]} pauses
 * @property {{d: LockDelay, x1: number, x2: number, y: number}[]} delays
 * @property {{w: WatchSpan, x1: number, x2: number, y: number}[]} watches
 */

const GAP = 6; // px between two labels side by side
const BAR_H = 18; // a lease bar's height
const TRACK_H = 22; // a lease track's height, bar and gap
const RIGHT = 18; // px kept free right of the axis

/**
 * Places everything the lanes draw for a drawing `width` CSS pixels wide
 * (300 at least): a gutter wide enough for the lanes' labels, a time axis
 * whose tick labels keep apart, lease bars stacked in tracks, and each
 * worker's step labels in as many rows as it takes for none to overlap
 * another. Expiry labels that find no free place are left out (their
 * marker and tooltip stay).
 * @param {Trace} trace
 * @param {LaneModel} model
 * @param {{width: number, t: Strings, measure: Measure}} opts
 * @returns {LanesLayout}
 */
export function layoutLanes(trace, model, { width, t, measure }) {
  const W = Math.max(width, 300);
  const narrow = W < 560;
  const names = laneNames(model, t, measure);
  const gutter = Math.max(56, 12 + Math.max(0, ...[...names.values()].map((n) => n.width)) + 16);
  const scale = timeScale(model, trace, gutter, W - gutter - RIGHT, narrow ? 34 : 60);
  const tickBox = measure(ms(0), 'tick');
  const top = Math.ceil(4 + tickBox.ascent + tickBox.descent + 8);
  const ticks = placeTicks(scale, W, top - 8 - tickBox.descent, measure);
  const trackOf = leaseTracks(model);
  const rows = markRows(model, scale, { W, gutter, narrow, measure });
  const lanes = stackLanes(model, { top, trackOf, rows, names, measure });
  const height = top + [...lanes.values()].reduce((h, l) => h + l.height, 0) + 6;
  const at = { scale, lanes, trackOf, W, gutter, measure, t };
  return {
    width: W,
    height,
    top,
    gutter,
    scale,
    lanes,
    ticks,
    bars: placeBars(model, at),
    expiries: placeExpiries(model, at),
    marks: placeMarks(model, rows, at),
    sends: model.sends.map((s) => ({ s, x1: scale.x(s.start), x2: scale.x(s.end), y: sendY(lanes, s.actor) })),
    pauses: model.pauses.map((p) => {
      const l = /** @type {LaneRow} */ (lanes.get(p.actor));
      return {
        p,
        x1: scale.x(p.start),
        x2: scale.x(p.end),
        y1: l.barTop - 3,
        y2: l.barTop + (l.tracks - 1) * TRACK_H + BAR_H + 3,
      };
    }),
    delays: model.delays
      .filter((d) => lanes.has(d.actor))
      .map((d) => ({
        d,
        x1: scale.x(d.start),
        x2: scale.x(d.end),
        y: /** @type {LaneRow} */ (lanes.get(d.actor)).barTop + 2,
      })),
    watches: model.watches
      .filter((w) => lanes.has(w.actor))
      .map((w) => {
        const l = /** @type {LaneRow} */ (lanes.get(w.actor));
        return { w, x1: scale.x(w.start), x2: scale.x(w.end), y: l.barTop + l.tracks * TRACK_H - 2 };
      }),
  };
}

/**
 * Each lane's label texts and the width they need: the worker's name and,
 * when its clock is off true time, the offset under it ("(+200 ms)").
 * @param {LaneModel} model
 * @param {Strings} t
 * @param {Measure} measure
 */
function laneNames(model, t, measure) {
  /** @type {Map<string, {name: string, offset: string, offsetMs: number, width: number}>} */
  const out = new Map();
  for (const a of model.actors) {
    const off = model.offsets.get(a) || 0;
    const offset = off ? t.clockOffset(signedMs(off)) : '';
    const width = Math.max(measure(a, 'actor').width, offset ? measure(offset, 'offset').width : 0);
    out.set(a, { name: a, offset, offsetMs: off, width });
  }
  return out;
}

/**
 * A tick at each instant something happens; a tick's label only where it
 * keeps GAP px from the one before it and fits the drawing.
 * @param {TimeScale} scale
 * @param {number} W
 * @param {number} baseline
 * @param {Measure} measure
 */
function placeTicks(scale, W, baseline, measure) {
  let free = -Infinity;
  return scale.ticks.map((tick) => {
    const x = scale.x(tick);
    const text = ms(tick);
    const b = measure(text, 'tick');
    const x1 = Math.min(Math.max(x - b.width / 2, 2), W - 2 - b.width);
    if (x1 < free) return { t: tick, x, label: null };
    free = x1 + b.width + GAP;
    return { t: tick, x, label: placed(text, x1, baseline, b) };
  });
}

/**
 * The track of each lease: a worker's leases that overlap in time (of
 * different jobs) stack one under the other.
 * @param {LaneModel} model
 */
function leaseTracks(model) {
  /** @type {Map<string, number[]>} actor -> the end of each track */
  const tracks = new Map();
  /** @type {Map<LeaseBar, number>} */
  const trackOf = new Map();
  for (const l of [...model.leases].sort((a, b) => a.start - b.start)) {
    const ends = tracks.get(l.actor) || [];
    tracks.set(l.actor, ends);
    let k = ends.findIndex((end) => l.start >= end);
    if (k < 0) {
      k = ends.length;
      ends.push(0);
    }
    ends[k] = l.end;
    trackOf.set(l, k);
  }
  return trackOf;
}

/**
 * The row and the x of every mark's label, per lane: a label goes in the
 * first row where it starts GAP px after the one before it, within
 * [gutter, W]. A pause's label starts where the pause does.
 * @param {LaneModel} model
 * @param {TimeScale} scale
 * @param {{W: number, gutter: number, narrow: boolean, measure: Measure}} o
 */
function markRows(model, scale, { W, gutter, narrow, measure }) {
  /** @type {Map<string, number[]>} actor -> the right end of each row */
  const ends = new Map(model.actors.map((a) => [a, []]));
  /** @type {Map<Mark, {text: string, parts: LabelPart[], x: number, row: number, box: TextBox}>} */
  const out = new Map();
  for (const m of model.marks) {
    const parts = markParts(m, narrow);
    const text = parts.map((p) => p.text).join('');
    const box = measure(text, 'mark');
    const want = m.kind === 'pause' ? scale.x(m.time) : scale.x(m.time) - box.width / 2;
    const x = Math.min(Math.max(want, gutter + 2), W - 4 - box.width);
    const row = firstFree(/** @type {number[]} */ (ends.get(m.actor)), x, x + box.width);
    out.set(m, { text, parts, x, row, box });
  }
  return out;
}

/**
 * The first row whose last label ends GAP px before x1 (a new row if none),
 * which then ends at x2.
 * @param {number[]} rowEnds
 * @param {number} x1
 * @param {number} x2
 */
function firstFree(rowEnds, x1, x2) {
  let row = rowEnds.findIndex((end) => x1 >= end + GAP);
  if (row < 0) {
    row = rowEnds.length;
    rowEnds.push(0);
  }
  rowEnds[row] = x2;
  return row;
}

/**
 * Stacks the lanes from `top`: each lane holds, from its top, a band for
 * its expiry labels, its lease tracks, then its rows of step labels; its
 * name sits in the gutter beside the first track.
 * @param {LaneModel} model
 * @param {{top: number, trackOf: Map<LeaseBar, number>, rows: ReturnType<typeof markRows>,
 *   names: ReturnType<typeof laneNames>, measure: Measure}} o
 * @returns {Map<string, LaneRow>}
 */
function stackLanes(model, { top, trackOf, rows, names, measure }) {
  const exp = measure(`${ms(0)}#`, 'expiry');
  const mark = tallest(
    [...rows.values()].map((r) => r.box),
    measure('Ag', 'mark'),
  );
  const rowH = Math.ceil(mark.ascent + mark.descent + 1);
  /** @type {Map<string, LaneRow>} */
  const lanes = new Map();
  let y = top;
  for (const a of model.actors) {
    const tracks = Math.max(1, ...model.leases.filter((l) => l.actor === a).map((l) => (trackOf.get(l) || 0) + 1));
    const labelRows = Math.max(1, ...[...rows.entries()].filter(([m]) => m.actor === a).map(([, r]) => r.row + 1));
    const barTop = y + 2 + Math.ceil(exp.ascent + exp.descent) + 2;
    const n = /** @type {{name: string, offset: string, offsetMs: number}} */ (names.get(a));
    const nb = measure(n.name, 'actor');
    const nameY = barTop + BAR_H / 2 + (nb.ascent - nb.descent) / 2;
    const ob = n.offset ? measure(n.offset, 'offset') : null;
    const offset = ob ? placed(n.offset, 12, nameY + nb.descent + 2 + ob.ascent, ob) : null;
    const rowsTop = barTop + (tracks - 1) * TRACK_H + BAR_H + 6;
    const bottom = Math.max(rowsTop + labelRows * rowH, offset ? offset.box.y2 : 0) + 4;
    lanes.set(a, {
      actor: a,
      y,
      height: Math.ceil(bottom - y),
      barTop,
      tracks,
      rowsTop,
      rowH,
      name: placed(n.name, 12, nameY, nb),
      offset,
      offsetMs: n.offsetMs,
    });
    y += Math.ceil(bottom - y);
  }
  return lanes;
}

/**
 * The tallest of some boxes (ascent and descent apart), at least `least`.
 * @param {TextBox[]} boxes
 * @param {TextBox} least
 */
function tallest(boxes, least) {
  return boxes.reduce(
    (a, b) => ({ width: 0, ascent: Math.max(a.ascent, b.ascent), descent: Math.max(a.descent, b.descent) }),
    least,
  );
}

/**
 * @typedef {{scale: TimeScale, lanes: Map<string, LaneRow>, trackOf: Map<LeaseBar, number>, W: number,
 *   gutter: number, measure: Measure, t: Strings}} Placing
 */

/**
 * The lease bars, each labelled by its token (and job, when the timeline
 * has several) when the label fits inside the part its holder still knows.
 * @param {LaneModel} model
 * @param {Placing} at
 */
function placeBars(model, { scale, lanes, trackOf, measure }) {
  const multiJob = new Set(model.leases.map((l) => l.job)).size > 1;
  return model.leases.map((lease) => {
    const lane = /** @type {LaneRow} */ (lanes.get(lease.actor));
    const y = lane.barTop + (trackOf.get(lease) || 0) * TRACK_H;
    const x1 = scale.x(lease.start);
    const x2 = Math.max(scale.x(Number.isFinite(lease.end) ? lease.end : scale.end), x1 + 3);
    const xf = lease.forgotAt !== null && lease.forgotAt < lease.end ? scale.x(lease.forgotAt) : null;
    // a lock held on a majority of nodes carries no token: its bar says the lock's name
    const text = lease.token === 0 ? lease.job : multiJob ? `${lease.job} #${lease.token}` : `#${lease.token}`;
    const b = measure(text, 'token');
    const fits = !lease.renewal && (xf ?? x2) - x1 > b.width + 18;
    const label = fits ? placed(text, x1 + 12, y + BAR_H / 2 + (b.ascent - b.descent) / 2, b) : null;
    const xb = lease.believes === null ? null : scale.x(lease.believes);
    return { lease, x1, x2, xf, xb, y, label };
  });
}

/**
 * The expiries, each labelled right of its line, or left of it, where the
 * label keeps GAP px from the lane's other expiry labels; else unlabelled.
 * @param {LaneModel} model
 * @param {Placing} at
 */
function placeExpiries(model, { scale, lanes, W, gutter, measure, t }) {
  /** @type {Map<string, Box[]>} actor -> the expiry labels placed in its lane */
  const taken = new Map();
  const sorted = model.expiries.filter((e) => lanes.has(e.owner)).sort((a, b) => a.at - b.at);
  return sorted.map((e) => {
    const lane = /** @type {LaneRow} */ (lanes.get(e.owner));
    const x = scale.x(e.at);
    const text = e.later ? t.wouldEnd(e.token) : t.ends(e.token);
    const b = measure(text, 'expiry');
    const y = lane.y + 2 + b.ascent;
    const boxes = taken.get(e.owner) || [];
    taken.set(e.owner, boxes);
    const label = [x + 6, x - 6 - b.width]
      .filter((x1) => x1 >= gutter && x1 + b.width <= W - 2)
      .map((x1) => placed(text, x1, y, b))
      .find((p) => boxes.every((o) => p.box.x1 >= o.x2 + GAP || p.box.x2 + GAP <= o.x1));
    if (label) boxes.push(label.box);
    return { e, x, y1: lane.y + 4, y2: lane.barTop + lane.tracks * TRACK_H, label: label || null };
  });
}

/**
 * Every mark at its instant on its lease's track, with its label in its row.
 * @param {LaneModel} model
 * @param {ReturnType<typeof markRows>} rows
 * @param {Placing} at
 */
function placeMarks(model, rows, { scale, lanes, trackOf }) {
  return model.marks.map((m) => {
    const lane = /** @type {LaneRow} */ (lanes.get(m.actor));
    const r = /** @type {{text: string, parts: LabelPart[], x: number, row: number, box: TextBox}} */ (rows.get(m));
    /** @type {LeaseBar | null} */
    let held = null;
    for (const l of model.leases) {
      if (l.actor === m.actor && l.job === m.job && l.start <= m.time && (!held || l.start >= held.start)) held = l;
    }
    const track = held ? trackOf.get(held) || 0 : 0;
    const y = lane.rowsTop + r.row * lane.rowH + r.box.ascent;
    return {
      m,
      cx: scale.x(m.time),
      cy: lane.barTop + track * TRACK_H + BAR_H / 2,
      label: placed(r.text, r.x, y, r.box),
      parts: r.parts,
    };
  });
}

/** @param {Map<string, LaneRow>} lanes @param {string} actor */
function sendY(lanes, actor) {
  const l = /** @type {LaneRow} */ (lanes.get(actor));
  return l.barTop + (l.tracks - 1) * TRACK_H + BAR_H + 1;
}

/**
 * @param {string} text
 * @param {number} x
 * @param {number} y the baseline
 * @param {TextBox} b
 * @returns {Placed}
 */
function placed(text, x, y, b) {
  return { text, x, y, box: { x1: x, y1: y - b.ascent, x2: x + b.width, y2: y + b.descent } };
}

/**
 * The pairs of placed labels whose boxes overlap by more than `slack` px
 * both ways: [] for a good layout (tests check it).
 * @param {LanesLayout} layout
 * @param {number} [slack]
 * @returns {[Placed, Placed][]}
 */
export function overlaps(layout, slack = 0.5) {
  const all = [
    ...layout.ticks.map((k) => k.label),
    ...[...layout.lanes.values()].flatMap((l) => [l.name, l.offset]),
    ...layout.bars.map((b) => b.label),
    ...layout.expiries.map((e) => e.label),
    ...layout.marks.map((m) => m.label),
  ].filter((p) => p !== null);
  /** @type {[Placed, Placed][]} */
  const out = [];
  all.forEach((a, i) => {
    for (const b of all.slice(i + 1)) {
      const w = Math.min(a.box.x2, b.box.x2) - Math.max(a.box.x1, b.box.x1);
      const h = Math.min(a.box.y2, b.box.y2) - Math.max(a.box.y1, b.box.y1);
      if (w > slack && h > slack) out.push([a, b]);
    }
  });
  return out;
}

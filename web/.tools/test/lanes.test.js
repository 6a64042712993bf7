import assert from 'node:assert/strict';
import { test } from 'node:test';
import { en, ko } from '../../i18n.js';
import {
  estimateText,
  laneModel,
  lanesWindow,
  layoutLanes,
  markParts,
  markText,
  overlaps,
  timeScale,
  WINDOW_STEPS,
  windowOf,
} from '../../lanes.js';
import { clockOffset } from '../../trace.js';
import { goldenTraces, lease, step, story, trace } from './fixtures.js';

test('laneModel ends each lease where it ended: its lease_until, or the complete, release or renew before it', () => {
  const tr = trace([
    step({ time: 0, lease: lease('A', 1, 1000) }),
    step({ time: 500, op: 'renew', lease: lease('A', 1, 1500) }),
    step({ time: 600, op: 'complete', presented: lease('A', 1, 1500) }),
    step({ time: 2000, actors: ['B'], lease: lease('B', 2, 3000) }),
    step({ time: 2100, actors: ['B'], op: 'release', presented: lease('B', 2, 3000) }),
  ]);
  const m = laneModel(tr, en);
  assert.deepEqual(
    m.leases.map((l) => [l.actor, l.token, l.start, l.end, l.cause, l.renewal]),
    [
      ['A', 1, 0, 500, 'renewed', false],
      ['A', 1, 500, 600, 'completed', true],
      ['B', 2, 2000, 2100, 'released', false],
    ],
  );
  assert.deepEqual(m.actors, ['A', 'B']);
});

test("laneModel reads a story's pause, crash, clock offset and announced violation", () => {
  const m = laneModel(story(), en);
  assert.deepEqual(m.pauses, [{ actor: 'A', start: 100, end: 1300, step: 1 }]);
  assert.deepEqual([...m.offsets], [['B', 200]]);
  const b = m.leases.find((l) => l.actor === 'B');
  assert.equal(b?.end, 1900, "B's lease ends when B's clock, 200 ms ahead, reads its lease_until 2100");
  assert.equal(b?.forgotAt, 1400, 'B forgot it when it crashed');
  const crash = m.marks.find((k) => k.op === 'crash');
  assert.equal(crash && markText(crash, false), 'crash (forgets #2)');
  assert.equal(crash?.now, 1600, "the crash's mark keeps B's own clock");
  const pause = m.marks.find((k) => k.op === 'pause');
  assert.equal(pause && markText(pause, false), 'pause 1200 ms');
  assert.equal(m.marks.find((k) => k.step === 2)?.violation, 'expected');
  assert.deepEqual(
    m.expiries.map((e) => [e.owner, e.at, Boolean(e.later)]),
    [
      ['B', 1900, false],
      ['C', 3100, true],
    ],
  );
});

test("markText says why a write was refused, in the catalogue's words, shorter when narrow", () => {
  const rej = {
    op: 'complete',
    reason: 'superseded',
    presented: lease('A', 1, 1000),
    current: { owner: 'B', token: 2 },
    now: 1001,
    message: '',
  };
  const st = step({
    time: 1001,
    op: 'complete',
    outcome: { kind: 'refused', reason: 'superseded', error: '' },
    rejection: rej,
  });
  const [en1] = laneModel(trace([st]), en).marks;
  const [ko1] = laneModel(trace([st]), ko).marks;
  assert.equal(markText(en1, false), 'complete ✕ superseded · A#1 vs B#2');
  assert.equal(markText(ko1, false), '완료 ✕ superseded · A#1 대 B#2');
  assert.equal(markText(en1, true), 'complete ✕ superseded');
  assert.deepEqual(markParts(ko1, false), [
    { text: '완료' },
    { text: ' ✕ ' },
    { text: 'superseded', code: true },
    { text: ' · A#1 대 B#2' },
  ]);
  assert.deepEqual(markParts(ko1, true), [{ text: '완료' }, { text: ' ✕ ' }, { text: 'superseded', code: true }]);
});

/** Every English word the lanes could draw for a verb or an outcome: the catalogue's en words. */
const englishWords = new Set(
  [...Object.values(en.ops), ...Object.values(en.outcomes)].flatMap((w) => w.split(/[^A-Za-z_]+/).filter(Boolean)),
);

test("a Korean page's lanes draw no English verb or outcome: only a refusal's reason, marked code", () => {
  const traces = [...goldenTraces(), ['story', story()]];
  const ops = new Set();
  for (const [name, tr] of traces) {
    for (const m of laneModel(tr, ko).marks) {
      ops.add(m.op);
      for (const narrow of [false, true]) {
        for (const p of markParts(m, narrow)) {
          if (p.code) {
            assert.equal(p.text, m.reason, `${name} step ${m.step + 1}: only the reason is a code word`);
            continue;
          }
          const english = (p.text.match(/[A-Za-z_]+/g) || []).filter((w) => englishWords.has(w));
          assert.deepEqual(english, [], `${name} step ${m.step + 1}: ${markText(m, narrow)}`);
        }
      }
    }
  }
  // The traces drawn cover the verbs that act on a lane.
  for (const op of ['claim', 'renew', 'complete', 'release', 'send', 'write', 'pause', 'crash']) {
    assert.ok(ops.has(op), `no trace draws ${op}`);
  }
});

test('the catalogue names every verb and outcome the lanes draw, in English and Korean', () => {
  assert.deepEqual(Object.keys(ko.ops), Object.keys(en.ops));
  assert.deepEqual(Object.keys(ko.outcomes), Object.keys(en.outcomes));
  for (const w of [...Object.values(ko.ops), ...Object.values(ko.outcomes)]) {
    assert.doesNotMatch(w, /[A-Za-z]/, `${w} is not Korean`);
  }
});

test('timeScale keeps instants apart and maps x back to time', () => {
  const tr = trace([step({ time: 0 }), step({ time: 1000 }), step({ time: 1001 }), step({ time: 9000 })]);
  const sc = timeScale(laneModel(tr, en), tr, 50, 500, 40);
  assert.deepEqual(sc.ticks, [0, 1000, 1001, 9000]);
  for (let i = 1; i < sc.ticks.length; i++) {
    assert.ok(sc.x(sc.ticks[i]) - sc.x(sc.ticks[i - 1]) >= 40 * (500 / (500 + 3 * 40)) - 1e-9, 'stretches keep apart');
  }
  assert.equal(sc.x(0), 50);
  assert.ok(Math.abs(sc.x(sc.end) - 550) < 1e-9, 'the axis ends at x0 + plotW');
  for (const t of [0, 500, 1000, 1000.5, 4000, 9000]) assert.ok(Math.abs(sc.time(sc.x(t)) - t) < 1e-6, `time(x(${t}))`);
  assert.equal(sc.x(-10), 50, 'clamped before the start');
});

test('timeScale breaks the axis exactly where a stretch is narrower than minGap, never at the tail', () => {
  const tr = trace([step({ time: 0 }), step({ time: 96 }), step({ time: 100 })]);
  const m = laneModel(tr, en);
  // The span is 106 ms (a 6 ms tail), so 1060 px give each ms 10 px: 96 -> 100 is 40 px.
  const cases = [
    { minGap: 39.5, want: [] },
    { minGap: 40, want: [] },
    { minGap: 40.5, want: [{ from: 96, to: 100 }] },
  ];
  for (const { minGap, want } of cases) {
    const sc = timeScale(m, tr, 0, 1060, minGap);
    assert.deepEqual(sc.breaks, want, `minGap ${minGap}`);
  }
  const sc = timeScale(m, tr, 0, 1060, 40.5);
  const perMs = (sc.x(96) - sc.x(0)) / 96;
  assert.ok(Math.abs((sc.x(106) - sc.x(100)) / 6 - perMs) < 1e-9, 'the stretches that are not breaks share one scale');
  assert.ok((sc.x(100) - sc.x(96)) / 4 > perMs, 'a break is drawn wider than the scale');
});

test('layoutLanes places no label over another, for every golden trace and the story, at 360, 768 and 1280 px', () => {
  const traces = [...goldenTraces(), ['story', story()]];
  for (const [name, tr] of traces) {
    const t = tr.lang === 'ko' ? ko : en;
    const model = laneModel(tr, t);
    for (const width of [300, 360, 768, 1280]) {
      const layout = layoutLanes(tr, model, { width, t, measure: estimateText });
      assert.deepEqual(
        overlaps(layout).map(([a, b]) => `${a.text} / ${b.text}`),
        [],
        `${name} at ${width} px`,
      );
      for (const m of layout.marks) {
        assert.ok(
          m.label.box.x1 >= layout.gutter && m.label.box.x2 <= layout.width,
          `${name}: ${m.label.text} in the plot`,
        );
      }
    }
  }
});

test("layoutLanes' gutter holds the longest lane label, the clock's offset included", () => {
  const tr = story();
  const layout = layoutLanes(tr, laneModel(tr, en), { width: 360, t: en, measure: estimateText });
  const b = layout.lanes.get('B');
  assert.equal(b?.offset?.text, '(+200 ms)');
  assert.ok(b?.offset && b.offset.box.x2 < layout.gutter, 'the offset stays in the gutter');
  assert.equal(layout.lanes.get('A')?.offset, null);
});

test('lanesWindow: one window up to WINDOW_STEPS steps, then equal windows that follow the cursor', () => {
  assert.deepEqual(lanesWindow(WINDOW_STEPS, WINDOW_STEPS), { index: 0, count: 1, from: 0, to: WINDOW_STEPS });
  const n = WINDOW_STEPS + 1; // two windows of 21 and 20 steps
  assert.deepEqual(lanesWindow(n, 0), { index: 0, count: 2, from: 0, to: 21 });
  assert.deepEqual(lanesWindow(n, 21), { index: 0, count: 2, from: 0, to: 21 }); // the cursor after step 21: in the first
  assert.deepEqual(lanesWindow(n, 22), { index: 1, count: 2, from: 21, to: n });
  assert.deepEqual(lanesWindow(2000, 2000), { index: 49, count: 50, from: 1960, to: 2000 });
  for (const k of [1, 39, 40, 41, 79, 80, 81, 2000]) {
    let seen = 0;
    for (let c = 1; c <= k; c++) {
      const w = lanesWindow(k, c);
      assert.ok(w.from <= c - 1 && c - 1 < w.to, `${k} steps, cursor ${c}: step ${c} in [${w.from}, ${w.to})`);
      assert.ok(w.to - w.from <= WINDOW_STEPS, `${k} steps: a window of ${w.to - w.from}`);
      if (w.from === c - 1) seen++;
    }
    assert.equal(seen, lanesWindow(k, 1).count, `${k} steps: every window starts once`);
  }
});

test('windowOf keeps the window steps marks and the leases reaching into it, every lane, the axis from its first step', () => {
  const tr = longStory(60);
  const m = laneModel(tr, en);
  const w = lanesWindow(tr.steps.length, 45);
  const part = windowOf(tr, m, w);
  assert.equal(part.trace.steps.length, w.to - w.from);
  assert.equal(part.model.origin, tr.steps[w.from].time);
  assert.deepEqual(part.model.actors, m.actors);
  assert.ok(part.model.marks.length > 0 && part.model.marks.every((k) => k.step >= w.from && k.step < w.to));
  const t0 = tr.steps[w.from].time;
  assert.ok(
    part.model.leases.every((l) => l.start >= t0),
    'a lease granted before the window starts at its edge',
  );
  assert.ok(
    part.model.leases.some((l) => m.leases.find((o) => o.token === l.token && o.job === l.job && o.start < t0)),
    'the lease held across the window edge is drawn',
  );
  const sc = timeScale(part.model, part.trace, 50, 500, 40);
  assert.equal(sc.ticks[0], t0, 'the axis starts at the window');
  for (const width of [360, 768, 1280]) {
    const lay = layoutLanes(part.trace, part.model, { width, t: en, measure: estimateText });
    assert.ok(lay.marks.length === part.model.marks.length);
  }
  assert.equal(windowOf(tr, m, lanesWindow(WINDOW_STEPS, 1)).model, m, 'one window is the whole model');
});

/**
 * A story of n steps: workers A and B take turns claiming job j, each
 * claim 600 ms after the last with a 1000 ms lease, so every lease is
 * still held when the next step comes.
 * @param {number} n
 */
function longStory(n) {
  const steps = [];
  for (let i = 0; i < n; i++) {
    const who = i % 2 ? 'B' : 'A';
    steps.push(step({ time: i * 600, actors: [who], lease: lease(who, i + 1, i * 600 + 1000) }));
  }
  return trace(steps);
}

test('with a service clock, a lease ends when the service reads its lease_until, whatever its holder reads', () => {
  const tr = { ...story(), service: { line: 1, worker: 'service', offset: 0 } };
  const b = laneModel(tr, en).leases.find((l) => l.actor === 'B');
  assert.equal(b?.end, 2100, "B's clock is 200 ms ahead, but the service's is right");
  assert.equal(clockOffset(tr, 'B'), 0, 'the table judges B on the service clock too');
});

test("a message in flight is drawn on its sender's lane from when it was sent until it arrives", () => {
  const tr = story();
  const arrival = { ...tr.steps[tr.steps.length - 1], sent: 50, time: 1700, end: 1700 };
  const m = laneModel({ ...tr, steps: [...tr.steps.slice(0, -1), arrival] }, en);
  assert.deepEqual(
    m.sends.find((s) => s.start === 50),
    { actor: arrival.actors[0], start: 50, end: 1700, step: tr.steps.length - 1 },
  );
});

test('a slow send others act inside is drawn until its courier hears back, and its lease ends at the complete', () => {
  const tr = trace([
    step({ time: 1000, actors: ['B'], op: 'send', end: 1000, heard: 2500, lease: lease('B', 1, 2000) }),
    step({ time: 1200, actors: ['A'], job: 'k', lease: lease('A', 1, 2200, 'k') }),
    step({ time: 2500, actors: ['B'], op: 'complete', presented: lease('B', 1, 2000) }),
  ]);
  const m = laneModel(tr, en);
  assert.deepEqual(m.sends, [{ actor: 'B', start: 1000, end: 2500, step: 0 }]);
  const b = m.leases.find((l) => l.actor === 'B');
  assert.equal(b?.end, 2000, "B's lease ends at its lease_until, not when the send began");
});

test("with a service clock, each lease bar draws until when its holder believes it valid, on the holder's own clock", () => {
  const believed = { ...lease('A', 1, 1000), believes: 1300 };
  const tr = trace([
    step({ time: 0, lease: believed }),
    step({ time: 400, actors: [], op: 'jump', lease: null, expired: [{ at: 400, job: 'j', owner: 'A', token: 1 }] }),
  ]);
  const m = laneModel(
    { ...tr, service: { line: 1, worker: 'service', offset: 0 }, clocks: [{ line: 2, worker: 'A', offset: 300 }] },
    en,
  );
  const a = m.leases.find((l) => l.actor === 'A');
  assert.equal(a?.end, 400, 'the jump ended it at 400 ms true time');
  assert.equal(a?.believes, 1000, "A's clock reads 1300 ms at 1000 ms true time");
  assert.equal(a?.believesReads, 1300);
  assert.ok(
    m.marks.every((k) => k.onService),
    "a mark's now is the service's clock",
  );
  const plain = laneModel(trace([step({ time: 0, lease: lease('A', 1, 1000) })]), en);
  assert.equal(plain.leases[0].believes, null, 'no belief without a service clock');
  assert.match(en.believesTitle({ actor: 'A', job: 'j', token: 1, reads: '1300 ms', at: '1000 ms' }), /own clock/);
});

test('when the service clock moves, a lease still valid at the end ends where the trace says, not at lease_until', () => {
  const tr = trace(
    [
      step({ time: 0, lease: { ...lease('A', 1, 2000), believes: 2000 } }),
      step({ time: 400, actors: [], op: 'jump', lease: null }),
    ],
    { later: [{ at: 1400, job: 'j', owner: 'A', token: 1 }] },
  );
  const m = laneModel({ ...tr, service: { line: 1, worker: 'service', offset: 0 } }, en);
  assert.equal(m.leases[0].end, 1400);
  assert.equal(m.leases[0].believes, 2000);
});

test("with a lock-delay, a lease that ran out is followed on its owner's lane by the time the service keeps the job", () => {
  const tr = trace([
    step({ time: 0, lease: lease('A', 1, 1000) }),
    step({ time: 1200, actors: ['B'], lease: null, expired: [{ at: 1000, job: 'j', owner: 'A', token: 1 }] }),
  ]);
  const m = laneModel({ ...tr, lock_delay: 500 }, en);
  assert.deepEqual(m.delays, [{ actor: 'A', job: 'j', token: 1, start: 1000, end: 1500, step: 1 }]);
  assert.deepEqual(laneModel(tr, en).delays, [], 'no lock-delay without the header');
  const layout = layoutLanes({ ...tr, lock_delay: 500 }, m, {
    width: 800,
    t: en,
    measure: (text, kind) => estimateText(text, kind),
  });
  const d = layout.delays[0];
  assert.ok(d.x2 > d.x1, 'the lock-delay is drawn with a width');
  assert.equal(layout.scale.x(1500), d.x2, 'it ends at lease_until plus the delay');
  assert.match(ko.lockDelayTitle({ owner: 'A', job: 'j', token: 1, from: '1000 ms', to: '1500 ms' }), /잠금 지연/);
});

test('a leader change that resets the leases draws each renewed lease on to its new lease_until', () => {
  const tr = trace([
    step({ time: 0, lease: lease('A', 1, 5000) }),
    step({ time: 4000, actors: [], op: 'leader-change', lease: null, renewed: [lease('A', 1, 9000)] }),
  ]);
  const m = laneModel(tr, en);
  const a = m.leases.filter((l) => l.actor === 'A');
  assert.equal(a.length, 2, 'the grant and its renewal by the new leader');
  assert.equal(a[1].start, 4000);
  assert.equal(a[1].end, 9000, 'the lease now runs until 9000 ms');
  assert.equal(a[0].end, 4000, 'the first bar ends where the renewal took over');
});

test("under takeover observed, a candidate's stopwatch is drawn on its lane from its first sight of the record until its wait ends", () => {
  const watch = { holder: 'A', token: 1, since: 100, until: 1100, waited: 0, wait: 1000 };
  const tr = trace([
    step({ time: 0, lease: lease('A', 1, 1000) }),
    step({ time: 100, actors: ['B'], lease: null, watch }),
    step({ time: 600, actors: ['B'], lease: null, watch: { ...watch, waited: 500 } }),
  ]);
  const m = laneModel(tr, en);
  assert.deepEqual(m.watches, [{ actor: 'B', job: 'j', holder: 'A', token: 1, start: 100, end: 1100, step: 1 }]);
  const layout = layoutLanes(tr, m, { width: 800, t: en, measure: (text, kind) => estimateText(text, kind) });
  assert.equal(layout.watches.length, 1);
  assert.equal(layout.scale.x(1100), layout.watches[0].x2, 'the span ends where the wait does');
  assert.match(
    ko.watchTitle({ actor: 'B', holder: 'A', job: 'j', token: 1, from: '100 ms', to: '1100 ms' }),
    /스톱워치/,
  );
});

test('on several nodes, two clients that both hold the lock each keep a bar, until each releases it', () => {
  const lock = (owner, until) => ({ ...lease(owner, 0, until), job: 'lock' });
  const tr = trace([
    step({ time: 0, actors: ['c1'], job: 'lock', lease: lock('c1', 10000) }),
    step({ time: 1500, actors: ['c2'], job: 'lock', lease: lock('c2', 11500) }),
    step({ time: 4000, actors: ['c1'], job: 'lock', op: 'release', lease: null, nodes: [] }),
  ]);
  const m = laneModel(tr, en);
  const c1 = m.leases.find((l) => l.actor === 'c1');
  const c2 = m.leases.find((l) => l.actor === 'c2');
  assert.equal(c1?.end, 4000, "c1's bar runs past c2's claim, to its release");
  assert.equal(c1?.cause, 'released');
  assert.equal(c2?.end, 11500);
});

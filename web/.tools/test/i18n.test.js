// The catalogue (i18n.js) is complete in every language, and the pages'
// files hold no word of their own: the words shown without JavaScript
// (a noscript, a stylesheet's placeholder) are the catalogue's.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { catalogues, cspAdvice, en, josa, LANGS, langTag, parts, pickLang, strings, textLang } from '../../i18n.js';
import { COLUMNS, STORAGE_COLUMNS } from '../../render.js';

const web = (file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** Every key of a catalogue, nested tables as "table.key", with its kind. */
function shape(book, prefix = '') {
  return Object.entries(book).flatMap(([k, v]) => {
    if (v && typeof v === 'object') return shape(v, `${prefix}${k}.`);
    return [[`${prefix}${k}`, typeof v === 'function' ? `function/${v.length}` : typeof v]];
  });
}

test('every language has every key of every other, of the same kind', () => {
  const want = new Map(shape(en));
  for (const lang of LANGS) {
    const got = new Map(shape(catalogues[lang]));
    const missing = [...want.keys()].filter((k) => !got.has(k));
    const extra = [...got.keys()].filter((k) => !want.has(k));
    const differ = [...want].filter(([k, kind]) => got.has(k) && got.get(k) !== kind).map(([k]) => k);
    assert.deepEqual({ missing, extra, differ }, { missing: [], extra: [], differ: [] }, lang);
    assert.equal(catalogues[lang].lang, lang);
  }
});

test('no catalogue borrows another language: no Korean string equals the English one, but names', () => {
  const same = shape(en)
    .filter(([, kind]) => kind === 'string')
    .map(([k]) => k)
    .filter((k) => {
      const get = (book) => k.split('.').reduce((o, p) => o[p], book);
      return get(en) === get(catalogues.ko) && /[A-Za-z]{3}/.test(get(en));
    });
  // the token is a name too: Korean writes it as the timeline text does
  const names = [
    'invariants.attempts-bounded',
    'invariants.lease-within-deadline',
    'aspects.lease_until',
    'aspects.token',
    'exportGo',
  ];
  assert.deepEqual(
    same.filter((k) => !names.includes(k)),
    [],
  );
});

test('every function of the catalogue answers in its language', () => {
  const sample = { steps: 3, expectations: 2, failed: 1, violations: 0, announced: 1 };
  assert.equal(
    en.summary(sample),
    '3 steps · 1 of 2 expectations failed · no unexpected violation · 1 announced violation (expected)',
  );
  assert.equal(
    strings('ko').summary(sample),
    '3단계 · 기대 2개 중 1개 실패 · 예고되지 않은 위반 없음 · 예고된 위반 1건',
  );
  assert.equal(
    en.summary({ steps: 1, expectations: 1, failed: 0, violations: 1 }),
    '1 step · 1 expectation held · 1 invariant violation',
  );
  assert.equal(strings('fr'), en, 'a language it does not speak is English');
});

test('langTag reads Korean tags as ko and anything else as en', () => {
  assert.equal(langTag('ko'), 'ko');
  assert.equal(langTag('ko-KR'), 'ko');
  assert.equal(langTag('KO'), 'ko');
  assert.equal(langTag('kok'), 'en');
  assert.equal(langTag(null), 'en');
});

test("textLang marks an author's text in the language it is written in when it is not the page's", () => {
  for (const [text, page, want] of [
    ['배달원이 늦게 돌아온다', 'en', 'ko'], // Hangul in an English page
    ['Kleppmann의 펜싱', 'en', 'ko'], // Hangul among Latin letters
    ['배달원이 늦게 돌아온다', 'ko', undefined], // the Korean page's own
    ['A late courier', 'ko', 'en'], // Latin in a Korean page
    ['A late courier', 'en', undefined], // the English page's own
    ['01-02', 'ko', undefined], // no letters: the page's
    ['01-02', 'en', undefined],
  ]) {
    assert.equal(textLang(text, page), want, `${text} in a ${page} page`);
  }
});

test("pickLang opens the page in the link's language, else the reader's choice, else the browser's", () => {
  for (const [asked, stored, preferred, want] of [
    [null, null, ['ko-KR', 'ko', 'en-US'], 'ko'], // a Korean browser, nothing asked
    [null, null, ['fr-FR', 'ko'], 'ko'], // the first the interface speaks
    [null, null, ['en-US', 'ko'], 'en'],
    [null, null, [], 'en'], // no preference: English
    [null, null, ['fr'], 'en'],
    [null, 'en', ['ko-KR'], 'en'], // the reader chose English before
    ['en', null, ['ko-KR'], 'en'], // the link says English
    ['ko', 'en', ['en-US'], 'ko'], // the link wins over the stored choice
    ['xx', null, ['ko'], 'ko'], // a language it does not speak: not asked
    [null, 'xx', ['ko'], 'ko'],
  ]) {
    assert.equal(pickLang(asked, stored, preferred), want, JSON.stringify([asked, stored, preferred]));
  }
});

test('parts puts a node where a string says {code}', () => {
  const code = { node: 'code' };
  assert.deepEqual(parts('a {code} b', code), ['a ', code, ' b']);
  assert.deepEqual(parts('no code', code), ['no code']);
});

test("the simulator page's HTML holds no word of its own: each comes from a catalogue key", () => {
  const html = web('index.html').replace(/<!--[\s\S]*?-->/g, '');
  const keys = [...html.matchAll(/data-i18n(?:-content)?="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(keys.length > 30, `only ${keys.length} keys`);
  assert.deepEqual(
    keys.filter((k) => typeof en[k] !== 'string'),
    [],
    'keys that name no string of the catalogue',
  );
  const body = html
    .replace(/<(script|style|noscript|svg)\b[\s\S]*?<\/\1>/g, '')
    .replace(/<([a-z0-9]+)[^>]*translate="no"[^>]*>[\s\S]*?<\/\1>/g, '')
    .replace(/<title>[^<]*<\/title>/, '')
    .replace(/<[^>]+>/g, ' ');
  assert.deepEqual(body.match(/\p{L}{2,}/gu) || [], [], 'words outside data-i18n elements and names');
});

test("the words shown without JavaScript are the catalogue's", () => {
  for (const file of ['index.html', 'embed.html']) {
    const html = web(file);
    for (const lang of LANGS) {
      assert.ok(html.includes(`lang="${lang}">${catalogues[lang].noScript}</p>`), `${file}: the ${lang} noscript`);
    }
  }
  const css = web('lease-timeline.css');
  assert.ok(
    css.includes(`:not(:defined)::before { content: "${en.noJsBadge}"; }`) ||
      css.includes(`content: "${en.noJsBadge}";`),
  );
  assert.ok(css.includes(`:lang(ko)::before { content: "${catalogues.ko.noJsBadge}"; }`));
  assert.ok(css.includes(`[mutant]::before { content: "${en.noJsWorksheet}" attr(mutant); }`));
  assert.ok(css.includes(`[mutant]:lang(ko)::before { content: "${catalogues.ko.noJsWorksheet}" attr(mutant); }`));
});

test("a Content-Security-Policy refusal is told, with what to allow, in the player's language", () => {
  // The refusals as Chromium words them.
  const wasm =
    "WebAssembly.compileStreaming(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"script-src 'self'\"";
  const worker =
    "Failed to construct 'Worker': Access to the script at 'http://a/engine-worker.js' is denied by the document's Content Security Policy.";
  const other =
    "Refused to connect to 'http://a/x.wasm' because it violates the following Content Security Policy directive";
  const ko = strings('ko');
  for (const [message, key] of [
    [wasm, 'wasm'],
    [worker, 'worker'],
    [other, 'other'],
  ]) {
    assert.equal(cspAdvice(message), en.csp[key], key);
    assert.equal(cspAdvice(message, ko), ko.csp[key], key);
    assert.match(cspAdvice(message, ko), /[가-힣]/, key);
  }
  assert.match(cspAdvice(wasm, ko), /script-src에 'wasm-unsafe-eval'을 추가하세요/);
  assert.equal(cspAdvice('HTTP 404 for leaselab.wasm', ko), '', "another failure is no policy's");
});

test("Korean sentences around a worker's name pick each particle by the name's last sound", () => {
  const ko = strings('ko');
  assert.match(ko.decode('민수', 1, '지영', 2), /: 민수는 token 1을 내밀지만 지영이 token 2를 쥐고/);
  assert.match(ko.decode('클라이언트1', 2, 'B', 3), /: 클라이언트1은 token 2를 내밀지만 B가 token 3을 쥐고/);
  assert.match(ko.forgottenTitle('지영', '300 ms'), /^지영이 300 ms에 비정상 종료되어 /);
  assert.match(ko.forgottenTitle('민수', '300 ms'), /^민수가 /);
  const belief = { job: '파일-f', token: 1, reads: '1300 ms', at: '1000 ms' };
  assert.match(ko.believesTitle({ ...belief, actor: '지영' }), /^지영은 /);
  assert.match(ko.believesTitle({ ...belief, actor: '클라이언트2' }), /^클라이언트2는 /);
});

// The page picks each Korean particle as the engine does: one table for both
// (engine/internal/lang reads it too), a Latin word by how Korean reads it.
test('josa picks the particle by the final sound, as the engine does', () => {
  /** @type {{in: string, want: string, why: string}[]} */
  const cases = JSON.parse(readFileSync(new URL('josa-vectors.json', import.meta.url), 'utf8'));
  assert.ok(cases.length > 0);
  for (const c of cases) assert.equal(josa(c.in), c.want, `${c.in} (${c.why})`);
});

// The lab's table heads each measure with its label and unit; in Korean a
// count's unit is its counter, as the engine's Korean plot writes it: no
// English word but ms, for every unit the engine's metrics have.
test('a lab measure in Korean has a Korean unit', () => {
  const golden = JSON.parse(
    readFileSync(new URL('../../../engine/internal/lab/testdata/golden/heartbeat.json', import.meta.url), 'utf8'),
  );
  /** @type {{unit: string, label: {en: string, ko: string}}[]} */
  const metrics = golden.metrics;
  assert.ok(metrics.length > 0);
  for (const m of metrics) {
    const ko = strings('ko').lab.measure(m.label.ko, m.unit);
    // ms is a unit, and token the learner's word, Latin in Korean as the timeline writes it
    assert.equal(ko.replace(/\b(ms|token)\b/gu, '').match(/[A-Za-z]+/gu), null, ko);
    assert.equal(en.lab.measure(m.label.en, m.unit), `${m.label.en} (${m.unit})`);
  }
  assert.equal(strings('ko').lab.measure('낡은 쓰기', 'writes'), '낡은 쓰기 (건)');
});

const ko = strings('ko');

test("the legend's red key names every call the lanes mark refused, not writes only", () => {
  for (const t of [en, ko]) {
    assert.doesNotMatch(t.legend.refused, /^(refused write|거절된 쓰기)$/);
  }
  assert.match(en.legend.refused, /claim/);
  assert.match(ko.legend.refused, /선점/);
});

test("the explorer's hint says what it does in a newcomer's words, no search jargon", () => {
  for (const word of ['breadth first', 'schedule', 'invariant']) {
    assert.ok(!en.exploreHint.includes(word), `the hint uses "${word}": ${en.exploreHint}`);
  }
  for (const word of ['너비 우선', '일정', '불변식']) {
    assert.ok(!ko.exploreHint.includes(word), `the hint uses "${word}": ${ko.exploreHint}`);
  }
});

test('every column the jobs and storage tables show has its meaning in every language, and every status its own', () => {
  const statuses = ['pending', 'leased', 'done', 'quarantined'];
  for (const lang of LANGS) {
    const t = catalogues[lang];
    const cols = [...COLUMNS, ...STORAGE_COLUMNS];
    assert.deepEqual(
      cols.filter((c) => !(t.columns[c]?.length > 4)),
      [],
      `${lang}: columns without a meaning`,
    );
    assert.deepEqual(Object.keys(t.columns).sort(), [...new Set(cols)].sort(), `${lang}: meanings of no column`);
    for (const st of statuses) {
      assert.match(t.columns.status, new RegExp(`\\b${st}\\b`), `${lang}: the status column's meaning names ${st}`);
      assert.match(t.statuses[st], new RegExp(`^${st}: .{4,}`), `${lang}: ${st}`);
    }
  }
});

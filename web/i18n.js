// i18n.js holds the words the page and the <lease-timeline> element show
// around a trace, in English and Korean. The engine explains each step
// itself, in the language it is asked for (run(text, {lang})); these are
// only the interface's own words. Column names, verbs and refusal reasons
// are the timeline language's words and stay as they are.

const en = {
  lang: 'en',
  // render.js
  reclaim: 'reclaim',
  sendReclaim: 'send (reclaim)',
  ends: (token) => `#${token} ends`,
  wouldEnd: (token) => `#${token} would end`,
  leaseTitle: (l, ms) => `${l.actor} holds ${l.job} with token ${l.token} from ${ms(l.start)}; lease_until ${ms(l.until)}${l.cause !== 'ends' ? ` (${l.cause} at ${ms(l.end)})` : ''}`,
  expiryTitle: (e, ms) => `${e.owner}'s lease of ${e.job} (token ${e.token}) ends at ${ms(e.at)}`,
  sendTitle: (sd, ms) => `${sd.actor} sends from ${ms(sd.start)} to ${ms(sd.end)}`,
  unlimited: 'unlimited',
  valid: ' valid',
  ended: ' ended',
  changed: ' (changed)',
  noSQL: 'No SQL: this step ran no statement.',
  checked: 'Checked after every step.',
  holds: 'holds: ',
  violated: 'violated: ',
  invariants: {
    'single-lease': 'at most one valid lease per job',
    'tokens-increase': 'tokens only increase',
    'no-stale-write': 'no write with a superseded token',
    'no-late-write': 'no write after the lease ended',
    'final-is-final': 'done and quarantined are final',
    'attempts-bounded': 'attempts <= max_attempts',
    'lease-within-deadline': 'lease_until <= deadline',
    'no-job-lost': 'no job lost or duplicated',
  },
  lanesDesc: 'One lane per worker: lease bars labelled by token, expiries, reclaims and refused writes.',
  legend: ['lease (token)', 'lease ends', 'accepted', 'refused write'],

  // the element
  timeline: 'Timeline',
  first: 'First step',
  back: 'Step back',
  play: 'Play',
  pause: 'Pause',
  forward: 'Step forward',
  last: 'Last step',
  clock: 'Virtual clock',
  stepOf: (c, n) => `step ${c} / ${n}`,
  start: 'start',
  line: (n) => `line ${n}`,
  beforeFirst: (n) => `Before the first step: ${n} steps ahead.`,
  stepExplain: (c, n, t, text) => `Step ${c} of ${n}, ${t}: ${text}`,
  expectOk: (text) => `✓ as expected: -> ${text}`,
  expectBad: (want, got) => `✗ expected ${want}, got ${got}`,
  jobsAt: (c, t) => (c ? `after step ${c}, at ${t}` : 'as enqueued'),
  jobsFinal: 'jobs after the last step',
  sqlTitle: 'SQL that ran',
  verdictsTitle: 'Invariants',
  waiting: 'The engine starts when this timeline scrolls into view.',
  loading: 'Loading the engine…',
  running: 'Running…',
  unavailable: (msg) => `The engine is unavailable (${msg}); the timeline is shown as text.`,
  summary: (sm) => [
    `${sm.steps} steps`,
    sm.expectations ? (sm.failed ? `${sm.failed} of ${sm.expectations} expectations failed` : `${sm.expectations} expectations held`) : '',
    sm.violations ? `${sm.violations} invariant violations` : 'no invariant violated',
  ].filter(Boolean).join(' · '),
  editorLabel: 'Timeline text (edit it: it runs again at once)',
  errKeep: 'The last good run stays on screen.',
  exportLabel: 'Export',
  exportJSON: 'Trace (JSON)',
  exportSVG: 'Lanes (SVG)',
  exportGo: 'Go test',
  openSimulator: 'Open in the simulator',
  correctEngine: 'correct engine',
  mutantEngine: (name) => `broken engine: ${name}`,
  breaks: (rule) => `It breaks one rule: “${rule}”.`,
  task: 'Your task: change the timeline until the two engines part ways.',
  noDiff: 'This timeline does not tell them apart: every step gives the same outcome, token, lease_until and rows on both engines.',
  diffAt: (step, line) => `They part ways at step ${step} (line ${line}):`,
  goToStep: (step) => `Go to step ${step}`,
  aspects: {
    outcome: 'outcome', winner: 'winner', token: 'token', lease_until: 'lease_until',
    receipt: 'receipt', enqueued: 'enqueued', state: 'state', rows: 'rows',
  },
  sideBy: (correct, broken) => `correct engine: ${correct} · broken: ${broken}`,
  cellDiff: (a, b) => `${a} on the correct engine, ${b} on the broken one`,
};

const ko = {
  ...en,
  lang: 'ko',
  reclaim: '재선점',
  sendReclaim: '전송 (재선점)',
  ends: (token) => `#${token} 만료`,
  wouldEnd: (token) => `#${token} 만료 예정`,
  leaseTitle: (l, ms) => `${l.actor}: ${l.job}, 토큰 ${l.token}, ${ms(l.start)}부터; lease_until ${ms(l.until)}${l.cause !== 'ends' ? ` (${ms(l.end)}에 ${l.cause})` : ''}`,
  expiryTitle: (e, ms) => `${e.owner}의 ${e.job} 임대(토큰 ${e.token})가 ${ms(e.at)}에 만료됩니다`,
  sendTitle: (sd, ms) => `${sd.actor}: ${ms(sd.start)}부터 ${ms(sd.end)}까지 전송`,
  unlimited: '무제한',
  valid: ' 유효',
  ended: ' 만료',
  changed: ' (변경됨)',
  noSQL: 'SQL 없음: 이 단계는 문장을 실행하지 않았습니다.',
  checked: '매 단계 후 검사합니다.',
  holds: '성립: ',
  violated: '위반: ',
  invariants: {
    'single-lease': '작업마다 유효한 임대는 하나 이하',
    'tokens-increase': '토큰은 증가만 한다',
    'no-stale-write': '낡은 토큰의 쓰기는 없다',
    'no-late-write': '임대가 끝난 뒤의 쓰기는 없다',
    'final-is-final': '완료와 격리는 되돌릴 수 없다',
    'attempts-bounded': 'attempts <= max_attempts',
    'lease-within-deadline': 'lease_until <= deadline',
    'no-job-lost': '작업은 사라지거나 중복되지 않는다',
  },
  lanesDesc: '작업자마다 한 줄: 토큰이 붙은 임대 막대, 만료, 재선점, 거절된 쓰기.',
  legend: ['임대 (토큰)', '임대 만료', '수락', '거절된 쓰기'],

  timeline: '타임라인',
  first: '첫 단계',
  back: '이전 단계',
  play: '재생',
  pause: '일시 정지',
  forward: '다음 단계',
  last: '마지막 단계',
  clock: '가상 시계',
  stepOf: (c, n) => `${n}단계 중 ${c}`,
  start: '시작',
  line: (n) => `${n}번째 줄`,
  beforeFirst: (n) => `첫 단계 전: ${n}단계가 남아 있습니다.`,
  stepExplain: (c, n, t, text) => `${n}단계 중 ${c}단계, ${t}: ${text}`,
  expectOk: (text) => `✓ 예상대로: -> ${text}`,
  expectBad: (want, got) => `✗ 예상 ${want}, 실제 ${got}`,
  jobsAt: (c, t) => (c ? `${c}단계 후, ${t}` : '등록 직후'),
  jobsFinal: '마지막 단계 후의 jobs',
  sqlTitle: '실행된 SQL',
  verdictsTitle: '불변식',
  waiting: '이 타임라인이 화면에 보이면 엔진이 시작됩니다.',
  loading: '엔진을 불러오는 중…',
  running: '실행 중…',
  unavailable: (msg) => `엔진을 쓸 수 없습니다(${msg}). 타임라인을 글로 보여 줍니다.`,
  summary: (sm) => [
    `${sm.steps}단계`,
    sm.expectations ? (sm.failed ? `예상 ${sm.expectations}개 중 ${sm.failed}개 실패` : `예상 ${sm.expectations}개 모두 성립`) : '',
    sm.violations ? `불변식 위반 ${sm.violations}건` : '불변식 위반 없음',
  ].filter(Boolean).join(' · '),
  editorLabel: '타임라인 텍스트 (고치면 바로 다시 실행합니다)',
  errKeep: '마지막으로 성공한 실행이 화면에 남아 있습니다.',
  exportLabel: '내보내기',
  exportJSON: '추적 (JSON)',
  exportSVG: '레인 (SVG)',
  exportGo: 'Go 테스트',
  openSimulator: '시뮬레이터에서 열기',
  correctEngine: '올바른 엔진',
  mutantEngine: (name) => `고장 난 엔진: ${name}`,
  breaks: (rule) => `이 엔진은 규칙 하나를 어깁니다: “${rule}”.`,
  task: '과제: 두 엔진이 갈라질 때까지 타임라인을 고쳐 보세요.',
  noDiff: '이 타임라인으로는 둘을 구별할 수 없습니다: 모든 단계의 결과, 토큰, lease_until, 행이 두 엔진에서 같습니다.',
  diffAt: (step, line) => `${step}단계(${line}번째 줄)에서 갈라집니다:`,
  goToStep: (step) => `${step}단계로 가기`,
  aspects: {
    outcome: '결과', winner: '승자', token: '토큰', lease_until: 'lease_until',
    receipt: '수신 기록', enqueued: '등록 여부', state: '조회한 행', rows: '행',
  },
  sideBy: (correct, broken) => `올바른 엔진: ${correct} · 고장 난 엔진: ${broken}`,
  cellDiff: (a, b) => `올바른 엔진 ${a}, 고장 난 엔진 ${b}`,
};

const books = { en, ko };

/** The interface's words in lang ("en" or "ko"; anything else is English). */
export function strings(lang) {
  return books[lang] || en;
}

/**
 * The language of an element: its own lang attribute, or its nearest
 * ancestor's, or the document's; "ko" for any Korean tag, else "en".
 */
export function langOf(el) {
  const tag = (el.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en').toLowerCase();
  return tag === 'ko' || tag.startsWith('ko-') ? 'ko' : 'en';
}

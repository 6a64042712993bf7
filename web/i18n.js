// @ts-check
// i18n.js is the one catalogue of the words leaselab's pages show around a
// trace — the simulator page, its Share / Embed and Keys dialogs, the
// <lease-timeline> element, the embed frame, the worksheet, the errors and
// the status lines — in every language the interface speaks. The engine
// explains each step itself, in the language it is asked for (run(text,
// {lang})); names are never translated: the timeline's verbs, refusal
// reasons, column names, actors, jobs and mutants are the timeline
// language's words (the page marks them translate="no").
//
// Every language has every key (web/.tools/test/i18n.test.js fails
// otherwise), so no language falls back to another one's words. A value
// is a string, a function of the values it names, or a table of strings.
// In a string, {code} marks where a code fragment goes (see parts).

/** @typedef {typeof en} Strings */

/** Hangul: its jamo, its compatibility jamo and its syllables. */
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/;

/**
 * The language of a text written by an author (a story's title) shown on a
 * page in lang, when it is not the page's: 'ko' when the page is not Korean
 * and the text has Hangul; 'en' when the page is not English and the text
 * has Latin letters and no Hangul; else undefined (the page's own language).
 * @param {string} text
 * @param {string} lang
 */
export function textLang(text, lang) {
  const hangul = HANGUL.test(text);
  if (hangul) return lang === 'ko' ? undefined : 'ko';
  return lang !== 'en' && /[A-Za-z]/.test(text) ? 'en' : undefined;
}

/** @param {number} n @param {string} one @param {string} many */
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** @type {Record<string, string>} A lab's units in Korean that are not symbols (ms): a count's counter. */
const KO_UNITS = {
  jobs: '개',
  writes: '건',
  claims: '건',
  deliveries: '건',
  attempts: '회',
  calls: '회',
  'jobs/s': '개/초',
};

/** The particle pairs josa picks from: the marker's two forms. */
const JOSA_PAIRS = {
  이가: ['이', '가'],
  은는: ['은', '는'],
  을를: ['을', '를'],
  과와: ['과', '와'],
  으로: ['으로', '로'],
  이라: ['이라', '라'],
};

/**
 * Korean particles written as a pair after a name — "(이)가", "(은)는",
 * "(을)를", "(과)와", "(으)로", "(이)라" — picked by the sound that ends the
 * word before them, looking through a closing quote, backquote or
 * parenthesis, as the engine picks them (engine/internal/lang, held to the
 * same table): the first form after a final consonant, the second after a
 * vowel ("(으)로": 로 after ㄹ too).
 * @param {string} s
 */
export function josa(s) {
  return s.replace(/\((이|은|을|과|으)\)(가|는|를|와|로|라)/gu, (marker, a, b, at) => {
    const pair = JOSA_PAIRS[/** @type {keyof typeof JOSA_PAIRS} */ (a + b)];
    if (!pair) return marker;
    const [final, rieul] = finalSound(s.slice(0, at).replace(/[`"')]+$/u, ''));
    return final && !(a + b === '으로' && rieul) ? pair[0] : pair[1];
  });
}

/**
 * Whether text ends, read aloud in Korean, in a consonant, and whether that
 * consonant is ㄹ: a Hangul syllable by its batchim, a digit by its
 * Sino-Korean name (영 일 이 삼 사 오 육 칠 팔 구), Latin letters by latinFinal.
 * @param {string} text
 * @returns {[boolean, boolean]}
 */
function finalSound(text) {
  const latin = /[A-Za-z]+$/u.exec(text);
  if (latin) return latinFinal(latin[0]);
  const c = text.codePointAt(text.length - 1) ?? 0;
  if (c >= 0xac00 && c <= 0xd7a3) return [(c - 0xac00) % 28 !== 0, (c - 0xac00) % 28 === 8];
  const last = text.slice(-1);
  if (/[0-9]/u.test(last)) return ['013678'.includes(last), '178'.includes(last)];
  return [false, false];
}

/**
 * The final sound of a run of Latin letters, by the engine's rules
 * (engine/internal/lang latinFinal): one or two letters, or capitals, are
 * spelled (엘 알: ㄹ; 엠 엔: a consonant); a longer run, its last word in
 * camel case, is read as Korean writes loanwords (마스터, 풀, 스트림, 테이블,
 * 노드, 락, 클라이언트, 잡, 타임아웃).
 * @param {string} run
 * @returns {[boolean, boolean]}
 */
function latinFinal(run) {
  if (run.length <= 2 || run.toUpperCase() === run) {
    const last = run.slice(-1).toLowerCase();
    return [/[lrmn]/u.test(last), /[lr]/u.test(last)];
  }
  const w = (/[A-Z][a-z]*$/u.exec(run)?.[0] ?? run).toLowerCase();
  const last = w.slice(-1);
  const prev = w.slice(-2, -1);
  if (last === 'e') return [/[lmn]/u.test(prev), prev === 'l'];
  if (last === 'l') return [true, true];
  if (last === 'm' || last === 'n') return [true, false];
  if (last === 'g') return [prev === 'n', false];
  if (/[ptkcb]/u.test(last)) {
    const stem = last === 'k' && prev === 'c' ? w.slice(0, -2) : w.slice(0, -1);
    return [/(^|[^aeiou])[aeiou]$/u.test(stem) || /(out|ook)$/u.test(w), false];
  }
  return [false, false];
}

export const en = {
  lang: 'en',

  // ---- the lanes (render.js, lanes.js) ----
  /** A step's verb as the lanes draw it, by the trace's op. */
  ops: {
    claim: 'claim',
    claim_next: 'claim_next',
    claim_many: 'claim_many',
    renew: 'renew',
    complete: 'complete',
    release: 'release',
    send: 'send',
    deliver: 'deliver',
    enqueue: 'enqueue',
    state: 'state',
    write: 'write',
    read: 'read',
    reopen: 'reopen',
    pause: 'pause',
    crash: 'crash',
    wait: 'wait',
    jump: 'jump',
    drift: 'drift',
    'leader-change': 'leader change',
  },
  /** An outcome other than ok or refused, as the lanes draw it, by its kind. */
  outcomes: { empty: 'empty', invalid: 'invalid', failed: 'failed', error: 'error' },
  /** @param {number} token */
  ends: (token) => `#${token} ends`,
  /** @param {number} token */
  wouldEnd: (token) => `#${token} would end`,
  /** @param {string} a @param {string} b */
  versus: (a, b) => `${a} vs ${b}`,
  nobody: 'nobody',
  /** @param {string} tokens */
  forgets: (tokens) => `forgets ${tokens}`,
  causes: { renewed: 'renewed', replaced: 'replaced', completed: 'completed', released: 'released', ends: 'ends' },
  /** @param {{actor: string, job: string, token: number, start: string, until: string, cause: string, end: string}} l */
  leaseTitle: (l) =>
    `${l.actor} holds ${l.job} with token ${l.token} from ${l.start}; lease_until ${l.until}${l.cause ? ` (${l.cause} at ${l.end})` : ''}`,
  /** @param {string} actor @param {string} at */
  forgottenTitle: (actor, at) => `${actor} crashed at ${at} and forgot this lease; the row keeps it until lease_until`,
  /** @param {{owner: string, job: string, token: number, at: string}} e */
  expiryTitle: (e) => `${e.owner}'s lease of ${e.job} (token ${e.token}) ends at ${e.at}`,
  /** @param {string} owner @param {string} at */
  ownClockEnd: (owner, at) => `(${at} on ${owner}'s clock)`,
  /** @param {{actor: string, job: string, token: number, reads: string, at: string}} b */
  believesTitle: (b) =>
    `${b.actor} believes its lease of ${b.job} (token ${b.token}) valid until ${b.reads} on its own clock (${b.at} true time); the service's clock decides`,
  /** @param {string} actor @param {string} from @param {string} to */
  sendTitle: (actor, from, to) => `${actor} sends from ${from} to ${to}`,
  /** @param {{actor: string, holder: string, job: string, token: number, from: string, to: string}} w */
  watchTitle: (w) =>
    `${w.actor} has seen ${w.holder}'s record of ${w.job} (token ${w.token}) unchanged since ${w.from}: it takes the job over at ${w.to} by its own stopwatch if the record stays, whatever lease_until says`,
  /** @param {{owner: string, job: string, token: number, from: string, to: string}} d */
  lockDelayTitle: (d) =>
    `${d.owner}'s lease of ${d.job} (token ${d.token}) ran out at ${d.from}; the service keeps ${d.job} for its lock-delay until ${d.to}, and nobody can claim it before then`,
  /** @param {string} actor @param {string} from @param {string} to */
  pauseTitle: (actor, from, to) => `${actor} is paused from ${from} to ${to}: it does nothing, and its leases run on`,
  /** @param {string} actor @param {string} now */
  ownClock: (actor, now) => `${actor}'s clock reads ${now}`,
  /** @param {string} now */
  serviceClock: (now) => `the service's clock reads ${now}`,
  /** @param {string} offset */
  clockOffset: (offset) => `(${offset})`,
  /** @param {string} actor @param {string} offset */
  clockOffsetTitle: (actor, offset) => `${actor}'s clock is ${offset} off true time`,
  lanesLabel: 'Workers on a shared clock',
  lanesDesc: 'One lane per worker: lease bars labelled by token, expiries, claims after an expiry and refused calls.',
  /** @param {number} from @param {number} to @param {number} n */
  lanesWindow: (from, to, n) => `The lanes show steps ${from}–${to} of ${n}, a part at a time; they follow the cursor.`,
  /** @param {string} a @param {number} ta @param {string} b @param {number} tb */
  decode: (a, ta, b, tb) =>
    `${a}#${ta} vs ${b}#${tb}: ${a} presents token ${ta} while ${b} holds token ${tb}. superseded: refused, because a newer token holds the job.`,
  legend: {
    lease: 'lease (token)',
    ends: 'lease ends',
    ok: 'accepted',
    refused: 'refused (a claim, a write, a complete…)',
    pause: 'paused',
    crash: 'crash',
    forgotten: 'forgotten lease',
    believes: 'believed valid (own clock)',
    lockDelay: 'lock-delay: kept after the lease ran out',
    watch: "a candidate's stopwatch on the holder's record",
    breaks: 'not to scale: a short stretch drawn wider',
  },
  /** @param {string} from @param {string} to */
  axisBreak: (from, to) => `${from} to ${to}: drawn wider than the scale, so that what happens in it can be read`,
  lanesToScale: 'The time axis is to scale except at its // marks, where a short stretch is drawn wider.',

  // ---- the tables and lists ----
  unlimited: 'unlimited',
  valid: ' valid',
  ended: ' ended',
  changed: ' (changed)',
  noSQL: 'No SQL: this step ran no statement.',
  checked: 'Checked after every step.',
  holds: 'holds: ',
  violated: 'violated: ',
  expectedViolation: 'expected: ',
  brokenOnPurpose: '{code} broken',
  invariants: {
    'single-lease': 'at most one valid lease per job',
    'tokens-increase': 'tokens only increase',
    'no-stale-write': 'no write with a superseded token',
    'no-late-write': 'no write after the lease ended',
    'final-is-final': 'done and quarantined are final',
    'attempts-bounded': 'attempts <= max_attempts',
    'lease-within-deadline': 'lease_until <= deadline',
    'no-job-lost': 'no job lost or duplicated',
    'storage-fenced': 'the storage takes no write with a lower token',
    'applied-once': "the receiver applies each job's effect once",
  },

  // ---- the player ----
  timeline: 'Timeline',
  first: 'First step',
  back: 'Step back',
  play: 'Play',
  pause: 'Pause',
  forward: 'Step forward',
  last: 'Last step',
  clock: 'Virtual clock',
  step: 'Step',
  speed: 'Speed',
  readPace: 'as read',
  /** Prediction mode: the learner says what happens before each marked step is shown. */
  predictMode: 'Predict before you see',
  predict: {
    /** @param {number} c @param {number} n @param {string} at @param {string} call */
    question: (c, n, at, call) => `Step ${c} of ${n}, at ${at}: ${call}. What happens?`,
    choose: 'Choose what happens; the step is shown once you have chosen.',
    /** @type {Record<string, string>} each outcome as a learner reads it */
    outcomes: {
      ok: 'ok: it goes through',
      empty: 'empty: there is nothing to take',
      failed: 'failed: the delivery fails',
      error: 'error: the database fails',
      invalid: 'invalid: the engine rejects an argument',
      'refused held': 'refused, held: another worker’s lease is still running',
      'refused expired': 'refused, expired: the caller’s own lease has run out',
      'refused superseded': 'refused, superseded: a newer token holds the job',
      'refused fenced': 'refused, fenced: the storage has seen a newer token',
      'refused done': 'refused, done: the job is already finished',
      'refused not_found': 'refused, not_found: there is no such job',
      'refused quarantined': 'refused, quarantined: the job used up its attempts',
    },
    /** @param {string} answer */
    right: (answer) => `Right — ${answer}.`,
    /** @param {string} chosen @param {string} answer */
    wrong: (chosen, answer) => `Not this time: you chose ${chosen}; it was ${answer}.`,
    /** @param {number} right @param {number} asked */
    score: (right, asked) => `You predicted ${right} of ${asked} right.`,
    /** @param {number} left */
    ahead: (left) => `${plural(left, 'question', 'questions')} ahead.`,
  },
  /** Break it: the learner pauses, crashes or delays a worker, or jumps the service's clock, at the cursor. */
  brk: {
    /** @param {string} at */
    at: (at) => `Break it at ${at}:`,
    service: 'service clock',
    /** @param {string} who @param {string} at */
    open: (who, at) => `Break ${who} at ${at}`,
    /** @param {string} who @param {string} at */
    menu: (who, at) => `What happens to ${who} at ${at}?`,
    duration: 'How long',
    /** @param {string} who @param {string} d */
    pause: (who, d) => `Pause ${who} for ${d}`,
    /** @param {string} who */
    crash: (who) => `Crash ${who} (it restarts as a new process)`,
    /** @param {string} who @param {string} op @param {string} d */
    delay: (who, op, d) => `Delay ${who}’s next ${op} by ${d}`,
    /** @param {string} who */
    delayOff: (who) => `Delay ${who}’s next message`,
    /** @param {string} who */
    delayNone: (who) => `${who} takes no step after the cursor: there is no message to delay.`,
    /** @param {string} who @param {string} op */
    delayOp: (who, op) =>
      `${who}’s next step is a ${op}: only a renew, complete, release, deliver or write travels as a message that can arrive late.`,
    /** @param {string} who @param {string} op */
    delayInflight: (who, op) => `${who}’s next ${op} is a message in flight already (arrives=).`,
    /** @param {string} d */
    jumpAhead: (d) => `Jump the service clock ${d} ahead`,
    /** @param {string} d */
    jumpBack: (d) => `Jump the service clock ${d} back`,
    close: 'Close',
    undo: 'Undo the break',
    running: 'Running the broken timeline…',
    /** @param {number} line @param {string} source */
    broke: (line, source) => `Line ${line} added: ${source}.`,
    /** @param {number} line @param {string} source */
    delayed: (line, source) => `Line ${line} now reads: ${source}.`,
    /** @param {string} list */
    changed: (list) => `Outcomes changed: ${list}.`,
    /** @param {number} step @param {string} call @param {string} was @param {string} now */
    changedOne: (step, call, was, now) => `step ${step}, ${call}: ${was} → ${now}`,
    same: 'No step’s outcome changed.',
    /** @param {string} msg */
    refused: (msg) => `The timeline language refuses this break, so the text stays as it was: ${msg}`,
    undone: 'Undone: the text is as it was before the break.',
    markTitle: 'Its outcome changed with the break.',
  },
  /** @param {number} c @param {number} n */
  stepOf: (c, n) => `step ${c} / ${n}`,
  start: 'start',
  /** @param {number} n */
  line: (n) => `line ${n}`,
  /** @param {number} n */
  beforeFirst: (n) => `Before the first step: ${plural(n, 'step', 'steps')} ahead.`,
  /** @param {number} c @param {number} n @param {string} t @param {string} text */
  stepExplain: (c, n, t, text) => `Step ${c} of ${n}, ${t}: ${text}`,
  /** @param {number} c @param {number} n @param {string} t @param {string} call @param {string} outcome */
  stepAnnounce: (c, n, t, call, outcome) => `Step ${c} of ${n}, ${t}: ${call}${outcome ? `: ${outcome}` : ''}.`,
  note: 'Note: ',
  /** @param {string} text */
  expectOk: (text) => `✓ as expected: -> ${text}`,
  /** @param {string} want @param {string} got */
  expectBad: (want, got) => `✗ expected ${want}, got ${got}`,
  /** @param {number} c @param {string} t */
  jobsAt: (c, t) => (c ? `after step ${c}, at ${t}` : 'as enqueued'),
  jobsFinal: 'jobs after the last step',
  // what each column of the jobs and storage tables means, its header's description
  columns: {
    id: "The job's name: one row per job",
    owner: 'The worker whose lease the row records (— when none)',
    token: "The number of the job's latest claim, one higher at each claim: a call presents it",
    lease_until: 'The instant the lease ends: it is valid while now < lease_until',
    status:
      'Where the job stands: pending (waits for a claim), leased (claimed; still leased after the lease ends, until a call changes it), done (completed), quarantined (set aside: out of attempts or past its deadline)',
    attempts: 'How many times the job has been claimed',
    max_attempts: 'How many claims the job may have (0: no limit)',
    deadline:
      'The instant by which the job must be done: no lease runs past it, and a claim at or after it quarantines the job (— when none)',
    reason: 'Why the job was quarantined: attempts or deadline',
    result: 'What the complete that finished the job reported',
    qty: 'The amount the job carries, which a send delivers to the receiver',
    key: 'What the storage holds, such as a file',
    value: 'What the last write the storage accepted left there',
  },
  // what each status means, a status cell's description
  statuses: {
    pending: 'pending: waits for a claim',
    leased: "leased: claimed; whether the lease still runs is lease_until's to say",
    done: 'done: completed, for good',
    quarantined: 'quarantined: set aside for good, out of attempts or past its deadline',
  },
  sqlTitle: 'SQL that ran',
  verdictsTitle: 'Invariants',
  storageTitle: 'Fenced storage',
  storageEmpty: 'Nothing written yet.',
  /** @param {{steps: number, expectations: number, failed: number, violations: number, announced?: number}} sm */
  summary: (sm) =>
    [
      plural(sm.steps, 'step', 'steps'),
      sm.expectations
        ? sm.failed
          ? `${sm.failed} of ${plural(sm.expectations, 'expectation', 'expectations')} failed`
          : plural(sm.expectations, 'expectation held', 'expectations held')
        : '',
      sm.violations
        ? plural(sm.violations, 'invariant violation', 'invariant violations')
        : sm.announced
          ? 'no unexpected violation'
          : 'no invariant violated',
      sm.announced ? `${plural(sm.announced, 'announced violation', 'announced violations')} (expected)` : '',
    ]
      .filter(Boolean)
      .join(' · '),
  errKeep: 'The last good run stays on screen.',
  goToPlace: 'Go to this place in the text',
  /** @param {number} line @param {number} col */
  placeAt: (line, col) => `line ${line}, column ${col}`,
  exportLabel: 'Export',
  exportJSON: 'Trace (JSON)',
  exportSVG: 'Lanes (SVG)',
  exportGo: 'Go test',
  nothingRun: 'nothing has run yet',
  nothingDrawn: 'nothing is drawn yet',
  /** @param {string} src the element's src=, or '' */
  noTimeline: (src) =>
    src
      ? `This <lease-timeline>'s src= (${src}) holds no timeline: the file is empty.`
      : 'This <lease-timeline> holds no timeline: put the text inside it in a <pre>, or name a file with src=.',

  // ---- the worksheet ----
  correctEngine: 'correct engine',
  /** @param {string} name */
  mutantEngine: (name) => `broken engine: ${name}`,
  /** @param {string} rule */
  breaks: (rule) => `It breaks one rule: “${rule}”.`,
  task: 'Your task: change the timeline until the two engines part ways.',
  noDiff:
    'This timeline does not tell them apart: every step gives the same outcome, token, lease_until and rows on both engines.',
  /** @param {number} step @param {number} line */
  diffAt: (step, line) => `They part ways at step ${step} (line ${line}):`,
  solved: 'Solved: this timeline tells the two engines apart.',
  /** @param {number} step */
  goToStep: (step) => `Go to step ${step}`,
  showMe: 'Show me a timeline that tells them apart',
  /** @param {number} n */
  hintSearching: (n) => `The explorer is searching every schedule of its default scope: ${n} states so far…`,
  hintStop: 'Stop',
  /** @param {string} msg */
  hintFailed: (msg) => `The search failed: ${msg}`,
  /** @param {number} n */
  hintNone: (n) =>
    `The explorer searched ${n} states and found no timeline within its default scope that tells them apart.`,
  /** @param {number} k @param {number} n */
  hintFound: (k, n) =>
    `The explorer searched ${n} states: the shortest timeline that tells them apart has ${plural(k, 'step', 'steps')}. One step at a time:`,
  /** @param {number} i @param {number} k */
  hintNext: (i, k) => `Show step ${i} of ${k}`,
  hintAll: 'Show all',
  hintOpen: 'Open it in the editor',
  aspects: {
    outcome: 'outcome',
    winner: 'winner',
    token: 'token',
    lease_until: 'lease_until',
    receipt: 'receipt',
    enqueued: 'enqueued',
    state: 'state',
    storage: 'storage',
    rows: 'rows',
  },
  /** @param {string} correct @param {string} broken */
  sideBy: (correct, broken) => `correct engine: ${correct} · broken: ${broken}`,
  /** @param {string} a @param {string} b */
  cellDiff: (a, b) => `${a} on the correct engine, ${b} on the broken one`,

  // ---- the element and the frame ----
  editorLabel: 'Timeline text (edit it: it runs again at once)',
  waiting: 'The engine starts when this timeline scrolls into view.',
  loading: 'Loading the engine…',
  running: 'Running…',
  /** @param {string} msg */
  unavailable: (msg) => `The engine is unavailable (${msg}); the timeline is shown as text.`,
  /** embed.html's note in a frame sandboxed without allow-same-origin (no engine worker can start there). */
  sandboxedFrame:
    'This frame is sandboxed without allow-same-origin, so it cannot start the engine: a library timeline plays from its trace computed ahead of time, but an edit, another mutant or language, or a Go test needs the engine. To allow it, the page must add allow-same-origin to the frame\'s sandbox (sandbox="allow-scripts allow-same-origin").',
  /** What a site's Content-Security-Policy must allow, by what it blocked (cspAdvice). */
  csp: {
    wasm: "The site's Content-Security-Policy blocks compiling WebAssembly: add 'wasm-unsafe-eval' to its script-src.",
    worker:
      "The site's Content-Security-Policy blocks the engine's worker: allow the bundle's origin in its worker-src (or script-src).",
    other:
      "The site's Content-Security-Policy blocks the engine: allow the bundle's origin in script-src, worker-src and connect-src, and 'wasm-unsafe-eval' in script-src.",
  },
  openSimulator: 'Open in the simulator',
  noJsBadge: 'timeline',
  noJsWorksheet: 'worksheet: the correct engine against ',
  noScript: 'This leaselab timeline is drawn by JavaScript, which is off here.',
  noTimelineInLink: 'the link names no timeline (t= or src= in the hash)',
  /** @param {string} name */
  unknownTimeline: (name) => `the link names the timeline "${name}", which the library does not have`,
  unreadableTimeline: 'the timeline in the link (src=) cannot be read: it is not base64url',

  // ---- the simulator page ----
  pageTitle: 'leaselab — leases and tokens, step by step',
  pageDescription:
    'Play timelines of claim, expire, claim again and a stale complete on a virtual clock, on the real engine and a real in-memory SQLite.',
  tagline: 'leases and tokens, step by step',
  skip: 'Skip to the player',
  shareButton: 'Share / Embed',
  keysButton: 'Keys',
  editorTitle: 'Timeline',
  story: 'Story',
  engine: 'Engine',
  engineMore: 'Engine and broken engines',
  language: 'Language',
  correctEngineOption: 'correct engine',
  /** @param {string} name */
  mutantOption: (name) => `mutant: ${name}`,
  ownTimeline: 'your own (edited)',
  /** @param {string} rule */
  mutantNote: (rule) =>
    `This engine is broken on purpose: it breaks “${rule}”. Watch the expectations and the invariants.`,
  editorText: 'Timeline text',
  /** @param {number} n */
  editorFolded: (n) => `This timeline is ${n} lines long: its text is folded, so that the page stays quick.`,
  showText: 'Show the text',
  editorHint: 'Edit the text: it runs again at once on the real engine in your browser. {code} is an expectation.',
  aheadOfTime: 'computed ahead of time by the same engine',
  inBrowser: 'run in your browser',
  /** @param {string} name */
  inBrowserMutant: (name) => `run in your browser on the “${name}” mutant`,
  footer:
    'The page draws a trace computed ahead of time while the engine loads; every edit runs on the engine (Go, WebAssembly) over an in-memory SQLite.',
  engineLoading: 'engine loading…',
  engineLoadingEdit: 'engine loading… (your edit runs when it is ready)',
  engineRunning: 'running…',
  engineReady: 'engine ready',
  /** @param {string} seconds */
  engineLoaded: (seconds) => `engine ready (loaded in ${seconds} s)`,
  /** @param {number} took @param {boolean} same */
  engineRan: (took, same) => `engine ready · ran in ${took} ms${same ? ' · same bytes as ahead of time' : ''}`,
  /** @param {string} msg */
  engineUnavailable: (msg) => `engine unavailable: ${msg}`,
  tracesMissing: 'traces/index.json missing: build the page with make wasm',
  shareTitle: 'Share or embed this timeline',
  shareHint: 'Each carries the timeline as it is now, the engine, the language and the step.',
  shareLink: 'Link to this step',
  shareElement: 'For pages that allow a script: the {code} element',
  shareFrame: 'For hosts that strip scripts: a frame (the script line is optional: it lets the frame set its height)',
  copy: 'Copy',
  copyElement: 'Copy the element',
  copyFrame: 'Copy the frame',
  close: 'Close',
  /** @param {string} what */
  copied: (what) => `Copied: ${what}.`,
  copyByHand: 'Select the text and copy it (Ctrl+C).',
  frameComment: 'optional: lets the frame set its own height',
  keysTitle: 'Keys',
  keyPlay: 'play or pause',
  keyStep: 'step forward or back',
  keyJump: 'first or last step',
  keyHelp: 'show or hide this list',
  keyEscape: 'leave the editor, close this list',
  keysHint: 'The keys work anywhere outside the editor.',

  // ---- the Explore dialog (explore-panel.js) ----
  exploreButton: 'Explore',
  exploreTitle: 'Explore: let the engine find the timeline',
  exploreHint:
    'Tries every order of calls the scope below allows (which worker calls what, and when), the shortest first, on a small model of the rules, until one tells the broken engine apart or breaks the rule you pick; then it replays that timeline on the real engine to confirm it. It runs beside the page, which stays usable.',
  exploreGoal: 'Find',
  exploreTellApart: 'what tells this engine apart from the correct one',
  exploreBreak: 'what breaks this invariant',
  exploreAnyInvariant: 'any invariant',
  exploreOn: 'on the engine',
  exploreScope: 'Scope',
  exploreWorkers: 'workers',
  exploreSteps: 'steps at most',
  exploreTTL: 'lease (ms)',
  exploreMaxAttempts: 'job a: max_attempts',
  exploreDeadline: 'job a: deadline (ms)',
  exploreSearch: 'Search',
  exploreCancel: 'Cancel',
  exploreLoad: 'Load into the editor',
  exploreResult: 'The timeline found',
  exploreLoading: 'starting the explorer…',
  /** @param {number} states @param {number} depth @param {number} rate */
  exploreProgress: (states, depth, rate) =>
    `${states.toLocaleString('en')} states · depth ${depth} · ${Math.round(rate).toLocaleString('en')} states/s`,
  /** @param {number} steps @param {number} states @param {number} ms */
  exploreFound: (steps, states, ms) =>
    `Found in ${plural(steps, 'step', 'steps')}, after ${states.toLocaleString('en')} states (${Math.round(ms)} ms), and confirmed on the engine.`,
  /** @param {number} depth @param {number} states @param {boolean} bounded */
  exploreNothing: (depth, states, bounded) =>
    `Nothing found: ${bounded ? 'the search stopped at its limit of states' : `every timeline of up to ${plural(depth, 'step', 'steps')} was searched`} (${states.toLocaleString('en')} states).`,
  exploreCancelled: 'Cancelled.',
  /** @param {string} msg */
  exploreFailed: (msg) => `The explorer could not search: ${msg}`,
  exploreNoMutants: 'This engine has no mutants to tell apart.',

  // ---- course sites (the author's guide) ----
  guideLink: "Course author's guide",
  introTitle: 'New here? Leases and tokens in a minute',
  introLease:
    'A lease is a claim on a job for a limited time: worker A takes order-7 until 1000 ms. If A stalls (a long pause, a slow network), its lease runs out and another worker may take the job.',
  introToken:
    'Every claim gets a token, a number that only grows, counted for each job on its own (two jobs each start at 1): A holds token 1, drawn A#1; B, claiming after A’s lease ended, holds token 2, B#2.',
  introRefused:
    'When A comes back late and tries to finish with token 1, the engine refuses it as superseded: a newer token holds the job, so A’s stale work cannot undo B’s.',
  /** The link to the learner's tutorial (tutorial.html), in the introduction. */
  introTutorial:
    'Learn it one idea at a time: the tutorial, seven short screens where you predict each step before you see it',
  /** The link to the tutorial's glossary, in the introduction: every word the simulator uses, explained. */
  introGlossary: 'Every word of the lanes and tables, explained: the glossary',
  introStart: 'Start here',
  introHide: 'Hide this introduction',
  introShow: 'Show the introduction',
  // ---- the coding exercise (lease-exercise.js) ----
  labCode: 'Your code (JavaScript): the fencing lab’s functions',
  labCodePython: (/** @type {string} */ lab) => `Your code (Python): the ${lab} lab’s functions`,
  labLoadingPython: 'Loading Python into this page (Pyodide, once), then checking your code step by step…',
  labCheck: 'Check',
  /** @param {string} why */
  labUnreadable: (why) => `This exercise's fence cannot be read: ${why}`,
  labReset: 'Start over',
  labKeys: 'Ctrl+Enter checks',
  labChecking: 'Checking your code, step by step, beside the contract…',
  /** @param {number} s */
  labTimeout: (s) => `Your code did not finish within ${s} s (a loop that never ends?): it was stopped.`,
  /** @param {string} test */
  labStuck: (test) => `It never came back from this call, in ${test}:`,
  /** A test's verdict, in the list, when its call never came back. */
  labHung: 'a call never came back: stopped at the time limit',
  /** @param {string} msg */
  labFailed: (msg) => `The grader could not run: ${msg}`,
  labCannotRun: 'Your code could not be run:',
  labCSP:
    "This site's policy does not let the page run your code: the site must send grader-worker.js, and only it, with 'unsafe-eval' added to its script-src.",
  /** @param {number} p @param {number} f @param {number} s */
  labSummary: (p, f, s) => `${p} passed, ${f} failed, ${s} skipped.`,
  /** @param {string} call */
  labStart: (call) =>
    `Start here: make ${call} answer as the contract does (the first difference, below); the tests after it stand on it.`,
  labVerdicts: { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' },
  labSteps: 'The lab’s steps',
  /** @param {number} n */
  labOthers: (n) => `The other tests: stories, mutants, races, the search (${n})`,
  /** @param {string} names */
  labMissing: (names) => `Your code does not define: ${names}`,
  labText: 'The report as leaselab grade prints it',
  /** @param {string} test @param {string} where */
  labFirst: (test, where) => `First difference: ${test} (${where})`,
  labCall: 'call',
  labContract: 'contract',
  labYours: 'yours',
  labBroken: 'Your code broke off:',
  labCalls: 'The calls of this test, with your SQL and both tables after each',
  /** @param {number} n */
  labSQL: (n) => `Your code ran ${plural(n, 'statement', 'statements')}:`,
  labStepDetails: 'your SQL and the tables',
  labTimeline: 'A timeline that reproduces it on the engine',
  labOpenDifference: 'Open the difference in the simulator, your run beside the engine’s ↗',
  labNoRows: '(no rows)',
  labContractTable: 'The contract’s table after the call',
  labYourTable: 'Your table after the call',

  // ---- a grading report's link: the student's run beside the engine's ----
  yourCode: 'your code',
  /** @param {number} step */
  studentDiffers: (step) => `Your code parts from the contract at step ${step}.`,
  studentHere: 'Here your code parts from the contract.',
  studentAfter: 'Your code’s run stops at the step where it parts from the contract.',
  studentStart: 'Before the first step: init_db and the jobs the timeline declares.',
  studentCalls: 'Your functions were called:',
  studentNoCalls: 'This step called none of your functions.',
  studentTable: 'your table after the step',
  /** @param {number} n */
  implTooLarge: (n) =>
    `The link’s run of your code (impl=) is over ${n} bytes (grade_link_run_bytes): only the engine’s run is shown.`,
  implMalformed: 'The link’s run of your code (impl=) cannot be read: only the engine’s run is shown.',

  // ---- a concurrent history's link (#history=, history-view.js) ----
  hist: {
    title: 'A concurrent history, checked against the contract',
    verdict: {
      linearizable:
        'Linearizable: the calls fit the contract taken one at a time, each between its invocation and its return, in the order beside the drawing.',
      'not linearizable':
        'Not linearizable: no order of these calls, each taking effect between its invocation and its return, gives every answer they got.',
      unknown: 'Undecided: the check ran out of time before it found an order or ruled every one out.',
    },
    checking: 'Checking the history on the engine…',
    /** @param {string} span */
    axis: (span) => `Time axis: milliseconds since the first call was invoked (0 to ${span} ms). A lane a client.`,
    drawingRegion: 'The calls drawn on one time axis',
    /** @param {number} calls @param {number} lanes */
    drawingLabel: (calls, lanes) =>
      `${plural(calls, 'call', 'calls')} on ${plural(lanes, 'lane', 'lanes')}, one a client; the table of the calls below says the same.`,
    /** @param {number} n */
    callN: (n) => `call ${n}`,
    legendStuck: 'the call no order places',
    legendOverlaps: 'a call overlapping it',
    orderTitle: 'The model’s order, one call at a time',
    rowsAfter: 'rows after it:',
    noRows: '(no rows)',
    orderNone: 'The check found no order to show.',
    /** @param {number} n */
    noOrder: (n) => `No order places call ${n} after these: the contract’s model cannot give it the answer it got.`,
    tableCaption: 'The calls, in the order they were recorded (times in ms since the first invocation)',
    cols: ['#', 'client', 'call', 'answer', 'invoked', 'returned', 'mark'],
    report: 'The checker’s text report',
    /** @param {number} n */
    tooLarge: (n) => `The link’s history (history=) is over ${n} bytes (grade_link_run_bytes): it is not drawn.`,
    malformed: 'The link’s history (history=) cannot be read: the link was cut short or changed.',
    /** @param {string} msg */
    badHistory: (msg) => `The link’s history is not one the checker reads: ${msg}`,
    /** @param {string} msg */
    engineFailed: (msg) => `The engine could not check the link’s history: ${msg}`,
  },

  // ---- <lease-lab> (lease-lab.js) ----
  lab: {
    waiting: 'The lab runs on the engine when it scrolls into view.',
    /** @param {string} title */
    tableCaption: (title) => `${title}: each point's mean over its runs, with the 95% interval`,
    point: 'point',
    runs: 'runs behind it',
    worst: 'worst run',
    typical: 'typical run',
    /** @param {string} values @param {boolean} worst */
    pointLabel: (values, worst) => `${values}. Press Enter for its ${worst ? 'worst' : 'typical'} run as a timeline.`,
    plotHint:
      'Tab to the plot, then the arrow keys move from point to point; Enter opens the worst run behind a point.',
    /** @param {string} which @param {string} where */
    storyTitle: (which, where) => `The ${which} behind ${where}`,
    /** @param {string} measure */
    noRun: (measure) => `No run of this point has the measure ${measure}.`,
    storyLoading: 'replaying the run on the engine…',
    edit: 'Change the lab and run it again',
    textLabel: 'The lab (.lab)',
    run: 'Run',
    cancel: 'Cancel',
    /** @param {number} done @param {number} total */
    progress: (done, total) => `ran ${done} of ${plural(total, 'run', 'runs')}…`,
    cancelled: 'Cancelled: the plot shows the last result.',
    /** @param {number} runs @param {string} seconds */
    ranIn: (runs, seconds) => `ran ${plural(runs, 'run', 'runs')} on the engine in ${seconds} s`,
    prerendered: 'computed ahead of time, natively; the same bytes the engine gives',
    /** @param {string} msg */
    failed: (msg) => `The lab was not run: ${msg}`,
    /** A measure's heading: its label, then its unit. @param {string} label @param {string} unit */
    measure: (label, unit) => `${label} (${unit})`,
  },
};

/** @type {Strings} */
export const ko = {
  lang: 'ko',

  ops: {
    claim: '선점',
    claim_next: '다음 선점',
    claim_many: '동시 선점',
    renew: '갱신',
    complete: '완료',
    release: '반납',
    send: '전송',
    deliver: '전달',
    enqueue: '등록',
    state: '조회',
    write: '쓰기',
    read: '읽기',
    reopen: '다시 열기',
    pause: '멈춤',
    crash: '비정상 종료',
    wait: '대기',
    jump: '건너뛰기',
    drift: '표류',
    'leader-change': '리더 교체',
  },
  outcomes: { empty: '없음', invalid: '잘못된 인수', failed: '실패', error: '오류' },
  ends: (token) => `#${token} 만료`,
  wouldEnd: (token) => `#${token} 만료 예정`,
  versus: (a, b) => `${a} 대 ${b}`,
  nobody: '없음',
  forgets: (tokens) => `${tokens} 잊음`,
  causes: { renewed: '갱신', replaced: '교체', completed: '완료', released: '반납', ends: '만료' },
  leaseTitle: (l) =>
    `${l.actor}: ${l.job}, token ${l.token}, ${l.start}부터; lease_until ${l.until}${l.cause ? ` (${l.end}에 ${l.cause})` : ''}`,
  forgottenTitle: (actor, at) =>
    josa(`${actor}(이)가 ${at}에 비정상 종료되어 이 임대를 잊었습니다. 행은 lease_until까지 임대를 유지합니다`),
  expiryTitle: (e) => `${e.owner}의 ${e.job} 임대(token ${e.token})가 ${e.at}에 만료됩니다`,
  ownClockEnd: (owner, at) => `(${owner}의 시계로 ${at})`,
  believesTitle: (b) =>
    josa(
      `${b.actor}(은)는 ${b.job} 임대(token ${b.token})가 자기 시계로 ${b.reads}까지(실제 시각 ${b.at}) 유효하다고 믿습니다. 정하는 것은 서비스의 시계입니다`,
    ),
  sendTitle: (actor, from, to) => `${actor}: ${from}부터 ${to}까지 전송`,
  /** @param {{actor: string, holder: string, job: string, token: number, from: string, to: string}} w */
  watchTitle: (w) =>
    josa(
      `${w.actor}(은)는 ${w.from}부터 ${w.holder}의 ${w.job} 기록(token ${w.token})이 그대로인 것을 보고 있습니다: 기록이 그대로면 자기 스톱워치로 ${w.to}에 일을 넘겨받습니다. lease_until이 무엇이라 하든요`,
    ),
  /** @param {{owner: string, job: string, token: number, from: string, to: string}} d */
  lockDelayTitle: (d) =>
    josa(
      `${d.owner}의 ${d.job} 임대(token ${d.token})는 ${d.from}에 끝났지만, 서비스가 잠금 지연으로 ${d.to}까지 ${d.job}(을)를 붙잡아 둡니다. 그 전에는 아무도 선점할 수 없습니다`,
    ),
  /** @param {string} actor @param {string} from @param {string} to */
  pauseTitle: (actor, from, to) => `${actor}: ${from}부터 ${to}까지 멈춤. 아무것도 하지 않지만 임대 시간은 흐릅니다`,
  ownClock: (actor, now) => `${actor}의 시계: ${now}`,
  serviceClock: (now) => `서비스의 시계: ${now}`,
  clockOffset: (offset) => `(${offset})`,
  clockOffsetTitle: (actor, offset) => `${actor}의 시계는 실제 시각과 ${offset} 어긋나 있습니다`,
  lanesLabel: '같은 시계 위의 작업자들',
  lanesDesc: '작업자마다 한 줄: token이 붙은 임대 막대, 만료, 만료 뒤의 선점, 거절된 호출.',
  lanesWindow: (from, to, n) =>
    `레인은 ${n}단계 중 ${from}–${to}단계를 보여 줍니다. 한 번에 일부씩, 커서를 따라갑니다.`,
  /** @param {string} a @param {number} ta @param {string} b @param {number} tb */
  decode: (a, ta, b, tb) =>
    josa(
      `${a}#${ta} 대 ${b}#${tb}: ${a}(은)는 token ${ta}(을)를 내밀지만 ${b}(이)가 token ${tb}(을)를 쥐고 있습니다. superseded: 더 새 token이 작업을 쥐고 있어 거절됨.`,
    ),
  legend: {
    lease: '임대 (token)',
    ends: '임대 만료',
    ok: '수락',
    refused: '거절됨 (선점, 쓰기, 완료…)',
    pause: '멈춤',
    crash: '비정상 종료',
    forgotten: '잊힌 임대',
    believes: '유효하다고 믿는 때 (자기 시계)',
    lockDelay: '잠금 지연: 임대가 끝난 뒤에도 붙잡아 둠',
    watch: '보유자의 기록을 재는 후보의 스톱워치',
    breaks: '축척과 다름: 짧은 구간을 넓게 그림',
  },
  axisBreak: (from, to) => `${from}부터 ${to}까지: 그 사이에 일어난 일을 읽을 수 있도록 축척보다 넓게 그렸습니다`,
  lanesToScale: '시간 축은 // 표시가 있는 곳을 빼면 축척대로입니다. 표시된 곳은 짧은 구간을 넓게 그렸습니다.',

  unlimited: '무제한',
  valid: ' 유효',
  ended: ' 만료',
  changed: ' (변경됨)',
  noSQL: 'SQL 없음: 이 단계는 문장을 실행하지 않았습니다.',
  checked: '매 단계 후 검사합니다.',
  holds: '성립: ',
  violated: '위반: ',
  expectedViolation: '예고된 위반: ',
  brokenOnPurpose: '{code} 깨짐',
  invariants: {
    'single-lease': '작업마다 유효한 임대는 하나 이하',
    'tokens-increase': 'token은 증가만 한다',
    'no-stale-write': '낡은 token의 쓰기는 없다',
    'no-late-write': '임대가 끝난 뒤의 쓰기는 없다',
    'final-is-final': '완료와 격리는 되돌릴 수 없다',
    'attempts-bounded': 'attempts <= max_attempts',
    'lease-within-deadline': 'lease_until <= deadline',
    'no-job-lost': '작업은 사라지거나 중복되지 않는다',
    'storage-fenced': '저장소는 더 낮은 token의 쓰기를 받지 않는다',
    'applied-once': '수신 측은 일마다 효과를 한 번만 적용한다',
  },

  timeline: '타임라인',
  first: '첫 단계',
  back: '이전 단계',
  play: '재생',
  pause: '멈춤',
  forward: '다음 단계',
  last: '마지막 단계',
  clock: '가상 시계',
  step: '단계',
  speed: '속도',
  readPace: '읽는 속도로',
  predictMode: '보기 전에 예측하기',
  predict: {
    question: (c, n, at, call) => `${n}단계 중 ${c}단계, ${at}: ${call}. 어떻게 될까요?`,
    choose: '어떻게 될지 고르세요. 고르면 그 단계를 보여 줍니다.',
    outcomes: {
      ok: 'ok: 그대로 됩니다',
      empty: 'empty: 가져갈 일이 없습니다',
      failed: 'failed: 전달이 실패합니다',
      error: 'error: 데이터베이스가 실패합니다',
      invalid: 'invalid: 엔진이 인자를 받지 않습니다',
      'refused held': '거절, held: 다른 작업자의 임대가 아직 살아 있습니다',
      'refused expired': '거절, expired: 부른 쪽의 임대가 이미 끝났습니다',
      'refused superseded': '거절, superseded: 더 새 token이 작업을 쥐고 있습니다',
      'refused fenced': '거절, fenced: 저장소가 더 새 token을 이미 보았습니다',
      'refused done': '거절, done: 작업이 이미 끝났습니다',
      'refused not_found': '거절, not_found: 그런 작업이 없습니다',
      'refused quarantined': '거절, quarantined: 작업이 시도를 다 썼습니다',
    },
    right: (answer) => `맞습니다 — ${answer}.`,
    wrong: (chosen, answer) => `이번엔 아닙니다. 고른 것: ${chosen}. 결과: ${answer}.`,
    score: (right, asked) => `${asked}번 중 ${right}번 맞게 예측했습니다.`,
    ahead: (left) => `질문이 ${left}개 남아 있습니다.`,
  },
  brk: {
    at: (at) => `${at}에서 망가뜨려 보기:`,
    service: '서비스 시계',
    open: (who, at) => `${at}에 ${who} 망가뜨리기`,
    menu: (who, at) => `${at}에 ${who}에게 무슨 일이 일어날까요?`,
    duration: '길이',
    pause: (who, d) => `${who} ${d} 동안 멈추기`,
    crash: (who) => `${who} 충돌시키기 (새 프로세스로 다시 시작)`,
    delay: (who, op, d) => `${who}의 다음 ${op} ${d} 늦추기`,
    delayOff: (who) => `${who}의 다음 메시지 늦추기`,
    delayNone: (who) => `커서 뒤에 ${who}의 단계가 없어 늦출 메시지가 없습니다.`,
    delayOp: (who, op) =>
      `${who}의 다음 단계는 ${op}: renew, complete, release, deliver, write만 늦게 도착할 수 있는 메시지로 갑니다.`,
    delayInflight: (who, op) => `${who}의 다음 ${op}: 이미 날아가는 중인 메시지입니다 (arrives=).`,
    jumpAhead: (d) => `서비스 시계를 ${d} 앞으로 건너뛰기`,
    jumpBack: (d) => `서비스 시계를 ${d} 뒤로 되돌리기`,
    close: '닫기',
    undo: '망가뜨리기 되돌리기',
    running: '망가뜨린 타임라인을 실행하는 중…',
    broke: (line, source) => `${line}번째 줄을 더했습니다: ${source}.`,
    delayed: (line, source) => `${line}번째 줄이 이렇게 바뀌었습니다: ${source}.`,
    changed: (list) => `결과가 바뀐 단계: ${list}.`,
    changedOne: (step, call, was, now) => `${step}단계 ${call}: ${was} → ${now}`,
    same: '결과가 바뀐 단계는 없습니다.',
    refused: (msg) => `타임라인 언어가 이 변경을 받아들이지 않아 텍스트는 그대로입니다: ${msg}`,
    undone: '되돌렸습니다: 텍스트가 망가뜨리기 전과 같습니다.',
    markTitle: '망가뜨리기로 결과가 바뀐 단계입니다.',
  },
  stepOf: (c, n) => `${n}단계 중 ${c}`,
  start: '시작',
  line: (n) => `${n}번째 줄`,
  beforeFirst: (n) => `첫 단계 전: ${n}단계가 남아 있습니다.`,
  stepExplain: (c, n, t, text) => `${n}단계 중 ${c}단계, ${t}: ${text}`,
  /** @param {number} c @param {number} n @param {string} t @param {string} call @param {string} outcome */
  stepAnnounce: (c, n, t, call, outcome) => `${n}단계 중 ${c}단계, ${t}: ${call}${outcome ? `: ${outcome}` : ''}.`,
  note: '메모: ',
  expectOk: (text) => `✓ 기대한 대로: -> ${text}`,
  expectBad: (want, got) => `✗ 기대 ${want}, 실제 ${got}`,
  jobsAt: (c, t) => (c ? `${c}단계 후, ${t}` : '등록 직후'),
  jobsFinal: '마지막 단계 후의 jobs',
  columns: {
    id: '작업의 이름. 작업마다 한 행',
    owner: '행에 기록된 임대의 작업자 (없으면 —)',
    token: '작업의 마지막 선점 번호. 선점마다 하나씩 커지고, 호출은 이 번호를 내밉니다',
    lease_until: '임대가 끝나는 시각. now < lease_until인 동안 유효합니다',
    status:
      '작업의 상태: pending(선점을 기다림), leased(선점됨. 임대가 끝나도 다른 호출이 바꿀 때까지 leased), done(완료됨), quarantined(격리됨: 시도를 다 썼거나 마감이 지남)',
    attempts: '작업이 지금까지 선점된 횟수',
    max_attempts: '작업이 받을 수 있는 선점 횟수 (0: 한도 없음)',
    deadline:
      '작업을 끝내야 하는 마감 시각. 임대는 이 시각을 넘지 않고, 이 시각이나 그 뒤의 선점은 작업을 격리합니다 (없으면 —)',
    reason: '작업이 격리된 까닭: attempts(시도를 다 씀) 또는 deadline(마감이 지남)',
    result: '작업을 끝낸 완료가 알린 결과',
    qty: '작업이 나르는 양. 전송이 수신 측에 전달합니다',
    key: '저장소가 담은 것의 이름(파일 등)',
    value: '저장소가 받아들인 마지막 쓰기가 남긴 값',
  },
  statuses: {
    pending: 'pending: 선점을 기다림',
    leased: 'leased: 선점됨. 임대가 아직 유효한지는 lease_until이 말해 줍니다',
    done: 'done: 완료되어 끝남',
    quarantined: 'quarantined: 시도를 다 썼거나 마감이 지나 격리되어 끝남',
  },
  sqlTitle: '실행된 SQL',
  verdictsTitle: '불변식',
  storageTitle: '펜싱된 저장소',
  storageEmpty: '아직 쓴 값이 없습니다.',
  summary: (sm) =>
    [
      `${sm.steps}단계`,
      sm.expectations
        ? sm.failed
          ? `기대 ${sm.expectations}개 중 ${sm.failed}개 실패`
          : `기대 ${sm.expectations}개 모두 성립`
        : '',
      sm.violations ? `불변식 위반 ${sm.violations}건` : sm.announced ? '예고되지 않은 위반 없음' : '불변식 위반 없음',
      sm.announced ? `예고된 위반 ${sm.announced}건` : '',
    ]
      .filter(Boolean)
      .join(' · '),
  errKeep: '마지막으로 성공한 실행이 화면에 남아 있습니다.',
  goToPlace: '텍스트의 이 위치로 가기',
  /** @param {number} line @param {number} col */
  placeAt: (line, col) => `${line}행 ${col}열`,
  exportLabel: '내보내기',
  exportJSON: '추적 (JSON)',
  exportSVG: '레인 (SVG)',
  exportGo: 'Go 테스트',
  nothingRun: '아직 실행한 것이 없습니다',
  nothingDrawn: '아직 그린 것이 없습니다',
  noTimeline: (src) =>
    src
      ? `이 <lease-timeline>의 src=(${src})에는 타임라인이 없습니다. 빈 파일입니다.`
      : '이 <lease-timeline>에는 타임라인이 없습니다. 타임라인 글을 요소 안의 <pre>에 넣거나 src=로 파일을 지정하세요.',

  correctEngine: '올바른 엔진',
  mutantEngine: (name) => `고장 난 엔진: ${name}`,
  breaks: (rule) => `이 엔진은 규칙 하나를 어깁니다: “${rule}”.`,
  task: '과제: 두 엔진이 갈라질 때까지 타임라인을 고쳐 보세요.',
  noDiff: '이 타임라인으로는 둘을 구별할 수 없습니다: 모든 단계의 결과, token, lease_until, 행이 두 엔진에서 같습니다.',
  diffAt: (step, line) => `${step}단계(${line}번째 줄)에서 갈라집니다:`,
  goToStep: (step) => `${step}단계로 가기`,
  showMe: '두 엔진을 갈라놓는 타임라인을 보여 주세요',
  solved: '풀었습니다: 이 타임라인은 두 엔진을 구별합니다.',
  hintSearching: (n) => `탐색기가 기본 범위의 모든 순서를 찾고 있습니다: 지금까지 ${n}개 상태…`,
  hintStop: '멈추기',
  hintFailed: (msg) => `탐색이 실패했습니다: ${msg}`,
  hintNone: (n) => `탐색기가 ${n}개 상태를 살폈지만, 기본 범위 안에서 두 엔진을 갈라놓는 타임라인을 찾지 못했습니다.`,
  hintFound: (k, n) =>
    `탐색기가 ${n}개 상태를 살폈습니다. 두 엔진을 갈라놓는 가장 짧은 타임라인은 ${k}단계입니다. 한 단계씩 봅니다:`,
  hintNext: (i, k) => `${k}단계 중 ${i}단계 보기`,
  hintAll: '모두 보기',
  hintOpen: '편집기에서 열기',
  aspects: {
    outcome: '결과',
    winner: '승자',
    token: 'token',
    lease_until: 'lease_until',
    receipt: '수신 기록',
    enqueued: '등록 여부',
    state: '조회한 행',
    storage: '저장소',
    rows: '행',
  },
  sideBy: (correct, broken) => `올바른 엔진: ${correct} · 고장 난 엔진: ${broken}`,
  cellDiff: (a, b) => `올바른 엔진 ${a}, 고장 난 엔진 ${b}`,

  editorLabel: '타임라인 텍스트 (고치면 바로 다시 실행합니다)',
  waiting: '이 타임라인이 화면에 보이면 엔진이 시작됩니다.',
  loading: '엔진을 불러오는 중…',
  running: '실행 중…',
  unavailable: (msg) => `엔진을 쓸 수 없습니다(${msg}). 타임라인을 글로 보여 줍니다.`,
  sandboxedFrame:
    '이 프레임은 allow-same-origin 없는 샌드박스 안에 있어서 엔진을 시작할 수 없습니다. 라이브러리 타임라인은 미리 계산한 트레이스로 재생되지만(영어 설명), 편집, 다른 뮤턴트나 언어, Go 테스트에는 엔진이 필요합니다. 허용하려면 페이지가 프레임의 샌드박스에 allow-same-origin을 더해야 합니다(sandbox="allow-scripts allow-same-origin").',
  csp: {
    wasm: "사이트의 Content-Security-Policy가 WebAssembly 컴파일을 막습니다: script-src에 'wasm-unsafe-eval'을 추가하세요.",
    worker:
      '사이트의 Content-Security-Policy가 엔진의 워커를 막습니다: worker-src(또는 script-src)에서 번들의 출처를 허용하세요.',
    other:
      "사이트의 Content-Security-Policy가 엔진을 막습니다: script-src, worker-src, connect-src에서 번들의 출처를 허용하고, script-src에 'wasm-unsafe-eval'을 추가하세요.",
  },
  openSimulator: '시뮬레이터에서 열기',
  noJsBadge: '타임라인',
  noJsWorksheet: '연습 문제: 올바른 엔진과 ',
  noScript: '이 leaselab 타임라인은 JavaScript로 그리는데, 여기서는 JavaScript가 꺼져 있습니다.',
  noTimelineInLink: '링크에 타임라인이 없습니다 (해시에 t= 또는 src=)',
  /** @param {string} name */
  unknownTimeline: (name) => `라이브러리에 없는 타임라인을 링크가 가리킵니다: "${name}"`,
  unreadableTimeline: '링크에 담긴 타임라인(src=)을 읽을 수 없습니다: base64url이 아닙니다',

  pageTitle: 'leaselab — 임대와 token, 한 단계씩',
  pageDescription: '가상 시계 위에서 선점, 만료, 재선점, 늦은 완료를 실제 엔진과 실제 메모리 SQLite로 재생합니다.',
  tagline: '임대와 token, 한 단계씩',
  skip: '재생 화면으로 건너뛰기',
  shareButton: '공유 / 삽입',
  keysButton: '단축키',
  editorTitle: '타임라인',
  story: '이야기',
  engine: '엔진',
  engineMore: '엔진과 고장 난 엔진',
  language: '언어',
  correctEngineOption: '올바른 엔진',
  mutantOption: (name) => `변형: ${name}`,
  ownTimeline: '직접 고친 타임라인',
  mutantNote: (rule) => `이 엔진은 일부러 고장 냈습니다: “${rule}” 규칙을 어깁니다. 기대와 불변식을 지켜보세요.`,
  editorText: '타임라인 텍스트',
  editorFolded: (n) => `이 타임라인은 ${n}줄입니다. 페이지가 빠르게 움직이도록 텍스트를 접어 두었습니다.`,
  showText: '텍스트 보기',
  editorHint: '텍스트를 고치면 브라우저의 실제 엔진에서 바로 다시 실행됩니다. {code}는 기대하는 결과입니다.',
  aheadOfTime: '같은 엔진으로 미리 계산함',
  inBrowser: '브라우저에서 실행함',
  inBrowserMutant: (name) => `브라우저에서 “${name}” 변형으로 실행함`,
  footer:
    '엔진을 불러오는 동안 미리 계산한 추적을 그립니다. 고친 내용은 모두 메모리 SQLite 위의 엔진(Go, WebAssembly)에서 실행됩니다.',
  engineLoading: '엔진을 불러오는 중…',
  engineLoadingEdit: '엔진을 불러오는 중… (준비되면 고친 내용을 실행합니다)',
  engineRunning: '실행 중…',
  engineReady: '엔진 준비됨',
  engineLoaded: (seconds) => `엔진 준비됨 (${seconds}초 만에 불러옴)`,
  engineRan: (took, same) => `엔진 준비됨 · ${took} ms 만에 실행${same ? ' · 미리 계산한 것과 같은 바이트' : ''}`,
  engineUnavailable: (msg) => `엔진을 쓸 수 없음: ${msg}`,
  tracesMissing: 'traces/index.json이 없습니다: make wasm으로 페이지를 빌드하세요',
  shareTitle: '이 타임라인 공유하기, 삽입하기',
  shareHint: '지금의 타임라인, 엔진, 언어, 단계를 그대로 담습니다.',
  shareLink: '이 단계로 오는 링크',
  shareElement: '스크립트를 허용하는 페이지용: {code} 요소',
  shareFrame: '스크립트를 지우는 호스트용: 프레임 (스크립트 줄은 선택 사항으로, 프레임이 제 높이를 정하게 합니다)',
  copy: '복사',
  copyElement: '요소 복사',
  copyFrame: '프레임 복사',
  close: '닫기',
  copied: (what) => `복사했습니다: ${what}.`,
  copyByHand: '텍스트를 선택해 복사하세요 (Ctrl+C).',
  frameComment: '선택 사항: 프레임이 제 높이를 정하게 합니다',
  keysTitle: '단축키',
  keyPlay: '재생 또는 멈춤',
  keyStep: '한 단계 앞으로 또는 뒤로',
  keyJump: '첫 단계 또는 마지막 단계',
  keyHelp: '이 목록 보이기 또는 숨기기',
  keyEscape: '편집기에서 나가기, 이 목록 닫기',
  keysHint: '단축키는 편집기 밖 어디서나 동작합니다.',

  exploreButton: '탐색',
  exploreTitle: '탐색: 엔진이 타임라인을 찾게 하기',
  exploreHint:
    '아래 범위가 허락하는 모든 호출 순서(어느 작업자가 무엇을 언제 부르는지)를 짧은 것부터, 규칙을 본뜬 작은 모델에서 시험해, 고장 난 엔진을 가려내거나 고른 규칙을 깨는 타임라인을 찾습니다. 찾으면 그 타임라인을 실제 엔진에서 다시 돌려 확인합니다. 페이지와 따로 돌아가므로 페이지는 그대로 쓸 수 있습니다.',
  exploreGoal: '찾을 것',
  exploreTellApart: '이 엔진을 올바른 엔진과 가려내는 타임라인',
  exploreBreak: '이 불변식을 깨는 타임라인',
  exploreAnyInvariant: '아무 불변식',
  exploreOn: '대상 엔진',
  exploreScope: '범위',
  exploreWorkers: '작업자 수',
  exploreSteps: '최대 단계 수',
  exploreTTL: '임대 (ms)',
  exploreMaxAttempts: '일 a: max_attempts',
  exploreDeadline: '일 a: 마감 (ms)',
  exploreSearch: '찾기',
  exploreCancel: '취소',
  exploreLoad: '편집기로 가져오기',
  exploreResult: '찾은 타임라인',
  exploreLoading: '탐색기를 시작하는 중…',
  exploreProgress: (states, depth, rate) =>
    `상태 ${states.toLocaleString('ko')}개 · 깊이 ${depth} · 초당 ${Math.round(rate).toLocaleString('ko')}개`,
  exploreFound: (steps, states, ms) =>
    `${steps}단계 타임라인을 상태 ${states.toLocaleString('ko')}개를 본 뒤(${Math.round(ms)} ms) 찾았고, 실제 엔진에서 확인했습니다.`,
  exploreNothing: (depth, states, bounded) =>
    `찾지 못했습니다: ${bounded ? '상태 수 한도에서 멈췄습니다' : `${depth}단계까지의 모든 타임라인을 살폈습니다`} (상태 ${states.toLocaleString('ko')}개).`,
  exploreCancelled: '취소했습니다.',
  exploreFailed: (msg) => `탐색기가 찾지 못했습니다: ${msg}`,
  exploreNoMutants: '이 엔진에는 가려낼 변형이 없습니다.',

  // ---- course sites (the author's guide) ----
  guideLink: '강의 작성자 안내서',
  introTitle: '처음인가요? 1분 만에 보는 임대와 token',
  introLease:
    '임대는 정해진 시간 동안 작업을 맡는 권리입니다. 작업자 A가 작업 하나를 1000 ms까지 맡습니다. A가 멈추면(긴 멈춤, 느린 네트워크) 임대가 끝나고 다른 작업자가 그 작업을 맡을 수 있습니다.',
  introToken:
    '선점할 때마다 token을 받습니다. token은 커지기만 하는 번호이고, 작업마다 따로 셉니다(두 작업은 저마다 1부터 시작합니다). A는 token 1(A#1로 표시)을, A의 임대가 끝난 뒤 선점한 B는 token 2(B#2)를 가집니다.',
  introRefused:
    'A가 늦게 돌아와 token 1로 작업을 끝내려 하면 엔진은 superseded(더 새 token이 있음)로 거절합니다. 더 새 token이 작업을 쥐고 있으니, A의 낡은 작업이 B의 작업을 되돌릴 수 없습니다.',
  introTutorial: '한 번에 한 가지씩 배우기: 각 단계를 보기 전에 예측해 보는 짧은 화면 일곱 개의 튜토리얼',
  introGlossary: '레인과 표에 나오는 모든 낱말의 풀이: 용어집',
  introStart: '여기서 시작하세요',
  introHide: '소개 숨기기',
  introShow: '소개 보기',
  // ---- the coding exercise (lease-exercise.js) ----
  labCode: '내 코드 (JavaScript): 펜싱 실습의 함수들',
  labCodePython: (/** @type {string} */ lab) =>
    `내 코드 (Python): ${lab === 'courier' ? '쿠리어' : '펜싱'} 실습의 함수들`,
  labLoadingPython: '이 페이지에 Python을 불러온 뒤(Pyodide, 한 번만) 코드를 단계별로 검사하는 중…',
  labCheck: '검사',
  labUnreadable: (why) => `이 연습 문제의 펜스를 읽을 수 없습니다: ${why}`,
  labReset: '처음부터',
  labKeys: 'Ctrl+Enter로 검사',
  labChecking: '코드를 단계별로 계약과 나란히 검사하는 중…',
  labTimeout: (s) => `코드가 ${s}초 안에 끝나지 않아(끝나지 않는 반복?) 멈췄습니다.`,
  labStuck: (test) => `${test}의 이 호출에서 돌아오지 않았습니다:`,
  labHung: '호출이 돌아오지 않아 시간 제한에서 멈췄습니다',
  labFailed: (msg) => `채점기를 실행할 수 없습니다: ${msg}`,
  labCannotRun: '코드를 실행할 수 없습니다:',
  labCSP:
    "이 사이트의 정책이 코드 실행을 막습니다: 사이트가 grader-worker.js 하나에만 script-src에 'unsafe-eval'을 더해 보내야 합니다.",
  labSummary: (p, f, s) => `통과 ${p}, 실패 ${f}, 건너뜀 ${s}.`,
  labStart: (call) =>
    `여기서 시작하세요: ${call}의 답을 계약과 같게 하세요(아래의 첫 차이). 뒤의 테스트가 모두 이것에 기댑니다.`,
  labVerdicts: { pass: '통과', fail: '실패', skip: '건너뜀' },
  labSteps: '실습 단계',
  labOthers: (n) => `다른 테스트: 이야기, 변형, 경쟁, 탐색 (${n})`,
  labMissing: (names) => `코드에 정의되지 않은 함수: ${names}`,
  labText: 'leaselab grade가 출력하는 보고서',
  labFirst: (test, where) => `첫 번째 차이: ${test} (${where})`,
  labCall: '호출',
  labContract: '계약',
  labYours: '제출',
  labBroken: '코드가 중단되었습니다:',
  labCalls: '이 테스트의 호출: 각 호출의 SQL과 호출 뒤의 두 테이블',
  labSQL: (n) => `코드가 실행한 문장 ${n}개:`,
  labStepDetails: 'SQL과 테이블',
  labTimeline: '엔진에서 이 차이를 재현하는 타임라인',
  labOpenDifference: '시뮬레이터에서 이 차이를 열기: 내 실행과 엔진의 실행을 나란히 ↗',
  labNoRows: '(행 없음)',
  labContractTable: '호출 뒤 계약의 테이블',
  labYourTable: '호출 뒤 내 테이블',

  // ---- a grading report's link: the student's run beside the engine's ----
  yourCode: '내 코드',
  studentDiffers: (step) => `${step}단계에서 내 코드가 계약과 갈라집니다.`,
  studentHere: '여기서 내 코드가 계약과 갈라집니다.',
  studentAfter: '내 코드의 실행은 계약과 갈라진 단계에서 멈춥니다.',
  studentStart: '첫 단계 전: init_db와 타임라인이 선언한 작업.',
  studentCalls: '호출된 내 함수:',
  studentNoCalls: '이 단계는 내 함수를 호출하지 않았습니다.',
  studentTable: '이 단계 뒤 내 테이블',
  implTooLarge: (n) =>
    `링크에 담긴 내 코드의 실행(impl=)이 ${n}바이트(grade_link_run_bytes)를 넘습니다: 엔진의 실행만 보여 줍니다.`,
  implMalformed: '링크에 담긴 내 코드의 실행(impl=)을 읽을 수 없습니다: 엔진의 실행만 보여 줍니다.',

  // ---- a concurrent history's link (#history=, history-view.js) ----
  hist: {
    title: '계약에 비춰 검사한 동시 실행 기록',
    verdict: {
      linearizable:
        '선형화 가능: 각 호출이 호출 시점과 반환 시점 사이에 하나씩 일어났다고 보면, 그림 옆의 순서로 계약에 맞습니다.',
      'not linearizable':
        '선형화 불가능: 각 호출이 호출 시점과 반환 시점 사이에 일어나는 어떤 순서로도 이 호출들이 받은 답을 모두 낼 수 없습니다.',
      unknown: '판정 못 함: 순서를 찾거나 모든 순서를 배제하기 전에 검사 시간이 다 되었습니다.',
    },
    checking: '엔진에서 기록을 검사하는 중…',
    axis: (span) => `시간 축: 첫 호출 뒤 흐른 밀리초 (0부터 ${span} ms까지). 클라이언트마다 한 줄.`,
    drawingRegion: '한 시간 축에 그린 호출',
    drawingLabel: (calls, lanes) =>
      `호출 ${calls}개를 클라이언트마다 한 줄씩 ${lanes}줄에 그렸습니다. 아래 호출 표가 같은 내용을 담고 있습니다.`,
    callN: (n) => `호출 ${n}`,
    legendStuck: '어떤 순서에도 놓을 수 없는 호출',
    legendOverlaps: '그 호출과 겹치는 호출',
    orderTitle: '모델의 순서, 한 번에 호출 하나',
    rowsAfter: '그 뒤의 행:',
    noRows: '(행 없음)',
    orderNone: '검사가 보여 줄 순서를 찾지 못했습니다.',
    noOrder: (n) =>
      josa(
        `어떤 순서로도 이 호출들 다음에 호출 ${n}(을)를 놓을 수 없습니다: 계약의 모델은 그 호출이 받은 답을 낼 수 없습니다.`,
      ),
    tableCaption: '기록된 순서의 호출 (시간은 첫 호출 뒤의 ms)',
    cols: ['#', '클라이언트', '호출', '답', '호출 시점', '반환 시점', '표시'],
    report: '검사기의 텍스트 보고서',
    tooLarge: (n) => `링크에 담긴 기록(history=)이 ${n}바이트(grade_link_run_bytes)를 넘어 그리지 않습니다.`,
    malformed: '링크에 담긴 기록(history=)을 읽을 수 없습니다: 링크가 잘렸거나 바뀌었습니다.',
    badHistory: (msg) => `링크에 담긴 기록은 검사기가 읽는 형식이 아닙니다: ${msg}`,
    engineFailed: (msg) => `엔진이 링크에 담긴 기록을 검사하지 못했습니다: ${msg}`,
  },

  // ---- <lease-lab> (lease-lab.js) ----
  lab: {
    waiting: '화면에 들어오면 엔진에서 실험을 실행합니다.',
    tableCaption: (title) => `${title}: 점마다 실행의 평균과 95% 구간`,
    point: '점',
    runs: '그 뒤의 실행',
    worst: '가장 나쁜 실행',
    typical: '전형적인 실행',
    pointLabel: (values, worst) =>
      `${values}. Enter를 누르면 ${worst ? '가장 나쁜' : '전형적인'} 실행을 타임라인으로 엽니다.`,
    plotHint: 'Tab으로 그림에 들어가 화살표 키로 점을 옮겨 다니고, Enter로 그 점 뒤의 가장 나쁜 실행을 엽니다.',
    storyTitle: (which, where) => `${where}의 ${which}`,
    noRun: (measure) => `이 점의 어떤 실행에도 ${measure} 측정값이 없습니다.`,
    storyLoading: '엔진에서 실행을 다시 재생하는 중…',
    edit: '실험을 바꿔 다시 실행하기',
    textLabel: '실험 (.lab)',
    run: '실행',
    cancel: '취소',
    progress: (done, total) => `실행 ${total}개 중 ${done}개 완료…`,
    cancelled: '취소했습니다. 그림은 마지막 결과입니다.',
    ranIn: (runs, seconds) => `엔진에서 실행 ${runs}개를 ${seconds}초 만에 마침`,
    prerendered: '미리 네이티브로 계산함 · 엔진이 내는 것과 같은 바이트',
    failed: (msg) => `실험을 실행하지 못했습니다: ${msg}`,
    // a count takes its counter, as the engine's Korean plot writes it (engine/internal/lab unitsKo)
    measure: (label, unit) => `${label} (${KO_UNITS[unit] ?? unit})`,
  },
};

/** Every catalogue, by language tag. */
export const catalogues = { en, ko };

/** The languages the interface speaks, in the order a picker lists them. */
export const LANGS = Object.keys(catalogues);

/**
 * The interface's words in lang; English for a language it does not speak.
 * @param {string} lang
 * @returns {Strings}
 */
export function strings(lang) {
  return catalogues[/** @type {keyof typeof catalogues} */ (lang)] || en;
}

/**
 * What a site's Content-Security-Policy must allow for the engine, when
 * message is the browser's refusal under that policy, in t's language;
 * else "".
 * @param {string} message
 * @param {Strings} [t] the catalogue (default English)
 */
export function cspAdvice(message, t = en) {
  if (!/Content Security Policy|unsafe-eval/i.test(message)) return '';
  if (/WebAssembly|unsafe-eval/i.test(message)) return t.csp.wasm;
  if (/Worker/i.test(message)) return t.csp.worker;
  return t.csp.other;
}

/**
 * The interface language for a lang tag: "ko" for any Korean tag ("ko",
 * "ko-KR"), else "en".
 * @param {string | null | undefined} tag
 */
export function langTag(tag) {
  const t = (tag || 'en').toLowerCase();
  return t === 'ko' || t.startsWith('ko-') ? 'ko' : 'en';
}

/**
 * The language the simulator page opens in: the one its link asks for
 * (lang=), else the reader's own earlier choice (stored), else the first
 * of the browser's preferred languages (navigator.languages, a region or
 * script ignored) that the interface speaks, else English. A language the
 * interface does not speak counts as not asked.
 * @param {string | null | undefined} asked
 * @param {string | null | undefined} stored
 * @param {readonly string[]} preferred
 */
export function pickLang(asked, stored, preferred) {
  for (const tag of [asked, stored]) if (tag && LANGS.includes(tag)) return tag;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/**
 * The interface language of an element: its own lang attribute, or its
 * nearest ancestor's, or the document's.
 * @param {Element} el
 */
export function langOf(el) {
  return langTag(el.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang);
}

/**
 * A catalogue string with its {code} placeholder filled by a <code>
 * element (or another node): the nodes to put in an element, in order.
 * @param {string} text
 * @param {Node} code
 * @returns {(string | Node)[]}
 */
export function parts(text, code) {
  const [before, after = ''] = text.split('{code}');
  return text.includes('{code}') ? [before, code, after] : [text];
}

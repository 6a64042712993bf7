// @ts-check
// fences.js turns the Markdown fences of a course site into players: every
// code block a site generator made of a ```lease-timeline fence becomes a
// <lease-timeline> element (lease-timeline.js), with the options the fence
// gives; a ```lease-lab fence a <lease-lab>, a ```lease-exercise fence a
// <lease-exercise> (KINDS). leaselab.js, the one script a course site
// includes, loads it.
//
// A fence is a timeline when the generator marked it so — the forms the
// generators emit, in FENCE_SELECTOR:
//   <pre><code class="language-lease-timeline">   MkDocs, Hugo, Jekyll, mdBook, markdown-it
//   <pre class="lease-timeline"><code>            pymdownx.superfences' custom fence (Material for MkDocs)
//   <pre class="language-lease-timeline"><code>   Docusaurus (Prism)
//   <div class="language-lease-timeline …"><pre><code>  VitePress, Jekyll (Rouge)
//   <code data-lang="lease-timeline">             Hugo
//   <div class="highlight-lease-timeline …"><div class="highlight"><pre>  Sphinx (Pygments: no code)
//   <div class="expressive-code"><figure class="frame"><pre data-language="lease-timeline"><code>
//                                                  Astro Starlight (Expressive Code: a div per line;
//                                                  dataLanguageKind)
// — or, whatever the generator kept, when its first line is the directive
// with the marker: `#! lease-timeline …` (a highlighter that drops the
// fence's language, as Material's default does, keeps the text), in a
// pre's code or in a pre without one (Pygments under Sphinx) — or when
// the first line of a pre's code without a language class is the fence's
// language alone: nbconvert (mistune) writes an unknown fence's language
// so, `<pre><code>lease-timeline⏎…`; that line is not the fence's text
// (languageLineKind).
//
// The directive: a first line that starts with #! gives the options, as
// key=value pairs (a value with spaces in "double" or 'single' quotes; a
// bare key is true), e.g.
//   #! lease-timeline step=3 show="lanes table" mutant=claim-boundary
// It is not part of the timeline's text (to the engine it would be a
// comment anyway). Options may also come as attributes where the generator
// keeps an info string's attribute list (MkDocs' attr_list, a Hugo render
// hook): KEY or data-KEY on the code, the pre or the highlighter's wrapper.
// The directive wins over an attribute. Keys: OPTION_KEYS.
//
// An exercise's fence holds no timeline: its text after the directive is
// the starting code (blank: the language's own), and its options take
// only the values EXERCISE_VALUES lists (exerciseFence).
//
// Without JavaScript the fence is what the generator made: readable text.
// With it, the block is hidden (hidden, data-leaselab-fence) and the
// element is put before it; a fence added later (a single-page site's
// navigation) is converted too.
//
// Prerendering: `leaselab prerender SITE` finds the same fences and
// elements (engine/internal/coursesite, which mirrors this file) and writes each
// run's trace under traceKey's hash; the player draws it without the
// engine (prerendered.js).

/** The options a fence may give: the element's attributes of the same names. */
export const OPTION_KEYS = ['step', 'show', 'mutant', 'lang', 'name', 'height', 'theme', 'autoplay', 'predict', 'id'];

/** The options a ```lease-lab fence may give (<lease-lab>'s attributes). */
export const LAB_OPTION_KEYS = ['lang', 'name', 'id'];

/** The options a ```lease-exercise fence may give (<lease-exercise>'s attributes). */
export const EXERCISE_OPTION_KEYS = ['language', 'lab', 'lang', 'id'];

/** The values an exercise's option takes, where it takes only some; lab=courier is Python's only. */
export const EXERCISE_VALUES = { language: ['javascript', 'python'], lab: ['fencing', 'courier'] };

/** The marker word of a directive that marks a code block as a timeline. */
export const MARKER = 'lease-timeline';

/**
 * The code blocks a generator marks as fences of the language word, in
 * the forms listed above: a pre's code, or, where the generator writes
 * none (Sphinx), the pre.
 * @param {string} word
 */
const fenceSelector = (word) =>
  [
    `pre > code.language-${word}`,
    `pre.${word} > code`,
    `pre.language-${word} > code`,
    `.language-${word} pre > code`,
    `pre > code[data-lang="${word}"]`,
    `.highlight-${word} pre`,
  ].join(', ');

/** The code blocks a generator marks as lease-timeline fences. */
export const FENCE_SELECTOR = fenceSelector('lease-timeline');

/**
 * A kind of fence: the element it becomes (its tag, also the fence's
 * language and the directive's marker word) and the options it takes.
 * A lease-lab fence becomes a <lease-lab> element (lease-lab.js) the same
 * way timelines become players; a lease-exercise fence a <lease-exercise>
 * (lease-exercise.js) whose starting code is a text/plain script child.
 *
 * @typedef {object} FenceKind
 * @property {string} tag
 * @property {string[]} keys
 * @property {string} selector
 */

/** @type {FenceKind} */
export const TIMELINE = { tag: MARKER, keys: OPTION_KEYS, selector: FENCE_SELECTOR };
/** @type {FenceKind} */
export const LAB = { tag: 'lease-lab', keys: LAB_OPTION_KEYS, selector: fenceSelector('lease-lab') };
/** @type {FenceKind} */
export const EXERCISE = {
  tag: 'lease-exercise',
  keys: EXERCISE_OPTION_KEYS,
  selector: fenceSelector('lease-exercise'),
};
const KINDS = [TIMELINE, LAB, EXERCISE];
/** The elements fences become: a code block inside one is no fence. */
const ELEMENT_TAGS = KINDS.map((k) => k.tag).join(', ');

/**
 * @typedef {object} Fence a fence's text read
 * @property {Record<string, string>} options the directive's options (a bare key: "")
 * @property {boolean} marked the directive starts with the marker word
 * @property {boolean} directive the text had a directive line
 * @property {string[]} unknown keys the directive gave that are not options
 * @property {string} text the timeline: the text without the directive, dedented
 */

/**
 * Reads a fence's text: its directive (the first non-blank line, when it
 * starts with #!) and the timeline (or lab) after it.
 * @param {string} raw
 * @param {FenceKind} [kind]
 * @returns {Fence}
 */
export function parseFence(raw, kind = TIMELINE) {
  const lines = raw.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const head = first >= 0 ? lines[first].trim() : '';
  if (!head.startsWith('#!')) return { options: {}, marked: false, directive: false, unknown: [], text: dedent(raw) };
  const tokens = directiveTokens(head.slice(2));
  const marked = tokens.length > 0 && tokens[0][0] === kind.tag && tokens[0][1] === null;
  /** @type {Record<string, string>} */
  const options = {};
  /** @type {string[]} */
  const unknown = [];
  for (const [k, v] of marked ? tokens.slice(1) : tokens) {
    if (kind.keys.includes(k)) options[k] = v ?? '';
    else unknown.push(k);
  }
  return { options, marked, directive: true, unknown, text: dedent(lines.slice(first + 1).join('\n')) };
}

/**
 * Splits a directive's text into [key, value] pairs; value is null for a
 * bare key. A quoted value runs to its closing quote (or the line's end).
 * @param {string} s
 * @returns {[string, string | null][]}
 */
export function directiveTokens(s) {
  /** @type {[string, string | null][]} */
  const out = [];
  const re = /\s*([^\s=]+)(?:=(?:"([^"]*)"?|'([^']*)'?|(\S*)))?/gy;
  for (let m = re.exec(s); m && m[0] !== ''; m = re.exec(s)) {
    const quoted = m[2] ?? m[3] ?? m[4];
    out.push([m[1], m[0].includes('=') ? (quoted ?? '') : null]);
  }
  return out;
}

/**
 * The timeline text of an element's content or a fence: common
 * indentation and blank edges removed, one newline at the end.
 * @param {string} text
 */
export function dedent(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indents = lines.filter((l) => l.trim()).map((l) => (l.match(/^[ \t]*/) || [''])[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return `${lines.map((l) => l.slice(cut)).join('\n')}\n`;
}

/**
 * @typedef {object} TraceRequest what a prerendered trace is addressed by
 * @property {string} text the timeline, as the player runs it
 * @property {string} name its name in messages and exports
 * @property {string} lang the language of its explanations (en, ko)
 * @property {string} mutant a worksheet's mutant, or ""
 * @property {string} [kind] what the answer is: "" or absent for a trace or
 * a worksheet; "lab" for a lab's result (lang ""), "lab-svg" for its plot in lang
 */

/** The first field of the canonical form: its version. */
export const KEY_TAG = 'leaselab-prerender-1';

/**
 * The canonical form a trace's key hashes: the fields KEY_TAG, name, lang,
 * mutant and text, and kind when it is not "", each as its length in
 * UTF-8 bytes, a colon, its bytes and a newline. engine/internal/coursesite
 * writes the same bytes.
 * @param {TraceRequest} req
 */
export function canonicalForm({ text, name, lang, mutant, kind = '' }) {
  const enc = new TextEncoder();
  const fields = [KEY_TAG, name, lang, mutant, text, ...(kind ? [kind] : [])];
  return fields.map((f) => `${enc.encode(f).length}:${f}\n`).join('');
}

/**
 * The key of a run's prerendered trace: the SHA-256 of its canonical
 * form, in lower-case hex. Null where SubtleCrypto is missing (a page not
 * served over HTTPS nor from localhost): the player then runs the engine.
 * @param {TraceRequest} req
 * @returns {Promise<string | null>}
 */
export async function traceKey(req) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const sum = await subtle.digest('SHA-256', new TextEncoder().encode(canonicalForm(req)));
  return [...new Uint8Array(sum)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The format of the data a build-time plugin embeds in an element. */
export const EMBED_FORMAT = 1;

/**
 * @typedef {object} Embedded what the npm package's build-time plugins
 * embed in the element a fence becomes (its data-prerendered attribute:
 * this as JSON, gzipped, in base64)
 * @property {number} format EMBED_FORMAT
 * @property {Record<string, string>} traces the engine's answer for each run, by its traceKey
 * @property {Record<string, {name: string, breaks: string}[]>} mutants a worksheet's: each language's mutants
 */

/**
 * The data a data-prerendered attribute holds, or null when it holds none
 * this player reads (or the browser has no DecompressionStream).
 * @param {string | null | undefined} value
 * @returns {Promise<Embedded | null>}
 */
export async function decodeEmbedded(value) {
  if (!value || typeof DecompressionStream === 'undefined') return null;
  try {
    const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
    const v = JSON.parse(text);
    return v && v.format === EMBED_FORMAT && v.traces && typeof v.traces === 'object' ? v : null;
  } catch {
    return null;
  }
}

// ---- the page: fences into elements ----

/** A highlighter's wrapper around a fence's pre (its class). */
const WRAPPER = /(^|\s)(highlight|highlight-\S+|codehilite|highlighter-rouge|language-\S+|expressive-code)(\s|$)/;

/**
 * Whether el wraps a fence's pre for its highlighter: a div with a
 * highlighter's class (WRAPPER), or the figure Expressive Code puts the
 * pre in (with its copy button) inside its div.expressive-code.
 * @param {Element | null} el
 * @returns {el is Element}
 */
function isWrapper(el) {
  if (el?.tagName === 'FIGURE') return el.parentElement?.classList.contains('expressive-code') === true;
  return el?.tagName === 'DIV' && WRAPPER.test(el.getAttribute('class') || '');
}

/**
 * The block a fence's pre stands for: the pre, or the highlighter's
 * wrappers around it (at most two — divs with a highlighter's class, or
 * Expressive Code's figure — that hold no other pre).
 * @param {Element} pre
 */
export function fenceBlock(pre) {
  let block = pre;
  for (let i = 0; i < 2; i++) {
    const p = block.parentElement;
    if (!isWrapper(p) || p.querySelectorAll('pre').length !== 1) break;
    block = p;
  }
  return block;
}

/** The ids a theme's script gives code blocks (Material's __code_N): no author's option. */
const GENERATED_ID = /^__code_\d+$/;

/**
 * The options the fence's elements carry as attributes (an info string's
 * attribute list): KEY or data-KEY on the code, then the pre, then the
 * wrappers; the nearest wins. data-lang and data-language are no option
 * (Hugo and Starlight's Expressive Code write the fence's language there),
 * nor is an id a theme's script gave (GENERATED_ID).
 * @param {Element[]} els the code, the pre and the wrappers, nearest first
 * @param {string[]} [keys] the options of the fence's kind
 */
export function attributeOptions(els, keys = OPTION_KEYS) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const k of keys) {
    for (const el of els) {
      const v = el.getAttribute(k) ?? (k === 'lang' || k === 'language' ? null : el.getAttribute(`data-${k}`));
      if (v !== null && !(k === 'id' && GENERATED_ID.test(v))) {
        out[k] = v;
        break;
      }
    }
  }
  return out;
}

/**
 * A code block's text, line by line, whatever markup the highlighter made
 * of its lines: the text of its text nodes, a newline for each <br>, and a
 * newline after a line's element (a div, or Prism's .token-line as
 * Docusaurus writes it: `<span class="token-line">…<br></span>`, no newline
 * character) that does not end in one. textContent alone would join such
 * lines into one.
 * @param {Node} code
 */
export function fenceText(code) {
  let out = '';
  /** @param {Node} n */
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === Node.TEXT_NODE || c.nodeType === Node.CDATA_SECTION_NODE) out += c.nodeValue || '';
      else if (c.nodeType === Node.ELEMENT_NODE) {
        const el = /** @type {Element} */ (c);
        if (el.tagName === 'BR') {
          out += '\n';
          continue;
        }
        walk(el);
        if ((el.tagName === 'DIV' || el.classList.contains('token-line')) && out !== '' && !out.endsWith('\n'))
          out += '\n';
      }
    }
  };
  walk(code);
  return out;
}

/**
 * Why a fence's text cannot be read as a timeline, or "" when it can: its
 * directive has keys that are no option, or it holds no line that is not
 * blank or a comment (a text read as one line, a directive that swallowed
 * the timeline). prerender refuses the same fences (engine/internal/coursesite).
 * @param {Fence} fence
 * @param {string[]} [keys] the options of the fence's kind
 */
export function unreadable(fence, keys = OPTION_KEYS) {
  if (fence.unknown.length) return `the directive's keys ${fence.unknown.join(', ')} are no option (${keys.join(' ')})`;
  if (!fence.text.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) {
    return 'the fence holds no step: its text has no line but blanks and comments';
  }
  return '';
}

/**
 * Why an exercise's options cannot be read, or "" when they can: keys that
 * are no option, a value EXERCISE_VALUES does not list, or lab=courier
 * without language=python.
 * @param {string[]} unknown the directive's keys that are no option
 * @param {Record<string, string>} options the options given (a bare key: "")
 */
function unreadableExercise(unknown, options) {
  if (unknown.length) {
    return `the directive's keys ${unknown.join(', ')} are no option (${EXERCISE_OPTION_KEYS.join(' ')})`;
  }
  for (const [k, values] of Object.entries(EXERCISE_VALUES)) {
    const v = options[k];
    if (v !== undefined && !values.includes(v)) return `${k}=${v} is none of ${k}'s values (${values.join(' ')})`;
  }
  if (options.lab === 'courier' && options.language !== 'python') {
    return 'lab=courier is a lab in Python only: give language=python too';
  }
  return '';
}

/**
 * A lease-exercise fence read: the element's attributes (the directive's
 * options), its starting code (the text after the directive, dedented; ""
 * when blank, for the language's own) and why it cannot be read ("" when
 * it can).
 * @param {string} raw the fence's text
 * @param {Record<string, string>} [attributes] options the fence's markup carries, which the directive's override
 */
export function exerciseFence(raw, attributes = {}) {
  const fence = parseFence(raw, EXERCISE);
  const options = { ...attributes, ...fence.options };
  const code = fence.text.trim() ? fence.text : '';
  return { attributes: options, code, why: unreadableExercise(fence.unknown, options) };
}

/** `<`, any backslashes, then `script` or `/script`, in any case: what escapeScriptText escapes. */
const SCRIPT_TAG = /<(\\*)(\/?script)/gi;
/** The same with a backslash more after the `<`: SCRIPT_TAG escaped. */
const ESCAPED_SCRIPT_TAG = /<\\(\\*)(\/?script)/gi;

/**
 * Code as the text of a <script type="text/plain">, which HTML ends at
 * the first `</script` (and, after a `<!--` and a `<script`, at the
 * second): a backslash is put after the `<` of every `<script` and
 * `</script` (any case), and of every such `<` already followed by
 * backslashes, so that the text holds neither and unescapeScriptText
 * gives the code back exactly.
 * @param {string} code
 */
export function escapeScriptText(code) {
  return code.replace(SCRIPT_TAG, '<\\$1$2');
}

/**
 * The code a <script type="text/plain">'s text stands for: one backslash
 * less after the `<` of every `<\script` and `<\/script` (any case, any
 * number of backslashes). The inverse of escapeScriptText.
 * @param {string} text
 */
export function unescapeScriptText(text) {
  return text.replace(ESCAPED_SCRIPT_TAG, '<$1$2');
}

/**
 * The pre a code block's text is in: its parent pre, or the block itself
 * when it is a pre (Pygments under Sphinx writes no code); null for neither.
 * @param {Element} code
 */
function preOf(code) {
  if (code.tagName === 'PRE') return code;
  const p = code.parentElement;
  return p?.tagName === 'PRE' ? p : null;
}

/** A first line that is one word alone: nbconvert's language line. */
const LANGUAGE_LINE = /^(\S+)[ \t]*(?:\n|$)/;

/** A class that names a code block's language. */
const LANGUAGE_CLASS = /(^|\s)language-/;

/**
 * The kind whose language is a code block's first line alone, where the
 * block is a pre's code with no language class (nbconvert writes an
 * unknown fence's language so), or null.
 * @param {Element} code
 * @returns {FenceKind | null}
 */
export function languageLineKind(code) {
  if (code.tagName !== 'CODE' || code.parentElement?.tagName !== 'PRE') return null;
  if (LANGUAGE_CLASS.test(code.getAttribute('class') || '')) return null;
  const m = fenceText(code).match(LANGUAGE_LINE);
  return (m && KINDS.find((k) => k.tag === m[1])) || null;
}

/**
 * A fence's text as its author wrote it: the code block's text
 * (fenceText), without the language line nbconvert put first when the
 * block is of kind by that line (languageLineKind). Every other line is
 * kept.
 * @param {Element} code
 * @param {FenceKind} kind
 */
export function fenceSource(code, kind) {
  const text = fenceText(code);
  return languageLineKind(code) === kind ? text.replace(LANGUAGE_LINE, '') : text;
}

/**
 * The kind a pre's data-language names, for the pre's code, or null:
 * Expressive Code (Astro Starlight) writes a fence so, its language in
 * data-language and each line a div (fenceText reads them). Another
 * language, or a pre without a code, is no fence by it.
 * @param {Element} code
 * @returns {FenceKind | null}
 */
export function dataLanguageKind(code) {
  const pre = code.parentElement;
  if (code.tagName !== 'CODE' || pre?.tagName !== 'PRE') return null;
  const lang = pre.getAttribute('data-language');
  return KINDS.find((k) => k.tag === lang) || null;
}

/**
 * The kind whose marked directive is a code block's first line, or null.
 * @param {Element} code
 * @returns {FenceKind | null}
 */
export function markedKind(code) {
  const text = fenceText(code);
  const start = text.search(/\S/);
  if (start < 0 || !text.startsWith('#!', start)) return null;
  return KINDS.find((k) => parseFence(text, k).marked) || null;
}

/**
 * Whether a code block's first line is the directive with the marker.
 * @param {Element} code
 */
export function isMarked(code) {
  return markedKind(code) === TIMELINE;
}

/**
 * The element a fence's text becomes (not yet in the page), and why the
 * text cannot be read ("" when it can): a timeline's or a lab's text is
 * the element's text, an exercise's starting code its text/plain script
 * child's (escapeScriptText).
 * @param {string} raw the fence's text
 * @param {FenceKind} kind
 * @param {Record<string, string>} attributes options the fence's markup carries
 */
function fenceElement(raw, kind, attributes) {
  const el = document.createElement(kind.tag);
  if (kind === EXERCISE) {
    const ex = exerciseFence(raw, attributes);
    for (const [k, v] of Object.entries(ex.attributes)) el.setAttribute(k, v);
    if (ex.code) {
      const script = document.createElement('script');
      script.setAttribute('type', 'text/plain');
      script.textContent = escapeScriptText(ex.code);
      el.append(script);
    }
    return { el, why: ex.why };
  }
  const fence = parseFence(raw, kind);
  for (const [k, v] of Object.entries({ ...attributes, ...fence.options })) el.setAttribute(k, v);
  el.textContent = fence.text;
  return { el, why: unreadable(fence, kind.keys) };
}

/**
 * Puts a <lease-timeline> (or, for a lab's fence, a <lease-lab>; for an
 * exercise's, a <lease-exercise>) before the fence of code and hides the
 * fence; returns the element, or null when code is no fence's or was
 * converted.
 * @param {Element} code a pre's code, or a pre that holds the text itself
 * @param {FenceKind} [kind]
 */
export function convert(code, kind = TIMELINE) {
  const pre = preOf(code);
  if (!pre || code.closest(ELEMENT_TAGS)) return null;
  const block = fenceBlock(pre);
  if (block.hasAttribute('data-leaselab-fence')) return null;
  const els = code === pre ? [] : [code];
  for (let e = /** @type {Element | null} */ (pre); e && e !== block.parentElement; e = e.parentElement) els.push(e);
  const { el, why } = fenceElement(fenceSource(code, kind), kind, attributeOptions(els, kind.keys));
  const load = ELEMENT_MODULES[kind.tag];
  if (load && !customElements.get(kind.tag))
    load().catch((err) => console.error(`${kind.tag}: the element was not defined:`, err));
  const id = el.getAttribute('id');
  for (const e of els) if (id && e.id === id) e.removeAttribute('id');
  el.dataset.fence = '';
  block.before(el);
  block.setAttribute('hidden', '');
  block.setAttribute('data-leaselab-fence', '');
  if (why) {
    el.dataset.fenceError = why;
    console.error(`${kind.tag}: ${location.pathname}: code block ${codeBlockNumber(block)}: ${why}`);
  }
  return el;
}

/**
 * Converts every fence under root (fenceSelector's, Expressive Code's
 * (dataLanguageKind), the marked code blocks — a pre's code, or a pre
 * without one — and nbconvert's language lines), in the page's order,
 * whose block ready accepts; returns the
 * elements made and how many fences ready refused.
 * @param {ParentNode} root
 * @param {(block: Element) => boolean} [ready]
 */
export function convertReady(root, ready = () => true) {
  /** @type {Map<Element, FenceKind>} */
  const codes = new Map();
  for (const kind of KINDS)
    for (const c of root.querySelectorAll(kind.selector))
      codes.set((c.tagName === 'PRE' && c.querySelector('code')) || c, kind);
  for (const c of root.querySelectorAll('pre > code, pre')) {
    if (codes.has(c) || (c.tagName === 'PRE' && c.querySelector('code'))) continue;
    const kind = dataLanguageKind(c) || markedKind(c) || languageLineKind(c);
    if (kind) codes.set(c, kind);
  }
  let waiting = 0;
  const made = [];
  const inOrder = [...codes].sort(([a], [b]) =>
    a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
  );
  for (const [c, kind] of inOrder) {
    const pre = preOf(c);
    if (pre && !ready(fenceBlock(pre))) {
      if (!fenceBlock(pre).hasAttribute('data-leaselab-fence')) waiting++;
      continue;
    }
    const el = convert(c, kind);
    if (el) made.push(el);
  }
  return { made, waiting };
}

/**
 * Converts every fence under root (fenceSelector's and the marked code
 * blocks), in the page's order; returns the elements made.
 * @param {ParentNode} root
 */
export function convertAll(root) {
  return convertReady(root).made;
}

/**
 * Whether a framework renders the page on the server and hydrates it in
 * the browser — React (Docusaurus, Next, Gatsby) or Vue (VitePress, Nuxt)
 * — so that a fence is converted only once the framework has taken its
 * block over: a page changed before then is a hydration mismatch (React
 * throws the page away and renders it again; Vue warns).
 * @param {Document} doc
 */
export function hydrates(doc) {
  if (doc.querySelector('#__docusaurus, #__next, #___gatsby, #__nuxt')) return true;
  const gen = doc.querySelector('meta[name="generator"]')?.getAttribute('content') || '';
  return /^VitePress\b/.test(gen) && doc.getElementById('app') !== null;
}

/**
 * Whether the page's framework has hydrated block: React has a fiber for
 * it, or the Vue app is mounted (Vue hydrates the whole page at once).
 * @param {Element} block
 */
function hydrated(block) {
  if (Object.keys(block).some((k) => k.startsWith('__reactFiber$'))) return true;
  const app = block.ownerDocument.querySelector('#app, #__nuxt');
  return app !== null && '__vue_app__' in app;
}

/** How long a page waits for its framework to hydrate a fence before converting it all the same (ms). */
const HYDRATION_WAIT_MS = 20000;

/** Runs f when the page's main thread is idle (React hydrates in slices). @param {() => void} f */
const whenIdle = (f) =>
  'requestIdleCallback' in globalThis ? requestIdleCallback(f, { timeout: 500 }) : setTimeout(f, 50);

/**
 * Calls build once the page's framework has hydrated el (at once on a page
 * no framework hydrates, and after HYDRATION_WAIT_MS all the same): an
 * element that writes its own contents into the page waits for it, so the
 * page is never changed under the framework. Returns the wait's cancel.
 * @param {Element} el
 * @param {() => void} build
 * @returns {() => void}
 */
export function afterHydration(el, build) {
  let waiting = true;
  const until = performance.now() + HYDRATION_WAIT_MS;
  const pass = () => {
    if (!waiting) return;
    if (!hydrates(el.ownerDocument) || hydrated(el) || performance.now() >= until) {
      waiting = false;
      build();
    } else whenIdle(pass);
  };
  pass();
  return () => {
    waiting = false;
  };
}

/**
 * The fence's number among the page's code blocks (1-based), to name it in
 * a message: the page's HTML lines are gone once it is parsed.
 * @param {Element} block
 */
function codeBlockNumber(block) {
  return (
    [...document.querySelectorAll('pre')].indexOf(/** @type {HTMLPreElement} */ (block.querySelector('pre') || block)) +
    1
  );
}

/** @param {Element} n */
const holdsCode = (n) => n.tagName === 'PRE' || n.tagName === 'CODE' || n.querySelector('pre') !== null;

/**
 * The elements that define themselves in a module of their own, loaded when one is on the page.
 * @type {Record<string, () => Promise<unknown>>}
 */
const ELEMENT_MODULES = {
  'lease-lab': () => import('./lease-lab.js'),
  'lease-exercise': () => import('./lease-exercise.js'),
};

/**
 * Loads the module of each element of ELEMENT_MODULES the page holds once
 * it is parsed, or once a single-page site's navigation renders one (an
 * MDX page written with it): each module once; with all loaded, nothing
 * more is watched.
 * @param {Document} doc
 */
export function defineElements(doc) {
  const wanted = new Map(Object.entries(ELEMENT_MODULES));
  const look = () => {
    for (const [tag, load] of wanted) {
      if (!doc.querySelector(tag)) continue;
      wanted.delete(tag);
      load().catch((err) => console.error(`leaselab.js: <${tag}> was not defined:`, err));
    }
    if (wanted.size === 0) watch.disconnect();
  };
  const watch = new MutationObserver(look);
  const now = () => {
    look();
    if (wanted.size > 0) watch.observe(doc.documentElement, { childList: true, subtree: true });
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', now, { once: true });
  else now();
}

/**
 * Converts the page's fences once it is parsed, and those added later (a
 * single-page site's navigation).
 * @param {Document} doc
 */
export function start(doc) {
  const now = () => {
    const ready = hydrates(doc) ? hydrated : () => true;
    if (hydrates(doc)) {
      const until = performance.now() + HYDRATION_WAIT_MS;
      const pass = () => {
        if (convertReady(doc, hydrated).waiting === 0) return;
        if (performance.now() < until) whenIdle(pass);
        else convertAll(doc);
      };
      whenIdle(pass);
    } else convertAll(doc);
    let queued = false;
    new MutationObserver((records) => {
      const added = records.some((r) =>
        [...r.addedNodes].some(
          (n) => n instanceof Element && !KINDS.some((k) => n.tagName === k.tag.toUpperCase()) && holdsCode(n),
        ),
      );
      if (!added || queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        convertReady(doc, ready);
      });
    }).observe(doc.documentElement, { childList: true, subtree: true });
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', now, { once: true });
  else now();
}

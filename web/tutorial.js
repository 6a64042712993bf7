// @ts-check
// tutorial.js: the learner's tutorial (tutorial.html, tutorial-ko.html)
// one screen at a time. The page is its screens (section.screen), each
// readable without JavaScript; here only one shows: the one a link's
// fragment points into (a screen, or anything inside one), else the
// first. Continue shows the next screen, records it in the history (Back
// returns) and moves the focus to its heading, so the focus never falls to
// the page when the button it was on is hidden. The glossary after the
// screens shows only when a link's fragment points into it (a term's
// link, the list's, the lead's), its entry brought into view and focused;
// a link back into a screen hides it again: its entries define words of
// later screens, which would answer their questions before they are
// asked. The page's words are its own (the Continue buttons', and
// #where's data-of, "{n}" and "{total}" in it).
//
// A screen's explanation (its div.answer elements) names the outcomes its
// player asks the learner to predict, so it is hidden while the player
// asks: it shows once every question is answered (the element's predicted
// event) or when the player cannot ask (state error: no engine, no
// text). Without JavaScript it stays in the page, as nothing asks.

/** @type {HTMLElement[]} */
const screens = [...document.querySelectorAll('section.screen')].map((s) => /** @type {HTMLElement} */ (s));
const where = document.getElementById('where');
const glossary = document.getElementById('glossary');

/**
 * The element a fragment names, or null.
 * @param {string} hash a location's hash, with its #
 * @returns {HTMLElement | null}
 */
function targetOf(hash) {
  let id = hash.replace(/^#/, '');
  try {
    id = decodeURIComponent(id);
  } catch {
    // a malformed escape names no element
  }
  return id ? document.getElementById(id) : null;
}

/**
 * The index of the screen that holds the element a fragment names, or -1.
 * @param {string} hash a location's hash, with its #
 * @param {HTMLElement[]} list
 * @returns {number}
 */
function screenOf(hash, list) {
  const el = targetOf(hash);
  return el ? list.findIndex((s) => s.contains(el)) : -1;
}

/**
 * Shows the glossary when a fragment points into it, with the element it
 * names in view and focused (with focus), and hides it otherwise.
 * @param {string} hash
 * @param {boolean} focus
 */
function showGlossary(hash, focus) {
  if (!glossary) return;
  const el = targetOf(hash);
  glossary.hidden = !el || !glossary.contains(el);
  if (glossary.hidden || !el) return;
  if (focus) {
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.focus({ preventScroll: true });
  }
  el.scrollIntoView({ block: 'start' });
}

/**
 * Shows screen i alone, says which it is, and, with focus, moves the focus
 * to its heading.
 * @param {number} i
 * @param {boolean} focus
 */
function show(i, focus) {
  for (const [j, s] of screens.entries()) s.hidden = j !== i;
  for (const a of document.querySelectorAll('nav.screens a')) {
    const to = screenOf(/** @type {HTMLAnchorElement} */ (a).hash, screens);
    if (to === i) a.setAttribute('aria-current', 'step');
    else a.removeAttribute('aria-current');
  }
  if (where) {
    where.textContent = (where.dataset.of || '')
      .replace('{n}', String(i + 1))
      .replace('{total}', String(screens.length));
    where.hidden = false;
  }
  if (focus) /** @type {HTMLElement | null} */ (screens[i].querySelector('h2'))?.focus();
}

/**
 * Hides a screen's explanation until its player's questions are answered.
 * @param {HTMLElement} screen
 */
function holdAnswers(screen) {
  const player = screen.querySelector('lease-timeline[predict]');
  const answers = [...screen.querySelectorAll('.answer')].map((a) => /** @type {HTMLElement} */ (a));
  if (!player || answers.length === 0) return;
  const open = () => {
    for (const a of answers) a.hidden = false;
  };
  if (/** @type {HTMLElement} */ (player).dataset.state === 'error') return;
  for (const a of answers) a.hidden = true;
  player.addEventListener('predicted', (e) => {
    const { answered, questions } = /** @type {CustomEvent<{answered: number, questions: number}>} */ (e).detail;
    if (answered >= questions) open();
  });
  player.addEventListener('error', () => {
    if (/** @type {HTMLElement} */ (player).dataset.state === 'error') open();
  });
}

for (const [i, s] of screens.entries()) {
  holdAnswers(s);
  const next = screens[i + 1];
  const button = /** @type {HTMLButtonElement | null} */ (s.querySelector('button.continue'));
  if (!button || !next) continue;
  button.hidden = false;
  button.addEventListener('click', () => {
    history.pushState(null, '', `#${next.id}`);
    show(i + 1, true);
  });
}

// A link into a screen (the list of screens, a glossary entry's, Back):
// that screen, the glossary hidden; a link into the glossary shows it
// and leaves the screen as it is.
window.addEventListener('hashchange', () => {
  const i = screenOf(location.hash, screens);
  if (i >= 0) show(i, true);
  showGlossary(location.hash, true);
});

if (screens.length > 0) {
  const at = screenOf(location.hash, screens);
  show(Math.max(at, 0), false);
  showGlossary(location.hash, false);
}

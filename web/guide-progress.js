// @ts-check
// guide-progress.js: the guide's example of the players' API. It records
// which worksheets the reader solved (the solved event) in localStorage,
// shows them, and lets a button start a worksheet over (reset()).
const KEY = 'leaselab.guide.solved';
const out = document.getElementById('progress');
/** @type {Set<string>} */
const solved = new Set(JSON.parse(localStorage.getItem(KEY) || '[]'));

function show() {
  if (out) out.textContent = solved.size ? `Solved: ${[...solved].join(', ')}.` : 'Nothing solved yet.';
}

document.addEventListener('solved', (e) => {
  const id = /** @type {HTMLElement} */ (e.target).id || 'worksheet';
  solved.add(id);
  localStorage.setItem(KEY, JSON.stringify([...solved]));
  show();
});
show();

document.getElementById('start-over')?.addEventListener('click', () => {
  const sheet = /** @type {HTMLElement & {reset?: () => void}} */ (document.getElementById('exercise'));
  sheet?.reset?.();
});

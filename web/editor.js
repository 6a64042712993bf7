// @ts-check
// editor.js shows what the engine found wrong with a timeline's text —
// every mistake with its line:col, a button that puts the caret there —
// for the simulator page's editor and the <lease-timeline> element's alike.

import { h } from './render.js';

/** @typedef {import('./i18n.js').Strings} Strings */

/**
 * @typedef {object} Mistake one mistake of a timeline, as the engine reports it
 * @property {number} line 1-based; 0 when it has no place
 * @property {number} col 1-based
 * @property {string} msg
 */

/**
 * The offset in text of line:col (both 1-based, col in UTF-16 units as
 * the editor counts them), clamped to the text.
 * @param {string} text
 * @param {number} line
 * @param {number} col
 */
export function caretOffset(text, line, col) {
  const lines = text.split('\n');
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  return Math.min(text.length, pos + Math.max(0, col - 1));
}

/**
 * The mistakes an error carries: its errors list ({line, col, msg}, as
 * the engine rejects a run), or the error itself without a place.
 * @param {any} err
 * @returns {Mistake[]}
 */
export function mistakes(err) {
  if (err && Array.isArray(err.errors) && err.errors.length) return err.errors;
  return [{ line: 0, col: 0, msg: err instanceof Error ? err.message : String(err) }];
}

/** The mistakes of a timeline's text, shown in a box beside its editor. */
export class ErrorView {
  /**
   * @param {HTMLElement} box where the mistakes are listed (hidden while there are none)
   * @param {HTMLTextAreaElement | null} editor the text's editor, if it has one: marked invalid, and where line:col goes
   * @param {() => void} [reveal] shows the editor if it is folded, before the caret goes to a mistake
   */
  constructor(box, editor, reveal) {
    this.box = box;
    this.editor = editor;
    this.reveal = reveal;
    /** what the box says now, as it was last written (show) */
    this.said = '';
    box.hidden = true;
    box.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button.linecol');
      if (b instanceof HTMLElement) this.select(Number(b.dataset.line), Number(b.dataset.col));
    });
  }

  /**
   * Lists an error's mistakes (the first four); kept says the last good run
   * stays on screen, which the list then says too.
   * @param {any} err
   * @param {{kept: boolean, t: Strings}} o
   */
  show(err, { kept, t }) {
    this.box.hidden = false;
    this.editor?.setAttribute('aria-invalid', 'true');
    const shown = mistakes(err).slice(0, 4);
    // The box is an alert: the same mistakes written again would be said
    // again, after every pause in the reader's typing.
    const said = JSON.stringify([shown.map((m) => [m.line, m.col, m.msg]), kept, t.lang]);
    if (said === this.said) return;
    this.said = said;
    const rows = shown.map((m) => {
      const row = h('span', { class: 'err-row' });
      if (m.line) {
        const where = `${m.line}:${m.col}`;
        row.append(
          h('button', {
            type: 'button',
            class: 'linecol',
            'data-line': m.line,
            'data-col': m.col,
            text: where,
            // Said as a place, not a time of day; the label shown comes
            // first, so one who speaks to the page can name it.
            'aria-label': `${where}, ${t.placeAt(m.line, m.col)}`,
            title: t.goToPlace,
          }),
          ' ',
        );
      }
      row.append(h('span', { translate: 'no', text: m.msg }));
      return row;
    });
    this.box.replaceChildren(...rows, kept ? h('span', { class: 'err-keep', text: t.errKeep }) : '');
  }

  /** Clears the list: the text ran. */
  clear() {
    this.said = '';
    this.box.hidden = true;
    this.box.replaceChildren();
    this.editor?.removeAttribute('aria-invalid');
  }

  /**
   * Puts the editor's caret at line:col.
   * @param {number} line
   * @param {number} col
   */
  select(line, col) {
    if (!this.editor) return;
    this.reveal?.();
    const pos = caretOffset(this.editor.value, line, col);
    this.editor.focus();
    this.editor.setSelectionRange(pos, pos);
  }
}

/**
 * The lines of text: a newline ends a line, and a last line needs none.
 * @param {string} text
 */
export function lineCount(text) {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The rows an editor needs to show text whole, within [min, max].
 * @param {string} text
 * @param {number} min
 * @param {number} max
 */
export function fitRows(text, min, max) {
  return Math.min(Math.max(text.split('\n').length + 1, min), max);
}

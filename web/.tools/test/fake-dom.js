// fake-dom.js: the little of the DOM that fences.js's convert reads and
// writes — elements with attributes, dataset and text, closest and
// querySelectorAll by tag names (and parent > child), document.createElement — so that a fence's
// conversion runs under node --test, without a browser.

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

class FakeText {
  /** @param {string} value */
  constructor(value) {
    this.nodeType = TEXT_NODE;
    this.nodeValue = value;
    this.parentNode = null;
  }

  get textContent() {
    return this.nodeValue;
  }
}

/** A data-* attribute's name for a dataset key: fenceError is data-fence-error. */
const dataName = (key) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export class FakeElement {
  /**
   * @param {string} tag
   * @param {Record<string, string>} [attrs]
   * @param {...(FakeElement | string)} children
   */
  constructor(tag, attrs = {}, ...children) {
    this.nodeType = ELEMENT_NODE;
    this.tagName = tag.toUpperCase();
    this.attrs = new Map(Object.entries(attrs));
    this.childNodes = [];
    this.parentNode = null;
    this.append(...children);
  }

  get parentElement() {
    return this.parentNode instanceof FakeElement ? this.parentNode : null;
  }

  get children() {
    return this.childNodes.filter((n) => n instanceof FakeElement);
  }

  getAttribute(k) {
    return this.attrs.has(k) ? this.attrs.get(k) : null;
  }

  setAttribute(k, v) {
    this.attrs.set(k, String(v));
  }

  hasAttribute(k) {
    return this.attrs.has(k);
  }

  removeAttribute(k) {
    this.attrs.delete(k);
  }

  get id() {
    return this.getAttribute('id') ?? '';
  }

  get classList() {
    return { contains: (c) => (this.getAttribute('class') ?? '').split(/\s+/).includes(c) };
  }

  get dataset() {
    return new Proxy(
      {},
      {
        get: (_, key) => this.getAttribute(dataName(String(key))) ?? undefined,
        set: (_, key, v) => {
          this.setAttribute(dataName(String(key)), v);
          return true;
        },
      },
    );
  }

  append(...nodes) {
    for (const n of nodes) {
      const node = typeof n === 'string' ? new FakeText(n) : n;
      node.parentNode = this;
      this.childNodes.push(node);
    }
  }

  before(node) {
    const siblings = this.parentNode.childNodes;
    node.parentNode = this.parentNode;
    siblings.splice(siblings.indexOf(this), 0, node);
  }

  get textContent() {
    return this.childNodes.map((n) => n.textContent).join('');
  }

  set textContent(v) {
    this.childNodes = [];
    if (v) this.append(String(v));
  }

  /** @returns {FakeElement[]} every element under this one, in the page's order */
  descendants() {
    return this.children.flatMap((c) => [c, ...c.descendants()]);
  }

  /**
   * @param {string} selectors tag names and `parent > child` pairs of tag
   *   names, comma-separated: any other selector matches nothing
   */
  querySelectorAll(selectors) {
    const tests = selectors.split(',').map((s) => {
      const [parent, child] = s.includes('>')
        ? s.split('>').map((t) => t.trim().toUpperCase())
        : [null, s.trim().toUpperCase()];
      return (/** @type {FakeElement} */ e) =>
        e.tagName === child && (parent === null || e.parentElement?.tagName === parent);
    });
    return this.descendants().filter((e) => tests.some((t) => t(e)));
  }

  /**
   * DOCUMENT_POSITION_FOLLOWING (4) when other comes after this element in
   * their tree's order, else PRECEDING (2).
   * @param {FakeElement} other
   */
  compareDocumentPosition(other) {
    let root = /** @type {FakeElement} */ (this);
    while (root.parentElement) root = root.parentElement;
    const order = root.descendants();
    return order.indexOf(other) > order.indexOf(this) ? 4 : 2;
  }

  /** @param {string} tag */
  querySelector(tag) {
    return this.querySelectorAll(tag)[0] ?? null;
  }

  /** @param {string} tags tag names, comma-separated */
  closest(tags) {
    const names = tags.split(',').map((s) => s.trim().toUpperCase());
    for (let e = this; e; e = e.parentElement) if (names.includes(e.tagName)) return e;
    return null;
  }
}

/**
 * Installs the globals fences.js reads (document, Node, customElements,
 * location) and returns the page's body. Every element counts as defined,
 * so convert loads no element's module.
 */
export function installDOM() {
  const body = new FakeElement('body');
  Object.assign(globalThis, {
    Node: { ELEMENT_NODE, TEXT_NODE, CDATA_SECTION_NODE: 4, DOCUMENT_POSITION_FOLLOWING: 4 },
    document: { body, createElement: (tag) => new FakeElement(tag), querySelectorAll: (t) => body.querySelectorAll(t) },
    customElements: { get: () => class {} },
    location: { pathname: '/lesson/' },
  });
  return body;
}

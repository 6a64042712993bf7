// @ts-check
// scheme.js: which colour scheme, light or dark, the course site around an
// element shows, and a watch on its changing. <lease-timeline>,
// <lease-lab> and <lease-exercise> all follow it through this one module.

/**
 * The scheme the site has switched to, or "" where it says none (the
 * player then follows prefers-color-scheme). What any theme can set:
 * data-leaselab-theme="dark|light" on <html>, or the custom property
 * --leaselab-scheme: dark|light on it; and what the generators set:
 * Material for MkDocs' data-md-color-scheme on <body> (slate is dark),
 * Docusaurus' data-theme on <html>, VitePress's class dark on <html>.
 * @param {Document} doc
 * @returns {'dark' | 'light' | ''}
 */
export function siteScheme(doc) {
  const html = doc.documentElement;
  /** @param {string | null | undefined} v */
  const scheme = (v) => {
    const t = (v || '').trim().toLowerCase();
    return t === 'dark' || t === 'light' ? t : '';
  };
  const own =
    scheme(html.getAttribute('data-leaselab-theme')) ||
    scheme(getComputedStyle(html).getPropertyValue('--leaselab-scheme'));
  if (own) return own;
  const md = doc.body?.getAttribute('data-md-color-scheme');
  if (md) return md === 'slate' ? 'dark' : 'light';
  const docusaurus = scheme(html.getAttribute('data-theme'));
  if (docusaurus) return docusaurus;
  return html.classList.contains('dark') ? 'dark' : '';
}

/** The attributes of <html> and <body> whose change may change siteScheme. */
export const SCHEME_ATTRIBUTES = ['class', 'style', 'data-theme', 'data-md-color-scheme', 'data-leaselab-theme'];

/**
 * The scheme an element drawn on the page's own background reads in: the
 * site's (siteScheme) where it says one; else the text the element
 * inherits tells — light text sits on a dark page — and where that colour
 * cannot be read, prefers-color-scheme. (A page that ignores the reader's
 * dark preference keeps dark text on a light background: the element then
 * stays light with it.)
 * @param {Element} el
 * @returns {'dark' | 'light'}
 */
export function pageScheme(el) {
  const site = siteScheme(el.ownerDocument);
  if (site) return site;
  const rgb = (getComputedStyle(el).color.match(/^rgba?\(([^)]*)\)$/)?.[1] || '')
    .split(/[\s,/]+/)
    .slice(0, 3)
    .map(Number);
  // Light text: it stands out more against black than against white.
  if (rgb.length === 3 && rgb.every(Number.isFinite)) return luminance(rgb) > DARK_TEXT_ABOVE ? 'dark' : 'light';
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The luminance at which a text contrasts as much with black as with white. */
const DARK_TEXT_ABOVE = Math.sqrt(1.05 * 0.05) - 0.05;

/**
 * The relative luminance of an sRGB colour (WCAG 2), from 0 (black) to 1.
 * @param {number[]} rgb its red, green and blue, 0 to 255
 */
export function luminance([r, g, b]) {
  /** @param {number} c */
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * Calls onChange whenever the site's scheme may have changed: an attribute
 * of SCHEME_ATTRIBUTES on el's <html> or <body>, or the reader's
 * prefers-color-scheme. Returns the teardown, which leaves no observer nor
 * listener behind (call it from disconnectedCallback).
 * @param {Element} el
 * @param {() => void} onChange
 * @returns {() => void}
 */
export function watchScheme(el, onChange) {
  const doc = el.ownerDocument;
  const observer = new MutationObserver(() => onChange());
  observer.observe(doc.documentElement, { attributes: true, attributeFilter: SCHEME_ATTRIBUTES });
  if (doc.body) observer.observe(doc.body, { attributes: true, attributeFilter: SCHEME_ATTRIBUTES });
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    media.removeEventListener('change', onChange);
  };
}

// @ts-check
// scheme.js: which colour scheme, light or dark, the course site around an
// element shows, and a watch on its changing. <lease-timeline> follows it
// through this one module.

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

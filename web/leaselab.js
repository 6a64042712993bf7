// @ts-check
// leaselab.js is the one script a course site includes: it turns the
// page's ```lease-timeline fences into players (fences.js) and defines
// <lease-timeline> (lease-timeline.js); on a page with a <lease-lab> or a
// <lease-exercise> it defines that too (lease-lab.js, lease-exercise.js;
// fences.js does for a ```lease-lab or ```lease-exercise fence). It is
// written in a script's syntax — no import or export statement — so that
// it works both as a module
//   <script type="module" src="leaselab-VERSION/leaselab.js"></script>
// and as the classic deferred script MkDocs' extra_javascript, Hugo themes
// and Docusaurus' scripts emit
//   <script src="leaselab-VERSION/leaselab.js" defer></script>
// It finds its own URL (document.currentScript, or else the page's script
// whose src ends in leaselab.js) and loads the modules beside it with
// import(), so the bundle works from any sub-path of any static host. It
// links leaselab.css beside it when the page does not. Loaded twice, it
// runs once. On a page that holds a timeline, it first asks for every file
// the player needs at once (PRELOAD: modulepreload and preload hints), so
// the browser fetches them side by side instead of one import after
// another. The prerendered traces' index is not among them: it is
// revalidated on every page (prerendered.js), which a preload cannot ask.

(() => {
  /** What the player needs first, fetched side by side (a unit test holds it to the modules' imports). */
  const PRELOAD = {
    modules: [
      'fences.js',
      'lease-timeline.js',
      'prerendered.js',
      'player.js',
      'editor.js',
      'i18n.js',
      'render.js',
      'share.js',
      'trace.js',
      'view.js',
      'lanes.js',
      'hint.js',
      'predict.js',
      'break.js',
      'scheme.js',
      'outline.js',
    ],
    fetches: ['trace.css', 'lease-timeline-shadow.css'],
  };
  const once = Symbol.for('leaselab.js');
  const g = /** @type {Record<symbol, boolean>} */ (/** @type {unknown} */ (globalThis));
  if (g[once]) return;
  g[once] = true;
  const current = document.currentScript;
  const scripts = [...document.querySelectorAll('script[src]')].map((s) => /** @type {HTMLScriptElement} */ (s).src);
  const own =
    current instanceof HTMLScriptElement && current.src
      ? current.src
      : scripts.find((u) => /\/leaselab\.js([?#].*)?$/.test(u));
  if (!own) {
    console.error('leaselab.js: cannot find its own URL (a <script> whose src ends in leaselab.js)');
    return;
  }
  const here = new URL('.', own);
  /** Adds a <link> to the page's head. @param {Record<string, string>} attrs */
  const link = (attrs) => document.head.append(Object.assign(document.createElement('link'), attrs));
  const css = new URL('leaselab.css', here).href;
  if (
    ![...document.querySelectorAll('link[rel~="stylesheet"]')].some(
      (l) => /** @type {HTMLLinkElement} */ (l).href === css,
    )
  ) {
    link({ rel: 'stylesheet', href: css });
  }
  // A timeline on the page: an element, a fence's marks (fences.js FENCE_SELECTOR), or the directive's marker.
  const marked =
    '[class~="language-lease-timeline"], pre.lease-timeline, [data-lang="lease-timeline"], pre[data-language="lease-timeline"], lease-timeline';
  const hasTimeline = () =>
    document.querySelector(marked) !== null ||
    [...document.querySelectorAll('pre > code')].some((c) => /^\s*#!\s*lease-timeline\b/.test(c.textContent || ''));
  if (hasTimeline()) {
    for (const f of PRELOAD.modules) link({ rel: 'modulepreload', href: new URL(f, here).href });
    for (const f of PRELOAD.fetches)
      link({ rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href: new URL(f, here).href });
  }
  const load = (/** @type {string} */ file) => import(new URL(file, here).href);
  // The fences, and each <lease-lab> and <lease-exercise> the page holds,
  // on load or once a single-page site's navigation renders it.
  load('fences.js')
    .then((m) => {
      m.start(document);
      m.defineElements(document);
    })
    .catch((err) => console.error('leaselab.js: the fences were not converted:', err));
  load('lease-timeline.js').catch((err) => console.error('leaselab.js: <lease-timeline> was not defined:', err));
})();

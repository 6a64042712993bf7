// @ts-check
// leaselab.js is the one script a course site includes: it turns the
// page's ```lease-timeline fences into players (fences.js) and defines
// <lease-timeline> (lease-timeline.js). It is written in a script's syntax
// — no import or export statement — so that it works both as a module
//   <script type="module" src="leaselab-VERSION/leaselab.js"></script>
// and as the classic deferred script MkDocs' extra_javascript, Hugo themes
// and Docusaurus' scripts emit
//   <script src="leaselab-VERSION/leaselab.js" defer></script>
// It finds its own URL (document.currentScript, or else the page's script
// whose src ends in leaselab.js) and loads the modules beside it with
// import(), so the bundle works from any sub-path of any static host. It
// links leaselab.css beside it when the page does not. Loaded twice, it
// runs once.

(() => {
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
  const css = new URL('leaselab.css', here).href;
  const links = [...document.querySelectorAll('link[rel~="stylesheet"]')];
  if (!links.some((l) => /** @type {HTMLLinkElement} */ (l).href === css)) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = css;
    document.head.append(link);
  }
  const load = (/** @type {string} */ file) => import(new URL(file, here).href);
  load('fences.js')
    .then((m) => m.start(document))
    .catch((err) => console.error('leaselab.js: the fences were not converted:', err));
  load('lease-timeline.js').catch((err) => console.error('leaselab.js: <lease-timeline> was not defined:', err));
})();

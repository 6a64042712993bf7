// @ts-check
// embed-host.js is for a page that frames leaselab timelines (embed.html):
// every <iframe data-leaselab> takes the height its timeline reports. It is
// a classic script, so a page on any origin loads it with a plain
// <script src> from the bundle's host, CORS or not (as a module it loads
// too, and does the same).
//
// A message counts only if it comes from that frame's window and from the
// origin the frame's src names — or, from a frame whose sandbox attribute
// lacks allow-same-origin (how learning platforms frame pages), from the
// opaque origin 'null', the only origin such a frame's messages carry.
// Anything else is ignored. It asks each frame for its height once it has
// loaded ({type: "leaselab:ping"}), sent to that origin only; to a frame
// sandboxed without allow-same-origin the ping goes to any origin ('*'),
// since an opaque origin cannot be named: it carries no data.
(() => {
  const MIN = 80;
  const MAX = 20000;

  /** @returns {HTMLIFrameElement[]} */
  function frames() {
    return [...document.querySelectorAll('iframe[data-leaselab]')].filter((f) => f instanceof HTMLIFrameElement);
  }

  /**
   * Whether the frame's sandbox attribute gives it an opaque origin.
   * @param {HTMLIFrameElement} frame
   */
  function opaque(frame) {
    return frame.hasAttribute('sandbox') && !frame.sandbox.contains('allow-same-origin');
  }

  /**
   * The origin a frame's messages must come from: 'null' for a frame
   * sandboxed without allow-same-origin, else that of its src.
   * @param {HTMLIFrameElement} frame
   */
  function frameOrigin(frame) {
    if (opaque(frame)) return 'null';
    try {
      return new URL(frame.getAttribute('src') || '', location.href).origin;
    } catch {
      return null;
    }
  }

  /**
   * Applies a message event to the frame it came from, when it is a height
   * report from one of the page's frames at the origin that frame must have.
   * @param {MessageEvent} e
   */
  function onMessage(e) {
    const frame = frames().find((f) => f.contentWindow === e.source);
    if (!frame || e.origin !== frameOrigin(frame)) return;
    const d = e.data;
    if (d?.type !== 'leaselab:height' || !Number.isFinite(d.height)) return;
    const height = Math.max(MIN, Math.min(Math.round(d.height), MAX));
    frame.height = String(height);
    frame.dataset.leaselabHeight = String(height);
  }

  /** @param {HTMLIFrameElement} frame */
  function ping(frame) {
    const origin = frameOrigin(frame);
    const target = opaque(frame) ? '*' : origin !== 'null' ? origin : null;
    if (frame.contentWindow && target) frame.contentWindow.postMessage({ type: 'leaselab:ping' }, target);
  }

  window.addEventListener('message', onMessage);
  for (const f of frames()) {
    f.addEventListener('load', () => ping(f));
    ping(f);
  }
})();

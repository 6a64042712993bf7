// @ts-check
// embed-host.js is for a page that frames leaselab timelines (embed.html):
// every <iframe data-leaselab> takes the height its timeline reports. A
// message counts only if it comes from that frame's window and from the
// origin the frame's src names; anything else is ignored. It asks each frame
// for its height once it has loaded ({type: "leaselab:ping"}, sent to that
// origin only), in case the frame spoke before this script listened.

const MIN = 80;
const MAX = 20000;

/** @returns {HTMLIFrameElement[]} */
function frames() {
  return [...document.querySelectorAll('iframe[data-leaselab]')].filter((f) => f instanceof HTMLIFrameElement);
}

/**
 * The origin a frame's messages must come from: that of its src.
 * @param {HTMLIFrameElement} frame
 */
export function frameOrigin(frame) {
  try {
    return new URL(frame.getAttribute('src') || '', location.href).origin;
  } catch {
    return null;
  }
}

/**
 * Applies a message event to the frame it came from; returns that frame,
 * or null when the event is not a height report from one of the page's
 * frames at its own origin.
 * @param {MessageEvent} e
 */
export function onMessage(e) {
  const frame = frames().find((f) => f.contentWindow === e.source);
  if (!frame || e.origin !== frameOrigin(frame)) return null;
  const d = e.data;
  if (d?.type !== 'leaselab:height' || !Number.isFinite(d.height)) return null;
  const height = Math.max(MIN, Math.min(Math.round(d.height), MAX));
  frame.height = String(height);
  frame.dataset.leaselabHeight = String(height);
  return frame;
}

/** @param {HTMLIFrameElement} frame */
function ping(frame) {
  const origin = frameOrigin(frame);
  if (frame.contentWindow && origin && origin !== 'null') {
    frame.contentWindow.postMessage({ type: 'leaselab:ping' }, origin);
  }
}

window.addEventListener('message', onMessage);
for (const f of frames()) {
  f.addEventListener('load', () => ping(f));
  ping(f);
}

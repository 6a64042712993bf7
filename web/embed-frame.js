// @ts-check
// embed-frame.js is embed.html's classic script: the frame's height
// protocol, and what the frame says when its module scripts cannot load.
//
// The height protocol: once #embed holds something, and whenever the
// page's height changes, it posts
//   {type: "leaselab:height", height: <CSS px>, id: <the hash's id= or "">}
// to window.parent, with the parent's origin as the target origin, so no
// other page can read it; with no known parent origin it posts nothing. It
// answers {type: "leaselab:ping"} with its height, but only from its parent
// window and that origin.
//
// A frame sandboxed without allow-same-origin (how learning platforms
// frame third-party pages) has an opaque origin, so each module from the
// bundle's host is a cross-origin request, refused unless the host sends
// Access-Control-Allow-Origin; a classic script is not. When a module
// script of the page fails to load, this says so in #embed — in Korean
// when the hash's lang= is ko, else in English — with what the host must
// allow.
(() => {
  const params = new URLSearchParams(location.hash.slice(1));
  const ko = (params.get('lang') || '').toLowerCase().split('-')[0] === 'ko';
  const sandboxed = self.origin === 'null';
  const HEADER = 'Access-Control-Allow-Origin';
  const EN = {
    why: sandboxed
      ? 'This leaselab timeline cannot load: the page frames it in a sandbox without allow-same-origin, so its scripts count as coming from another site, and the server of the timeline refuses them.'
      : 'This leaselab timeline cannot load: its scripts did not load.',
    fix: `To show it, the server of the timeline must send the header ${HEADER}: * for its files, or the frame's sandbox must also allow allow-same-origin (sandbox="allow-scripts allow-same-origin").`,
  };
  const KO = {
    why: sandboxed
      ? '이 leaselab 타임라인을 불러올 수 없습니다. 이 페이지가 타임라인을 allow-same-origin 없는 샌드박스 프레임에 넣어서, 스크립트가 다른 사이트에서 온 것으로 취급되고 타임라인의 서버가 이를 거부합니다.'
      : '이 leaselab 타임라인을 불러올 수 없습니다. 스크립트를 불러오지 못했습니다.',
    fix: `보이게 하려면 타임라인의 서버가 파일에 ${HEADER}: * 헤더를 보내거나, 프레임의 샌드박스에 allow-same-origin도 허용해야 합니다(sandbox="allow-scripts allow-same-origin").`,
  };

  /** The origin of the page that frames this one, or null when it is unknown or not to be trusted. */
  function parentOrigin() {
    if (window.parent === window) return null;
    const ancestors = location.ancestorOrigins;
    const actual = ancestors?.length ? ancestors[0] : null;
    const wanted = params.get('origin');
    if (wanted) return !actual || actual === wanted ? wanted : null;
    if (actual && actual !== 'null') return actual;
    try {
      return document.referrer ? new URL(document.referrer).origin : null;
    } catch {
      return null;
    }
  }

  const target = parentOrigin();
  let sent = 0;
  let shown = false;

  /** @param {boolean} [force] post even when the height is the one last posted */
  function postHeight(force = false) {
    if (!target || !document.getElementById('embed')?.firstChild) return;
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === sent && !force) return;
    sent = height;
    window.parent.postMessage({ type: 'leaselab:height', height, id: params.get('id') || '' }, target);
  }

  function show() {
    const box = document.getElementById('embed');
    if (shown || !box || document.querySelector('lease-timeline')) return;
    shown = true;
    const t = ko ? KO : EN;
    const p = document.createElement('p');
    p.className = 'leaselab-noscript leaselab-blocked';
    p.lang = ko ? 'ko' : 'en';
    p.setAttribute('role', 'alert');
    p.textContent = `${t.why} ${t.fix}`;
    box.replaceChildren(p);
    document.documentElement.lang = p.lang;
  }

  // A module script's load error does not bubble: caught on its way down.
  document.addEventListener(
    'error',
    (e) => {
      const s = e.target;
      if (!(s instanceof HTMLScriptElement) || s.type !== 'module') return;
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show, { once: true });
      else show();
    },
    true,
  );
  window.addEventListener('message', (e) => {
    if (e.source === window.parent && e.origin === target && e.data?.type === 'leaselab:ping') postHeight(true);
  });
  new ResizeObserver(() => postHeight()).observe(document.documentElement);
})();

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  b64urlDecode,
  b64urlEncode,
  elementSnippet,
  findTimeline,
  iframeSnippet,
  timelineParams,
} from '../../share.js';

test('b64url round-trips any text, Hangul and the characters base64 pads or escapes', () => {
  for (const text of ['', 'a', 'ab', 'abc', '0ms A claim j -> ok\n', '민수 claim 주문-7', '?>>~~\u{1F600}']) {
    const enc = b64urlEncode(text);
    assert.match(enc, /^[A-Za-z0-9_-]*$/, `${JSON.stringify(text)} encodes to URL-safe characters without padding`);
    assert.equal(b64urlDecode(enc), text);
  }
  assert.throws(() => b64urlDecode('%%%'));
});

test('timelineParams names a library timeline as written, and carries any other text', () => {
  const lib = '# t\nlease 1s\n';
  assert.equal(timelineParams({ text: lib, name: '01.tl', library: lib }).toString(), 't=01.tl');
  const edited = timelineParams({ text: `${lib}0ms A claim j\n`, name: '01.tl', library: lib, step: 2 });
  assert.equal(edited.has('name'), false, 'an edited library timeline keeps no stale library name');
  assert.equal(b64urlDecode(edited.get('src') || ''), `${lib}0ms A claim j\n`);
  assert.equal(edited.get('step'), '2');
  const p = timelineParams({ text: lib, name: 'x.tl', mutant: 'claim-boundary', lang: 'ko', step: 0 });
  assert.equal(p.get('mutant'), 'claim-boundary');
  assert.equal(p.get('lang'), 'ko');
  assert.equal(p.get('step'), '0');
  assert.equal(timelineParams({ text: lib, name: 'x.tl', lang: 'en' }).has('lang'), false, 'English is the default');
});

test('findTimeline finds a library timeline with or without .tl, and nothing else', () => {
  const list = [{ name: '11-kleppmann-fencing.tl' }, { name: '12-clock-skew.tl' }];
  assert.equal(findTimeline(list, '11-kleppmann-fencing.tl'), list[0]);
  assert.equal(findTimeline(list, '11-kleppmann-fencing'), list[0]);
  assert.equal(findTimeline(list, 'nosuch.tl'), undefined);
  assert.equal(findTimeline(list, 'nosuch'), undefined);
  assert.equal(findTimeline(list, ''), undefined);
});

test('the element snippet escapes what HTML needs and keeps "->" readable', () => {
  const base = new URL('https://example.org/leaselab/');
  const s = elementSnippet({
    base,
    text: '# a < b & "c"\n0ms A claim j -> ok\n\n',
    name: 'q"x.tl',
    lang: 'ko',
    step: 3,
  });
  assert.ok(s.startsWith('<script type="module" src="https://example.org/leaselab/lease-timeline.js"></script>\n'));
  assert.ok(
    s.includes(
      '<lease-timeline name="q&quot;x.tl" lang="ko" step="3">\n# a &lt; b &amp; "c"\n0ms A claim j -> ok\n</lease-timeline>',
    ),
  );
});

test('the frame snippet carries the timeline in its hash and its comment cannot close early', () => {
  const base = new URL('https://example.org/leaselab/');
  const s = iframeSnippet({ base, text: 'x', name: 'a.tl', library: 'x', step: 2, title: 'T', comment: 'a -- b' });
  assert.ok(s.includes('src="https://example.org/leaselab/embed.html#t=a.tl&amp;step=2"'));
  assert.ok(s.includes('title="leaselab: T"'));
  assert.ok(s.includes('<!-- a - b -->'));
  // A classic script: a page on another origin loads it without CORS.
  assert.ok(s.includes('<script src="https://example.org/leaselab/embed-host.js"></script>'), s);
  assert.ok(
    iframeSnippet({ base, text: 'x', name: 'a.tl' }).includes('<!-- optional: lets the frame set its own height -->'),
  );
});

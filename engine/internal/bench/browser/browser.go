package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/browsertest/headless"
)

// probe runs in every page before the page's own scripts. It records in
// window.__bench when the timeline text and the first trace were first
// painted (the simulator page), when a course page's first player was
// painted (courseDrawn) and its last drawn (courseAll), and keeps every WebAssembly memory the page
// instantiates (exported or imported) so its size can be read, and the
// page's uncaught errors and CSP violations.
//
// "Painted" is the end of the first frame whose animation-frame callbacks
// saw the text (or <html data-first-trace>): a message posted from that
// callback runs once the frame's rendering is done.
const probe = `(() => {
	const marks = (window.__bench = { memories: [], problems: [] });
	document.addEventListener('securitypolicyviolation', (e) => marks.problems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));
	window.addEventListener('error', (e) => marks.problems.push('error ' + e.message));
	window.addEventListener('unhandledrejection', (e) => marks.problems.push('rejection ' + e.reason));
	const keep = (v) => { if (v instanceof WebAssembly.Memory && !marks.memories.includes(v)) marks.memories.push(v); };
	const collect = (imports, instance) => {
		for (const mod of Object.values(imports || {})) for (const v of Object.values(mod || {})) keep(v);
		for (const v of Object.values(instance.exports)) keep(v);
	};
	for (const name of ['instantiateStreaming', 'instantiate']) {
		const orig = WebAssembly[name];
		WebAssembly[name] = async function (src, imports) {
			const r = await orig.call(this, src, imports);
			collect(imports, r instanceof WebAssembly.Instance ? r : r.instance);
			return r;
		};
	}
	marks.wasmBytes = () => marks.memories.reduce((n, m) => n + m.buffer.byteLength, 0);
	const painted = (name) => {
		const ch = new MessageChannel();
		ch.port1.onmessage = () => { marks[name] = performance.now(); };
		ch.port2.postMessage(0);
	};
	let text = false, trace = false;
	const check = () => {
		const editor = document.getElementById('editor');
		if (!text && editor && editor.value.length > 0) { text = true; painted('textReadable'); }
		const root = document.documentElement;
		if (!trace && root && root.dataset.firstTrace !== undefined) { trace = true; painted('traceDrawn'); }
		if (!text || !trace) requestAnimationFrame(check);
	};
	requestAnimationFrame(check);
	// A course page's players (lease-timeline.js) tell the page when a run is drawn.
	let ready = 0;
	document.addEventListener('ready', () => {
		if (++ready === 1) painted('courseDrawn');
		marks.courseAll = performance.now();
	});
})();`

// session is one run of the benchmark: a server on 127.0.0.1 and one
// headless Chromium with a fresh profile.
type session struct {
	base    string          // the server's URL, no trailing slash
	browser context.Context // the started browser
	pid     int             // the browser's process id
	peaks   *peakSampler    // the browser's renderers, sampled for their peaks
}

// tab is one page in its own tab, with the responses it received.
type tab struct {
	ctx       context.Context // the tab, with the time limit of the whole visit
	cancel    func()
	closeOnce sync.Once

	// cpuAtNavigation is the CPU time the browser and all its processes
	// had used when the tab's navigation began (treeCPU).
	cpuAtNavigation time.Duration

	mu        sync.Mutex
	urls      map[network.RequestID]string
	received  map[network.RequestID]float64
	encodings map[string]string // URL -> Content-Encoding Chromium got
	failed    []string          // responses other than 200 and 304, left out of the sums
}

// open makes a new tab, waits until the browser is quiet (quiet.go),
// navigates the tab to path and returns at once; the page goes on loading.
func (s *session) open(path string, limit time.Duration) (*tab, error) {
	tctx, closeTab := chromedp.NewContext(s.browser)
	ctx, cancel := context.WithTimeout(tctx, limit)
	t := &tab{ctx: ctx, cancel: func() { cancel(); closeTab() },
		urls: map[network.RequestID]string{}, received: map[network.RequestID]float64{}, encodings: map[string]string{}}
	if err := chromedp.Do(ctx); err != nil {
		t.cancel()
		return nil, err
	}
	// chromedp enables the Network domain with DevTools' default buffers,
	// which keep a copy of every response body in the renderer (13 MB for
	// leaselab's module, 1.5 MB for the official build's files): memory a
	// visitor's renderer does not hold. Enabled again without them, the
	// events still come.
	none := int64(0)
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{MaxTotalBufferSize: &none, MaxResourceBufferSize: &none}); err != nil {
		t.cancel()
		return nil, err
	}
	err := chromedp.Listen(ctx, func(ev any) {
		t.mu.Lock()
		defer t.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventResponseReceived:
			if strings.HasPrefix(ev.Response.URL, s.base+"/") {
				if ev.Response.Status != 200 && ev.Response.Status != 304 {
					t.failed = append(t.failed, fmt.Sprintf("%s: HTTP %d", pathOf(ev.Response.URL), ev.Response.Status))
					return
				}
				t.urls[ev.RequestID] = ev.Response.URL
				enc, _ := ev.Response.Headers["Content-Encoding"].(string)
				if enc == "" {
					enc, _ = ev.Response.Headers["content-encoding"].(string)
				}
				t.encodings[ev.Response.URL] = enc
			}
		case *network.EventLoadingFinished:
			t.received[ev.RequestID] = ev.EncodedDataLength
		}
	})
	if err != nil {
		t.cancel()
		return nil, err
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: probe}); err != nil {
		t.cancel()
		return nil, err
	}
	if _, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
		t.cancel()
		return nil, err
	}
	// The browser's own work for a new tab (see quiet.go) is done before
	// the page's clock starts.
	if quiet, waited, err := waitQuiet(s.pid); err != nil || !quiet {
		t.cancel()
		if err != nil {
			return nil, fmt.Errorf("%s: waiting for the browser to be quiet: %w", path, err)
		}
		return nil, fmt.Errorf("%s: the browser was not quiet %v after the tab opened: its figures would carry the browser's own work", path, waited)
	}
	cpu, err := treeCPU(s.pid)
	if err != nil {
		t.cancel()
		return nil, fmt.Errorf("%s: the browser's CPU time: %w", path, err)
	}
	t.cpuAtNavigation = cpu
	if err := chromedp.Do(ctx, chromedp.Navigate(s.base+path)); err != nil {
		t.cancel()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// cpuSinceNavigation returns the CPU time (user and system) the browser and
// all its processes have used since t's navigation began: the page's work
// on every thread (its main thread, its workers, V8's compilers), the
// network service's and the browser's own for it, on every core. A process
// that ended meanwhile takes its time with it; the tab's renderer and the
// browser's long-lived processes do not end while it is open.
func (s *session) cpuSinceNavigation(t *tab) (time.Duration, error) {
	now, err := treeCPU(s.pid)
	if err != nil {
		return 0, err
	}
	if now < t.cpuAtNavigation {
		return 0, errors.New("the browser's CPU time went down: a process of its ended during the visit")
	}
	return now - t.cpuAtNavigation, nil
}

// loaded returns the URLs the page received (200 or 304), sorted, and the
// bytes Chromium received for them (headers included) with the encodings
// it got.
func (t *tab) loaded() (urls []string, received float64, encodings map[string]int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	encodings = map[string]int{}
	for id, u := range t.urls {
		if !slices.Contains(urls, u) {
			urls = append(urls, u)
			e := t.encodings[u]
			if e == "" {
				e = "none"
			}
			encodings[e]++
		}
		received += t.received[id]
	}
	slices.Sort(urls)
	return urls, received, encodings
}

// wait polls a JS predicate until it holds; on a time-out the error shows
// what the page showed.
func (t *tab) wait(predicate string, limit time.Duration) error {
	_, err := chromedp.Run(t.ctx, chromedp.Poll[bool](predicate,
		chromedp.WithPollingTimeout(limit), chromedp.WithPollingInterval(10*time.Millisecond)))
	if err != nil {
		state, _ := chromedp.Run(t.ctx, chromedp.Evaluate[string](`JSON.stringify({root: document.documentElement.dataset, problems: window.__bench && window.__bench.problems, body: document.body ? document.body.innerText.slice(0, 300) : ''})`))
		return fmt.Errorf("waiting for %s: %w; the page: %s", predicate, err, state)
	}
	return nil
}

// eval evaluates a JS expression, awaiting a Promise, and decodes its
// JSON-serialisable result into T.
func eval[T any](t *tab, expr string) (T, error) {
	v, err := chromedp.Run(t.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: %w", firstLine(expr), err)
	}
	return v, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// heap returns the JS heap in use (CDP Runtime.getHeapUsage) and the bytes
// of the page's WebAssembly memories: those the probe saw instantiated on
// the page, and leaselab's engine's, which lives in its Web Worker, where
// the probe does not reach (the page's globalThis.leaselab reports it).
func (t *tab) heap() (jsHeap, wasm float64, err error) {
	h, err := chromedp.Call(t.ctx, runtime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		return 0, 0, err
	}
	wasm, err = eval[float64](t, `(async () => window.__bench.wasmBytes() +
		(globalThis.leaselab && leaselab.wasmBytes ? await leaselab.wasmBytes() : 0))()`)
	return h.UsedSize, wasm, err
}

// close closes the tab; closing it again does nothing.
func (t *tab) close() {
	t.closeOnce.Do(func() {
		chromedp.Call(t.ctx, page.Close, cdp.Empty{}) // the tab may be gone already
		t.cancel()
	})
}

// closeMeasured closes the tab and returns its renderer's process id: the
// one process of before (a sample of the browser's renderers taken while
// the tab was open) that exits when the tab closes.
func (s *session) closeMeasured(t *tab, before map[int]memory) (int, error) {
	t.close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		after, err := renderers(s.pid)
		if err != nil {
			return 0, err
		}
		if pid, ok := vanished(before, after); ok {
			return pid, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0, fmt.Errorf("no single renderer exited when the tab closed (renderers before: %d)", len(before))
}

// version returns the browser's product name and version.
func (s *session) version() string {
	v, err := chromedp.CallBrowser(s.browser, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return "Chromium (version unknown: " + err.Error() + ")"
	}
	return v.Product
}

// startBrowser starts headless Chromium (package headless) with, unless
// empty, jsFlags for V8.
func startBrowser(execPath, profileDir, jsFlags string) (context.Context, func(), int, error) {
	var extra []chromedp.ExecAllocatorOption
	if jsFlags != "" {
		extra = append(extra, chromedp.Flag("js-flags", jsFlags))
	}
	return headless.Start(execPath, profileDir, extra...)
}

// pathOf returns the path and query of an absolute URL of the server.
func pathOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.RequestURI()
}

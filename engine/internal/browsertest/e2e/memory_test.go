//go:build e2e

package e2e_test

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/browsertest/headless"
	"github.com/leaselab/leaselab/engine/internal/webserve"
	"github.com/leaselab/leaselab/engine/timeline"
)

// embedsPage is a page with n library timelines, one <lease-timeline> each.
func embedsPage(n int) (string, error) {
	names := timeline.LibraryNames()
	if n > len(names) {
		return "", fmt.Errorf("the library has %d timelines, not %d", len(names), n)
	}
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embeds</title>
<link rel="stylesheet" href="lease-timeline.css"><script type="module" src="lease-timeline.js"></script></head><body>`)
	for _, name := range names[:n] {
		src, err := timeline.LibrarySource(name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "<lease-timeline name=%q>%s</lease-timeline>\n", name, html.EscapeString(src))
	}
	b.WriteString("</body></html>\n")
	return b.String(), nil
}

// memory is a renderer's resident set now and at its peak, in bytes.
type memory struct{ rss, peak int64 }

// rendererMemory returns the memory of the largest renderer process of the
// browser whose process is browserPID (the page's renderer: others, like a
// spare one, are small): VmRSS and VmHWM of /proc/PID/status.
func rendererMemory(browserPID int) (memory, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return memory{}, err
	}
	parent := map[int]int{}
	var renderers []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 {
			if f := strings.Fields(string(stat)[i+1:]); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if strings.Contains(string(cmd), "--type=renderer") {
			renderers = append(renderers, pid)
		}
	}
	var largest memory
	for _, pid := range renderers {
		p := pid
		for i := 0; i < 64 && p != 0 && p != browserPID; i++ {
			p = parent[p]
		}
		if p != browserPID {
			continue // another browser's
		}
		f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
		if err != nil {
			continue
		}
		var m memory
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			key, kb, _ := strings.Cut(sc.Text(), ":")
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			switch key {
			case "VmRSS":
				m.rss = n * 1024
			case "VmHWM":
				m.peak = n * 1024
			}
		}
		f.Close()
		if m.rss > largest.rss {
			largest = m
		}
	}
	if largest.rss == 0 {
		return memory{}, fmt.Errorf("no renderer of browser %d found", browserPID)
	}
	return largest, nil
}

// warmEngine runs one timeline on the page's engine (engine.js: one per
// page, shared by its timelines) again and again for three seconds, then
// lets the background compilation finish; it resolves to the runs made.
const warmEngine = `(async () => {
	const { loadEngine } = await import('/engine.js');
	const engine = await loadEngine();
	const text = 'lease 1000ms\njob j\n0ms A claim j -> ok token=1\n1000ms B claim j -> ok token=2\n1001ms A complete j token=1 -> refused superseded\n';
	let runs = 0;
	for (const t0 = performance.now(); performance.now() - t0 < 3000; runs++) await engine.run(text, { name: 'warm.tl' });
	await new Promise((r) => setTimeout(r, 1500));
	return runs;
})()`

// pageMemory opens url in a browser of its own, waits until every timeline
// has run, collects the garbage and returns the page's renderer memory and
// how often the page fetched the engine.
func pageMemory(url string) (mem memory, fetches int, err error) {
	chrome, err := headless.Find()
	if err != nil {
		return memory{}, 0, err
	}
	profile, err := os.MkdirTemp("", "leaselab-e2e-memory-")
	if err != nil {
		return memory{}, 0, err
	}
	defer os.RemoveAll(profile)
	bctx, stop, browserPID, err := headless.Start(chrome, profile)
	if err != nil {
		return memory{}, 0, err
	}
	defer stop()
	ctx, cancelT := context.WithTimeout(bctx, 90*time.Second)
	defer cancelT()
	// Tall enough that every timeline is in view at once.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 8000), chromedp.Navigate(url)); err != nil {
		return memory{}, 0, err
	}
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('lease-timeline').length > 0 &&
		[...document.querySelectorAll('lease-timeline')].every((e) => e.dataset.state === 'ready')`,
		chromedp.WithPollingTimeout(60*time.Second), chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		return memory{}, 0, fmt.Errorf("%s: the timelines did not all run: %w", url, err)
	}
	// V8 optimises the engine's hottest functions in the background once
	// they have run for a while, and that compilation is the larger part
	// of the peak: both pages run the same work on their (shared) engine
	// for a while first, so that the peaks compare what the timelines
	// cost, not how far V8 had got.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](warmEngine, chromedp.EvalAwaitPromise)); err != nil {
		return memory{}, 0, err
	}
	if _, err := chromedp.Call(ctx, heapprofiler.CollectGarbage, struct{}{}); err != nil {
		return memory{}, 0, err
	}
	if fetches, err = chromedp.Run(ctx, chromedp.Evaluate[int](wasmFetches)); err != nil {
		return memory{}, 0, err
	}
	mem, err = rendererMemory(browserPID)
	return mem, fetches, err
}

// Five timelines on a page share one engine: the wasm is fetched and
// compiled once, and the renderer's memory stays within 1.3x of a page
// with one timeline.
func TestEmbeds_FiveOnAPageStayWithin1_3xTheMemoryOfOne(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/", webserve.Handler(os.DirFS(webDir)))
	mux.HandleFunc("/e2e-embeds.html", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		page, err := embedsPage(n)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Security-Policy", webserve.CSP)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// Each page in a browser of its own, one after the other (two
	// browsers compiling at once on a small machine blur the figures).
	one, f1, err := pageMemory(srv.URL + "/e2e-embeds.html?n=1")
	must(t, err)
	five, f5, err := pageMemory(srv.URL + "/e2e-embeds.html?n=5")
	must(t, err)
	ratio := float64(five.peak) / float64(one.peak)
	t.Logf("renderer memory, peak (VmHWM): one timeline %.0f MB, five timelines %.0f MB: %.2fx; now (VmRSS, after a GC): %.0f MB and %.0f MB",
		float64(one.peak)/1e6, float64(five.peak)/1e6, ratio, float64(one.rss)/1e6, float64(five.rss)/1e6)
	if f1 != 1 || f5 != 1 {
		t.Errorf("leaselab.wasm fetched %d times for one timeline and %d for five, want once each", f1, f5)
	}
	if ratio > 1.3 {
		t.Errorf("five timelines take %.2fx the peak renderer memory of one, want at most 1.3x", ratio)
	}
}

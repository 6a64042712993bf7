//go:build e2e

package e2e_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/timeline"
)

// lockServiceStories are the library's stories that tell a lock service
// as it is built: a lock-delay, a leader change, a candidate's stopwatch,
// several nodes or a worker's own clock moving.
func lockServiceStories(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, name := range timeline.LibraryNames() {
		tl, err := timeline.LoadLibrary(name)
		if err != nil {
			t.Fatal(err)
		}
		moves := false
		for _, s := range tl.Steps {
			moves = moves || s.Verb == timeline.VerbLeaderChange || (s.Node != "" && (s.Verb == timeline.VerbJump || s.Verb == timeline.VerbDrift))
		}
		if tl.LockDelay > 0 || tl.Takeover != "" || tl.Nodes > 0 || moves {
			out = append(out, name)
		}
	}
	if len(out) < 10 {
		t.Fatalf("the library tells %d lock-service stories, want the ten of the lock-delay, leader change, stopwatch, version wait and Redlock: %v", len(out), out)
	}
	return out
}

// Each lock-service story, run by the engine in Chromium, gives the bytes
// of its native trace: the page checks its run against the trace make wasm
// computed natively and says "verified".
func TestPage_EveryLockServiceStoryRunsToItsNativeBytesInChromium(t *testing.T) {
	ctx := tab(t)
	for _, name := range lockServiceStories(t) {
		// a page of its own: the page checks a run against the native trace
		// it drew first, on its load
		must(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
		open(t, ctx, "#t="+trimTL(name))
		waitEngine(t, ctx)
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.timeline === %q && document.documentElement.dataset.lastRun !== undefined`, name), 60*time.Second)
		if got := eval[string](t, ctx, `document.documentElement.dataset.lastRun`); got != "verified" {
			t.Errorf("%s: the engine in Chromium ran it to %q, want \"verified\": the bytes of its native trace", name, got)
		}
	}
	noProblems(t, ctx)
}

func trimTL(name string) string { return name[:len(name)-len(".tl")] }

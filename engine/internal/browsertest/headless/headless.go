// Package headless starts the headless Chromium that the project's browser
// tests (engine/internal/browsertest/e2e) and benchmarks (engine/internal/bench/browser)
// drive, with the one set of flags measured to work on this kind of machine:
// no sandbox (they run as root), no GPU, and none of Chromium's own network
// traffic (QUIC, component updates, sync, background networking), which the
// machine's closed network refuses. Each browser gets the profile directory
// its caller names, so nothing is shared between runs.
package headless

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ErrMissing: no Chromium on PATH.
var ErrMissing = errors.New("headless: no chromium on PATH: install it (Debian: apt-get install -y chromium)")

// Find returns the path of the first Chromium on PATH (chromium,
// chromium-browser, google-chrome), or ErrMissing.
func Find() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrMissing
}

// Start starts Chromium at execPath with a fresh profile in profileDir, a
// 1280x900 window and the project's flags, plus extra options (e.g. V8's
// js-flags). It returns the browser's context, a stop function that ends
// the browser, and the browser's process id (its renderers are children).
func Start(execPath, profileDir string, extra ...chromedp.ExecAllocatorOption) (ctx context.Context, stop func(), pid int, err error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(execPath),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(profileDir),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-first-run", true),
	)
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	stop = func() { cancel(); cancelAlloc() }
	if err := chromedp.Do(ctx); err != nil {
		stop()
		return nil, nil, 0, fmt.Errorf("cannot start Chromium (%s): %w", execPath, err)
	}
	proc := chromedp.FromContext(ctx).Browser.Process()
	if proc == nil {
		stop()
		return nil, nil, 0, fmt.Errorf("headless: chromium (%s) started but its process id is unknown", execPath)
	}
	return ctx, stop, proc.Pid, nil
}

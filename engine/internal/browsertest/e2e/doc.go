// Package e2e holds the simulator page's end-to-end tests: the page served
// by engine/webserve from web/ (built by make wasm) and driven in headless
// Chromium through chromedp. They carry the build tag e2e, so a plain go
// test ./... neither needs a browser nor a built wasm; make e2e (part of
// make test) builds the page, makes sure Chromium is installed and runs
// them:
//
//	go test -tags e2e,mutants ./engine/internal/browsertest/e2e/
//
// (mutants: the course page's worksheet is checked against the native
// engine's mutant.)
//
// A missing Chromium or a missing build fails the run with one line saying
// what to do; nothing is skipped.
package e2e

// Package sites holds the course-site tests (make sites, part of make
// test): real sites built by real generators from Debian's packages —
// MkDocs with its own theme, Material for MkDocs with pymdownx, and Hugo —
// from the sources in testdata/ and the configuration snippets of the
// author's guide (web/guide.html), with the bundle (make dist) copied in,
// served by a plain static server on 127.0.0.1 (python3 -m http.server, or
// Go's http.FileServer under a sub-path, one of them sending .wasm as
// application/octet-stream) and played in headless Chromium: the fences
// become players that play and show their lanes, a worksheet is solved,
// the text is readable without JavaScript, and once `leaselab prerender`
// has run, every player draws its trace without fetching the engine. The
// guide itself is played too: its plain HTML page and its events example.
//
// They carry the build tag sites:
//
//	go test -tags sites,mutants ./engine/internal/browsertest/sites/
//
// A missing generator, Chromium or build fails the run with one line
// saying what to do (make sites installs what it can); nothing is skipped.
package sites

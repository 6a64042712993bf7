// Package sites holds the course-site tests (make sites, part of make
// test): real sites built by real generators — MkDocs with its own theme,
// Material for MkDocs with pymdownx, Hugo (with and without
// guessSyntax), Sphinx (reStructuredText and MyST) and notebooks (a
// fence in a Markdown cell, a code cell's HTML output) exported by
// jupyter nbconvert from Debian's packages; VitePress 1.x, Docusaurus 3.x
// and Astro Starlight from the pinned lock files in testdata/ — from the sources in testdata/ and the configuration snippets of the
// author's guide (web/guide.html), with the bundle (make dist) copied in,
// served by a plain static server on 127.0.0.1 (python3 -m http.server, or
// Go's http.FileServer under a sub-path, one of them sending .wasm as
// application/octet-stream) and played in headless Chromium: the fences
// become players that play and show their lanes, a worksheet is solved,
// the text is readable without JavaScript, and once `leaselab prerender`
// has run, every player draws its trace without fetching the engine. The
// guide itself is played too: its plain HTML page, its events example
// and its element in an MDX page, as MDX and React render it.
// The single-page sites are walked by their own client-side navigation,
// with no error, warning or hydration mismatch on the console. The
// element's contract is held too: its properties, its cleanup (100
// players leave no listener), the site's dark mode, a Content-Security-
// Policy sent as a header, an exercise and a lab a single-page site
// renders after load, an exercise React hydrates, a VitePress page
// written with the elements, which Vue hydrates without a mismatch, a
// Hugo page bundle holding an exercise under the guide's policy, the
// Starlight's Expressive Code fences (a timeline and a lab prerendered, an
// exercise, a fence that cannot be read told by prerender and in place), the
// bundle's Sphinx extension (its elements as the npm plugins write them, a
// bad block failing the build at its file and line, the build prerendering
// so no WebAssembly is served until the reader acts, and a page of one
// timeline sending under 1 MB), a site of two languages holding the
// bundle once (Docusaurus, VitePress), the
// Python exercise on a Docusaurus and a VitePress page (nothing of Python
// fetched until the reader acts; the correct lab passes Check, its worker
// under the guide's policy).
//
// They carry the build tag sites:
//
//	go test -tags sites,mutants ./engine/internal/browsertest/sites/
//
// A missing generator, Chromium or build fails the run with one line
// saying what to do (make sites installs what it can); nothing is skipped.
package sites

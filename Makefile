# leaselab — run `make serve` to play the simulator, `make test` to run every test.
SHELL := /bin/bash
GO ?= go
ADDR ?= 127.0.0.1:8080
GOROOT := $(shell $(GO) env GOROOT)

.PHONY: all help serve test check fmt vet lint gotest mutants bench wasm worker worker-test wasm-test e2e
.PHONY: bench-browser bench-lab lint-js fmt-js unit-js dist sites sqlite-wasm sqlite-verify pyodide

all: test

## help: list the targets, one line each
help:
	@awk '/^## [a-z0-9-]+:/ && prev !~ /^##/ { line = substr($$0, 4); n = index(line, ":"); \
		printf "  %-14s %s\n", substr(line, 1, n - 1), substr(line, n + 2) } { prev = $$0 }' $(firstword $(MAKEFILE_LIST))

## serve: build the wasm and serve the simulator on http://127.0.0.1:8080/ (make serve ADDR=host:port for another)
serve: wasm
	$(GO) run . serve -addr $(ADDR)

## test: everything CI runs (installs the pinned npm tools it needs when missing)
test: fmt vet lint lint-js unit-js sqlite-verify gotest mutants worker-test wasm-test e2e sites

## check: the fast inner loop, no browser and no build: gofmt, go vet, staticcheck, go mod tidy -diff, the JS lint, type check and unit tests, go test
check: fmt vet lint lint-js unit-js
	$(GO) test -count=1 ./...

## fmt: fail when gofmt would change a Go file
fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## vet: go vet, with and without the mutants tag
vet:
	$(GO) vet ./...
	$(GO) vet -tags mutants ./engine/...

## lint: staticcheck (pinned by the tool directive in go.mod) on every build — native, with the mutants tag, the WebAssembly programs and their SQLite driver — and go.mod as go mod tidy leaves it
lint:
	$(GO) mod tidy -diff
	$(GO) tool staticcheck ./...
	$(GO) tool staticcheck -tags mutants ./...
	GOOS=js GOARCH=wasm $$($(GO) tool -n staticcheck) -tags mutants ./wasm/... ./engine/sqlitedb/ ./engine/simrun/
	GOOS=js GOARCH=wasm $$($(GO) tool -n staticcheck) -tags mutants,tools ./wasm/sim/

## gotest: every Go test, with the race detector; then the lab's sweeps' arithmetic, which -race slows twentyfold, without it
gotest:
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) test -count=1 ./engine/internal/lab/

## lint-js: the page's JavaScript: Biome's lint and format check, and tsc --noEmit over its JSDoc types
## (both pinned in web/.tools, installed by npm ci when missing)
WEB_TOOLS := web/.tools
WEB_JS = $(filter-out $(APP_BUNDLE) web/engine-worker.bundle.js,$(wildcard web/*.js web/npm/*.js web/bench/*.js $(WEB_TOOLS)/test/*.js)) wasm/node/run.mjs
lint-js: $(WEB_TOOLS)/node_modules/.bin/biome
	cd $(WEB_TOOLS) && ./node_modules/.bin/biome check $(patsubst wasm/%,../../wasm/%,$(patsubst web/%,../%,$(patsubst $(WEB_TOOLS)/%,%,$(WEB_JS))))
	cd $(WEB_TOOLS) && ./node_modules/.bin/tsc -p .

## fmt-js: format the page's JavaScript in place and apply Biome's safe fixes
fmt-js: $(WEB_TOOLS)/node_modules/.bin/biome
	cd $(WEB_TOOLS) && ./node_modules/.bin/biome check --write $(patsubst wasm/%,../../wasm/%,$(patsubst web/%,../%,$(patsubst $(WEB_TOOLS)/%,%,$(WEB_JS))))

## unit-js: the unit tests of the page's modules under node --test, no browser (the npm plugins run the engine and its tools: they are built first)
unit-js: web/leaselab.wasm web/leaselab-tools.wasm web/wasm_exec.js web/sqlite-wasm/sqlite3.wasm
	@command -v node >/dev/null || { echo "unit-js: Node.js is missing: install it (Debian: apt-get install -y nodejs), then run make unit-js again"; exit 1; }
	node --test --test-reporter=spec $(WEB_TOOLS)/test/*.test.js

# biome stands for the install: npm ci puts tsc and axe-core beside it.
$(WEB_TOOLS)/node_modules/.bin/biome: $(WEB_TOOLS)/package-lock.json
	@command -v npm >/dev/null || { echo "lint-js: npm is missing: install it (Debian: apt-get install -y nodejs npm), then run make lint-js again"; exit 1; }
	cd $(WEB_TOOLS) && CI=true npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## mutants: run the engine's tests once with no mutant and once per named mutant
## (-tags mutants, LEASELAB_MUTANT); fails unless every mutant is killed
mutants:
	$(GO) run -tags mutants ./engine/internal/testkit/mutants -timeout 8m

## bench: the engine's cycle against goqite's and against the floor (bare SQL, no checks), natively and in the browser (bench-browser first), and the server's memory under the worst texts; the file cycle per journal (default, WAL); the conformance suite on the engine (goal: at most 10 s); leaselab grade on a correct Python student (goal: at most 10 s); a lab's 20-policy x 50-run sweep of 20 jobs (goal: at most 5 s)
## Our checked enqueue->claim->complete cycle against goqite's
## send->receive->delete and against the floor (the same cycle as three bare
## prepared statements, no checks), interleaved on memdb and on a file;
## prints cycles/s and the ratios (medians over 100 ms rounds, then over the
## 3 runs; goal: the engine at most 1.5x the floor's time); first,
## bench-browser
bench: bench-browser
	set -o pipefail; $(GO) test -run '^$$' -bench '^BenchmarkCycle$$' -benchtime 10s -count 3 \
		./engine/internal/bench/cycle/ | tee bench.out
	$(GO) run ./engine/internal/bench/ratio -goal memdb=2.5 -goal file=1.2 -floor 1.5 < bench.out
	$(GO) run -tags mutants ./engine/internal/bench/explore
	$(GO) run ./engine/internal/bench/load
	$(GO) test -run '^$$' -bench '^BenchmarkFileJournal$$' -benchtime 2s ./engine/internal/bench/cycle/
	$(GO) test -run '^$$' -bench '^BenchmarkConformance$$' -benchtime 5x ./engine/leasetest/
	$(GO) test -run '^$$' -bench '^BenchmarkGrade$$' -benchtime 3x ./engine/grade/
	$(GO) test -run '^$$' -bench '^BenchmarkLabSweep$$' -benchtime 3x ./engine/internal/lab/

## bench-browser: the simulator against the official SQLite WebAssembly build, in headless Chromium
## The simulator in headless Chromium side by side with the
## official SQLite WebAssembly build (the same SQLite 3.54.1 as the engine's, in
## $(SQLITE_NPM), served to the benchmark under a URL of its own): bytes loaded, first trace
## cold and warm (also with the CPU slowed 4x), text readable, cycles/s,
## renderer memory, the main thread under a 2,000-step timeline, the explorer
## natively and in the page, a lease lab's 20-policy sweep in a <lease-lab>
## (goal: at most 15 s, no main-thread task over 100 ms), and a library lab's
## ms a run natively and in the page (goal: the page at most the native's; the
## one goal whose miss fails, -lab-gate); each goal met or MISSED (any other
## missed goal is printed, not a failure). See engine/internal/bench/browser.
# The engine's SQLite and SQLite's official WebAssembly build (see their
# rules below); defined before the rules that name them, since make expands a
# prerequisite where it reads it.
SQLITE_ENGINE := web/sqlite-wasm/sqlite3.wasm
SQLITE_NPM := web/.sqlite-wasm
SQLITE_DIST := $(SQLITE_NPM)/node_modules/@sqlite.org/sqlite-wasm/dist
SQLITE_OUT := web/bench/sqlite-wasm
SQLITE_OFFICIAL := $(SQLITE_OUT)/sqlite3.js $(SQLITE_OUT)/sqlite3.wasm
BENCH_PAGES := $(wildcard web/bench/*.html web/bench/*.js)

bench-browser: wasm $(addsuffix .br,$(BENCH_PAGES) $(SQLITE_OFFICIAL))
	bash .ci/need-chromium
	$(GO) run -tags mutants ./engine/internal/bench/browser -lab-gate

## bench-lab: only the lease lab's ms a run, natively and in headless Chromium, and their ratio (fails when the page misses its goal)
bench-lab: wasm $(addsuffix .br,$(BENCH_PAGES) $(SQLITE_OFFICIAL))
	bash .ci/need-chromium
	$(GO) run -tags mutants ./engine/internal/bench/browser -only 'run by run' -lab-gate

$(addsuffix .br,$(BENCH_PAGES)): %.br: %
	$(GO) run ./engine/internal/build/precompress $<

## wasm: build the page: the engine, wasm_exec.js and the library's traces, precompressed
## The simulator's engine in its two builds (web/leaselab.wasm, the player's;
## web/leaselab-tools.wasm, with the tools: the explorer, the lab, the grader,
## the Go-test exporter; both with mutants), precompressed,
## wasm_exec.js from this Go, and the library's traces computed ahead of time.
## File targets: an unchanged source rebuilds and recompresses nothing.
WASM_SRC := $(shell find engine wasm -name '*.go' -not -name '*_test.go' -not -path '*/node_modules/*' 2>/dev/null) go.mod go.sum
TIMELINES := $(wildcard engine/timeline/library/*.tl)
# The simulator page's script (its rule is below).
APP_BUNDLE := web/app.bundle.js

wasm: web/leaselab.wasm.br web/leaselab-tools.wasm.br $(SQLITE_ENGINE).br web/wasm_exec.js web/traces/index.json $(APP_BUNDLE) web/app.bundle.css web/engine-worker.bundle.js pyodide
	@$(GO) run ./engine/internal/build/precompress web/*.html web/*.css web/*.js web/*.svg

## The browser build has no SQLite of its own: the engine's Go module talks
## through wasm/sqlitejs (a database/sql driver over syscall/js) to SQLite
## compiled by clang ($(SQLITE_ENGINE), see below), which web/sqlite-bridge.js
## loads beside it in the engine's worker. The native build keeps
## github.com/ncruces/go-sqlite3.
## engine/internal/build/wasmfacts then writes the build's facts (the library, the
## mutants, the limits: engine/simrun.Facts) into the module, computed natively
## with the same tags, for the worker to read without running Go; the
## module's sources include what it embeds (the library, gotest.txt).
## The player's build leaves the tools out (wasm/sim's tools tag): a page
## that only plays timelines downloads and compiles a third less.
web/leaselab.wasm: WASM_TAGS := mutants
web/leaselab-tools.wasm: WASM_TAGS := mutants,tools
web/leaselab.wasm web/leaselab-tools.wasm: $(WASM_SRC) $(TIMELINES) engine/timeline/gotest.txt Makefile
	GOOS=js GOARCH=wasm $(GO) build -tags $(WASM_TAGS) -trimpath -ldflags="-s -w" -o $@.tmp ./wasm/sim
	$(GO) run -tags mutants ./engine/internal/build/wasmfacts $@.tmp
	mv $@.tmp $@

## The engine's SQLite: SQLite 3.54.1 built for the engine by
## wasm/sqlite/build.sh (clang 19 and wasi-libc from Debian, which
## .ci/need-clang installs), with only what the engine uses, and the terms of
## what it holds beside it (.notice, which make dist reads). The page, the
## element, the course bundle and make wasm-test all run on it. Both files
## are committed, so that make serve needs no clang: no rule here rebuilds
## them from their sources by date (a clone's dates are arbitrary). make
## sqlite-wasm rebuilds them on purpose; make sqlite-verify, part of make
## test, holds them to a rebuild byte for byte.
$(SQLITE_ENGINE):
	@echo "$@ is missing: it is committed (git checkout -- $@), or make sqlite-wasm builds it with clang 19"; exit 1

## sqlite-wasm: rebuild the engine's SQLite (committed: web/sqlite-wasm) with clang 19 and wasi-libc; commit the result
sqlite-wasm:
	bash .ci/need-clang
	GO=$(GO) bash wasm/sqlite/build.sh $(SQLITE_ENGINE)

## sqlite-verify: fail unless a rebuild of the engine's SQLite is the committed one byte for byte (skips without the clang 19 and wasi-libc its notice names, never under CI=true)
sqlite-verify:
	GO=$(GO) bash wasm/sqlite/verify.sh $(SQLITE_ENGINE)

## SQLite's official WebAssembly build (npm @sqlite.org/sqlite-wasm, pinned in
## $(SQLITE_NPM), a dot folder the server never serves, installed there by npm
## ci when missing): the benchmark's official page (web/bench/sqlite.html)
## loads its module and the package's own JavaScript API (dist/index.mjs, as
## sqlite3.js), copied to $(SQLITE_OUT) by make bench-browser.
# index.mjs stands for the install: npm ci puts sqlite3.wasm beside it.
$(SQLITE_DIST)/index.mjs: $(SQLITE_NPM)/package-lock.json
	@command -v npm >/dev/null || { echo "SQLite's WebAssembly build: npm is missing: install it (Debian: apt-get install -y nodejs npm), then run make again"; exit 1; }
	cd $(SQLITE_NPM) && CI=true npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(SQLITE_OUT)/sqlite3.js: $(SQLITE_DIST)/index.mjs
	@mkdir -p $(@D)
	cp $< $@
$(SQLITE_OUT)/sqlite3.wasm: $(SQLITE_DIST)/index.mjs
	@mkdir -p $(@D)
	cp $(SQLITE_DIST)/sqlite3.wasm $@

$(addsuffix .br,$(SQLITE_ENGINE) $(SQLITE_OFFICIAL)): %.br: %
	$(GO) run ./engine/internal/build/precompress $<

## pyodide: copy Pyodide's runtime (npm pyodide, pinned in web/.pyodide) to web/pyodide/, precompressed (make wasm does)
## Pyodide (npm pyodide 314.0.7: CPython 3.14.2 compiled to WebAssembly,
## MPL-2.0), in which the page's coding exercise (<lease-exercise>) grades
## Python, pinned in $(PYODIDE_NPM), a dot folder the server never serves,
## and installed there by npm ci when its lock is newer. The files its loader
## reads (loadPyodide({indexURL}) with indexURL the folder beside the
## worker) are copied to $(PYODIDE_OUT) and precompressed: the page loads
## Python from its own origin, never from another. Without npm it says so in
## one line and make wasm goes on without them (the Python exercise is then
## unavailable). File targets: a second run copies nothing.
NPM ?= npm
PYODIDE_NPM := web/.pyodide
PYODIDE_PKG := $(PYODIDE_NPM)/node_modules/pyodide
PYODIDE_OUT := web/pyodide
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
PYODIDE := $(addprefix $(PYODIDE_OUT)/,$(PYODIDE_FILES))

ifeq ($(shell command -v $(NPM) 2>/dev/null),)
pyodide:
	@echo "pyodide: npm is missing, so the page's Python exercise will be unavailable: install it (Debian: apt-get install -y nodejs npm), then run make wasm again"
else
pyodide: $(addsuffix .br,$(PYODIDE))
endif

# pyodide.mjs stands for the install: npm ci puts the other files beside it.
$(PYODIDE_PKG)/pyodide.mjs: $(PYODIDE_NPM)/package-lock.json
	cd $(PYODIDE_NPM) && CI=true $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

# Copied whole or not at all: a copy cut short is never newer than the install.
$(PYODIDE): $(PYODIDE_OUT)/%: $(PYODIDE_PKG)/pyodide.mjs
	@mkdir -p $(@D)
	install -m 0644 $(PYODIDE_PKG)/$* $@.tmp
	mv $@.tmp $@

$(addsuffix .br,$(PYODIDE)): %.br: %
	$(GO) run ./engine/internal/build/precompress $<

web/leaselab.wasm.br web/leaselab-tools.wasm.br: %.br: %
	$(GO) run ./engine/internal/build/precompress $<
	@ls -l $< $<.gz $<.br | awk '{print "wasm: " $$5 " bytes " $$9}'

## The simulator page's script and style: app.js and every module it imports
## statically, bundled into one file by esbuild (engine/internal/build/bundle), with
## its source map, and trace.css and style.css as one sheet; index.html loads
## both. engine.js stays a module of its own; the engine's worker is bundled
## with its bridge and Go's wasm_exec.js (engine-worker.bundle.js).
# One run writes all three; the script stands for them, and a missing sheet or
# worker bundle makes it again.
$(APP_BUNDLE): $(filter-out $(APP_BUNDLE) web/engine-worker.bundle.js,$(wildcard web/*.js)) web/wasm_exec.js web/trace.css web/style.css engine/internal/build/bundle/main.go go.mod
	$(GO) run ./engine/internal/build/bundle -web web
web/app.bundle.css web/engine-worker.bundle.js: $(APP_BUNDLE)
	@test -f $@ || rm -f $(APP_BUNDLE)
	@test -f $@ || $(MAKE) $(APP_BUNDLE)

web/wasm_exec.js: $(GOROOT)/lib/wasm/wasm_exec.js
	cp $< $@

web/traces/index.json: $(WASM_SRC) $(TIMELINES)
	$(GO) run ./engine/internal/build/tracegen -out web/traces
	@touch $@ # before compressing: a .br/.gz older than its source is not served
	$(GO) run ./engine/internal/build/precompress web/traces/*.json

## wasm-test: the parity test and the engine's suites in WebAssembly under Node
## The parity test, natively and in WebAssembly under Node: every
## library timeline's trace is byte for byte the golden one on both. Then the
## engine's own suites (boundaries, rejections, the model, the checker, the
## timeline runner, the driver, the grader of a lab written in JavaScript) in WebAssembly under Node, on the page's
## SQLite: wasm/node/run.mjs loads the engine's SQLite module through
## web/sqlite-bridge.js first, as the page's worker does; the few tests that need files,
## processes or the go command say so and skip there. It builds the page's module
## first: a test there holds the facts make wasm wrote into it to what it computes.
WASM_EXEC_NODE := node --stack-size=8192 $(CURDIR)/wasm/node/run.mjs $(GOROOT)/lib/wasm/wasm_exec.js
wasm-test: $(SQLITE_ENGINE) web/leaselab.wasm
	@command -v node >/dev/null || { echo "wasm-test: Node.js is missing: install it (Debian: apt-get install -y nodejs), then run make wasm-test again"; exit 1; }
	$(GO) test -count=1 ./engine/simrun/
	GOOS=js GOARCH=wasm $(GO) vet -tags mutants ./wasm/sim/ ./engine/simrun/ ./wasm/sqlitejs/ ./wasm/jslab/ ./wasm/pylab/
	GOOS=js GOARCH=wasm $(GO) vet -tags mutants,tools ./wasm/sim/
	GOOS=js GOARCH=wasm $(GO) test -count=1 -tags mutants -exec "$(WASM_EXEC_NODE)" \
		./engine/simrun/ ./engine/ ./engine/model/ ./engine/check/ ./engine/sqlitedb/ ./wasm/sqlitejs/ ./engine/timeline/... ./engine/internal/lab/ ./wasm/jslab/

## e2e: the page, the element, the frame and the course page in headless Chromium
## Installs Debian's chromium and a Hangul font when they are missing and it
## can, or stops saying what to install.
e2e: wasm $(WEB_TOOLS)/node_modules/.bin/biome
	bash .ci/need-chromium
	$(GO) test -count=1 -timeout 20m -tags e2e,mutants ./engine/internal/browsertest/e2e/

## dist: the course bundle, DIST/leaselab-VERSION/ (make dist DIST=dir): copy it into a site (web/guide.html); prints the engine's weight against its goals
## The bundle a course author copies into a site (engine/internal/build/dist):
## leaselab.js and leaselab.css, the player, the engine, Pyodide's runtime
## (pyodide/, when make wasm could copy it), embed.html, the guide, an
## example page, the learner's tutorial (English, Korean), NOTICE.txt and manifest.json (version, files, sizes, SRI
## hashes), each file with its .br and .gz; then the engine's weight and
## Pyodide's bytes.
# DIST is taken as written: its value unexpanded by make, reaching the
# recipe only through the environment, quoted there, so no character of
# it (a space, a quote, ;, $, a backtick) is make's or the shell's syntax.
dist: override export DIST := $(value DIST)
dist: wasm
	@test -n "$$DIST" || { echo "dist: say where to write the bundle: make dist DIST=dir"; exit 2; }
	$(GO) run ./engine/internal/build/dist -web web -out "$$DIST"

## sites: course sites built by MkDocs (plain and Material), Hugo, Sphinx (rST, MyST), nbconvert, VitePress, Docusaurus and Starlight, served plainly, played in headless Chromium
## The site tests (engine/internal/browsertest/sites): the bundle in sites built from
## testdata/ and the guide's snippets, served by a plain static server on
## 127.0.0.1, prerendered, played in headless Chromium, and read without
## JavaScript. VitePress, Docusaurus and Starlight come from their pinned lock files
## (npm ci, once per lock file, in the user's cache folder). Installs the
## generators from Debian's packages when they are missing and it can
## (.ci/need-sites), or stops saying what to install.
sites: wasm $(WEB_TOOLS)/node_modules/.bin/biome
	bash .ci/need-chromium
	bash .ci/need-sites
	$(GO) test -count=1 -timeout 20m -tags sites,mutants ./engine/internal/browsertest/sites/

WORKER := wasm/worker
# Cloudflare's free plan takes a Worker of at most 3 MiB compressed.
WORKER_MAX_GZIP := 3145728

## worker: build the Cloudflare Worker (HTTP API on D1) into wasm/worker/build and report its size
worker:
	GOOS=js GOARCH=wasm $(GO) vet ./$(WORKER)/
	cd $(WORKER) && $(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o build
	cd $(WORKER) && GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o build/app.wasm .
	@raw=$$(wc -c < $(WORKER)/build/app.wasm); gz=$$(gzip -9 -c $(WORKER)/build/app.wasm | wc -c); \
	echo "worker: $(WORKER)/build/app.wasm $$raw bytes raw, $$gz bytes gzip -9 (limit $(WORKER_MAX_GZIP) compressed)"; \
	if [ $$gz -gt $(WORKER_MAX_GZIP) ]; then echo "worker: over Cloudflare's 3 MiB compressed limit"; exit 1; fi

## worker-test: the HTTP contract suite against the Worker under wrangler dev --local with a local D1
worker-test: worker
	@command -v node >/dev/null || { echo "worker-test: node (20) is required to run wrangler"; exit 1; }
	@test -x $(WORKER)/node_modules/.bin/wrangler || { echo "worker-test: installing the pinned wrangler (npm ci)"; \
		cd $(WORKER) && CI=true npm ci --no-audit --no-fund; }
	set -o pipefail; LEASELAB_WORKER_TEST=1 CI=true WRANGLER_SEND_METRICS=false \
		$(GO) test -count=1 -v -run '^TestContract_Wrangler$$' ./$(WORKER)/ | tee $(WORKER)/build/worker-test.log
	@grep -q -- '^--- PASS: TestContract_Wrangler ' $(WORKER)/build/worker-test.log || \
		{ echo "worker-test: TestContract_Wrangler did not run and pass"; exit 1; }

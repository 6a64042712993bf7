# leaselab — run `make serve` to play the simulator, `make test` to run every test.
SHELL := /bin/bash
GO ?= go
ADDR ?= 127.0.0.1:8080
GOROOT := $(shell $(GO) env GOROOT)

.PHONY: all serve test fmt vet gotest mutants bench wasm worker

all: test

## serve: build the wasm and serve the simulator on $(ADDR)
serve: wasm
	$(GO) run . serve -addr $(ADDR)

## test: everything CI runs
test: fmt vet gotest mutants

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	$(GO) vet -tags mutants ./engine/...

gotest:
	$(GO) test -race -count=1 ./...

mutants:
	@echo "mutants: not yet wired"

bench:
	@echo "bench: not yet wired"

wasm:
	@echo "wasm: not yet wired"

worker:
	@echo "worker: not yet wired"

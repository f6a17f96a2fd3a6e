GO      ?= go
BIN     ?= bin/agents
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo none)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X github.com/agentsctl/agents/internal/version.Version=$(VERSION) \
           -X github.com/agentsctl/agents/internal/version.Commit=$(COMMIT) \
           -X github.com/agentsctl/agents/internal/version.Date=$(DATE)
FUZZTIME ?= 30s

.PHONY: all build install test vet fmt-check lint bench fuzz clean

all: build

# Built without cgo, as releases are: a static binary starts faster (no
# dynamic loader) and runs the same everywhere.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/agents

install:
	CGO_ENABLED=0 $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/agents

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# Pinned linters, run through the Go module proxy, so that a fresh clone
# needs nothing but Go.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOIMPORTS   ?= golang.org/x/tools/cmd/goimports@v0.51.0

lint:
	$(GO) run $(STATICCHECK) ./...
	@out=$$($(GO) run $(GOIMPORTS) -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "goimports needed:"; echo "$$out"; exit 1; fi

test: vet fmt-check lint
	$(GO) test -race ./...

# Go benchmarks of the packages (allocations too), then whole commands
# against a hello-world floor (bench/cli.sh; see docs/performance.md).
# Not run in CI: timings need a quiet machine and say nothing about
# correctness.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	GO=$(GO) sh bench/cli.sh

fuzz:
	@$(GO) list -f '{{.ImportPath}}' ./... | while read pkg; do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin

# Reference pages from the command tree: markdown in docs/cli, man pages in
# docs/man. A test (internal/tools/gendocs) fails when the checked-in pages
# are out of date.
.PHONY: docs
docs:
	$(GO) run ./internal/tools/gendocs

# Release archives (.goreleaser.yaml runs `make completions manpages` first).
GORELEASER ?= github.com/goreleaser/goreleaser/v2@v2.15.1
MAN_SRC    ?= docs/man

.PHONY: completions manpages release-check

# Shell completion scripts, written by the binary itself. An AGENTS_HOME
# that does not exist keeps the user's configuration out of it.
completions: build
	rm -rf completions && mkdir -p completions
	AGENTS_HOME=$(CURDIR)/completions/.nohome $(BIN) completion bash > completions/agents.bash
	AGENTS_HOME=$(CURDIR)/completions/.nohome $(BIN) completion zsh > completions/_agents
	AGENTS_HOME=$(CURDIR)/completions/.nohome $(BIN) completion fish > completions/agents.fish
	AGENTS_HOME=$(CURDIR)/completions/.nohome $(BIN) completion powershell > completions/agents.ps1

# Gzipped man pages from $(MAN_SRC), which `make docs` generates and the
# repository keeps (a test fails when they are stale).
manpages:
	@ls $(MAN_SRC)/*.1 >/dev/null 2>&1 || { echo "no man pages in $(MAN_SRC); run 'make docs'" >&2; exit 1; }
	rm -rf manpages && mkdir -p manpages
	for f in $(MAN_SRC)/*.1; do gzip -9 -n -c "$$f" > manpages/$$(basename "$$f").gz || exit 1; done

# Check .goreleaser.yaml with a pinned GoReleaser (downloaded through the Go
# module proxy on first use; newer releases need a newer Go). Not run in CI.
release-check:
	$(GO) run $(GORELEASER) check

# The process-level suites at full size (docs/reliability.md): 400 writers
# killed mid-write, 50 processes x 20 mutations with readers throughout
# (on the file store and on PostgreSQL), the hostile-input corpus and the
# permission checks. A few minutes on two cores; `make test` runs the same
# suites reduced. Not run in CI.
STRESS_RUN ?= ^(TestStress|TestHostile|TestConcurrentAddUpdate)

.PHONY: stress

stress:
	AGENTS_STRESS=full $(GO) test -count=1 -v -timeout 30m -run '$(STRESS_RUN)' ./cmd/agents

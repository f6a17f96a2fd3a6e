GO      ?= go
BIN     ?= bin/agents
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo none)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X github.com/agentsctl/agents/internal/version.Version=$(VERSION) \
           -X github.com/agentsctl/agents/internal/version.Commit=$(COMMIT) \
           -X github.com/agentsctl/agents/internal/version.Date=$(DATE)
FUZZTIME ?= 30s

.PHONY: all build install test vet fmt-check bench fuzz clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/agents

install:
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/agents

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

test: vet fmt-check
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	@for t in $$($(GO) test -list '^Fuzz' ./... | grep '^Fuzz' ); do :; done
	@$(GO) list -f '{{.ImportPath}}' ./... | while read pkg; do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin

# Reference pages from the command tree: markdown in docs/cli, man pages in
# docs/man. A test fails when the checked-in pages are out of date.
.PHONY: docs manpages completions
docs:
	$(GO) run ./internal/tools/gendocs

manpages:
	$(GO) run ./internal/tools/gendocs -markdown ''

# Shell completion scripts, for packaging.
completions:
	@mkdir -p completions
	$(GO) run ./cmd/agents completion bash > completions/agents.bash
	$(GO) run ./cmd/agents completion zsh > completions/agents.zsh
	$(GO) run ./cmd/agents completion fish > completions/agents.fish
	$(GO) run ./cmd/agents completion powershell > completions/agents.ps1

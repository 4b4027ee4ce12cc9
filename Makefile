# todo-shell: the usual tasks. Only Go (and gcc for -race) is needed.
GO       ?= go
BIN      ?= bin/todo-shell
FUZZTIME ?= 1000000x
# The targets that write files or open SQLite for each input run slower:
# their own count (FuzzTranscript writes files and reads them eight times
# an input).
FUZZTIME_FILES ?= 50000x
BENCHCOUNT ?= 6
DIFFLINES ?= 20000
# The version `todo-shell version` prints: the nearest tag, commits since,
# the commit, and -dirty for uncommitted changes (v0.3.0-4-g1a2b3c4-dirty);
# the commit alone when there is no tag. Without git it stays empty and the
# binary falls back to the build info Go records.
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS  := -X github.com/todo-shell/todo-shell/cmd.Version=$(VERSION)

.PHONY: build install run test faults bench fuzz lint clean

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) .

# Puts todo-shell in $(go env GOBIN), or $(go env GOPATH)/bin when GOBIN is
# unset: add that directory to PATH.
install:
	$(GO) install -ldflags '$(LDFLAGS)' .
	@echo "installed $$( (d=$$($(GO) env GOBIN); [ -n "$$d" ] || d=$$($(GO) env GOPATH)/bin; echo $$d) )/todo-shell"

run:
	$(GO) run .

# The README's test command.
test:
	$(GO) test -race ./...

# The fault-injection suite: every test named TestFault… (write failures at
# every step, a real file-size limit on a child, signals, hostile input).
faults:
	$(GO) test -race -count=1 -run 'Fault' ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count $(BENCHCOUNT) ./...

# Each fuzz target for FUZZTIME (FUZZTIME_FILES for the slow ones); go
# test -fuzz takes one target at a time.
# FUZZTIME is a count of inputs (Nx), not a duration: with a duration, Go
# before 1.27 can fail a target with a bare "context deadline exceeded" as
# the time runs out on a loaded machine (golang/go#75804; CI saw it once on
# FuzzScan, with no failing input written).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzTodoWrite$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./tools/todo
	$(GO) test -run '^$$' -fuzz '^FuzzScan$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/bashline
	$(GO) test -run '^$$' -fuzz '^FuzzWords$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/bashline
	$(GO) test -run '^$$' -fuzz '^FuzzCommands$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/bashline
	$(GO) test -run '^$$' -fuzz '^FuzzVisit$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/bashline
	$(GO) test -run '^$$' -fuzz '^FuzzCheckBash$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/permission
	$(GO) test -run '^$$' -fuzz '^FuzzBashCommand$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/permission
	# The differential test against bash, longer than CI's and with a new seed each time.
	TODO_SHELL_DIFF_LINES=$(DIFFLINES) TODO_SHELL_DIFF_SEED=$$(date +%s) $(GO) test -count=1 -run '^TestDifferentialAgainstBash$$' -v -timeout 30m ./internal/permission
	$(GO) test -run '^$$' -fuzz '^FuzzAppendJSONString$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./tools
	$(GO) test -run '^$$' -fuzz '^FuzzScan$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/plan
	$(GO) test -run '^$$' -fuzz '^FuzzLines$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/readgate
	$(GO) test -run '^$$' -fuzz '^FuzzTaskTools$$' -fuzztime $(FUZZTIME_FILES) -fuzzminimizetime 5s ./tools/task
	$(GO) test -run '^$$' -fuzz '^FuzzJournal$$' -fuzztime $(FUZZTIME_FILES) -fuzzminimizetime 5s ./tools/task
	$(GO) test -run '^$$' -fuzz '^FuzzDatabase$$' -fuzztime $(FUZZTIME_FILES) -fuzzminimizetime 5s ./internal/opencodedb
	$(GO) test -run '^$$' -fuzz '^FuzzMerge$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/hook
	$(GO) test -run '^$$' -fuzz '^FuzzTranscript$$' -fuzztime $(FUZZTIME_FILES) -fuzzminimizetime 5s ./internal/hold

# The linters, at a pinned version (installed into Go's bin directory on
# first use); their configuration is .golangci.yml.
GOLANGCI_LINT_VERSION ?= v2.15.0
GOLANGCI_LINT ?= $(shell $(GO) env GOPATH)/bin/golangci-lint

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@$(GOLANGCI_LINT) --version 2>/dev/null | grep -q "version $(GOLANGCI_LINT_VERSION:v%=%) " || \
		$(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	$(GOLANGCI_LINT) run ./...

clean:
	rm -rf bin

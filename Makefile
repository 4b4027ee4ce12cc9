# todo-shell: the usual tasks. Only Go (and gcc for -race) is needed.
GO       ?= go
BIN      ?= bin/todo-shell
FUZZTIME ?= 30s
BENCHCOUNT ?= 6

.PHONY: build run test faults bench fuzz lint clean

build:
	$(GO) build -o $(BIN) .

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

# Each fuzz target for FUZZTIME; go test -fuzz takes one target at a time.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzTodoWrite$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./tools/todo
	$(GO) test -run '^$$' -fuzz '^FuzzScan$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./tools/internal/jsonscan
	$(GO) test -run '^$$' -fuzz '^FuzzSplit$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./router
	$(GO) test -run '^$$' -fuzz '^FuzzAppendJSONString$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./tools

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
